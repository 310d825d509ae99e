//! The census rail over two tools-only crates that each compile but share forms once linked
//! together: it fails, naming every shared form and the tools behind it.

use toolwire::{check_tool_census, rail::FormHolder};
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
    fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture {
        Box::pin(async { Ok(serde_json::Value::Null) })
    }
    let by_hand = toolwire::tools::ToolRegistration {
        name: "reset/tools",
        form: "reset_tools",
        description: "Resets.",
        schema,
        handler,
        module_path: "by_hand",
        file: "by_hand.rs",
        line: 1,
        validates_arguments: false,
    };
    let shared =
        toolwire::rail::check_forms([&by_hand], &toolwire::names::DEFAULT_META_TOOLS).unwrap_err();
    assert_eq!(
        shared.to_string(),
        "1 model-safe form is shared by more than one tool; a request carries it once, so the others can never be called; rename all but one tool of each:\n  `reset_tools`: the meta-tool `reset_tools`, `reset/tools` (by_hand, by_hand.rs:1)\n"
    );
}

#[test]
fn a_name_given_by_two_crates_is_said_with_both_crates_and_files() {
    let shared = check_tool_census().unwrap_err();
    let givers: Vec<(&str, &str)> = shared.duplicates()["get_weather"]
        .iter()
        .map(|h| match h {
            FormHolder::Tool {
                module_path, file, ..
            } => (module_path.as_str(), file.as_str()),
            FormHolder::MetaTool { name } => panic!("the meta-tool {name} gives no real name"),
        })
        .collect();
    assert_eq!(
        givers,
        [
            ("toolwire_fixture_tools_a", "fixtures/tools-a/src/lib.rs"),
            (
                "toolwire_fixture_tools_clash",
                "fixtures/tools-clash/src/lib.rs"
            ),
        ]
    );
    assert_eq!(shared.duplicates().len(), 1, "{shared}");
    let message = shared.to_string();
    let line = message
        .lines()
        .find(|l| l.starts_with("  `get_weather`:"))
        .unwrap_or_else(|| panic!("{message}"));
    assert!(
        line.ends_with(
            "; `get_weather` is one real name given by 2 tools, so a request carries only one"
        ),
        "{line}"
    );
    // A shared form of two different names is not called a duplicate.
    assert!(
        !message.contains("`mcp.files.read` is one real name"),
        "{message}"
    );
}

#[test]
fn the_rail_leaves_out_exactly_what_the_census_leaves_out() {
    let tools = toolwire::registered_tools();
    let census = toolwire::Census::build(
        tools.iter().map(|t| t.name),
        &toolwire::names::DEFAULT_META_TOOLS,
    );
    let expected: Vec<(&str, &toolwire::census::LeftOutReason)> = census
        .left_out()
        .map(|t| (t.name(), t.left_out_reason().expect("left out")))
        .collect();
    let shared = check_tool_census().unwrap_err();
    let got: Vec<(&str, &toolwire::census::LeftOutReason)> = shared
        .left_out()
        .iter()
        .map(|(holder, reason)| (holder.name(), reason))
        .collect();
    assert_eq!(got, expected);
    // Three tools are left out: the second `get_weather`, and both tools of `mcp_files_read`.
    assert_eq!(got.len(), 3, "{got:?}");
}

/// A registration made by hand (not through `#[tool]`, which refuses these at compile time).
fn by_hand(name: &'static str, line: u32) -> toolwire::tools::ToolRegistration {
    fn schema() -> serde_json::Value {
        serde_json::json!({})
    }
    fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture {
        Box::pin(async { Ok(serde_json::Value::Null) })
    }
    toolwire::tools::ToolRegistration {
        name,
        form: "",
        description: "By hand.",
        schema,
        handler,
        module_path: "by_hand",
        file: "by_hand.rs",
        line,
        validates_arguments: false,
    }
}

#[test]
fn what_the_census_keeps_the_rail_passes_and_what_it_drops_the_rail_names() {
    // Two taken names with one form leave no tool out: the census offers `a_b`, so does the rail.
    let tool = by_hand("a_b_c", 1);
    assert!(toolwire::rail::check_forms([&tool], &["a.b", "a_b"]).is_ok());

    // An empty name is left out by the census though it shares no form: the rail names it.
    let empty = by_hand("", 2);
    let shared = toolwire::rail::check_forms([&empty, &tool], &toolwire::names::DEFAULT_META_TOOLS)
        .unwrap_err();
    assert_eq!(
        shared.to_string(),
        "1 model-safe form is left out of every request; rename the tools behind it:\n  ``: `` (by_hand, by_hand.rs:2); an empty name: no provider accepts it\n"
    );
    assert_eq!(
        shared.left_out(),
        [(
            FormHolder::Tool {
                name: String::new(),
                module_path: "by_hand".into(),
                file: "by_hand.rs".into(),
                line: 2
            },
            toolwire::census::LeftOutReason::EmptyName
        )]
    );
}
