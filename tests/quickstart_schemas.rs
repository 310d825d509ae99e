//! The quickstart's own tools, checked by the schema rail in every dialect (issue 17, point
//! 3; issue 28, point 1): what a new user's first tools send is exact wherever the dialect can
//! say it; what a dialect cannot say is *guarded*, because each `#[tool]` refuses, naming the
//! rule, every argument its own schema refuses, so the rail lists it and passes.

#[path = "../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;

use serde_json::json;
use toolwire::{registered_tools, schema::Dialect, schema::Standing, AppState, ToolError};

#[test]
fn the_quickstart_tools_pass_the_rail_in_every_dialect(
) -> Result<(), toolwire::rail::SchemaFindings> {
    toolwire::rail::check_tool_schemas(&Dialect::ALL)
}

#[test]
fn what_a_dialect_cannot_say_is_listed_as_guarded() {
    let names: Vec<&str> = registered_tools().iter().map(|t| t.name).collect();
    assert_eq!(names, ["count_visit", "files/read", "get_weather"]);
    let findings = toolwire::rail::tool_schema_findings(&Dialect::ALL);
    let mut found: Vec<(&str, Dialect, &str, &str, Standing)> = findings
        .findings()
        .iter()
        .map(|f| {
            let keyword = f.problem.split('`').nth(1).unwrap_or("");
            (
                f.tool.as_str(),
                f.dialect,
                f.pointer.as_str(),
                keyword,
                f.standing,
            )
        })
        .collect();
    found.sort();
    // Nothing in openai, openai-strict (closed already; `Option` reads `null` as absent),
    // anthropic or converse. What is left is `u8`'s range, which the Messages API's strict mode
    // cannot bound, and the closure, which Gemini's `parameters` cannot say: each written into
    // the description for the model, and enforced by the tool (below).
    use Dialect::{AnthropicStrict, Gemini};
    use Standing::Guarded;
    let days = "/properties/days";
    assert_eq!(
        found,
        [
            ("count_visit", Gemini, "", "additionalProperties", Guarded),
            ("files/read", Gemini, "", "additionalProperties", Guarded),
            ("get_weather", AnthropicStrict, days, "maximum", Guarded),
            ("get_weather", AnthropicStrict, days, "minimum", Guarded),
            ("get_weather", Gemini, "", "additionalProperties", Guarded),
        ],
        "{findings}"
    );
    assert!(
        findings
            .findings()
            .iter()
            .all(|f| !f.over_restricts && !f.fails(false) && f.fails(true)),
        "{findings}"
    );
    assert!(
        findings.passes(false) && !findings.passes(true),
        "{findings}"
    );
    let exact = toolwire::rail::check_tool_schemas_exact(&Dialect::ALL).unwrap_err();
    assert!(
        exact
            .to_string()
            .contains("5 schema finding(s) fail the rail"),
        "{exact}"
    );
}

/// "Guarded" is a fact about the tool, not a label: each rule a provider does not see is one
/// the tool's own validation refuses before the function runs, naming the rule.
#[tokio::test]
async fn each_guarded_rule_is_refused_by_the_tool_itself_naming_the_rule() {
    let tool = |name: &str| {
        *registered_tools()
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} is registered"))
    };
    let refused = |out: Result<serde_json::Value, ToolError>, rule: &str| match out {
        Err(ToolError::InvalidArguments { reason, .. }) => {
            assert!(reason.contains(&format!("rule `{rule}`")), "{reason}");
        }
        other => panic!("the tool ran on what its schema refuses: {other:?}"),
    };
    let weather = tool("get_weather");
    refused(
        weather
            .call(json!({"city": "Oslo", "days": 256}), AppState::new())
            .await,
        "maximum",
    );
    refused(
        weather
            .call(json!({"city": "Oslo", "days": -1}), AppState::new())
            .await,
        "minimum",
    );
    for (name, arguments) in [
        ("get_weather", json!({"city": "Oslo", "unit": "C"})),
        ("files/read", json!({"path": "a.txt", "mode": "r"})),
        ("count_visit", json!({"by": 2})),
    ] {
        refused(
            tool(name).call(arguments, AppState::new()).await,
            "additionalProperties",
        );
    }
}
