//! The command ends every server it started, with its whole process group, on every path:
//! listed, timed out, never answering, and interrupted.

use std::time::Instant;

use toolwire_test_support::grandchild::{exits_within, grandchild_listener};

use crate::{fixture_command, status, stderr, toolwire, HANG_BOUND};

/// The pid the fixture's grandchild sent, once it arrived.
fn grandchild(pid: std::sync::mpsc::Receiver<i32>) -> i32 {
    pid.recv_timeout(HANG_BOUND)
        .expect("the fixture sends its grandchild's pid")
}

#[test]
fn a_start_timeout_ends_the_whole_process_group_and_names_the_flag() {
    let (port, pid) = grandchild_listener();
    let command = fixture_command(&format!("--hang-start --spawn-child {port}"));
    let output = toolwire(&["census", "--timeout", "2", "--mcp-stdio", &command], "");
    assert_eq!(status(&output), 2);
    let err = stderr(&output);
    assert!(err.contains("did not answer within 2000 ms"), "{err}");
    assert!(err.contains("raise --timeout"), "says the flag: {err}");
    assert!(
        !err.contains("McpTimeouts") && !err.contains("rmcp"),
        "{err}"
    );
    let pid = grandchild(pid);
    assert!(
        exits_within(pid, HANG_BOUND),
        "the grandchild {pid} outlived a start timeout"
    );
}

#[test]
fn a_listed_server_ends_with_its_whole_process_group() {
    let (port, pid) = grandchild_listener();
    let command = fixture_command(&format!("--spawn-child {port}"));
    let output = toolwire(&["census", "--mcp-stdio", &command], "");
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let pid = grandchild(pid);
    assert!(
        exits_within(pid, HANG_BOUND),
        "the grandchild {pid} outlived a listing"
    );
}

#[test]
fn a_program_that_never_answers_times_out_and_is_ended() {
    // A `sleep` no other test or process runs: its argument is unique to this test process.
    let seconds = format!("777.{:09}", std::process::id());
    let started = Instant::now();
    let output = toolwire(
        &[
            "census",
            "--timeout",
            "1",
            "--mcp-stdio",
            &format!("sleep {seconds}"),
        ],
        "",
    );
    assert_eq!(status(&output), 2);
    assert!(
        started.elapsed().as_secs_f64() >= 1.0,
        "it waited the timeout"
    );
    let err = stderr(&output);
    assert!(
        err.contains("`sleep` did not answer within 1000 ms"),
        "{err}"
    );
    // Every process still running that command line (a zombie's is empty) must exit.
    let wanted = format!("sleep\0{seconds}\0");
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if cmdline == wanted.as_bytes() {
            assert!(
                exits_within(pid, HANG_BOUND),
                "`sleep {seconds}` ({pid}) outlived the command"
            );
        }
    }
}

#[test]
fn an_interrupted_command_ends_the_server_it_started() {
    let (port, pid) = grandchild_listener();
    let command = fixture_command(&format!("--hang-start --spawn-child {port}"));
    let toolwire = std::process::Command::new(assert_cmd::cargo::cargo_bin!("toolwire"))
        // Far longer than the test: only the signal can end it in time.
        .args(["census", "--timeout", "600", "--mcp-stdio", &command])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The grandchild's pid arrives once the server runs: then the command is interrupted.
    let pid = grandchild(pid);
    // SAFETY: kill takes plain integers; the process is our child, not yet waited for.
    let sent = unsafe { libc::kill(toolwire.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0);
    let output = toolwire.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("interrupted by SIGTERM"), "{err}");
    assert!(
        exits_within(pid, HANG_BOUND),
        "the grandchild {pid} outlived an interrupted command"
    );
}
