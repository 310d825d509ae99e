//! Several turns: a scripted model, the approval hook and switches, calls racing provider
//! changes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use toolwire_core::{
    provider::provider_fn,
    runtime::report::ReportStatus,
    runtime::{DispatchError, LoadProblem, LoadStatus},
    Request, ToolDefinition, ToolError, ToolRuntime,
};

use crate::{assert_search_clash, fixture, runtime_with, status_of};

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
                .map(|o| json!({"tool": o.tool, "output": o.output.to_value()}))
                .map_err(|e| e.to_string());
            self.history.push((called.to_owned(), result));
        }
    }
}

#[tokio::test]
async fn a_scripted_model_over_turns_reaches_the_same_tool_and_a_later_clash_names_both_tools() {
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
    let clasher = provider_fn(
        "clasher",
        vec![ToolDefinition::new("mcp_srv/echo", "Clashes.", json!({}))],
        |_, _| async { Ok(json!({"tool": "the wrong one"})) },
    );
    runtime
        .add_provider(Arc::new(clasher))
        .await
        .unwrap()
        .check()
        .unwrap();
    let before: Vec<String> = model.history.iter().map(|(c, _)| c.clone()).collect();
    model.run_turn(2, &runtime.request()).await;
    let (called, result) = model.history.last().unwrap();
    assert_eq!(called, "mcp_srv_echo");
    let err = result.as_ref().unwrap_err();
    // Never a guess, and not "unknown" either (issue 17, point 7): the error names both tools
    // that now share the form, by the real names that reach them.
    assert!(
        err.contains("no one tool answers to `mcp_srv_echo`")
            && err.contains("call one of them by its real name: `mcp/srv/echo`, `mcp_srv/echo`"),
        "{err}"
    );
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
        .build()
        .unwrap();
    let status = runtime
        .add_provider(fixture("appr", &[]).await)
        .await
        .unwrap();
    assert_search_clash(&status, "appr");
    let request = runtime.request();
    request.dispatch("mcp_appr_echo", json!({})).await.unwrap();
    let err = request
        .dispatch("mcp_appr_fail", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        DispatchError::Denied {
            tool: "mcp/appr/fail".into(),
            reason: None
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
                    if out.tool != expected || out.output.to_value()["arguments"]["i"] != i {
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
