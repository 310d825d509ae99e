//! The state behind the runtime's one lock: the providers as loaded and the user's switches,
//! with the versions that say what changed.
//!
//! Policy: every change goes through a method of [`RuntimeState`] that bumps the version it
//! changes (the tool set's when a provider is added, removed or reloaded; the switches' when a
//! switch or a provider's reachability moves), so what a request reads is rebuilt exactly when
//! something it depends on changed, and at no other time.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::load_status::LoadStatus;
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
    /// Whether a `reload_provider` of it is under way (a Tools page says "restarting").
    pub(super) reloading: bool,
    /// How many `reload_provider`s it had (a gateway's restarts; a `list_changed` is none).
    pub(super) restarts: u32,
}

/// The providers and the switches. Read freely; changed only through the methods below.
#[derive(Default)]
pub(super) struct RuntimeState {
    slots: Vec<Slot>,
    disabled: BTreeSet<String>,
    next_id: u64,
    /// Bumped when a provider is added, removed or reloaded: the census changes.
    tool_set_version: u64,
    /// Bumped when a switch or a provider's reachability changes: only what is withheld does.
    switches_version: u64,
}

impl RuntimeState {
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
            reloading: false,
            restarts: 0,
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

    /// Marks the provider `id` as being reloaded (`true`, counting a restart) or no longer
    /// (`false`); whether that changed it.
    pub(super) fn set_reloading(&mut self, id: u64, reloading: bool) -> bool {
        let Some(slot) = self.slots.iter_mut().find(|s| s.id == id) else {
            return false;
        };
        if slot.reloading == reloading {
            return false;
        }
        if reloading {
            slot.restarts = slot.restarts.saturating_add(1);
        }
        slot.reloading = reloading;
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

    /// Starts a new watch of the provider `id`'s tool list (the older one, if any, stops); its
    /// number, or 0 when the provider is gone.
    pub(super) fn next_watch(&mut self, id: u64) -> u64 {
        match self.slots.iter_mut().find(|s| s.id == id) {
            Some(slot) => {
                slot.watch += 1;
                slot.watch
            }
            None => 0,
        }
    }

    /// Records that the provider `id` is down, unless it was reloaded since `generation`.
    /// Whether a slot was marked (a call into an older load marks nothing).
    pub(super) fn mark_unreachable(&mut self, id: u64, generation: u64, reason: String) -> bool {
        // A failure seen by a call into an older load says nothing about the reloaded one.
        let Some(slot) = self
            .slots
            .iter_mut()
            .find(|s| s.id == id && s.generation == generation)
        else {
            return false;
        };
        tracing::warn!(provider = slot.provider.name(), %reason, "provider marked failed");
        slot.status = LoadStatus::unreachable(reason);
        self.switches_version += 1;
        true
    }
}
