//! The quickstart's own tools, checked by the schema rail in every dialect (issue 17, point
//! 3): what a new user's first tools send is exact wherever the dialect can say it, and the
//! rail names the rest.

#[path = "../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;

use toolwire::schema::Dialect;

#[test]
fn the_quickstart_tools_lose_only_what_a_dialect_cannot_say() {
    let names: Vec<&str> = toolwire::registered_tools()
        .iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["count_visit", "files/read", "get_weather"]);
    let findings =
        toolwire::rail::check_tool_schemas(&Dialect::ALL).expect_err("two dialects lose a rule");
    let mut found: Vec<(&str, Dialect, &str, &str)> = findings
        .findings()
        .iter()
        .map(|f| {
            let keyword = f.problem.split('`').nth(1).unwrap_or("");
            (f.tool.as_str(), f.dialect, f.pointer.as_str(), keyword)
        })
        .collect();
    found.sort();
    // Nothing in openai, openai-strict (closed already; `Option` reads `null` as absent),
    // anthropic or converse. What is left is what the spec calls a loss: `u8`'s range, which
    // the Messages API's strict mode cannot bound, and the closure, which Gemini's
    // `parameters` cannot say. Each is written into the description for the model.
    assert_eq!(
        found,
        [
            ("count_visit", Dialect::Gemini, "", "additionalProperties"),
            ("files/read", Dialect::Gemini, "", "additionalProperties"),
            (
                "get_weather",
                Dialect::AnthropicStrict,
                "/properties/days",
                "maximum"
            ),
            (
                "get_weather",
                Dialect::AnthropicStrict,
                "/properties/days",
                "minimum"
            ),
            ("get_weather", Dialect::Gemini, "", "additionalProperties"),
        ],
        "{findings}"
    );
}
