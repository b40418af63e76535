//! Panic containment: stride never panics on user input, and a panic left
//! in naga (or in stride) becomes an internal-error diagnostic.

thread_local! {
    /// Set while this thread runs naga under [`guarded`]: its panics are
    /// reported as diagnostics, not printed.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

static HOOK: std::sync::Once = std::sync::Once::new();

/// Run `f`, turning a panic into its message. The panic hook is wrapped once
/// per process so that panics of a thread inside `guarded` are not printed;
/// other threads keep the previous hook's behavior.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result.map_err(|payload| {
        if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "a panic without a message".to_string()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guarded_turns_a_panic_into_its_message() {
        let r: Result<(), String> = guarded(|| panic!("boom {}", 1));
        assert_eq!(r, Err("boom 1".to_string()));
        assert_eq!(guarded(|| 7), Ok(7));
        // The thread is not left quiet.
        assert!(!QUIET.with(|q| q.get()));
    }
}
