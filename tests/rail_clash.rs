//! The census rail over two tools-only crates that each compile but share forms once linked
//! together: it fails, naming every shared form and the tools behind it.

use toolwire::{check_tool_census, FormHolder};
use toolwire_fixture_tools_a as _;
use toolwire_fixture_tools_clash as _;

#[test]
fn the_rail_names_every_shared_form_and_its_tools() {
    let shared = check_tool_census().expect_err("tools-a and tools-clash share forms");
    let forms: Vec<(&str, Vec<(&str, &str)>)> = shared
        .forms()
        .iter()
        .map(|(form, holders)| {
            let tools = holders
                .iter()
                .map(|h| match h {
                    FormHolder::Tool {
                        name, module_path, ..
                    } => (name.as_str(), module_path.as_str()),
                    FormHolder::MetaTool { name } => (name.as_str(), "meta"),
                })
                .collect();
            (form.as_str(), tools)
        })
        .collect();
    assert_eq!(
        forms,
        [
            (
                "get_weather",
                vec![
                    ("get_weather", "toolwire_fixture_tools_a"),
                    ("get_weather", "toolwire_fixture_tools_clash"),
                ]
            ),
            (
                "mcp_files_read",
                vec![
                    ("mcp.files.read", "toolwire_fixture_tools_clash"),
                    ("mcp/files/read", "toolwire_fixture_tools_a"),
                ]
            ),
        ]
    );
}

#[test]
fn the_message_says_the_fix_and_where_each_tool_is() {
    let message = check_tool_census().unwrap_err().to_string();
    assert!(
        message.starts_with("2 model-safe forms are shared"),
        "{message}"
    );
    assert!(
        message.contains("rename all but one tool of each"),
        "{message}"
    );
    assert!(
        message.contains(
            "`mcp_files_read`: `mcp.files.read` (toolwire_fixture_tools_clash, fixtures/tools-clash/src/lib.rs:"
        ),
        "{message}"
    );
    // The tool no other crate shares is not named.
    assert!(!message.contains("count_words"), "{message}");
}

#[test]
fn meta_tools_are_in_the_census() {
    // A registration that did not come through #[tool] (which refuses it at compile time).
    fn schema() -> serde_json::Value {
        serde_json::json!({})
    }
    fn handler(_: toolwire::ToolInput) -> toolwire::ToolFuture {
        Box::pin(async { Ok(serde_json::Value::Null) })
    }
    let by_hand = toolwire::ToolRegistration {
        name: "reset/tools",
        form: "reset_tools",
        description: "Resets.",
        schema,
        handler,
        module_path: "by_hand",
        file: "by_hand.rs",
        line: 1,
    };
    let shared = toolwire::check_forms([&by_hand], &toolwire::META_TOOLS).unwrap_err();
    assert_eq!(
        shared.to_string(),
        "1 model-safe form is shared by more than one tool; a request carries it once, so the others can never be called; rename all but one tool of each:\n  `reset_tools`: the meta-tool `reset_tools`, `reset/tools` (by_hand, by_hand.rs:1)\n"
    );
}
