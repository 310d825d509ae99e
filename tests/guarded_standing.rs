//! Where a loss stands in `ToolRuntime::report()` (`tool-schema-wire.md`, "What the rail fails
//! on, revised 2026-12"; `docs/schemas.md`): guarded only when the code that runs the tool
//! checks exactly the schema reported. A `#[tool]` run by `RegisteredTools` is; its definition
//! handed to a closure provider, or changed after `definition()`, is not.

use std::sync::Arc;

use serde_json::json;
use toolwire::{
    provider::{provider_fn, RegisteredTools},
    registered_tools,
    runtime::ToolRuntime,
    schema::{SchemaStatus, Standing},
    AppState, ToolDefinition,
};

/// Counts to `n`.
#[toolwire::tool]
fn count(
    /// How far.
    n: u8,
) -> u8 {
    n
}

fn count_definition() -> ToolDefinition {
    registered_tools()
        .into_iter()
        .find(|t| t.name == "count")
        .expect("`#[tool] fn count` is registered")
        .definition()
}

/// The anthropic-strict standing of the one tool `runtime` reports (a `u8`'s bounds are lost).
fn standing_in(runtime: &ToolRuntime) -> (SchemaStatus, Option<Standing>, bool) {
    let report = runtime.report();
    let schema = &report.tools[0].schemas["anthropic-strict"];
    (schema.status, schema.standing, schema.fails(false))
}

#[tokio::test]
async fn a_tool_run_by_its_own_handler_is_guarded() {
    let runtime = ToolRuntime::new();
    let provider = RegisteredTools::new(AppState::new());
    runtime
        .add_provider(Arc::new(provider))
        .await
        .unwrap()
        .check()
        .unwrap();
    assert_eq!(
        standing_in(&runtime),
        (SchemaStatus::Lossy, Some(Standing::Guarded), false)
    );
}

#[tokio::test]
async fn its_definition_run_by_a_closure_is_unguarded() {
    let runtime = ToolRuntime::new();
    // The closure echoes: nothing checks `n` against 0..=255.
    let echo = provider_fn(
        "echo",
        vec![count_definition()],
        |_, arguments| async move { Ok(arguments) },
    );
    runtime
        .add_provider(Arc::new(echo))
        .await
        .unwrap()
        .check()
        .unwrap();
    assert_eq!(
        standing_in(&runtime),
        (SchemaStatus::Lossy, Some(Standing::Unguarded), true)
    );
}

#[test]
fn a_definition_changed_after_the_fact_validates_nothing_it_says() {
    let mut changed = count_definition();
    assert!(changed.validates_arguments());
    changed.parameters["properties"]["n"]["maximum"] = json!(9);
    assert!(
        !changed.validates_arguments(),
        "the handler checks 255, not 9"
    );
    let report = toolwire::schema::SchemaReport::of_definition(
        toolwire::schema::Dialect::AnthropicStrict,
        &changed,
    );
    assert_eq!(report.standing, Some(Standing::Unguarded));
}

/// Tags a thing with a word.
#[toolwire::tool]
fn tag(
    /// The word: an extension keyword says it is lower case, which no validator checks.
    #[schemars(extend("x-case" = "lower"))]
    word: String,
) -> String {
    word
}

/// Shouts a word.
#[toolwire::tool]
fn shout(
    /// A `format` `jsonschema` does not know.
    #[schemars(extend("format" = "upper-case-word"))]
    word: String,
) -> String {
    word
}

#[test]
fn a_lost_rule_no_validator_checks_is_unguarded_even_for_a_tool() {
    let tag = registered_tools()
        .into_iter()
        .find(|t| t.name == "tag")
        .expect("`#[tool] fn tag` is registered");
    let findings = toolwire::rail::schema_findings([tag], &[toolwire::schema::Dialect::Gemini]);
    let standing = |keyword: &str| {
        findings
            .findings()
            .iter()
            .find(|f| f.problem.starts_with(&format!("`{keyword}`")))
            .unwrap_or_else(|| panic!("no `{keyword}` finding: {findings}"))
            .standing
    };
    assert_eq!(standing("x-case"), Standing::Unguarded, "{findings}");
    assert_eq!(
        standing("additionalProperties"),
        Standing::Guarded,
        "{findings}"
    );
    assert!(!findings.passes(false), "{findings}");
    let report = toolwire::schema::SchemaReport::of_definition(
        toolwire::schema::Dialect::Gemini,
        &tag.definition(),
    );
    assert_eq!(report.standing, Some(Standing::Unguarded));
}

#[test]
fn a_format_the_validator_does_not_know_leaves_the_tool_callable() {
    let shout = registered_tools()
        .into_iter()
        .find(|t| t.name == "shout")
        .expect("`#[tool] fn shout` is registered");
    let answer = futures::executor::block_on(shout.call(json!({"word": "quiet"}), AppState::new()));
    // Refusing an unknown format would fail every call (schemars writes `"zoned-date-time"`
    // for jiff's `Zoned`, which the validator does not check).
    assert!(answer.is_ok(), "{answer:?}");
}

/// Pings a host.
#[toolwire::tool]
fn ping(
    /// The host's address: schemars writes `"format": "ip"`, which the validator checks.
    host: std::net::IpAddr,
) -> String {
    host.to_string()
}

#[test]
fn an_ip_address_s_lost_format_is_guarded_and_the_tool_refuses_what_is_not_one() {
    let ping = registered_tools()
        .into_iter()
        .find(|t| t.name == "ping")
        .expect("`#[tool] fn ping` is registered");
    assert_eq!(
        ping.definition().parameters["properties"]["host"]["format"],
        "ip"
    );
    let findings =
        toolwire::rail::schema_findings([ping], &[toolwire::schema::Dialect::AnthropicStrict]);
    let format = findings
        .findings()
        .iter()
        .find(|f| f.problem.starts_with("`format`"))
        .unwrap_or_else(|| panic!("no `format` finding: {findings}"));
    // The validator refuses "not an address" before serde sees it, naming the rule.
    assert_eq!(format.standing, Standing::Guarded, "{findings}");
    assert!(findings.passes(false), "{findings}");
    let call =
        |host: &str| futures::executor::block_on(ping.call(json!({"host": host}), AppState::new()));
    assert_eq!(call("::1"), Ok(json!("::1")));
    match call("not an address") {
        Err(toolwire::ToolError::InvalidArguments { reason, .. }) => {
            assert!(reason.contains("rule `format`"), "{reason}")
        }
        other => panic!("not an address passed: {other:?}"),
    }
}

/// One judge on every route (`RailTool`, `SchemaReport::of_definition_run_by`,
/// `ToolRuntime::report`): guarded only with the runner that validates.
#[test]
fn a_tool_s_definition_without_its_registration_is_unguarded_on_the_rail() {
    use toolwire::schema::{Dialect, SchemaReport};
    let count = registered_tools()
        .into_iter()
        .find(|t| t.name == "count")
        .expect("`#[tool] fn count` is registered");
    let strict = [Dialect::AnthropicStrict];
    // The registration: its handler comes with it and validates.
    assert!(toolwire::rail::check_schemas([count], &strict).is_ok());
    // Its definition alone: the same schema, and nothing says what runs it.
    let definition = count.definition();
    let findings = toolwire::rail::check_schemas([&definition], &strict).unwrap_err();
    assert!(
        findings
            .findings()
            .iter()
            .all(|f| f.standing == Standing::Unguarded),
        "{findings}"
    );
    // The report says the same of each route.
    let standing = |validates| {
        SchemaReport::of_definition_run_by(Dialect::AnthropicStrict, &definition, validates)
            .standing
    };
    assert_eq!(standing(true), Some(Standing::Guarded));
    assert_eq!(standing(false), Some(Standing::Unguarded));
    assert_eq!(
        SchemaReport::of_definition(Dialect::AnthropicStrict, &definition).standing,
        Some(Standing::Unguarded)
    );
}
