//! A conversation: the catalog tools one conversation has loaded, across its requests.
//!
//! Policy: a loaded tool is remembered by its real name (its identity), so a reload that renames
//! forms, or a tool that goes away and comes back, never makes the conversation carry another
//! tool; each name its replayed history carries for a call that reached a tool
//! ([`Request::replay_turn`]) is remembered with that tool, so no later tool set reroutes it;
//! so is the tool each answered call ran, until the replay of its turn takes it; the state is
//! plain data an app can persist and resume, and a resumed conversation replays as the
//! original would.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::request::Request;
use super::shared::Shared;
use crate::census::{Census, Resolution};
use crate::wire::calls::machine::MAX_BLOCKS;
use crate::wire::calls::{Arguments, ArgumentsError, ToolCall};

/// What loading a tool into a conversation did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Loading {
    /// It was loaded before.
    Already,
    /// It is loaded now.
    Loaded,
    /// Not loaded: `loaded` tools are, as many as one request can carry.
    Full {
        /// How many tools are loaded.
        loaded: usize,
    },
}

/// What a conversation remembers: the real names of the catalog tools it loaded, the tool
/// each name its replayed history carries reached, and the tool each answered call not yet
/// replayed ran. Serialize it to persist a conversation;
/// [`ToolRuntime::resume`](crate::runtime::ToolRuntime::resume) takes it back.
///
/// ```
/// use toolwire_core::runtime::ConversationState;
/// // A state saved before the dispatched calls were kept reads too.
/// let state: ConversationState = serde_json::from_str(r#"{"loaded": ["mcp/files/read"]}"#).unwrap();
/// assert!(state.loaded.contains("mcp/files/read") && state.dispatched.is_empty());
/// assert_eq!(serde_json::to_string(&ConversationState::default()).unwrap(), r#"{"loaded":[]}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationState {
    /// Real names of the loaded tools.
    #[serde(default)]
    pub loaded: BTreeSet<String>,
    /// Each name the conversation's replayed history carries for a call that reached a tool
    /// ([`Request::replay_turn`]), with that tool: on every later turn, whatever the tool set
    /// is then, a call by the name reaches that tool or, if it is gone, no tool, and a tool
    /// that would travel under the name is left out of the request. Left out of the JSON when
    /// empty.
    ///
    /// Bound (our caution): only a call that reached a tool is recorded, once per name (and
    /// Responses API namespace) its history carries, so the model cannot grow it by inventing
    /// names: it holds at most the names by which some request's census reached a tool (its real
    /// name, its form, its namespaced pair) and the one alias of each, a few per tool called.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history_names: Vec<RecordedName>,
    /// Each call [`Request::answer_calls`] answered in this conversation whose assistant turn has
    /// not been replayed through it yet, oldest first, with the tool it ran: what the replay of
    /// its turn records for it ([`Request::replay_turn`]), even after a resume or a change of
    /// the tool set in between, since what its name reaches then may be another tool. The
    /// replay takes each call's entry (the latest one of its id, namespace, name and
    /// arguments), so a later call of the same id and name (Gemini's calls have none; some
    /// servers repeat them) never matches it, and neither does a call of the same name with
    /// other arguments that was answered elsewhere (a turn regenerated, its calls answered
    /// outside the conversation). The limit: a call of the same id (or none), name and
    /// arguments answered outside the conversation takes the entry of one answered in it and
    /// never replayed; the two ran the same tool unless the tool set changed in between. Left
    /// out of the JSON when empty.
    ///
    /// Bound (our caution): at most 4096 calls (as many as one assistant turn can hold); at most 1 MiB
    /// of the ids and names of the calls that ran a tool, and apart from them 256 KiB of those
    /// of the calls that ran none (the bytes of names the model invented never push out the
    /// tool of a call that ran one; 4096 such calls still do, by the count). Past a bound, the
    /// oldest go (logged), and the replay of a call whose
    /// entry went records what its name reaches then, returning it in
    /// [`Replay::unverified`](crate::wire::replay::Replay::unverified).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dispatched: Vec<DispatchedCall>,
    /// The aliases of a state saved before the names were recorded with their tool (its
    /// `aliases`: alias -> the call it stood for), read so that resuming it never drops them
    /// (a dropped alias would resolve in the census alone, maybe to another tool): resume
    /// turns each into a record (`ConversationState::upgrade`). Never written.
    #[serde(default, rename = "aliases", skip_serializing)]
    old_aliases: BTreeMap<String, OldAlias>,
}

/// The call an alias stood for, in a state saved before names were recorded with their tool.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
struct OldAlias {
    called: String,
    #[serde(default)]
    namespace: Option<String>,
}

impl ConversationState {
    /// Whether the state holds aliases of an old saved state, to upgrade.
    pub(super) fn has_old_aliases(&self) -> bool {
        !self.old_aliases.is_empty()
    }

    /// Turns the aliases of an old saved state into records, as resume does: each alias
    /// records the tool its call reaches in `census` (the census of the request that resumes it),
    /// or, when it reaches none now, the called name as a real name (a call by the alias then
    /// reaches only a tool of exactly that name, as the call did by hop 5's exact match, or
    /// none; our caution: the old state did not say which tool it reached). An alias recorded
    /// already keeps its record.
    pub(super) fn upgrade(&mut self, census: &Census) {
        if self.old_aliases.is_empty() {
            return;
        }
        for (alias, call) in std::mem::take(&mut self.old_aliases) {
            let namespace = call.namespace.as_deref();
            if self.history_names.iter().any(|r| r.is(namespace, &alias)) {
                continue;
            }
            let tool = match census.resolve_call(namespace, &call.called) {
                Ok(Resolution::Tool(hit)) => hit.name.to_owned(),
                // A meta-tool's call recorded nothing, and its name stays the runtime's.
                Ok(Resolution::Meta(_)) => continue,
                Err(_) => call.called.clone(),
            };
            self.history_names.push(RecordedName {
                name: alias,
                namespace: call.namespace,
                tool,
            });
        }
    }
}

/// A name in replayed history and the tool the call by it reached: the name the call carries
/// in history ([`Request::replay_turn`]: the called name, the tool's form, or an alias
/// ([`RenamedCall::alias`](crate::wire::replay::RenamedCall::alias))), the Responses API
/// namespace it was made in, and the tool's real name.
///
/// ```
/// use toolwire_core::runtime::{ConversationState, RecordedName};
/// let state: ConversationState = serde_json::from_str(
///     r#"{"loaded": [], "history_names": [{"name": "mcp_y_fetch", "tool": "mcp/y/fetch"}]}"#,
/// ).unwrap();
/// let fetch = RecordedName { name: "mcp_y_fetch".into(), namespace: None, tool: "mcp/y/fetch".into() };
/// assert_eq!(state.history_names, [fetch]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedName {
    /// The name as history carries it.
    pub name: String,
    /// The call's Responses API namespace, when it had one (a call by the name must name the
    /// same one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The real name of the tool the call reached.
    pub tool: String,
}

impl RecordedName {
    /// Whether this is the record of `name` called in `namespace`.
    pub(super) fn is(&self, namespace: Option<&str>, name: &str) -> bool {
        self.name == name && self.namespace.as_deref() == namespace
    }
}

/// A call answered in a conversation ([`Request::answer_calls`]), as the model sent it, and the
/// tool it ran, kept until the replay of its turn takes it
/// ([`ConversationState::dispatched`]).
///
/// ```
/// use toolwire_core::runtime::{ConversationState, DispatchedCall};
/// let state: ConversationState = serde_json::from_str(r#"{"loaded": [], "dispatched": [
///     {"id": "call_1", "called": "mcp_y_fetch", "tool": "mcp/y/fetch"},
///     {"called": "get_weather"}
/// ]}"#).unwrap();
/// assert_eq!(state.dispatched[0].tool.as_deref(), Some("mcp/y/fetch"));
/// // A call that reached no tool (or a meta-tool) ran none: its replay records nothing.
/// assert_eq!(state.dispatched[1], DispatchedCall {
///     id: None, namespace: None, called: "get_weather".into(), arguments_digest: None, tool: None,
/// });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DispatchedCall {
    /// The call's id ([`ToolCall::id`](crate::wire::calls::ToolCall::id)); none for a Gemini
    /// call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The call's Responses API namespace, when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The name the model called.
    pub called: String,
    /// A digest of the call's arguments (sixteen hex digits of a 64-bit FNV-1a hash of their
    /// JSON text as serde_json writes the call's [`ToolCall::arguments`], or of why they are
    /// unusable): the replay takes the entry only for a call of the same arguments value,
    /// which the same response's calls have (the calls `answer_calls` saw, the body parsed
    /// again, a stream's calls). None in a state saved before digests were kept: it matches
    /// any. A digest that differs only fails safe: the call is then returned as unverified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments_digest: Option<String>,
    /// The real name of the tool the call ran; none when it reached no tool or a meta-tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

impl DispatchedCall {
    /// Whether this is the call `(id, namespace, called)` with arguments of digest
    /// `arguments` (an entry kept without a digest matches any).
    fn is(&self, id: Option<&str>, namespace: Option<&str>, called: &str, arguments: &str) -> bool {
        self.id.as_deref() == id
            && self.namespace.as_deref() == namespace
            && self.called == called
            && (self.arguments_digest.as_deref()).is_none_or(|kept| kept == arguments)
    }

    /// What it weighs against its bound ([`MAX_DISPATCHED_BYTES`], or
    /// [`MAX_UNRUN_BYTES`] for a call that ran no tool): its id, names and digest.
    fn bytes(&self) -> usize {
        let len = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        len(&self.id)
            + len(&self.namespace)
            + self.called.len()
            + len(&self.arguments_digest)
            + len(&self.tool)
    }
}

/// The digest of `arguments` a [`DispatchedCall`] keeps: sixteen hex digits of a 64-bit FNV-1a
/// hash (stable across builds and releases, unlike std's hasher, for a persisted state) of
/// their JSON text as serde_json writes it, or of why they are unusable.
pub(super) fn arguments_digest(arguments: &Result<Arguments, ArgumentsError>) -> String {
    use std::io::Write;
    let mut hash = Fnv1a(0xcbf2_9ce4_8422_2325);
    // Writing into the hash cannot fail, and a map of JSON values always serializes.
    let _ = match arguments {
        Ok(arguments) => serde_json::to_writer(&mut hash, arguments).map_err(drop),
        Err(error) => write!(hash, "unusable: {error}").map_err(drop),
    };
    format!("{:016x}", hash.0)
}

/// A 64-bit FNV-1a hash, written to as a byte sink.
struct Fnv1a(u64);

impl std::io::Write for Fnv1a {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One conversation with the model: its requests carry the meta-tools, the pinned tools and the
/// tools it loaded (when the catalog is deferred), and a call by any name of a catalog tool
/// loads that tool. Cheap to clone; clones share the state.
///
/// ```
/// # use std::sync::Arc;
/// # use serde_json::json;
/// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
/// # let echo = provider_fn("echo", vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))], |_, args| async move { Ok(args) });
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let runtime = ToolRuntime::builder()
///     .catalog(CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(0))
///     .build()
///     .unwrap();
/// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
/// let conversation = runtime.conversation();
/// assert_eq!(conversation.request().tools(WireFormat::OpenAi).unwrap().as_array().unwrap().len(), 3);
/// conversation.request().dispatch("tool_schema", json!({"name": "mcp/server/echo"})).await.unwrap();
/// assert_eq!(conversation.loaded(), ["mcp/server/echo"]);
/// assert_eq!(conversation.request().tools(WireFormat::OpenAi).unwrap()[3]["function"]["name"], "mcp_server_echo");
/// # });
/// ```
#[derive(Clone)]
pub struct Conversation {
    shared: Arc<Shared>,
    state: Arc<Mutex<Held>>,
}

/// A conversation's state and, beside it, its history records keyed by name: hop 5 looks a
/// called name up on every call, so a lookup is one hash probe, not a walk of the records
/// (the records stay a `Vec` in [`ConversationState`], the shape a saved state has).
struct Held {
    state: ConversationState,
    /// Each recorded name, with the positions in `state.history_names` of its records (one
    /// per Responses API namespace it was recorded in: one or two).
    by_name: HashMap<String, Vec<usize>>,
    /// [`ConversationState::dispatched`], held here (and `state`'s left empty) so that the
    /// oldest go in constant time; [`Conversation::state`] puts them back.
    dispatched: VecDeque<DispatchedCall>,
    /// What the calls of `dispatched` that ran a tool weigh ([`DispatchedCall::bytes`]).
    dispatched_bytes: usize,
    /// What the calls of `dispatched` that ran none weigh.
    unrun_bytes: usize,
}

/// How many answered calls a conversation keeps the tool of, for their replay: our caution,
/// as many as one turn can hold (an app that never replays through the runtime must not grow
/// the conversation without end).
const MAX_DISPATCHED: usize = MAX_BLOCKS;

/// How many bytes of ids and names those of the calls that ran a tool may hold together: our
/// caution, 256 bytes a call at the count bound.
const MAX_DISPATCHED_BYTES: usize = 1 << 20;

/// How many bytes those of the calls that ran no tool may hold, apart: our caution, so that
/// names the model invents (of any length) never push out, by their bytes, the entry of a call
/// that ran a tool.
const MAX_UNRUN_BYTES: usize = 1 << 18;

impl Held {
    /// The position of the record of `name` made in `namespace`.
    fn find(&self, namespace: Option<&str>, name: &str) -> Option<usize> {
        let at = self.by_name.get(name)?;
        let names = &self.state.history_names;
        at.iter()
            .copied()
            .find(|&i| names[i].namespace.as_deref() == namespace)
    }

    /// Records `record` unless its name (in its namespace) is recorded already.
    fn record(&mut self, record: RecordedName) {
        if self
            .find(record.namespace.as_deref(), &record.name)
            .is_some()
        {
            return;
        }
        let at = self.state.history_names.len();
        (self.by_name.entry(record.name.clone()).or_default()).push(at);
        self.state.history_names.push(record);
    }

    /// The byte count `call` weighs against: the one of calls that ran a tool, or the one of
    /// calls that ran none.
    fn bytes_of(&mut self, call: &DispatchedCall) -> &mut usize {
        match call.tool {
            Some(_) => &mut self.dispatched_bytes,
            None => &mut self.unrun_bytes,
        }
    }

    /// Removes the kept call at `at`, if there is one, with its weight.
    fn forget(&mut self, at: usize) -> Option<DispatchedCall> {
        let call = self.dispatched.remove(at)?;
        *self.bytes_of(&call) -= call.bytes();
        Some(call)
    }

    /// Keeps `call`, then lets the oldest calls go past the bounds (the oldest of its kind
    /// past a byte bound), warning how many went.
    fn keep_dispatched(&mut self, call: DispatchedCall) {
        *self.bytes_of(&call) += call.bytes();
        self.dispatched.push_back(call);
        let mut evicted = 0;
        loop {
            let ran = |call: &DispatchedCall| call.tool.is_some();
            let oldest = if self.dispatched.len() > MAX_DISPATCHED {
                Some(0)
            } else if self.dispatched_bytes > MAX_DISPATCHED_BYTES {
                self.dispatched.iter().position(ran)
            } else if self.unrun_bytes > MAX_UNRUN_BYTES {
                self.dispatched.iter().position(|call| !ran(call))
            } else {
                None
            };
            if oldest.and_then(|at| self.forget(at)).is_none() {
                break;
            }
            evicted += 1;
        }
        if evicted > 0 {
            tracing::warn!(
                evicted,
                "the conversation lets go of the tool its oldest answered calls ran (at most \
                 {MAX_DISPATCHED} calls, {MAX_DISPATCHED_BYTES} bytes of names of calls that \
                 ran a tool, {MAX_UNRUN_BYTES} of calls that ran none): their replay records \
                 what their names reach then, and returns them as unverified"
            );
        }
    }
}

impl fmt::Debug for Conversation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Conversation")
            .field("loaded", &self.lock().state.loaded)
            .finish_non_exhaustive()
    }
}

impl Serialize for Conversation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.state().serialize(serializer)
    }
}

impl Conversation {
    /// A conversation over `shared` that remembers `state`.
    pub(super) fn new(shared: Arc<Shared>, mut state: ConversationState) -> Conversation {
        // Indexed as recorded: a name listed twice (a hand-edited state) keeps its first tool.
        let records = std::mem::take(&mut state.history_names);
        let dispatched = std::mem::take(&mut state.dispatched);
        let mut held = Held {
            state,
            by_name: HashMap::new(),
            dispatched: VecDeque::new(),
            dispatched_bytes: 0,
            unrun_bytes: 0,
        };
        for record in records {
            held.record(record);
        }
        // Under the bounds, as a call answered now would be (a state saved with other bounds).
        for call in dispatched {
            held.keep_dispatched(call);
        }
        Conversation {
            shared,
            state: Arc::new(Mutex::new(held)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next request: the runtime's tools as they are now, and what this conversation has
    /// loaded so far (fixed for the request: a tool loaded while it is answered travels from the
    /// next request on).
    ///
    /// ```
    /// let conversation = toolwire_core::ToolRuntime::new().conversation();
    /// assert!(conversation.request().conversation().is_some());
    /// ```
    pub fn request(&self) -> Request {
        let loaded = self.lock().state.loaded.clone();
        Request::new(self.shared.clone(), Some((self.clone(), loaded)))
    }

    /// The conversation's state, to persist.
    ///
    /// ```
    /// let conversation = toolwire_core::ToolRuntime::new().conversation();
    /// conversation.load("a/b");
    /// assert!(conversation.state().loaded.contains("a/b"));
    /// ```
    pub fn state(&self) -> ConversationState {
        let held = self.lock();
        let mut state = held.state.clone();
        state.dispatched = held.dispatched.iter().cloned().collect();
        state
    }

    /// The real names of the loaded tools, sorted.
    ///
    /// ```
    /// let conversation = toolwire_core::ToolRuntime::new().conversation();
    /// conversation.load("b");
    /// conversation.load("a");
    /// assert_eq!(conversation.loaded(), ["a", "b"]);
    /// ```
    pub fn loaded(&self) -> Vec<String> {
        self.lock().state.loaded.iter().cloned().collect()
    }

    /// Loads the tool whose real name is `tool`: the next request carries it (if it is offered
    /// then). Whether it was not loaded before. The runtime loads a tool itself when
    /// `tool_schema` names it or the model calls it; this is for an app that knows better.
    ///
    /// ```
    /// let conversation = toolwire_core::ToolRuntime::new().conversation();
    /// assert!(conversation.load("mcp/files/read"));
    /// assert!(!conversation.load("mcp/files/read"));
    /// ```
    pub fn load(&self, tool: &str) -> bool {
        self.lock().state.loaded.insert(tool.to_owned())
    }

    /// Loads `tool` unless `most` tools are loaded already; one look under the lock, so two
    /// calls of one response never load past `most` together.
    pub(super) fn load_within(&self, tool: &str, most: usize) -> Loading {
        let mut held = self.lock();
        let state = &mut held.state;
        if state.loaded.contains(tool) {
            Loading::Already
        } else if state.loaded.len() >= most {
            Loading::Full {
                loaded: state.loaded.len(),
            }
        } else {
            state.loaded.insert(tool.to_owned());
            Loading::Loaded
        }
    }

    /// The real name of the tool the history name `name` (called in `namespace`) reached,
    /// when this conversation recorded it: one hash probe.
    pub(super) fn recorded_tool(&self, namespace: Option<&str>, name: &str) -> Option<String> {
        let held = self.lock();
        let at = held.find(namespace, name)?;
        Some(held.state.history_names[at].tool.clone())
    }

    /// `f` of the history names recorded, with their tools, under the lock (nothing cloned):
    /// `f` must not call back into the conversation.
    pub(super) fn with_records<R>(&self, f: impl FnOnce(&[RecordedName]) -> R) -> R {
        f(&self.lock().state.history_names)
    }

    /// Records `names`, each unless its name (in its namespace) is recorded already: a name
    /// keeps the first tool it reached.
    pub(super) fn record_history_names(&self, names: Vec<RecordedName>) {
        if names.is_empty() {
            return;
        }
        let mut held = self.lock();
        for name in names {
            held.record(name);
        }
    }

    /// Remembers that `call` was dispatched to the tool whose real name is `tool` (hop 5 as
    /// the call ran; none when it reached no tool or a meta-tool), for the replay of its turn.
    pub(super) fn record_dispatched(&self, call: &ToolCall, tool: Option<&str>) {
        // Built before the lock is taken: the digest serializes the arguments.
        let dispatched = DispatchedCall {
            id: call.id.clone(),
            namespace: call.namespace.clone(),
            called: call.name.clone(),
            arguments_digest: Some(arguments_digest(&call.arguments)),
            tool: tool.map(str::to_owned),
        };
        self.lock().keep_dispatched(dispatched);
    }

    /// Takes the latest dispatch of `call` (its id, namespace, name and arguments) this
    /// conversation keeps, whose `tool` is the real name of the tool it ran (none: it reached
    /// none); `None` when it keeps none (not answered here, taken by an earlier replay, or let
    /// go).
    pub(super) fn take_dispatched(&self, call: &ToolCall) -> Option<DispatchedCall> {
        let (id, namespace) = (call.id.as_deref(), call.namespace.as_deref());
        let arguments = arguments_digest(&call.arguments);
        let mut held = self.lock();
        let at = held
            .dispatched
            .iter()
            .rposition(|kept| kept.is(id, namespace, &call.name, &arguments))?;
        held.forget(at)
    }

    /// Gives back the dispatches a replay took (`take_dispatched`) and then failed to
    /// replay: the app's retry of that replay finds them as `answer_calls` left them.
    pub(super) fn give_back_dispatched(&self, calls: Vec<DispatchedCall>) {
        if calls.is_empty() {
            return;
        }
        let mut held = self.lock();
        for call in calls {
            held.keep_dispatched(call);
        }
    }

    /// Unloads every tool (the pinned tools travel anyway): what `reset_tools` does. The
    /// recorded history names stay: the history still carries them.
    ///
    /// ```
    /// let conversation = toolwire_core::ToolRuntime::new().conversation();
    /// conversation.load("mcp/files/read");
    /// conversation.reset();
    /// assert!(conversation.loaded().is_empty());
    /// ```
    pub fn reset(&self) {
        self.lock().state.loaded.clear();
    }
}
