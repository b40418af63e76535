//! Writing output files: whole or not at all, and not at all when the
//! bytes on disk are already the same (so that their mtime stays).

use super::Fatal;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Write `bytes` to `path` through a temporary file in the same folder,
/// then rename, so that readers never see a partial file. Unless `force`,
/// a file that already holds exactly `bytes` is left alone, mtime and all.
/// Missing folders are created.
pub fn write_output(path: &Path, bytes: &[u8], force: bool) -> Result<(), Fatal> {
    if !force && holds(path, bytes) {
        return Ok(());
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        std::fs::create_dir_all(&dir)
            .map_err(|e| Fatal(format!("cannot create directory `{}`: {e}", dir.display())))?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    // No fsync: the rename already keeps readers from a partial file, and
    // a build output lost in a system crash is rebuilt by the next build
    // (as compilers do, none of which syncs its outputs). A sync per file
    // cost more than translating a small shader.
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Fatal(format!("cannot write `{}`: {e}", path.display()))
    })
}

/// Whether the file at `path` holds exactly `bytes`.
fn holds(path: &Path, bytes: &[u8]) -> bool {
    let same_size =
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64);
    same_size && std::fs::read(path).is_ok_and(|old| old == bytes)
}

/// A failed translation leaves no stale output from an earlier run behind.
pub fn remove_stale(path: &Path) -> Result<(), Fatal> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Fatal(format!(
            "cannot remove stale output `{}`: {e}",
            path.display()
        ))),
    }
}

/// After a failed GLSL translation: remove `<stem>.<entry>.<stage>` files an
/// earlier run left in `dir`.
pub fn remove_stale_entry_files(dir: &Path, stem: &str) -> Result<(), Fatal> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(stem).and_then(|r| r.strip_prefix('.')) else {
            continue;
        };
        let Some((entry_name, stage)) = rest.split_once('.') else {
            continue;
        };
        let is_identifier = !entry_name.is_empty()
            && entry_name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if is_identifier && matches!(stage, "vert" | "frag" | "comp") {
            remove_stale(&entry.path())?;
        }
    }
    Ok(())
}
