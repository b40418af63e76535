//! Expressions (owned by the function part).
