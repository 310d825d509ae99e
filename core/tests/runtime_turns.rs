//! What a turn costs and logs when nothing changed (issue 10): the census, the definitions and
//! each wire list are built once per change of the tool set and shared, and the census's one
//! warning per shared form fires once per change, not once per turn.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use toolwire_core::{
    provider::{provider_fn, ProviderFn},
    runtime::ToolList,
    ToolDefinition, ToolRuntime, WireFormat,
};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

/// One `WARN` event: its `form` field, if it has one, and its message.
#[derive(Clone, Debug, Default)]
struct Warning {
    form: Option<String>,
    message: String,
}

impl Visit for Warning {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        match field.name() {
            "form" => self.form = Some(format!("{value:?}")),
            "message" => self.message = format!("{value:?}"),
            _ => {}
        }
    }
}

/// A `tracing` layer that keeps every `WARN` event.
#[derive(Clone, Default)]
struct Warnings(Arc<Mutex<Vec<Warning>>>);

impl<S: Subscriber> Layer<S> for Warnings {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        if *event.metadata().level() == Level::WARN {
            let mut warning = Warning::default();
            event.record(&mut warning);
            self.0.lock().unwrap().push(warning);
        }
    }
}

impl Warnings {
    fn all(&self) -> Vec<Warning> {
        self.0.lock().unwrap().clone()
    }

    /// How many warnings named each form, sorted by form.
    fn per_form(&self) -> Vec<(String, usize)> {
        let mut counts = std::collections::BTreeMap::new();
        for warning in self.all() {
            if let Some(form) = warning.form {
                *counts.entry(form).or_insert(0) += 1;
            }
        }
        counts.into_iter().collect()
    }
}

fn tools(names: &[&str]) -> Vec<ToolDefinition> {
    names
        .iter()
        .map(|n| ToolDefinition::new(*n, "A tool.", json!({"type": "object", "properties": {}})))
        .collect()
}

fn echo(name: &str, names: &[&str]) -> Arc<ProviderFn> {
    Arc::new(provider_fn(name, tools(names), |tool, _| async move {
        Ok(json!({ "tool": tool }))
    }))
}

/// One turn as an app runs it: a request, its tool lists, a call, and the Tools page.
async fn turn(runtime: &ToolRuntime) {
    let request = runtime.request();
    request.tools(WireFormat::OpenAi).unwrap();
    request.tools(WireFormat::Anthropic).unwrap();
    let out = request.dispatch("mcp_a_ok", json!({})).await.unwrap();
    assert_eq!(out.output["tool"], "mcp/a/ok");
    runtime.report();
}

#[tokio::test]
async fn each_shared_form_is_logged_once_per_change_of_the_tool_set_not_per_turn() {
    let warnings = Warnings::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(warnings.clone()));

    let runtime = ToolRuntime::new();
    // Three shared forms across two providers: `mcp_x_echo` (neither is its form: both left
    // out), `search_web` (the owner rule: `search_web` keeps it) and `tool_search` (a meta-tool).
    runtime
        .add_provider(echo("a", &["mcp/a/ok", "mcp/x/echo", "search.web"]))
        .await
        .unwrap();
    let grown = Arc::new(AtomicBool::new(false));
    let b_lists = grown.clone();
    let b = provider_fn("b", Vec::new(), |tool, _| async move {
        Ok(json!({ "tool": tool }))
    })
    .with_list(move || {
        let mut names = vec!["mcp/x_echo", "search_web", "tool/search"];
        if b_lists.load(Ordering::SeqCst) {
            names.push("mcp/b/new");
        }
        Ok(tools(&names))
    });
    runtime.add_provider(Arc::new(b)).await.unwrap();
    // A provider whose own tools clash: a load failure, logged once, and its form once.
    let status = runtime
        .add_provider(echo("c", &["mcp/c/a.b", "mcp/c/a_b"]))
        .await
        .unwrap();
    assert!(format!("{status:?}").contains("SharedForm"), "{status:?}");
    let load_failures = |w: &[Warning]| {
        w.iter()
            .filter(|w| w.message.contains("provider load failed"))
            .count()
    };
    assert_eq!(load_failures(&warnings.all()), 1);

    let shared_forms = |n: usize| {
        ["mcp_c_a_b", "mcp_x_echo", "search_web", "tool_search"]
            .map(|form| (form.to_owned(), n))
            .to_vec()
    };
    turn(&runtime).await;
    assert_eq!(warnings.per_form(), shared_forms(1));
    let after_one_turn = warnings.all().len();
    for _ in 1..10 {
        turn(&runtime).await;
    }
    assert_eq!(
        warnings.per_form(),
        shared_forms(1),
        "{:#?}",
        warnings.all()
    );
    assert_eq!(
        warnings.all().len(),
        after_one_turn,
        "{:#?}",
        warnings.all()
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
        warnings.all().len(),
        after_one_turn,
        "{:#?}",
        warnings.all()
    );

    // A reload that changes the tool set: each shared form is logged once more, then not again.
    grown.store(true, Ordering::SeqCst);
    runtime.reload_provider("b").await.unwrap();
    assert!(runtime
        .request()
        .census()
        .offered()
        .any(|t| t.name() == "mcp/b/new"));
    for _ in 0..10 {
        turn(&runtime).await;
    }
    assert_eq!(
        warnings.per_form(),
        shared_forms(2),
        "{:#?}",
        warnings.all()
    );
    assert_eq!(load_failures(&warnings.all()), 1);
}

#[tokio::test]
async fn a_turn_with_nothing_changed_shares_the_census_the_definitions_and_each_list() {
    // No meta-tools: the list's length is the count of offered tools.
    let runtime = ToolRuntime::builder().meta_tools([]).build().unwrap();
    runtime
        .add_provider(echo("a", &["mcp/a/ok", "mcp/a/other"]))
        .await
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
    runtime.reload_provider("a").await.unwrap();
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
