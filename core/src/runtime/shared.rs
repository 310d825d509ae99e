//! What every clone of a runtime and every request share: the lock over the [`RuntimeState`],
//! the cache of what a request reads, the runtime's fixed parts (its meta-tools, catalog policy and
//! approval hook) and the channel that announces each change of the tool set.
//!
//! Policy: one `RwLock` over the state, never held across an `.await`. What a request reads
//! ([`Snapshot`]) is handed out again while neither of the state's versions moved. Lock order:
//! the state, then the snapshot cache (a reader takes the cache while it reads the state, a
//! change of the tool set while it writes it).

use std::sync::{Arc, Mutex, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::approval::Approver;
use super::catalog_policy::CatalogPolicy;
use super::meta_tool::MetaTool;
use super::runtime_state::RuntimeState;
use super::tool_set::{Snapshot, ToolSet};

/// What every clone of a runtime and every request share.
pub(super) struct Shared {
    state: RwLock<RuntimeState>,
    /// The last snapshot built: handed out again while neither version moved.
    current: Mutex<Option<Arc<Snapshot>>>,
    /// The runtime's own tools, in the order requests carry them.
    pub(super) meta_tools: Vec<MetaTool>,
    pub(super) catalog: CatalogPolicy,
    pub(super) approval: Option<Approver>,
    /// Sends the tool-set version after every change of the tool set.
    changes: tokio::sync::watch::Sender<u64>,
    /// Bumped after every change the tools report shows: each of `changes`, and a reload's
    /// start (a Tools page's "restarting", which MCP clients need no `list_changed` for).
    report_changes: tokio::sync::watch::Sender<u64>,
}

impl Shared {
    pub(super) fn new(
        meta_tools: Vec<MetaTool>,
        catalog: CatalogPolicy,
        approval: Option<Approver>,
    ) -> Shared {
        Shared {
            state: RwLock::new(RuntimeState::default()),
            current: Mutex::new(None),
            meta_tools,
            catalog,
            approval,
            changes: tokio::sync::watch::Sender::new(0),
            report_changes: tokio::sync::watch::Sender::new(0),
        }
    }

    /// The meta-tool named `name`.
    pub(super) fn meta_tool(&self, name: &str) -> Option<&MetaTool> {
        self.meta_tools.iter().find(|m| m.name() == name)
    }

    /// How many meta-tools a conversation's deferred request carries (the stand-alone surface's
    /// own, `tool_call`, is never in one): what the catalog's threshold and loading count.
    pub(super) fn conversation_meta_tools(&self) -> usize {
        self.meta_tools
            .iter()
            .filter(|m| m.surface != super::meta_tool::Surface::StandAlone)
            .count()
    }

    /// A receiver of the tool-set version, which changes after every change of the tool set.
    pub(super) fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// A receiver of every change the tools report shows (see `report_changes`).
    pub(super) fn subscribe_report(&self) -> tokio::sync::watch::Receiver<u64> {
        self.report_changes.subscribe()
    }

    fn report_changed(&self) {
        self.report_changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Marks the provider `id` as being reloaded or no longer, and says so to the report's
    /// receivers (not to `changes`: the tools offered did not change).
    pub(super) fn set_reloading(&self, id: u64, reloading: bool) {
        let marked = self.write().set_reloading(id, reloading);
        if marked {
            self.report_changed();
        }
    }

    pub(super) fn read(&self) -> RwLockReadGuard<'_, RuntimeState> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn write(&self) -> RwLockWriteGuard<'_, RuntimeState> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies `change` to the tool set (a provider added, removed or reloaded) and lets go of
    /// the cached snapshot, after the lock is released: the change pays for dropping the old
    /// census, definitions and lists, not the next request. (Requests still holding them keep
    /// them until they are dropped.)
    pub(super) fn change_tool_set<R>(&self, change: impl FnOnce(&mut RuntimeState) -> R) -> R {
        let (out, stale, version) = {
            let mut state = self.write();
            let before = state.tool_set_version();
            let out = change(&mut state);
            // Nothing changed (a duplicate name, no such provider): the snapshot still holds.
            let stale = (state.tool_set_version() != before).then(|| {
                self.current
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take()
            });
            (out, stale, state.tool_set_version())
        };
        if stale.is_some() {
            self.changes.send_replace(version);
            self.report_changed();
        }
        drop(stale);
        out
    }

    /// Starts a new watch of the provider `id`'s tool list: the older one, if any, stops.
    pub(super) fn next_watch(&self, id: u64) -> u64 {
        self.write().next_watch(id)
    }

    /// Marks a provider unreachable; its tools are then withheld from every request, so the
    /// tools offered changed: receivers of `tool_set_changes` hear of it (a server serving the
    /// runtime tells its clients `list_changed`), after the lock is released.
    pub(super) fn mark_unreachable(&self, slot: u64, generation: u64, reason: String) {
        let (marked, version) = {
            let mut state = self.write();
            let marked = state.mark_unreachable(slot, generation, reason);
            (marked, state.tool_set_version())
        };
        if marked {
            self.changes.send_replace(version);
            self.report_changed();
        }
    }

    /// What a request reads for `state` (which the caller holds): the last snapshot while nothing
    /// changed; a new one over the same tool set when only a switch or a provider's
    /// reachability did; a new tool set (and census, and its warnings) when a provider was
    /// added, removed or reloaded. Built under the cache's lock, so two requests that race after a
    /// change build it once, and its warnings fire once.
    pub(super) fn snapshot(&self, state: &RuntimeState) -> Arc<Snapshot> {
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(snapshot) = current.as_ref() {
            if snapshot.is_current(state) {
                return snapshot.clone();
            }
        }
        let tool_set = match current.as_ref() {
            Some(snapshot) if snapshot.tool_set.version == state.tool_set_version() => {
                snapshot.tool_set.clone()
            }
            _ => {
                let taken: Vec<&str> = self.meta_tools.iter().map(MetaTool::name).collect();
                Arc::new(ToolSet::build(state, &taken))
            }
        };
        let threshold = self.catalog.threshold(self.conversation_meta_tools());
        let snapshot = Arc::new(Snapshot::build(tool_set, state, threshold));
        *current = Some(snapshot.clone());
        snapshot
    }
}
