//! The census rail over two tools-only crates whose forms are all distinct (one pair differs
//! only by `-` against `_`): it passes. This is the one line a user's test suite adds.

use toolwire_fixture_tools_a as _;
use toolwire_fixture_tools_b as _;

#[test]
fn tool_census() -> Result<(), toolwire::rail::SharedForms> {
    toolwire::check_tool_census()
}

#[test]
fn both_crates_are_linked() {
    // The rail above would pass vacuously if the fixtures' tools were absent.
    let names: Vec<&str> = toolwire::registered_tools()
        .iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(
        names,
        [
            "get_weather",
            "mcp-files-read",
            "mcp/files/read",
            "translate"
        ]
    );
}

#[test]
fn tool_schemas() -> Result<(), toolwire::rail::SchemaFindings> {
    use toolwire::schema::Dialect;
    // Issue 17, point 3, and issue 28, point 1: typical `#[tool]`s pass in all six dialects.
    // Their schemas are closed (the tool refuses unknown fields), so strict closes nothing;
    // their optional arguments read `null` as absent, so required-or-null is exact; and what
    // Gemini cannot say is guarded by the tool's own validation.
    toolwire::rail::check_tool_schemas(&Dialect::ALL)
}

#[test]
fn tool_schemas_in_gemini_lose_only_the_closure_and_it_is_guarded() {
    use toolwire::schema::{Dialect, Standing};
    // Gemini's `parameters` cannot say "closed" (the Gemini API's `Schema` has no
    // `additionalProperties`: core/src/wire/gemini), so a closed `#[tool]` schema opens
    // there: a widening the tool's own validation guards, listed and not failed.
    let findings = toolwire::rail::tool_schema_findings(&[Dialect::Gemini]);
    assert!(
        !findings.findings().is_empty(),
        "a closed schema opens in Gemini"
    );
    for finding in findings.findings() {
        assert!(
            finding.standing == Standing::Guarded
                && finding.problem.contains("`additionalProperties` is lost"),
            "{findings}"
        );
    }
    assert!(toolwire::rail::check_tool_schemas_exact(&[Dialect::Gemini]).is_err());
}
