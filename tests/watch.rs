//! `stride --watch`: the binary runs in the background on a temp tree while
//! the test edits it. Every wait polls for the expected state with a
//! generous deadline (a loaded machine can be slow to deliver file events),
//! never a fixed sleep.

#![cfg(feature = "watch")]

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use common::temp_dir;

const STRIDE: &str = env!("CARGO_BIN_EXE_stride");

/// How long any one expected state may take to appear.
const DEADLINE: Duration = Duration::from_secs(120);

const GOOD: &str = common::PARAMS_SHADER;

const GOOD2: &str = common::LIGHTS_SHADER;

/// A syntax error on line 3.
const BAD: &str = "struct Broken { a: f32 }
@group(0) @binding(0) var<uniform> u: Broken;
fn main( {
";

/// A running `stride --watch`, killed when dropped (also when the test
/// fails), with its standard error collected as it comes.
struct Watching {
    child: Child,
    stderr: Arc<Mutex<String>>,
    dir: PathBuf,
}

impl Watching {
    fn start(dir: &Path, args: &[&str]) -> Watching {
        let mut child = match Command::new(STRIDE)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => panic!("cannot run {STRIDE}: {e}"),
        };
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(mut pipe) = child.stderr.take() {
            let sink = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut buffer = [0u8; 4096];
                while let Ok(n @ 1..) = pipe.read(&mut buffer) {
                    if let Ok(mut text) = sink.lock() {
                        text.push_str(&String::from_utf8_lossy(&buffer[..n]));
                    }
                }
            });
        }
        Watching {
            child,
            stderr,
            dir: dir.to_path_buf(),
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().map(|t| t.clone()).unwrap_or_default()
    }

    /// Poll `ready` until it holds; panic with what stride printed when
    /// [`DEADLINE`] passes first.
    fn until(&self, what: &str, mut ready: impl FnMut() -> bool) {
        let start = Instant::now();
        while !ready() {
            if start.elapsed() > DEADLINE {
                panic!(
                    "timed out waiting for: {what}\n--- stderr:\n{}",
                    self.stderr()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn until_stderr(&self, what: &str, count: usize) {
        self.until(&format!("{count} x `{what}` on stderr"), || {
            self.stderr().matches(what).count() >= count
        });
    }

    fn still_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(e) = std::fs::write(path, text) {
        panic!("cannot write {}: {e}", path.display());
    }
}

/// Save as many editors do: write a new file, then rename it over the old.
fn save_by_rename(path: &Path, text: &str) {
    let tmp = path.with_extension("wgsl.swp");
    write(&tmp, text);
    if let Err(e) = std::fs::rename(&tmp, path) {
        panic!("cannot rename over {}: {e}", path.display());
    }
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn mtime(path: &Path) -> SystemTime {
    match std::fs::metadata(path).and_then(|m| m.modified()) {
        Ok(t) => t,
        Err(e) => panic!("no mtime for {}: {e}", path.display()),
    }
}

const WATCHING: &str = "stride: watching";

#[test]
fn watch_translates_changes_and_survives_errors() {
    let dir = temp_dir("watch-tree");
    write(&dir.join("shaders/a.wgsl"), GOOD);
    write(&dir.join("shaders/sub/b.wgsl"), GOOD2);
    let mut w = Watching::start(
        &dir,
        &[
            "--watch",
            "-t",
            "spirv,hlsl",
            "shaders",
            "-o",
            "out",
            "--depfile",
            "out/deps.d",
            "--manifest",
            "out/manifest.json",
        ],
    );
    w.until_stderr(WATCHING, 1);
    assert!(w.stderr().contains("watching 2 inputs"), "{}", w.stderr());
    let (a_hlsl, b_hlsl, b_spv) = (
        w.path("out/a.hlsl"),
        w.path("out/sub/b.hlsl"),
        w.path("out/sub/b.spv"),
    );
    assert!(text(&a_hlsl).contains("params_scale"));
    let b_times = (mtime(&b_hlsl), mtime(&b_spv));

    // An edit: that input is translated again.
    write(&w.path("shaders/a.wgsl"), &GOOD.replace("scale", "gain"));
    w.until("out/a.hlsl with the new member name", || {
        text(&a_hlsl).contains("params_gain")
    });

    // A broken edit: a diagnostic, no stale output, and stride goes on.
    save_by_rename(&w.path("shaders/a.wgsl"), BAD);
    w.until("the diagnostic of the broken edit", || {
        w.stderr().contains("shaders/a.wgsl:3:") && !a_hlsl.exists()
    });
    assert!(w.still_running(), "stride stopped on a translation error");

    // A new file below the directory input, then its removal.
    let deps = w.path("out/deps.d");
    write(&w.path("shaders/c.wgsl"), GOOD2);
    w.until("out/c.spv and its depfile line", || {
        w.path("out/c.spv").exists() && text(&deps).contains("out/c.spv: shaders/c.wgsl")
    });
    std::fs::remove_file(w.path("shaders/c.wgsl")).ok();
    w.until("out/c.spv removed with its input", || {
        !w.path("out/c.spv").exists() && !text(&deps).contains("c.wgsl")
    });

    // Fixed again.
    write(&w.path("shaders/a.wgsl"), GOOD);
    w.until("out/a.hlsl back", || text(&a_hlsl).contains("params_scale"));
    w.until("the manifest without errors", || {
        let manifest = text(&w.path("out/manifest.json"));
        manifest.contains("shaders/sub/b.wgsl") && !manifest.contains("\"ok\": false")
    });
    assert!(text(&deps).contains("out/sub/b.spv: shaders/sub/b.wgsl"));

    // The input that never changed was never rewritten.
    assert_eq!((mtime(&b_hlsl), mtime(&b_spv)), b_times);
    assert!(w.still_running());
}

#[test]
fn watch_a_file_saved_by_rename() {
    let dir = temp_dir("watch-file");
    write(&dir.join("x.wgsl"), GOOD);
    // A text target may go to a file as well as to standard output.
    let w = Watching::start(&dir, &["--watch", "-t", "layout", "x.wgsl", "-o", "x.txt"]);
    w.until_stderr(WATCHING, 1);
    let out = w.path("x.txt");
    assert!(text(&out).contains("Params"));
    save_by_rename(&w.path("x.wgsl"), &GOOD.replace("Params", "Moved"));
    w.until("x.txt with the new name", || text(&out).contains("Moved"));
    // A file beside it that is not an input changes nothing.
    write(&w.path("y.wgsl"), BAD);
    save_by_rename(&w.path("x.wgsl"), &GOOD.replace("Params", "Third"));
    w.until("x.txt again", || text(&out).contains("Third"));
    assert!(!w.stderr().contains("y.wgsl"), "{}", w.stderr());
}

#[test]
fn watch_ends_when_its_folder_goes() {
    let dir = temp_dir("watch-gone");
    write(&dir.join("shaders/a.wgsl"), GOOD);
    let mut w = Watching::start(&dir, &["--watch", "--check", "shaders"]);
    w.until_stderr(WATCHING, 1);
    if let Err(e) = std::fs::remove_dir_all(w.path("shaders")) {
        panic!("cannot remove the watched folder: {e}");
    }
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = w.child.try_wait() {
            break status;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "stride did not exit\n--- stderr:\n{}",
            w.stderr()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(2), "{}", w.stderr());
    w.until_stderr("error: `shaders` is gone", 1);
    assert!(w.stderr().contains("can no longer be watched"));
}

#[test]
fn watch_refuses_what_it_cannot_do() {
    let dir = temp_dir("watch-refuse");
    write(&dir.join("x.wgsl"), GOOD);
    let refused = |args: &[&str], message: &str| {
        let o = match Command::new(STRIDE)
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
        {
            Ok(o) => o,
            Err(e) => panic!("cannot run {STRIDE}: {e}"),
        };
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    };
    refused(&["--watch", "-t", "layout", "-"], "cannot watch `-`");
    refused(&["--watch", "x.wgsl"], "use -o");
    refused(&["--watch", "missing.wgsl", "-o", "out/"], "missing.wgsl");
}
