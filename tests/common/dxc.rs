//! The DXC oracle for HLSL: running `stride-dxc` (the wrapper over
//! compushady's libdxcompiler that scripts/install-dxc.sh builds) and reading
//! the `; Buffer Definitions` block of its `-Fc` disassembly, which is D3D's
//! own cbuffer packing with packoffset applied.
//!
//! What DXC 1.7 prints there, and what this parser therefore does:
//!
//! ```text
//! ; cbuffer Params
//! ; {
//! ;   struct hostlayout.Params            <- wrapper struct, name varies
//! ;   {
//! ;       float s0;                                     ; Offset:    0
//! ;       float4 arr[3];                                ; Offset:  160
//! ;       struct struct.Inner
//! ;       {
//! ;           float a;                                  ; Offset:  208
//! ;       } inner;                                      ; Offset:  208
//! ;       struct struct.Leaf
//! ;       {
//! ;           float2 x;                                 ; Offset:   16
//! ;       } l[2];;                                      ; Offset:   16
//! ;   } Params;                                         ; Offset:    0 Size:   332
//! ; }
//! ```
//!
//! - Every offset, nested ones included, is from the start of the cbuffer.
//! - An array lists only its element 0 (struct fields included) and no
//!   stride: D3D starts every array element on a new 16-byte register.
//!   Multi-dimensional arrays are printed flattened (`float a[2][3]` as
//!   `a[6]`).
//! - A member's size is not printed, only the cbuffer's total `Size` (the
//!   end of its last member, not rounded up). [`Member::size`] is derived from
//!   the printed type by the D3D packing rules; [`CBuffer::check_sizes`]
//!   compares the derived end of the cbuffer with the printed `Size`.
//! - DXC 1.7 quirk: with `-enable-16bit-types`, an array of matrices is
//!   printed without its `[N]` (its element-0 offset is still right, the
//!   derived size is one matrix's).
//! - Unused cbuffers are left out of the listing altogether.
//! - `Resource bind info for ...` blocks (structured buffers) are skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The wrapper's name, for messages.
pub const TOOL: &str = "stride-dxc";

/// Where `stride-dxc` is: `$STRIDE_DXC`, else
/// `$STRIDE_TOOLS/dxc/stride-dxc`, else `~/.cache/stride-tools/dxc/stride-dxc`
/// (the defaults of scripts/install-dxc.sh).
pub fn dxc_path() -> PathBuf {
    if let Some(p) = non_empty_env("STRIDE_DXC") {
        return PathBuf::from(p);
    }
    let tools = match non_empty_env("STRIDE_TOOLS") {
        Some(t) => PathBuf::from(t),
        None => {
            let home = non_empty_env("HOME").unwrap_or_else(|| "/root".into());
            Path::new(&home).join(".cache").join("stride-tools")
        }
    };
    tools.join("dxc").join(TOOL)
}

fn non_empty_env(name: &str) -> Option<std::ffi::OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// Whether `stride-dxc --version` runs and succeeds.
pub fn dxc_available() -> bool {
    Command::new(dxc_path())
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether DXC is usable; if not, say so loudly, and fail when the oracles
/// are required (`STRIDE_REQUIRE_ORACLES=1`), like [`super::require_tool`].
pub fn require_dxc(test: &str) -> bool {
    if dxc_available() {
        return true;
    }
    let msg = format!(
        "`{TOOL}` not found or not working at {} (set STRIDE_DXC, or run scripts/install-dxc.sh): \
         oracle test `{test}` SKIPPED",
        dxc_path().display()
    );
    if super::oracles_required() {
        panic!("{msg}; STRIDE_REQUIRE_ORACLES=1 makes a missing tool a failure");
    }
    let bar = "!".repeat(76);
    super::loud(&format!("\n{bar}\n!!! {msg}\n{bar}\n"));
    false
}

/// The signing warning every compile prints (there is no DXIL.dll on
/// Linux); harmless, so dropped from the diagnostics returned here.
const SIGNING_WARNING: &str = "warning: DXIL.dll not found.";

/// What a successful run printed.
#[derive(Debug, Clone)]
pub struct Output {
    /// stdout: the disassembly for `-Fc -`.
    pub stdout: String,
    /// stderr without the signing warning: other warnings, if any.
    pub diagnostics: String,
}

/// Runs `stride-dxc ARGS... FILE` on `hlsl` (written to a temporary
/// `shader.hlsl`). `Err` holds DXC's diagnostics when the shader does not
/// compile (exit status 1). Panics when the tool itself fails (cannot start,
/// bad arguments, missing library: exit status 2), since that is a broken
/// oracle, not a rejected shader.
///
/// Relative output paths in `args` (`-Fo x.spv`) land in `dir` when given.
pub fn run_dxc(hlsl: &str, args: &[&str], dir: Option<&Path>) -> Result<Output, String> {
    let tmp;
    let dir = match dir {
        Some(d) => d,
        None => {
            tmp = super::temp_dir("dxc");
            &tmp
        }
    };
    let file = dir.join("shader.hlsl");
    if let Err(e) = std::fs::write(&file, hlsl) {
        panic!("cannot write {}: {e}", file.display());
    }
    let tool = dxc_path();
    let mut cmd = Command::new(&tool);
    cmd.args(args).arg(&file).current_dir(dir);
    let out = super::output_bounded(&mut cmd)
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let diagnostics = strip_signing_warning(&String::from_utf8_lossy(&out.stderr));
    match out.status.code() {
        Some(0) => Ok(Output {
            stdout,
            diagnostics,
        }),
        // Argument errors go to stdout.
        Some(1) if diagnostics.is_empty() => Err(stdout),
        Some(1) => Err(diagnostics),
        _ => panic!(
            "`{} {} {}` failed ({}):\n{diagnostics}",
            tool.display(),
            args.join(" "),
            file.display(),
            out.status
        ),
    }
}

fn strip_signing_warning(stderr: &str) -> String {
    let mut s = String::new();
    for line in stderr.lines() {
        if line.starts_with(SIGNING_WARNING) {
            continue;
        }
        s.push_str(line);
        s.push('\n');
    }
    s.trim_end().to_string()
}

/// A successful compile to DXIL.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The `-Fc` disassembly.
    pub disassembly: String,
    /// Warnings other than the signing one.
    pub diagnostics: String,
}

impl Compiled {
    /// The cbuffers of the `; Buffer Definitions` block. Panics when the
    /// block cannot be read: the oracle's output changed shape.
    pub fn cbuffers(&self) -> Vec<CBuffer> {
        parse_buffer_definitions(&self.disassembly).unwrap_or_else(|e| {
            panic!(
                "cannot read DXC's buffer definitions: {e}\n--- disassembly:\n{}",
                self.disassembly
            )
        })
    }
}

/// Compiles `hlsl` to DXIL for `profile` (e.g. `cs_6_0`) and `entry`, with
/// `-Fc -` and any `extra` arguments (`-enable-16bit-types`, `-HV 2021`, ...).
/// `Err` holds DXC's errors.
pub fn compile(hlsl: &str, profile: &str, entry: &str, extra: &[&str]) -> Result<Compiled, String> {
    // A library profile (`lib_6_x`) takes no entry point.
    let mut args = vec!["-T", profile];
    if !entry.is_empty() {
        args.extend(["-E", entry]);
    }
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-Fc", "-"]);
    let out = run_dxc(hlsl, &args, None)?;
    Ok(Compiled {
        disassembly: out.stdout,
        diagnostics: out.diagnostics,
    })
}

/// One cbuffer (or `ConstantBuffer<T>`, whose one member is the `T`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CBuffer {
    pub name: String,
    /// The printed `Size`: the end of the last member, not rounded up.
    pub size: u32,
    pub members: Vec<Member>,
}

/// One member of a cbuffer or of a struct inside one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    /// The type as printed, without array dimensions: `float3`,
    /// `row_major float4x4`, `column_major float2x2`; for a struct,
    /// `struct NAME` with DXC's `hostlayout.`/`struct.` prefixes removed.
    pub ty: String,
    /// Array dimensions as printed (flattened by DXC, so at most one);
    /// empty when not an array.
    pub array: Vec<u32>,
    /// Byte offset from the start of the cbuffer (element 0 for arrays).
    pub offset: u32,
    /// Bytes from `offset` to the end of the member's last component, by the
    /// D3D packing rules applied to the printed type (DXC does not print
    /// member sizes): every array element and every matrix row
    /// (row_major) or column (column_major) starts a new 16-byte register.
    pub size: u32,
    /// A struct's fields (of element 0 for an array of structs), with
    /// offsets from the start of the cbuffer; empty for other types.
    pub members: Vec<Member>,
}

impl Member {
    pub fn is_struct(&self) -> bool {
        self.ty.starts_with("struct ")
    }
}

impl CBuffer {
    /// A member by dotted path, e.g. `inner.b` (no array indices: arrays
    /// list element 0).
    pub fn find(&self, path: &str) -> Option<&Member> {
        let mut members = &self.members;
        let mut found = None;
        for part in path.split('.') {
            let m = members.iter().find(|m| m.name == part)?;
            members = &m.members;
            found = Some(m);
        }
        found
    }

    /// Every member, nested ones included, as `(dotted path, member)`, in
    /// printed order (a struct before its fields).
    pub fn flatten(&self) -> Vec<(String, &Member)> {
        fn walk<'a>(prefix: &str, ms: &'a [Member], out: &mut Vec<(String, &'a Member)>) {
            for m in ms {
                let path = if prefix.is_empty() {
                    m.name.clone()
                } else {
                    format!("{prefix}.{}", m.name)
                };
                out.push((path.clone(), m));
                walk(&path, &m.members, out);
            }
        }
        let mut out = Vec::new();
        walk("", &self.members, &mut out);
        out
    }

    /// Checks the derived member sizes against the printed total: the
    /// furthest member end must equal `size`.
    pub fn check_sizes(&self) -> Result<(), String> {
        let end = self
            .members
            .iter()
            .map(|m| m.offset + m.size)
            .max()
            .unwrap_or(0);
        if end == self.size {
            Ok(())
        } else {
            Err(format!(
                "cbuffer {}: members end at {end} by the derived sizes, DXC says Size {}",
                self.name, self.size
            ))
        }
    }
}

/// Reads the `; Buffer Definitions:` block of a DXIL disassembly. A missing
/// block (no cbuffers, no resources) gives an empty list.
pub fn parse_buffer_definitions(disassembly: &str) -> Result<Vec<CBuffer>, String> {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut inside = false;
    for (i, raw) in disassembly.lines().enumerate() {
        let Some(text) = raw.strip_prefix(';') else {
            if inside {
                break;
            }
            continue;
        };
        let text = text.trim();
        if !inside {
            inside = text == "Buffer Definitions:";
            continue;
        }
        if text.starts_with("Resource Bindings:") {
            break;
        }
        if !text.is_empty() {
            lines.push((i + 1, text));
        }
    }
    let mut p = Parser { lines, pos: 0 };
    let mut out = Vec::new();
    while let Some((_, line)) = p.peek() {
        if let Some(name) = line.strip_prefix("cbuffer ") {
            let name = name.trim().to_string();
            p.pos += 1;
            out.push(p.cbuffer(name)?);
        } else {
            // `Resource bind info for X`, `tbuffer`, ...: skip the block.
            p.pos += 1;
            p.skip_block()?;
        }
    }
    Ok(out)
}

struct Parser<'a> {
    lines: Vec<(usize, &'a str)>,
    pos: usize,
}

/// `decl   ; Offset: N [Size: M]` split into its parts.
struct Line<'a> {
    decl: &'a str,
    offset: u32,
    size: Option<u32>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<(usize, &'a str)> {
        self.lines.get(self.pos).copied()
    }

    fn next(&mut self, what: &str) -> Result<(usize, &'a str), String> {
        let l = self
            .peek()
            .ok_or_else(|| format!("buffer definitions end early, expected {what}"))?;
        self.pos += 1;
        Ok(l)
    }

    fn expect(&mut self, text: &str) -> Result<(), String> {
        let (n, l) = self.next(&format!("`{text}`"))?;
        if l == text {
            Ok(())
        } else {
            Err(format!("line {n}: expected `{text}`, found `{l}`"))
        }
    }

    /// After a header line: `{`, anything, the matching `}`.
    fn skip_block(&mut self) -> Result<(), String> {
        self.expect("{")?;
        let mut depth = 1;
        while depth > 0 {
            let (_, l) = self.next("`}`")?;
            if l == "{" {
                depth += 1;
            } else if l.starts_with('}') {
                depth -= 1;
            }
        }
        Ok(())
    }

    fn cbuffer(&mut self, name: String) -> Result<CBuffer, String> {
        self.expect("{")?;
        let (n, header) = self.next("the cbuffer's struct")?;
        if !header.starts_with("struct ") {
            return Err(format!("line {n}: expected `struct ...`, found `{header}`"));
        }
        self.expect("{")?;
        let members = self.members()?;
        let (n, close) = self.next("`}` of the cbuffer's struct")?;
        let line = split_line(close).ok_or_else(|| format!("line {n}: cannot read `{close}`"))?;
        let size = line
            .size
            .ok_or_else(|| format!("line {n}: no `Size:` in `{close}`"))?;
        self.expect("}")?;
        Ok(CBuffer {
            name,
            size,
            members,
        })
    }

    /// Members up to (not including) the closing `} name;` line.
    fn members(&mut self) -> Result<Vec<Member>, String> {
        let mut out = Vec::new();
        loop {
            let (n, l) = self
                .peek()
                .ok_or("buffer definitions end inside a struct")?;
            if l.starts_with('}') {
                return Ok(out);
            }
            self.pos += 1;
            if let Some(ty) = l.strip_prefix("struct ") {
                if l.contains("; Offset:") {
                    return Err(format!("line {n}: unexpected `{l}`"));
                }
                self.expect("{")?;
                let fields = self.members()?;
                let (n, close) = self.next("`}` of a struct")?;
                let line =
                    split_line(close).ok_or_else(|| format!("line {n}: cannot read `{close}`"))?;
                let decl = line.decl.trim_start_matches('}').trim();
                let (name, array) =
                    split_name(decl).ok_or_else(|| format!("line {n}: cannot read `{close}`"))?;
                let elem = fields
                    .iter()
                    .map(|f| f.offset + f.size)
                    .max()
                    .unwrap_or(line.offset)
                    .saturating_sub(line.offset);
                out.push(Member {
                    name,
                    ty: format!("struct {}", struct_name(ty.trim())),
                    size: array_size(elem, &array),
                    array,
                    offset: line.offset,
                    members: fields,
                });
            } else {
                let line = split_line(l).ok_or_else(|| format!("line {n}: cannot read `{l}`"))?;
                let (ty, rest) = line
                    .decl
                    .rsplit_once(' ')
                    .ok_or_else(|| format!("line {n}: no type in `{l}`"))?;
                let (name, array) =
                    split_name(rest).ok_or_else(|| format!("line {n}: cannot read `{l}`"))?;
                let ty = ty.trim().to_string();
                let elem =
                    type_size(&ty).ok_or_else(|| format!("line {n}: unknown type `{ty}`"))?;
                out.push(Member {
                    name,
                    size: array_size(elem, &array),
                    ty,
                    array,
                    offset: line.offset,
                    members: Vec::new(),
                });
            }
        }
    }
}

fn split_line(text: &str) -> Option<Line<'_>> {
    let (decl, rest) = text.split_once("; Offset:")?;
    let rest = rest.trim();
    let (offset, size) = match rest.split_once("Size:") {
        Some((o, s)) => (o.trim(), Some(s.trim().parse().ok()?)),
        None => (rest, None),
    };
    Some(Line {
        decl: decl.trim().trim_end_matches(';').trim(),
        offset: offset.parse().ok()?,
        size,
    })
}

/// `name[3]` -> ("name", [3]).
fn split_name(decl: &str) -> Option<(String, Vec<u32>)> {
    let decl = decl.trim().trim_end_matches(';');
    let (name, mut rest) = match decl.find('[') {
        Some(i) => (&decl[..i], &decl[i..]),
        None => (decl, ""),
    };
    let mut dims = Vec::new();
    while let Some(r) = rest.strip_prefix('[') {
        let (n, after) = r.split_once(']')?;
        dims.push(n.trim().parse().ok()?);
        rest = after;
    }
    if name.is_empty() || !rest.is_empty() {
        return None;
    }
    Some((name.to_string(), dims))
}

/// `hostlayout.struct.Inner` -> `Inner`.
fn struct_name(printed: &str) -> &str {
    let s = printed.strip_prefix("hostlayout.").unwrap_or(printed);
    s.strip_prefix("struct.").unwrap_or(s)
}

/// Array of `dims` elements of `elem` bytes: every element starts a new
/// 16-byte register.
fn array_size(elem: u32, dims: &[u32]) -> u32 {
    let count: u32 = dims.iter().product();
    if dims.is_empty() || count == 0 {
        return elem;
    }
    (count - 1) * elem.div_ceil(16) * 16 + elem
}

/// Scalar type names DXC prints, longest first among those sharing a
/// prefix, with their size in a cbuffer.
const SCALARS: [(&str, u32); 17] = [
    ("float16_t", 2),
    ("float", 4),
    ("half", 2),
    ("double", 8),
    ("bool", 4),
    ("uint64_t", 8),
    ("uint16_t", 2),
    ("uint", 4),
    ("int64_t", 8),
    ("int16_t", 2),
    ("int", 4),
    ("dword", 4),
    // Printed as such only without -enable-16bit-types, where they are 32
    // bits in a cbuffer.
    ("min16float", 4),
    ("min16int", 4),
    ("min16uint", 4),
    ("min10float", 4),
    ("min12int", 4),
];

/// Bytes of a printed non-struct type (`float3`, `row_major float4x3`).
fn type_size(ty: &str) -> Option<u32> {
    let (row_major, base) = if let Some(b) = ty.strip_prefix("row_major ") {
        (true, b)
    } else if let Some(b) = ty.strip_prefix("column_major ") {
        (false, b)
    } else {
        (false, ty)
    };
    let (scalar, shape) = SCALARS
        .iter()
        .find_map(|&(name, size)| base.strip_prefix(name).map(|rest| (size, rest)))?;
    if shape.is_empty() {
        return Some(scalar);
    }
    match shape.split_once('x') {
        None => {
            let n: u32 = shape.parse().ok()?;
            Some(n * scalar)
        }
        Some((r, c)) => {
            let rows: u32 = r.parse().ok()?;
            let cols: u32 = c.parse().ok()?;
            // A register per row (row_major) or per column (column_major);
            // a 64-bit vector wider than 2 takes two.
            let (lines, width) = if row_major {
                (rows, cols)
            } else {
                (cols, rows)
            };
            let bytes = width * scalar;
            Some((lines - 1) * bytes.div_ceil(16) * 16 + bytes)
        }
    }
}
