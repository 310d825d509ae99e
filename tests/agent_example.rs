//! `examples/agent.rs` run as a test: its loop, over the five formats, with
//! its scripted model, its `#[tool]`s and the fixture MCP server, gives each turn's calls
//! answered in the format's own shape, and the history the next request carries.

#[path = "../examples/agent.rs"]
#[allow(dead_code)]
mod agent;

use serde_json::Value;
use toolwire::runtime::{DispatchError, Route};
use toolwire::WireFormat;

/// What each answer of a turn reached: the tool and its route, or the error's kind.
fn reached(turn: &agent::TurnLog) -> Vec<(String, Option<Route>)> {
    let reached = turn.answers.iter().map(|answer| match &answer.result {
        Ok(outcome) => (outcome.tool.clone(), Some(outcome.route)),
        Err(err) => (err.kind().to_owned(), None),
    });
    reached.collect()
}

#[tokio::test]
async fn the_agent_loop_answers_every_call_in_every_format() {
    let (runtime, left_out) = agent::runtime().await.unwrap();
    // The fixture's two search tools share a form: the load says so, the rest travel.
    assert!(left_out
        .unwrap()
        .to_string()
        .contains("mcp_fixture_search_web"));
    for format in agent::FORMATS {
        let key = format.key();
        let conversation = agent::converse(&runtime, format).await.unwrap();
        assert_eq!(
            conversation.reply, "Sunny in Paris; the radar shows rain.",
            "{key}"
        );
        let [first, second] = &conversation.turns[..] else {
            panic!("{key}: two turns with calls");
        };
        assert!(
            first.tools.iter().any(|t| t == "mcp_fixture_radar"),
            "{key}"
        );
        let by = |tool: &str, route| (tool.to_owned(), Some(route));
        assert_eq!(
            reached(first),
            [
                by("get_weather", Route::Exact),
                by("files/read", Route::Form),
                by("mcp/fixture/echo", Route::Form),
            ],
            "{key}"
        );
        assert_eq!(
            reached(second),
            [
                by("mcp/fixture/radar", Route::Form),
                ("unknown_tool".to_owned(), None)
            ],
            "{key}"
        );
        let Err(DispatchError::UnknownTool { closest, .. }) = &second.answers[1].result else {
            panic!("{key}: the misspelt call is unknown");
        };
        assert_eq!(closest[0], "get_weather", "{key}");
        // Every answer names its call as the model sent it: by id, Gemini by the called name.
        for turn in [first, second] {
            for (call, answer) in turn.calls.iter().zip(&turn.answers) {
                assert_eq!(
                    (&answer.id, &answer.called),
                    (&call.id, &call.name),
                    "{key}"
                );
                assert_eq!(call.id.is_none(), format == WireFormat::Gemini, "{key}");
            }
        }

        // The answers in the format's own shape: one message per call (Chat Completions, and
        // the Responses API's items), or one user message of them all.
        let per_call = matches!(format, WireFormat::OpenAi | WireFormat::OpenAiResponses);
        for turn in [first, second] {
            let expected = if per_call { turn.calls.len() } else { 1 };
            assert_eq!(turn.messages.len(), expected, "{key}");
        }
        // The radar's image travels where the format takes one; Chat Completions says so.
        let radar = Value::Array(second.messages.clone()).to_string();
        let png = "iVBORw0KGgo";
        if format == WireFormat::OpenAi {
            assert!(!radar.contains(png), "{key}: {radar}");
            assert!(radar.contains("[the tool returned an image (image/png, 69 bytes)"));
        } else {
            assert!(radar.contains(png), "{key}: {radar}");
        }

        // The history: the prompt, each turn's replay and its answers, then the model's last
        // turn (one message; in the Responses API, its one output item).
        let replays = match format {
            WireFormat::OpenAiResponses => first.calls.len() + second.calls.len(),
            _ => 2,
        };
        let answers = first.messages.len() + second.messages.len();
        let history = &conversation.history;
        assert_eq!(history.len(), 1 + replays + answers + 1, "{key}");
        let (last, before) = history.split_last().unwrap();
        let tail = &before[before.len() - second.messages.len()..];
        assert_eq!(tail, &second.messages[..], "{key}");
        assert!(
            last.to_string()
                .contains("Sunny in Paris; the radar shows rain."),
            "{key}: {last}"
        );
        // The first message is the user's, in the format's shape: Converse takes content
        // blocks, Gemini `parts`, the others a string.
        let first_text = match format {
            WireFormat::Converse => &history[0]["content"][0]["text"],
            WireFormat::Gemini => &history[0]["parts"][0]["text"],
            _ => &history[0]["content"],
        };
        assert_eq!(history[0]["role"], "user", "{key}");
        assert!(
            first_text
                .as_str()
                .unwrap()
                .starts_with("What is the weather"),
            "{key}"
        );
    }
}

#[tokio::test]
async fn the_example_prints_every_format_and_ends_well() {
    // Its `main`'s own work (without the process exit): every format, every turn printed.
    let mut out = Vec::new();
    agent::run(&mut out).await.unwrap();
    let out = String::from_utf8(out).unwrap();
    for format in agent::FORMATS {
        assert!(
            out.contains(&format!("== {}\nturn 0: tools ", format.key())),
            "{out}"
        );
    }
    assert!(out.contains("  call toolu_0_1 `files_read` -> `files/read` via Form\n"));
    assert!(out.contains("  call (no id) `get_wether` -> error: unknown tool `get_wether`"));
    assert!(out.contains(
        r#"answers: {"call_id":"call_0_0","output":"sunny in Paris","type":"function_call_output"}"#
    ));
    assert_eq!(out.matches("reply: Sunny in Paris").count(), 5, "{out}");
}
