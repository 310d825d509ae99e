//! The spec's own cases (tool-name-wire.md), end to end through the census and resolve.

use serde_json::json;
use toolwire_core::{
    census::{build_sanitized_index, LeftOutReason, Resolution},
    names::DEFAULT_META_TOOLS,
    wire::wire_tools,
    Census, ToolDefinition, WireFormat,
};
use toolwire_test_support::logs::{logs_during, LogEvent};

fn resolved_name<'a>(census: &'a Census, called: &str) -> Option<&'a str> {
    match census.resolve(called) {
        Ok(Resolution::Tool(hit)) => Some(hit.name),
        _ => None,
    }
}

#[test]
fn mcp_server_echo_heals() {
    let census = Census::build(["mcp/server/echo"], &DEFAULT_META_TOOLS);
    assert_eq!(census.tools()[0].form(), "mcp_server_echo");
    assert!(census.tools()[0].is_offered());
    assert_eq!(
        resolved_name(&census, "mcp_server_echo"),
        Some("mcp/server/echo")
    );
    let index = build_sanitized_index(["mcp/server/echo"]);
    assert_eq!(index.healing["mcp_server_echo"], "mcp/server/echo");
}

#[test]
fn three_names_of_one_form_collide_and_none_is_offered() {
    let names = ["mcp/a/b", "mcp/a_b", "mcp_a/b"];
    let census = Census::build(names, &DEFAULT_META_TOOLS);
    assert_eq!(census.offered().count(), 0);
    for tool in census.tools() {
        let Some(LeftOutReason::SharesForm { others }) = tool.left_out_reason() else {
            panic!("{} should share its form", tool.name())
        };
        assert_eq!(others.len(), 2);
        assert!(!others.iter().any(|o| o == tool.name()));
    }
    assert!(
        census.resolve("mcp_a_b").is_err(),
        "a shared form is never a guess"
    );
    // Each is still reachable by its exact real name.
    for name in names {
        assert_eq!(resolved_name(&census, name), Some(name));
    }
    let index = build_sanitized_index(names);
    assert_eq!(
        index.collisions["mcp_a_b"],
        ["mcp/a/b", "mcp/a_b", "mcp_a/b"]
    );
    assert_eq!(index.left_out.len(), 3);
    assert!(index.healing.is_empty());
}

#[test]
fn the_tool_that_is_the_form_keeps_it_and_is_never_remapped() {
    let census = Census::build(["mcp/x", "mcp_x"], &DEFAULT_META_TOOLS);
    assert_eq!(
        census.tools()[0].left_out_reason(),
        Some(&LeftOutReason::FormIsAnotherTool {
            owner: "mcp_x".into()
        })
    );
    assert!(census.tools()[1].is_offered());
    assert_eq!(resolved_name(&census, "mcp_x"), Some("mcp_x"));
    assert_eq!(resolved_name(&census, "mcp/x"), Some("mcp/x"));
    let index = build_sanitized_index(["mcp/x", "mcp_x"]);
    assert_eq!(index.left_out["mcp/x"], "mcp_x");
    assert!(!index.left_out.contains_key("mcp_x"));
    assert_eq!(index.collisions["mcp_x"], ["mcp/x", "mcp_x"]);
}

#[test]
fn a_tool_named_or_travelling_as_a_meta_tool_is_left_out() {
    let census = Census::build(
        ["tool_search", "tool/schema", "reset-tools"],
        &DEFAULT_META_TOOLS,
    );
    let reasons: Vec<_> = census
        .tools()
        .iter()
        .map(|t| t.left_out_reason().cloned())
        .collect();
    assert_eq!(
        reasons,
        [
            Some(LeftOutReason::MetaTool {
                meta: "tool_search".into()
            }),
            Some(LeftOutReason::MetaTool {
                meta: "tool_schema".into()
            }),
            None, // `-` is not `_`: reset-tools is its own form.
        ]
    );
    // The runtime answers the meta names; the left-out tool is still reachable by its real name.
    assert_eq!(
        census.resolve("tool_search"),
        Ok(Resolution::Meta("tool_search"))
    );
    assert_eq!(
        census.resolve("tool_schema"),
        Ok(Resolution::Meta("tool_schema"))
    );
    assert_eq!(resolved_name(&census, "tool/schema"), Some("tool/schema"));
    assert_eq!(
        census.collisions()["tool_schema"],
        ["tool/schema", "tool_schema"]
    );
}

#[test]
fn a_different_taken_set_replaces_the_meta_tools() {
    let census = Census::build(["tool_search", "my/meta"], &["my_meta"]);
    assert!(census.tools()[0].is_offered());
    assert!(!census.tools()[1].is_offered());
    assert_eq!(census.resolve("my_meta"), Ok(Resolution::Meta("my_meta")));
}

#[test]
fn names_already_model_safe_need_no_entry() {
    let index = build_sanitized_index(["echo", "get-sum", "read_file"]);
    assert_eq!(index, Default::default());
}

#[test]
fn a_call_by_real_name_and_a_later_call_by_form_reach_the_same_tool() {
    let census = Census::build(["mcp/fs/read_file", "echo"], &DEFAULT_META_TOOLS);
    let turn1 = census.resolve("mcp/fs/read_file").unwrap();
    let turn2 = census.resolve("mcp_fs_read_file").unwrap();
    let (Resolution::Tool(a), Resolution::Tool(b)) = (turn1, turn2) else {
        panic!()
    };
    assert_eq!((a.index, a.name), (b.index, b.name));
    assert_ne!(a.via, b.via);
}

#[test]
fn empty_and_duplicate_names_are_left_out_with_their_reason() {
    let census = Census::build(["", "a", "a"], &DEFAULT_META_TOOLS);
    assert_eq!(
        census.tools()[0].left_out_reason(),
        Some(&LeftOutReason::EmptyName)
    );
    assert!(census.tools()[1].is_offered());
    assert_eq!(
        census.tools()[2].left_out_reason(),
        Some(&LeftOutReason::DuplicateName { first: 1 })
    );
    assert_eq!(census.duplicates(), ["a"]);
    assert!(census.resolve("").is_err());
    let Ok(Resolution::Tool(hit)) = census.resolve("a") else {
        panic!()
    };
    assert_eq!(hit.index, 1);
    // The empty name given twice: one empty-name tool and one duplicate (found by the
    // differential test against the Python model).
    let census = Census::build(["", ""], &DEFAULT_META_TOOLS);
    assert_eq!(
        census.tools()[0].left_out_reason(),
        Some(&LeftOutReason::EmptyName)
    );
    assert_eq!(
        census.tools()[1].left_out_reason(),
        Some(&LeftOutReason::DuplicateName { first: 0 })
    );
    assert_eq!(census.duplicates(), [""]);
}

#[test]
fn names_longer_than_64_that_agree_in_64_collide() {
    let base = "n".repeat(64);
    let (a, b) = (format!("{base}_alpha"), format!("{base}_beta"));
    let census = Census::build([&a, &b], &DEFAULT_META_TOOLS);
    assert_eq!(census.offered().count(), 0);
    assert_eq!(census.collisions()[&base], [a.clone(), b.clone()]);
    // A lone long name heals through its 64-character form.
    let census = Census::build([&a], &DEFAULT_META_TOOLS);
    assert_eq!(resolved_name(&census, &base), Some(a.as_str()));
}

#[test]
fn an_unknown_name_suggests_the_closest_offered_forms() {
    let census = Census::build(["mcp/web/search", "mcp/fs/read"], &DEFAULT_META_TOOLS);
    let err = census.resolve("mcp_web_serch").unwrap_err();
    assert_eq!(err.called, "mcp_web_serch");
    assert_eq!(census.closest_offered(&err.called, 1), ["mcp_web_search"]);
}

#[test]
fn an_unknown_bare_name_suggests_the_forms_that_end_with_or_contain_it_first() {
    // Issue 17, point 9: `echo` was answered with `set_stock` and `files_read`, which are closer
    // by edit distance than `mcp_everything_echo`.
    let census = Census::build(
        [
            "mcp/everything/echo",
            "mcp/everything/echo_twice",
            "set_stock",
            "files/read",
        ],
        &DEFAULT_META_TOOLS,
    );
    let err = census.resolve("echo").unwrap_err();
    assert_eq!(
        census.closest_offered(&err.called, 3),
        [
            "mcp_everything_echo",
            "mcp_everything_echo_twice",
            "set_stock"
        ]
    );
}

#[test]
fn wire_shapes_carry_only_offered_tools_under_their_form_verbatim() {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string", "description": "query"}}, "required": ["q"]});
    let defs = vec![
        ToolDefinition::new("mcp/web/search", "Searches the web.", schema.clone()),
        ToolDefinition::new("mcp/a/b", "one", json!(null)),
        ToolDefinition::new("mcp/a_b", "two", json!(null)),
        ToolDefinition::new("ping", "Pings.", json!({})),
    ];
    let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
    let empty = json!({"type": "object", "properties": {}});

    let openai = wire_tools(&census, &defs, WireFormat::OpenAi).unwrap();
    assert_eq!(
        openai,
        json!([
            {"type": "function", "function": {"name": "mcp_web_search", "description": "Searches the web.", "parameters": schema}},
            {"type": "function", "function": {"name": "ping", "description": "Pings.", "parameters": empty}},
        ])
    );
    let anthropic = wire_tools(&census, &defs, WireFormat::Anthropic).unwrap();
    assert_eq!(
        anthropic[0],
        json!({"name": "mcp_web_search", "description": "Searches the web.", "input_schema": schema})
    );
    let converse = wire_tools(&census, &defs, WireFormat::Converse).unwrap();
    assert_eq!(
        converse[1],
        json!({"toolSpec": {"name": "ping", "description": "Pings.", "inputSchema": {"json": empty}}})
    );
    let undescribed = [ToolDefinition::new("mcp/s/quiet", "", json!({}))];
    let quiet = Census::build(["mcp/s/quiet"], &DEFAULT_META_TOOLS);
    let converse = wire_tools(&quiet, &undescribed, WireFormat::Converse).unwrap();
    assert_eq!(converse[0]["toolSpec"]["description"], "mcp/s/quiet");
    let openai = wire_tools(&quiet, &undescribed, WireFormat::OpenAi).unwrap();
    assert_eq!(openai[0]["function"]["description"], "");
    let gemini = wire_tools(&census, &defs, WireFormat::Gemini).unwrap();
    assert_eq!(
        gemini[0]["functionDeclarations"][0]["name"],
        "mcp_web_search"
    );
    assert_eq!(
        gemini[0]["functionDeclarations"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn a_form_gemini_refuses_stays_out_of_the_gemini_list_only() {
    let defs = vec![
        ToolDefinition::new("3d-render", "Renders.", json!({})),
        ToolDefinition::new("mcp/a/b", "Fine.", json!({})),
    ];
    let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
    let gemini = wire_tools(&census, &defs, WireFormat::Gemini).unwrap();
    let names: Vec<&str> = gemini[0]["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["mcp_a_b"]);
    let openai = wire_tools(&census, &defs, WireFormat::OpenAi).unwrap();
    assert_eq!(openai.as_array().unwrap().len(), 2);
}

#[test]
fn building_logs_one_warning_per_shared_form_naming_the_tools_and_saying_rename() {
    let ((), logs) = logs_during(|| {
        Census::build(
            [
                "mcp/a/b",
                "mcp/a_b",
                "mcp/x",
                "mcp_x",
                "tool/search",
                "fine",
            ],
            &DEFAULT_META_TOOLS,
        );
    });
    let log = logs.text();
    let warnings: Vec<String> = logs.warnings().iter().map(LogEvent::line).collect();
    assert_eq!(warnings.len(), 3, "{log}");
    let for_form = |form: &str| {
        warnings
            .iter()
            .find(|l| l.contains(&format!("form `{form}`")))
            .unwrap_or_else(|| panic!("no warning for {form}: {log}"))
            .to_string()
    };
    let ab = for_form("mcp_a_b");
    assert!(ab.contains("mcp/a/b") && ab.contains("mcp/a_b") && ab.contains("rename"));
    assert!(for_form("mcp_x").contains("mcp/x"));
    assert!(for_form("tool_search").contains("tool/search"));
    assert!(!log.contains("fine"));
}
