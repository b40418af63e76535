//! Random test modules from a fixed seed: structs with random member
//! `@align`/`@size`, dialect `@align`/`@size` on structs and aliases, and
//! dialect `@stride` arrays, over every host-shareable type (i32, u32, f32,
//! f16 scalars; vectors; the nine matrix shapes; nested fixed arrays;
//! nested structs; atomics; runtime-sized arrays last in storage). One
//! module in five says `requires uniform_buffer_standard_layout;`, and its
//! uniform then follows the storage rules (strides and struct sizes not
//! rounded to 16), which GLSL, HLSL and Slang declare as 16-byte words.
//!
//! The generator keeps its own estimate of the contract layout only to
//! choose legal attribute values (a `@size` no smaller than the type, a
//! uniform array stride that is a multiple of 16); the offsets the test
//! checks come from `stride::analyze`, never from here.

use std::fmt::Write as _;

/// A small deterministic PRNG (splitmix64); with a tape (the `structured`
/// fuzz target's input), every choice of `below` is read from the tape's
/// bytes first, so that the fuzzer's mutations steer the generator.
pub struct Rng {
    state: u64,
    tape: Vec<u8>,
    at: usize,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng {
            state: seed,
            tape: Vec::new(),
            at: 0,
        }
    }

    /// Choices from `tape`, then (once it is read) from the PRNG.
    #[allow(dead_code)]
    pub fn from_tape(seed: u64, tape: Vec<u8>) -> Rng {
        Rng {
            tape,
            ..Rng::new(seed)
        }
    }

    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if let Some(&b) = self.tape.get(self.at) {
            self.at += 1;
            return u64::from(b) % n.max(1);
        }
        self.next() % n.max(1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn range(&mut self, lo: u64, hi_inclusive: u64) -> u64 {
        lo + self.below(hi_inclusive - lo + 1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sc {
    I32,
    U32,
    F32,
    F16,
}

impl Sc {
    fn name(self) -> &'static str {
        match self {
            Sc::I32 => "i32",
            Sc::U32 => "u32",
            Sc::F32 => "f32",
            Sc::F16 => "f16",
        }
    }

    fn width(self) -> u64 {
        if self == Sc::F16 {
            2
        } else {
            4
        }
    }
}

#[derive(Clone, Debug)]
enum Ty {
    Scalar(Sc),
    Vector(u8, Sc),
    Matrix(u8, u8, Sc),
    Atomic(Sc),
    Array {
        elem: Box<Ty>,
        /// `None`: runtime-sized.
        count: Option<u64>,
        /// Dialect `@stride`.
        stride: Option<u64>,
    },
    Struct(usize),
    Alias(usize),
}

struct Member {
    name: String,
    ty: Ty,
    align: Option<u64>,
    size: Option<u64>,
}

struct StructDef {
    name: String,
    members: Vec<Member>,
    /// Dialect `@align`/`@size` on the declaration.
    align: Option<u64>,
    size: Option<u64>,
}

struct AliasDef {
    name: String,
    ty: Ty,
    align: Option<u64>,
    size: Option<u64>,
}

#[derive(Clone, Copy)]
struct Ctx {
    /// WGSL's uniform rules: 16-byte array strides, struct sizes and
    /// struct member alignment.
    uniform: bool,
    /// No runtime-sized arrays (a uniform buffer).
    sized: bool,
    atomics: bool,
    f16: bool,
}

struct Gen {
    rng: Rng,
    structs: Vec<StructDef>,
    aliases: Vec<AliasDef>,
}

fn round_up(align: u64, n: u64) -> u64 {
    n.div_ceil(align) * align
}

/// A generated module.
pub struct Generated {
    pub source: String,
    pub f16: bool,
}

impl Gen {
    /// (align, size) of a type under the contract rules (size of a runtime
    /// array: 0).
    fn layout(&self, ty: &Ty) -> (u64, u64) {
        match ty {
            Ty::Scalar(s) | Ty::Atomic(s) => (s.width(), s.width()),
            Ty::Vector(n, s) => {
                let n = *n as u64;
                let align = if n == 2 { 2 } else { 4 } * s.width();
                (align, n * s.width())
            }
            Ty::Matrix(c, r, s) => {
                let (align, size) = self.layout(&Ty::Vector(*r, *s));
                (align, *c as u64 * round_up(align, size))
            }
            Ty::Array {
                elem,
                count,
                stride,
            } => {
                let (a, s) = self.layout(elem);
                (a, count.unwrap_or(0) * stride.unwrap_or(round_up(a, s)))
            }
            Ty::Struct(i) => {
                let def = &self.structs[*i];
                let (natural_align, end) = self.struct_end(def);
                let align = def.align.unwrap_or(natural_align);
                (align, def.size.unwrap_or(round_up(align, end)))
            }
            Ty::Alias(i) => {
                let def = &self.aliases[*i];
                let (a, s) = self.layout(&def.ty);
                (def.align.unwrap_or(a), def.size.unwrap_or(s))
            }
        }
    }

    /// (max member alignment, end of the last member).
    fn struct_end(&self, def: &StructDef) -> (u64, u64) {
        let mut offset = 0;
        let mut align = 1;
        for m in &def.members {
            let (a, s) = self.layout(&m.ty);
            let a = m.align.unwrap_or(a);
            let s = m.size.unwrap_or(s);
            offset = round_up(a, offset) + s;
            align = align.max(a);
        }
        (align, offset)
    }

    fn scalar(&mut self, ctx: Ctx, float_only: bool) -> Sc {
        let pick = if float_only {
            2 + self.rng.below(2)
        } else {
            self.rng.below(4)
        };
        match pick {
            0 => Sc::I32,
            1 => Sc::U32,
            2 => Sc::F32,
            _ if ctx.f16 => Sc::F16,
            _ => Sc::F32,
        }
    }

    fn ty(&mut self, ctx: Ctx, depth: u32) -> Ty {
        let composite = depth < 3;
        loop {
            let t = match self.rng.below(100) {
                0..=19 => Ty::Scalar(self.scalar(ctx, false)),
                20..=39 => Ty::Vector(self.rng.range(2, 4) as u8, self.scalar(ctx, false)),
                40..=54 => Ty::Matrix(
                    self.rng.range(2, 4) as u8,
                    self.rng.range(2, 4) as u8,
                    self.scalar(ctx, true),
                ),
                55..=69 if composite => {
                    let n = self.count();
                    self.array(ctx, depth, Some(n))
                }
                70..=86 if composite => self.new_struct(ctx, depth, false),
                87..=93 => self.alias(ctx),
                94..=99 if ctx.atomics => Ty::Atomic(if self.rng.chance(50) {
                    Sc::U32
                } else {
                    Sc::I32
                }),
                _ => continue,
            };
            return t;
        }
    }

    fn count(&mut self) -> u64 {
        if self.rng.chance(85) {
            self.rng.range(1, 4)
        } else {
            self.rng.range(5, 40)
        }
    }

    fn array(&mut self, ctx: Ctx, depth: u32, count: Option<u64>) -> Ty {
        let elem = self.ty(ctx, depth + 1);
        let (a, s) = self.layout(&elem);
        let natural = round_up(a, s);
        let stride = if ctx.uniform {
            if !natural.is_multiple_of(16) {
                Some(round_up(16, natural))
            } else if self.rng.chance(25) {
                Some(natural + a.max(16) * self.rng.range(1, 2))
            } else {
                None
            }
        } else if self.rng.chance(30) {
            Some(natural + a * self.rng.range(1, 3))
        } else {
            None
        };
        Ty::Array {
            elem: Box::new(elem),
            count,
            stride,
        }
    }

    fn alias(&mut self, ctx: Ctx) -> Ty {
        let ty = if self.rng.chance(50) {
            Ty::Scalar(self.scalar(ctx, false))
        } else {
            Ty::Vector(self.rng.range(2, 4) as u8, self.scalar(ctx, false))
        };
        let (a, s) = self.layout(&ty);
        let (mut align, mut size) = (None, None);
        match self.rng.below(3) {
            0 => align = Some((a << self.rng.range(1, 2)).min(64)),
            1 => size = Some(s + a * self.rng.range(1, 3)),
            _ => {
                align = Some((a << self.rng.range(1, 2)).min(64));
                size = Some(s + a * self.rng.range(0, 3));
            }
        }
        let name = format!("A{}", self.aliases.len());
        self.aliases.push(AliasDef {
            name,
            ty,
            align,
            size,
        });
        Ty::Alias(self.aliases.len() - 1)
    }

    /// A new struct; `top`: a buffer's own struct (its last member may be
    /// a runtime array when the context is storage).
    fn new_struct(&mut self, ctx: Ctx, depth: u32, top: bool) -> Ty {
        let n = if top {
            self.rng.range(2, 6)
        } else {
            self.rng.range(1, 4)
        };
        let mut members = Vec::new();
        for i in 0..n {
            let runtime = top && !ctx.sized && i + 1 == n && self.rng.chance(35);
            let ty = if runtime {
                self.array(ctx, depth, None)
            } else {
                self.ty(ctx, depth + 1)
            };
            let (a, s) = self.layout(&ty);
            let is_composite = matches!(ty, Ty::Struct(_) | Ty::Array { .. });
            let mut align = None;
            let mut size = None;
            if self.rng.chance(25) {
                align = Some((a << self.rng.range(1, 3)).min(64));
            }
            if !runtime && self.rng.chance(20) {
                size = Some(s + a.max(2) * self.rng.range(1, 3));
            }
            if ctx.uniform && is_composite {
                let need = round_up(16, a);
                if align.unwrap_or(a) < need {
                    align = Some(need);
                }
                if matches!(ty, Ty::Struct(_)) {
                    let sz = size.unwrap_or(s);
                    if !sz.is_multiple_of(16) {
                        size = Some(round_up(16, sz));
                    }
                }
            }
            members.push(Member {
                name: format!("m{i}"),
                ty,
                align,
                size,
            });
        }
        let mut def = StructDef {
            name: format!("S{}", self.structs.len()),
            members,
            align: None,
            size: None,
        };
        if !top && self.rng.chance(20) {
            let (a, end) = self.struct_end(&def);
            match self.rng.below(3) {
                0 => def.align = Some((a << self.rng.range(1, 2)).min(64)),
                1 => def.size = Some(round_up(4, end) + 4 * self.rng.range(0, 4)),
                _ => {
                    def.align = Some((a << 1).min(64));
                    def.size = Some(round_up(4, end) + 4 * self.rng.range(0, 4));
                }
            }
        }
        self.structs.push(def);
        Ty::Struct(self.structs.len() - 1)
    }

    fn spell(&self, ty: &Ty) -> String {
        match ty {
            Ty::Scalar(s) => s.name().to_string(),
            Ty::Vector(n, s) => format!("vec{n}<{}>", s.name()),
            Ty::Matrix(c, r, s) => format!("mat{c}x{r}<{}>", s.name()),
            Ty::Atomic(s) => format!("atomic<{}>", s.name()),
            Ty::Array {
                elem,
                count,
                stride,
            } => {
                let attr = stride.map(|s| format!("@stride({s}) ")).unwrap_or_default();
                match count {
                    Some(n) => format!("{attr}array<{}, {n}>", self.spell(elem)),
                    None => format!("{attr}array<{}>", self.spell(elem)),
                }
            }
            Ty::Struct(i) => self.structs[*i].name.clone(),
            Ty::Alias(i) => self.aliases[*i].name.clone(),
        }
    }
}

fn attrs(align: Option<u64>, size: Option<u64>) -> String {
    let mut s = String::new();
    if let Some(a) = align {
        let _ = write!(s, "@align({a}) ");
    }
    if let Some(n) = size {
        let _ = write!(s, "@size({n}) ");
    }
    s
}

/// Module `index` of the run with `seed`.
pub fn module(seed: u64, index: u64) -> Generated {
    // One module in five says `requires uniform_buffer_standard_layout;`
    // (the uniform then takes the storage rules), decided apart from the
    // generator's own choices so that the other modules stay as they were.
    let standard =
        Rng::new(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5354_4c41).below(5) == 0;
    generate_with(
        Rng::new(seed ^ index.wrapping_mul(0xd134_2543_de82_ef95)),
        index,
        standard,
    )
}

/// A module from the choices of `rng`; `index` names it in its first line.
/// With `standard`, the module says `requires
/// uniform_buffer_standard_layout;` and its uniform follows the storage
/// rules.
pub fn generate_with(rng: Rng, index: u64, standard: bool) -> Generated {
    let mut g = Gen {
        rng,
        structs: Vec::new(),
        aliases: Vec::new(),
    };
    let f16 = g.rng.chance(30);
    let uni = Ctx {
        uniform: !standard,
        sized: true,
        atomics: false,
        f16,
    };
    let sto = Ctx {
        uniform: false,
        sized: false,
        atomics: false,
        f16,
    };
    let rw = Ctx {
        uniform: false,
        sized: false,
        atomics: true,
        f16,
    };
    // Buffer types: mostly a struct of their own, sometimes a bare type.
    let top = |g: &mut Gen, ctx: Ctx| -> Ty {
        match g.rng.below(10) {
            0 if !ctx.sized => g.array(ctx, 1, None),
            1 => {
                let n = g.count();
                g.array(ctx, 1, Some(n))
            }
            2 => g.ty(ctx, 2),
            _ => g.new_struct(ctx, 0, true),
        }
    };
    let u = top(&mut g, uni);
    let s = top(&mut g, sto);
    let w = top(&mut g, rw);
    let groups = [g.rng.below(3), g.rng.below(3), g.rng.below(3)];

    let mut src = String::new();
    let _ = writeln!(src, "// stride exec: generated module {index}");
    if f16 {
        src.push_str("enable f16;\n");
    }
    if standard {
        src.push_str("requires uniform_buffer_standard_layout;\n");
    }
    src.push('\n');
    for a in &g.aliases {
        let _ = writeln!(
            src,
            "{}alias {} = {};",
            attrs(a.align, a.size),
            a.name,
            g.spell(&a.ty)
        );
    }
    for def in &g.structs {
        let _ = write!(src, "\n{}", attrs(def.align, def.size).trim_end());
        if def.align.is_some() || def.size.is_some() {
            src.push('\n');
        }
        let _ = writeln!(src, "struct {} {{", def.name);
        for m in &def.members {
            let _ = writeln!(
                src,
                "    {}{}: {},",
                attrs(m.align, m.size),
                m.name,
                g.spell(&m.ty)
            );
        }
        src.push_str("}\n");
    }
    src.push('\n');
    let _ = writeln!(
        src,
        "@group({}) @binding(0) var<uniform> gu: {};",
        groups[0],
        g.spell(&u)
    );
    let _ = writeln!(
        src,
        "@group({}) @binding(1) var<storage, read> gs: {};",
        groups[1],
        g.spell(&s)
    );
    let _ = writeln!(
        src,
        "@group({}) @binding(2) var<storage, read_write> gw: {};",
        groups[2],
        g.spell(&w)
    );
    Generated { source: src, f16 }
}
