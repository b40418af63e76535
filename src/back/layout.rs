//! `--target layout`: the annotated listing of spec/000 for every struct used
//! in a buffer, optionally with other rule sets beside the contract.

use crate::front::Parsed;
use crate::layout::LayoutModule;

/// `contract` is the `wgsl` layout; `others` are extra rule sets to show
/// beside it, marking where they differ.
pub fn write(parsed: &Parsed, contract: &LayoutModule, others: &[LayoutModule]) -> String {
    let _ = (parsed, contract, others);
    String::new()
}
