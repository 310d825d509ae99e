//! Every recorded provider body under fixtures/provider-wire/ (responses, streams, requests,
//! and the answers toolwire writes) still validates against the providers' own SDK types:
//! fixtures/provider-wire/validate.py, run with the tests' venv (openai, anthropic,
//! google-genai, boto3, pinned in scripts/requirements.txt), so a fixture or a written answer
//! cannot drift from the SDKs unseen. See fixtures/provider-wire/README.md for what it checks.

use std::process::Command;

use toolwire_test_support::clients::test_python;

#[test]
fn every_provider_wire_fixture_validates_against_the_providers_sdk_types() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/provider-wire");
    let output = Command::new(test_python())
        .arg(format!("{fixtures}/validate.py"))
        .output()
        .expect("the venv's python runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "validate.py failed:\n{said}");
    // Its summary line: "N passed, 0 failed" (a run that checked nothing is no pass).
    let summary = said
        .lines()
        .find(|l| l.ends_with(" failed"))
        .unwrap_or_else(|| panic!("validate.py's summary:\n{said}"));
    let passed: usize = summary.split(' ').next().unwrap().parse().unwrap();
    assert!(passed > 0 && summary.ends_with(" 0 failed"), "{summary}");
}
