//! The fixture server's grandchild (`--spawn-child PORT`), which must not outlive its server:
//! where its pid arrives, and waiting for a process to exit on the event (its pidfd turns
//! readable when it exits: gone, or a zombie nobody has reaped yet). No sleep; a bound only ends
//! a hang.
//!
//! The one copy: `core/tests/mcp_runtime/main.rs` and `cli/tests/cli/main.rs` include this file
//! by path.
//!
//! Policy: a signal that interrupts the wait (tokio's SIGCHLD handler fires whenever a child of
//! the test process exits, the killed server included) resumes it with the time left, so an
//! unrelated exit never reads as "still running".

use std::io::Read;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Listens on 127.0.0.1 for the pid the fixture's `--spawn-child` sends: the port to pass, and
/// where the pid arrives.
pub fn grandchild_listener() -> (u16, mpsc::Receiver<i32>) {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let (sent, pid) = mpsc::channel();
    // A plain thread: if the test fails, nothing waits for it to end.
    std::thread::spawn(move || {
        let (mut connection, _) = listener.accept().unwrap();
        let mut line = String::new();
        connection.read_to_string(&mut line).unwrap();
        let _ = sent.send(line.trim().parse().unwrap());
    });
    (port, pid)
}

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
