//! `--target spirv`: naga's SPIR-V writer over the module with the contract
//! layouts written into its types.

use crate::diag::{Diagnostic, Diagnostics};
use crate::front::Parsed;
use crate::layout::LayoutModule;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpirvOptions {
    /// (major, minor), 1.0 ..= 1.6.
    pub version: (u8, u8),
    /// Drop debug names (OpName, OpMemberName).
    pub strip_names: bool,
}

impl Default for SpirvOptions {
    fn default() -> Self {
        SpirvOptions {
            version: (1, 3),
            strip_names: false,
        }
    }
}

/// SPIR-V words plus warnings (e.g. the Vulkan feature a layout needs).
pub struct SpirvOutput {
    pub words: Vec<u32>,
    pub warnings: Vec<Diagnostic>,
}

pub fn write(
    parsed: &Parsed,
    contract: &LayoutModule,
    options: &SpirvOptions,
) -> Result<SpirvOutput, Diagnostics> {
    let _ = (parsed, contract, options);
    Err(Diagnostic::error("the SPIR-V backend is not written yet").into())
}
