//! The parts of the command line beyond argument parsing: inputs and
//! output trees, writing files, and the depfile and manifest.

pub mod files;
pub mod inputs;
pub mod report;

/// A usage or IO error: exit status 2.
pub struct Fatal(pub String);
