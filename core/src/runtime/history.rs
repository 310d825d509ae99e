//! The assistant turn for history, as the request it answers names things, and what every
//! later request of the conversation makes of the names it carries.
//!
//! - A called name the provider refuses in history is replayed under a name that resolves, in
//!   this request's census, to the tool that was called or to no tool at all, never another
//!   (`wire/replay/history_names.rs`).
//! - Every name the replayed turn carries for a call that reached a tool (the called name,
//!   the tool's form, an alias) is recorded in the conversation with the tool's real name
//!   ([`RecordedName`]): history is sent again on every later request, whose census may differ (a
//!   backend's `list_changed`, a restart, a tool switched on), and hop 5 of
//!   `docs/spec/tool-name-wire.md` ("the single mapping point for every later turn too") must
//!   still reach that tool. The tool recorded is the one the call ran, as `answer_calls`
//!   dispatched it on any request of the conversation, not what the called name reaches when
//!   the turn is replayed: the tool set may have changed in between, and the name may reach
//!   another tool by then (or none). The conversation's state keeps each dispatch
//!   ([`ConversationState::dispatched`]) until the replay of its call takes it, so a resumed
//!   conversation replays as the original would; a call it keeps no dispatch of records what
//!   its name reaches now, and the [`Replay`] returns it in `unverified`. A later call by a
//!   recorded name reaches that tool or, if it is
//!   gone, no tool ([`resolve_in_history`]); a later tool whose form is a recorded name of
//!   another tool does not travel under it: the request leaves it out, saying so
//!   ([`WhyLeftOut::HistoryName`]), as the spec leaves out a tool whose form is a name
//!   already taken.
//!
//! Policy: a request made outside a conversation records nothing; its aliases reach no tool
//! (the model that calls one is answered "unknown tool", with the closest names), which the
//! rule allows. A call that reached a meta-tool records nothing: a meta-tool's name is taken
//! in every census. A call that reached no tool records nothing, so the model cannot grow the
//! state by inventing names (the bound: [`ConversationState::history_names`]).

use std::cell::RefCell;

use serde_json::Value;

use super::conversation::{DispatchedCall, RecordedName};
use super::request::Request;
use crate::census::{Resolution, UnknownTool};
use crate::wire::calls::{CallFormat, ToolCall};
use crate::wire::replay::{
    self, history_name, resolve_in_history, Replay, ReplayError, StreamedTurn, UnverifiedCall,
};
use crate::wire::{LeftOutTool, WhyLeftOut};

#[cfg(doc)]
use super::ConversationState;

/// What a replayed call's conversation says it ran.
#[derive(Default)]
struct Ran {
    /// Its dispatch, taken from the conversation: the tool it ran (`Some(None)`: none);
    /// `None` when the conversation kept none.
    dispatched: Option<Option<String>>,
    /// Whether an earlier turn's replay recorded its name (so its dispatch went by the record).
    recorded_before: bool,
    /// Whether the replay is in a conversation (outside one nothing is recorded).
    in_conversation: bool,
}

impl Ran {
    /// Whether what the call ran is not known: in a conversation that kept no dispatch of it
    /// and no earlier record of its name, so what is recorded for it is the census's now.
    fn unverified(&self) -> bool {
        self.in_conversation && self.dispatched.is_none() && !self.recorded_before
    }
}

impl Request {
    /// The assistant turn of `body` (a `format` response to this request) to append to
    /// history, given its `calls`: [`replay_turn`](crate::wire::replay::replay_turn), but a
    /// called name the provider refuses in history carries the called tool's offered form when
    /// exactly one tool travels as it, and otherwise an alias no tool answers to
    /// ([`RenamedCall::alias`](crate::wire::replay::RenamedCall::alias)). Each name the turn
    /// carries for a call that reached a tool (the called name, the form, the alias) is
    /// recorded in this request's conversation with that tool (the tool the call ran, when
    /// [`answer_calls`](Self::answer_calls) answered it in this conversation, even if the tool
    /// set changed since or the conversation was resumed; else the tool hop 5 reaches in this
    /// request, and the call is listed in [`Replay::unverified`])
    /// ([`ConversationState::history_names`](super::ConversationState::history_names)): on
    /// every later request, whatever the tool set is then, a call by it reaches that tool or, if
    /// it is gone, none, and a tool that would travel under it is left out of the request
    /// ([`WhyLeftOut::HistoryName`]). A stream's turn:
    /// [`replay_streamed`](Self::replay_streamed), which also refuses a cut or failed turn.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// use toolwire_core::{ToolDefinition, ToolRuntime, provider::provider_fn};
    /// use toolwire_core::wire::calls::{parse_calls, CallFormat};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let tools = ["mcp/x/search.web", "mcp_x_search_web"]
    ///     .map(|name| ToolDefinition::new(name, "Searches.", json!({})));
    /// let search = provider_fn("x", tools.to_vec(), |tool, _| async move { Ok(json!(tool)) });
    /// let runtime = ToolRuntime::new();
    /// // One provider's two tools of one form: its load reports the clash.
    /// assert!(runtime.add_provider(Arc::new(search)).await.unwrap().check().is_err());
    /// let conversation = runtime.conversation();
    /// let request = conversation.request();
    /// let body = json!({"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [
    ///     {"id": "call_1", "type": "function",
    ///      "function": {"name": "mcp/x/search.web", "arguments": "{}"}}]}}]});
    /// let calls = parse_calls(CallFormat::OpenAiChat, &body).unwrap();
    /// let replay = request.replay_turn(CallFormat::OpenAiChat, &body, &calls).unwrap();
    /// // Not `mcp_x_search_web`, the other tool's name: an alias, which reaches the called tool.
    /// let alias = replay.turn["tool_calls"][0]["function"]["name"].as_str().unwrap();
    /// assert!(replay.renamed[0].alias && alias != "mcp_x_search_web");
    /// let out = conversation.request().dispatch(alias, json!({})).await.unwrap();
    /// assert_eq!(out.tool, "mcp/x/search.web");
    /// assert_eq!(conversation.state().history_names[0].tool, "mcp/x/search.web");
    /// # });
    /// ```
    pub fn replay_turn<'a>(
        &self,
        format: CallFormat,
        body: &'a Value,
        calls: &[ToolCall],
    ) -> Result<Replay<'a>, ReplayError> {
        let refuses = |called: &str| replay::refused_in_history(format, called);
        let conversation = self.conversation();
        // The names this turn records, recorded once it is replayed: seen by the later calls
        // of the same turn, so two calls never share one.
        let pending: RefCell<Vec<RecordedName>> = RefCell::new(Vec::new());
        // The calls whose tool is taken from this census, not from their dispatch.
        // Each with its call's address in `calls`, to return them in call order (the plain
        // calls are recorded first).
        let unverified: RefCell<Vec<(usize, UnverifiedCall)>> = RefCell::new(Vec::new());
        let recorded = |namespace: Option<&str>, name: &str| {
            if let Some(record) = pending.borrow().iter().find(|r| r.is(namespace, name)) {
                return Some(record.tool.clone());
            }
            conversation?.recorded_tool(namespace, name)
        };
        // What the call ran, asked once per call: its dispatch's entry in the conversation is
        // taken (a later call of the same id and name never matches it).
        // The dispatches taken, given back if the replay fails (its retry finds them).
        let taken: RefCell<Vec<DispatchedCall>> = RefCell::new(Vec::new());
        let ran = |call: &ToolCall| {
            let namespace = call.namespace.as_deref();
            let Some(conversation) = conversation else {
                return Ran::default();
            };
            let entry = conversation.take_dispatched(call);
            let dispatched = entry.as_ref().map(|entry| entry.tool.clone());
            taken.borrow_mut().extend(entry);
            Ran {
                dispatched,
                recorded_before: conversation.recorded_tool(namespace, &call.name).is_some(),
                in_conversation: true,
            }
        };
        // `ran` is the call's `ran(call)`, asked once by the caller.
        let record = |call: &ToolCall, name: String, ran: &Ran| {
            let namespace = call.namespace.as_deref();
            // A record of its name comes first (a recorded name reached its tool at the
            // dispatch too); then the tool the call ran, even when it is gone now (a call by
            // the name then reaches none, never another; a call that ran none records
            // nothing); else hop 5 now, returned as unverified. A call that reaches a
            // meta-tool or nothing records nothing.
            let tool = match &ran.dispatched {
                Some(tool) if recorded(namespace, &call.name).is_none() => tool.clone(),
                _ => match resolve_in_history(self.census(), &recorded, namespace, &call.name) {
                    Ok(Resolution::Tool(hit)) => {
                        if ran.unverified() {
                            self.unverified(&unverified, call, hit.name);
                        }
                        Some(hit.name.to_owned())
                    }
                    _ => None,
                },
            };
            if let Some(tool) = tool {
                // A renamed call's called name is recorded too: the replay of the same turn
                // again (the dispatch taken by now) then finds what the call ran, rather than
                // asking the census and calling it unverified.
                let called = (name != call.name).then(|| RecordedName {
                    name: call.name.clone(),
                    namespace: call.namespace.clone(),
                    tool: tool.clone(),
                });
                let mut pending = pending.borrow_mut();
                pending.push(RecordedName {
                    name,
                    namespace: call.namespace.clone(),
                    tool,
                });
                pending.extend(called);
            }
        };
        // The calls history carries as they were called, first: their names depend on the
        // census too, and are theirs whatever the renamed calls of the turn are, so a renamed
        // call must not take one for another tool (it sees them pending, and gets an alias).
        for call in calls.iter().filter(|call| !refuses(&call.name)) {
            record(call, call.name.clone(), &ran(call));
        }
        let replayed = replay::replay_named(format, body, calls, &mut |call| {
            // `recorded`, with the call's own name recorded for the tool it ran.
            let ran = ran(call);
            let recorded_for = |namespace: Option<&str>, name: &str| {
                let own = namespace == call.namespace.as_deref() && name == call.name;
                match (recorded(namespace, name), &ran.dispatched) {
                    (None, Some(Some(tool))) if own => Some(tool.clone()),
                    (recorded, _) => recorded,
                }
            };
            let named = history_name(
                self.census(),
                call.namespace.as_deref(),
                &call.name,
                &refuses,
                &recorded_for,
            );
            record(call, named.name.clone(), &ran);
            named
        });
        let mut replay = match replayed {
            Ok(replay) => replay,
            Err(error) => {
                if let Some(conversation) = conversation {
                    conversation.give_back_dispatched(taken.into_inner());
                }
                return Err(error);
            }
        };
        if let Some(conversation) = conversation {
            conversation.record_history_names(pending.into_inner());
        }
        let mut unverified = unverified.into_inner();
        unverified.sort_by_key(|(at, _)| *at);
        replay.unverified = unverified.into_iter().map(|(_, call)| call).collect();
        Ok(replay)
    }

    /// Adds `call` to `unverified`, with the `tool` its name reaches now, and says so in the
    /// log too.
    fn unverified(
        &self,
        unverified: &RefCell<Vec<(usize, UnverifiedCall)>>,
        call: &ToolCall,
        tool: &str,
    ) {
        // The calls of one slice: their addresses are in call order.
        let at = std::ptr::from_ref(call) as usize;
        let call = UnverifiedCall {
            id: call.id.clone(),
            namespace: call.namespace.clone(),
            called: call.name.clone(),
            tool: tool.to_owned(),
        };
        tracing::warn!(%call, "a replayed name is recorded from the census");
        unverified.borrow_mut().push((at, call));
    }

    /// The assistant turn a stream carried, to append to history, given the calls the stream
    /// yielded: [`replay_turn`](Self::replay_turn) of the turn's body, once
    /// [`StreamedTurn::whole`] says the turn is whole: a cut turn is [`ReplayError::Cut`] and
    /// a turn whose stream failed is [`ReplayError::Failed`], never history.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// use toolwire_core::{ToolDefinition, ToolRuntime, provider::provider_fn};
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// use toolwire_core::wire::replay::ReplayError;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let tools = vec![ToolDefinition::new("get_time", "The time.", json!({}))];
    /// let time = provider_fn("t", tools, |_, _| async move { Ok(json!("noon")) });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(time)).await.unwrap().check().unwrap();
    /// let request = runtime.conversation().request();
    /// let mut stream = SseCallStream::new(CallFormat::Anthropic).recording_turn();
    /// let calls = stream.push(concat!(
    ///     "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":",
    ///     "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_time\",\"input\":{}}}\n\n",
    /// ).as_bytes()).unwrap();
    /// // The stream stopped before the call's `content_block_stop`: not history.
    /// let turn = stream.turn().unwrap();
    /// assert!(matches!(request.replay_streamed(turn, &calls), Err(ReplayError::Cut { .. })));
    /// # });
    /// ```
    pub fn replay_streamed(
        &self,
        turn: &StreamedTurn,
        calls: &[ToolCall],
    ) -> Result<Replay<'static>, ReplayError> {
        turn.whole()?;
        // The body is built for this replay: its turn is taken out of it, not copied.
        replay::owned_from_built(turn.format(), turn.body(), |body| {
            self.replay_turn(turn.format(), body, calls)
        })
    }

    /// Remembers, in this request's conversation, the tool `call` is dispatched to (its hop 5,
    /// as `answer_calls` runs it): what the replay of its turn records for it, on whichever
    /// request of the conversation it is replayed. A call that reaches a meta-tool or nothing
    /// is remembered as running none: its replay records nothing, whatever its name reaches
    /// by then.
    pub(super) fn note_dispatched(&self, call: &ToolCall, resolution: Option<Resolution<'_>>) {
        let Some(conversation) = self.conversation() else {
            return;
        };
        let tool = match resolution {
            Some(Resolution::Tool(hit)) => Some(hit.name),
            _ => None,
        };
        conversation.record_dispatched(call, tool);
    }

    /// Hop 5 for a name this request's conversation recorded in replayed history
    /// ([`replay_turn`](Self::replay_turn)): the tool it reached then, or no tool if that tool
    /// is gone, never another; `None` when the name is not recorded (the census decides).
    pub(super) fn resolve_recorded(
        &self,
        namespace: Option<&str>,
        called: &str,
    ) -> Option<Result<Resolution<'_>, UnknownTool>> {
        let conversation = self.conversation()?;
        let tool = conversation.recorded_tool(namespace, called)?;
        let recorded = |_: Option<&str>, _: &str| Some(tool.clone());
        Some(resolve_in_history(
            self.census(),
            &recorded,
            namespace,
            called,
        ))
    }

    /// The tools this request carries (`carries`, by census position) that would travel under
    /// a name (in a namespace, in a namespaced list) this request's conversation recorded in
    /// history for another tool, each with why it is left out, sorted by position: a call by
    /// that name reaches the recorded tool, so this one cannot travel under it. `travels_as`
    /// is where the tool at a position travels: `(namespace, name)`, or `None` when it does
    /// not. It walks the records (a few per tool called), never the tool set: the one tool
    /// that can travel under a name is the one hop 5 finds by it in the census
    /// ([`Census::resolve`](crate::census::Census::resolve),
    /// [`Census::resolve_in_namespace`](crate::census::Census::resolve_in_namespace)), and it is checked to travel
    /// there. Nothing allocated when the conversation recorded nothing.
    pub(super) fn taken_by_history<'p>(
        &self,
        carries: impl Fn(usize) -> bool,
        travels_as: impl Fn(usize) -> Option<(Option<&'p str>, &'p str)>,
    ) -> Vec<(usize, LeftOutTool)> {
        let Some(conversation) = self.conversation() else {
            return Vec::new();
        };
        let census = self.census();
        let tools = census.tools();
        let mut taken: Vec<(usize, LeftOutTool)> = conversation.with_records(|records| {
            let mut taken = Vec::new();
            for record in records {
                let namespace = record.namespace.as_deref();
                let found = match namespace {
                    None => census.resolve(&record.name),
                    Some(namespace) => census.resolve_in_namespace(namespace, &record.name),
                };
                let Ok(Resolution::Tool(hit)) = found else {
                    continue;
                };
                let tool = &tools[hit.index];
                let under = travels_as(hit.index) == Some((namespace, record.name.as_str()));
                if under && tool.name() != record.tool && carries(hit.index) {
                    let why = WhyLeftOut::HistoryName {
                        name: record.name.clone(),
                        tool: record.tool.clone(),
                    };
                    taken.push((hit.index, LeftOutTool::new(tool.name(), tool.form(), why)));
                }
            }
            taken
        });
        taken.sort_by_key(|(at, _)| *at);
        taken.dedup_by_key(|(at, _)| *at);
        taken
    }

    /// [`taken_by_history`](Self::taken_by_history) for a flat list: each tool travels as its
    /// form.
    pub(super) fn taken_in_flat_list(
        &self,
        carries: impl Fn(usize) -> bool,
    ) -> Vec<(usize, LeftOutTool)> {
        let tools = self.census().tools();
        self.taken_by_history(carries, |index| Some((None, tools[index].form())))
    }
}
