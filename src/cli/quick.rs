//! The call a build system makes once per shader, `stride [-t T[,T...]]
//! INPUT... [-o PATH] [--depfile FILE] [--manifest FILE] [--root DIR]`
//! (the make and ninja recipes of the README), read without building
//! clap's command.
//!
//! Building clap's `Command` (every argument, its help and value parser) and
//! filling in the defaults costs about 0.14M instructions, about 5% of a
//! whole process that translates one small file. That is the part of
//! start-up that one call per file pays again and again, so these plain
//! calls are read here. Anything else (another flag, `--target=X`, `-`,
//! `--`, a value that starts with `-`, an unknown target, a repeated `-o`
//! or other path option, text that is not UTF-8) goes to clap, which gives the same [`Cli`] for
//! everything read here (the tests compare the two) and the help, errors
//! and suggestions for everything else.

use crate::{Cli, ColorArg, TargetArg, UniformArg, DEFAULT_LINE_DIRECTIVES, DEFAULT_SPIRV_VERSION};
use clap::ValueEnum;
use std::ffi::OsString;
use std::path::PathBuf;

/// The arguments (after the program name) as clap would read them, or
/// `None` when they are not a plain call and clap must read them.
pub fn plain_call(args: &[OsString]) -> Option<Cli> {
    let mut inputs = Vec::new();
    let mut target = Vec::new();
    let mut output = None;
    let mut depfile = None;
    let mut manifest = None;
    let mut root = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let arg = arg.to_str()?;
        match arg {
            "-t" | "--target" => {
                for name in value(args.next())?.split(',') {
                    target.push(TargetArg::from_str(name, false).ok()?);
                }
            }
            "-o" | "--output" => once(&mut output, args.next())?,
            "--depfile" => once(&mut depfile, args.next())?,
            "--manifest" => once(&mut manifest, args.next())?,
            "--root" => once(&mut root, args.next())?,
            _ if arg.is_empty() || arg.starts_with('-') => return None,
            _ => inputs.push(arg.to_string()),
        }
    }
    if inputs.is_empty() {
        return None;
    }
    if target.is_empty() {
        target.push(TargetArg::Spirv);
    }
    Some(Cli {
        inputs,
        target,
        output,
        root,
        depfile,
        manifest,
        force_write: false,
        check: false,
        watch: false,
        color: ColorArg::Auto,
        rules: Vec::new(),
        spirv_version: crate::parse_spirv_version(DEFAULT_SPIRV_VERSION).ok()?,
        glsl: None,
        line_directives: crate::parse_line_directives(DEFAULT_LINE_DIRECTIVES).ok()?,
        entry_point: None,
        shader_model: None,
        registers: None,
        strip_names: false,
        overrides: Vec::new(),
        uniform_layout: UniformArg::Wgsl,
        rust_derive: None,
    })
}

/// A path option's value, which may be given once.
fn once(slot: &mut Option<PathBuf>, arg: Option<&OsString>) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(PathBuf::from(value(arg)?));
    Some(())
}

/// An option's value: present, UTF-8, not empty and not starting with `-`.
fn value(arg: Option<&OsString>) -> Option<&str> {
    arg?.to_str()
        .filter(|v| !v.is_empty() && !v.starts_with('-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    /// What clap makes of `args`, or `None` where it refuses them.
    fn by_clap(args: &[&str]) -> Option<String> {
        let mut all = vec!["stride"];
        all.extend_from_slice(args);
        Cli::try_parse_from(all).ok().map(|cli| format!("{cli:?}"))
    }

    #[test]
    fn plain_calls_read_as_clap_reads_them() {
        let calls: &[&[&str]] = &[
            &["a.wgsl"],
            &["a.wgsl", "b.wgsl"],
            &["-t", "spirv", "a.wgsl", "-o", "a.spv"],
            &["--target", "hlsl", "a.wgsl", "--output", "out"],
            &["a.wgsl", "-o", "a.spv", "-t", "glsl"],
            &["-t", "spirv,hlsl,glsl", "dir", "-o", "out/"],
            &["-t", "spirv", "-t", "hlsl,spirv", "a.wgsl"],
            &[
                "-t",
                "c,rust,layout,reflect,slang",
                "a.wgsl",
                "b.wgsl",
                "-o",
                "o",
            ],
            &["-o", "x", "a b.wgsl"],
            &[
                "-t",
                "spirv",
                "a.wgsl",
                "-o",
                "a.spv",
                "--depfile",
                "a.spv.d",
            ],
            &[
                "shaders",
                "-o",
                "out",
                "--manifest",
                "m.json",
                "--root",
                "shaders",
            ],
            &["--depfile", "d", "--manifest", "m", "--root", "r", "x.wgsl"],
        ];
        for &call in calls {
            let quick = plain_call(&os(call)).map(|cli| format!("{cli:?}"));
            assert!(quick.is_some(), "not read as a plain call: {call:?}");
            assert_eq!(quick, by_clap(call), "{call:?}");
        }
    }

    #[test]
    fn everything_else_goes_to_clap() {
        let calls: &[&[&str]] = &[
            &[],
            &["-t", "spirv"],
            &["-"],
            &["--", "a.wgsl"],
            &["--help"],
            &["-h"],
            &["--version"],
            &["a.wgsl", "--check"],
            &["a.wgsl", "--color", "never"],
            &["--target=hlsl", "a.wgsl"],
            &["-thlsl", "a.wgsl"],
            &["-t", "SPIRV", "a.wgsl"],
            &["-t", "spirv,", "a.wgsl"],
            &["-t", "metal", "a.wgsl"],
            &["-t"],
            &["a.wgsl", "-o"],
            &["a.wgsl", "-o", "-"],
            &["a.wgsl", "-o", "x", "-o", "y"],
            &["a.wgsl", "-o", ""],
            &[""],
            &["a.wgsl", "--glsl", "gl450"],
            &["a.wgsl", "-e", "main"],
            &["a.wgsl", "--depfile"],
            &["a.wgsl", "--depfile", "a", "--depfile", "b"],
            &["a.wgsl", "--manifest", "-"],
            &["a.wgsl", "--root", "r", "--root", "s"],
            &["a.wgsl", "--depfile=a.d"],
        ];
        for &call in calls {
            assert!(plain_call(&os(call)).is_none(), "{call:?}");
        }
    }

    /// A few of the calls left to clap, to show that the line is drawn
    /// where clap's reading would differ (or fail).
    #[test]
    fn calls_left_to_clap_are_ones_it_reads_differently_or_refuses() {
        assert_eq!(by_clap(&["-t", "spirv,", "a.wgsl"]), None);
        assert_eq!(by_clap(&["a.wgsl", "-o", "x", "-o", "y"]), None);
        assert_eq!(
            by_clap(&["a.wgsl", "--depfile", "a", "--depfile", "b"]),
            None
        );
        assert_eq!(by_clap(&["-t", "metal", "a.wgsl"]), None);
        assert!(by_clap(&["--target=hlsl", "a.wgsl"]).is_some());
    }

    #[cfg(unix)]
    #[test]
    fn arguments_that_are_not_utf8_go_to_clap() {
        use std::os::unix::ffi::OsStringExt;
        let args = vec![OsString::from_vec(vec![b'a', 0xff])];
        assert!(plain_call(&args).is_none());
    }
}
