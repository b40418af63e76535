//! The inputs of one call: files, directories searched for `*.wgsl`, and
//! standard input; and where each one's outputs go in an output tree.

use super::Fatal;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

#[derive(PartialEq)]
pub struct Input {
    /// As given on the command line, or found under a directory argument
    /// (`<stdin>` for `-`).
    pub name: String,
    /// The file read; `None` for standard input.
    pub path: Option<PathBuf>,
    /// File stem used for output names.
    pub stem: String,
    /// The folder this input's outputs mirror from: the directory argument
    /// it was found under, else the folder holding it (`None` for stdin).
    pub base: Option<PathBuf>,
    pub source: String,
}

/// The inputs in command-line order, a directory argument expanded to its
/// `*.wgsl` files in sorted path order. `any_directory` tells whether a
/// directory argument was given.
pub fn read_inputs(names: &[String]) -> Result<(Vec<Input>, bool), Fatal> {
    let mut inputs = Vec::with_capacity(names.len());
    let mut stdin_used = false;
    let mut any_directory = false;
    for name in names {
        if name == "-" {
            if stdin_used {
                return Err(Fatal("`-` (standard input) can be given only once".into()));
            }
            stdin_used = true;
            let mut source = String::new();
            std::io::stdin()
                .read_to_string(&mut source)
                .map_err(|e| Fatal(format!("cannot read standard input: {e}")))?;
            inputs.push(Input {
                name: "<stdin>".into(),
                path: None,
                stem: "stdin".into(),
                base: None,
                source,
            });
            continue;
        }
        let path = Path::new(name);
        if path.is_dir() {
            any_directory = true;
            let mut found = Vec::new();
            find_wgsl(path, &mut found)?;
            if found.is_empty() {
                return Err(Fatal(format!("no *.wgsl file under `{name}`")));
            }
            found.sort();
            for file in found {
                let display = file.to_string_lossy().into_owned();
                inputs.push(read_file(&file, display, path.to_path_buf())?);
            }
        } else {
            let base = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            inputs.push(read_file(path, name.clone(), base)?);
        }
    }
    Ok((inputs, any_directory))
}

fn read_file(path: &Path, name: String, base: PathBuf) -> Result<Input, Fatal> {
    let bytes = std::fs::read(path).map_err(|e| Fatal(format!("cannot read `{name}`: {e}")))?;
    let source =
        String::from_utf8(bytes).map_err(|e| Fatal(format!("`{name}` is not UTF-8 text: {e}")))?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    Ok(Input {
        name,
        path: Some(path.to_path_buf()),
        stem,
        base: Some(base),
        source,
    })
}

/// Every `*.wgsl` file below `dir`. Symbolic links to files count; links to
/// folders are not followed (no cycles).
fn find_wgsl(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), Fatal> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Fatal(format!("cannot read directory `{}`: {e}", dir.display())))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| Fatal(format!("cannot read directory `{}`: {e}", dir.display())))?;
        let path = entry.path();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir {
            find_wgsl(&path, found)?;
        } else if path.extension().is_some_and(|e| e == "wgsl") && path.is_file() {
            found.push(path);
        }
    }
    Ok(())
}

/// For each input, the folder of its outputs relative to the output
/// directory: its folder relative to `root` when given, else relative to
/// the inputs' common root. Standard input goes to the top.
pub fn mirrored_dirs(inputs: &[Input], root: Option<&Path>) -> Result<Vec<PathBuf>, Fatal> {
    let cwd = std::env::current_dir()
        .map_err(|e| Fatal(format!("cannot read the current directory: {e}")))?;
    let absolute = |p: &Path| normalized(&cwd.join(p));
    let parents: Vec<Option<PathBuf>> = inputs
        .iter()
        .map(|input| {
            let parent = input.path.as_deref()?.parent()?;
            Some(absolute(parent))
        })
        .collect();
    let root = match root {
        Some(r) => absolute(r),
        None => {
            let mut common: Option<PathBuf> = None;
            for base in inputs.iter().filter_map(|i| i.base.as_deref()) {
                let base = absolute(base);
                common = Some(match common {
                    None => base,
                    Some(c) => common_prefix(&c, &base),
                });
            }
            match common {
                Some(c) => c,
                None => return Ok(inputs.iter().map(|_| PathBuf::new()).collect()),
            }
        }
    };
    inputs
        .iter()
        .zip(parents)
        .map(|(input, parent)| match parent {
            None => Ok(PathBuf::new()),
            Some(parent) => parent
                .strip_prefix(&root)
                .map(Path::to_path_buf)
                .map_err(|_| {
                    Fatal(format!(
                        "`{}` is not under the root `{}`",
                        input.name,
                        root.display()
                    ))
                }),
        })
        .collect()
}

/// `path` without `.` and with `..` applied to the part before it, by the
/// letters only (no symbolic links resolved).
pub fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn common_prefix(a: &Path, b: &Path) -> PathBuf {
    a.components()
        .zip(b.components())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalized_by_the_letters() {
        assert_eq!(normalized(Path::new("/a/./b/../c")), Path::new("/a/c"));
        assert_eq!(
            common_prefix(Path::new("/s/a/x"), Path::new("/s/b")),
            Path::new("/s")
        );
    }
}
