//! Inputs the fuzz targets (`fuzz/`, see fuzz/README.md) found, kept as ordinary tests.

use toolwire_core::{
    census::{LeftOutReason, Resolution},
    Census,
};

/// census_resolve, minimized: one tool named `tool/schema` beside the taken names
/// `["tool/schema"]` (`toolwire census --taken tool/schema`, or `ToolRuntimeBuilder::taken`).
///
/// Before f1e28ff the census offered the tool as `tool_schema`, yet a call by its real name (the
/// name the model reads in the tool catalog and in history) reached the meta-tool. A taken name
/// now travels as its form too, so the tool is left out as a meta-tool and both names answer as
/// the meta-tool: no call reaches a tool other than the one it names.
#[test]
fn a_tool_named_a_taken_name_that_is_not_model_safe_is_left_out() {
    let census = Census::build(["tool/schema"], &["tool/schema"]);
    assert_eq!(census.offered().count(), 0);
    assert_eq!(
        census.tools()[0].left_out_reason(),
        Some(&LeftOutReason::MetaTool {
            meta: "tool/schema".into()
        })
    );
    for called in ["tool/schema", "tool_schema"] {
        assert_eq!(
            census.resolve(called),
            Ok(Resolution::Meta("tool/schema")),
            "{called}"
        );
    }
}

/// census_resolve, the rule the fix added: a taken name's form is taken, so a tool that travels
/// as it (`mcp.a.b` beside the taken `mcp/a/b`) is left out, and the form answers as the
/// meta-tool; a taken name answers to itself before another taken name's form.
#[test]
fn a_taken_names_form_is_taken_and_names_beat_forms() {
    let census = Census::build(["mcp.a.b", "x"], &["mcp/a/b", "x/y", "x_y"]);
    let offered: Vec<&str> = census.offered().map(|t| t.name()).collect();
    assert_eq!(offered, ["x"]);
    assert_eq!(census.resolve("mcp_a_b"), Ok(Resolution::Meta("mcp/a/b")));
    assert_eq!(census.resolve("x_y"), Ok(Resolution::Meta("x_y")));
    assert_eq!(census.resolve("x/y"), Ok(Resolution::Meta("x/y")));
}

/// census_resolve: a tool whose real name IS a taken name is one collision entry naming it
/// once (the list is deduplicated), and the census offers nothing under it.
#[test]
fn a_tool_named_exactly_a_taken_name_is_one_collision_name() {
    let census = Census::build(["tool_schema"], &["tool_schema"]);
    assert_eq!(census.offered().count(), 0);
    assert_eq!(census.collisions()["tool_schema"], ["tool_schema"]);
    assert_eq!(
        census.resolve("tool_schema"),
        Ok(Resolution::Meta("tool_schema"))
    );
}

/// What the fuzz run confirmed holds around that case, so a fix keeps it: a safe taken name
/// still beats a tool of that name or form, and the census offers no tool under it.
#[test]
fn a_model_safe_taken_name_still_beats_tools_of_that_name_or_form() {
    let census = Census::build(["tool_schema", "tool/schema"], &["tool_schema"]);
    assert_eq!(census.offered().count(), 0);
    assert_eq!(
        census.resolve("tool_schema"),
        Ok(Resolution::Meta("tool_schema"))
    );
    // A taken name equal to a tool's name is one collision entry naming it once.
    assert_eq!(
        census.collisions()["tool_schema"],
        ["tool/schema", "tool_schema"]
    );
}
