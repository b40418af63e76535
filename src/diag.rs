//! Diagnostics: every failure stride reports is a [`Diagnostic`] with a source
//! span, rendered by codespan-reporting with the input's file name.

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use std::fmt;
use std::ops::Range;

/// An error and its `source()` chain, joined by `: `.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// A byte range in the original source text.
pub type Span = Range<usize>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Note,
    Warning,
    Error,
}

/// A labelled span. The first primary label is where the diagnostic points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

/// One text edit of the original source: replace `span` by `replacement`
/// (an empty span inserts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

/// A fix computed for this source: edits that, applied together, remove the
/// error, and a sentence saying what the layout becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<Edit>,
    /// The offsets/sizes that result, e.g. "e moves to offset 48; B becomes 208 bytes".
    pub outcome: String,
}

impl Fix {
    /// Apply the edits to `source` (edits must not overlap).
    pub fn apply(&self, source: &str) -> String {
        let mut edits: Vec<&Edit> = self.edits.iter().collect();
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        let mut out = String::with_capacity(source.len() + 64);
        let mut at = 0;
        for e in edits {
            let start = e.span.start.clamp(at, source.len());
            out.push_str(&source[at..start]);
            out.push_str(&e.replacement);
            at = e.span.end.clamp(start, source.len());
        }
        out.push_str(&source[at..]);
        out
    }
}

/// What a diagnostic is about: data for code that decides on a diagnostic
/// (a test sorting failures, a writer adding its note), never printed, so
/// that nothing needs to read the message text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiagnosticKind {
    /// The source: an error in it, or a warning about it.
    #[default]
    Source,
    /// A valid source whose buffer layout this target cannot express (the
    /// SPIR-V target writes it).
    Inexpressible,
    /// A valid source that this target, or naga's writer for it, does not
    /// support.
    Unsupported,
    /// A failure inside stride or naga: a caught panic or a failed
    /// self-check. Always a bug to report.
    Internal,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub kind: DiagnosticKind,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    fn new(severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            kind: DiagnosticKind::Source,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            fixes: Vec::new(),
        }
    }
    pub fn error(message: impl Into<String>) -> Self {
        Self::new(Severity::Error, message)
    }
    pub fn warning(message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, message)
    }
    /// An error about a layout this target cannot express.
    pub fn inexpressible(message: impl Into<String>) -> Self {
        Self::error(message).with_kind(DiagnosticKind::Inexpressible)
    }
    /// An error about something this target does not support.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::error(message).with_kind(DiagnosticKind::Unsupported)
    }
    /// An internal error: a bug in stride or naga.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::error(message).with_kind(DiagnosticKind::Internal)
    }
    pub fn with_kind(mut self, kind: DiagnosticKind) -> Self {
        self.kind = kind;
        self
    }
    /// Primary label.
    pub fn at(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: true,
        });
        self
    }
    /// Secondary label.
    pub fn also(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    pub fn is_internal(&self) -> bool {
        self.kind == DiagnosticKind::Internal
    }
    /// The span of the first primary label, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels
            .iter()
            .find(|l| l.primary)
            .map(|l| l.span.clone())
    }
}

/// An ordered list of diagnostics (errors and warnings).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn new() -> Self {
        Self(Vec::new())
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
    /// Render all diagnostics as text, as a terminal would show them.
    pub fn render(&self, file_name: &str, source: &str, color: bool) -> String {
        if self.0.is_empty() {
            // Nothing to say: skip indexing the source's lines.
            return String::new();
        }
        let file = SimpleFile::new(file_name, source);
        let config = term::Config::default();
        let mut buf: Vec<u8> = Vec::new();
        for d in &self.0 {
            let mut d = to_codespan(d, source.len());
            if d.labels.is_empty() {
                // Nothing points into the file: name it in the message.
                d.message = format!("{file_name}: {}", d.message);
            }
            if color {
                let styles = term::Styles::default();
                let mut w = term::StylesWriter::new(term::termcolor::Ansi::new(&mut buf), &styles);
                let _ = term::emit_to_write_style(&mut w, &config, &file, &d);
            } else {
                let _ = term::emit_to_io_write(&mut buf, &config, &file, &d);
            }
        }
        String::from_utf8_lossy(&buf).into_owned()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{:?}: {}", d.severity, d.message)?;
        }
        Ok(())
    }
}

fn to_codespan(d: &Diagnostic, len: usize) -> cs::Diagnostic<()> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let clamp = |s: &Span| s.start.min(len)..s.end.min(len).max(s.start.min(len));
    let labels = d
        .labels
        .iter()
        .map(|l| {
            let style = if l.primary {
                cs::LabelStyle::Primary
            } else {
                cs::LabelStyle::Secondary
            };
            cs::Label::new(style, (), clamp(&l.span)).with_message(l.message.clone())
        })
        .collect();
    let mut notes = d.notes.clone();
    for (i, fix) in d.fixes.iter().enumerate() {
        let mut text = format!("fix {}: {}", i + 1, fix.title);
        if !fix.outcome.is_empty() {
            text.push_str(&format!("\n  result: {}", fix.outcome));
        }
        notes.push(text);
    }
    cs::Diagnostic::new(severity)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_is_data_not_text() {
        let source = "var<private> x: f32;";
        let render =
            |d: Diagnostic| Diagnostics::from(d.at(0..3, "here")).render("a.wgsl", source, false);
        let plain = render(Diagnostic::error("no"));
        for d in [
            Diagnostic::inexpressible("no"),
            Diagnostic::unsupported("no"),
            Diagnostic::internal("no"),
        ] {
            assert!(d.is_error());
            assert_ne!(d.kind, DiagnosticKind::Source);
            assert_eq!(render(d), plain);
        }
        assert!(Diagnostic::internal("no").is_internal());
        assert!(!Diagnostic::error("no").is_internal());
    }
}
