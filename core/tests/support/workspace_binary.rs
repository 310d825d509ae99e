//! A binary of this workspace, built for a test and found where cargo put it: the fixture MCP
//! server for core's and the CLI's tests, the `toolwire` CLI for the model agreement test.
//!
//! The one copy: `core/tests/support/mod.rs` declares it for core's tests, and
//! `cli/tests/cli/main.rs`, `tests/model_agreement.rs` and `examples/mcp.rs` include this file
//! by path: a test crate cannot use another crate's test files, and one std-only file is
//! lighter than a dev-only helper package.
//!
//! Policy: cargo builds the binary the first time a test process asks for it, every time (cargo
//! does nothing when it is fresh), with the profile of the running test, and the path is the one
//! cargo reports. A binary guessed next to the test executable can be stale after an edit, can
//! be missing, or can come from another profile.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The executable `bin` of workspace package `package`, built now (once per test process) with
/// the running test's profile.
pub fn workspace_binary(package: &str, bin: &str) -> PathBuf {
    /// Every binary built by this process: tests run on several threads and share one build.
    static BUILT: Mutex<Vec<(String, String, PathBuf)>> = Mutex::new(Vec::new());
    // Held while cargo runs, so two threads asking for the same binary build it once.
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, _, path)) = built.iter().find(|(p, b, _)| p == package && b == bin) {
        return path.clone();
    }
    let path = cargo_build(package, bin);
    built.push((package.to_owned(), bin.to_owned(), path.clone()));
    path
}

/// Runs `cargo build -p package --bin bin` and returns the executable cargo reports.
fn cargo_build(package: &str, bin: &str) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "-p", package, "--bin", bin])
        // JSON on stdout to find the executable; compiler errors still rendered on stderr.
        .arg("--message-format=json-render-diagnostics")
        .args(profile_args())
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let output = command
        .output()
        .unwrap_or_else(|err| panic!("cannot run {command:?}: {err}"));
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact"
                && message["target"]["name"] == bin
                && message["target"]["kind"]
                    .as_array()
                    .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"))
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("{command:?} reported no executable named {bin}"))
}

/// The cargo flags for the profile this test was built with, read from where cargo put the test
/// executable: `<target>/[<triple>/]<profile dir>/deps/<test>`, where the dev profile's
/// directory is `debug` and every other profile's is its name.
fn profile_args() -> Vec<String> {
    let exe = std::env::current_exe().expect("the test executable has a path");
    let profile_dir = exe
        .parent()
        .filter(|deps| deps.file_name().is_some_and(|n| n == "deps"))
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .and_then(|name| name.to_str());
    match profile_dir {
        // Not laid out by cargo (a test run by hand from elsewhere): cargo's default profile.
        None | Some("debug") => Vec::new(),
        Some("release") => vec!["--release".to_owned()],
        Some(profile) => vec!["--profile".to_owned(), profile.to_owned()],
    }
}
