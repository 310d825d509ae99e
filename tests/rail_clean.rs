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
    // Every fixture tool travels to the broad dialects without a loss.
    toolwire::rail::check_tool_schemas(&[Dialect::OpenAi, Dialect::Anthropic, Dialect::Converse])
}

#[test]
fn tool_schemas_in_gemini_lose_only_the_closure() {
    use toolwire::schema::Dialect;
    // A `#[tool]`'s schema is closed (`additionalProperties: false`, which the tool enforces);
    // Gemini's `parameters` has no `additionalProperties`, so the closure is what it drops,
    // and all it drops.
    let Err(findings) = toolwire::rail::check_tool_schemas(&[Dialect::Gemini]) else {
        return;
    };
    for finding in findings.findings() {
        assert!(
            finding.refused.is_none() && finding.problem.contains("`additionalProperties` is lost"),
            "{findings}"
        );
    }
}
