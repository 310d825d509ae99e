//! The assistant turn for history, as the request it answers names things:
//! a called name the provider refuses in history is replayed under a name that resolves, in
//! this request's census, to the tool that was called or to no tool at all, never another
//! (`wire/replay/history_names.rs`), and an alias is recorded in the request's conversation so
//! a later call by it resolves as the call did.
//!
//! Policy: a request made outside a conversation records nothing; its aliases reach no tool
//! (the model that calls one is answered "unknown tool", with the closest names), which the
//! rule allows.

use std::cell::RefCell;

use serde_json::Value;

use super::conversation::HistoryAlias;
use super::request::Request;
use crate::wire::calls::{CallFormat, ToolCall};
use crate::wire::replay::{self, history_name, Replay, ReplayError, StreamedTurn};

impl Request {
    /// The assistant turn of `body` (a `format` response to this request) to append to
    /// history, given its `calls`: [`replay_turn`](crate::wire::replay::replay_turn), but a
    /// called name the provider refuses in history carries the called tool's offered form when
    /// exactly one tool travels as it, and otherwise an alias no tool answers to
    /// ([`RenamedCall::alias`](crate::wire::replay::RenamedCall::alias)), recorded in this
    /// request's conversation ([`ConversationState::aliases`](super::ConversationState::aliases)):
    /// a later call by it resolves as this call did. A stream's turn:
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
    /// # });
    /// ```
    pub fn replay_turn(
        &self,
        format: CallFormat,
        body: &Value,
        calls: &[ToolCall],
    ) -> Result<Replay, ReplayError> {
        let refuses = |called: &str| replay::refused_in_history(format, called);
        let conversation = self.conversation();
        // The aliases this turn gives, recorded once it is replayed: seen by the later calls
        // of the same turn, so two calls never share one.
        let aliased: RefCell<Vec<(String, HistoryAlias)>> = RefCell::new(Vec::new());
        let alias_of = |name: &str| {
            if let Some((_, pending)) = aliased.borrow().iter().find(|(alias, _)| alias == name) {
                return Some((pending.namespace.clone(), pending.called.clone()));
            }
            let alias = conversation?.recorded_alias(name)?;
            Some((alias.namespace, alias.called))
        };
        let replay = replay::replay_named(format, body, calls, &mut |call| {
            let named = history_name(
                self.census(),
                call.namespace.as_deref(),
                &call.name,
                &refuses,
                &alias_of,
            );
            // An alias of a call that reached no tool is not recorded: unrecorded it reaches
            // no tool either, as the call did, and the model, which can call any name, cannot
            // grow the conversation's state.
            if named.alias && named.reached {
                let stands_for = HistoryAlias {
                    called: call.name.clone(),
                    namespace: call.namespace.clone(),
                };
                aliased.borrow_mut().push((named.name.clone(), stands_for));
            }
            named
        })?;
        let aliased = aliased.into_inner();
        if let Some(conversation) = conversation {
            for (alias, stands_for) in aliased {
                conversation.record_alias(&alias, stands_for);
            }
        }
        Ok(replay)
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
    ) -> Result<Replay, ReplayError> {
        turn.whole()?;
        self.replay_turn(turn.format(), &turn.body(), calls)
    }
}
