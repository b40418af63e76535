//! Words a GLSL identifier must not be: keywords, reserved words, builtin
//! variables and functions, and the prefixes reserved by GLSL.
//! (Owned by the module part.)
