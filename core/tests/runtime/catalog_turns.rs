//! The tool catalog over many turns, with a scripted model: it only ever calls a name it was
//! given (in a request's tool list, in a meta-tool's answer, or in its own history), as a real
//! model does at hop 4. Every call must reach exactly the tool that name belongs to, or fail
//! cleanly; never another.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::{
    census::LeftOutReason,
    provider::{provider_fn, ProviderFn, ProviderKind},
    runtime::{
        CallOutcome, CatalogPolicy, DispatchError, LoadProblem, LoadStatus, MetaTool, Route,
        RuntimeError,
    },
    wire::{WhyLeftOut, WireError},
    Request, ToolDefinition, ToolError, ToolRuntime, WireFormat,
};
use toolwire_test_support::providers::{listing, live_names, LiveNames};

/// A provider whose every tool answers with its own real name, so a test sees what a call
/// reached. `names` is read at every load, so a reload can change the list.
fn answering(provider: &str, names: LiveNames) -> Arc<ProviderFn> {
    Arc::new(listing(provider, names, described))
}

/// A tool as the catalog describes it: a few named for what they do, the rest alike.
fn described(name: &str) -> ToolDefinition {
    let description = match name.rsplit('/').next().unwrap_or(name) {
        "read_file" => "Read the complete contents of a file from disk.",
        "write_file" => "Create a new file or overwrite an existing one with new content.",
        "write.file" => "Append content to a file.",
        "fetch" => "Download a web page from the internet and return it as markdown.",
        _ => "A tool the catalog holds many of.",
    };
    ToolDefinition::new(
        name,
        description,
        json!({"type": "object", "properties": {"text": {"type": "string"}}}),
    )
}

/// The model: knows only the names it has been shown.
#[derive(Default)]
struct ScriptedModel {
    seen: BTreeSet<String>,
}

impl ScriptedModel {
    /// A turn begins: the model reads the request's tool list (OpenAI shape).
    fn read_tools(&mut self, request: &Request) -> Vec<String> {
        let list = request.tools(WireFormat::OpenAi).unwrap();
        let names: Vec<String> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
            .collect();
        self.seen.extend(names.iter().cloned());
        names
    }

    /// The model reads a call's output: every name and form in it.
    fn read_output(&mut self, output: &Value) {
        let mut remember = |tool: &Value| {
            for key in ["name", "form"] {
                if let Some(name) = tool[key].as_str() {
                    self.seen.insert(name.to_owned());
                }
            }
        };
        match output.get("tools") {
            Some(Value::Array(tools)) => tools.iter().for_each(&mut remember),
            _ => remember(output),
        }
    }

    /// The model calls `name` (which it must have seen) in this turn's request.
    async fn call(
        &mut self,
        request: &Request,
        name: &str,
        arguments: Value,
    ) -> Result<CallOutcome, DispatchError> {
        assert!(
            self.seen.contains(name),
            "the script calls `{name}`, which the model was never shown"
        );
        let out = request.dispatch(name, arguments).await;
        if let Ok(out) = &out {
            self.read_output(&out.output.to_value());
        }
        out
    }
}

const META: [&str; 3] = ["tool_search", "tool_schema", "reset_tools"];

#[tokio::test]
async fn search_load_call_reset_and_history_reach_exactly_their_tools_across_a_reload() {
    let runtime = ToolRuntime::builder()
        .catalog(CatalogPolicy::deferred(["mcp/files/read_file"]))
        .build()
        .unwrap();
    let files = live_names(&["mcp/files/read_file", "mcp/files/write_file"]);
    let bulk: Vec<String> = (0..200).map(|i| format!("mcp/bulk/tool_{i}")).collect();
    let bulk_refs: Vec<&str> = bulk.iter().map(String::as_str).collect();
    runtime
        .add_provider(answering("files", files.clone()))
        .await
        .unwrap()
        .check()
        .unwrap();
    runtime
        .add_provider(answering("web", live_names(&["mcp/web/fetch"])))
        .await
        .unwrap()
        .check()
        .unwrap();
    runtime
        .add_provider(answering("bulk", live_names(&bulk_refs)))
        .await
        .unwrap()
        .check()
        .unwrap();
    let conversation = runtime.conversation();
    let mut model = ScriptedModel::default();

    // Turn 1: 203 offered tools, past the default threshold (125): the request carries the
    // meta-tools and the pinned tool only. The model searches by purpose.
    let request = conversation.request();
    assert!(request.is_deferred());
    assert_eq!(
        model.read_tools(&request),
        [&META[..], &["mcp_files_read_file"]].concat()
    );
    let found = model
        .call(
            &request,
            "tool_search",
            json!({"query": "overwrite a file with new content"}),
        )
        .await
        .unwrap();
    assert_eq!(found.route, Route::Meta);
    assert_eq!(
        found.output.to_value()["tools"][0]["name"],
        "mcp/files/write_file"
    );
    assert_eq!(
        found.output.to_value()["tools"][0]["form"],
        "mcp_files_write_file"
    );

    // Turn 2: it reads the schema by form; that loads the tool.
    let request = conversation.request();
    model.read_tools(&request);
    let schema = model
        .call(
            &request,
            "tool_schema",
            json!({"name": "mcp_files_write_file"}),
        )
        .await
        .unwrap();
    assert_eq!(schema.output.to_value()["name"], "mcp/files/write_file");
    assert_eq!(schema.output.to_value()["loaded"], true);
    assert_eq!(conversation.loaded(), ["mcp/files/write_file"]);

    // Turn 3: the loaded tool travels; a call by its form reaches exactly it.
    let request = conversation.request();
    assert_eq!(
        model.read_tools(&request),
        [&META[..], &["mcp_files_read_file", "mcp_files_write_file"]].concat()
    );
    let out = model
        .call(&request, "mcp_files_write_file", json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(
        (out.output.to_value()["tool"].as_str(), out.route),
        (Some("mcp/files/write_file"), Route::Form)
    );

    // Turn 4: it searches again and calls a tool by the real name it read there, without
    // loading it first: the call reaches exactly that tool, and loads it.
    let found = model
        .call(
            &request,
            "tool_search",
            json!({"query": "download a web page", "limit": 3}),
        )
        .await
        .unwrap();
    assert_eq!(found.output.to_value()["tools"][0]["name"], "mcp/web/fetch");
    let out = model
        .call(&request, "mcp/web/fetch", json!({}))
        .await
        .unwrap();
    assert_eq!(
        (out.output.to_value()["tool"].as_str(), out.route),
        (Some("mcp/web/fetch"), Route::Exact)
    );
    assert_eq!(
        conversation.loaded(),
        ["mcp/files/write_file", "mcp/web/fetch"]
    );
    assert!(model
        .read_tools(&conversation.request())
        .contains(&"mcp_web_fetch".to_owned()));

    // Turn 5: reset: back to the meta-tools and the pinned tool.
    let request = conversation.request();
    let reset = model
        .call(&request, "reset_tools", json!({}))
        .await
        .unwrap();
    assert_eq!(
        reset.output.to_value()["unloaded"],
        json!(["mcp/files/write_file", "mcp/web/fetch"])
    );
    let request = conversation.request();
    assert_eq!(
        model.read_tools(&request),
        [&META[..], &["mcp_files_read_file"]].concat()
    );

    // Turn 6: a call from history, by the form the model used in turn 3: not carried now,
    // still exactly its tool, and loaded again.
    let out = model
        .call(&request, "mcp_files_write_file", json!({}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["tool"], "mcp/files/write_file");
    assert_eq!(conversation.loaded(), ["mcp/files/write_file"]);

    // The provider is reloaded with a new tool that travels as the same form: the form now
    // answers to no tool (two tools a call names the same way cannot be told apart), so a
    // call by it from history fails as unknown instead of reaching either; by real name,
    // each still reaches exactly itself.
    files
        .lock()
        .unwrap()
        .push("mcp/files/write.file".to_owned());
    let status = runtime.reload_provider("files").await.unwrap();
    assert_eq!(
        status.check().unwrap_err().problems,
        [LoadProblem::SharedForm {
            form: "mcp_files_write_file".into(),
            tools: vec!["mcp/files/write.file".into(), "mcp/files/write_file".into()],
        }]
    );
    let request = conversation.request();
    let carried = model.read_tools(&request);
    assert!(!carried.contains(&"mcp_files_write_file".to_owned()));
    let err = model
        .call(&request, "mcp_files_write_file", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, DispatchError::SharedForm { called, .. } if called == "mcp_files_write_file"),
        "{err:?}"
    );
    let out = model
        .call(&request, "mcp/files/write_file", json!({}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["tool"], "mcp/files/write_file");
    // The census covers the whole catalog whatever is loaded: the same forms for every
    // conversation and for a request made by no conversation.
    let fresh = runtime.conversation().request();
    assert_eq!(
        fresh.census().healing(),
        runtime.request().census().healing()
    );
    assert_eq!(request.census().healing(), fresh.census().healing());
}

#[tokio::test]
async fn a_conversation_persists_and_resumes_with_what_it_loaded() {
    let always = CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(0);
    let runtime = ToolRuntime::builder().catalog(always).build().unwrap();
    runtime
        .add_provider(answering(
            "files",
            live_names(&["mcp/files/read_file", "mcp/files/write_file"]),
        ))
        .await
        .unwrap()
        .check()
        .unwrap();
    let conversation = runtime.conversation();
    conversation
        .request()
        .dispatch("tool_schema", json!({"name": "mcp/files/read_file"}))
        .await
        .unwrap();
    let saved = serde_json::to_string(&conversation).unwrap();
    assert_eq!(saved, r#"{"loaded":["mcp/files/read_file"]}"#);

    let resumed = runtime.resume(serde_json::from_str(&saved).unwrap());
    let list = resumed.request().tools(WireFormat::Anthropic).unwrap();
    let carried: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(carried, [&META[..], &["mcp_files_read_file"]].concat());
    // Clones share the state; a conversation is Send + Sync.
    fn shared<T: Clone + Send + Sync>(_: &T) {}
    shared(&resumed);
    resumed.clone().reset();
    assert!(resumed.loaded().is_empty());
}

#[tokio::test]
async fn bad_calls_to_the_meta_tools_are_typed_errors_that_name_the_argument() {
    let runtime = ToolRuntime::new();
    runtime
        .add_provider(answering("files", live_names(&["mcp/files/read_file"])))
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.conversation().request();
    let argument_of = |err: DispatchError| match err {
        DispatchError::Tool(ToolError::InvalidArguments { tool, argument, .. }) => (tool, argument),
        other => panic!("not an argument error: {other:?}"),
    };
    for bad in [json!({}), json!({"query": "  "}), json!({"query": 7})] {
        let err = request.dispatch("tool_search", bad).await.unwrap_err();
        assert_eq!(
            argument_of(err),
            ("tool_search".to_owned(), Some("query".to_owned()))
        );
    }
    let err = request
        .dispatch("tool_search", json!({"query": "read", "limit": 0}))
        .await
        .unwrap_err();
    assert_eq!(argument_of(err).1.as_deref(), Some("limit"));
    let err = request
        .dispatch("tool_schema", json!({"name": "mcp/files/red_file"}))
        .await
        .unwrap_err();
    // The one unknown-tool wording, as a call by that name would be answered.
    assert!(
        err.to_string()
            .contains("unknown tool `mcp/files/red_file`; the closest offered tools are ")
            && err.to_string().contains("`mcp_files_read_file`"),
        "{err}"
    );
    let err = request
        .dispatch("tool_schema", json!({"name": "tool_search"}))
        .await
        .unwrap_err();
    assert_eq!(argument_of(err).1.as_deref(), Some("name"));
    let err = request
        .dispatch_json("tool_search", "{not json")
        .await
        .unwrap_err();
    assert_eq!(argument_of(err).0, "tool_search");
}

#[test]
fn a_meta_tool_twice_or_with_an_unsafe_name_does_not_build() {
    let help = || MetaTool::new("help", "Help.", json!({}), |_| async { Ok(json!(null)) });
    let err = ToolRuntime::builder()
        .meta_tool(help())
        .meta_tool(help())
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        RuntimeError::DuplicateMetaTool {
            name: "help".into()
        }
    );
    for name in ["", "app help", "x".repeat(65).as_str()] {
        let bad = MetaTool::new(name, "Bad.", json!({}), |_| async { Ok(json!(null)) });
        let err = ToolRuntime::builder().meta_tool(bad).build().unwrap_err();
        assert!(
            matches!(&err, RuntimeError::BadMetaToolName { name: n, .. } if n == name),
            "{err:?}"
        );
    }
}

#[tokio::test]
async fn an_app_tool_that_travels_as_a_meta_tool_name_is_a_load_problem_and_never_sent_twice() {
    let help = MetaTool::new("help", "Help.", json!({}), |_| async { Ok(json!("meta")) });
    let runtime = ToolRuntime::builder().meta_tool(help).build().unwrap();
    let app = provider_fn(
        "app",
        vec![
            ToolDefinition::new("help", "The app's help.", json!({})),
            ToolDefinition::new("greet", "Greets.", json!({})),
        ],
        |tool, _| async move { Ok(json!(tool)) },
    )
    .with_kind(ProviderKind::Static);
    let status = runtime.add_provider(Arc::new(app)).await.unwrap();
    assert_eq!(
        status,
        LoadStatus::Failed {
            problems: vec![LoadProblem::MetaToolName {
                tool: "help".into(),
                name: "help".into()
            }]
        }
    );
    let request = runtime.request();
    for format in WireFormat::ALL {
        let list = request.tools(format).unwrap();
        let text = list.to_string();
        assert_eq!(
            text.matches(r#""help""#).count(),
            1,
            "{format}: the name is sent once: {text}"
        );
    }
    // The name answers to the meta-tool; the other tool of the app is untouched.
    assert_eq!(
        request.dispatch("help", json!({})).await.unwrap().output,
        "meta"
    );
    assert_eq!(
        request.dispatch("greet", json!({})).await.unwrap().output,
        "greet"
    );
}

#[tokio::test]
async fn every_format_carries_the_meta_tools_first_with_prepared_schemas() {
    // Deferred (the catalog's own tools travel), the one tool pinned (it travels too).
    let runtime = ToolRuntime::builder()
        .catalog(CatalogPolicy::deferred(["mcp/files/read_file"]).with_threshold(0))
        .build()
        .unwrap();
    runtime
        .add_provider(answering("files", live_names(&["mcp/files/read_file"])))
        .await
        .unwrap()
        .check()
        .unwrap();
    let request = runtime.request();
    for format in WireFormat::ALL {
        let list = request.tools(format).unwrap();
        let text = list.to_string();
        let at = |name: &str| text.find(&format!(r#""{name}""#)).unwrap();
        assert!(
            at("tool_search") < at("tool_schema")
                && at("tool_schema") < at("reset_tools")
                && at("reset_tools") < at("mcp_files_read_file"),
            "{format}: {text}"
        );
    }
    // Gemini's schema dialect writes types in capitals: the meta-tools' schemas are prepared too.
    let gemini = request.tools(WireFormat::Gemini).unwrap();
    assert_eq!(
        gemini[0]["functionDeclarations"][0]["parameters"]["type"],
        "OBJECT"
    );
    // Strict: closed, every property required.
    let strict = request.tools(WireFormat::OpenAiStrict).unwrap();
    assert_eq!(
        strict[0]["function"]["parameters"]["additionalProperties"],
        false
    );
}

#[tokio::test]
async fn native_deferral_sends_the_whole_catalog_deferred_under_the_same_forms() {
    let runtime = ToolRuntime::builder()
        .catalog(CatalogPolicy::deferred(["mcp/files/read_file"]).with_threshold(0))
        .build()
        .unwrap();
    runtime
        .add_provider(answering(
            "files",
            live_names(&["mcp/files/read_file", "mcp/files/write_file"]),
        ))
        .await
        .unwrap()
        .check()
        .unwrap();
    let conversation = runtime.conversation();
    let list = conversation
        .request()
        .tools_with_native_search(WireFormat::Anthropic)
        .unwrap();
    let tools = list.as_array().unwrap();
    assert_eq!(
        tools[0],
        json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
    );
    // The client-side catalog's tools are not sent: the provider searches.
    let sent: Vec<(&str, bool)> = tools[1..]
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap(),
                t.get("defer_loading") == Some(&json!(true)),
            )
        })
        .collect();
    assert_eq!(
        sent,
        [
            ("mcp_files_read_file", false),
            ("mcp_files_write_file", true)
        ]
    );
    // The model calls a tool the provider's search found by its form: exactly that tool.
    let out = conversation
        .request()
        .dispatch("mcp_files_write_file", json!({}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["tool"], "mcp/files/write_file");
    for format in [WireFormat::OpenAi, WireFormat::Gemini, WireFormat::Converse] {
        assert_eq!(
            conversation.request().tools_with_native_search(format),
            Err(WireError::NoNativeDeferral { format })
        );
    }
}

#[tokio::test]
async fn loading_stops_where_a_request_would_no_longer_fit_and_says_to_reset() {
    let runtime = ToolRuntime::new(); // 200 tools: deferred past 125
    let bulk: Vec<String> = (0..200).map(|i| format!("mcp/bulk/tool_{i}")).collect();
    let refs: Vec<&str> = bulk.iter().map(String::as_str).collect();
    runtime
        .add_provider(answering("bulk", live_names(&refs)))
        .await
        .unwrap()
        .check()
        .unwrap();
    let conversation = runtime.conversation();
    for name in &bulk[..124] {
        conversation.load(name);
    }
    // One more fits: 3 meta-tools + 125 loaded = 128.
    let request = conversation.request();
    request
        .dispatch("tool_schema", json!({"name": "mcp/bulk/tool_124"}))
        .await
        .unwrap();
    let request = conversation.request();
    assert_eq!(
        request
            .tools(WireFormat::OpenAi)
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        128
    );
    let err = request
        .dispatch("tool_schema", json!({"name": "mcp/bulk/tool_125"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("call reset_tools first"), "{err}");
    // A call by name still reaches its tool; it is not loaded, so the list still fits.
    let out = request
        .dispatch("mcp_bulk_tool_199", json!({}))
        .await
        .unwrap();
    assert_eq!(out.output.to_value()["tool"], "mcp/bulk/tool_199");
    assert!(conversation.request().tools(WireFormat::OpenAi).is_ok());
}

#[tokio::test]
async fn tool_schema_for_a_shared_form_names_the_tools_that_share_it() {
    // Issue 17, point 7: as a call by a shared form does, tool_schema names the tools that share
    // it and how to reach each, not the closest unrelated forms.
    let runtime = ToolRuntime::new();
    let names = live_names(&[
        "mcp/files/write_file",
        "mcp/files/write.file",
        "mcp/files/read",
    ]);
    let status = runtime
        .add_provider(answering("files", names))
        .await
        .unwrap();
    assert_eq!(
        status.check().unwrap_err().problems,
        [LoadProblem::SharedForm {
            form: "mcp_files_write_file".into(),
            tools: vec!["mcp/files/write.file".into(), "mcp/files/write_file".into()],
        }]
    );
    let err = runtime
        .request()
        .dispatch("tool_schema", json!({"name": "mcp_files_write_file"}))
        .await
        .unwrap_err();
    let DispatchError::Tool(ToolError::InvalidArguments { reason, .. }) = &err else {
        panic!("{err:?}")
    };
    // One wording for a shared form, whether it is called or asked for: the dispatcher's.
    let called = runtime
        .request()
        .dispatch("mcp_files_write_file", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(called, DispatchError::SharedForm { .. }),
        "{called:?}"
    );
    assert_eq!(reason, &called.to_string());
    assert!(
        reason.contains(
            "call one of them by its real name: `mcp/files/write.file`, `mcp/files/write_file`"
        ),
        "{reason}"
    );
}

/// The names a list carries, in order.
fn names_in(list: &Value, format: WireFormat) -> Vec<String> {
    toolwire_test_support::wire_lists::wire_names(list, format)
}

#[tokio::test]
async fn the_catalogs_own_tools_travel_only_when_the_request_defers_and_no_form_moves() {
    let help = MetaTool::new("help", "How to use the tools.", json!({}), |_| async {
        Ok(json!("search, then call"))
    });
    // Deferred past 2 offered tools.
    let runtime = ToolRuntime::builder()
        .meta_tool(help)
        .catalog(CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(2))
        .build()
        .unwrap();
    // `tool/search` travels as `tool_search`, the catalog's own tool's name.
    let files = live_names(&["mcp/files/read_file", "tool/search"]);
    runtime
        .add_provider(answering("files", files))
        .await
        .unwrap()
        .check()
        .unwrap();

    // Under the threshold: nothing to search, so none of the catalog's own tools travels; the
    // app's own meta-tool does.
    let under = runtime.request();
    assert!(!under.is_deferred());
    let list = under.tools(WireFormat::OpenAi).unwrap();
    assert_eq!(
        names_in(&list, WireFormat::OpenAi),
        ["help", "mcp_files_read_file"]
    );
    // The name stays taken all the same: the tool that travels as it is left out, and says so.
    let taken_away = |list: &toolwire_core::runtime::ToolList| {
        list.left_out()
            .iter()
            .map(|t| (t.name.clone(), t.form.clone(), t.reason.clone()))
            .collect::<Vec<_>>()
    };
    let meta_clash = vec![(
        "tool/search".to_owned(),
        "tool_search".to_owned(),
        WhyLeftOut::Census(LeftOutReason::MetaTool {
            meta: "tool_search".into(),
        }),
    )];
    assert_eq!(taken_away(&list), meta_clash);
    // A call to `tool_search` (a model that saw it when the catalog deferred) is still served,
    // an answer it can read: the catalog's search over every offered tool.
    let out = under
        .dispatch("tool_search", json!({"query": "read a file"}))
        .await
        .unwrap();
    assert_eq!(out.route, Route::Meta);
    assert_eq!(
        out.output.to_value()["tools"][0]["name"],
        "mcp/files/read_file"
    );
    let forms_under: Vec<(String, String)> = (under.census().tools().iter())
        .map(|t| (t.name().to_owned(), t.form().to_owned()))
        .collect();

    // Over the threshold: the catalog defers, and its own tools travel, first.
    let more = live_names(&["mcp/web/fetch", "mcp/web/search"]);
    runtime
        .add_provider(answering("web", more))
        .await
        .unwrap()
        .check()
        .unwrap();
    let over = runtime.request();
    assert!(over.is_deferred());
    let list = over.tools(WireFormat::OpenAi).unwrap();
    assert_eq!(
        names_in(&list, WireFormat::OpenAi),
        ["tool_search", "tool_schema", "reset_tools", "help"]
    );
    // Left out the same way, and no form moved.
    assert_eq!(taken_away(&list), meta_clash);
    let forms_over: Vec<(String, String)> = (over.census().tools().iter())
        .filter(|t| !t.name().starts_with("mcp/web/"))
        .map(|t| (t.name().to_owned(), t.form().to_owned()))
        .collect();
    assert_eq!(forms_over, forms_under);
}
