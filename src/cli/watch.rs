//! `--watch`: wait for the inputs to change, and tell which ones did.
//!
//! A file input is watched through its folder (editors often save by
//! writing a new file and renaming it over the old one); a directory input
//! is watched with everything below it. A burst of events (an editor saves
//! in several steps) settles into one round: the round starts once no
//! relevant event came for [`QUIET`], or [`LONGEST`] after the first one.

#![cfg_attr(not(feature = "watch"), allow(dead_code))]

use super::inputs::normalized;
use super::Fatal;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the inputs must be still before a round starts.
pub const QUIET: Duration = Duration::from_millis(150);

/// The longest a round waits for a busy tree to become still.
pub const LONGEST: Duration = Duration::from_secs(2);

/// What one input name given on the command line watches.
struct Root {
    /// The name as given.
    name: String,
    /// The input, made absolute by its letters.
    path: PathBuf,
    /// A directory input (every `*.wgsl` below it), else a file.
    directory: bool,
}

impl Root {
    /// The folder whose loss ends watching: the directory, or the folder
    /// holding the file.
    fn folder(&self) -> &Path {
        if self.directory {
            &self.path
        } else {
            self.path.parent().unwrap_or(&self.path)
        }
    }
}

fn roots(names: &[String]) -> Result<Vec<Root>, Fatal> {
    let cwd = std::env::current_dir()
        .map_err(|e| Fatal(format!("cannot read the current directory: {e}")))?;
    Ok(names
        .iter()
        .map(|name| {
            let path = normalized(&cwd.join(name));
            Root {
                name: name.clone(),
                directory: path.is_dir(),
                path,
            }
        })
        .collect())
}

/// Whether an event about `path` can change the inputs of `roots`: the file
/// of a file input; below a directory input, a `*.wgsl` file or a folder
/// (created, removed or renamed: the files in it come and go with it).
/// `folder_event` tells that the event is about a folder, or a rename.
fn concerns(roots: &[Root], path: &Path, folder_event: bool) -> bool {
    let wgsl = path.extension().is_some_and(|e| e == "wgsl");
    roots.iter().any(|root| {
        if root.directory {
            path.starts_with(&root.path) && (wgsl || folder_event || path.is_dir())
        } else {
            path == root.path
        }
    })
}

/// The first root whose folder is gone: it can no longer be watched.
fn lost(roots: &[Root]) -> Option<Fatal> {
    let root = roots.iter().find(|r| !r.folder().is_dir())?;
    Some(Fatal(if root.directory {
        format!(
            "`{}` is gone (removed or renamed); it can no longer be watched",
            root.name
        )
    } else {
        format!(
            "the folder of `{}` (`{}`) is gone; it can no longer be watched",
            root.name,
            root.folder().display()
        )
    }))
}

#[cfg(feature = "watch")]
pub use with_notify::Watcher;

#[cfg(feature = "watch")]
mod with_notify {
    use super::{concerns, lost, roots, Root, LONGEST, QUIET};
    use crate::cli::Fatal;
    use notify::event::{AccessKind, AccessMode, CreateKind, ModifyKind, RemoveKind};
    use notify::{Event, EventKind, RecursiveMode, Watcher as _};
    use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
    use std::time::Instant;

    /// The file watcher of one `--watch` call.
    pub struct Watcher {
        roots: Vec<Root>,
        events: Receiver<notify::Result<Event>>,
        // Dropping it stops the events.
        _watcher: notify::RecommendedWatcher,
    }

    impl Watcher {
        /// Start watching the inputs named on the command line.
        pub fn new(names: &[String]) -> Result<Watcher, Fatal> {
            let roots = roots(names)?;
            let (sender, events) = channel();
            let mut watcher = notify::recommended_watcher(sender)
                .map_err(|e| Fatal(format!("cannot start watching files: {e}")))?;
            // Each folder once; recursive when some directory input is it.
            let mut folders: Vec<(&std::path::Path, bool)> = Vec::new();
            for root in &roots {
                let folder = root.folder();
                match folders.iter_mut().find(|(f, _)| *f == folder) {
                    Some((_, recursive)) => *recursive |= root.directory,
                    None => folders.push((folder, root.directory)),
                }
            }
            for (folder, recursive) in folders {
                let mode = if recursive {
                    RecursiveMode::Recursive
                } else {
                    RecursiveMode::NonRecursive
                };
                watcher.watch(folder, mode).map_err(|e| {
                    Fatal(format!(
                        "cannot watch `{}`: {}",
                        folder.display(),
                        message(&e)
                    ))
                })?;
            }
            Ok(Watcher {
                roots,
                events,
                _watcher: watcher,
            })
        }

        /// Block until the inputs changed and the change has settled. An
        /// error when an input can no longer be watched.
        pub fn wait(&mut self) -> Result<(), Fatal> {
            while !self.next_is_relevant(None)? {}
            let start = Instant::now();
            let mut still_from = start;
            loop {
                let now = Instant::now();
                let until = (still_from + QUIET).min(start + LONGEST);
                if now >= until {
                    break;
                }
                if self.next_is_relevant(Some(until - now))? {
                    still_from = Instant::now();
                }
            }
            match lost(&self.roots) {
                Some(fatal) => Err(fatal),
                None => Ok(()),
            }
        }

        /// Take the next event, waiting at most `timeout` (`None`: for
        /// ever), and tell whether it concerns the inputs.
        fn next_is_relevant(&self, timeout: Option<std::time::Duration>) -> Result<bool, Fatal> {
            let stopped = || Fatal("the file watcher stopped".into());
            let event = match timeout {
                None => self.events.recv().map_err(|_| stopped())?,
                Some(t) => match self.events.recv_timeout(t) {
                    Ok(event) => event,
                    Err(RecvTimeoutError::Timeout) => return Ok(false),
                    Err(RecvTimeoutError::Disconnected) => return Err(stopped()),
                },
            };
            let event = match event {
                Ok(event) => event,
                Err(e) if matches!(e.kind, notify::ErrorKind::MaxFilesWatch) => {
                    return Err(Fatal(format!(
                        "cannot watch every folder: {} (raise fs.inotify.max_user_watches)",
                        message(&e)
                    )))
                }
                // Anything else: look at the inputs again.
                Err(_) => return Ok(true),
            };
            let folder_event = match event.kind {
                // Opening and reading (stride's own reads too) change nothing.
                EventKind::Access(AccessKind::Close(AccessMode::Write)) => false,
                EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_)) => {
                    return Ok(false)
                }
                EventKind::Create(CreateKind::Folder)
                | EventKind::Remove(RemoveKind::Folder)
                | EventKind::Modify(ModifyKind::Name(_)) => true,
                // The event queue overflowed: look at the inputs again.
                EventKind::Other if event.need_rescan() => return Ok(true),
                _ => false,
            };
            Ok(event
                .paths
                .iter()
                .any(|path| concerns(&self.roots, path, folder_event)))
        }
    }

    fn message(e: &notify::Error) -> String {
        match &e.kind {
            notify::ErrorKind::Io(io) => io.to_string(),
            other => format!("{other:?}"),
        }
    }
}

/// Without the `watch` feature: `--watch` is refused.
#[cfg(not(feature = "watch"))]
pub struct Watcher;

#[cfg(not(feature = "watch"))]
impl Watcher {
    pub fn new(_names: &[String]) -> Result<Watcher, Fatal> {
        Err(Fatal(
            "this stride was built without the `watch` feature; --watch is not available".into(),
        ))
    }

    pub fn wait(&mut self) -> Result<(), Fatal> {
        Ok(())
    }
}

/// Which items of a new list differ from an old one, items matched by a
/// key (inputs by name).
pub struct Changes {
    /// For each new item, the old item with its key, if any.
    previous: Vec<Option<usize>>,
    /// New items that are new or differ from their old one, in order.
    pub changed: Vec<usize>,
    /// Old items whose key is gone, in order.
    pub removed: Vec<usize>,
}

impl Changes {
    pub fn between<T: PartialEq, K: PartialEq + ?Sized>(
        old: &[T],
        new: &[T],
        key: impl Fn(&T) -> &K,
    ) -> Changes {
        let previous: Vec<Option<usize>> = new
            .iter()
            .map(|n| old.iter().position(|o| key(o) == key(n)))
            .collect();
        let changed = previous
            .iter()
            .enumerate()
            .filter(|&(i, p)| p.is_none_or(|j| old[j] != new[i]))
            .map(|(i, _)| i)
            .collect();
        let removed = (0..old.len())
            .filter(|j| !previous.contains(&Some(*j)))
            .collect();
        Changes {
            previous,
            changed,
            removed,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty()
    }

    /// The new list's values: `fresh` (one per changed item, in order) for
    /// the changed items, the old value for the others; and the old values
    /// of the removed items.
    pub fn merge<R>(&self, old: Vec<R>, fresh: Vec<R>) -> (Vec<R>, Vec<R>) {
        let mut old: Vec<Option<R>> = old.into_iter().map(Some).collect();
        let mut fresh = fresh.into_iter();
        let mut next = Vec::with_capacity(self.previous.len());
        for (i, previous) in self.previous.iter().enumerate() {
            let value = match previous {
                Some(j) if !self.changed.contains(&i) => old.get_mut(*j).and_then(Option::take),
                _ => fresh.next(),
            };
            next.extend(value);
        }
        let removed = self
            .removed
            .iter()
            .filter_map(|&j| old.get_mut(j).and_then(Option::take))
            .collect();
        (next, removed)
    }
}

/// `1 input`, `2 inputs`.
pub fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// One line on standard error after a round that did something.
pub fn summary(changed: &[String], removed: &[String], failed: usize) {
    let mut parts = Vec::new();
    if !changed.is_empty() {
        let errors = match failed {
            0 => String::new(),
            n => format!(" ({} with errors)", count(n, "input")),
        };
        parts.push(format!("translated {}{errors}", changed.join(", ")));
    }
    if !removed.is_empty() {
        parts.push(format!("dropped {}", removed.join(", ")));
    }
    if !parts.is_empty() {
        eprintln!("stride: {}", parts.join("; "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_by_key() {
        let old = [("a", 1), ("b", 2), ("c", 3)];
        let new = [("b", 2), ("d", 4), ("a", 9)];
        let changes = Changes::between(&old, &new, |(k, _)| k);
        assert_eq!(changes.changed, vec![1, 2]);
        assert_eq!(changes.removed, vec![2]);
        let (next, gone) = changes.merge(vec!["A", "B", "C"], vec!["D", "A2"]);
        assert_eq!(next, vec!["B", "D", "A2"]);
        assert_eq!(gone, vec!["C"]);
        assert!(Changes::between(&old, &old, |(k, _)| k).is_empty());
    }

    #[test]
    fn what_concerns_the_inputs() {
        let roots = [
            Root {
                name: "shaders".into(),
                path: "/p/shaders".into(),
                directory: true,
            },
            Root {
                name: "x.wgsl".into(),
                path: "/p/x.wgsl".into(),
                directory: false,
            },
        ];
        let yes = |p: &str, folder| concerns(&roots, Path::new(p), folder);
        assert!(yes("/p/shaders/a/b.wgsl", false));
        assert!(!yes("/p/shaders/a/b.spv", false));
        assert!(yes("/p/shaders/sub", true));
        assert!(yes("/p/x.wgsl", false));
        assert!(!yes("/p/y.wgsl", false));
    }
}
