//! Module-scope scanner. naga keeps no per-member spans and rejects the
//! dialect, so this scans struct, alias, var, const, override and fn headers
//! (bodies skipped by brace matching), records the exact span of every
//! struct, member, member type and attribute, and handles comments, nested
//! generics and both attribute syntaxes (`@a(n)` and `[[a, b(n)]]`).

use crate::diag::{Diagnostic, Diagnostics, Edit, Fix, Span};
use crate::limits::{MAX_BRACKET_NESTING, MAX_TYPE_ARGUMENT_NESTING};

/// An identifier (or short source text) copied out of the source. Short
/// names are kept inline, so scanning a declaration allocates no memory per
/// name; derefs to `str` and compares, hashes and prints as its text.
pub type Name = smol_str::SmolStr;

/// One attribute, in either syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// `align`, `stride`, `group`, ...
    pub name: Name,
    pub name_span: Span,
    /// Arguments as written (trimmed), each with its span.
    pub args: Vec<AttrArg>,
    /// The whole attribute: from `@` (or the name inside `[[ ]]`) to its `)`.
    pub span: Span,
    /// Written inside `[[ ... ]]`; `list_span` is then the whole bracket list.
    pub bracket: Option<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrArg {
    pub text: Name,
    pub span: Span,
}

/// A type as written, e.g. `@stride(32) array<A, 3>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeExpr {
    /// Attributes written before the type (`@stride(n)`).
    pub attrs: Vec<Attribute>,
    pub name: Name,
    pub name_span: Span,
    pub args: Vec<TemplateArg>,
    /// From the name to the closing `>` (attributes excluded).
    pub span: Span,
}

/// One template argument: a type when it parses as one, otherwise raw text
/// (e.g. an element count expression).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateArg {
    pub text: Name,
    pub span: Span,
    pub ty: Option<TypeExpr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub attrs: Vec<Attribute>,
    pub name: Name,
    pub name_span: Span,
    pub ty: TypeExpr,
    /// From the first attribute (or the name) to the end of the type.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDecl {
    pub name: Name,
    pub name_span: Span,
    pub members: Vec<Member>,
    /// `{ ... }` inclusive.
    pub body_span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasDecl {
    pub name: Name,
    pub name_span: Span,
    pub ty: TypeExpr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// Template list after `var`, e.g. `["storage", "read_write"]`.
    pub template: Vec<AttrArg>,
    pub name: Name,
    pub name_span: Span,
    pub ty: Option<TypeExpr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Struct(StructDecl),
    Alias(AliasDecl),
    Var(VarDecl),
    Const {
        name: Name,
        name_span: Span,
    },
    Override {
        name: Name,
        name_span: Span,
    },
    Fn {
        name: Name,
        name_span: Span,
    },
    /// `enable`, `requires`, `diagnostic` directives and anything else kept as is.
    Directive,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub attrs: Vec<Attribute>,
    pub kind: ItemKind,
    /// From the first attribute to the end of the declaration (`;` or `}`).
    pub span: Span,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScannedModule {
    pub items: Vec<Item>,
    /// Attributes written in `[[ ... ]]` lists inside function headers
    /// (parameters and return types), in source order. They are not
    /// interpreted, only rewritten to `@` syntax by the dialect.
    pub header_attrs: Vec<Attribute>,
}

/// Scan `source`. Errors (unterminated comment, unbalanced braces, ...) are
/// diagnostics at the offending span.
pub fn scan(source: &str) -> Result<ScannedModule, Diagnostics> {
    scan_with(source, true)
}

/// [`scan`], except that inside the `{ }` groups it skips (function bodies
/// above all) only braces are matched, not `(` and `[`. On a valid module
/// the result is the same, since WGSL nests all three; where a `(` or `[`
/// does not match, this may succeed (naga then rejects the text) or fail
/// differently, so any later failure must be checked against [`scan`].
pub(crate) fn scan_quick(source: &str) -> Result<ScannedModule, Diagnostics> {
    scan_with(source, false)
}

fn scan_with(source: &str, full: bool) -> Result<ScannedModule, Diagnostics> {
    if source.len() >= u32::MAX as usize {
        return Err(Diagnostics::from(Diagnostic::error(
            "the input is too large: sources must be smaller than 4 GiB",
        )));
    }
    let (toks, ends) = tokenize(source, full).map_err(Diagnostics::from)?;
    let mut scanner = Scanner {
        src: source,
        toks,
        ends,
        diags: Diagnostics::new(),
        header_attrs: Vec::new(),
    };
    let items = scanner.module();
    if scanner.diags.is_empty() {
        Ok(ScannedModule {
            items,
            header_attrs: scanner.header_attrs,
        })
    } else {
        Err(scanner.diags)
    }
}

/// The characters of `source[range]` that are code, not comments, with
/// their byte offsets. `range.start` must not be inside a comment.
pub fn code_chars(source: &str, range: Span) -> Vec<(usize, char)> {
    code_chars_iter(source, range).collect()
}

/// [`code_chars`] without collecting: the same characters, in order.
pub fn code_chars_iter(source: &str, range: Span) -> CodeChars<'_> {
    CodeChars {
        src: source,
        at: range.start,
        end: range.end.min(source.len()),
    }
}

/// Iterator behind [`code_chars_iter`].
#[derive(Clone, Debug)]
pub struct CodeChars<'a> {
    src: &'a str,
    at: usize,
    end: usize,
}

impl Iterator for CodeChars<'_> {
    type Item = (usize, char);

    fn next(&mut self) -> Option<(usize, char)> {
        let b = self.src.as_bytes();
        while self.at < self.end {
            let i = self.at;
            let byte = b[i];
            if byte == b'/' && b.get(i + 1) == Some(&b'/') {
                self.at = skip_line_comment(self.src, i);
                continue;
            }
            if byte == b'/' && b.get(i + 1) == Some(&b'*') {
                self.at = skip_block_comment(self.src, i).unwrap_or(self.src.len());
                continue;
            }
            let c = if byte < 0x80 {
                char::from(byte)
            } else {
                self.src.get(i..)?.chars().next()?
            };
            self.at = i + c.len_utf8();
            return Some((i, c));
        }
        None
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Ident,
    Number,
    Punct(char),
}

/// No partner: the token is not a bracket (or its partner was skipped).
const NONE: u32 = u32::MAX;

/// A token: its kind, its byte range and, for a bracket, the index of the
/// bracket closing or opening it. Offsets fit in `u32`: [`scan`] rejects
/// larger inputs (naga's spans are `u32` too).
#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Tok,
    start: u32,
    end: u32,
    partner: u32,
}

impl Token {
    fn new(kind: Tok, start: usize, end: usize) -> Token {
        Token {
            kind,
            start: start as u32,
            end: end as u32,
            partner: NONE,
        }
    }

    fn span(&self) -> Span {
        self.start as usize..self.end as usize
    }
}

/// WGSL blankspace (Unicode Pattern_White_Space).
fn is_blank(c: char) -> bool {
    matches!(
        c,
        ' ' | '\u{9}'..='\u{d}' | '\u{85}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}'
    )
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

// Byte classes for the tokenizer; `C_IDENT` and `C_DIGIT` come first so
// that `class <= C_DIGIT` tests for an ASCII identifier character.
const C_IDENT: u8 = 0;
const C_DIGIT: u8 = 1;
const C_BLANK: u8 = 2;
const C_SLASH: u8 = 3;
const C_DOT: u8 = 4;
const C_OPEN: u8 = 5;
const C_CLOSE: u8 = 6;
const C_PUNCT: u8 = 7;
const C_HIGH: u8 = 8;

/// The class of every byte value.
static CLASS: [u8; 256] = {
    let mut t = [C_PUNCT; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = match i as u8 {
            b'_' | b'a'..=b'z' | b'A'..=b'Z' => C_IDENT,
            b'0'..=b'9' => C_DIGIT,
            b' ' | b'\t'..=b'\r' => C_BLANK,
            b'/' => C_SLASH,
            b'.' => C_DOT,
            b'(' | b'[' | b'{' => C_OPEN,
            b')' | b']' | b'}' => C_CLOSE,
            0x80..=0xFF => C_HIGH,
            _ => C_PUNCT,
        };
        i += 1;
    }
    t
};

/// Bytes a skipped `{ }` group must look at: brackets and `/`.
static OPAQUE_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = matches!(CLASS[i], C_SLASH | C_OPEN | C_CLOSE);
        i += 1;
    }
    t
};

/// [`OPAQUE_STOP`] for [`scan_quick`]: braces and `/` only.
static BRACE_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = matches!(i as u8, b'/' | b'{' | b'}');
        i += 1;
    }
    t
};

/// Bytes that may start a line break: ASCII breaks and the lead bytes of
/// U+0085, U+2028 and U+2029.
static LINE_END_LEAD: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = matches!(i as u8, 0x0A..=0x0D | 0xC2 | 0xE2);
        i += 1;
    }
    t
};

/// Offset just past a `//` comment starting at `at` (the line break stays).
/// Byte-wise: the multi-byte line breaks (U+0085, U+2028, U+2029) are
/// matched by their UTF-8 encodings, which start with a lead byte.
fn skip_line_comment(src: &str, at: usize) -> usize {
    let b = src.as_bytes();
    let mut j = at;
    while j < b.len() {
        if !LINE_END_LEAD[usize::from(b[j])] {
            j += 1;
            continue;
        }
        match b[j] {
            0x0A..=0x0D => return j,
            0xC2 if b.get(j + 1) == Some(&0x85) => return j,
            0xE2 if b.get(j + 1) == Some(&0x80) && matches!(b.get(j + 2), Some(0xA8 | 0xA9)) => {
                return j
            }
            _ => j += 1,
        }
    }
    src.len()
}

/// Offset just past a (nested) `/* */` comment starting at `at`.
fn skip_block_comment(src: &str, at: usize) -> Result<usize, Diagnostic> {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut j = at;
    while j + 1 < b.len() {
        let c = b[j];
        if c != b'/' && c != b'*' {
            j += 1;
        } else if c == b'/' && b[j + 1] == b'*' {
            depth += 1;
            j += 2;
        } else if c == b'*' && b[j + 1] == b'/' {
            depth = depth.saturating_sub(1);
            j += 2;
            if depth == 0 {
                return Ok(j);
            }
        } else {
            j += 1;
        }
    }
    Err(Diagnostic::error("unterminated block comment")
        .at(at..at + 2, "this comment is never closed")
        .note("add `*/` to close it (block comments nest in WGSL)"))
}

/// End of the number token starting at `i` (a digit, or `.` then a digit).
fn number_end(b: &[u8], mut i: usize) -> usize {
    let hex = b[i..].starts_with(b"0x") || b[i..].starts_with(b"0X");
    i += 1;
    while let Some(&ch) = b.get(i) {
        let prev = b[i - 1];
        let exp = if hex {
            matches!(prev, b'p' | b'P')
        } else {
            matches!(prev, b'e' | b'E')
        };
        if ch.is_ascii_alphanumeric()
            || ch == b'_'
            || ch == b'.'
            || (exp && (ch == b'+' || ch == b'-'))
        {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// The first offset from `i` on whose byte is in [`OPAQUE_STOP`] (or the
/// length of `b`). Four bytes at a time: most of a function body is
/// neither a bracket nor a `/`.
fn opaque_stop(b: &[u8], mut i: usize, table: &[bool; 256]) -> usize {
    let stop = |c: u8| table[usize::from(c)];
    while let Some(&[c0, c1, c2, c3]) = b.get(i..i + 4) {
        if stop(c0) | stop(c1) | stop(c2) | stop(c3) {
            break;
        }
        i += 4;
    }
    while let Some(&c) = b.get(i) {
        if stop(c) {
            break;
        }
        i += 1;
    }
    i
}

/// End of the identifier whose first character ends before `i`.
#[inline(always)]
fn ident_end(src: &str, mut i: usize) -> usize {
    let b = src.as_bytes();
    while let Some(&byte) = b.get(i) {
        if CLASS[usize::from(byte)] <= C_DIGIT {
            i += 1;
        } else if byte >= 0x80 {
            match src.get(i..).and_then(|s| s.chars().next()) {
                Some(ch) if is_ident_continue(ch) => i += ch.len_utf8(),
                _ => break,
            }
        } else {
            break;
        }
    }
    i
}

fn closer_of(c: u8) -> u8 {
    match c {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// An open bracket waiting for its closer: the byte, its offset and its
/// token index (`NONE` inside a skipped group).
#[derive(Clone, Copy)]
struct Open {
    byte: u8,
    at: usize,
    tok: u32,
}

/// Tokens, with every bracket matched, in one pass. Only tokens the scanner
/// reads are kept: a module-scope `{ }` group other than a struct body
/// (function bodies above all) is kept as its two brackets, its inside only
/// checked for comments and bracket matching. Errors: the first
/// unterminated comment; else the first bracket that does not match (in
/// source order), else the outermost unclosed one.
fn tokenize(src: &str, full: bool) -> Result<(Vec<Token>, usize), Diagnostic> {
    let b = src.as_bytes();
    let n = b.len();
    // About one token per five bytes outside function bodies (the corpus
    // has one per six overall); reserving that avoids regrowing.
    let mut toks: Vec<Token> = Vec::with_capacity(n / 5 + 16);
    let mut stack: Vec<Open> = Vec::new();
    let mut ends = 0;
    let mut i = 0;
    loop {
        while i < n && CLASS[usize::from(b[i])] == C_BLANK {
            i += 1;
        }
        let Some(&byte) = b.get(i) else {
            break;
        };
        let class = CLASS[usize::from(byte)];
        // Tested in order of frequency, as plain branches.
        if class == C_IDENT {
            let start = i;
            i = ident_end(src, i + 1);
            toks.push(Token::new(Tok::Ident, start, i));
        } else if class == C_PUNCT {
            toks.push(Token::new(Tok::Punct(char::from(byte)), i, i + 1));
            if byte == b';' && stack.is_empty() {
                ends += 1;
            }
            i += 1;
        } else if class == C_OPEN {
            let tok = toks.len() as u32;
            toks.push(Token::new(Tok::Punct(char::from(byte)), i, i + 1));
            stack.push(Open { byte, at: i, tok });
            nesting_limit(src, &stack, i)?;
            i += 1;
            if byte == b'{' && stack.len() == 1 && !after_struct_name(src, &toks) {
                i = opaque_group(src, i, &mut toks, &mut stack, full)?;
                ends += 1;
            }
        } else if class == C_CLOSE {
            let tok = toks.len() as u32;
            toks.push(Token::new(Tok::Punct(char::from(byte)), i, i + 1));
            if let Err(d) = close(&mut toks, &mut stack, byte, i, tok) {
                return Err(comment_error_after(src, i + 1).unwrap_or(d));
            }
            if stack.is_empty() {
                ends += 1;
            }
            i += 1;
        } else if class == C_DIGIT
            || (class == C_DOT && b.get(i + 1).is_some_and(|n| n.is_ascii_digit()))
        {
            let start = i;
            i = number_end(b, i);
            toks.push(Token::new(Tok::Number, start, i));
        } else if class == C_SLASH && b.get(i + 1) == Some(&b'/') {
            i = skip_line_comment(src, i);
        } else if class == C_SLASH && b.get(i + 1) == Some(&b'*') {
            i = skip_block_comment(src, i)?;
        } else if class == C_HIGH {
            // Non-ASCII: blankspace, an identifier or a lone character.
            let Some(c) = src.get(i..).and_then(|s| s.chars().next()) else {
                break;
            };
            let len = c.len_utf8();
            if is_blank(c) {
                i += len;
            } else if is_ident_start(c) {
                let start = i;
                i = ident_end(src, i + len);
                toks.push(Token::new(Tok::Ident, start, i));
            } else {
                toks.push(Token::new(Tok::Punct(c), i, i + len));
                i += len;
            }
        } else {
            // `/` or `.` alone.
            toks.push(Token::new(Tok::Punct(char::from(byte)), i, i + 1));
            i += 1;
        }
    }
    if let Some(open) = stack.first() {
        let c = char::from(open.byte);
        return Err(Diagnostic::error(format!("unclosed `{c}`"))
            .at(open.at..open.at + 1, "this is never closed"));
    }
    Ok((toks, ends))
}

/// The error of a bracket at `at` that opens more than
/// [`MAX_BRACKET_NESTING`] (an unterminated comment after it first, as for
/// every bracket error).
fn nesting_limit(src: &str, stack: &[Open], at: usize) -> Result<(), Diagnostic> {
    if stack.len() <= MAX_BRACKET_NESTING {
        return Ok(());
    }
    Err(comment_error_after(src, at + 1).unwrap_or_else(|| {
        Diagnostic::error(format!(
            "brackets nest too deeply: more than {MAX_BRACKET_NESTING} open at once"
        ))
        .at(at..at + 1, "nested too deeply")
    }))
}

/// Close the innermost open bracket with `byte` at `at` (token `tok`, or
/// `NONE`), linking the two tokens when both are kept.
fn close(
    toks: &mut [Token],
    stack: &mut Vec<Open>,
    byte: u8,
    at: usize,
    tok: u32,
) -> Result<(), Diagnostic> {
    let c = char::from(byte);
    let Some(open) = stack.pop() else {
        return Err(Diagnostic::error(format!("unmatched `{c}`"))
            .at(at..at + 1, "this has no opening bracket"));
    };
    let want = closer_of(open.byte);
    if want != byte {
        let open_c = char::from(open.byte);
        return Err(
            Diagnostic::error(format!("mismatched brackets: `{open_c}` closed by `{c}`"))
                .at(at..at + 1, format!("expected `{}` here", char::from(want)))
                .also(open.at..open.at + 1, "opened here"),
        );
    }
    if open.tok != NONE && tok != NONE {
        if let Some(t) = toks.get_mut(open.tok as usize) {
            t.partner = tok;
        }
        if let Some(t) = toks.get_mut(tok as usize) {
            t.partner = open.tok;
        }
    }
    Ok(())
}

/// The first unterminated block comment from `at` on, if any: tokenizing
/// reports it ahead of a bracket error found earlier.
fn comment_error_after(src: &str, mut at: usize) -> Option<Diagnostic> {
    let b = src.as_bytes();
    while at < b.len() {
        if b[at] == b'/' && b.get(at + 1) == Some(&b'/') {
            at = skip_line_comment(src, at);
        } else if b[at] == b'/' && b.get(at + 1) == Some(&b'*') {
            match skip_block_comment(src, at) {
                Ok(end) => at = end,
                Err(d) => return Some(d),
            }
        } else {
            at += 1;
        }
    }
    None
}

/// Is the `{` just pushed preceded by `struct NAME`? Only a struct body at
/// module scope is read token by token; every other module-scope `{ }`
/// group (function bodies above all) is skipped whole by the scanner.
fn after_struct_name(src: &str, toks: &[Token]) -> bool {
    match toks {
        [.., kw, name, _open] => {
            kw.kind == Tok::Ident && name.kind == Tok::Ident && src.get(kw.span()) == Some("struct")
        }
        _ => false,
    }
}

/// The inside of a module-scope `{ }` group the scanner never reads, from
/// `i` (just past the `{`, the only entry of `stack`): brackets are matched
/// and comments skipped with the same errors as full tokenization, but only
/// the closing bracket becomes a token. Returns the offset past it (or the
/// end of the input). Brackets, `/` and comment openers are ASCII and never
/// part of an identifier or number token, so this sees exactly the brackets
/// full tokenization would. Unless `full` ([`scan_quick`]), only braces
/// are matched.
fn opaque_group(
    src: &str,
    mut i: usize,
    toks: &mut Vec<Token>,
    stack: &mut Vec<Open>,
    full: bool,
) -> Result<usize, Diagnostic> {
    let b = src.as_bytes();
    let table = if full { &OPAQUE_STOP } else { &BRACE_STOP };
    loop {
        i = opaque_stop(b, i, table);
        let Some(&byte) = b.get(i) else {
            return Ok(i);
        };
        match byte {
            b'/' if b.get(i + 1) == Some(&b'/') => i = skip_line_comment(src, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_block_comment(src, i)?,
            b'/' => i += 1,
            b'(' | b'[' | b'{' => {
                stack.push(Open {
                    byte,
                    at: i,
                    tok: NONE,
                });
                nesting_limit(src, stack, i)?;
                i += 1;
            }
            _ => {
                let last = stack.len() == 1;
                let tok = if last {
                    toks.push(Token::new(Tok::Punct(char::from(byte)), i, i + 1));
                    (toks.len() - 1) as u32
                } else {
                    NONE
                };
                if let Err(d) = close(toks, stack, byte, i, tok) {
                    return Err(comment_error_after(src, i + 1).unwrap_or(d));
                }
                i += 1;
                if last {
                    return Ok(i);
                }
            }
        }
    }
}

type Res<T> = Result<T, Diagnostic>;

/// A declaration's attributes and kind, before its span is known.
type ItemParts = (Vec<Attribute>, ItemKind);

struct Scanner<'a> {
    src: &'a str,
    /// Tokens, brackets linked to their partners.
    toks: Vec<Token>,
    /// How many module-scope `;` and `}` the tokens hold: about the number
    /// of declarations, to size the item list.
    ends: usize,
    diags: Diagnostics,
    header_attrs: Vec<Attribute>,
}

impl<'a> Scanner<'a> {
    fn text(&self, k: usize) -> &'a str {
        self.toks.get(k).map_or("", |t| &self.src[t.span()])
    }

    fn span(&self, k: usize) -> Span {
        match self.toks.get(k) {
            Some(t) => t.span(),
            None => self.src.len()..self.src.len(),
        }
    }

    fn is_punct(&self, k: usize, c: char) -> bool {
        self.toks.get(k).is_some_and(|t| t.kind == Tok::Punct(c))
    }

    fn is_ident(&self, k: usize) -> bool {
        self.toks.get(k).is_some_and(|t| t.kind == Tok::Ident)
    }

    fn partner(&self, k: usize) -> usize {
        match self.toks.get(k) {
            Some(t) if t.partner != NONE => t.partner as usize,
            _ => usize::MAX,
        }
    }

    /// `[[` at `k`: two adjacent `[` tokens.
    fn is_list_open(&self, k: usize) -> bool {
        self.is_punct(k, '[')
            && self.is_punct(k + 1, '[')
            && self.span(k).end == self.span(k + 1).start
    }

    /// What was found at `k`, for error messages.
    fn found(&self, k: usize, _end: usize) -> String {
        if k < self.toks.len() {
            format!("found `{}`", self.text(k))
        } else {
            "found the end of the input".to_string()
        }
    }

    fn expect_ident(&self, k: &mut usize, end: usize, what: &str) -> Res<(Name, Span)> {
        if *k < end && self.is_ident(*k) {
            let r = (Name::new(self.text(*k)), self.span(*k));
            *k += 1;
            Ok(r)
        } else {
            Err(
                Diagnostic::error(format!("expected {what}, {}", self.found(*k, end)))
                    .at(self.span(*k), format!("expected {what}")),
            )
        }
    }

    fn expect_punct(&self, k: &mut usize, end: usize, c: char, context: &str) -> Res<()> {
        if *k < end && self.is_punct(*k, c) {
            *k += 1;
            Ok(())
        } else {
            Err(
                Diagnostic::error(format!("expected `{c}` {context}, {}", self.found(*k, end)))
                    .at(self.span(*k), format!("expected `{c}`")),
            )
        }
    }

    /// Index just past the `;` ending the declaration that contains `k`;
    /// balanced groups are skipped whole. Stops at `end`.
    fn skip_statement(&self, mut k: usize, end: usize) -> usize {
        while k < end {
            if self.is_punct(k, ';') {
                return k + 1;
            }
            k = self.skip_token(k);
        }
        end
    }

    /// Index past the token or balanced group at `k`.
    fn skip_token(&self, k: usize) -> usize {
        let opens = matches!(
            self.toks.get(k).map(|t| t.kind),
            Some(Tok::Punct('(' | '[' | '{'))
        );
        let p = self.partner(k);
        if opens && p != usize::MAX && p > k {
            p + 1
        } else {
            k + 1
        }
    }

    /// Skip something not understood at module scope: to the next `;` or
    /// past the next balanced `{ }`.
    fn skip_unknown(&self, mut k: usize) -> usize {
        let n = self.toks.len();
        let first = k;
        while k < n {
            if self.is_punct(k, ';') {
                return k + 1;
            }
            let brace = self.is_punct(k, '{');
            k = self.skip_token(k);
            if brace {
                return k;
            }
        }
        n.max(first + 1)
    }

    fn module(&mut self) -> Vec<Item> {
        let n = self.toks.len();
        let mut items = Vec::with_capacity(self.ends + 1);
        let mut k = 0;
        while k < n {
            if self.is_punct(k, ';') {
                k += 1;
                continue;
            }
            let start = k;
            match self.item(&mut k) {
                Ok(Some((attrs, kind))) => {
                    let last = k.saturating_sub(1).max(start);
                    items.push(Item {
                        attrs,
                        kind,
                        span: self.span(start).start..self.span(last).end,
                    });
                }
                Ok(None) => {}
                Err(d) => {
                    self.diags.push(d);
                    k = self.skip_unknown(start);
                }
            }
            if k <= start {
                k = start + 1;
            }
        }
        items
    }

    /// One module-scope declaration starting at `k`.
    fn item(&mut self, k: &mut usize) -> Res<Option<ItemParts>> {
        let n = self.toks.len();
        let attrs = self.attributes(k, n)?;
        if *k >= n {
            // Attributes with nothing after them: naga reports it.
            return Ok(None);
        }
        let kw = if self.is_ident(*k) { self.text(*k) } else { "" };
        let kw_span = self.span(*k);
        let kind = match kw {
            "struct" => {
                *k += 1;
                ItemKind::Struct(self.struct_decl(k)?)
            }
            "alias" => {
                *k += 1;
                let (name, name_span) = self.expect_ident(k, n, "an alias name")?;
                self.expect_punct(k, n, '=', "after the alias name")?;
                let ty = self.type_expr(k, n)?;
                *k = self.skip_statement(*k, n);
                ItemKind::Alias(AliasDecl {
                    name,
                    name_span,
                    ty,
                })
            }
            "type" => {
                *k = self.skip_statement(*k, n);
                return Err(
                    Diagnostic::error("`type` declarations are written `alias` in WGSL")
                        .at(kw_span.clone(), "write `alias` here")
                        .note("the proposal's `type X = ...;` syntax became `alias X = ...;`")
                        .fix(Fix {
                            title: "replace `type` with `alias`".to_string(),
                            edits: vec![Edit {
                                span: kw_span,
                                replacement: "alias".to_string(),
                            }],
                            outcome: "the declaration becomes a type alias".to_string(),
                        }),
                );
            }
            "var" => {
                *k += 1;
                ItemKind::Var(self.var_decl(k)?)
            }
            "const" | "override" => {
                *k += 1;
                let (name, name_span) = self.expect_ident(k, n, "a name")?;
                *k = self.skip_statement(*k, n);
                if kw == "const" {
                    ItemKind::Const { name, name_span }
                } else {
                    ItemKind::Override { name, name_span }
                }
            }
            "fn" => {
                *k += 1;
                let (name, name_span) = self.expect_ident(k, n, "a function name")?;
                self.fn_rest(k)?;
                ItemKind::Fn { name, name_span }
            }
            "enable" | "requires" | "diagnostic" | "const_assert" => {
                *k = self.skip_statement(*k, n);
                ItemKind::Directive
            }
            _ => {
                // Not understood here: naga reports it.
                *k = self.skip_unknown(*k);
                return Ok(None);
            }
        };
        Ok(Some((attrs, kind)))
    }

    /// After `fn name`: the header (parameters, return type) and the body,
    /// skipped by bracket matching. Bracket attribute lists in the header
    /// are collected into `header_attrs`.
    fn fn_rest(&mut self, k: &mut usize) -> Res<()> {
        let n = self.toks.len();
        let mut j = *k;
        while j < n && !self.is_punct(j, '{') {
            if self.is_punct(j, ';') {
                break;
            }
            if self.is_punct(j, '(') {
                let close = self.partner(j);
                let mut p = j + 1;
                while p < close {
                    if self.is_list_open(p) {
                        let mut q = p;
                        let found = self.attributes(&mut q, close)?;
                        self.header_attrs.extend(found);
                        p = q.max(p + 1);
                    } else {
                        p = self.skip_token(p);
                    }
                }
                j = close.max(j) + 1;
            } else if self.is_list_open(j) {
                let mut q = j;
                let found = self.attributes(&mut q, n)?;
                self.header_attrs.extend(found);
                j = q.max(j + 1);
            } else {
                j = self.skip_token(j);
            }
        }
        if !self.is_punct(j, '{') {
            return Err(Diagnostic::error(format!(
                "expected a function body `{{`, {}",
                self.found(j, n)
            ))
            .at(self.span(j), "expected `{`"));
        }
        *k = self.partner(j).max(j) + 1;
        Ok(())
    }

    fn var_decl(&self, k: &mut usize) -> Res<VarDecl> {
        let n = self.toks.len();
        let mut template = Vec::new();
        if self.is_punct(*k, '<') {
            let open = *k;
            let mut j = *k + 1;
            let mut start = j;
            loop {
                if j >= n || self.is_punct(j, ';') || self.is_punct(j, '{') || self.is_punct(j, '=')
                {
                    return Err(Diagnostic::error("unclosed `<` in `var` template list")
                        .at(self.span(open), "this `<` is never closed"));
                }
                if self.is_punct(j, ',') || self.is_punct(j, '>') {
                    if start < j {
                        template.push(self.arg(start, j));
                    }
                    start = j + 1;
                    if self.is_punct(j, '>') {
                        break;
                    }
                }
                j = self.skip_token(j);
            }
            *k = j + 1;
        }
        let (name, name_span) = self.expect_ident(k, n, "a variable name")?;
        let ty = if self.is_punct(*k, ':') {
            *k += 1;
            Some(self.type_expr(k, n)?)
        } else {
            None
        };
        *k = self.skip_statement(*k, n);
        Ok(VarDecl {
            template,
            name,
            name_span,
            ty,
        })
    }

    fn struct_decl(&self, k: &mut usize) -> Res<StructDecl> {
        let n = self.toks.len();
        let (name, name_span) = self.expect_ident(k, n, "a struct name")?;
        if !self.is_punct(*k, '{') {
            return Err(Diagnostic::error(format!(
                "expected `{{` after `struct {name}`, {}",
                self.found(*k, n)
            ))
            .at(self.span(*k), "expected `{`"));
        }
        let open = *k;
        let close = self.partner(open);
        if close == usize::MAX || close <= open {
            return Err(
                Diagnostic::error("unclosed `{`").at(self.span(open), "this is never closed")
            );
        }
        let body_span = self.span(open).start..self.span(close).end;
        let mut members = Vec::new();
        let mut j = open + 1;
        while j < close {
            let m_start = j;
            let attrs = self.attributes(&mut j, close)?;
            let (m_name, m_name_span) = self.expect_ident(&mut j, close, "a member name")?;
            if !(j < close && self.is_punct(j, ':')) {
                return Err(Diagnostic::error(format!(
                    "expected `:` after member name `{m_name}`, {}",
                    self.found(j, close)
                ))
                .at(self.span(j), "expected `:`")
                .also(m_name_span, "member declared here"));
            }
            j += 1;
            let ty = self.type_expr(&mut j, close)?;
            let span = self.span(m_start).start..ty.span.end;
            members.push(Member {
                attrs,
                name: m_name,
                name_span: m_name_span,
                ty,
                span,
            });
            if j < close {
                if self.is_punct(j, ',') || self.is_punct(j, ';') {
                    j += 1;
                } else {
                    return Err(Diagnostic::error(format!(
                        "expected `,` or `}}` after a struct member, {}",
                        self.found(j, close)
                    ))
                    .at(self.span(j), "expected `,`"));
                }
            }
        }
        *k = close + 1;
        Ok(StructDecl {
            name,
            name_span,
            members,
            body_span,
        })
    }

    /// Arguments `a..b` (token indices, `a < b`) as one [`AttrArg`].
    fn arg(&self, a: usize, b: usize) -> AttrArg {
        let span = self.span(a).start..self.span(b - 1).end;
        AttrArg {
            text: Name::new(&self.src[span.clone()]),
            span,
        }
    }

    /// `( ... )` at `k`: its comma-separated arguments.
    fn paren_args(&self, k: &mut usize) -> Vec<AttrArg> {
        let close = self.partner(*k);
        let mut args = Vec::new();
        let mut j = *k + 1;
        let mut start = j;
        while j < close {
            if self.is_punct(j, ',') {
                if start < j {
                    args.push(self.arg(start, j));
                }
                start = j + 1;
                j += 1;
            } else {
                j = self.skip_token(j);
            }
        }
        if start < close.min(j) {
            args.push(self.arg(start, close.min(j)));
        }
        *k = close.max(*k) + 1;
        args
    }

    /// Zero or more attributes, in either syntax, before `end`.
    fn attributes(&self, k: &mut usize, end: usize) -> Res<Vec<Attribute>> {
        let mut attrs = Vec::new();
        loop {
            if *k < end && self.is_punct(*k, '@') {
                let at = *k;
                *k += 1;
                let (name, name_span) = self.expect_ident(k, end, "an attribute name after `@`")?;
                let args = if *k < end && self.is_punct(*k, '(') {
                    self.paren_args(k)
                } else {
                    Vec::new()
                };
                attrs.push(Attribute {
                    name,
                    name_span,
                    args,
                    span: self.span(at).start..self.span(*k - 1).end,
                    bracket: None,
                });
            } else if *k + 1 < end && self.is_list_open(*k) {
                let outer = self.partner(*k);
                let inner = self.partner(*k + 1);
                if outer == usize::MAX
                    || inner == usize::MAX
                    || inner + 1 != outer
                    || self.span(inner).end != self.span(outer).start
                {
                    return Err(
                        Diagnostic::error("attribute list `[[` must be closed by `]]`").at(
                            self.span(*k).start..self.span(*k + 1).end,
                            "this list is not closed by `]]`",
                        ),
                    );
                }
                let list = self.span(*k).start..self.span(outer).end;
                if inner == *k + 2 {
                    return Err(Diagnostic::error("empty attribute list `[[]]`")
                        .at(list, "delete this empty list"));
                }
                let mut j = *k + 2;
                while j < inner {
                    let (name, name_span) =
                        self.expect_ident(&mut j, inner, "an attribute name")?;
                    let args = if j < inner && self.is_punct(j, '(') {
                        self.paren_args(&mut j)
                    } else {
                        Vec::new()
                    };
                    attrs.push(Attribute {
                        name,
                        span: name_span.start..self.span(j - 1).end,
                        name_span,
                        args,
                        bracket: Some(list.clone()),
                    });
                    if j < inner {
                        self.expect_punct(&mut j, inner, ',', "between attributes")?;
                    }
                }
                *k = outer + 1;
            } else {
                return Ok(attrs);
            }
        }
    }

    /// A type, with attributes in front, ending before `end`.
    fn type_expr(&self, k: &mut usize, end: usize) -> Res<TypeExpr> {
        let attrs = self.attributes(k, end)?;
        let (name, name_span) = self.expect_ident(k, end, "a type")?;
        let args = if *k < end && self.is_punct(*k, '<') {
            self.template_args(k, end, &name)?
        } else {
            Vec::new()
        };
        let span = name_span.start..self.span(*k - 1).end;
        Ok(TypeExpr {
            attrs,
            name,
            name_span,
            args,
            span,
        })
    }

    /// `< ... >` at `k` after type `name`.
    fn template_args(&self, k: &mut usize, end: usize, name: &str) -> Res<Vec<TemplateArg>> {
        let open = *k;
        let mut j = open + 1;
        let mut depth = 0usize;
        let mut start = j;
        let mut args = Vec::new();
        // Arguments are read as their ranges are found; reading one reports
        // nothing, so an unclosed `<` found later still gives only its error.
        loop {
            if j >= end || self.is_punct(j, ';') || self.is_punct(j, '{') || self.is_punct(j, '}') {
                return Err(Diagnostic::error(format!("unclosed `<` after `{name}`"))
                    .at(self.span(open), "this `<` is never closed")
                    .also(self.span(j), "expected `>` before this"));
            }
            if self.is_punct(j, '<') && self.is_ident(j - 1) {
                depth += 1;
                if depth >= MAX_TYPE_ARGUMENT_NESTING {
                    return Err(Diagnostic::error(format!(
                        "type arguments nest too deeply: more than {MAX_TYPE_ARGUMENT_NESTING} levels"
                    ))
                    .at(self.span(j), "nested too deeply"));
                }
            } else if self.is_punct(j, '>') {
                if depth == 0 {
                    self.template_arg(start, j, name, &mut args);
                    break;
                }
                depth -= 1;
            } else if depth == 0 && self.is_punct(j, ',') {
                self.template_arg(start, j, name, &mut args);
                start = j + 1;
            }
            j = self.skip_token(j);
        }
        *k = j + 1;
        Ok(args)
    }

    /// The template argument of tokens `a..b` of type `name`, appended to
    /// `args` unless empty.
    fn template_arg(&self, a: usize, b: usize, name: &str, args: &mut Vec<TemplateArg>) {
        if a >= b {
            return;
        }
        let pos = args.len();
        let typed = match name {
            "array" | "binding_array" => pos == 0,
            "ptr" => pos == 1,
            n if n.starts_with("texture_storage") => false,
            _ => true,
        };
        let ty = if typed {
            let mut p = a;
            match self.type_expr(&mut p, b) {
                Ok(t) if p == b => Some(t),
                _ => None,
            }
        } else {
            None
        };
        let arg = self.arg(a, b);
        args.push(TemplateArg {
            text: arg.text,
            span: arg.span,
            ty,
        });
    }
}

/// A token of [`lex`]: an identifier, a number or one punctuation
/// character, with its byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LexKind {
    Ident,
    Number,
    Punct(char),
}

/// The tokens of `src[range]`, comments skipped. For function bodies and
/// other text the module scan skips; `range` must hold whole comments
/// (as every item span does).
pub(crate) fn lex(src: &str, range: Span) -> Vec<(LexKind, Span)> {
    let b = src.as_bytes();
    let end = range.end.min(b.len());
    let mut out = Vec::new();
    let mut i = range.start;
    while i < end {
        let byte = b[i];
        let class = CLASS[usize::from(byte)];
        if class == C_BLANK {
            i += 1;
        } else if class == C_IDENT {
            let start = i;
            i = ident_end(src, i + 1).min(end);
            out.push((LexKind::Ident, start..i));
        } else if class == C_DIGIT
            || (class == C_DOT && b.get(i + 1).is_some_and(|n| n.is_ascii_digit()))
        {
            let start = i;
            i = number_end(b, i).min(end);
            out.push((LexKind::Number, start..i));
        } else if byte == b'/' && b.get(i + 1) == Some(&b'/') {
            i = skip_line_comment(src, i);
        } else if byte == b'/' && b.get(i + 1) == Some(&b'*') {
            i = skip_block_comment(src, i).unwrap_or(end);
        } else if byte >= 0x80 {
            let Some(c) = src.get(i..).and_then(|s| s.chars().next()) else {
                break;
            };
            let len = c.len_utf8();
            if is_blank(c) {
                i += len;
            } else if is_ident_start(c) {
                let start = i;
                i = ident_end(src, i + len).min(end);
                out.push((LexKind::Ident, start..i));
            } else {
                out.push((LexKind::Punct(c), i..i + len));
                i += len;
            }
        } else {
            out.push((LexKind::Punct(char::from(byte)), i..i + 1));
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(src: &'a str, span: &Span) -> &'a str {
        &src[span.clone()]
    }

    fn only_struct(m: &ScannedModule) -> &StructDecl {
        match m.items.iter().find_map(|i| match &i.kind {
            ItemKind::Struct(s) => Some(s),
            _ => None,
        }) {
            Some(s) => s,
            None => panic!("no struct in {m:?}"),
        }
    }

    fn scan_ok(src: &str) -> ScannedModule {
        match scan(src) {
            Ok(m) => m,
            Err(e) => panic!("scan failed: {e}"),
        }
    }

    fn scan_err(src: &str) -> Diagnostic {
        match scan(src) {
            Ok(m) => panic!("expected an error, got {m:?}"),
            Err(e) => {
                e.0.into_iter()
                    .next()
                    .unwrap_or_else(|| panic!("empty diagnostics"))
            }
        }
    }

    #[test]
    fn struct_member_type_and_attribute_spans_are_exact() {
        let src = "/* lead */ @align(16) struct S {\n  @size(8) a : f32,\n  [[align(32)]] b: vec3<f32>;\n}\n";
        let m = scan_ok(src);
        assert_eq!(m.items.len(), 1);
        let item = &m.items[0];
        assert_eq!(at(src, &item.span), &src[11..src.len() - 1]);
        assert_eq!(at(src, &item.attrs[0].span), "@align(16)");
        assert_eq!(at(src, &item.attrs[0].name_span), "align");
        assert_eq!(at(src, &item.attrs[0].args[0].span), "16");
        let s = only_struct(&m);
        assert_eq!(at(src, &s.name_span), "S");
        assert!(at(src, &s.body_span).starts_with('{') && at(src, &s.body_span).ends_with('}'));
        let a = &s.members[0];
        assert_eq!(at(src, &a.span), "@size(8) a : f32");
        assert_eq!(at(src, &a.name_span), "a");
        assert_eq!(at(src, &a.ty.span), "f32");
        assert_eq!(at(src, &a.attrs[0].span), "@size(8)");
        let b = &s.members[1];
        assert_eq!(at(src, &b.span), "[[align(32)]] b: vec3<f32>");
        assert_eq!(at(src, &b.attrs[0].span), "align(32)");
        assert_eq!(
            b.attrs[0].bracket.as_ref().map(|l| at(src, l)),
            Some("[[align(32)]]")
        );
        assert_eq!(at(src, &b.ty.span), "vec3<f32>");
        assert_eq!(
            b.ty.args[0].ty.as_ref().map(|t| t.name.as_str()),
            Some("f32")
        );
    }

    #[test]
    fn nested_generics_and_expression_template_args() {
        let src = "struct T { a: array<array<vec4<f32>, 2>, 3>, b: array<f32, N * 2>, c: @stride(32) array<A, 3> }";
        let m = scan_ok(src);
        let s = only_struct(&m);
        let a = &s.members[0].ty;
        assert_eq!(at(src, &a.span), "array<array<vec4<f32>, 2>, 3>");
        assert_eq!(a.args.len(), 2);
        assert_eq!(at(src, &a.args[0].span), "array<vec4<f32>, 2>");
        let inner = a.args[0]
            .ty
            .as_ref()
            .map(|t| (t.name.as_str(), t.args.len()));
        assert_eq!(inner, Some(("array", 2)));
        assert_eq!(a.args[1].text, "3");
        assert_eq!(a.args[1].ty, None);
        let b = &s.members[1].ty;
        assert_eq!(b.args[1].text, "N * 2");
        assert_eq!(b.args[1].ty, None);
        let c = &s.members[2].ty;
        assert_eq!(at(src, &c.attrs[0].span), "@stride(32)");
        assert_eq!(at(src, &c.span), "array<A, 3>");
        assert_eq!(at(src, &s.members[2].span), "c: @stride(32) array<A, 3>");
    }

    #[test]
    fn comments_are_skipped_everywhere() {
        let src = "// struct X { }\n/* outer /* nested } */ { */\nstruct S { // a: f32\n a /* : */ : /* x */ f32, }\n\
                   fn f() { /* } */ let x = 1; // }\n }\nvar<private> v: i32;";
        let m = scan_ok(src);
        assert_eq!(m.items.len(), 3);
        let s = only_struct(&m);
        assert_eq!(s.members.len(), 1);
        assert_eq!(at(src, &s.members[0].ty.span), "f32");
        assert!(matches!(&m.items[1].kind, ItemKind::Fn { name, .. } if name == "f"));
        match &m.items[2].kind {
            ItemKind::Var(v) => {
                assert_eq!(v.template[0].text, "private");
                assert_eq!(v.name, "v");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn items_of_every_kind() {
        let src = "enable f16;\nrequires readonly_and_readwrite_storage_textures;\ndiagnostic(off, derivative_uniformity);\n\
                   const N = 4u;\noverride K: f32 = 1.0;\nconst_assert N > 1;\nalias V = vec3<f16>;\n\
                   @group(0) @binding(1) var<storage, read_write> buf: array<u32>;\n\
                   @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) { buf[id.x] = N; }\n";
        let m = scan_ok(src);
        let kinds: Vec<&str> = m
            .items
            .iter()
            .map(|i| match &i.kind {
                ItemKind::Struct(_) => "struct",
                ItemKind::Alias(_) => "alias",
                ItemKind::Var(_) => "var",
                ItemKind::Const { .. } => "const",
                ItemKind::Override { .. } => "override",
                ItemKind::Fn { .. } => "fn",
                ItemKind::Directive => "directive",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "directive",
                "directive",
                "directive",
                "const",
                "override",
                "directive",
                "alias",
                "var",
                "fn"
            ]
        );
        let var = &m.items[7];
        assert_eq!(
            at(src, &var.span),
            "@group(0) @binding(1) var<storage, read_write> buf: array<u32>;"
        );
        match &var.kind {
            ItemKind::Var(v) => {
                let t: Vec<&str> = v.template.iter().map(|a| a.text.as_str()).collect();
                assert_eq!(t, ["storage", "read_write"]);
                assert_eq!(v.ty.as_ref().map(|t| at(src, &t.span)), Some("array<u32>"));
            }
            other => panic!("{other:?}"),
        }
        assert!(at(src, &m.items[8].span).ends_with("= N; }"));
    }

    #[test]
    fn bracket_lists_in_items_and_headers() {
        let src = "[[group(0), binding(0)]] var<uniform> u: U;\n\
                   [[stage(fragment)]] fn main([[location(0)]] c: vec4<f32>) -> [[location(0)]] vec4<f32> { return c; }";
        let m = scan_ok(src);
        let attrs = &m.items[0].attrs;
        assert_eq!(attrs.len(), 2);
        assert_eq!(at(src, &attrs[1].span), "binding(0)");
        assert_eq!(attrs[0].bracket, attrs[1].bracket);
        assert_eq!(
            attrs[0].bracket.as_ref().map(|l| at(src, l)),
            Some("[[group(0), binding(0)]]")
        );
        assert_eq!(m.header_attrs.len(), 2);
        assert_eq!(at(src, &m.header_attrs[0].span), "location(0)");
    }

    #[test]
    fn unterminated_comment_is_an_error() {
        let src = "struct S { a: f32 }\n/* open /* nested */ still open";
        let d = scan_err(src);
        assert!(d.message.contains("unterminated"));
        assert_eq!(d.primary_span(), Some(20..22));
    }

    #[test]
    fn unbalanced_braces_are_errors() {
        let src = "fn f() { if true { }\n";
        let d = scan_err(src);
        assert_eq!(d.primary_span().map(|s| at(src, &s)), Some("{"));
        assert_eq!(d.primary_span(), Some(7..8));
        let src = "struct S { a: f32 } }";
        let d = scan_err(src);
        assert_eq!(d.primary_span(), Some(20..21));
        let src = "fn f() { g(1]; }";
        let d = scan_err(src);
        assert!(d.message.contains("mismatched"));
        assert_eq!(d.primary_span(), Some(12..13));
    }

    #[test]
    fn unclosed_angle_bracket_is_an_error() {
        let src = "struct S { a: array<f32, 4 }";
        let d = scan_err(src);
        assert_eq!(d.primary_span().map(|s| at(src, &s)), Some("<"));
    }

    #[test]
    fn missing_colon_is_an_error_at_the_token() {
        let src = "struct S {\n  a f32,\n}";
        let d = scan_err(src);
        assert!(d.message.contains("expected `:`"), "{}", d.message);
        assert_eq!(d.primary_span().map(|s| at(src, &s)), Some("f32"));
    }

    #[test]
    fn old_type_alias_syntax_suggests_alias() {
        let src = "[[size(16)]]\ntype RGBX = vec3<f32>;";
        let d = scan_err(src);
        assert_eq!(d.primary_span().map(|s| at(src, &s)), Some("type"));
        let fixed = d.fixes[0].apply(src);
        assert_eq!(fixed, "[[size(16)]]\nalias RGBX = vec3<f32>;");
    }

    #[test]
    fn unclosed_bracket_list_is_an_error() {
        let src = "[[group(0)] ] var<uniform> u: f32;";
        let d = scan_err(src);
        assert!(d.message.contains("]]"));
        assert_eq!(d.primary_span(), Some(0..2));
    }

    #[test]
    fn empty_bracket_list_is_an_error() {
        let src = "struct S { [[ ]] x: f32 }";
        let d = scan_err(src);
        assert_eq!(d.primary_span().map(|s| at(src, &s)), Some("[[ ]]"));
    }

    #[test]
    fn garbage_never_panics() {
        for src in [
            "",
            "@",
            "[[",
            "]]",
            "struct",
            "struct S",
            "struct S {",
            "struct S { a: }",
            "var",
            "var<",
            "alias = ;",
            "fn",
            "fn f(",
            "@align(",
            "struct S { @ a: f32 }",
            "array<",
            "\u{2028}é struct é { é: f32 }",
            "1.5e+3",
            "0x1p-3",
            "/*/",
            "/",
            "fn f() -> array<f32, 2> {}",
            ";;;",
            "[[a,]] struct S { x: i32 }",
        ] {
            let _ = scan(src);
        }
    }

    #[test]
    fn code_chars_skip_comments() {
        let src = "a /* ; */ ; // ;\n ;";
        let semis: Vec<usize> = code_chars(src, 0..src.len())
            .into_iter()
            .filter(|&(_, c)| c == ';')
            .map(|(i, _)| i)
            .collect();
        assert_eq!(semis, [10, 18]);
    }

    #[test]
    fn parse_reports_the_full_scan_error_for_brackets_in_bodies() {
        // The quick scan front::parse starts with does not match `(` and
        // `[` in function bodies; the error must still be the scan's.
        for src in [
            "fn f() { let x = (1]; }\n",
            "fn f() { let x = (1; }\n@align(3) struct S { a: f32 }\n",
            "fn f() { let x = a[1); }\nfn g() { /* open\n",
            "struct S { a: f32 }\nfn f() -> f32 { return (1.0; }\n}\n",
        ] {
            let full = match scan(src) {
                Ok(_) => panic!("the full scan accepted {src:?}"),
                Err(d) => d,
            };
            match crate::front::parse(src) {
                Ok(_) => panic!("parse accepted {src:?}"),
                Err(d) => assert_eq!(format!("{d:?}"), format!("{full:?}"), "{src:?}"),
            }
        }
    }
}
