//! What a turn costs and logs when nothing changed (issue 10): the census, the definitions and
//! each wire list are built once per change of the tool set and shared, and the census's one
//! warning per shared form fires once per change, not once per turn.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::{runtime::ToolList, ToolRuntime, WireFormat};
use toolwire_test_support::logs::{capture_logs, LogEvent, Logs};
use toolwire_test_support::providers::{echo, echo_provider, tools};

/// How many warnings named each form, sorted by form.
fn per_form(logs: &Logs) -> Vec<(String, usize)> {
    let mut counts = std::collections::BTreeMap::new();
    for warning in logs.warnings() {
        if let Some(form) = warning.field("form") {
            *counts.entry(form.to_owned()).or_insert(0) += 1;
        }
    }
    counts.into_iter().collect()
}

/// One turn as an app runs it: a request, its tool lists, a call, and the Tools page.
async fn turn(runtime: &ToolRuntime) {
    let request = runtime.request();
    let openai = request.tools(WireFormat::OpenAi).unwrap();
    let anthropic = request.tools(WireFormat::Anthropic).unwrap();
    // What the census leaves out is the same in every format that takes every form.
    assert_eq!(openai.left_out(), anthropic.left_out());
    let out = request.dispatch("mcp_a_ok", json!({})).await.unwrap();
    assert_eq!(out.output.to_value()["tool"], "mcp/a/ok");
    runtime.report();
}

#[tokio::test]
async fn each_shared_form_is_logged_once_per_change_of_the_tool_set_not_per_turn() {
    let (logs, _capturing) = capture_logs();

    let runtime = ToolRuntime::new();
    // Three shared forms across two providers: `mcp_x_echo` (neither is its form: both left
    // out), `search_web` (the owner rule: `search_web` keeps it) and `tool_search` (a meta-tool).
    runtime
        .add_provider(echo("a", &["mcp/a/ok", "mcp/x/echo", "search.web"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    let grown = Arc::new(AtomicBool::new(false));
    let b_lists = grown.clone();
    let b = echo_provider("b", Vec::new()).with_list(move || {
        let mut names = vec!["mcp/x_echo", "search_web", "tool/search"];
        if b_lists.load(Ordering::SeqCst) {
            names.push("mcp/b/new");
        }
        Ok(tools(&names))
    });
    runtime
        .add_provider(Arc::new(b))
        .await
        .unwrap()
        .check()
        .unwrap();
    // A provider whose own tools clash: a load failure, logged once, and its form once.
    let status = runtime
        .add_provider(echo("c", &["mcp/c/a.b", "mcp/c/a_b"]))
        .await
        .unwrap();
    assert!(format!("{status:?}").contains("SharedForm"), "{status:?}");
    let load_failures = |w: &[LogEvent]| {
        w.iter()
            .filter(|w| w.message.contains("provider load failed"))
            .count()
    };
    assert_eq!(load_failures(&logs.warnings()), 1);

    let shared_forms = |n: usize| {
        ["mcp_c_a_b", "mcp_x_echo", "search_web", "tool_search"]
            .map(|form| (form.to_owned(), n))
            .to_vec()
    };
    turn(&runtime).await;
    assert_eq!(per_form(&logs), shared_forms(1));
    let after_one_turn = logs.warnings().len();
    for _ in 1..10 {
        turn(&runtime).await;
    }
    assert_eq!(per_form(&logs), shared_forms(1), "{:#?}", logs.warnings());
    assert_eq!(
        logs.warnings().len(),
        after_one_turn,
        "{:#?}",
        logs.warnings()
    );

    // A switch withholds a tool; the forms do not change, so nothing is logged again. Nor when
    // an add or a removal changes nothing.
    runtime.set_enabled("search_web", false);
    turn(&runtime).await;
    runtime.set_enabled("search_web", true);
    turn(&runtime).await;
    assert!(runtime
        .add_provider(echo("a", &["mcp/a/ok"]))
        .await
        .is_err());
    assert!(!runtime.remove_provider("nope"));
    turn(&runtime).await;
    assert_eq!(
        logs.warnings().len(),
        after_one_turn,
        "{:#?}",
        logs.warnings()
    );

    // A reload that changes the tool set: each shared form is logged once more, then not again.
    grown.store(true, Ordering::SeqCst);
    runtime.reload_provider("b").await.unwrap().check().unwrap();
    assert!(runtime
        .request()
        .census()
        .offered()
        .any(|t| t.name() == "mcp/b/new"));
    for _ in 0..10 {
        turn(&runtime).await;
    }
    assert_eq!(per_form(&logs), shared_forms(2), "{:#?}", logs.warnings());
    assert_eq!(load_failures(&logs.warnings()), 1);
}

#[tokio::test]
async fn a_turn_with_nothing_changed_shares_the_census_the_definitions_and_each_list() {
    // No meta-tools: the list's length is the count of offered tools.
    let runtime = ToolRuntime::builder().meta_tools([]).build().unwrap();
    runtime
        .add_provider(echo("a", &["mcp/a/ok", "mcp/a/other"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    let list = |r: &toolwire_core::Request| r.tools(WireFormat::OpenAi).unwrap();
    let (first, second) = (runtime.request(), runtime.request());
    assert!(std::ptr::eq(first.census(), second.census()));
    assert!(std::ptr::eq(first.definitions(), second.definitions()));
    assert!(ToolList::ptr_eq(&list(&first), &list(&second)));

    // A switch: a new census (the tool is withheld), the same definitions, a new list.
    runtime.set_enabled("mcp/a/other", false);
    let switched = runtime.request();
    assert!(!std::ptr::eq(first.census(), switched.census()));
    assert!(std::ptr::eq(first.definitions(), switched.definitions()));
    assert_eq!(list(&switched).as_array().unwrap().len(), 1);
    // The earlier request keeps what it was built with.
    assert_eq!(list(&first).as_array().unwrap().len(), 2);

    // A reload: everything is built again, once.
    runtime.reload_provider("a").await.unwrap().check().unwrap();
    let (reloaded, again) = (runtime.request(), runtime.request());
    assert!(!std::ptr::eq(
        switched.definitions(),
        reloaded.definitions()
    ));
    assert!(std::ptr::eq(reloaded.census(), again.census()));
    assert!(ToolList::ptr_eq(&list(&reloaded), &list(&again)));
    let as_value: Value = list(&again).into_value();
    assert_eq!(as_value, *list(&reloaded));
}
