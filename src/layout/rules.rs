//! Rule sets, table-driven: one description per rule set, one algorithm.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSet {
    /// The contract: WGSL memory layout plus the dialect.
    Wgsl,
    Std140,
    Std430,
    Scalar,
    HlslCbuffer,
    HlslStructured,
}

impl RuleSet {
    pub const ALL: [RuleSet; 6] = [
        RuleSet::Wgsl,
        RuleSet::Std140,
        RuleSet::Std430,
        RuleSet::Scalar,
        RuleSet::HlslCbuffer,
        RuleSet::HlslStructured,
    ];

    /// The name used on the command line and in output.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Wgsl => "wgsl",
            RuleSet::Std140 => "std140",
            RuleSet::Std430 => "std430",
            RuleSet::Scalar => "scalar",
            RuleSet::HlslCbuffer => "hlsl-cbuffer",
            RuleSet::HlslStructured => "hlsl-structured",
        }
    }

    pub fn from_name(name: &str) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|r| r.name() == name)
    }
}
