//! The `toolwire` CLI against an independent model of the spec: `tests/model/toolwire_model.py`
//! is a deliberately naive Python implementation of the census and resolve rules, and
//! `tests/model/differential.py` feeds both thousands of random census sets and compares every
//! result, shrinking any difference to the smallest input that shows it.
//!
//! The script needs only `python3` (standard library); CI has it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use toolwire_test_support::workspace_binary::workspace_binary;

/// Random census sets compared per run (about two `toolwire` processes each).
const SETS: &str = "2000";

/// The `toolwire` binary, built by cargo for this test run.
fn toolwire_binary() -> PathBuf {
    workspace_binary("toolwire-cli", "toolwire")
}

/// Runs `differential.py` with `args` against the built CLI.
fn differential(args: &[&str]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/model/differential.py");
    let toolwire = toolwire_binary();
    match Command::new("python3")
        .arg(&script)
        .arg("--toolwire")
        .arg(&toolwire)
        .args(args)
        .output()
    {
        Ok(output) => output,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => panic!(
            "python3 is not installed: the model agreement test runs tests/model/differential.py \
             with python3 (standard library only); install python3 to run it"
        ),
        Err(err) => panic!("cannot run python3 {}: {err}", script.display()),
    }
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn the_cli_agrees_with_the_model_on_random_census_sets() {
    let output = differential(&["--sets", SETS]);
    let report = text(&output);
    assert!(
        output.status.success(),
        "toolwire and the model of the spec disagree:\n{report}"
    );
    assert!(report.contains("agree on"), "unexpected report:\n{report}");
}

/// The comparison can fail: broken variants of the model are caught, and the input shrunk.
#[test]
fn the_differential_test_catches_a_broken_model() {
    let output = differential(&["--sets", SETS, "--self-check"]);
    let report = text(&output);
    assert!(
        output.status.success(),
        "the self-check of the differential test failed:\n{report}"
    );
    assert!(
        report.matches("was caught and shrunk").count() == 2,
        "unexpected report:\n{report}"
    );
}
