//! The probe: a compute entry point appended to a module's source that
//! reads every leaf of every buffer (uniform, storage, push constants) into
//! an output `array<u32>`, then stores a known value into every leaf of
//! every read_write storage buffer. Built from stride's contract layout
//! (`stride::analyze`), so every leaf comes with its contract offset.

use std::fmt::Write as _;

use naga::AddressSpace;
use stride::layout::{Layout, LayoutKind, LayoutModule, Scalar, ScalarKind};

/// Names the probe adds to a module (chosen not to collide).
pub const ENTRY: &str = "stride_exec_probe";
pub const OUT: &str = "stride_exec_out";

/// Elements given to a runtime-sized array.
pub const RUNTIME_COUNT: u64 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Uniform,
    Storage { writable: bool },
    Push,
}

/// One buffer (or the push-constant block) the probe touches.
#[derive(Clone, Debug)]
pub struct ProbeBuffer {
    pub name: String,
    pub space: Space,
    /// (set, binding); none for push constants.
    pub binding: Option<(u32, u32)>,
    /// Bytes to allocate (runtime arrays get `RUNTIME_COUNT` elements).
    pub size: u64,
}

/// One scalar in a buffer.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub buffer: usize,
    /// The WGSL reference to it, from the global (for reports).
    pub path: String,
    /// Contract byte offset in the buffer.
    pub offset: u64,
    pub scalar: Scalar,
    pub atomic: bool,
    /// The same place as a C lvalue through the host structs of
    /// `--target c` (`(*(g_Type *)b0).a[2].b[1]`), for `exec/host.rs`.
    pub c: String,
}

impl Leaf {
    pub fn width(&self) -> u64 {
        self.scalar.width as u64
    }
}

/// How the probe reaches leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Every leaf through its own access chain (`buf.a[2].b.y`).
    Leaf,
    /// Whole values: `let t = buf.member;` then leaves of `t`; writes
    /// build a local copy and store it whole (`buf.member = w;`).
    Whole,
}

pub struct Probe {
    /// WGSL to append to the module's source.
    pub text: String,
    pub buffers: Vec<ProbeBuffer>,
    /// Output word k holds `reads[k]`.
    pub reads: Vec<Leaf>,
    /// `writes[k]` is stored the value `write_value(k)`.
    pub writes: Vec<Leaf>,
    /// The (set, binding) of the output buffer.
    pub out_binding: (u32, u32),
}

/// The value written to write leaf `k` (its low `width` bytes are stored):
/// floats are normal numbers (no NaN, infinity or denormal), so any driver
/// stores them bit-exactly.
pub fn write_value(seed: u64, k: usize, leaf: &Leaf) -> u32 {
    let h = hash64(seed ^ 0x5752_4954_4500_0000 ^ (k as u64).wrapping_mul(0x9e37_79b9));
    value_bits(h as u32, leaf)
}

/// The bits `h` as a value of `leaf`'s type (its low `width` bytes): a
/// float is made a positive normal number, so any driver keeps it exactly.
pub fn value_bits(h: u32, leaf: &Leaf) -> u32 {
    match (leaf.scalar.kind, leaf.scalar.width) {
        (ScalarKind::Float, 2) => (h & 0xff) | (safe_high_byte(h >> 8) << 8),
        (ScalarKind::Float, _) => (h & 0x00ff_ffff) | (safe_high_byte(h >> 24) << 24),
        _ if leaf.scalar.width == 2 => h & 0xffff,
        _ => h,
    }
}

/// A byte in 0x04..=0x77: as the high byte of an f16 or an f32 it gives a
/// positive normal number.
pub fn safe_high_byte(h: u32) -> u32 {
    0x04 + (h & 0xff) % 0x74
}

/// The initial byte `i` of buffer `buffer`: odd offsets (the high byte of
/// every f16 and f32) hold `safe_high_byte` values, so no float leaf is a
/// NaN, infinity or denormal.
pub fn pattern_byte(seed: u64, buffer: usize, i: u64) -> u8 {
    let h = hash64(seed ^ ((buffer as u64 + 1) << 48) ^ i) as u32;
    if i % 2 == 1 {
        safe_high_byte(h) as u8
    } else {
        h as u8
    }
}

pub fn hash64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Exact f16 -> f32 bit conversion.
pub fn f16_to_f32_bits(h: u16) -> u32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    match exp {
        0 if mant == 0 => sign,
        0 => {
            // Denormal: normalize.
            let mut e = 127 - 15 + 1;
            let mut m = mant;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | (e << 23) | ((m & 0x3ff) << 13)
        }
        31 => sign | 0x7f80_0000 | (mant << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (mant << 13),
    }
}

/// Sampled indices of an array of `count` elements: all of a short one,
/// else first, second, middle and last.
fn sample(count: u64) -> Vec<u64> {
    if count <= 4 {
        (0..count).collect()
    } else {
        let mut v = vec![0, 1, count / 2, count - 1];
        v.dedup();
        v
    }
}

fn contains_atomic(m: &LayoutModule, l: &Layout) -> bool {
    match &l.kind {
        LayoutKind::Atomic(_) => true,
        LayoutKind::Array { element, .. } => contains_atomic(m, element),
        LayoutKind::Struct(h) => m
            .structs
            .get(h)
            .is_some_and(|s| s.members().any(|mem| contains_atomic(m, &mem.layout))),
        _ => false,
    }
}

fn is_runtime(l: &Layout) -> bool {
    l.size.is_none()
}

/// Every leaf of a value of layout `l` at `offset`, reached by `expr`
/// (`report` is the same place spelled from the global).
#[allow(clippy::too_many_arguments)]
fn leaves(
    m: &LayoutModule,
    l: &Layout,
    expr: &str,
    report: &str,
    c_expr: &str,
    offset: u64,
    out: &mut Vec<(String, Leaf)>,
    buffer: usize,
) -> Result<(), String> {
    const XYZW: [&str; 4] = ["x", "y", "z", "w"];
    let mut push = |e: String, r: String, c: String, offset: u64, scalar: Scalar, atomic: bool| {
        out.push((
            e,
            Leaf {
                buffer,
                path: r,
                offset,
                scalar,
                atomic,
                c,
            },
        ));
    };
    match &l.kind {
        LayoutKind::Scalar(s) => push(expr.into(), report.into(), c_expr.into(), offset, *s, false),
        LayoutKind::Atomic(s) => push(expr.into(), report.into(), c_expr.into(), offset, *s, true),
        LayoutKind::Vector { size, scalar } => {
            for (c, comp) in XYZW.iter().enumerate().take(*size as usize) {
                push(
                    format!("{expr}.{comp}"),
                    format!("{report}.{comp}"),
                    format!("{c_expr}[{c}]"),
                    offset + c as u64 * scalar.width as u64,
                    *scalar,
                    false,
                );
            }
        }
        LayoutKind::Matrix {
            columns,
            rows,
            scalar,
            column_stride,
        } => {
            for c in 0..*columns as u64 {
                for r in 0..*rows as u64 {
                    push(
                        format!("{expr}[{c}][{r}]"),
                        format!("{report}[{c}][{r}]"),
                        format!("{c_expr}[{c}][{r}]"),
                        offset + c * column_stride + r * scalar.width as u64,
                        *scalar,
                        false,
                    );
                }
            }
        }
        LayoutKind::Array {
            element,
            stride,
            count,
        } => {
            for i in sample(count.unwrap_or(RUNTIME_COUNT)) {
                leaves(
                    m,
                    element,
                    &format!("{expr}[{i}]"),
                    &format!("{report}[{i}]"),
                    &c_element(&format!("{c_expr}[{i}]"), element, *stride),
                    offset + i * stride,
                    out,
                    buffer,
                )?;
            }
        }
        LayoutKind::Struct(h) => {
            let s = m
                .structs
                .get(h)
                .ok_or_else(|| format!("struct {h:?} missing from the contract"))?;
            for mem in s.members() {
                leaves(
                    m,
                    &mem.layout,
                    &format!("{expr}.{}", mem.name),
                    &format!("{report}.{}", mem.name),
                    &format!("{c_expr}.{}", mem.name),
                    offset + mem.offset,
                    out,
                    buffer,
                )?;
            }
        }
    }
    Ok(())
}

/// A part of a global loaded or stored whole in `Style::Whole`.
struct Unit {
    access: String,
    offset: u64,
    layout: Layout,
    /// The runtime-sized array's member (none for a global that is one)
    /// and element index, when the unit is an element of it.
    element: Option<(Option<String>, u64, u64)>,
    /// The member of a runtime-sized struct that is the unit.
    member: Option<String>,
}

/// The parts of a global: the whole global when it is fixed-size, else
/// its members, and each sampled element of a runtime array.
fn units(m: &LayoutModule, l: &Layout) -> Vec<Unit> {
    if !is_runtime(l) {
        return vec![Unit {
            access: String::new(),
            offset: 0,
            layout: l.clone(),
            element: None,
            member: None,
        }];
    }
    let mut out = Vec::new();
    match &l.kind {
        LayoutKind::Array {
            element, stride, ..
        } => {
            for i in sample(RUNTIME_COUNT) {
                out.push(Unit {
                    access: format!("[{i}]"),
                    offset: i * stride,
                    layout: (**element).clone(),
                    element: Some((None, i, *stride)),
                    member: None,
                });
            }
        }
        LayoutKind::Struct(h) => {
            if let Some(s) = m.structs.get(h) {
                for mem in s.members() {
                    for u in units(m, &mem.layout) {
                        let name = mem.name.to_string();
                        out.push(Unit {
                            access: format!(".{}{}", mem.name, u.access),
                            offset: mem.offset + u.offset,
                            layout: u.layout,
                            element: u
                                .element
                                .map(|(_, i, stride)| (Some(name.clone()), i, stride)),
                            member: Some(name),
                        });
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// The size of a value of layout `l` as C declares it without a wrapper:
/// an array's elements `sizeof` apart.
fn c_natural_size(l: &Layout) -> Option<u64> {
    match &l.kind {
        LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => Some(s.width as u64),
        LayoutKind::Vector { size, scalar } => Some(*size as u64 * scalar.width as u64),
        LayoutKind::Matrix {
            columns,
            column_stride,
            ..
        } => Some(*columns as u64 * column_stride),
        LayoutKind::Array { stride, count, .. } => count.map(|n| n * stride),
        LayoutKind::Struct(_) => l.size,
    }
}

/// Element of a C array `indexed` (`a[2]`) holding `element`s `stride`
/// apart: where the stride is larger than the element, the element is
/// wrapped (`<Owner>_<member>_Element { value; _pad0 }`, docs/targets.md).
fn c_element(indexed: &str, element: &Layout, stride: u64) -> String {
    if c_natural_size(element).is_some_and(|size| stride > size) {
        format!("{indexed}.value")
    } else {
        indexed.to_string()
    }
}

/// The C lvalue of unit `u` of global `g` in buffer `b` (bytes at `b<b>`).
fn c_unit(g: &str, b: usize, u: &Unit) -> String {
    match (&u.element, &u.member) {
        (Some((member, i, stride)), _) => {
            let (alias, constant) = match member {
                Some(mem) => (
                    format!("{g}_{mem}_Element"),
                    format!(
                        "{}_{}",
                        stride::back::host::constant_name(g),
                        stride::back::host::constant_name(mem)
                    ),
                ),
                None => (format!("{g}_Element"), stride::back::host::constant_name(g)),
            };
            let at = format!("(*({alias} *)(b{b} + {constant}_OFFSET + {i}u * {constant}_STRIDE))");
            c_element(&at, &u.layout, *stride)
        }
        (None, Some(mem)) => format!("(*({g}_Type *)b{b}).{mem}"),
        (None, None) => format!("(*({g}_Type *)b{b})"),
    }
}

/// The allocation size of a buffer of layout `l`.
fn buffer_size(m: &LayoutModule, l: &Layout) -> u64 {
    if let Some(size) = l.size {
        return size;
    }
    match &l.kind {
        LayoutKind::Array { stride, .. } => stride * RUNTIME_COUNT,
        LayoutKind::Struct(h) => m
            .structs
            .get(h)
            .and_then(|s| {
                s.members()
                    .last()
                    .map(|mem| mem.offset + buffer_size(m, &mem.layout))
            })
            .unwrap_or(0),
        _ => 0,
    }
}

fn read_expr(e: &str, leaf: &Leaf) -> String {
    let s = leaf.scalar;
    let load = if leaf.atomic {
        format!("atomicLoad(&{e})")
    } else {
        e.to_string()
    };
    match (s.kind, s.width) {
        (ScalarKind::Uint, 4) => load,
        (ScalarKind::Float, 2) => format!("bitcast<u32>(f32({load}))"),
        _ => format!("bitcast<u32>({load})"),
    }
}

fn write_stmt(e: &str, leaf: &Leaf, value: u32) -> String {
    let s = leaf.scalar;
    let v = match (s.kind, s.width) {
        (ScalarKind::Uint, _) => format!("{value:#x}u"),
        (ScalarKind::Sint, _) => format!("bitcast<i32>({value:#x}u)"),
        (ScalarKind::Float, 2) => {
            format!("f16(bitcast<f32>({:#x}u))", f16_to_f32_bits(value as u16))
        }
        _ => format!("bitcast<f32>({value:#x}u)"),
    };
    if leaf.atomic {
        format!("atomicStore(&{e}, {v});")
    } else {
        format!("{e} = {v};")
    }
}

/// Build the probe for a module whose contract is `m`.
pub fn build(m: &LayoutModule, style: Style, seed: u64) -> Result<Probe, String> {
    let mut buffers = Vec::new();
    let mut globals = Vec::new();
    let mut max_group = None::<u32>;
    for g in &m.globals {
        if g.name == OUT {
            continue;
        }
        let space = match g.space {
            AddressSpace::Uniform => Space::Uniform,
            AddressSpace::Storage { access } => Space::Storage {
                writable: access.contains(naga::StorageAccess::STORE),
            },
            AddressSpace::Immediate => Space::Push,
            _ => continue,
        };
        let binding = match (space, &g.binding) {
            (Space::Push, _) => None,
            (_, Some(b)) => Some((b.group, b.binding)),
            (_, None) => return Err(format!("buffer `{}` has no binding", g.name)),
        };
        if let Some((set, _)) = binding {
            max_group = Some(max_group.map_or(set, |x: u32| x.max(set)));
        }
        buffers.push(ProbeBuffer {
            name: g.name.to_string(),
            space,
            binding,
            size: buffer_size(m, &g.layout),
        });
        globals.push(g);
    }
    let out_binding = (max_group.map_or(0, |g| g + 1), 0);

    let mut body = String::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut locals = 0usize;
    // Reads first (a read_write buffer is read before it is written).
    for (b, g) in globals.iter().enumerate() {
        for u in units(m, &g.layout) {
            let reference = format!("{}{}", g.name, u.access);
            let whole = style == Style::Whole && !contains_atomic(m, &u.layout);
            let base = if whole {
                let t = format!("stride_exec_t{locals}");
                locals += 1;
                let _ = writeln!(body, "    let {t} = {reference};");
                t
            } else {
                reference.clone()
            };
            let mut ls = Vec::new();
            let c = c_unit(&g.name, b, &u);
            leaves(m, &u.layout, &base, &reference, &c, u.offset, &mut ls, b)?;
            for (e, leaf) in ls {
                let _ = writeln!(
                    body,
                    "    {OUT}[{}] = {};",
                    reads.len(),
                    read_expr(&e, &leaf)
                );
                reads.push(leaf);
            }
        }
    }
    for (b, g) in globals.iter().enumerate() {
        if buffers[b].space != (Space::Storage { writable: true }) {
            continue;
        }
        for u in units(m, &g.layout) {
            let reference = format!("{}{}", g.name, u.access);
            let whole = style == Style::Whole && !contains_atomic(m, &u.layout);
            let base = if whole {
                let w = format!("stride_exec_w{locals}");
                locals += 1;
                let _ = writeln!(body, "    var {w} = {reference};");
                w
            } else {
                reference.clone()
            };
            let mut ls = Vec::new();
            let c = c_unit(&g.name, b, &u);
            leaves(m, &u.layout, &base, &reference, &c, u.offset, &mut ls, b)?;
            for (e, leaf) in ls {
                let v = write_value(seed, writes.len(), &leaf);
                let _ = writeln!(body, "    {}", write_stmt(&e, &leaf, v));
                writes.push(leaf);
            }
            if whole {
                let _ = writeln!(body, "    {reference} = {base};");
            }
        }
    }
    let text = format!(
        "\n// --- stride exec probe ---\n@group({}) @binding({}) var<storage, read_write> {OUT}: array<u32>;\n\n@compute @workgroup_size(1)\nfn {ENTRY}() {{\n{body}}}\n",
        out_binding.0, out_binding.1
    );
    Ok(Probe {
        text,
        buffers,
        reads,
        writes,
        out_binding,
    })
}
