//! Loading: a provider's tools listed and judged (what its list says about it), and its list
//! followed while it changes. The handle's `add_provider` and `reload_provider` call [`load`].
//!
//! Policy: a load failure is the provider's status (and the Tools page's), never an error of
//! the call that added it: the provider stays, to be reloaded. Nothing is awaited under the
//! state's lock; what changed while a load was awaited is checked again after it.

use std::sync::Arc;

use super::load_status::{LoadProblem, LoadStatus};
use super::shared::Shared;
use crate::census::Census;
use crate::names::model_safe_name;
use crate::provider::{ProviderKind, ToolProvider};
use crate::tools::ToolDefinition;

/// The census of one provider's own list, built without the census's warnings: each shared form
/// is logged once by the runtime's census of every tool (`ToolSet::build`), and the load failure
/// once by [`load`]; a third line per form would be noise. The census has no build without its
/// log yet, so this one runs under a subscriber that keeps nothing.
fn own_census(tools: &[ToolDefinition]) -> Census {
    tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
        Census::build(tools.iter().map(|t| &t.name), &[])
    })
}

/// The problems of one provider's own tool list (shared forms, duplicates, empty names).
fn load_problems(tools: &[ToolDefinition]) -> Vec<LoadProblem> {
    let census = own_census(tools);
    let mut problems: Vec<LoadProblem> = census
        .collisions()
        .iter()
        .map(|(form, tools)| LoadProblem::SharedForm {
            form: form.clone(),
            tools: tools.clone(),
        })
        .collect();
    problems.extend(
        census
            .duplicates()
            .iter()
            .filter(|name| !name.is_empty()) // reported once below, as EmptyName
            .map(|name| LoadProblem::DuplicateName { name: name.clone() }),
    );
    if tools.iter().any(|t| t.name.is_empty()) {
        problems.push(LoadProblem::EmptyName);
    }
    problems
}

/// The tools of a static provider (the app's own) that travel as a meta-tool's name.
fn meta_name_problems(
    provider: &dyn ToolProvider,
    tools: &[ToolDefinition],
    shared: &Shared,
) -> Vec<LoadProblem> {
    if provider.kind() != ProviderKind::Static {
        return Vec::new();
    }
    tools
        .iter()
        .filter_map(|t| {
            let form = model_safe_name(&t.name);
            // The meta-tool found is the one named `form`.
            shared.meta_tool(&form).map(|_| LoadProblem::MetaToolName {
                tool: t.name.clone(),
                name: form.into_owned(),
            })
        })
        .collect()
}

/// Lists `provider`'s tools and judges the list.
pub(super) async fn load(
    provider: &dyn ToolProvider,
    shared: &Shared,
) -> (Vec<ToolDefinition>, LoadStatus) {
    match provider.list_tools().await {
        Ok(tools) => {
            let mut problems = provider.listing_problems();
            problems.extend(load_problems(&tools));
            problems.extend(meta_name_problems(provider, &tools, shared));
            if !problems.is_empty() {
                tracing::warn!(
                    provider = provider.name(),
                    ?problems,
                    "provider load failed"
                );
            }
            (tools, LoadStatus::of(problems))
        }
        Err(e) => {
            tracing::warn!(provider = provider.name(), error = %e, "provider load failed");
            (Vec::new(), LoadStatus::unreachable(e.reason))
        }
    }
}

/// Lists the provider `id`'s tools again each time `changes` moves (an MCP server's
/// `notifications/tools/list_changed`), without restarting it: the next request's census is
/// built from the new list. The task holds the runtime weakly and ends when the provider is
/// removed, the runtime dropped, the channel closed, or a newer watch of the same provider
/// started (after a reload).
pub(super) fn watch_tool_list(
    shared: &Arc<Shared>,
    id: u64,
    mut changes: tokio::sync::watch::Receiver<u64>,
) {
    let Ok(handle) = tokio::runtime::Handle::try_current() else {
        tracing::warn!(
            provider = id,
            "no tokio runtime: the provider's tool list changes are not followed; reload it instead"
        );
        return;
    };
    let watch = shared.next_watch(id);
    let shared = Arc::downgrade(shared);
    handle.spawn(async move {
        while changes.changed().await.is_ok() {
            let Some(shared) = shared.upgrade() else {
                return;
            };
            let provider = {
                let state = shared.read();
                match state.slot(id) {
                    Some(slot) if slot.watch == watch => slot.provider.clone(),
                    _ => return,
                }
            };
            tracing::info!(
                provider = provider.name(),
                "tool list changed; listing again"
            );
            let (tools, status) = load(&*provider, &shared).await;
            let still_watched = shared.change_tool_set(|state| {
                state.slot(id).is_some_and(|s| s.watch == watch)
                    && state.reloaded(id, tools, status)
            });
            if !still_watched {
                return;
            }
        }
    });
}
