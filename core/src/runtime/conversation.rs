//! A conversation: the catalog tools one conversation has loaded, across its turns.
//!
//! Policy: a loaded tool is remembered by its real name (its identity), so a reload that renames
//! forms, or a tool that goes away and comes back, never makes the conversation carry another
//! tool; an alias its replayed history carries ([`Request::replay_turn`]) is remembered with the
//! call it stands for; the state is plain data an app can persist and resume.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::request::Request;
use super::shared::Shared;

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

/// What a conversation remembers: the real names of the catalog tools it loaded. Serialize it to
/// persist a conversation;
/// [`ToolRuntime::resume`](crate::runtime::ToolRuntime::resume) takes it back.
///
/// ```
/// use toolwire_core::runtime::ConversationState;
/// let state: ConversationState = serde_json::from_str(r#"{"loaded": ["mcp/files/read"]}"#).unwrap();
/// assert!(state.loaded.contains("mcp/files/read"));
/// assert_eq!(serde_json::to_string(&ConversationState::default()).unwrap(), r#"{"loaded":[]}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationState {
    /// Real names of the loaded tools.
    #[serde(default)]
    pub loaded: BTreeSet<String>,
    /// Each alias the conversation's replayed history carries ([`Request::replay_turn`]), and
    /// the call it stands for: a later call by the alias resolves as that call did. Left out
    /// of the JSON when empty.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub aliases: BTreeMap<String, HistoryAlias>,
}

/// The call an alias in replayed history stands for: the name the model called (and its
/// Responses API namespace), which no name in the provider's history rules could carry without
/// reaching another tool or none ([`RenamedCall::alias`](crate::wire::replay::RenamedCall::alias)).
///
/// ```
/// use toolwire_core::runtime::{ConversationState, HistoryAlias};
/// let state: ConversationState = serde_json::from_str(
///     r#"{"loaded": [], "aliases": {"mcp_x_search_web_h0badf00": {"called": "mcp/x/search.web"}}}"#,
/// ).unwrap();
/// let alias = HistoryAlias { called: "mcp/x/search.web".into(), namespace: None };
/// assert_eq!(state.aliases["mcp_x_search_web_h0badf00"], alias);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryAlias {
    /// The name the model called, verbatim.
    pub called: String,
    /// The call's Responses API namespace, when it had one (a call by the alias must name the
    /// same one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
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
    state: Arc<Mutex<ConversationState>>,
}

impl fmt::Debug for Conversation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Conversation")
            .field("loaded", &self.lock().loaded)
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
    pub(super) fn new(shared: Arc<Shared>, state: ConversationState) -> Conversation {
        Conversation {
            shared,
            state: Arc::new(Mutex::new(state)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ConversationState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// This turn's request: the runtime's tools as they are now, and what this conversation has
    /// loaded so far (fixed for the request: a tool loaded while it is answered travels from the
    /// next request on).
    ///
    /// ```
    /// let conversation = toolwire_core::ToolRuntime::new().conversation();
    /// assert!(conversation.request().conversation().is_some());
    /// ```
    pub fn request(&self) -> Request {
        let loaded = self.lock().loaded.clone();
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
        self.lock().clone()
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
        self.lock().loaded.iter().cloned().collect()
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
        self.lock().loaded.insert(tool.to_owned())
    }

    /// Loads `tool` unless `most` tools are loaded already; one look under the lock, so two
    /// calls of one turn never load past `most` together.
    pub(super) fn load_within(&self, tool: &str, most: usize) -> Loading {
        let mut state = self.lock();
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

    /// The call the alias `called` stands for, when this conversation's replayed history
    /// carries it, made in `namespace` as the call was.
    pub(super) fn alias(&self, namespace: Option<&str>, called: &str) -> Option<HistoryAlias> {
        let state = self.lock();
        if state.aliases.is_empty() {
            return None;
        }
        state
            .aliases
            .get(called)
            .filter(|alias| alias.namespace.as_deref() == namespace)
            .cloned()
    }

    /// The call the alias `name` stands for, in whatever namespace, if it is recorded.
    pub(super) fn recorded_alias(&self, name: &str) -> Option<HistoryAlias> {
        self.lock().aliases.get(name).cloned()
    }

    /// Records `alias` as standing for `call`, unless it stands for another call already.
    pub(super) fn record_alias(&self, alias: &str, call: HistoryAlias) {
        self.lock().aliases.entry(alias.to_owned()).or_insert(call);
    }

    /// Unloads every tool (the pinned tools travel anyway): what `reset_tools` does. The
    /// aliases stay: the history still carries them.
    ///
    /// ```
    /// let conversation = toolwire_core::ToolRuntime::new().conversation();
    /// conversation.load("mcp/files/read");
    /// conversation.reset();
    /// assert!(conversation.loaded().is_empty());
    /// ```
    pub fn reset(&self) {
        self.lock().loaded.clear();
    }
}
