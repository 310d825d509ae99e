//! The oracle of replayed names the provider refuses in history (hop 5 of
//! `docs/spec/tool-name-wire.md`): a turn calling tools by names its format refuses, replayed
//! in a census (`replay_turn_in`) and through the runtime (`Request::replay_turn`, with and
//! without a conversation). One file per format under `oracle/refused-names/`.
//!
//! The censuses: the called tool's form is its own (the form is replayed); its form is another
//! tool's real name, or two tools share it, or no tool has the called name (an alias is
//! replayed, which reaches no tool). Gemini refuses no called name: its file shows the turn
//! replayed as it came.

use std::sync::Arc;

use serde_json::{json, Value};
use toolwire_core::census::Resolution;
use toolwire_core::names::model_safe_name;
use toolwire_core::provider::provider_fn;
use toolwire_core::wire::calls::{parse_calls, CallFormat};
use toolwire_core::wire::replay::{refused_in_history, replay_turn_in, Replay, ReplayError};
use toolwire_core::{Census, ToolDefinition, ToolRuntime};

use super::{compare_folder, pretty, section};

/// A name `format` refuses in history: one with a `/` and a `.` (OpenAI's APIs and Converse
/// refuse it), for the Messages API one over 200 characters.
fn refused(format: CallFormat, tail: &str) -> String {
    match format {
        CallFormat::Anthropic => format!("mcp/x/{}search{tail}", "deep/".repeat(40)),
        _ => format!("mcp/x/search{tail}"),
    }
}

/// A response body of `format` calling `names`, in order, with ids `call_1`, `call_2`….
fn body(format: CallFormat, names: &[&str]) -> Value {
    let each = names.iter().enumerate().map(|(i, name)| {
        let id = format!("call_{}", i + 1);
        match format {
            CallFormat::OpenAiChat => json!({"id": id, "type": "function",
                "function": {"name": name, "arguments": "{}"}}),
            CallFormat::OpenAiResponses => {
                json!({"type": "function_call", "id": format!("fc_{}", i + 1),
                "call_id": id, "name": name, "arguments": "{}", "status": "completed"})
            }
            CallFormat::Anthropic => {
                json!({"type": "tool_use", "id": id, "name": name, "input": {}})
            }
            CallFormat::Converse => {
                json!({"toolUse": {"toolUseId": id, "name": name, "input": {}}})
            }
            _ => json!({"functionCall": {"id": id, "name": name, "args": {}}}),
        }
    });
    let each: Vec<Value> = each.collect();
    match format {
        CallFormat::OpenAiChat => json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": null, "tool_calls": each}}]}),
        CallFormat::OpenAiResponses => json!({"output": each}),
        CallFormat::Anthropic => json!({"type": "message", "role": "assistant", "content": each,
            "stop_reason": "tool_use"}),
        CallFormat::Converse => {
            json!({"output": {"message": {"role": "assistant", "content": each}},
            "stopReason": "tool_use"})
        }
        _ => json!({"candidates": [{"index": 0, "content": {"role": "model", "parts": each}}]}),
    }
}

/// Each case: its name, the census's real names, the called names.
fn cases(format: CallFormat) -> Vec<(&'static str, Vec<String>, Vec<String>)> {
    let called = refused(format, ".web");
    let form = model_safe_name(&called).into_owned();
    let twin = refused(format, ":web");
    vec![
        (
            "the called tool's form is its own",
            vec![called.clone(), "get_weather".into()],
            vec![called.clone(), "get_weather".into()],
        ),
        (
            "the called tool's form is another tool's real name",
            vec![called.clone(), form.clone()],
            vec![called.clone(), form],
        ),
        (
            "two tools share the called tool's form",
            vec![called.clone(), twin.clone()],
            vec![called.clone(), twin],
        ),
        (
            "no tool has the called name",
            vec!["get_weather".into()],
            vec![called],
        ),
    ]
}

/// Where each renamed call's replayed name leads in `census`.
fn resolved(census: &Census, replay: &Replay) -> String {
    let lines: Vec<String> = replay
        .renamed
        .iter()
        .map(|renamed| {
            let to = match census.resolve_call(None, &renamed.replayed) {
                Ok(Resolution::Tool(hit)) => format!("the tool `{}`", hit.name),
                Ok(Resolution::Meta(meta)) => format!("the meta-tool `{meta}`"),
                Ok(other) => format!("{other:?}"),
                Err(_) => "no tool".to_owned(),
            };
            format!("`{}` reaches {to}", renamed.replayed)
        })
        .collect();
    lines.join("\n")
}

/// A replay's parts, titled: its turn, its renamed calls, where each renamed name leads in
/// `census`, its unverified calls; or its error.
fn parts(census: &Census, replay: Result<Replay, ReplayError>) -> Vec<(&'static str, String)> {
    match replay {
        Ok(replay) => vec![
            ("turn", pretty(&replay.turn)),
            ("renamed", format!("{:#?}", replay.renamed)),
            ("replayed names reach", resolved(census, &replay)),
            ("unverified", format!("{:#?}", replay.unverified)),
        ],
        Err(error) => vec![("error", format!("{error:#?}\n{error}"))],
    }
}

/// `parts` under `title`; a part the same as `first`'s is said so, not repeated.
fn write_parts(
    out: &mut String,
    title: &str,
    parts: &[(&'static str, String)],
    first: Option<&[(&'static str, String)]>,
) {
    for (name, text) in parts {
        let same = first.is_some_and(|first| first.iter().any(|(n, t)| n == name && t == text));
        let text = if same { "(as replay_turn_in)" } else { text };
        section(out, &format!("{title}: {name}"), text);
    }
}

fn oracle(format: CallFormat, tokio: &tokio::runtime::Runtime) -> String {
    let mut out = String::new();
    for (case, tools, called) in cases(format) {
        let refusals: Vec<String> = called
            .iter()
            .map(|name| format!("`{name}`: refused {}", refused_in_history(format, name)))
            .collect();
        section(&mut out, &format!("{case}: called"), refusals.join("\n"));
        let names: Vec<&str> = called.iter().map(String::as_str).collect();
        let body = body(format, &names);
        let calls = parse_calls(format, &body).unwrap();
        let census = Census::build(tools.iter(), &[]);
        let first = parts(&census, replay_turn_in(format, &body, &calls, &census));
        write_parts(&mut out, &format!("{case}: replay_turn_in"), &first, None);
        // The runtime, one provider of the case's tools: without a conversation, then in one
        // (which records the names the turn carries, so that a call by them reaches the tool
        // the call reached: dispatched here).
        let definitions: Vec<ToolDefinition> = tools
            .iter()
            .map(|name| ToolDefinition::new(name.as_str(), "A tool.", json!({})))
            .collect();
        let runtime = ToolRuntime::new();
        let provider = provider_fn("app", definitions, |_, _| async { Ok(json!(null)) });
        // A clash is reported, not refused: the case wants it.
        let _report = tokio
            .block_on(runtime.add_provider(Arc::new(provider)))
            .unwrap();
        let request = runtime.request();
        let replay = request.replay_turn(format, &body, &calls);
        let title = format!("{case}: Request::replay_turn");
        write_parts(
            &mut out,
            &title,
            &parts(request.census(), replay),
            Some(&first),
        );
        let conversation = runtime.conversation();
        let request = conversation.request();
        let replay = request.replay_turn(format, &body, &calls);
        let replayed: Vec<String> = match &replay {
            Ok(replay) => replay.renamed.iter().map(|r| r.replayed.clone()).collect(),
            Err(_) => Vec::new(),
        };
        let title = format!("{case}: Request::replay_turn in a conversation");
        write_parts(
            &mut out,
            &title,
            &parts(request.census(), replay),
            Some(&first),
        );
        section(
            &mut out,
            &format!("{case}: the conversation's history names"),
            format!("{:#?}", conversation.state().history_names),
        );
        let reached: Vec<String> = replayed
            .iter()
            .map(|name| {
                let request = conversation.request();
                match tokio.block_on(request.dispatch(name, json!({}))) {
                    Ok(outcome) => format!("`{name}` reaches the tool `{}`", outcome.tool),
                    Err(error) => format!("`{name}`: {error}"),
                }
            })
            .collect();
        section(
            &mut out,
            &format!("{case}: in the conversation, a call by a replayed name"),
            reached.join("\n"),
        );
    }
    out
}

#[test]
fn refused_names_replay_in_a_census_as_the_oracle_says() {
    let tokio = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let files: Vec<(String, String)> = CallFormat::ALL
        .into_iter()
        .map(|format| (format!("{}.txt", format.key()), oracle(format, &tokio)))
        .collect();
    compare_folder("refused-names", &files);
}
