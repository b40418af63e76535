//! `#line` directives in the GLSL and HLSL (and Slang) text: every statement
//! of the output points back to its WGSL line, so that a compiler's error in
//! the generated text names the line of the user's source.
//!
//! One place decides when a directive is written and which line it names
//! ([`LineMap`], [`Cursor`]); the writers only call
//! `FunctionState::mark` before the text of a statement. A span of naga's
//! module points into the front end's rewritten source; the split's
//! `SourceMap` maps it back to the user's text first.
//!
//! A directive is written only where the compiler's own count would name a
//! different line: `#line N` names the line that follows it, and each later
//! line of output counts one more, so a statement printed on the line after
//! one from the WGSL line before needs none.

use crate::front::split::SourceMap;

/// Which `#line` directives the GLSL, HLSL and Slang outputs carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineDirectives {
    /// None (the library's default: output as without the setting).
    #[default]
    None,
    /// `#line N`: for GLSL ES, whose numeric form takes no file name
    /// (a second number would be a source-string number).
    Numeric,
    /// `#line N "file"`: DXC, Slang and glslang (GLSL declares
    /// `GL_GOOGLE_cpp_style_line_directive`, which Vulkan and desktop
    /// GLSL compilers accept).
    File,
    /// [`Self::File`] for HLSL, Slang and Vulkan or desktop GLSL,
    /// [`Self::Numeric`] for GLSL ES, none for every other target.
    Auto,
}

impl LineDirectives {
    pub const ALL: [LineDirectives; 4] = [
        LineDirectives::Auto,
        LineDirectives::None,
        LineDirectives::Numeric,
        LineDirectives::File,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LineDirectives::None => "none",
            LineDirectives::Numeric => "numeric",
            LineDirectives::File => "file",
            LineDirectives::Auto => "auto",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The form `target` writes: [`Self::Auto`] decided for it (`es`:
    /// whether GLSL output is GLSL ES).
    pub fn resolve(self, target: crate::Target, es: bool) -> LineDirectives {
        use crate::Target as T;
        match (self, target) {
            (LineDirectives::Auto, T::Hlsl | T::Slang) => LineDirectives::File,
            (LineDirectives::Auto, T::Glsl) if es => LineDirectives::Numeric,
            (LineDirectives::Auto, T::Glsl) => LineDirectives::File,
            (LineDirectives::Auto, _) => LineDirectives::None,
            (form, _) => form,
        }
    }
}

/// The line directives of a translation ([`crate::Options::lines`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineOptions {
    pub directives: LineDirectives,
    /// The file name `#line N "name"` names: the input as the user gave it.
    /// Empty: `<input>`.
    pub source_name: String,
}

/// The file name `options` gives the source.
pub fn source_name(options: &LineOptions) -> &str {
    named(&options.source_name)
}

fn named(name: &str) -> &str {
    if name.is_empty() {
        "<input>"
    } else {
        name
    }
}

/// Where each line of the user's source starts, and how directives are
/// spelled: made once per translation that writes any.
#[derive(Clone, Debug)]
pub(crate) struct LineMap {
    /// Byte offset of the start of every line of the original source.
    starts: Vec<usize>,
    map: SourceMap,
    /// `None`: the numeric form; else the file name as a string literal.
    file: Option<String>,
}

impl LineMap {
    /// The map for `parsed` in the resolved `form` (`None` when the form
    /// writes no directive), naming `source_name` (empty: `<input>`).
    pub fn new(
        parsed: &crate::front::Parsed,
        form: LineDirectives,
        source_name: &str,
    ) -> Option<Self> {
        let file = match form {
            LineDirectives::None | LineDirectives::Auto => return None,
            LineDirectives::Numeric => None,
            LineDirectives::File => Some(string_literal(named(source_name))),
        };
        let starts = std::iter::once(0)
            .chain(parsed.source.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Some(LineMap {
            starts,
            map: parsed.map.clone(),
            file,
        })
    }

    /// Whether directives name the file (`#line N "file"`).
    pub fn names_file(&self) -> bool {
        self.file.is_some()
    }

    /// The 1-based line of the user's source where `span` (of naga's
    /// module) starts; `None` for an undefined span.
    pub fn line_of(&self, span: naga::Span) -> Option<u32> {
        let range = span.to_range()?;
        let start = self.map.span(&range).start;
        let line = self.starts.partition_point(|&s| s <= start);
        u32::try_from(line).ok()
    }

    /// Before a line of output from source line `line`: a directive in
    /// `out` unless the compiler's count at this point (`cursor`, from the
    /// last directive) already names `line`.
    pub fn mark(&self, out: &mut String, cursor: &mut Option<Cursor>, line: u32) {
        if let Some(c) = cursor {
            let lines = out.as_bytes()[c.at..].iter().filter(|&&b| b == b'\n');
            let now = c.line.saturating_add(lines.count() as u32);
            *c = Cursor {
                at: out.len(),
                line: now,
            };
            if now == line {
                return;
            }
        }
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("#line ");
        crate::back::common::push_decimal(out, u64::from(line));
        if let Some(file) = &self.file {
            out.push(' ');
            out.push_str(file);
        }
        out.push('\n');
        *cursor = Some(Cursor {
            at: out.len(),
            line,
        });
    }
}

/// Every statement span of `module`'s functions mapped through `map` to
/// the user's source (of length `len`), for naga's SPIR-V debug info,
/// which counts lines in the text it is given (and names line 1 for an
/// undefined span). A statement without a span (an `Emit` of loads of a
/// variable, a statement stride made) takes the span of the next statement
/// in its block that has one, else of the one before.
pub(crate) fn statements_to_source(module: &mut naga::Module, map: &SourceMap, len: usize) {
    fn block(b: &mut naga::Block, map: &SourceMap, len: usize) {
        let mut spans: Vec<naga::Span> = b
            .span_iter()
            .map(|(_, span)| {
                span.to_range()
                    .map(|r| map.span(&r))
                    .filter(|r| r.end <= len)
                    .map_or(naga::Span::UNDEFINED, naga::Span::from)
            })
            .collect();
        let mut next = naga::Span::UNDEFINED;
        for span in spans.iter_mut().rev() {
            if span.is_defined() {
                next = *span;
            } else {
                *span = next;
            }
        }
        let mut before = naga::Span::UNDEFINED;
        for ((stmt, span), &mapped) in b.span_iter_mut().zip(&spans) {
            if let Some(span) = span {
                *span = if mapped.is_defined() { mapped } else { before };
                before = *span;
            }
            for nested in crate::back::nested_blocks_mut(stmt) {
                block(nested, map, len);
            }
        }
    }
    for (_, f) in module.functions.iter_mut() {
        block(&mut f.body, map, len);
    }
    for ep in &mut module.entry_points {
        block(&mut ep.function.body, map, len);
    }
}

/// The line the compiler counts at byte `at` of the output: the last
/// directive's, plus the lines written since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cursor {
    at: usize,
    line: u32,
}

/// `name` as a C string literal: quotes and backslashes escaped, control
/// characters as `\x` escapes are not portable, so they become `?`.
fn string_literal(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    out.push('"');
    for c in name.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(source: &str, form: LineDirectives) -> LineMap {
        let parsed = crate::front::parse(source).expect("parses");
        LineMap::new(&parsed, form, "dir/a \"b\".wgsl").expect("a form")
    }

    #[test]
    fn names_resolve_and_round_trip() {
        for d in LineDirectives::ALL {
            assert_eq!(LineDirectives::from_name(d.name()), Some(d));
        }
        use crate::Target as T;
        let auto = LineDirectives::Auto;
        assert_eq!(auto.resolve(T::Hlsl, false), LineDirectives::File);
        assert_eq!(auto.resolve(T::Slang, false), LineDirectives::File);
        assert_eq!(auto.resolve(T::Glsl, false), LineDirectives::File);
        assert_eq!(auto.resolve(T::Glsl, true), LineDirectives::Numeric);
        for t in [T::Spirv, T::Layout, T::Reflect, T::C, T::Rust] {
            assert_eq!(auto.resolve(t, false), LineDirectives::None, "{t}");
        }
        assert_eq!(
            LineDirectives::Numeric.resolve(T::Hlsl, false),
            LineDirectives::Numeric
        );
        assert_eq!(LineDirectives::default(), LineDirectives::None);
    }

    #[test]
    fn lines_are_one_based_and_undefined_spans_have_none() {
        let m = map("\nfn f() {}\n\nfn g() {}\n", LineDirectives::Numeric);
        assert_eq!(m.line_of(naga::Span::new(0, 1)), Some(1));
        assert_eq!(m.line_of(naga::Span::new(1, 2)), Some(2));
        assert_eq!(m.line_of(naga::Span::new(12, 13)), Some(4));
        assert_eq!(m.line_of(naga::Span::UNDEFINED), None);
    }

    #[test]
    fn a_directive_only_where_the_count_differs() {
        let m = map("fn f() {}", LineDirectives::Numeric);
        let (mut out, mut cursor) = (String::from("void f() {\n"), None);
        m.mark(&mut out, &mut cursor, 3);
        out.push_str("    a;\n");
        m.mark(&mut out, &mut cursor, 4); // the count says 4 already
        out.push_str("    b;\n    c;\n");
        m.mark(&mut out, &mut cursor, 5); // the count says 6
        out.push_str("    d;\n");
        assert_eq!(
            out,
            "void f() {\n#line 3\n    a;\n    b;\n    c;\n#line 5\n    d;\n"
        );
    }

    #[test]
    fn the_file_form_escapes_the_name() {
        let m = map("fn f() {}", LineDirectives::File);
        let (mut out, mut cursor) = (String::new(), None);
        m.mark(&mut out, &mut cursor, 1);
        assert_eq!(out, "#line 1 \"dir/a \\\"b\\\".wgsl\"\n");
        assert!(m.names_file());
        assert_eq!(string_literal("a\\b\nc"), "\"a\\\\b?c\"");
    }
}
