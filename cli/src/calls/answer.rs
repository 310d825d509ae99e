//! `toolwire calls --answer`: the calls of one response run through a `ToolRuntime` holding the
//! MCP servers, printed as what the next request appends: `{"replay": the assistant turn,
//! "answers": the messages (Responses: the items) after it, "renamed": …, "repaired": …,
//! "notes": …}`.
//!
//! Policy: the tools are named exactly as the plain command names them (bare names for one
//! server without `--server`, `mcp/<server>/<tool>` with it or for a config's servers), so a
//! call reaches with `--answer` the tool its line names without it; the taken names are the
//! runtime's meta-tools (the default ones run; names given with `--taken` are the app's, which
//! this command cannot run, so a call of one is answered with an error saying so). Every call
//! is answered (`Request::answer_calls`), every answer is written (`write_answers`), and the
//! replay is `replay_turn` of the body, or of the turn the stream recorded: nothing here
//! decides a shape. A stream cut before a call's end gives no turn to continue (the provider
//! wants every call of a turn answered, and the cut call's arguments are unknown): nothing is
//! printed, each unfinished call is named on stderr, and the status is 1.

use std::io::{self, Write};
use std::sync::Arc;

use futures::future::BoxFuture;
use serde::Serialize;
use serde_json::Value;
use toolwire_core::mcp::{mcp_tool_name, McpProvider};
use toolwire_core::names::DEFAULT_META_TOOLS;
use toolwire_core::provider::{ProviderError, ToolProvider};
use toolwire_core::runtime::MetaTool;
use toolwire_core::tools::{ToolError, ToolOutput};
use toolwire_core::wire::answers::write_answers;
use toolwire_core::wire::calls::{CallFormat, ToolCall, UnfinishedCall};
use toolwire_core::wire::replay::{replay_turn, RenamedCall, RepairedCall};
use toolwire_core::{ToolDefinition, ToolRuntime};

use crate::exit::{Failure, EXIT_FOUND, EXIT_OK, EXIT_UNUSABLE};
use crate::input::UnusableInput;
use crate::mcp::{self, Wanted};

/// What the reading of the response gave, for the answers.
#[derive(Default)]
pub struct Collected {
    /// The body (or the body the stream built), whose turn is replayed.
    pub body: Option<Value>,
    /// Every client call, in order.
    pub calls: Vec<ToolCall>,
    /// The calls a stream began and never ended.
    pub unfinished: Vec<UnfinishedCall>,
    /// The stream ended before its end (inside an event, or before a call's end).
    pub cut: bool,
}

/// The one object printed.
#[derive(Serialize)]
struct Answered<'a> {
    /// The assistant turn to append to history.
    replay: &'a Value,
    /// The messages (Responses: the items) to append after it.
    answers: &'a [Value],
    /// Each call whose name the replay carries as its model-safe form.
    renamed: Vec<Renamed<'a>>,
    /// Each call whose arguments were not an object, replayed with empty arguments.
    repaired: Vec<Repaired<'a>>,
    /// What an answer could not carry, or cut, as its words say it.
    notes: Vec<Note>,
}

#[derive(Serialize)]
struct Renamed<'a> {
    id: Option<&'a str>,
    called: &'a str,
    replayed: &'a str,
    pointer: &'a str,
}

#[derive(Serialize)]
struct Repaired<'a> {
    id: Option<&'a str>,
    called: &'a str,
    error: String,
    pointer: &'a str,
}

#[derive(Serialize)]
struct Note {
    /// The call's position in the turn.
    call: usize,
    /// The note's words, as the answer carries them.
    note: String,
}

/// The runtime of `--answer`: one provider per MCP server, named as the plain command names
/// their tools, and the providers' names (to end their servers).
pub struct AnswerTools {
    runtime: ToolRuntime,
    providers: Vec<String>,
    /// One message per server of a config that could not be started or reached.
    pub failures: Vec<String>,
}

impl AnswerTools {
    /// Starts or reaches every server of `wanted` at once and adds it to a runtime whose
    /// meta-tools are the `taken` names. A server that fails is a failure beside the others;
    /// all failing is unusable input.
    pub async fn connect(
        wanted: &[Wanted],
        options: toolwire_core::mcp::McpOptions,
        taken: &[&str],
    ) -> Result<AnswerTools, UnusableInput> {
        let runtime = builder_taking(taken)
            .catalog(toolwire_core::runtime::CatalogPolicy::All)
            .build()
            .map_err(|err| UnusableInput(err.to_string()))?;
        let started = futures::future::join_all(wanted.iter().map(|w| {
            // A bare-named server needs a provider name all the same; its tools keep theirs.
            let name = w.name().unwrap_or("server").to_owned();
            McpProvider::connect_with(name, w.server().clone(), options)
        }))
        .await;
        let mut tools = AnswerTools {
            runtime,
            providers: Vec::new(),
            failures: Vec::new(),
        };
        for (wanted, started) in wanted.iter().zip(started) {
            let provider = match started {
                Ok(provider) => provider,
                Err(err) => {
                    tools
                        .failures
                        .push(format!("{}: {}", wanted.label(), err.reason));
                    continue;
                }
            };
            let provider: Arc<dyn ToolProvider> = match wanted.name() {
                Some(_) => Arc::new(provider),
                None => Arc::new(BareNames::new(provider)),
            };
            let name = provider.name().to_owned();
            if let Err(err) = tools.runtime.add_provider(provider).await {
                tools.failures.push(format!("{}: {err}", wanted.label()));
                continue;
            }
            tools.providers.push(name);
        }
        if tools.providers.is_empty() {
            return Err(UnusableInput(tools.failures.join("\ntoolwire: ")));
        }
        Ok(tools)
    }

    /// Answers the collected calls and prints the one object; the exit status: 0 when every
    /// answer is a tool's success, 1 when any is an error answer (an unknown name, unusable
    /// arguments, a denial, a tool error, the time limit) or a stream was cut before a call's
    /// end.
    pub async fn answer(
        &self,
        format: CallFormat,
        label: &str,
        collected: Collected,
    ) -> Result<u8, Failure> {
        if !collected.unfinished.is_empty() {
            let mut err = io::stderr().lock();
            for call in &collected.unfinished {
                let _ = writeln!(
                    err,
                    "toolwire: {label}: the stream ended before the end signal of call {} ({}): a cut turn cannot be answered",
                    call.id.as_deref().map_or("without an id".to_owned(), |id| format!("`{id}`")),
                    call.name.as_deref().map_or("its name never came".to_owned(), |n| format!("`{n}`")),
                );
            }
            return Ok(EXIT_FOUND);
        }
        if collected.cut {
            return Ok(EXIT_FOUND);
        }
        let Some(body) = collected.body else {
            return Err(UnusableInput(format!(
                "{label}: the stream ended inside an event, before its end"
            ))
            .into());
        };
        let replay = replay_turn(format, &body, &collected.calls)
            .map_err(|err| UnusableInput(format!("{label}: {err}")))?;
        let answers = self.runtime.request().answer_calls(&collected.calls).await;
        let wire = write_answers(format, &answers);
        let object = Answered {
            replay: &replay.turn,
            answers: &wire.messages,
            renamed: replay.renamed.iter().map(renamed).collect(),
            repaired: replay.repaired.iter().map(repaired).collect(),
            notes: wire
                .notes
                .iter()
                .map(|n| Note {
                    call: n.call,
                    note: n.for_model(),
                })
                .collect(),
        };
        let status = if answers.iter().all(|a| a.result.is_ok()) {
            EXIT_OK
        } else {
            EXIT_FOUND
        };
        let status = if self.failures.is_empty() {
            status
        } else {
            EXIT_UNUSABLE
        };
        let mut out = io::stdout().lock();
        serde_json::to_writer(&mut out, &object)
            .map_err(io::Error::from)
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush())
            .map_err(|err| Failure::Output(err, status))?;
        Ok(status)
    }

    /// Ends every server this command started (their whole process groups).
    pub fn end(&self) {
        for name in &self.providers {
            self.runtime.remove_provider(name);
        }
    }
}

fn renamed(call: &RenamedCall) -> Renamed<'_> {
    Renamed {
        id: call.id.as_deref(),
        called: &call.called,
        replayed: &call.replayed,
        pointer: &call.pointer,
    }
}

fn repaired(call: &RepairedCall) -> Repaired<'_> {
    Repaired {
        id: call.id.as_deref(),
        called: &call.called,
        error: call.error.to_string(),
        pointer: &call.pointer,
    }
}

/// A runtime's builder whose meta-tools are the `taken` names (the built-ins when they are
/// the default ones), so its census reserves what `census` reserves.
pub(crate) fn builder_taking(taken: &[&str]) -> toolwire_core::runtime::ToolRuntimeBuilder {
    let builder = ToolRuntime::builder();
    if taken == DEFAULT_META_TOOLS {
        builder
    } else {
        builder.meta_tools(taken.iter().map(|name| app_meta_tool(name)))
    }
}

/// A name given with `--taken`: a meta-tool of the app, which this command cannot run, so a
/// call of it is answered with an error naming it.
fn app_meta_tool(name: &str) -> MetaTool {
    let tool = name.to_owned();
    MetaTool::new(
        name,
        "A tool of the app (--taken).",
        serde_json::json!({"type": "object"}),
        move |_| {
            let tool = tool.clone();
            async move {
                Err(ToolError::Failed {
                    message: format!(
                        "`{tool}` is a name the app takes (--taken); `toolwire calls --answer` cannot run it"
                    ),
                    tool,
                })
            }
        },
    )
}

/// One MCP server's tools under their bare names, as `calls --mcp-stdio` without `--server`
/// names them (an `McpProvider` names them `mcp/<server>/<tool>`).
struct BareNames {
    inner: McpProvider,
    prefix: String,
}

impl BareNames {
    fn new(inner: McpProvider) -> BareNames {
        let prefix = mcp_tool_name(inner.server(), "x");
        let prefix = prefix.trim_end_matches('x').to_owned();
        BareNames { inner, prefix }
    }
}

impl ToolProvider for BareNames {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
        Box::pin(async move {
            let mut tools = self.inner.list_tools().await?;
            for tool in &mut tools {
                if let Some(bare) = tool.name.strip_prefix(&self.prefix) {
                    tool.name = bare.to_owned();
                }
            }
            Ok(tools)
        })
    }

    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let named = format!("{}{tool}", self.prefix);
            self.inner.call(&named, arguments).await
        })
    }

    fn is_failed(&self) -> bool {
        self.inner.is_failed()
    }

    fn tools_changed(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        self.inner.tools_changed()
    }

    fn protocol_version(&self) -> Option<String> {
        self.inner.protocol_version()
    }

    fn shutdown(&self) {
        self.inner.shutdown();
    }

    fn reload(&self) -> BoxFuture<'_, Result<(), ProviderError>> {
        self.inner.reload()
    }
}

/// Runs `--answer` to its end, or until the command is interrupted (then every server it
/// started is ended and the interrupt is the error).
pub fn run(
    wanted: &[Wanted],
    options: toolwire_core::mcp::McpOptions,
    taken: &[&str],
    format: CallFormat,
    label: &str,
    read: impl FnOnce() -> Result<Collected, Failure>,
) -> Result<u8, Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|err| UnusableInput(format!("cannot start the async runtime: {err}")))?;
    runtime.block_on(async {
        let interrupted = mcp::interrupt()
            .map_err(|err| UnusableInput(format!("cannot watch for interrupts: {err}")))?;
        let work = async {
            let tools = AnswerTools::connect(wanted, options, taken).await?;
            {
                let mut err = io::stderr().lock();
                for failure in &tools.failures {
                    let _ = writeln!(err, "toolwire: {failure}");
                }
            }
            // The response is read while the servers are up (from stdin, it may be piped in
            // late); reading blocks this thread, not the servers' tasks.
            let collected = tokio::task::block_in_place(read);
            let answered = match collected {
                Ok(collected) => tools.answer(format, label, collected).await,
                Err(failure) => Err(failure),
            };
            tools.end();
            answered
        };
        tokio::select! {
            done = work => done,
            signal = interrupted => Err(UnusableInput(format!(
                "interrupted by {signal}; the MCP servers it started are ended"
            )).into()),
        }
    })
}
