//! Running an external tool with a time limit (shared by tests/common and
//! the HLSL unit tests, which include tests/common/dxc.rs).

use std::process::{Command, Stdio};

/// How long one external tool run (a compiler, an oracle, a test program)
/// may take before the tests call it hung. The slowest seen on a busy
/// 2-core machine took a few seconds.
pub const TOOL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(180);

/// `cmd.output()`, but bounded: stdin is null, and a run still going after
/// [`TOOL_TIMEOUT`] is killed and reported as an error (so that a hung tool
/// fails the test with its command line instead of hanging CI).
pub fn output_bounded(cmd: &mut Command) -> std::io::Result<std::process::Output> {
    output_within(cmd, TOOL_TIMEOUT)
}

/// [`output_bounded`] with an explicit limit.
pub fn output_within(
    cmd: &mut Command,
    limit: std::time::Duration,
) -> std::io::Result<std::process::Output> {
    use std::io::Read;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    // Drain both pipes on their own threads so a chatty tool never blocks.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!(
                    "{cmd:?} did not finish within {} s and was killed",
                    limit.as_secs()
                ),
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    Ok(std::process::Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}
