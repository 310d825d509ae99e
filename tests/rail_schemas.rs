//! The schema rail fails, naming tool, dialect, pointer and problem, for a schema a named
//! dialect would refuse, for a loss nothing guards (an MCP tool's) and for an over-restriction;
//! a `#[tool]`'s loss is guarded: listed, and failed only in the exact mode
//! (`tool-schema-wire.md`, "What the rail fails on, revised 2026-12").

use serde::Deserialize;
use serde_json::json;
use toolwire::{
    rail::{check_schemas, check_schemas_exact, check_tool_schemas, check_tool_schemas_exact},
    schema::{Dialect, RefusalReason, Standing},
    tool, ToolDefinition,
};

#[derive(Deserialize, schemars::JsonSchema)]
struct Label {
    /// The label's text.
    #[schemars(length(min = 3))]
    text: String,
}

/// Labels a thing.
#[tool]
fn label(what: Label) -> String {
    what.text
}

/// A tree of labels: its schema recurses.
#[derive(Deserialize, schemars::JsonSchema)]
struct Tree {
    children: Vec<Tree>,
}

/// Counts a tree.
#[tool]
fn count_nodes(tree: Tree) -> usize {
    fn count(tree: &Tree) -> usize {
        1 + tree.children.iter().map(count).sum::<usize>()
    }
    count(&tree)
}

#[test]
fn the_rail_fails_on_a_refused_schema_and_names_every_finding() {
    // The broad dialects take both as they are: the label, and the recursive tree (a recursive
    // local `$ref` travels wherever its provider takes it, `tool-schema-wire.md`, "Recursion,
    // revised").
    let broad = check_tool_schemas(&[Dialect::OpenAi, Dialect::Anthropic, Dialect::Converse]);
    assert!(broad.is_ok(), "{}", broad.unwrap_err());

    let findings = check_tool_schemas(&[Dialect::Gemini, Dialect::AnthropicStrict])
        .expect_err("the recursive tree is refused");
    let text = findings.to_string();
    // Only the refusals fail; the label's losses are guarded (its handler validates).
    for finding in findings.findings() {
        let expected = if finding.tool == "count_nodes" {
            Standing::Refused
        } else {
            Standing::Guarded
        };
        assert_eq!(finding.standing, expected, "{text}");
        assert_eq!(
            finding.fails(false),
            finding.tool == "count_nodes",
            "{text}"
        );
    }
    assert!(
        text.starts_with("2 schema finding(s) fail the rail"),
        "{text}"
    );
    // The recursive tree: Gemini and the Messages API strict have no recursion.
    let refused: Vec<(&str, Dialect)> = findings
        .findings()
        .iter()
        .filter(|f| f.refused == Some(RefusalReason::Recursive))
        .map(|f| (f.tool.as_str(), f.dialect))
        .collect();
    assert_eq!(
        refused,
        [
            ("count_nodes", Dialect::Gemini),
            ("count_nodes", Dialect::AnthropicStrict)
        ]
    );
    // The label: strict Messages API drops `minLength`; the finding says where and what.
    let lost = findings
        .findings()
        .iter()
        .find(|f| f.tool == "label" && f.problem.contains("minLength"))
        .unwrap_or_else(|| panic!("no minLength finding in:\n{text}"));
    assert_eq!(
        (lost.dialect, lost.pointer.as_str()),
        (Dialect::AnthropicStrict, "/properties/what/properties/text")
    );
    assert!(
        text.contains("`label`") && text.contains("At least 3 characters."),
        "{text}"
    );
    // Gemini takes `minLength`: what the label loses there is only its closure
    // (`additionalProperties: false`, which Gemini's `parameters` has not; the tool enforces it).
    let in_gemini: Vec<&str> = findings
        .findings()
        .iter()
        .filter(|f| f.tool == "label" && f.dialect == Dialect::Gemini)
        .map(|f| f.pointer.as_str())
        .collect();
    assert_eq!(in_gemini, ["", "/properties/what"], "{text}");
    assert!(
        findings
            .findings()
            .iter()
            .filter(|f| f.tool == "label" && f.dialect == Dialect::Gemini)
            .all(|f| f.problem.contains("`additionalProperties` is lost")),
        "{text}"
    );
    // A strict dialect closes nothing: the label's schema is closed already.
    assert!(
        !findings
            .findings()
            .iter()
            .any(|f| f.dialect == Dialect::AnthropicStrict
                && f.problem.contains("additionalProperties")),
        "{text}"
    );
}

#[test]
fn a_tools_guarded_losses_pass_and_the_exact_mode_fails_them() {
    // The label alone travels to both (only the tree recurses): its losses are guarded.
    let label = toolwire::registered_tools()
        .into_iter()
        .find(|t| t.name == "label")
        .expect("registered");
    let dialects = [Dialect::Gemini, Dialect::AnthropicStrict];
    assert!(check_schemas([label], &dialects).is_ok());
    let exact = check_schemas_exact([label], &dialects).expect_err("guarded fails when exact");
    assert!(
        exact
            .findings()
            .iter()
            .all(|f| f.standing == Standing::Guarded),
        "{exact}"
    );
    assert!(
        exact
            .to_string()
            .contains("`label` (tests/rail_schemas.rs:"),
        "{exact}"
    );
    // And over every registered tool, the exact mode fails where the rail alone would not.
    assert!(
        check_tool_schemas(&[Dialect::Gemini, Dialect::OpenAi]).is_err(),
        "the tree"
    );
    assert!(check_tool_schemas_exact(&[Dialect::OpenAi]).is_ok());
}

/// Issue 28, review point 7: findings only listed, then judged by `passes(true)`, say what each
/// mode does with a guarded loss, never that it does not fail.
#[test]
fn listed_findings_say_a_guarded_loss_fails_the_exact_mode() {
    let label = toolwire::registered_tools()
        .into_iter()
        .find(|t| t.name == "label")
        .expect("registered");
    let findings = toolwire::rail::schema_findings([label], &[Dialect::AnthropicStrict]);
    assert!(findings.passes(false) && !findings.passes(true));
    let text = findings.to_string();
    assert!(
        text.contains("listed, failing only the exact mode"),
        "{text}"
    );
    assert!(!text.contains("not failing"), "{text}");
    // Judged by a `check_*`, the text follows the mode it judged.
    let exact = check_schemas_exact([label], &[Dialect::AnthropicStrict]).unwrap_err();
    assert!(exact.to_string().contains("fail the rail"), "{exact}");
}

/// A tool as an MCP server lists it (`tools/list`: a name, a description, an `inputSchema`):
/// nothing on our side validates its arguments, so what a dialect drops is unguarded.
fn mcp_tool(schema: serde_json::Value) -> ToolDefinition {
    ToolDefinition::new("mcp/tags/tag", "Tags a thing.", schema)
}

#[test]
fn an_mcp_tools_unguarded_loss_fails_the_rail() {
    let tag = mcp_tool(json!({"type": "object", "additionalProperties": false,
        "properties": {"tag": {"type": "string", "minLength": 3}}}));
    assert!(check_schemas([&tag], &[Dialect::OpenAi, Dialect::Anthropic]).is_ok());
    let findings = check_schemas([&tag], &[Dialect::AnthropicStrict])
        .expect_err("anthropic-strict drops minLength, and nothing enforces it");
    let text = findings.to_string();
    let lost = &findings.findings()[0];
    assert_eq!(
        (lost.pointer.as_str(), lost.standing, lost.over_restricts),
        ("/properties/tag", Standing::Unguarded, false),
        "{text}"
    );
    assert!(
        text.contains("`mcp/tags/tag` in anthropic-strict at `/properties/tag`, unguarded: `minLength` is lost"),
        "{text}"
    );
    // The same schema from a `#[tool]` would be guarded: the standing is the tool's, not the
    // schema's.
    let gemini = check_schemas([&tag], &[Dialect::Gemini]).expect_err("the closure is unguarded");
    assert!(gemini
        .findings()
        .iter()
        .all(|f| f.standing == Standing::Unguarded));
}

#[test]
fn an_mcp_tools_refused_schema_and_over_restriction_fail_the_rail() {
    let tree = mcp_tool(json!({"type": "object", "properties": {"next": {"$ref": "#"}}}));
    let refused = check_schemas([&tree], &[Dialect::Gemini]).expect_err("no recursion in Gemini");
    assert_eq!(refused.findings()[0].standing, Standing::Refused);
    assert_eq!(
        refused.findings()[0].refused,
        Some(RefusalReason::Recursive)
    );

    // Strict closes an object the tool leaves open: the model can no longer send what the
    // tool accepts.
    let open = mcp_tool(json!({"type": "object", "properties": {"tag": {"type": "string"}}}));
    let closed = check_schemas([&open], &[Dialect::OpenAiStrict]).expect_err("over-restricted");
    let finding = closed
        .findings()
        .iter()
        .find(|f| f.problem.contains("`additionalProperties`"))
        .unwrap_or_else(|| panic!("{closed}"));
    assert!(finding.over_restricts, "{closed}");
    assert!(
        closed.to_string().contains(", over-restricted: "),
        "{closed}"
    );
}
