//! The schema rail fails, naming tool, dialect, pointer and problem, for a `#[tool]` whose
//! schema a named dialect would refuse or lose part of.

use serde::Deserialize;
use toolwire::{
    rail::check_tool_schemas,
    schema::{Dialect, RefusalReason},
    tool,
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
fn the_rail_names_every_lossy_and_refused_schema() {
    // The broad dialects take both as they are: the label, and the recursive tree (a recursive
    // local `$ref` travels wherever its provider takes it, `tool-schema-wire.md`, "Recursion,
    // revised").
    let broad = check_tool_schemas(&[Dialect::OpenAi, Dialect::Anthropic, Dialect::Converse]);
    assert!(broad.is_ok(), "{}", broad.unwrap_err());

    let findings = check_tool_schemas(&[Dialect::Gemini, Dialect::AnthropicStrict]).unwrap_err();
    let text = findings.to_string();
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
