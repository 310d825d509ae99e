//! The shared state: the providers as loaded, the user's switches, and the cache of what a turn
//! reads.
//!
//! Policy: one `RwLock` over the state, never held across an `.await`. Every change goes through
//! a method of [`State`] that bumps the version it changes, so what a turn reads ([`Snapshot`])
//! is rebuilt exactly when something it depends on changed, and at no other time. Lock order:
//! the state, then the snapshot cache (a reader takes the cache while it reads the state, a
//! change of the tool set while it writes it).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::approval::Approver;
use super::catalog::CatalogPolicy;
use super::loading::{LoadProblem, LoadStatus};
use super::meta_tool::MetaTool;
use super::tool_set::{Snapshot, ToolSet};
use crate::provider::ToolProvider;
use crate::tools::ToolDefinition;

/// One provider as loaded.
pub(super) struct Slot {
    pub(super) id: u64,
    /// Bumped at every reload: a failure seen by a call into an older load is stale.
    pub(super) generation: u64,
    pub(super) provider: Arc<dyn ToolProvider>,
    pub(super) tools: Vec<ToolDefinition>,
    pub(super) status: LoadStatus,
    /// Which watch of its tool list is current (a reload starts a new one).
    pub(super) watch: u64,
}

/// The providers and the switches. Read freely; changed only through the methods below.
#[derive(Default)]
pub(super) struct State {
    slots: Vec<Slot>,
    disabled: BTreeSet<String>,
    next_id: u64,
    /// Bumped when a provider is added, removed or reloaded: the census changes.
    tool_set_version: u64,
    /// Bumped when a switch or a provider's reachability changes: only what is withheld does.
    switches_version: u64,
}

impl State {
    /// Every provider, in the order they were added.
    pub(super) fn slots(&self) -> &[Slot] {
        &self.slots
    }

    pub(super) fn slot_named(&self, name: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.provider.name() == name)
    }

    pub(super) fn slot(&self, id: u64) -> Option<&Slot> {
        self.slots.iter().find(|s| s.id == id)
    }

    pub(super) fn is_disabled(&self, tool: &str) -> bool {
        self.disabled.contains(tool)
    }

    pub(super) fn tool_set_version(&self) -> u64 {
        self.tool_set_version
    }

    pub(super) fn switches_version(&self) -> u64 {
        self.switches_version
    }

    /// Adds a provider as loaded; its id.
    pub(super) fn add_slot(
        &mut self,
        provider: Arc<dyn ToolProvider>,
        tools: Vec<ToolDefinition>,
        status: LoadStatus,
    ) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.slots.push(Slot {
            id,
            generation: 0,
            provider,
            tools,
            status,
            watch: 0,
        });
        self.tool_set_version += 1;
        id
    }

    /// Takes out every provider named `name`.
    pub(super) fn remove_named(&mut self, name: &str) -> Vec<Slot> {
        let (removed, kept) = std::mem::take(&mut self.slots)
            .into_iter()
            .partition(|s| s.provider.name() == name);
        self.slots = kept;
        if !removed.is_empty() {
            self.tool_set_version += 1;
        }
        removed
    }

    /// The provider `id` reloaded: its new tools and status, a new generation. Whether it is
    /// still there.
    pub(super) fn reloaded(
        &mut self,
        id: u64,
        tools: Vec<ToolDefinition>,
        status: LoadStatus,
    ) -> bool {
        let Some(slot) = self.slots.iter_mut().find(|s| s.id == id) else {
            return false;
        };
        slot.tools = tools;
        slot.status = status;
        slot.generation += 1;
        self.tool_set_version += 1;
        true
    }

    pub(super) fn set_enabled(&mut self, tool: &str, enabled: bool) {
        let changed = if enabled {
            self.disabled.remove(tool)
        } else {
            self.disabled.insert(tool.to_owned())
        };
        if changed {
            self.switches_version += 1;
        }
    }

    /// Records that the provider `id` is down, unless it was reloaded since `generation`.
    fn mark_unreachable(&mut self, id: u64, generation: u64, reason: String) {
        // A failure seen by a call into an older load says nothing about the reloaded one.
        let Some(slot) = self
            .slots
            .iter_mut()
            .find(|s| s.id == id && s.generation == generation)
        else {
            return;
        };
        tracing::warn!(provider = slot.provider.name(), %reason, "provider marked failed");
        slot.status = LoadStatus::Failed {
            problems: vec![LoadProblem::Unreachable { reason }],
        };
        self.switches_version += 1;
    }
}

/// What every clone of a runtime and every request share.
pub(super) struct Shared {
    state: RwLock<State>,
    /// The last snapshot built: handed out again while neither version moved.
    current: Mutex<Option<Arc<Snapshot>>>,
    /// The runtime's own tools, in the order requests carry them.
    pub(super) meta_tools: Vec<MetaTool>,
    pub(super) catalog: CatalogPolicy,
    pub(super) approval: Option<Approver>,
    /// Sends the tool-set version after every change of the tool set.
    changes: tokio::sync::watch::Sender<u64>,
}

impl Shared {
    pub(super) fn new(
        meta_tools: Vec<MetaTool>,
        catalog: CatalogPolicy,
        approval: Option<Approver>,
    ) -> Shared {
        Shared {
            state: RwLock::new(State::default()),
            current: Mutex::new(None),
            meta_tools,
            catalog,
            approval,
            changes: tokio::sync::watch::Sender::new(0),
        }
    }

    /// The meta-tool named `name`.
    pub(super) fn meta_tool(&self, name: &str) -> Option<&MetaTool> {
        self.meta_tools.iter().find(|m| m.name() == name)
    }

    /// A receiver of the tool-set version, which changes after every change of the tool set.
    pub(super) fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    pub(super) fn read(&self) -> RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies `change` to the tool set (a provider added, removed or reloaded) and lets go of
    /// the cached snapshot, after the lock is released: the change pays for dropping the old
    /// census, definitions and lists, not the next turn. (Requests still holding them keep
    /// them until they are dropped.)
    pub(super) fn change_tool_set<R>(&self, change: impl FnOnce(&mut State) -> R) -> R {
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
        }
        drop(stale);
        out
    }

    /// Starts a new watch of the provider `id`'s tool list: the older one, if any, stops.
    pub(super) fn next_watch(&self, id: u64) -> u64 {
        let mut state = self.write();
        match state.slots.iter_mut().find(|s| s.id == id) {
            Some(slot) => {
                slot.watch += 1;
                slot.watch
            }
            None => 0,
        }
    }

    pub(super) fn mark_unreachable(&self, slot: u64, generation: u64, reason: String) {
        self.write().mark_unreachable(slot, generation, reason);
    }

    /// What a turn reads for `state` (which the caller holds): the last snapshot while nothing
    /// changed; a new one over the same tool set when only a switch or a provider's
    /// reachability did; a new tool set (and census, and its warnings) when a provider was
    /// added, removed or reloaded. Built under the cache's lock, so two turns that race after a
    /// change build it once, and its warnings fire once.
    pub(super) fn snapshot(&self, state: &State) -> Arc<Snapshot> {
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
            _ => Arc::new(ToolSet::build(state, &self.meta_tools)),
        };
        let threshold = self.catalog.threshold(self.meta_tools.len());
        let snapshot = Arc::new(Snapshot::build(tool_set, state, threshold));
        *current = Some(snapshot.clone());
        snapshot
    }
}
