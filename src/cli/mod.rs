//! The parts of the command line beyond argument parsing: inputs and
//! output trees, writing files, the depfile and manifest, and `--watch`.

pub mod files;
pub mod inputs;
pub mod quick;
pub mod report;
pub mod watch;

/// A usage or IO error: exit status 2.
pub struct Fatal(pub String);
