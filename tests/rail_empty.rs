//! The rails over the registered tools in a test binary that links no `#[tool]`: a check that
//! saw nothing fails, and says why (the tools were not linked) and what to do.
//!
//! This file links no tools crate and defines no tool, on purpose: it is the user's
//! `tests/tool_census.rs` in a crate whose tools live in a binary, or whose tools crate the test
//! never names.

use toolwire::schema::Dialect;

#[test]
fn the_census_rail_fails_when_no_tool_is_registered() {
    assert!(
        toolwire::registered_tools().is_empty(),
        "this binary must link no tool"
    );
    let err = toolwire::check_tool_census().unwrap_err();
    assert!(err.saw_no_tools());
    let message = format!("{err:?}");
    assert!(message.starts_with("no registered tools"), "{message}");
    assert!(
        message.contains("use my_tools as _;"),
        "the fix for a tools crate: {message}"
    );
    assert!(
        message.contains("src/main.rs"),
        "the cause for tools in a binary: {message}"
    );
    assert_eq!(
        message,
        err.to_string(),
        "Debug prints the sentences, not a struct"
    );
}

#[test]
fn the_schema_rail_fails_when_no_tool_is_registered() {
    let err = toolwire::rail::check_tool_schemas(&Dialect::ALL).unwrap_err();
    assert!(err.saw_no_tools());
    assert!(err.findings().is_empty());
    let message = format!("{err:?}");
    assert!(message.starts_with("no registered tools"), "{message}");
    assert!(message.contains("use my_tools as _;"), "{message}");
    assert_eq!(
        message,
        err.to_string(),
        "Debug prints the sentences, not a struct"
    );
}
