//! A stdio server's process group, ended as a whole.
//!
//! Policy: a stdio server is started in its own process group (`process_group(0)`), and every
//! way it ends (shutdown, a failure, a timeout, a start that timed out, the provider dropped)
//! kills the whole group, so what a wrapper like `npx` or `uvx` started dies with it. Killing
//! only the direct child (what `rmcp` does) leaves such grandchildren running.

/// The group of a started server; killed once, at the latest when dropped.
#[derive(Debug)]
pub(crate) struct ProcessGroup {
    /// The group's id (the server's pid, as its leader), until it is killed.
    id: std::sync::Mutex<Option<u32>>,
}

impl ProcessGroup {
    /// The group led by the process `leader`, started with `process_group(0)`.
    pub(crate) fn led_by(leader: Option<u32>) -> ProcessGroup {
        ProcessGroup {
            id: std::sync::Mutex::new(leader),
        }
    }

    /// Sends SIGKILL to every process of the group, once.
    pub(crate) fn kill(&self) {
        let id = self.id.lock().unwrap_or_else(|p| p.into_inner()).take();
        #[cfg(unix)]
        if let Some(id) = id.and_then(|id| libc::pid_t::try_from(id).ok()) {
            // SAFETY: killpg takes plain integers and has no memory effects. The group exists
            // while any member does, so its id names no other group; ESRCH (all gone) is fine.
            unsafe {
                libc::killpg(id, libc::SIGKILL);
            }
        }
        #[cfg(not(unix))]
        let _ = id; // Elsewhere the server itself is killed by its transport.
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}
