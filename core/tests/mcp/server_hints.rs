//! What a tool's server says about it reaches the app: title and annotations in the report and
//! in the approval request; a tool the runtime cannot call (it requires MCP tasks) is withheld
//! with its reason instead of failing on every call; the approval hook can ask the user, wait,
//! and refuse with a reason the model reads; a provider's live tool list is followed.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use toolwire_core::{
    provider::{provider_fn, ProviderFn},
    runtime::approval::{Approval, ApprovalRequest},
    runtime::report::ReportStatus,
    runtime::{DispatchError, Route, ToolRuntimeBuilder},
    tools::ToolAnnotations,
    wire::WhyLeftOut,
    ToolDefinition, ToolError, ToolRuntime, WireFormat,
};
use toolwire_test_support::providers::{echo_provider, listing, live_names, tool};

fn hinted_tools() -> Vec<ToolDefinition> {
    vec![
        ToolDefinition::new("mcp/fs/read", "Reads a file.", json!({}))
            .with_title("Read File")
            .with_annotations(ToolAnnotations {
                read_only_hint: Some(true),
                ..Default::default()
            }),
        ToolDefinition::new("mcp/fs/delete", "Deletes a file.", json!({})).with_annotations(
            ToolAnnotations {
                destructive_hint: Some(true),
                ..Default::default()
            },
        ),
        ToolDefinition::new("mcp/fs/research", "Researches for hours.", json!({}))
            .unsupported_because("it requires MCP tasks, which this runtime does not run"),
    ]
}

fn hinted() -> Arc<ProviderFn> {
    Arc::new(echo_provider("fs", hinted_tools()))
}

#[tokio::test]
async fn an_unsupported_tool_is_withheld_with_its_reason_and_never_called() {
    let runtime = ToolRuntime::builder().meta_tools([]).build().unwrap();
    runtime
        .add_provider(hinted())
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.request();
    let carried: Vec<String> = request
        .tools(WireFormat::Anthropic)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(carried, ["mcp_fs_read", "mcp_fs_delete"]);
    // And says so in the list, with the reason, beside the JSON.
    let list = request.tools(WireFormat::Anthropic).unwrap();
    let [left_out] = list.left_out() else {
        panic!("{:?}", list.left_out())
    };
    assert_eq!(
        (
            left_out.name.as_str(),
            left_out.form.as_str(),
            &left_out.reason
        ),
        (
            "mcp/fs/research",
            "mcp_fs_research",
            &WhyLeftOut::Unsupported {
                reason: "it requires MCP tasks, which this runtime does not run".into()
            }
        )
    );
    for name in ["mcp/fs/research", "mcp_fs_research"] {
        let err = request.dispatch(name, json!({})).await.unwrap_err();
        assert_eq!(
            err,
            DispatchError::Tool(ToolError::Unavailable {
                tool: "mcp/fs/research".into(),
                provider: "fs".into(),
                reason: "cannot run it: it requires MCP tasks, which this runtime does not run"
                    .into(),
                detail: String::new(),
            })
        );
        assert_eq!(
            err.to_string(),
            "tool `mcp/fs/research` is unavailable: provider `fs` cannot run it: it requires MCP \
             tasks, which this runtime does not run"
        );
    }
    let report = runtime.report();
    let research = report
        .tools
        .iter()
        .find(|t| t.name == "mcp/fs/research")
        .unwrap();
    assert_eq!(research.status, ReportStatus::Unsupported);
    assert!(research.reason.as_deref().unwrap().contains("MCP tasks"));
    let read = report
        .tools
        .iter()
        .find(|t| t.name == "mcp/fs/read")
        .unwrap();
    assert_eq!(read.title.as_deref(), Some("Read File"));
    assert_eq!(read.annotations.read_only_hint, Some(true));
    let json = serde_json::to_value(read).unwrap();
    assert_eq!(json["annotations"], json!({"readOnlyHint": true}));
}

#[tokio::test]
async fn an_async_approval_asks_the_user_waits_and_refuses_with_a_reason() {
    // The app's user, on another task: shown each request, answers through a oneshot.
    let (ask, mut questions) =
        mpsc::unbounded_channel::<(ApprovalRequest, oneshot::Sender<Approval>)>();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = asked.clone();
    let user = tokio::spawn(async move {
        while let Some((request, answer)) = questions.recv().await {
            log.lock().unwrap().push(request.clone());
            let approval = if request.annotations.destructive_hint == Some(true) {
                Approval::refuse(format!("the user declined `{}`", request.tool))
            } else {
                Approval::Approve
            };
            let _ = answer.send(approval);
        }
    });
    let runtime = ToolRuntime::builder()
        .approval_async(move |request| {
            let ask = ask.clone();
            async move {
                let (answer, answered) = oneshot::channel();
                if ask.send((request, answer)).is_err() {
                    return Approval::refuse("nobody is there to approve it");
                }
                answered
                    .await
                    .unwrap_or_else(|_| Approval::refuse("no answer"))
            }
        })
        .build()
        .unwrap();
    runtime
        .add_provider(hinted())
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.request();

    let out = request
        .dispatch("mcp_fs_read", json!({"path": "a"}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["tool"], "mcp/fs/read");
    let err = request
        .dispatch("mcp_fs_delete", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        DispatchError::Denied {
            tool: "mcp/fs/delete".into(),
            reason: Some("the user declined `mcp/fs/delete`".into())
        }
    );
    assert_eq!(
        err.to_string(),
        "the call to tool `mcp/fs/delete` was not approved: the user declined `mcp/fs/delete`"
    );
    let asked = asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 2);
    assert_eq!(
        (
            asked[0].tool.as_str(),
            asked[0].called.as_str(),
            asked[0].route
        ),
        ("mcp/fs/read", "mcp_fs_read", Route::Form)
    );
    assert_eq!(asked[0].title.as_deref(), Some("Read File"));
    assert_eq!(*asked[0].arguments, json!({"path": "a"}));
    assert_eq!(asked[1].annotations.destructive_hint, Some(true));
    drop(runtime);
    drop(request);
    user.await.unwrap();
}

/// Where the text of a call's `path` argument lives: the same address in the hook and in the
/// tool means they read one value, not a copy.
fn path_address(arguments: &Value) -> Option<usize> {
    arguments["path"]
        .as_str()
        .map(|path| path.as_ptr() as usize)
}

/// The arguments [`write_through`] dispatches.
fn write_arguments() -> Value {
    json!({"path": "notes.txt", "text": "hello"})
}

/// A runtime built by `builder` with one tool, `mcp/fs/write`, which shows `seen` the arguments
/// it gets and returns them: [`write_arguments`] dispatched to it, returned whole.
async fn write_through(builder: ToolRuntimeBuilder, seen: impl Fn(&Value) + Send + Sync + 'static) {
    let write = ToolDefinition::new("mcp/fs/write", "Writes a file.", json!({}));
    let fs = provider_fn("fs", vec![write], move |_, arguments| {
        seen(&arguments);
        async move { Ok(arguments) }
    });
    let runtime = builder.build().unwrap();
    runtime
        .add_provider(Arc::new(fs))
        .await
        .unwrap()
        .check()
        .unwrap();
    let out = runtime
        .request()
        .dispatch("mcp_fs_write", write_arguments())
        .await
        .unwrap();
    assert_eq!(out.output.to_value(), write_arguments());
}

/// The address of the `path` argument's text as the hook, then the tool, read it, in a
/// runtime whose hook `with_hook` installs (it records the address it reads into the list).
async fn addresses_read(
    with_hook: impl FnOnce(ToolRuntimeBuilder, Arc<Mutex<Vec<Option<usize>>>>) -> ToolRuntimeBuilder,
) -> Vec<Option<usize>> {
    let addresses = Arc::new(Mutex::new(Vec::new()));
    let in_tool = addresses.clone();
    let builder = with_hook(ToolRuntime::builder(), addresses.clone());
    write_through(builder, move |arguments| {
        in_tool.lock().unwrap().push(path_address(arguments));
    })
    .await;
    let addresses = addresses.lock().unwrap().clone();
    addresses
}

#[tokio::test]
async fn the_approval_hook_reads_the_arguments_the_tool_gets_not_a_copy() {
    // Issue 27 §2: copying every call's arguments for the hook was time spent for nothing.
    // The plain hook, and the async one, whose future holds the request until it ends.
    let plain = addresses_read(|builder, addresses| {
        builder.approval(move |request| {
            addresses
                .lock()
                .unwrap()
                .push(path_address(&request.arguments));
            true
        })
    })
    .await;
    let awaited = addresses_read(|builder, addresses| {
        builder.approval_async(move |request| {
            let addresses = addresses.clone();
            async move {
                // Read after a yield, so the request lives across an await of the hook.
                tokio::task::yield_now().await;
                addresses
                    .lock()
                    .unwrap()
                    .push(path_address(&request.arguments));
                Approval::Approve
            }
        })
    })
    .await;
    for (hook, addresses) in [("plain", plain), ("async", awaited)] {
        assert_eq!(addresses.len(), 2, "{hook}: the hook, then the tool");
        assert!(addresses[0].is_some(), "{hook}");
        assert_eq!(
            addresses[0], addresses[1],
            "{hook}: the tool got a copy of what the hook read"
        );
    }
}

#[tokio::test]
async fn a_hook_that_keeps_its_request_still_leaves_the_tool_its_arguments() {
    // A hook may keep the request past its answer (to show it in a log, say): the runtime then
    // cannot have the shared arguments back, and the tool still gets them whole.
    let kept = Arc::new(Mutex::new(Vec::<ApprovalRequest>::new()));
    let log = kept.clone();
    let builder = ToolRuntime::builder().approval_async(move |request| {
        log.lock().unwrap().push(request);
        async { Approval::Approve }
    });
    write_through(builder, |_| {}).await;
    let kept = kept.lock().unwrap();
    assert_eq!(*kept[0].arguments, write_arguments());
    // The runtime let go of its handle: the hook's is the only one left.
    assert_eq!(Arc::strong_count(&kept[0].arguments), 1);
}

#[tokio::test]
async fn an_approval_request_serializes_its_arguments_as_json() {
    // An app may log the request or send it to a UI: its JSON is the arguments themselves,
    // however the runtime holds them.
    let written = Arc::new(Mutex::new(Vec::new()));
    let log = written.clone();
    let runtime = ToolRuntime::builder()
        .approval(move |request| {
            log.lock()
                .unwrap()
                .push(serde_json::to_string(request).unwrap());
            true
        })
        .build()
        .unwrap();
    runtime
        .add_provider(hinted())
        .await
        .unwrap()
        .check()
        .unwrap();
    runtime
        .request()
        .dispatch("mcp_fs_read", json!({"path": "a", "lines": [1, 2]}))
        .await
        .unwrap();
    assert_eq!(
        *written.lock().unwrap(),
        [concat!(
            r#"{"tool":"mcp/fs/read","provider":"fs","called":"mcp_fs_read","route":"form","#,
            r#""arguments":{"lines":[1,2],"path":"a"},"title":"Read File","#,
            r#""annotations":{"readOnlyHint":true}}"#
        )]
    );
}

#[tokio::test]
async fn a_live_tool_list_is_followed_and_an_old_name_never_reaches_another_tool() {
    let names = live_names(&["mcp/live/search_web"]);
    let (changed, changes) = tokio::sync::watch::channel(0u64);
    let live = listing("live", names.clone(), tool).with_changes(changes);
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(live))
        .await
        .unwrap()
        .check()
        .unwrap();
    let before = runtime.request();
    let mut seen = runtime.tool_set_changes();
    seen.mark_unchanged();

    // The server's list changes: a second tool travels as the same form.
    names.lock().unwrap().push("mcp/live/search.web".to_owned());
    changed.send_replace(1);
    tokio::time::timeout(std::time::Duration::from_secs(60), seen.changed())
        .await
        .expect("the runtime listed the tools again")
        .unwrap();
    let after = runtime.request();
    assert_eq!(after.census().tools().len(), 2);
    // The old form now names two tools: never a guess; the error names both.
    let err = after
        .dispatch("mcp_live_search_web", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, DispatchError::SharedForm { tools, .. } if tools == &["mcp/live/search.web", "mcp/live/search_web"]),
        "{err:?}"
    );
    // By real name, each reaches exactly itself; the request of the earlier turn still
    // resolves against its own census.
    for name in ["mcp/live/search_web", "mcp/live/search.web"] {
        assert_eq!(
            after
                .dispatch(name, json!({}))
                .await
                .unwrap()
                .output
                .to_value()["tool"],
            name
        );
    }
    assert_eq!(
        before
            .dispatch("mcp_live_search_web", json!({}))
            .await
            .unwrap()
            .output
            .to_value()["tool"],
        "mcp/live/search_web"
    );

    // The server replaces both with another tool: every old name fails as unknown.
    *names.lock().unwrap() = vec!["mcp/live/fetch".to_owned()];
    changed.send_replace(2);
    tokio::time::timeout(std::time::Duration::from_secs(60), seen.changed())
        .await
        .expect("the runtime listed the tools again")
        .unwrap();
    let last = runtime.request();
    for old in [
        "mcp/live/search_web",
        "mcp/live/search.web",
        "mcp_live_search_web",
    ] {
        let err = last.dispatch(old, json!({})).await.unwrap_err();
        assert!(
            matches!(err, DispatchError::UnknownTool { .. }),
            "{old}: {err:?}"
        );
    }
    assert_eq!(
        last.dispatch("mcp_live_fetch", json!({}))
            .await
            .unwrap()
            .output
            .to_value()["tool"],
        "mcp/live/fetch"
    );
}
