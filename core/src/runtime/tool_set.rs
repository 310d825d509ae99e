//! What a request reads, built once per change and shared: the tool set (every provider's
//! definitions in census order, who owns each, and the census) and, over it, the snapshot a
//! request holds (the switches applied, each wire list built on first use).
//!
//! Policy: a request costs what changed. The census, and with it the one warning per shared form,
//! is built when a provider is added, removed or reloaded, never per request; a switch or a
//! provider going down only re-marks what is withheld; each wire list is built once per
//! snapshot, by the first request that asks for it, and handed out as a shared [`ToolList`].

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use super::report::ReportStatus;
use super::runtime_state::RuntimeState;
use crate::census::{Census, LeftOutReason};
use crate::provider::ToolProvider;
use crate::search::SearchIndex;
use crate::tools::ToolDefinition;
use crate::wire::{
    unsupported_reason, wire_list, LeftOutTool, ToolList, WhyLeftOut, WireError, WireFormat,
};

/// Who runs the tool at one census position.
#[derive(Clone)]
pub(super) struct Owner {
    pub(super) slot: u64,
    pub(super) generation: u64,
    pub(super) provider: Arc<dyn ToolProvider>,
}

/// Every provider's tools as of one [`RuntimeState::tool_set_version`].
pub(super) struct ToolSet {
    pub(super) version: u64,
    /// The census of every tool, nothing withheld.
    pub(super) census: Arc<Census>,
    /// The census's input, position for position.
    pub(super) definitions: Vec<ToolDefinition>,
    pub(super) owners: Vec<Owner>,
    /// Each provider's census positions: its tools are listed together, in its own order.
    ranges: Vec<(u64, Range<usize>)>,
    /// The catalog's search index, built by the first search of this tool set.
    search: OnceLock<SearchIndex>,
}

impl ToolSet {
    /// The tool set of `state`, beside the runtime's meta-tools, whose names are `taken` (the
    /// census's taken names). Building the census logs one warning per shared form: this is the
    /// only place the runtime builds it.
    pub(super) fn build(state: &RuntimeState, taken: &[&str]) -> ToolSet {
        let mut order: Vec<_> = state.slots().iter().collect();
        // Static providers first: of two tools with one real name, the first is the tool.
        order.sort_by_key(|s| s.provider.kind().rank());
        let count = order.iter().map(|s| s.tools.len()).sum();
        let mut definitions = Vec::with_capacity(count);
        let mut owners = Vec::with_capacity(count);
        let mut ranges = Vec::with_capacity(order.len());
        for slot in order {
            let start = definitions.len();
            definitions.extend(slot.tools.iter().cloned());
            owners.extend(std::iter::repeat_n(
                Owner {
                    slot: slot.id,
                    generation: slot.generation,
                    provider: slot.provider.clone(),
                },
                slot.tools.len(),
            ));
            ranges.push((slot.id, start..definitions.len()));
        }
        let census = Census::build_ranked(
            definitions
                .iter()
                .zip(&owners)
                .map(|(d, o)| (d.name.as_str(), o.provider.kind().rank())),
            taken,
        );
        ToolSet {
            version: state.tool_set_version(),
            census: Arc::new(census),
            definitions,
            owners,
            ranges,
            search: OnceLock::new(),
        }
    }

    /// The search index over every tool of this tool set (offered or not: a search filters by
    /// the request's census), built once.
    pub(super) fn search_index(&self) -> &SearchIndex {
        self.search
            .get_or_init(|| SearchIndex::of_census(&self.census, &self.definitions))
    }

    /// The census positions of the provider `slot`'s tools.
    pub(super) fn positions_of(&self, slot: u64) -> Range<usize> {
        self.ranges
            .iter()
            .find(|(id, _)| *id == slot)
            .map_or(0..0, |(_, range)| range.clone())
    }
}

/// What one request reads: a tool set with the switches applied, and its wire lists.
pub(super) struct Snapshot {
    pub(super) tool_set: Arc<ToolSet>,
    switches_version: u64,
    /// The tool set's census, or a copy with the switched-off, unreachable and unsupported
    /// tools withheld.
    pub(super) census: Arc<Census>,
    /// Whether the catalog is deferred: more offered tools than the policy's threshold.
    pub(super) deferred: bool,
    /// The census positions the app withholds, sorted, each with why.
    withheld: Vec<(usize, WhyLeftOut)>,
    /// What no request of this snapshot carries ([`Snapshot::census_left_out`]).
    census_left_out: OnceLock<Vec<LeftOutTool>>,
    /// The lists carrying every offered tool, by format.
    lists: [OnceLock<Result<ToolList, WireError>>; WireFormat::ALL.len()],
}

impl Snapshot {
    /// `tool_set` with what `state` withholds: a switched-off tool, or one whose provider is
    /// down, stays in the census (withheld) so its names never heal to another tool meanwhile.
    pub(super) fn build(
        tool_set: Arc<ToolSet>,
        state: &RuntimeState,
        threshold: usize,
    ) -> Snapshot {
        let mut withheld = Vec::new();
        for (id, range) in &tool_set.ranges {
            let unreachable = state.slot(*id).is_some_and(|s| s.status.is_unreachable());
            for i in range.clone() {
                let def = &tool_set.definitions[i];
                // The order of `tool_status`: the provider first, then the tool itself.
                let why = if unreachable {
                    WhyLeftOut::Unreachable
                } else if let Some(reason) = unsupported_reason(def) {
                    WhyLeftOut::Unsupported {
                        reason: reason.to_owned(),
                    }
                } else if state.is_disabled(&def.name) {
                    WhyLeftOut::SwitchedOff
                } else {
                    continue;
                };
                withheld.push((i, why));
            }
        }
        withheld.sort_unstable_by_key(|(i, _)| *i);
        let census = if withheld.is_empty() {
            tool_set.census.clone()
        } else {
            // A copy, never a rebuild: withholding changes no form, so nothing is logged again.
            let mut census = Census::clone(&tool_set.census);
            for (index, _) in &withheld {
                census.withhold(*index);
            }
            Arc::new(census)
        };
        Snapshot {
            deferred: census.offered().count() > threshold,
            tool_set,
            switches_version: state.switches_version(),
            census,
            withheld,
            census_left_out: OnceLock::new(),
            lists: Default::default(),
        }
    }

    /// Every tool of the census that no request of this snapshot carries, and why, in census
    /// order: what the census left out, and what the app withholds (switched off, unreachable,
    /// unsupported). The start of every list's [`ToolList::left_out`]; found once per snapshot
    /// (a deferred request builds its own lists, and must not pass over the whole catalog).
    pub(super) fn census_left_out(&self) -> Vec<LeftOutTool> {
        self.census_left_out
            .get_or_init(|| self.find_census_left_out())
            .clone()
    }

    fn find_census_left_out(&self) -> Vec<LeftOutTool> {
        (self.census.tools().iter().enumerate())
            .filter(|(_, tool)| !tool.is_offered())
            .map(|(index, tool)| {
                let why = match tool.left_out_reason() {
                    Some(LeftOutReason::Withheld) => self
                        .withheld
                        .binary_search_by_key(&index, |(i, _)| *i)
                        .map_or(WhyLeftOut::Census(LeftOutReason::Withheld), |at| {
                            self.withheld[at].1.clone()
                        }),
                    Some(reason) => WhyLeftOut::Census(reason.clone()),
                    None => WhyLeftOut::Census(LeftOutReason::Withheld),
                };
                LeftOutTool::new(tool.name(), tool.form(), why)
            })
            .collect()
    }

    /// Whether nothing this snapshot depends on changed in `state`.
    pub(super) fn is_current(&self, state: &RuntimeState) -> bool {
        self.tool_set.version == state.tool_set_version()
            && self.switches_version == state.switches_version()
    }

    /// The list in `format` of the meta-tools (`metas`, their definitions) and every offered
    /// tool, built by the first caller and shared after.
    pub(super) fn full_list<'a>(
        &'a self,
        format: WireFormat,
        metas: impl Iterator<Item = &'a ToolDefinition>,
    ) -> Result<ToolList, WireError> {
        self.lists[list_slot(format)]
            .get_or_init(|| {
                let offered = self.offered_positions();
                self.list_of(format, metas, offered, self.census_left_out())
            })
            .clone()
    }

    /// Whether the tool at census position `index` is offered and, when it is not, why, as of
    /// `state`: the one judgement the Tools page and `tool_schema` share.
    pub(super) fn tool_status(
        &self,
        state: &RuntimeState,
        index: usize,
    ) -> (ReportStatus, Option<String>) {
        let tool_set = &self.tool_set;
        let def = &tool_set.definitions[index];
        let reachable = state
            .slot(tool_set.owners[index].slot)
            .is_some_and(|slot| !slot.status.is_unreachable());
        if !reachable {
            (
                ReportStatus::Unavailable,
                Some("its provider is unreachable".to_owned()),
            )
        } else if let Some(reason) = unsupported_reason(def) {
            (ReportStatus::Unsupported, Some(reason.to_owned()))
        } else if state.is_disabled(&def.name) {
            (ReportStatus::Disabled, Some("switched off".to_owned()))
        } else {
            match self.census.tools()[index].left_out_reason() {
                None => (ReportStatus::Offered, None),
                Some(LeftOutReason::DuplicateName { first }) => (
                    ReportStatus::LeftOut,
                    Some(format!(
                        "provider `{}` already has a tool of this name",
                        tool_set.owners[*first].provider.name()
                    )),
                ),
                Some(reason) => (ReportStatus::LeftOut, Some(reason.to_string())),
            }
        }
    }

    /// The census positions of the offered tools.
    pub(super) fn offered_positions(&self) -> impl Iterator<Item = usize> + '_ {
        let tools = self.census.tools();
        (0..tools.len()).filter(|&i| tools[i].is_offered())
    }

    /// The list in `format` of `metas` (sent as they are named) and then the tools at census
    /// `positions`, each under its form, with `left_out` (what the caller already left out)
    /// and what the list itself refuses.
    pub(super) fn list_of<'a>(
        &'a self,
        format: WireFormat,
        metas: impl Iterator<Item = &'a ToolDefinition>,
        positions: impl Iterator<Item = usize>,
        left_out: Vec<LeftOutTool>,
    ) -> Result<ToolList, WireError> {
        let tools = self.census.tools();
        let defs = &self.tool_set.definitions;
        wire_list(
            format,
            metas
                .map(|d| (d.name.as_str(), d))
                .chain(positions.map(|i| (tools[i].form(), &defs[i]))),
            left_out,
        )
    }
}

/// Where `format`'s list is kept (a match, so a new format fails to compile here, not at run time).
pub(super) fn list_slot(format: WireFormat) -> usize {
    match format {
        WireFormat::OpenAi => 0,
        WireFormat::OpenAiStrict => 1,
        WireFormat::Anthropic => 2,
        WireFormat::AnthropicStrict => 3,
        WireFormat::Converse => 4,
        WireFormat::ConverseStrict => 5,
        WireFormat::Gemini => 6,
        WireFormat::OpenAiResponses => 7,
        WireFormat::OpenAiResponsesStrict => 8,
    }
}
