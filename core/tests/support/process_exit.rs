//! Waiting for a process to exit, on the event: its pidfd turns readable when it exits (gone, or
//! a zombie nobody has reaped yet). No sleep; `bound` only ends a hang.
//!
//! The one copy: `core/tests/mcp_runtime/main.rs` and `cli/tests/cli/main.rs` include this file
//! by path.
//!
//! Policy: a signal that interrupts the wait (tokio's SIGCHLD handler fires whenever a child of
//! the test process exits, the killed server included) resumes it with the time left, so an
//! unrelated exit never reads as "still running".

use std::time::{Duration, Instant};

/// Whether process `pid` exits within `bound`.
pub fn exits_within(pid: i32, bound: Duration) -> bool {
    // SAFETY: plain syscalls on integers; the pidfd is closed below.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as libc::c_int;
    if fd < 0 {
        // ESRCH: it has exited and been reaped already.
        return std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
    }
    let deadline = Instant::now() + bound;
    let exited = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let mut poll = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the duration of the call.
        let ready = unsafe { libc::poll(&mut poll, 1, left.as_millis() as libc::c_int) };
        if ready == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
        {
            continue;
        }
        break ready == 1;
    };
    // SAFETY: `fd` is ours and closed once.
    unsafe { libc::close(fd) };
    exited
}
