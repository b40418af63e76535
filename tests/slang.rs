//! Oracle test of the Slang target (`--target slang`): stride's Slang
//! checked by the Slang compiler (2026.12, through `stride-slangc`, see
//! scripts/install-slang.sh and tests/common/slang.rs).
//!
//! For every corpus input (every theme folder except `errors/`; inputs the
//! front end rejects are the errors corpus's business) and every input of
//! `tests/regressions/`:
//!
//! - stride translates it for Slang, as `--target slang` does (the HLSL
//!   writer with `slang: true` at shader model 6.6; the text must be
//!   [`stride::translate`]'s). A translation that fails with error
//!   diagnostics must be listed in [`NOT_FITTING`]; a listed input that
//!   translates is a failure too (the list is stale);
//! - Slang compiles every entry point, one per call, to SPIR-V
//!   (`-target spirv -profile spirv_1_4 -fvk-use-dx-layout`: SPIR-V 1.4
//!   since Slang crashes on some atomics at 1.3; D3D packing for nested
//!   structs, which stride's cbuffer variants are made for), which
//!   spirv-val must accept (`--target-env vulkan1.2 --scalar-block-layout`,
//!   after [`slang::patch_source_language`]), and to HLSL (`-target hlsl`),
//!   both with `-reflection-json`. A module without entry points (a
//!   library) is only checked and laid out (`-no-codegen`, both targets):
//!   Slang generates no code without an entry point (SPIR-V: "E57004
//!   SPIR-V output contains no exported symbols"; HLSL: an empty output);
//! - in the reflection of both targets, the offset of every cbuffer member
//!   equals stride's layout IR (`stride::analyze`), members of nested
//!   structs and of element 0 of arrays included (Slang gives offsets
//!   relative to the enclosing struct; they are summed), and every array
//!   dimension's element count and stride equal the contract's. Scalars
//!   and vectors must have the contract's scalar type and size; a matrix
//!   must be `row_major` as stride writes it (HLSL rows = WGSL columns,
//!   rows 16 bytes apart: its reflected size tells). A matrix split into
//!   column members `<m>_c0`, `<m>_c1`, ... (or an array element wrapped
//!   in a struct whose value member is `v` and whose columns are `v_c0`,
//!   `v_c1`, ...) is compared column by column. Padding members
//!   (`_s_pad<n>`, `_s_<global>_pad<n>`) are ignored; any other member
//!   that no contract member matches is a failure. HLSL names come from
//!   the writer's [`stride::back::hlsl::HlslNames`], as in tests/hlsl.rs;
//! - bindings: Slang reflects every global of the module in every compile
//!   (the entry point's `bindings` say which it uses); each must be one of
//!   stride's resources (`HlslOutput::registers`) and bound as stride says.
//!   SPIR-V: `descriptorTableSlot` with set and binding = the WGSL
//!   `@group`/`@binding` (stride's own cbuffers, such as the workgroup
//!   count: their register and space), `var<immediate>`: a
//!   `pushConstantBuffer` (Slang also reflects a `descriptorTableSlot` for
//!   its `register(b..)`, which the module does not have, see
//!   tests/slang_smoke.rs); the `DescriptorSet`/`Binding` decorations in
//!   the SPIR-V module (only the resources the entry point uses) must say
//!   the same, and a push constant has none. HLSL: the register class,
//!   space and number of `HlslOutput::registers`.
//!
//! Slang's warnings are printed with the summary (how many compiles gave
//! each); they do not fail the test.
//!
//! A missing `stride-slangc` (or spirv-val) skips the test loudly;
//! `STRIDE_REQUIRE_ORACLES=1` turns it into a failure.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use common::slang::{self, Binding, Reflection};
use common::*;
use serde_json::Value;
use stride::back::hlsl::{HlslNames, HlslOptions, HlslOutput, HlslRegister, ShaderModel};
use stride::front::Parsed;
use stride::layout::{Layout, LayoutKind, LayoutModule, Scalar, ScalarKind};

/// `(input, why)`: corpus inputs that Slang cannot express. stride must
/// reject them with error diagnostics (not an internal error); every other
/// input must translate. Inputs are named as in diagnostics
/// (`corpus/<theme>/<file>.wgsl`). When this list is wrong the test prints
/// the inputs that actually failed, in this syntax.
const NOT_FITTING: &[(&str, &str)] = &[(
    "corpus/shaders/stage_io.wgsl",
    "@interpolate(linear, centroid) and (linear, sample): Slang 2026.12 rejects \
     `noperspective` with `centroid` or `sample` as a duplicate modifier",
)];

/// Arguments of every SPIR-V compile.
const SPIRV_ARGS: [&str; 5] = [
    "-target",
    "spirv",
    "-profile",
    "spirv_1_4",
    "-fvk-use-dx-layout",
];

/// spirv-val's arguments for Slang's SPIR-V.
const SPIRV_VAL_ARGS: [&str; 3] = ["--target-env", "vulkan1.2", "--scalar-block-layout"];

#[derive(Default)]
struct Counts {
    inputs: usize,
    translated: usize,
    not_fitting: usize,
    entry_points: usize,
    /// Entry points Slang compiled to SPIR-V that spirv-val accepts.
    spirv: usize,
    /// Entry points Slang compiled to HLSL.
    hlsl: usize,
    /// Modules without entry points, checked with `-no-codegen`.
    libraries: usize,
    /// Distinct cbuffers of stride's contract compared (per input).
    cbuffers: usize,
    /// Member offsets equal to the contract, per target.
    members: [usize; 2],
    /// Array dimensions whose count and stride equal the contract's, per
    /// target.
    strides: [usize; 2],
    /// Reflected bindings equal to stride's, per target (each global once
    /// per input).
    bindings: [usize; 2],
    /// `DescriptorSet`/`Binding` decoration pairs in Slang's SPIR-V modules
    /// equal to the WGSL binding.
    decorations: usize,
}

/// The two targets Slang compiles to.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Which {
    Spirv,
    Hlsl,
}

impl Which {
    const BOTH: [Which; 2] = [Which::Spirv, Which::Hlsl];

    fn label(self) -> &'static str {
        match self {
            Which::Spirv => "SPIR-V",
            Which::Hlsl => "HLSL",
        }
    }

    fn args(self) -> &'static [&'static str] {
        match self {
            Which::Spirv => &SPIRV_ARGS,
            Which::Hlsl => &["-target", "hlsl"],
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Slang's name of an entry point stage (`-stage`, `[shader(...)]`).
fn stage_name(stage: naga::ShaderStage) -> &'static str {
    match stage {
        naga::ShaderStage::Vertex => "vertex",
        naga::ShaderStage::Fragment => "fragment",
        naga::ShaderStage::Compute => "compute",
        naga::ShaderStage::Task => "amplification",
        naga::ShaderStage::Mesh => "mesh",
        naga::ShaderStage::RayGeneration => "raygeneration",
        naga::ShaderStage::Miss => "miss",
        naga::ShaderStage::AnyHit => "anyhit",
        naga::ShaderStage::ClosestHit => "closesthit",
    }
}

/// Per warning line: compiles, inputs.
type Warnings = BTreeMap<String, (usize, BTreeSet<String>)>;

type Translated = (Parsed, HlslOutput, LayoutModule);

/// Translate `source` for Slang: `Err(Ok(diagnostics))` when stride
/// rejects it with error diagnostics, `Err(Err(..))` for an internal
/// error.
fn translate(name: &str, source: &str) -> Result<Translated, Result<String, String>> {
    let stride::Analysis {
        parsed,
        info,
        contract,
        ..
    } = stride::analyze(source).map_err(|e| Err(e.render(name, source, false)))?;
    // What `--target slang` does (src/lib.rs).
    let options = HlslOptions {
        slang: true,
        shader_model: Some(ShaderModel::Sm6_6),
        registers: common::registers_for(&parsed),
    };
    match stride::back::write_text(&parsed, &info, &contract, &Default::default(), &options) {
        Ok(out) => Ok((parsed, out, contract)),
        Err(e) => {
            let text = e.render(name, source, false);
            if e.iter().any(|d| d.is_error() && d.is_internal()) {
                Err(Err(text))
            } else {
                Err(Ok(text))
            }
        }
    }
}

/// The text `--target slang` writes for `source`, or why there is none.
fn target_slang_text(source: &str, parsed: &Parsed) -> Result<String, String> {
    let mut options = stride::Options {
        target: stride::Target::Slang,
        ..Default::default()
    };
    options.hlsl.registers = common::registers_for(parsed);
    match stride::translate(source, &options) {
        Ok(t) => match t.output {
            stride::Output::Text(text) => Ok(text),
            _ => Err("not a text output".into()),
        },
        Err(e) => Err(e.render("input.wgsl", source, false)),
    }
}

#[test]
fn corpus_slang_compiles_and_reflection_matches_the_contract() {
    const TEST: &str = "slang::corpus_slang_compiles_and_reflection_matches_the_contract";
    if !slang::require_slang(TEST) || !require_tool("spirv-val", &["--version"], TEST) {
        return;
    }
    let mut counts = Counts::default();
    let mut failures = Vec::new();
    let mut rejected = Vec::new();
    // Slang's warnings (first line): how many compiles gave each, and in
    // which inputs.
    let mut warnings: Warnings = BTreeMap::new();
    for input in corpus_inputs().into_iter().chain(regression_inputs()) {
        let name = display_name(&input);
        if name.starts_with("corpus/errors/") {
            continue;
        }
        let Ok(source) = std::fs::read_to_string(&input) else {
            failures.push(format!("{name}: cannot read"));
            continue;
        };
        if stride::analyze(&source).is_err() {
            continue;
        }
        counts.inputs += 1;
        let listed = NOT_FITTING.iter().find(|(n, _)| *n == name);
        let (parsed, out, contract) = match translate(&name, &source) {
            Ok(x) => x,
            Err(Ok(diags)) => {
                if listed.is_some() {
                    counts.not_fitting += 1;
                } else {
                    rejected.push(format!("    (\"{name}\", \"...\"),"));
                    failures.push(format!("{name}: rejected, not in NOT_FITTING:\n{diags}"));
                }
                continue;
            }
            Err(Err(diags)) => {
                failures.push(format!("{name}: internal error or panic:\n{diags}"));
                continue;
            }
        };
        if listed.is_some() {
            failures.push(format!(
                "{name}: listed in NOT_FITTING but translates; remove it from the list"
            ));
        }
        counts.translated += 1;
        match target_slang_text(&source, &parsed) {
            Ok(text) if text == out.text => {}
            Ok(_) => failures.push(format!(
                "{name}: `--target slang` writes another text than the HLSL writer with \
                 the options this test uses; update `translate`"
            )),
            Err(e) => failures.push(format!("{name}: `--target slang` fails:\n{e}")),
        }
        let mut input_check = InputCheck {
            name: &name,
            parsed: &parsed,
            out: &out,
            contract: &contract,
            counts: &mut counts,
            failures: &mut failures,
            warnings: &mut warnings,
            dir: temp_dir("slang-oracle"),
            file: format!(
                "{}.slang",
                input.file_stem().unwrap_or_default().to_string_lossy()
            ),
            cbuffers: BTreeSet::new(),
            bound: BTreeSet::new(),
            cbuffer_names: BTreeSet::new(),
        };
        input_check.run();
        let _ = std::fs::remove_dir_all(&input_check.dir);
    }
    if !rejected.is_empty() {
        loud(&format!(
            "slang: inputs rejected but not in NOT_FITTING:\n{}",
            rejected.join("\n")
        ));
    }
    if !warnings.is_empty() {
        loud(&format!(
            "slang: Slang's warnings (compiles, inputs):\n{}",
            warnings
                .iter()
                .map(|(w, (n, inputs))| {
                    let mut list: Vec<&str> = inputs.iter().map(String::as_str).take(3).collect();
                    if inputs.len() > 3 {
                        list.push("...");
                    }
                    format!(
                        "    {w} ({n} compiles, {} inputs: {})",
                        inputs.len(),
                        list.join(", ")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    let (spirv, hlsl) = (Which::Spirv.index(), Which::Hlsl.index());
    let summary = format!(
        "{} inputs, {} translated, {} not fitting Slang, {} and {} of {} entry points compiled \
         by Slang to SPIR-V (valid for spirv-val) and to HLSL, {} library checked without code \
         (-no-codegen), {} cbuffers: {} + {} member offsets and {} + {} array strides \
         (SPIR-V + HLSL reflection) equal to the contract, {} + {} bindings equal to stride's \
         (Vulkan set/binding + D3D register), {} SPIR-V binding decorations equal to the WGSL \
         bindings",
        counts.inputs,
        counts.translated,
        counts.not_fitting,
        counts.spirv,
        counts.hlsl,
        counts.entry_points,
        counts.libraries,
        counts.cbuffers,
        counts.members[spirv],
        counts.members[hlsl],
        counts.strides[spirv],
        counts.strides[hlsl],
        counts.bindings[spirv],
        counts.bindings[hlsl],
        counts.decorations,
    );
    finish("slang", summary, failures);
}

/// Everything checked for one translated input.
struct InputCheck<'a> {
    name: &'a str,
    parsed: &'a Parsed,
    out: &'a HlslOutput,
    contract: &'a LayoutModule,
    counts: &'a mut Counts,
    failures: &'a mut Vec<String>,
    warnings: &'a mut Warnings,
    /// Where Slang's input and outputs go.
    dir: std::path::PathBuf,
    /// The input's file name there (`<stem>.slang`).
    file: String,
    /// `(target, cbuffer)` already compared.
    cbuffers: BTreeSet<(Which, String)>,
    /// `(target, global)` whose binding was already counted.
    bound: BTreeSet<(Which, String)>,
    /// Cbuffers compared in either target.
    cbuffer_names: BTreeSet<String>,
}

/// How stride binds one resource for Vulkan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vulkan {
    Descriptor { set: u64, binding: u64 },
    PushConstant,
}

impl InputCheck<'_> {
    fn fail(&mut self, what: String) {
        self.failures.push(format!("{}: {what}", self.name));
    }

    fn run(&mut self) {
        // (WGSL name, HLSL function, stage); `None`: a library.
        let jobs: Vec<(String, String, &str)> = self
            .out
            .entry_points
            .iter()
            .map(|ep| (ep.name.clone(), ep.function.clone(), stage_name(ep.stage)))
            .collect();
        if jobs.is_empty() {
            self.counts.libraries += 1;
            for which in Which::BOTH {
                let json = format!("library.{}.json", which.label());
                let mut args = which.args().to_vec();
                args.extend(["-no-codegen", "-reflection-json", &json]);
                if let Some(refl) = self.compile("(library)", &args, &json) {
                    self.reflection(which, &refl, None);
                }
            }
            return;
        }
        for (ep, function, stage) in &jobs {
            self.counts.entry_points += 1;
            for which in Which::BOTH {
                let ext = match which {
                    Which::Spirv => "spv",
                    Which::Hlsl => "hlsl",
                };
                let output = format!("{function}.out.{ext}");
                let json = format!("{function}.{ext}.json");
                let mut args = which.args().to_vec();
                args.extend([
                    "-entry",
                    function,
                    "-stage",
                    stage,
                    "-o",
                    &output,
                    "-reflection-json",
                    &json,
                ]);
                let what = format!("entry point `{ep}` ({stage}) to {}", which.label());
                let Some(refl) = self.compile(&what, &args, &json) else {
                    continue;
                };
                let bytes = match std::fs::read(self.dir.join(&output)) {
                    Ok(b) => b,
                    Err(e) => {
                        self.fail(format!("{what}: `-o {output}` not written: {e}"));
                        continue;
                    }
                };
                match which {
                    Which::Spirv => {
                        if let Err(e) = slang::spirv_val(&bytes, &SPIRV_VAL_ARGS) {
                            self.fail(format!(
                                "{what}: spirv-val rejects Slang's SPIR-V:\n{e}\n--- Slang input:\n{}",
                                numbered(&self.out.text)
                            ));
                            continue;
                        }
                        self.counts.spirv += 1;
                        self.decorations(&what, &bytes);
                    }
                    Which::Hlsl => {
                        if bytes.is_empty() {
                            self.fail(format!("{what}: Slang wrote no HLSL"));
                            continue;
                        }
                        self.counts.hlsl += 1;
                    }
                }
                self.reflection(which, &refl, Some((function, stage)));
            }
        }
    }

    /// Runs Slang with `args` on the input; the reflection written to
    /// `json`, or `None` after recording the failure.
    fn compile(&mut self, what: &str, args: &[&str], json: &str) -> Option<Reflection> {
        match slang::run_slangc(&self.out.text, &self.file, args, Some(&self.dir)) {
            Ok(o) => {
                for line in o.diagnostics.lines() {
                    if line.starts_with("warning") {
                        let (n, inputs) = self.warnings.entry(line.to_string()).or_default();
                        *n += 1;
                        inputs.insert(self.name.to_string());
                    }
                }
                let path = self.dir.join(json);
                if path.is_file() {
                    Some(Reflection::read(&path))
                } else {
                    self.fail(format!("{what}: no reflection JSON written"));
                    None
                }
            }
            Err(e) => {
                self.fail(format!(
                    "Slang rejects {what} (stride-slangc {} {}):\n{e}\n--- Slang input:\n{}",
                    self.file,
                    args.join(" "),
                    numbered(&self.out.text)
                ));
                None
            }
        }
    }

    /// stride's resource named `hlsl` (the HLSL declaration's name).
    fn register(&self, hlsl: &str) -> Option<&'_ HlslRegister> {
        self.out.registers.iter().find(|r| r.hlsl_name == hlsl)
    }

    /// How stride binds `reg` for Vulkan: the WGSL binding, a push
    /// constant for `var<immediate>`, stride's own globals at their
    /// register and space.
    fn vulkan(&self, reg: &HlslRegister) -> Vulkan {
        let var = self
            .parsed
            .module
            .global_variables
            .iter()
            .map(|(_, v)| v)
            .find(|v| v.name.as_deref() == Some(reg.global.as_str()));
        match var {
            Some(v) if v.space == naga::AddressSpace::Immediate => Vulkan::PushConstant,
            Some(naga::GlobalVariable {
                binding: Some(rb), ..
            }) => Vulkan::Descriptor {
                set: u64::from(rb.group),
                binding: u64::from(rb.binding),
            },
            _ => Vulkan::Descriptor {
                set: u64::from(reg.space),
                binding: u64::from(reg.register),
            },
        }
    }

    /// Whether Slang's bindings of `reg` (for `which`) are stride's.
    fn binding_ok(&self, which: Which, reg: &HlslRegister, got: &[Binding]) -> Result<(), String> {
        let d3d = Binding {
            kind: register_kind(reg.class).to_string(),
            space: u64::from(reg.space),
            index: u64::from(reg.register),
        };
        let want: Vec<Binding> = match (which, self.vulkan(reg)) {
            (Which::Hlsl, _) => vec![d3d],
            (Which::Spirv, Vulkan::Descriptor { set, binding }) => vec![Binding {
                kind: "descriptorTableSlot".into(),
                space: set,
                index: binding,
            }],
            (Which::Spirv, Vulkan::PushConstant) => {
                let push = Binding {
                    kind: "pushConstantBuffer".into(),
                    space: 0,
                    index: 0,
                };
                // Slang adds a descriptor slot for the cbuffer's register
                // (tests/slang_smoke.rs); the module has no descriptor.
                let slot = Binding {
                    kind: "descriptorTableSlot".into(),
                    space: d3d.space,
                    index: d3d.index,
                };
                if got == [push.clone()] || got == [push.clone(), slot.clone()] {
                    return Ok(());
                }
                vec![push, slot]
            }
        };
        if got == want.as_slice() {
            Ok(())
        } else {
            Err(format!("Slang binds it as {got:?}, stride as {want:?}"))
        }
    }

    /// Compare Slang's reflection for `which` with stride's bindings and
    /// layouts; `entry`: the compiled entry point and its stage.
    fn reflection(&mut self, which: Which, refl: &Reflection, entry: Option<(&str, &str)>) {
        let what = match entry {
            Some((f, _)) => format!("{} reflection of `{f}`", which.label()),
            None => format!("{} reflection of the library", which.label()),
        };
        let params: Vec<Value> = refl
            .json
            .get("parameters")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for p in &params {
            let Some(pname) = p.get("name").and_then(Value::as_str) else {
                self.fail(format!("{what}: a parameter without a name: {p}"));
                continue;
            };
            let Some(reg) = self.register(pname).cloned() else {
                self.fail(format!(
                    "{what}: Slang lists global `{pname}`, which is not among stride's \
                     resources ({})",
                    self.out
                        .registers
                        .iter()
                        .map(|r| r.hlsl_name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                continue;
            };
            match self.binding_ok(which, &reg, &refl.bindings(pname)) {
                Ok(()) => {
                    if self.bound.insert((which, pname.to_string())) {
                        self.counts.bindings[which.index()] += 1;
                    }
                }
                Err(e) => self.fail(format!("{what}: `{pname}` (WGSL `{}`): {e}", reg.global)),
            }
            if p["type"]["kind"] == "constantBuffer"
                && self.cbuffers.insert((which, pname.to_string()))
            {
                self.cbuffer(which, &what, &reg, p);
            }
        }
        let Some((function, stage)) = entry else {
            return;
        };
        let found = refl
            .json
            .get("entryPoints")
            .and_then(Value::as_array)
            .and_then(|es| {
                es.iter()
                    .find(|e| e.get("name").and_then(Value::as_str) == Some(function))
            });
        let Some(ep) = found else {
            self.fail(format!("{what}: no entry point `{function}` reflected"));
            return;
        };
        if ep.get("stage").and_then(Value::as_str) != Some(stage) {
            self.fail(format!(
                "{what}: stage {}, not {stage}",
                ep.get("stage").unwrap_or(&Value::Null)
            ));
        }
        // The entry point's list: the same bindings.
        for (pname, binding, _) in refl.entry_point_bindings(function) {
            match self.register(&pname).cloned() {
                Some(reg) => {
                    let all = refl.bindings(&pname);
                    if !all.contains(&binding) {
                        self.fail(format!(
                            "{what}: the entry point binds `{pname}` as {binding:?}, the \
                             module as {all:?}"
                        ));
                    }
                    // Push constants: checked as a whole above.
                    if self.vulkan(&reg) != Vulkan::PushConstant || which == Which::Hlsl {
                        if let Err(e) = self.binding_ok(which, &reg, &[binding]) {
                            self.fail(format!("{what}: entry point's `{pname}`: {e}"));
                        }
                    }
                }
                None => self.fail(format!(
                    "{what}: the entry point lists `{pname}`, which is not among stride's \
                     resources"
                )),
            }
        }
    }

    /// The `DescriptorSet`/`Binding` decorations of Slang's SPIR-V module:
    /// every decorated variable is a resource of stride's with that WGSL
    /// binding; push constants have none.
    fn decorations(&mut self, what: &str, bytes: &[u8]) {
        let Some(text) = spirv_dis(bytes) else {
            self.fail(format!("{what}: spirv-dis cannot read the patched module"));
            return;
        };
        for (var, set, binding) in spirv_bindings(&text) {
            let Some(reg) = self.register(&var).cloned() else {
                self.fail(format!(
                    "{what}: SPIR-V variable `{var}` has set {set:?} binding {binding:?} but \
                     is not among stride's resources"
                ));
                continue;
            };
            match self.vulkan(&reg) {
                Vulkan::Descriptor { set: s, binding: b }
                    if set == Some(s) && binding == Some(b) =>
                {
                    self.counts.decorations += 1
                }
                want => self.fail(format!(
                    "{what}: SPIR-V decorates `{var}` with set {set:?} binding {binding:?}, \
                     stride binds it as {want:?}"
                )),
            }
        }
    }

    /// Compare one cbuffer's members in Slang's reflection `p` with the
    /// contract layout of its global.
    fn cbuffer(&mut self, which: Which, what: &str, reg: &HlslRegister, p: &Value) {
        let Some(global) = self.contract.globals.iter().find(|g| g.name == reg.global) else {
            // stride's own cbuffers (the workgroup count) have no contract.
            return;
        };
        if self.cbuffer_names.insert(reg.hlsl_name.clone()) {
            self.counts.cbuffers += 1;
        }
        let what = format!("{what}: cbuffer `{}`", reg.hlsl_name);
        let fields = match p["type"]["elementVarLayout"]["type"]["fields"].as_array() {
            Some(fs) => parse_fields(fs, 0),
            None => Err(format!("no fields: {}", p["type"])),
        };
        let fields = match fields {
            Ok(f) => f,
            Err(e) => {
                self.fail(format!("{what}: unexpected reflection: {e}"));
                return;
            }
        };
        if reg.words {
            // Declared as `uint4` words (no cbuffer holds its layout): one
            // field from offset 0 covering the contract size. Its values are
            // checked by execution (tests/exec.rs).
            let need = global.layout.size.unwrap_or(0);
            match fields.as_slice() {
                [f] if f.offset == 0 && f.size.div_ceil(16) * 16 >= need => {}
                _ => self.fail(format!(
                    "{what}: `{}` is declared as words, but Slang reflects {} fields",
                    global.name,
                    fields.len()
                )),
            }
            return;
        }
        let Some((_, _, top)) = self
            .out
            .names
            .cbuffers
            .iter()
            .find(|(g, _, _)| *g == global.name)
        else {
            self.fail(format!(
                "{what}: the writer names no cbuffer members for `{}`",
                global.name
            ));
            return;
        };
        let mut cmp = Comparer {
            what: &what,
            which,
            contract: self.contract,
            names: &self.out.names,
            counts: self.counts,
            failures: Vec::new(),
            seen: BTreeSet::new(),
        };
        match &global.layout.kind {
            LayoutKind::Struct(h) => match self.contract.structs.get(h) {
                Some(s) => {
                    for m in s.members() {
                        match top.get(m.index) {
                            Some(hlsl) => cmp.member(&fields, hlsl, &m.layout, m.offset, &m.name),
                            None => cmp.fail(format!("no HLSL name for member `{}`", m.name)),
                        }
                    }
                }
                None => cmp.fail(format!(
                    "no contract layout for the type of `{}`",
                    global.name
                )),
            },
            _ => match top.first() {
                Some(hlsl) => cmp.member(&fields, hlsl, &global.layout, 0, &global.name),
                None => cmp.fail(format!("no HLSL name for `{}`", global.name)),
            },
        }
        cmp.leftovers(&fields, "");
        let found = cmp.failures;
        for f in found {
            self.fail(f);
        }
    }
}

/// The reflection kind of a D3D register class.
fn register_kind(class: char) -> &'static str {
    match class {
        'b' => "constantBuffer",
        't' => "shaderResource",
        'u' => "unorderedAccess",
        's' => "samplerState",
        _ => "?",
    }
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("{:4} {l}\n", i + 1))
        .collect()
}

/// spirv-dis of Slang's SPIR-V (patched), with raw ids.
fn spirv_dis(bytes: &[u8]) -> Option<String> {
    let dir = temp_dir("slang-dis");
    let file = dir.join("module.spv");
    std::fs::write(&file, slang::spirv_for_tools(bytes)).ok()?;
    let out = Command::new("spirv-dis")
        .args(["--no-color", "--raw-id"])
        .arg(&file)
        .output()
        .ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `(OpName, DescriptorSet, Binding)` of every id with a `DescriptorSet` or
/// `Binding` decoration. Slang may declare one buffer as several variables
/// (views with different element types), each with the buffer's name.
fn spirv_bindings(text: &str) -> Vec<(String, Option<u64>, Option<u64>)> {
    let mut names: BTreeMap<&str, String> = BTreeMap::new();
    let mut decorated: BTreeMap<&str, (Option<u64>, Option<u64>)> = BTreeMap::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["OpName", id, ref name @ ..] => {
                names.insert(id, name.join(" ").trim_matches('"').to_string());
            }
            ["OpDecorate", id, deco, n] => {
                let Ok(n) = n.parse::<u64>() else { continue };
                match deco {
                    "DescriptorSet" => decorated.entry(id).or_default().0 = Some(n),
                    "Binding" => decorated.entry(id).or_default().1 = Some(n),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    decorated
        .into_iter()
        .map(|(id, (set, binding))| {
            let name = names.get(id).cloned().unwrap_or_else(|| id.to_string());
            (name, set, binding)
        })
        .collect()
}

/// A cbuffer member as Slang reflects it, offsets made absolute.
#[derive(Debug)]
struct Field {
    name: String,
    /// Bytes from the start of the cbuffer.
    offset: u64,
    /// Bytes from `offset` to the member's last byte.
    size: u64,
    ty: Ty,
}

#[derive(Debug)]
enum Ty {
    /// `scalarType`: `float32`, `uint32`, `float16`, ...
    Scalar(String),
    Vector {
        count: u64,
        scalar: String,
    },
    /// HLSL rows and columns (no majorness in the JSON).
    Matrix {
        rows: u64,
        columns: u64,
        scalar: String,
    },
    Array {
        count: u64,
        stride: u64,
        element: Box<Ty>,
    },
    /// Fields at absolute offsets (of element 0, inside arrays).
    Struct {
        name: String,
        fields: Vec<Field>,
    },
}

impl Ty {
    fn describe(&self) -> String {
        match self {
            Ty::Scalar(s) => s.clone(),
            Ty::Vector { count, scalar } => format!("{scalar}x{count}"),
            Ty::Matrix {
                rows,
                columns,
                scalar,
            } => format!("{scalar} {rows}x{columns} matrix"),
            Ty::Array { count, element, .. } => format!("{}[{count}]", element.describe()),
            Ty::Struct { name, .. } => format!("struct {name}"),
        }
    }
}

/// Fields of a struct at absolute offset `base`.
fn parse_fields(fields: &[Value], base: u64) -> Result<Vec<Field>, String> {
    fields
        .iter()
        .map(|f| {
            let name = f["name"]
                .as_str()
                .ok_or(format!("field without name: {f}"))?;
            let b = &f["binding"];
            if b["kind"] != "uniform" {
                return Err(format!("`{name}` is not uniform data: {b}"));
            }
            let (Some(offset), Some(size)) = (b["offset"].as_u64(), b["size"].as_u64()) else {
                return Err(format!("`{name}`: no offset or size: {b}"));
            };
            Ok(Field {
                name: name.to_string(),
                offset: base + offset,
                size,
                ty: parse_type(&f["type"], base + offset)?,
            })
        })
        .collect()
}

/// A type whose value starts at absolute offset `base`.
fn parse_type(t: &Value, base: u64) -> Result<Ty, String> {
    let count = |key: &str| t[key].as_u64().ok_or(format!("no `{key}` in {t}"));
    let scalar = |t: &Value| {
        t["scalarType"]
            .as_str()
            .map(str::to_string)
            .ok_or(format!("no scalarType in {t}"))
    };
    Ok(match t["kind"].as_str() {
        Some("scalar") => Ty::Scalar(scalar(t)?),
        Some("vector") => Ty::Vector {
            count: count("elementCount")?,
            scalar: scalar(&t["elementType"])?,
        },
        Some("matrix") => Ty::Matrix {
            rows: count("rowCount")?,
            columns: count("columnCount")?,
            scalar: scalar(&t["elementType"])?,
        },
        Some("array") => Ty::Array {
            count: count("elementCount")?,
            stride: count("uniformStride")?,
            element: Box::new(parse_type(&t["elementType"], base)?),
        },
        Some("struct") => Ty::Struct {
            name: t["name"].as_str().unwrap_or_default().to_string(),
            fields: parse_fields(
                t["fields"]
                    .as_array()
                    .ok_or(format!("struct without fields: {t}"))?,
                base,
            )?,
        },
        _ => return Err(format!("unexpected type {t}")),
    })
}

/// Whether `name` is a padding member stride writes: `_s_pad<n>` in
/// structs, `_s_<global>_pad<n>` among a cbuffer's own members.
fn is_padding(name: &str) -> bool {
    name.strip_prefix("_s_")
        .and_then(|rest| rest.rsplit_once("pad"))
        .is_some_and(|(head, n)| {
            (head.is_empty() || head.ends_with('_'))
                && !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Slang's `scalarType` for a contract scalar.
fn scalar_name(s: Scalar) -> String {
    let bits = u32::from(s.width) * 8;
    match s.kind {
        ScalarKind::Float => format!("float{bits}"),
        ScalarKind::Sint => format!("int{bits}"),
        ScalarKind::Uint => format!("uint{bits}"),
        ScalarKind::Bool => "bool".to_string(),
    }
}

/// Compares one cbuffer of one reflection with the contract.
struct Comparer<'a> {
    what: &'a str,
    which: Which,
    contract: &'a LayoutModule,
    names: &'a HlslNames,
    counts: &'a mut Counts,
    failures: Vec<String>,
    /// The reflected members matched with a contract member (by address).
    seen: BTreeSet<*const Field>,
}

impl Comparer<'_> {
    /// Every reflected member below `fields` that no contract member
    /// matched, padding members aside, is a failure.
    fn leftovers(&mut self, fields: &[Field], path: &str) {
        for f in fields {
            let fpath = if path.is_empty() {
                f.name.clone()
            } else {
                format!("{path}.{}", f.name)
            };
            if !self.seen.contains(&std::ptr::from_ref(f)) {
                if !is_padding(&f.name) {
                    self.fail(format!(
                        "member `{fpath}` ({}) is in Slang's reflection, not in the contract",
                        f.ty.describe()
                    ));
                }
                continue;
            }
            let mut ty = &f.ty;
            while let Ty::Array { element, .. } = ty {
                ty = element;
            }
            if let Ty::Struct { fields, .. } = ty {
                self.leftovers(fields, &fpath);
            }
        }
    }

    fn fail(&mut self, what: String) {
        self.failures.push(format!("{}: {what}", self.what));
    }

    /// The HLSL name of member `index` of the WGSL struct `wgsl`.
    fn field_name(&self, wgsl: &str, index: usize) -> Option<String> {
        self.names
            .structs
            .iter()
            .find(|(w, _, _)| w == wgsl)
            .and_then(|(_, _, fields)| fields.get(index).cloned())
    }

    /// Compare every member of WGSL struct `h` (at absolute `offset`) with
    /// the reflected `fields`.
    fn fields(&mut self, fields: &[Field], h: naga::Handle<naga::Type>, offset: u64, path: &str) {
        let Some(s) = self.contract.structs.get(&h) else {
            self.fail(format!("`{path}`: no contract layout for its struct"));
            return;
        };
        for f in s.members() {
            let Some(name) = self.field_name(&s.name, f.index) else {
                self.fail(format!("no HLSL name for `{}.{}`", s.name, f.name));
                continue;
            };
            self.member(
                fields,
                &name,
                &f.layout,
                offset + f.offset,
                &format!("{path}.{}", f.name),
            );
        }
    }

    /// The member named `name` among `siblings` must hold a value laid out
    /// as `layout` at absolute offset `offset` (`path`: for messages).
    fn member(&mut self, siblings: &[Field], name: &str, layout: &Layout, offset: u64, path: &str) {
        if let Some(f) = siblings.iter().find(|f| f.name == name) {
            self.seen.insert(std::ptr::from_ref(f));
            self.check_offset(f, offset, path);
            self.value(&f.ty, Some(f.size), layout, offset, path);
            return;
        }
        // A matrix split into columns.
        if matches!(layout.kind, LayoutKind::Matrix { .. })
            && siblings.iter().any(|f| f.name == format!("{name}_c0"))
        {
            self.columns(siblings, name, layout, offset, path);
            return;
        }
        self.fail(format!(
            "no member `{name}` for `{path}` (members: {})",
            siblings
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }

    /// Matrix `layout` at `offset` stored as vectors `<prefix>_c<j>`.
    fn columns(
        &mut self,
        siblings: &[Field],
        prefix: &str,
        layout: &Layout,
        offset: u64,
        path: &str,
    ) {
        let LayoutKind::Matrix {
            columns,
            rows,
            scalar,
            column_stride,
        } = layout.kind
        else {
            self.fail(format!("`{path}`: columns `{prefix}_c<j>` of a non-matrix"));
            return;
        };
        let column = Layout {
            size: Some(u64::from(rows) * u64::from(scalar.width)),
            align: layout.align,
            kind: LayoutKind::Vector { size: rows, scalar },
        };
        for j in 0..u64::from(columns) {
            let name = format!("{prefix}_c{j}");
            let at = offset + j * column_stride;
            let cpath = format!("{path} column {j}");
            match siblings.iter().find(|f| f.name == name) {
                Some(f) => {
                    self.seen.insert(std::ptr::from_ref(f));
                    self.check_offset(f, at, &cpath);
                    self.value(&f.ty, Some(f.size), &column, at, &cpath);
                }
                None => self.fail(format!("no member `{name}` for `{cpath}`")),
            }
        }
    }

    fn check_offset(&mut self, f: &Field, offset: u64, path: &str) {
        if f.offset == offset {
            self.counts.members[self.which.index()] += 1;
        } else {
            self.fail(format!(
                "`{path}` (HLSL `{}`) is at {} in Slang's reflection, {offset} in the contract",
                f.name, f.offset
            ));
        }
    }

    /// A value of reflected type `ty` (`size`: the member's reflected size,
    /// when it is a member) holds `layout` at absolute `offset`.
    fn value(&mut self, ty: &Ty, size: Option<u64>, layout: &Layout, offset: u64, path: &str) {
        match (&layout.kind, ty) {
            (LayoutKind::Struct(h), Ty::Struct { fields, .. }) => {
                self.fields(fields, *h, offset, path);
            }
            (
                LayoutKind::Array {
                    element,
                    stride,
                    count,
                },
                Ty::Array {
                    count: n,
                    stride: s,
                    element: e,
                },
            ) => {
                if Some(*n) == *count && s == stride {
                    self.counts.strides[self.which.index()] += 1;
                } else {
                    self.fail(format!(
                        "`{path}`: Slang has {n} elements {s} bytes apart, the contract {count:?} \
                         elements {stride} bytes apart"
                    ));
                }
                let epath = format!("{path}[0]");
                match (&element.kind, &**e) {
                    // An element struct wrapping the value (`v`) or its
                    // columns (`v_c<j>`), padded to the stride.
                    (k, Ty::Struct { fields, .. }) if !matches!(k, LayoutKind::Struct(_)) => {
                        if fields.iter().any(|f| f.name == "v") {
                            self.member(fields, "v", element, offset, &epath);
                        } else if fields.iter().any(|f| f.name == "v_c0") {
                            self.columns(fields, "v", element, offset, &epath);
                        } else {
                            self.fail(format!(
                                "`{path}`: element struct without `v` or `v_c0`: {}",
                                e.describe()
                            ));
                        }
                    }
                    _ => self.value(e, None, element, offset, &epath),
                }
            }
            (
                LayoutKind::Matrix {
                    columns,
                    rows,
                    scalar,
                    column_stride,
                },
                Ty::Matrix {
                    rows: hrows,
                    columns: hcolumns,
                    scalar: hscalar,
                },
            ) => {
                // `row_major TCxR`: C rows (WGSL columns) of R components,
                // each row starting a register.
                let (c, r) = (u64::from(*columns), u64::from(*rows));
                let width = u64::from(scalar.width);
                if (*hrows, *hcolumns) != (c, r) || *hscalar != scalar_name(*scalar) {
                    self.fail(format!(
                        "`{path}`: Slang type {}, the contract {}x{} matrix (columns x rows) of {}",
                        ty.describe(),
                        c,
                        r,
                        scalar.wgsl_name()
                    ));
                }
                if c > 1 && *column_stride != 16 {
                    self.fail(format!(
                        "`{path}`: a matrix has 16-byte rows in a cbuffer, the contract column \
                         stride is {column_stride}"
                    ));
                }
                let row_major = (c - 1) * 16 + r * width;
                if let Some(size) = size {
                    if size != row_major {
                        self.fail(format!(
                            "`{path}`: Slang's {} is {size} bytes, not {row_major} as a \
                             row_major matrix",
                            ty.describe()
                        ));
                    }
                }
            }
            (LayoutKind::Scalar(s) | LayoutKind::Atomic(s), Ty::Scalar(h)) => {
                self.leaf(*s, 1, h, size, path, ty);
            }
            (LayoutKind::Vector { size: n, scalar }, Ty::Vector { count, scalar: h }) => {
                if u64::from(*n) != *count {
                    self.fail(format!(
                        "`{path}`: Slang type {}, the contract a vector of {n}",
                        ty.describe()
                    ));
                }
                self.leaf(*scalar, u64::from(*n), h, size, path, ty);
            }
            _ => self.fail(format!(
                "`{path}`: Slang type {}, the contract {:?}",
                ty.describe(),
                layout.kind
            )),
        }
    }

    /// `n` scalars `s`: the reflected scalar type `h` and member size.
    fn leaf(&mut self, s: Scalar, n: u64, h: &str, size: Option<u64>, path: &str, ty: &Ty) {
        if h != scalar_name(s) {
            self.fail(format!(
                "`{path}`: Slang type {}, the contract {}",
                ty.describe(),
                s.wgsl_name()
            ));
        }
        let want = n * u64::from(s.width);
        if let Some(size) = size {
            if size != want {
                self.fail(format!(
                    "`{path}`: Slang's {} is {size} bytes, the contract {want}",
                    ty.describe()
                ));
            }
        }
    }
}
