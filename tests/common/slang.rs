//! The Slang oracle: running `stride-slangc` (the slangc-like wrapper over
//! the Slang 2026.12 library from PyPI's slangpy wheel that
//! scripts/install-slang.sh builds), reading its `-reflection-json` output,
//! and preparing its SPIR-V for spirv-val.
//!
//! The shape of the reflection JSON is written down in tests/slang_smoke.rs;
//! in short, a cbuffer member's `binding` is
//! `{"kind": "uniform", "offset", "size", "elementStride"}` with the offset
//! relative to the enclosing struct (not to the cbuffer as in DXC's
//! listing), and a resource's `binding` is `{"kind", "space", "index"}`
//! (`space` left out when 0), the Vulkan set/binding for `-target spirv` and
//! the D3D register/space for `-target hlsl`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The wrapper's name, for messages.
pub const TOOL: &str = "stride-slangc";

/// Where `stride-slangc` is: `$STRIDE_SLANGC`, else
/// `$STRIDE_TOOLS/slang/stride-slangc`, else
/// `~/.cache/stride-tools/slang/stride-slangc` (the defaults of
/// scripts/install-slang.sh).
pub fn slangc_path() -> PathBuf {
    if let Some(p) = non_empty_env("STRIDE_SLANGC") {
        return PathBuf::from(p);
    }
    let tools = match non_empty_env("STRIDE_TOOLS") {
        Some(t) => PathBuf::from(t),
        None => {
            let home = non_empty_env("HOME").unwrap_or_else(|| "/root".into());
            Path::new(&home).join(".cache").join("stride-tools")
        }
    };
    tools.join("slang").join(TOOL)
}

fn non_empty_env(name: &str) -> Option<std::ffi::OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// Whether `stride-slangc --version` runs and succeeds.
pub fn slang_available() -> bool {
    Command::new(slangc_path())
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether Slang is usable; if not, say so loudly, and fail when the oracles
/// are required (`STRIDE_REQUIRE_ORACLES=1`), like [`super::require_tool`].
pub fn require_slang(test: &str) -> bool {
    if slang_available() {
        return true;
    }
    let msg = format!(
        "`{TOOL}` not found or not working at {} (set STRIDE_SLANGC, or run \
         scripts/install-slang.sh): oracle test `{test}` SKIPPED",
        slangc_path().display()
    );
    if super::oracles_required() {
        panic!("{msg}; STRIDE_REQUIRE_ORACLES=1 makes a missing tool a failure");
    }
    let bar = "!".repeat(76);
    super::loud(&format!("\n{bar}\n!!! {msg}\n{bar}\n"));
    false
}

/// What a successful run printed.
#[derive(Debug, Clone)]
pub struct Output {
    /// stdout: the generated code of a text target without `-o`.
    pub stdout: String,
    /// stderr: warnings, if any (Slang 2026.12 repeats some of them).
    pub diagnostics: String,
}

/// Runs `stride-slangc FILE ARGS...` in `dir` on `source`, written there as
/// `file_name` (the extension matters: `.hlsl` is read as HLSL, `.slang` as
/// Slang). `Err` holds Slang's diagnostics when the shader does not compile
/// (exit status 1). Panics when the tool itself fails (cannot start, bad
/// arguments, missing library: exit status 2), since that is a broken oracle
/// or a broken test, not a rejected shader.
///
/// Relative output paths in `args` (`-o out.spv`, `-reflection-json r.json`)
/// land in `dir` when given, else in a fresh temporary folder.
pub fn run_slangc(
    source: &str,
    file_name: &str,
    args: &[&str],
    dir: Option<&Path>,
) -> Result<Output, String> {
    let tmp;
    let dir = match dir {
        Some(d) => d,
        None => {
            tmp = super::temp_dir("slang");
            &tmp
        }
    };
    let file = dir.join(file_name);
    if let Err(e) = std::fs::write(&file, source) {
        panic!("cannot write {}: {e}", file.display());
    }
    let tool = slangc_path();
    // The input by its bare name, from `dir`: diagnostics then name it as
    // the caller did.
    let mut cmd = Command::new(&tool);
    cmd.arg(file_name).args(args).current_dir(dir);
    let out = super::output_bounded(&mut cmd)
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let diagnostics = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
    match out.status.code() {
        Some(0) => Ok(Output {
            stdout,
            diagnostics,
        }),
        Some(1) => Err(diagnostics),
        _ => panic!(
            "`{} {file_name} {}` in {} failed ({}):\n{diagnostics}",
            tool.display(),
            args.join(" "),
            dir.display(),
            out.status
        ),
    }
}

/// The opcode of `OpSource`.
const OP_SOURCE: u32 = 3;

/// Sets the source-language operand of every `OpSource` (its first operand)
/// to 0, `Unknown`, in a SPIR-V module's words; returns how many it changed.
///
/// Why: Slang 2026.12 declares its own source language, value 11 (`Slang`),
/// which later SPIR-V grammars added; spirv-tools 2023.1 (Debian's) rejects
/// the whole module on reading it (`Invalid source language operand: 11`),
/// in spirv-val and spirv-dis alike. The operand is informative only, so
/// setting it to `Unknown` changes nothing that the validator checks.
///
/// Leaves the words alone when they are not a SPIR-V module (no magic
/// number) or when an instruction's word count is 0 (malformed; spirv-val
/// will say so).
pub fn patch_source_language(words: &mut [u32]) -> usize {
    const MAGIC: u32 = 0x0723_0203;
    const HEADER_WORDS: usize = 5;
    if words.len() < HEADER_WORDS || words[0] != MAGIC {
        return 0;
    }
    let mut patched = 0;
    let mut i = HEADER_WORDS;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        let opcode = words[i] & 0xffff;
        if count == 0 {
            break;
        }
        if opcode == OP_SOURCE && count >= 2 && i + 1 < words.len() && words[i + 1] != 0 {
            words[i + 1] = 0;
            patched += 1;
        }
        i += count;
    }
    patched
}

/// SPIR-V bytes (little-endian, as Slang writes them) -> words.
pub fn spirv_words(bytes: &[u8]) -> Vec<u32> {
    assert!(
        bytes.len().is_multiple_of(4),
        "SPIR-V of {} bytes is not whole words",
        bytes.len()
    );
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Slang's SPIR-V bytes made readable by spirv-tools 2023.1: the words with
/// [`patch_source_language`] applied, as bytes.
pub fn spirv_for_tools(bytes: &[u8]) -> Vec<u8> {
    let mut words = spirv_words(bytes);
    patch_source_language(&mut words);
    super::words_to_bytes(&words)
}

/// Runs `spirv-val ARGS... FILE` on Slang's SPIR-V after
/// [`spirv_for_tools`]. `Err` holds spirv-val's complaint. Panics when
/// spirv-val cannot be started (callers check for it first with
/// [`super::require_tool`]).
pub fn spirv_val(bytes: &[u8], args: &[&str]) -> Result<(), String> {
    let dir = super::temp_dir("slang-val");
    let file = dir.join("module.spv");
    if let Err(e) = std::fs::write(&file, spirv_for_tools(bytes)) {
        panic!("cannot write {}: {e}", file.display());
    }
    let out = super::output_bounded(Command::new("spirv-val").args(args).arg(&file))
        .unwrap_or_else(|e| panic!("cannot run spirv-val: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// A binding as the reflection JSON gives it: `{"kind", "space", "index"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// `descriptorTableSlot` (Vulkan: every descriptor), `pushConstantBuffer`,
    /// or for D3D targets `constantBuffer` (b), `shaderResource` (t),
    /// `unorderedAccess` (u), `samplerState` (s).
    pub kind: String,
    /// Descriptor set (Vulkan) or register space (D3D); the JSON leaves it
    /// out when it is 0.
    pub space: u64,
    /// Binding number (Vulkan) or register number (D3D).
    pub index: u64,
}

impl Binding {
    fn from_json(v: &Value) -> Option<Binding> {
        Some(Binding {
            kind: v.get("kind")?.as_str()?.to_string(),
            space: v.get("space").map_or(Some(0), Value::as_u64)?,
            index: v.get("index")?.as_u64()?,
        })
    }
}

/// One member of a cbuffer, nested struct fields included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UniformMember {
    /// Dotted path from the cbuffer (`o.inner.b`); fields of an array of
    /// structs are those of its element 0, without an index.
    pub path: String,
    /// Byte offset from the start of the cbuffer (the JSON's offsets are
    /// relative to the enclosing struct; these are summed).
    pub offset: u64,
    /// The JSON's `size`: bytes from `offset` to the member's last byte.
    pub size: u64,
}

/// A parsed `-reflection-json` file.
#[derive(Debug, Clone)]
pub struct Reflection {
    pub json: Value,
}

impl Reflection {
    /// Reads and parses the file Slang wrote; panics when it is missing or
    /// not JSON.
    pub fn read(path: &Path) -> Reflection {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}\n{text}", path.display()));
        Reflection { json }
    }

    /// The global shader parameter `name` (`parameters[]`, by `name`).
    pub fn parameter(&self, name: &str) -> Option<&Value> {
        self.json
            .get("parameters")?
            .as_array()?
            .iter()
            .find(|p| p.get("name").and_then(Value::as_str) == Some(name))
    }

    /// The bindings of the global parameter `name`: its `binding`, or each of
    /// its `bindings` (a parameter that takes more than one kind of slot: a
    /// ParameterBlock of uniforms and textures; for SPIR-V, a
    /// `[[vk::push_constant]]` cbuffer that also has a `register(b..)` gets a
    /// `pushConstantBuffer` and a `descriptorTableSlot` binding, though the
    /// module has no descriptor for it). Panics when there is no such
    /// parameter or the shape is not as expected.
    pub fn bindings(&self, name: &str) -> Vec<Binding> {
        let p = self
            .parameter(name)
            .unwrap_or_else(|| panic!("no parameter `{name}` in the reflection JSON"));
        let list: Vec<&Value> = match (p.get("binding"), p.get("bindings")) {
            (Some(b), _) => vec![b],
            (None, Some(Value::Array(bs))) => bs.iter().collect(),
            _ => panic!("parameter `{name}` has no binding: {p}"),
        };
        list.into_iter()
            .map(|b| {
                Binding::from_json(b)
                    .unwrap_or_else(|| panic!("parameter `{name}`: unexpected binding {b}"))
            })
            .collect()
    }

    /// The one binding of the global parameter `name`.
    pub fn binding(&self, name: &str) -> Binding {
        let mut bs = self.bindings(name);
        assert_eq!(
            bs.len(),
            1,
            "parameter `{name}` has several bindings: {bs:?}"
        );
        bs.remove(0)
    }

    /// `(name, binding, used)` for each parameter an entry point lists under
    /// `bindings` (all global parameters, with `used` telling which the entry
    /// point reads or writes); a parameter with several bindings gives one
    /// tuple for each. Panics when there is no such entry point.
    pub fn entry_point_bindings(&self, entry: &str) -> Vec<(String, Binding, bool)> {
        let e = self
            .json
            .get("entryPoints")
            .and_then(Value::as_array)
            .and_then(|es| {
                es.iter()
                    .find(|e| e.get("name").and_then(Value::as_str) == Some(entry))
            })
            .unwrap_or_else(|| panic!("no entry point `{entry}` in the reflection JSON"));
        let mut out = Vec::new();
        let listed = e.get("bindings").and_then(Value::as_array);
        for b in listed.map(|bs| bs.as_slice()).unwrap_or_default() {
            let name = b.get("name").and_then(Value::as_str).unwrap_or_default();
            let list: Vec<&Value> = match (b.get("binding"), b.get("bindings")) {
                (Some(one), _) => vec![one],
                (None, Some(Value::Array(many))) => many.iter().collect(),
                _ => panic!("entry point `{entry}`: no binding in {b}"),
            };
            for one in list {
                let binding = Binding::from_json(one)
                    .unwrap_or_else(|| panic!("entry point `{entry}`: unexpected binding {b}"));
                let used = one.get("used").and_then(Value::as_u64) == Some(1);
                out.push((name.to_string(), binding, used));
            }
        }
        out
    }

    /// Every member of the cbuffer (or `ConstantBuffer<T>`, push-constant
    /// cbuffer) `name`, nested struct fields included, in declaration order
    /// with a struct before its fields. Panics when the parameter is not a
    /// constant buffer or the JSON is not shaped as expected.
    pub fn uniform_members(&self, name: &str) -> Vec<UniformMember> {
        let p = self
            .parameter(name)
            .unwrap_or_else(|| panic!("no parameter `{name}` in the reflection JSON"));
        let ty = &p["type"];
        assert_eq!(
            ty["kind"], "constantBuffer",
            "parameter `{name}` is not a constant buffer: {ty}"
        );
        // `elementVarLayout.type` and `elementType` are the same struct;
        // the former is the laid-out element.
        let fields = ty["elementVarLayout"]["type"]["fields"]
            .as_array()
            .unwrap_or_else(|| panic!("constant buffer `{name}` has no fields: {ty}"));
        let mut out = Vec::new();
        collect_members("", 0, fields, &mut out);
        out
    }
}

/// Appends `fields` (of a struct at byte `base`) and their nested fields.
fn collect_members(prefix: &str, base: u64, fields: &[Value], out: &mut Vec<UniformMember>) {
    for f in fields {
        let name = f["name"].as_str().unwrap_or_default();
        let path = if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}.{name}")
        };
        let b = &f["binding"];
        assert_eq!(
            b["kind"], "uniform",
            "member `{path}`: not uniform data: {b}"
        );
        let (Some(offset), Some(size)) = (b["offset"].as_u64(), b["size"].as_u64()) else {
            panic!("member `{path}`: no offset or size: {b}");
        };
        out.push(UniformMember {
            path: path.clone(),
            offset: base + offset,
            size,
        });
        // Look through arrays (of arrays) to a struct element.
        let mut ty = &f["type"];
        while ty["kind"] == "array" {
            ty = &ty["elementType"];
        }
        if let Some(inner) = ty["fields"].as_array() {
            collect_members(&path, base + offset, inner, out);
        }
    }
}
