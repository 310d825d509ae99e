//! `Request::answer_calls`: concurrent (bounded), in call order, every call answered.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{json, Value};
use tokio::sync::Barrier;
use toolwire_core::provider::{provider_fn, ProviderError, ToolProvider};
use toolwire_core::runtime::approval::Approval;
use toolwire_core::runtime::{CallOptions, DispatchError, Route};
use toolwire_core::tools::{ToolDefinition, ToolError, ToolOutput};
use toolwire_core::wire::calls::{ArgumentsError, ToolCall};
use toolwire_core::ToolRuntime;

use super::call;

/// Bounds a hang only: a sequential run of the barrier test never ends.
const HANG_BOUND: Duration = Duration::from_secs(60);

fn tool(name: &str) -> ToolDefinition {
    ToolDefinition::new(name, "A tool.", json!({}))
}

/// N tools that each wait on one barrier of N: the turn ends only if all N run at once.
async fn barrier_runtime(n: usize) -> ToolRuntime {
    let barrier = Arc::new(Barrier::new(n));
    let tools = (0..n).map(|i| tool(&format!("wait/{i}"))).collect();
    let waits = provider_fn("waits", tools, move |tool, _| {
        let barrier = barrier.clone();
        async move {
            barrier.wait().await;
            Ok(json!({"tool": tool}))
        }
    });
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(waits))
        .await
        .unwrap()
        .check()
        .unwrap();
    runtime
}

#[tokio::test]
async fn a_turns_calls_run_at_once_and_answer_in_call_order() {
    let runtime = barrier_runtime(4).await;
    // Called by form, in an order that is not the tools' order.
    let calls: Vec<ToolCall> = [3, 0, 2, 1]
        .iter()
        .map(|i| call(Some(&format!("call_{i}")), &format!("wait_{i}"), json!({})))
        .collect();
    let answers = tokio::time::timeout(HANG_BOUND, runtime.request().answer_calls(&calls))
        .await
        .expect("the four calls ran at once: a sequential run waits on the barrier forever");
    let got: Vec<(Option<&str>, &str, Value)> = answers
        .iter()
        .map(|a| {
            let outcome = a.result.as_ref().unwrap();
            assert_eq!(outcome.route, Route::Form);
            (
                a.id.as_deref(),
                a.called.as_str(),
                outcome.output.to_value(),
            )
        })
        .collect();
    let expected: Vec<(Option<&str>, &str, Value)> = vec![
        (Some("call_3"), "wait_3", json!({"tool": "wait/3"})),
        (Some("call_0"), "wait_0", json!({"tool": "wait/0"})),
        (Some("call_2"), "wait_2", json!({"tool": "wait/2"})),
        (Some("call_1"), "wait_1", json!({"tool": "wait/1"})),
    ];
    assert_eq!(got, expected);
}

#[tokio::test]
async fn the_concurrency_bound_holds() {
    // Tools that meet in pairs (a barrier of two, reused) and count how many run at once:
    // with a bound of two, four calls run two by two; a sequential run never meets its pair.
    let pair = Arc::new(Barrier::new(2));
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (r, m) = (running.clone(), most.clone());
    let tools = (0..4).map(|i| tool(&format!("pair/{i}"))).collect();
    let pairs = provider_fn("pairs", tools, move |tool, _| {
        let (pair, running, most) = (pair.clone(), r.clone(), m.clone());
        async move {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            pair.wait().await;
            running.fetch_sub(1, Ordering::SeqCst);
            Ok(json!(tool))
        }
    });
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(pairs))
        .await
        .unwrap()
        .check()
        .unwrap();
    let calls: Vec<ToolCall> = (0..4)
        .map(|i| call(Some(&format!("c{i}")), &format!("pair/{i}"), json!({})))
        .collect();
    let options = CallOptions::default().with_concurrency(2);
    let answers = tokio::time::timeout(
        HANG_BOUND,
        runtime.request().answer_calls_with(&calls, options),
    )
    .await
    .unwrap();
    let outputs: Vec<Value> = answers
        .iter()
        .map(|a| a.output().unwrap().to_value())
        .collect();
    assert_eq!(outputs, ["pair/0", "pair/1", "pair/2", "pair/3"]);
    assert_eq!(
        most.load(Ordering::SeqCst),
        2,
        "never more than the bound at once"
    );
}

#[tokio::test]
async fn a_call_past_its_time_limit_is_an_answer_and_the_others_are_answered_too() {
    let tools = ["hang", "quick"].map(tool).to_vec();
    let app = provider_fn("app", tools, |tool, _| async move {
        if tool == "hang" {
            std::future::pending::<()>().await;
        }
        Ok(json!(tool))
    });
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(app))
        .await
        .unwrap()
        .check()
        .unwrap();
    let calls = [
        call(Some("c0"), "hang", json!({})),
        call(Some("c1"), "quick", json!({})),
    ];
    let options = CallOptions::default().with_time_limit(Duration::from_millis(50));
    let answers = tokio::time::timeout(
        HANG_BOUND,
        runtime.request().answer_calls_with(&calls, options),
    )
    .await
    .unwrap();
    assert_eq!(
        answers[0].result,
        Err(DispatchError::TimedOut {
            tool: "hang".into(),
            millis: 50
        })
    );
    let words = answers[0].error_for_model().unwrap();
    assert_eq!(
        words,
        "the call to tool `hang` did not end within 50 ms and was abandoned"
    );
    assert_eq!(answers[1].output().unwrap(), &json!("quick"));
}

#[tokio::test]
async fn the_default_time_limit_is_two_minutes_and_eight_calls_run_at_once() {
    let options = CallOptions::default();
    assert_eq!(options.time_limit, Duration::from_secs(120));
    assert_eq!(options.concurrency, 8);
    // Eight at once by default: a barrier of eight passes with the default options.
    let runtime = barrier_runtime(8).await;
    let calls: Vec<ToolCall> = (0..8)
        .map(|i| call(Some(&format!("c{i}")), &format!("wait/{i}"), json!({})))
        .collect();
    let answers = tokio::time::timeout(HANG_BOUND, runtime.request().answer_calls(&calls))
        .await
        .unwrap();
    assert!(answers.iter().all(|a| a.result.is_ok()));
}

/// A provider of the app's own whose call panics before it makes its future: outside every
/// guard a provider of toolwire's has.
struct PanicsOutright;

impl ToolProvider for PanicsOutright {
    fn name(&self) -> &str {
        "outright"
    }
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
        Box::pin(async { Ok(vec![tool("explode")]) })
    }
    fn call<'a>(
        &'a self,
        _tool: &'a str,
        _arguments: Value,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        panic!("the provider itself panicked")
    }
}

#[tokio::test]
async fn every_kind_of_failure_is_an_answer_in_its_place() {
    let runtime = ToolRuntime::builder()
        .approval_async(|request| async move {
            if request.tool == "guarded" {
                Approval::refuse("the user said no")
            } else {
                Approval::Approve
            }
        })
        .build()
        .unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let counter = ran.clone();
    let tools = [
        "files/read",
        "guarded",
        "failing",
        "panicking",
        "mcp/a/b",
        "mcp/a.b",
    ]
    .map(tool)
    .to_vec();
    let app = provider_fn("app", tools, move |tool, arguments| {
        counter.fetch_add(1, Ordering::SeqCst);
        async move {
            match tool.as_str() {
                "failing" => Err(ToolError::Failed {
                    tool,
                    message: "the disk is full".into(),
                }),
                "panicking" => panic!("boom"),
                _ => Ok(arguments),
            }
        }
    });
    // Its two tools share a form: a failed load, the rest served.
    let _ = runtime.add_provider(Arc::new(app)).await.unwrap();
    runtime
        .add_provider(Arc::new(PanicsOutright))
        .await
        .unwrap()
        .check()
        .unwrap();
    let bad_arguments = ToolCall::new(
        Some("c2".into()),
        "files_read",
        Err(ArgumentsError::NotJson {
            message: "expected value at line 1 column 1".into(),
        }),
        "/test",
    );
    let calls = vec![
        call(Some("c0"), "files_read", json!({"path": "a"})),
        call(Some("c1"), "files_raed", json!({})),
        bad_arguments,
        call(Some("c3"), "guarded", json!({})),
        call(Some("c4"), "failing", json!({})),
        call(Some("c5"), "panicking", json!({})),
        call(Some("c6"), "explode", json!({})),
        call(Some("c7"), "mcp_a_b", json!({})),
        call(Some("c8"), "files/read", json!({"path": "b"})).in_namespace("files"),
    ];
    let answers = tokio::time::timeout(HANG_BOUND, runtime.request().answer_calls(&calls))
        .await
        .unwrap();
    assert_eq!(answers.len(), calls.len(), "never a dropped call");
    for (answer, call) in answers.iter().zip(&calls) {
        assert_eq!(
            (&answer.id, &answer.called),
            (&call.id, &call.name),
            "verbatim"
        );
    }
    assert_eq!(answers[0].output().unwrap(), &json!({"path": "a"}));
    let words: Vec<String> = answers
        .iter()
        .map(|a| a.error_for_model().unwrap_or_default())
        .collect();
    assert!(
        words[1].contains("unknown tool `files_raed`") && words[1].contains("`files_read`"),
        "the closest forms: {}",
        words[1]
    );
    assert!(
        words[2].starts_with("bad arguments for tool `files_read`")
            && words[2].contains("not JSON"),
        "{}",
        words[2]
    );
    assert_eq!(
        words[3],
        "the call to tool `guarded` was not approved: the user said no"
    );
    assert_eq!(words[4], "tool `failing` failed: the disk is full");
    assert_eq!(words[5], "tool `panicking` panicked: boom");
    assert_eq!(
        words[6],
        "tool `explode` panicked: the provider itself panicked"
    );
    assert!(
        words[7].contains("call one of them by its real name: `mcp/a.b`, `mcp/a/b`"),
        "the tools sharing the form: {}",
        words[7]
    );
    // A namespaced call is resolved by its (namespace, name) pair: `files/read` inside
    // `files` is no tool's pair (only `mcp/<server>/<tool>` travels in a namespace), so it is
    // unknown, never the tool its bare name is.
    assert_eq!(answers[8].namespace.as_deref(), Some("files"));
    assert!(
        matches!(answers[8].result, Err(DispatchError::UnknownTool { .. })),
        "{:?}",
        answers[8].result
    );
    // Bad arguments, unknown and shared names, the denial: never run.
    assert_eq!(ran.load(Ordering::SeqCst), 3, "c0, c4, c5 ran");
    assert!(matches!(
        answers[5].result,
        Err(DispatchError::Tool(ToolError::Panicked { .. }))
    ));
}

#[tokio::test]
async fn an_empty_turn_has_no_answers() {
    assert!(ToolRuntime::new()
        .request()
        .answer_calls(&[])
        .await
        .is_empty());
}

/// A Responses API call made inside a `namespace` tool reaches the tool of its
/// (namespace, name) pair, never the top-level tool its bare name is; a pair no tool has is
/// unknown even when its bare name is a tool's.
#[tokio::test]
async fn a_namespaced_call_reaches_its_pair_never_its_bare_name() {
    let echo = provider_fn(
        "echo",
        vec![
            tool("mcp/github/create_issue"),
            tool("create_issue"),
            tool("get_time"),
        ],
        |tool, _| async move { Ok(json!({ "tool": tool })) },
    );
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(Arc::new(echo))
        .await
        .unwrap()
        .check()
        .unwrap();
    let in_namespace = |id: &str, name: &str| {
        let mut call = call(Some(id), name, json!({}));
        call.namespace = Some("mcp_github".to_owned());
        call
    };
    let calls = [
        in_namespace("c1", "create_issue"),
        call(Some("c2"), "create_issue", json!({})),
        in_namespace("c3", "get_time"),
    ];
    let answers = runtime.request().answer_calls(&calls).await;
    let reached: Vec<Option<Value>> = answers
        .iter()
        .map(|a| a.result.as_ref().ok().map(|o| o.output.to_value()))
        .collect();
    assert_eq!(
        reached,
        vec![
            Some(json!({"tool": "mcp/github/create_issue"})),
            Some(json!({"tool": "create_issue"})),
            None,
        ]
    );
    assert_eq!(answers[0].namespace.as_deref(), Some("mcp_github"));
    assert!(
        matches!(answers[2].result, Err(DispatchError::UnknownTool { .. })),
        "{:?}",
        answers[2].result
    );
}
