//! The whole journey against a real MCP server over stdio (the workspace's fixture server):
//! census, wire shapes, dispatch by real name and by form, faults, reload, and a scripted
//! model driving several turns.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use toolwire_core::*;

const LONG: &str = "a_tool_name_that_is_seventy_characters_long_so_the_form_must_cut_it_xy";

/// The call timeout of every fixture provider but one: a bound on a hang, never a duration a
/// test measures (a shared 2-core machine can be slow, but not a minute slow).
const HANG_BOUND: Duration = Duration::from_secs(60);

/// A `sleep` that never ends within a test: the fixture's stand-in for a server that hangs.
const FOREVER_MS: u64 = 24 * 60 * 60 * 1000;

async fn fixture(server: &str, args: &[&str]) -> Arc<McpProvider> {
    fixture_with_timeout(server, args, HANG_BOUND).await
}

async fn fixture_with_timeout(server: &str, args: &[&str], timeout: Duration) -> Arc<McpProvider> {
    let mut command = McpCommand::new(support::fixture_server().to_string_lossy());
    for a in args {
        command = command.arg(*a);
    }
    Arc::new(
        McpProvider::spawn(server, command)
            .await
            .expect("the fixture server starts")
            .with_call_timeout(timeout),
    )
}

/// A runtime with one fixture server per name (`mcp/<name>/...`).
async fn runtime_with(servers: &[&str]) -> ToolRuntime {
    let runtime = ToolRuntime::new();
    for server in servers {
        runtime
            .add_provider(fixture(server, &[]).await)
            .await
            .unwrap();
    }
    runtime
}

fn status_of<'a>(report: &'a ToolsReport, tool: &str) -> &'a ToolReport {
    report
        .tools
        .iter()
        .find(|t| t.name == tool)
        .unwrap_or_else(|| panic!("{tool} is not in the report"))
}

#[tokio::test]
async fn census_of_a_real_server_with_hard_names() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("hard", &[]).await)
        .await
        .unwrap();
    // `search.web` and `search_web` travel as one form: the provider's load is failed, naming both.
    let LoadStatus::Failed { problems } = &status else {
        panic!("{status:?}")
    };
    assert_eq!(
        problems,
        &[LoadProblem::SharedForm {
            form: "mcp_hard_search_web".into(),
            tools: vec!["mcp/hard/search.web".into(), "mcp/hard/search_web".into()],
        }]
    );
    let request = runtime.request();
    let offered: Vec<&str> = request.census().offered().map(|t| t.form()).collect();
    assert!(offered.contains(&"mcp_hard_files_read"));
    assert!(
        offered.contains(&"mcp_hard_tool_search"),
        "prefixed, it is no meta-tool"
    );
    assert!(!offered.contains(&"mcp_hard_search_web"));
    assert_eq!(LONG.chars().count(), 70);
    let long_form = model_safe_name(&format!("mcp/hard/{LONG}")).into_owned();
    assert_eq!(long_form.len(), 64);
    assert!(offered.contains(&long_form.as_str()));

    // Converse refuses an empty description: the undescribed tool still travels, verbatim.
    let converse = request.tools(WireFormat::Converse).unwrap();
    let names: Vec<&str> = converse
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["toolSpec"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), offered.len());
    for name in names {
        assert_eq!(check_definition_name(Provider::Converse, name), Ok(()));
    }

    let report = runtime.report();
    assert_eq!(
        status_of(&report, "mcp/hard/search.web").status,
        ReportStatus::LeftOut
    );
    assert_eq!(
        status_of(&report, "mcp/hard/files/read").status,
        ReportStatus::Offered
    );
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["providers"][0]["status"]["state"], "failed");
    assert_eq!(
        json["providers"][0]["status"]["problems"][0]["kind"],
        "shared_form"
    );
}

#[tokio::test]
async fn a_call_by_real_name_and_by_form_reach_the_same_server_tool() {
    let runtime = runtime_with(&["hard"]).await;
    let request = runtime.request();
    for (called, route) in [
        ("mcp/hard/files/read", Route::Exact),
        ("mcp_hard_files_read", Route::Form),
    ] {
        let out = request
            .dispatch(called, json!({"path": "/etc/hosts"}))
            .await
            .unwrap();
        assert_eq!(out.tool, "mcp/hard/files/read");
        assert_eq!(out.route, route);
        assert_eq!(out.provider, "mcp/hard");
        assert_eq!(
            out.output["tool"], "files/read",
            "the server saw its own bare name"
        );
        assert_eq!(out.output["arguments"]["path"], "/etc/hosts");
    }
    // The 70-character tool by its 64-character form.
    let long_form = model_safe_name(&format!("mcp/hard/{LONG}")).into_owned();
    let out = request.dispatch(&long_form, json!({})).await.unwrap();
    assert_eq!(out.output["tool"], LONG);
    // The two tools that share a form: each by its exact name, never by the form.
    let out = request
        .dispatch("mcp/hard/search_web", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(out.output["tool"], "search_web");
    let out = request
        .dispatch("mcp/hard/search.web", json!({"query": "q"}))
        .await
        .unwrap();
    assert_eq!(out.output["tool"], "search.web");
    let err = request
        .dispatch("mcp_hard_search_web", json!({}))
        .await
        .unwrap_err();
    assert!(matches!(err, DispatchError::UnknownTool { .. }), "{err}");
}

#[tokio::test]
async fn bad_arguments_and_tool_errors_are_typed_and_name_the_tool() {
    let runtime = runtime_with(&["hard"]).await;
    let request = runtime.request();
    let err = request
        .dispatch_json("mcp_hard_files_read", "{not json")
        .await
        .unwrap_err();
    let DispatchError::Tool(ToolError::InvalidArguments { tool, reason, .. }) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(tool, "mcp/hard/files/read");
    assert!(reason.contains("not valid JSON"));

    let err = request
        .dispatch("mcp_hard_files_read", json!([1]))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        DispatchError::Tool(ToolError::InvalidArguments { .. })
    ));

    // The server refuses a call without `path`: a tool error, and the server keeps working.
    let err = request
        .dispatch("mcp_hard_files_read", json!({}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("`mcp/hard/files/read`"), "{err}");
    assert!(err.to_string().contains("path"), "{err}");
    let err = request
        .dispatch("mcp/hard/fail", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        DispatchError::Tool(ToolError::Failed {
            tool: "mcp/hard/fail".into(),
            message: "this tool always fails".into()
        })
    );
    let err = request
        .dispatch("mcp_hard_files_raed", json!({}))
        .await
        .unwrap_err();
    let DispatchError::UnknownTool { closest, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(closest[0], "mcp_hard_files_read");
    assert!(request.dispatch("mcp/hard/echo", json!({})).await.is_ok());
}

#[tokio::test]
async fn a_crashed_server_fails_only_its_tools_and_can_be_reloaded() {
    let runtime = runtime_with(&["crashy", "steady"]).await;
    let request = runtime.request();
    let err = request
        .dispatch("mcp_crashy_crash", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, DispatchError::Tool(ToolError::Unavailable { tool, provider, .. }) if tool == "mcp/crashy/crash" && provider == "mcp/crashy"),
        "{err:?}"
    );
    assert!(matches!(
        runtime.provider_status("mcp/crashy"),
        Some(LoadStatus::Failed { .. })
    ));
    // The other provider keeps working, on this request and the next.
    assert!(request.dispatch("mcp_steady_echo", json!({})).await.is_ok());
    let next = runtime.request();
    assert!(next
        .census()
        .offered()
        .all(|t| !t.name().starts_with("mcp/crashy/")));
    assert!(next.dispatch("mcp_steady_echo", json!({})).await.is_ok());
    // A call from history to the down server's tool names it, by either name.
    for called in ["mcp_crashy_echo", "mcp/crashy/echo"] {
        let err = next.dispatch(called, json!({})).await.unwrap_err();
        assert!(
            matches!(&err, DispatchError::Tool(ToolError::Unavailable { tool, .. }) if tool == "mcp/crashy/echo"),
            "{err:?}"
        );
    }
    assert_eq!(
        status_of(&runtime.report(), "mcp/crashy/echo").status,
        ReportStatus::Unavailable
    );
    // Reloaded, it answers again.
    assert_eq!(
        runtime.reload_provider("mcp/crashy").await.unwrap(),
        runtime.provider_status("mcp/crashy").unwrap()
    );
    let out = runtime
        .request()
        .dispatch("mcp_crashy_echo", json!({"n": 1}))
        .await
        .unwrap();
    assert_eq!(out.output["arguments"]["n"], 1);
}

#[tokio::test]
async fn a_hung_server_times_out_and_is_marked_failed() {
    // The one short timeout: this test needs it to fire, on a call that never ends. The calls
    // after the reload answer at once, so for them it is still a generous bound on a hang.
    let timeout = Duration::from_secs(5);
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(fixture_with_timeout("slow", &[], timeout).await)
        .await
        .unwrap();
    runtime
        .add_provider(fixture("quick", &[]).await)
        .await
        .unwrap();
    let request = runtime.request();
    let err = request
        .dispatch("mcp_slow_sleep", json!({"ms": FOREVER_MS}))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        DispatchError::Tool(ToolError::TimedOut {
            tool: "mcp/slow/sleep".into(),
            provider: "mcp/slow".into(),
            millis: 5000
        })
    );
    assert!(request
        .dispatch("mcp_quick_sleep", json!({"ms": 1}))
        .await
        .is_ok());
    runtime.reload_provider("mcp/slow").await.unwrap();
    assert!(runtime
        .request()
        .dispatch("mcp_slow_sleep", json!({"ms": 1}))
        .await
        .is_ok());
}

#[tokio::test]
async fn a_server_listing_duplicate_and_empty_names_fails_its_load_but_serves_the_rest() {
    let runtime = ToolRuntime::new();
    let status = runtime
        .add_provider(fixture("bad", &["--bad-names"]).await)
        .await
        .unwrap();
    let LoadStatus::Failed { problems } = status else {
        panic!()
    };
    assert!(problems.contains(&LoadProblem::DuplicateName {
        name: "mcp/bad/echo".into()
    }));
    assert!(problems.contains(&LoadProblem::EmptyName), "{problems:?}");
    let census = runtime.request();
    assert_eq!(
        census
            .census()
            .tools()
            .iter()
            .filter(|t| t.name() == "mcp/bad/echo")
            .count(),
        2
    );
    assert_eq!(
        census
            .census()
            .offered()
            .filter(|t| t.name() == "mcp/bad/echo")
            .count(),
        1
    );
    assert!(census
        .census()
        .tools()
        .iter()
        .any(|t| t.left_out_reason() == Some(&LeftOutReason::EmptyName)));
    // The report shows each listed tool once, in order: the second `echo` as the duplicate.
    let echoes: Vec<ReportStatus> = runtime
        .report()
        .tools
        .iter()
        .filter(|t| t.name == "mcp/bad/echo")
        .map(|t| t.status)
        .collect();
    assert_eq!(echoes, [ReportStatus::Offered, ReportStatus::LeftOut]);
    assert!(runtime
        .request()
        .dispatch("mcp_bad_files_read", json!({"path": "x"}))
        .await
        .is_ok());
}

#[tokio::test]
async fn an_unstartable_server_is_a_typed_error() {
    let err = McpProvider::spawn("nope", McpCommand::new("/nonexistent/mcp-server"))
        .await
        .unwrap_err();
    assert_eq!(err.provider, "mcp/nope");
    assert!(err.to_string().contains("/nonexistent/mcp-server"), "{err}");
    let err = list_server_tools("/nonexistent/mcp-server", &[])
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Spawn { .. }));
}

#[tokio::test]
async fn list_server_tools_gives_bare_names() {
    let tools = list_server_tools(&support::fixture_server().to_string_lossy(), &[])
        .await
        .unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for name in [
        "search.web",
        "search_web",
        "files/read",
        "tool_search",
        LONG,
        "undescribed",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let undescribed = tools.iter().find(|t| t.name == "undescribed").unwrap();
    assert_eq!(undescribed.description, "");
}

/// The one test double: a model that only replays scripted tool calls, one list per turn,
/// and keeps its history exactly as it "sent" it.
struct ScriptedModel {
    turns: Vec<Vec<(&'static str, Value)>>,
    history: Vec<(String, Result<Value, String>)>,
}

impl ScriptedModel {
    async fn run_turn(&mut self, turn: usize, request: &Request) {
        for (called, args) in self.turns[turn].clone() {
            let result = request
                .dispatch(called, args)
                .await
                .map(|o| json!({"tool": o.tool, "output": o.output}))
                .map_err(|e| e.to_string());
            self.history.push((called.to_owned(), result));
        }
    }
}

#[tokio::test]
async fn a_scripted_model_over_turns_reaches_the_same_tool_and_a_later_clash_is_unknown() {
    let runtime = runtime_with(&["srv"]).await;
    let mut model = ScriptedModel {
        turns: vec![
            vec![("mcp/srv/echo", json!({"turn": 1}))],
            vec![("mcp_srv_echo", json!({"turn": 2}))],
            vec![("mcp_srv_echo", json!({"turn": 3}))],
        ],
        history: Vec::new(),
    };
    model.run_turn(0, &runtime.request()).await;
    model.run_turn(1, &runtime.request()).await;
    let reached: Vec<&Value> = model
        .history
        .iter()
        .map(|(_, r)| r.as_ref().unwrap())
        .collect();
    assert_eq!(reached[0]["tool"], "mcp/srv/echo");
    assert_eq!(reached[1]["tool"], "mcp/srv/echo");
    assert_eq!(reached[1]["output"]["arguments"]["turn"], 2);

    // A provider added between turns whose tool `mcp_srv/echo` travels as the same form.
    struct Clasher;
    impl ToolProvider for Clasher {
        fn name(&self) -> &str {
            "clasher"
        }
        fn list_tools(
            &self,
        ) -> futures::future::BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
            Box::pin(async {
                Ok(vec![ToolDefinition::new(
                    "mcp_srv/echo",
                    "Clashes.",
                    json!({}),
                )])
            })
        }
        fn call<'a>(
            &'a self,
            _: &'a str,
            _: Value,
        ) -> futures::future::BoxFuture<'a, Result<Value, ToolError>> {
            Box::pin(async { Ok(json!({"tool": "the wrong one"})) })
        }
    }
    runtime.add_provider(Arc::new(Clasher)).await.unwrap();
    let before: Vec<String> = model.history.iter().map(|(c, _)| c.clone()).collect();
    model.run_turn(2, &runtime.request()).await;
    let (called, result) = model.history.last().unwrap();
    assert_eq!(called, "mcp_srv_echo");
    let err = result.as_ref().unwrap_err();
    assert!(err.contains("unknown tool `mcp_srv_echo`"), "{err}");
    // History is as the model sent it, never rewritten.
    let after: Vec<String> = model.history.iter().map(|(c, _)| c.clone()).collect();
    assert_eq!(&after[..2], &before[..]);
    assert_eq!(after, ["mcp/srv/echo", "mcp_srv_echo", "mcp_srv_echo"]);
}

#[tokio::test]
async fn the_approval_hook_and_switches_see_the_real_name() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let runtime = ToolRuntime::builder()
        .approval(move |req| {
            log.lock()
                .unwrap()
                .push((req.tool.to_owned(), req.called.to_owned()));
            req.tool != "mcp/appr/fail"
        })
        .build();
    runtime
        .add_provider(fixture("appr", &[]).await)
        .await
        .unwrap();
    let request = runtime.request();
    request.dispatch("mcp_appr_echo", json!({})).await.unwrap();
    let err = request
        .dispatch("mcp_appr_fail", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        DispatchError::Denied {
            tool: "mcp/appr/fail".into()
        }
    );
    assert_eq!(
        *seen.lock().unwrap(),
        [
            ("mcp/appr/echo".to_owned(), "mcp_appr_echo".to_owned()),
            ("mcp/appr/fail".to_owned(), "mcp_appr_fail".to_owned())
        ]
    );
    // Switched off by real name, the tool is unreachable by either name on this request...
    runtime.set_enabled("mcp/appr/echo", false);
    for called in ["mcp_appr_echo", "mcp/appr/echo"] {
        let err = request.dispatch(called, json!({})).await.unwrap_err();
        assert_eq!(
            err,
            DispatchError::Disabled {
                tool: "mcp/appr/echo".into()
            }
        );
    }
    // ...and not offered by the next one (it is withheld, keeping its names).
    let next = runtime.request();
    assert!(next.census().offered().all(|t| t.name() != "mcp/appr/echo"));
    // A call from an earlier turn's history, by either name, is told the tool is switched off.
    for called in ["mcp_appr_echo", "mcp/appr/echo"] {
        let err = next.dispatch(called, json!({})).await.unwrap_err();
        assert_eq!(
            err,
            DispatchError::Disabled {
                tool: "mcp/appr/echo".into()
            }
        );
    }
    assert_eq!(
        status_of(&runtime.report(), "mcp/appr/echo").status,
        ReportStatus::Disabled
    );
    runtime.set_enabled("mcp/appr/echo", true);
    assert!(runtime
        .request()
        .dispatch("mcp_appr_echo", json!({}))
        .await
        .is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_race_provider_adds_and_removes_and_each_reaches_its_tool_or_fails_cleanly() {
    let runtime = runtime_with(&["base"]).await;
    let extra = fixture("extra", &[]).await;
    // What loading the extra server says every time it is running: its two search tools share a
    // form (the fixture's hard names).
    let extra_loaded = LoadStatus::Failed {
        problems: vec![LoadProblem::SharedForm {
            form: "mcp_extra_search_web".into(),
            tools: vec!["mcp/extra/search.web".into(), "mcp/extra/search_web".into()],
        }],
    };
    let wrong = Arc::new(AtomicUsize::new(0));
    let mut calls = Vec::new();
    for i in 0..40 {
        let caller = runtime.clone();
        let wrong = wrong.clone();
        calls.push(tokio::spawn(async move {
            let runtime = caller;
            let request = runtime.request();
            let called = if i % 2 == 0 {
                "mcp_base_echo"
            } else {
                "mcp_extra_echo"
            };
            let reached = match request.dispatch(called, json!({"i": i})).await {
                Ok(out) => {
                    let expected = if i % 2 == 0 {
                        "mcp/base/echo"
                    } else {
                        "mcp/extra/echo"
                    };
                    if out.tool != expected || out.output["arguments"]["i"] != i {
                        wrong.fetch_add(1, Ordering::SeqCst);
                    }
                    true
                }
                Err(DispatchError::UnknownTool { .. } | DispatchError::ProviderRemoved { .. }) => {
                    false
                }
                // Removed (so shut down) while the call was in flight: typed, naming the tool.
                Err(DispatchError::Tool(ToolError::Unavailable { tool, .. }))
                    if tool == "mcp/extra/echo" =>
                {
                    false
                }
                Err(other) => panic!("unclean failure: {other}"),
            };
            (i, reached)
        }));
        if i % 5 == 0 {
            // Absent before the first add; every later time, added back at i % 5 == 2.
            assert_eq!(runtime.remove_provider("mcp/extra"), i > 0);
        } else if i % 5 == 2 {
            // Removed just before (or never added), so the name is free.
            let added = runtime.add_provider(extra.clone()).await.unwrap();
            if i == 2 {
                assert_eq!(added, extra_loaded);
            } else {
                // Removal shut the server down: the add finds it stopped...
                assert!(
                    matches!(&added, LoadStatus::Failed { problems }
                        if matches!(problems[..], [LoadProblem::Unreachable { .. }])),
                    "{added:?}"
                );
            }
            // ...and a reload restarts it.
            assert_eq!(
                runtime.reload_provider("mcp/extra").await,
                Ok(extra_loaded.clone())
            );
        }
    }
    let mut base_failed = Vec::new();
    for call in calls {
        let (i, reached) = call.await.unwrap();
        if i % 2 == 0 && !reached {
            base_failed.push(i);
        }
    }
    assert_eq!(
        wrong.load(Ordering::SeqCst),
        0,
        "a call reached the wrong tool"
    );
    assert!(
        base_failed.is_empty(),
        "every base call succeeds; these did not: {base_failed:?}"
    );
}

/// A provider of plain in-process tools, for the runtime rules that need no server.
struct Plain {
    name: &'static str,
    tools: Vec<&'static str>,
}

impl ToolProvider for Plain {
    fn name(&self) -> &str {
        self.name
    }
    fn list_tools(
        &self,
    ) -> futures::future::BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
        let defs = self
            .tools
            .iter()
            .map(|t| ToolDefinition::new(*t, "A plain tool.", json!({})))
            .collect();
        Box::pin(async move { Ok(defs) })
    }
    fn call<'a>(
        &'a self,
        tool: &'a str,
        _: Value,
    ) -> futures::future::BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            if tool.ends_with("down") {
                // A tool reporting its own downstream outage: not the provider being down.
                return Err(ToolError::Unavailable {
                    tool: tool.to_owned(),
                    provider: self.name.to_owned(),
                    reason: "its downstream API is down".to_owned(),
                });
            }
            Ok(json!({"provider": self.name, "tool": tool}))
        })
    }
}

#[tokio::test]
async fn a_switched_off_tool_keeps_its_names_so_no_call_heals_to_another_tool() {
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(Plain {
            name: "a",
            tools: vec!["x.y"],
        }))
        .await
        .unwrap();
    runtime
        .add_provider(Arc::new(Plain {
            name: "b",
            tools: vec!["x_y"],
        }))
        .await
        .unwrap();
    let out = runtime.request().dispatch("x_y", json!({})).await.unwrap();
    assert_eq!(out.output["provider"], "b");
    runtime.set_enabled("x_y", false);
    // Turn 2 replays `x_y`: it must not run a's `x.y` through the healing map.
    let err = runtime
        .request()
        .dispatch("x_y", json!({}))
        .await
        .unwrap_err();
    assert_eq!(err, DispatchError::Disabled { tool: "x_y".into() });
    let request = runtime.request();
    assert!(request.census().offered().all(|t| t.name() != "x_y"));
    assert_eq!(
        request
            .census()
            .tools()
            .iter()
            .find(|t| t.name() == "x_y")
            .unwrap()
            .left_out_reason(),
        Some(&LeftOutReason::Withheld)
    );
}

#[tokio::test]
async fn a_tool_error_of_its_own_does_not_take_its_provider_down() {
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(Plain {
            name: "app",
            tools: vec!["api_down", "fine"],
        }))
        .await
        .unwrap();
    let request = runtime.request();
    let err = request.dispatch("api_down", json!({})).await.unwrap_err();
    assert!(
        matches!(err, DispatchError::Tool(ToolError::Unavailable { .. })),
        "{err:?}"
    );
    assert_eq!(runtime.provider_status("app"), Some(LoadStatus::Loaded));
    assert!(runtime.request().dispatch("fine", json!({})).await.is_ok());
}

#[tokio::test]
async fn tool_schema_never_hands_out_the_form_of_a_tool_the_request_does_not_carry() {
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(Plain {
            name: "p",
            tools: vec!["mcp/x", "mcp_x", "tool/search"],
        }))
        .await
        .unwrap();
    let request = runtime.request();
    for name in ["mcp/x", "tool/search"] {
        let out = request
            .dispatch("tool_schema", json!({"name": name}))
            .await
            .unwrap();
        assert_eq!(out.output["real_name"], name);
        assert_eq!(out.output["name"], Value::Null, "{}", out.output);
        assert!(out.output["left_out"].is_string());
    }
    let out = request
        .dispatch("tool_schema", json!({"name": "mcp_x"}))
        .await
        .unwrap();
    assert_eq!(out.output["name"], "mcp_x");
}

#[tokio::test]
async fn a_call_that_fails_after_a_reload_does_not_fail_the_reloaded_server() {
    // The order is made by events, not by a clock: `hold` connects to this listener once the
    // old server has the call, and that server exits mid-call only when the test closes the
    // connection, after the reload.
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(fixture("reloading", &["--hold"]).await)
        .await
        .unwrap();
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let request = runtime.request();
    let stale = request.dispatch("mcp_reloading_hold", json!({"port": port}));
    // A plain thread, not `spawn_blocking`: if the test fails, nothing waits for it to end.
    let (accepted, connected) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || accepted.send(listener.accept()));
    let reload = async {
        let (connection, _) = connected
            .await
            .unwrap()
            .expect("the old server connects once it has the call");
        let reloaded = runtime.reload_provider("mcp/reloading").await.unwrap();
        drop(connection); // The old server exits: the call in flight on it fails now.
        reloaded
    };
    let (stale, reloaded) = tokio::time::timeout(HANG_BOUND, async { tokio::join!(stale, reload) })
        .await
        .expect("the stale call ends once its server exits");
    assert!(
        matches!(
            &stale,
            Err(DispatchError::Tool(ToolError::Unavailable { tool, .. }))
                if tool == "mcp/reloading/hold"
        ),
        "{stale:?}"
    );
    assert_eq!(
        reloaded,
        LoadStatus::Failed {
            problems: vec![LoadProblem::SharedForm {
                form: "mcp_reloading_search_web".into(),
                tools: vec![
                    "mcp/reloading/search.web".into(),
                    "mcp/reloading/search_web".into()
                ],
            }]
        }
    );
    // The stale failure neither killed the new server nor marked the provider down.
    let status = runtime.provider_status("mcp/reloading").unwrap();
    assert_eq!(status, reloaded, "{status:?}");
    let out = runtime
        .request()
        .dispatch("mcp_reloading_echo", json!({"n": 2}))
        .await
        .unwrap();
    assert_eq!(out.output["arguments"]["n"], 2);
}

#[tokio::test]
async fn a_removed_mcp_provider_stops_its_server_even_while_an_old_request_holds_it() {
    let provider = fixture("gone", &[]).await;
    let runtime = ToolRuntime::new();
    runtime.add_provider(provider.clone()).await.unwrap();
    let old = runtime.request();
    assert!(runtime.remove_provider("mcp/gone"));
    assert!(provider.is_failed(), "shut down on removal");
    let err = old.dispatch("mcp_gone_echo", json!({})).await.unwrap_err();
    assert_eq!(
        err,
        DispatchError::ProviderRemoved {
            tool: "mcp/gone/echo".into(),
            provider: "mcp/gone".into()
        }
    );
    // Its server no longer answers: a direct call says the provider is down.
    let err = provider.call("mcp/gone/echo", json!({})).await.unwrap_err();
    assert!(matches!(err, ToolError::Unavailable { .. }), "{err:?}");
}
