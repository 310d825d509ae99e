//! The rules of the spec's census (hop 1 of `tool-name-wire.md`), one function each.
//!
//! Policy: each rule is a function named after it, whose doc comment quotes the sentence of the
//! spec it implements (or says plainly that the rule is toolwire's own, where the spec has
//! none). `Census::settle` runs them in order over every tool at once. The rules fill the name
//! table as they go but only collect each tool's verdict: `settle` writes the statuses at the
//! end, so no rule reads a status another rule half-decided. Every rule is linear in the tools
//! it looks at; a form one tool travels as (the usual case) costs no allocation.

use std::collections::BTreeMap;

use super::name_table::{Entry, Key, NameTable, Strings, NONE};
use super::reasons::{LeftOutReason, ToolStatus};
use super::tool::CensusTool;
use super::Census;

impl Census {
    /// Decides every tool's status and fills the table, rule by rule.
    pub(super) fn settle(&mut self) {
        let mut settling = Settling {
            tools: &self.tools,
            taken: &self.taken,
            taken_forms: &self.taken_forms,
            strings: Strings {
                tools: &self.tools,
                taken: &self.taken,
                taken_forms: &self.taken_forms,
            },
            table: &mut self.table,
            next_in_group: vec![NONE; self.tools.len()],
            first_empty: None,
            left_out: Vec::new(),
            duplicates: Vec::new(),
            outranked: Vec::new(),
            shared: Vec::new(),
            collisions: BTreeMap::new(),
        };
        settling.take_meta_names();
        for i in 0..settling.tools.len() {
            settling.enter_tool(i);
        }
        for e in 0..settling.table.entries.len() {
            settling.settle_form(e);
        }
        settling.clean_up_outranked();

        let Settling {
            mut left_out,
            mut duplicates,
            mut shared,
            collisions,
            ..
        } = settling;
        super::budget::budget_rule(&self.tools, self.budget, &mut left_out);
        for (i, reason) in left_out {
            self.tools[i].status = ToolStatus::LeftOut(reason);
        }
        duplicates.sort();
        duplicates.dedup();
        self.duplicates = duplicates;
        self.collisions = collisions;
        shared.sort();
        self.warn_once_per_shared_form(&shared);
    }

    /// The one-warning-per-shared-form log. The spec: "loud: the runtime logs one warning per
    /// shared form, naming the tools left out, and the Tools page records a clash between two
    /// of its tools as a load failure of their provider".
    ///
    /// `shared` is each form that left a tool out → the tools it left out, sorted. A tool left
    /// out for its own name (empty, or given twice) shares no form: it gets a warning of its own.
    #[cfg(feature = "runtime")]
    fn warn_once_per_shared_form(&self, shared: &[(String, Vec<String>)]) {
        for (form, left_out) in shared {
            let names = &self.collisions[form];
            tracing::warn!(
                form = %form,
                left_out = ?left_out,
                travelling_as_it = ?names,
                "tools share the model-safe form `{form}` and are left out of the request: {}; rename them so each form is unique",
                left_out.join(", ")
            );
        }
        for tool in &self.tools {
            if let Some(reason @ (LeftOutReason::EmptyName | LeftOutReason::DuplicateName { .. })) =
                tool.left_out_reason()
            {
                tracing::warn!(tool = %tool.name, "tool left out of the request: {reason}");
            }
        }
    }

    /// Without the `runtime` feature there is no `tracing`: the census is silent.
    #[cfg(not(feature = "runtime"))]
    fn warn_once_per_shared_form(&self, _shared: &[(String, Vec<String>)]) {}
}

/// What the rules collect while the census settles, before any status is written.
struct Settling<'a> {
    tools: &'a [CensusTool],
    taken: &'a [Box<str>],
    taken_forms: &'a [Box<str>],
    strings: Strings<'a>,
    table: &'a mut NameTable,
    /// For each tool, the next (older) tool of its form group: a group is linked from its
    /// entry's `head`, so grouping allocates nothing per form.
    next_in_group: Vec<u32>,
    /// The first tool with the empty name, if one came yet.
    first_empty: Option<usize>,
    /// Only left-out tools get a verdict; most tools are offered.
    left_out: Vec<(usize, LeftOutReason)>,
    /// Every real name given again (once per repeat; sorted and deduplicated at the end).
    duplicates: Vec<String>,
    /// The tools the rank rule refused.
    outranked: Vec<usize>,
    /// Each form that left a tool out → those tools, sorted: one warning each.
    shared: Vec<(String, Vec<String>)>,
    /// Each shared form → every real name that travels as it (taken names included), sorted.
    collisions: BTreeMap<String, Vec<String>>,
}

impl<'a> Settling<'a> {
    /// The meta rule, first half: the taken names enter the table before any tool. The spec:
    /// "The runtime's own tools (tool_search, tool_schema, reset_tools) are in that census as
    /// names already taken".
    ///
    /// A taken name answers to itself and travels as its form, like any tool: a custom taken
    /// name that is not model-safe (`tool/schema`) takes its form (`tool_schema`) too. Names
    /// first, so a taken name always answers to itself before another's form.
    fn take_meta_names(&mut self) {
        for (i, taken) in self.taken.iter().enumerate() {
            let entry = self.table.slot(Key::Taken(i as u32), taken, &self.strings);
            if entry.meta == NONE {
                entry.meta = i as u32;
            }
        }
        for (i, (taken, form)) in self.taken.iter().zip(self.taken_forms).enumerate() {
            if form != taken {
                let entry = self
                    .table
                    .slot(Key::TakenForm(i as u32), form, &self.strings);
                if entry.meta == NONE {
                    entry.meta = i as u32;
                }
            }
        }
    }

    /// Enters tool `i` by its real name: the empty-name rule, then the duplicate rule, then
    /// its form group.
    fn enter_tool(&mut self, i: usize) {
        if self.empty_name_rule(i) {
            return;
        }
        let tool = &self.tools[i];
        let entry = self
            .table
            .slot(Key::Name(i as u32), &tool.name, &self.strings);
        if let Some(first) = duplicate_rule(entry, i) {
            self.duplicates.push(tool.name.to_string());
            self.left_out
                .push((i, LeftOutReason::DuplicateName { first }));
            return;
        }
        // A safe name is its own form: the same entry, no second lookup.
        if tool.is_own_form() {
            group_by_form(entry, i, &mut self.next_in_group);
        } else {
            let group = self
                .table
                .slot(Key::Form(i as u32), tool.form(), &self.strings);
            group_by_form(group, i, &mut self.next_in_group);
        }
    }

    /// The empty-name rule: `true` when tool `i` is left out for an empty name. The spec:
    /// "Converse, OpenAI function calling and the Messages API each take a tool name of
    /// letters, digits, _ and - only [...] A request with any other name fails as a whole,
    /// before the model sees it." The empty name's form is empty, so no request can carry it.
    ///
    /// The empty name is a name too: given twice, the second is a duplicate.
    fn empty_name_rule(&mut self, i: usize) -> bool {
        if !self.tools[i].name.is_empty() {
            return false;
        }
        let reason = match self.first_empty {
            None => LeftOutReason::EmptyName,
            Some(first) => {
                self.duplicates.push(String::new());
                LeftOutReason::DuplicateName { first }
            }
        };
        self.left_out.push((i, reason));
        self.first_empty.get_or_insert(i);
        true
    }

    /// Settles the form at table entry `e`: the form one tool travels as heals to it; a form
    /// shared by tools, or a tool and a taken name, goes through the meta rule, or the rank
    /// rule and then the owner rule.
    fn settle_form(&mut self, e: usize) {
        let entry = self.table.entries[e];
        if entry.len == 0 {
            // A real name no tool travels as, or a taken name alone.
            return;
        }
        let form = self.strings.get(entry.key);
        if entry.len == 1 && entry.meta == NONE {
            self.table.entries[e].heal = healing_rule(self.tools, &[entry.head as usize], form);
            return;
        }
        let members = self.members(&entry);
        self.record_collision(form, &members, entry.meta);
        let before = self.left_out.len();
        if entry.meta != NONE {
            self.meta_rule(&members, entry.meta);
        } else {
            let (winners, holders) = self.rank_rule(&members);
            self.table.entries[e].heal = healing_rule(self.tools, &winners, form);
            self.owner_rule(form, &winners, &holders);
        }
        if self.left_out.len() > before {
            let mut names: Vec<String> = self.left_out[before..]
                .iter()
                .map(|(i, _)| self.tools[*i].name.to_string())
                .collect();
            names.sort();
            self.shared.push((form.to_owned(), names));
        }
    }

    /// The tools whose form `entry` is, newest first.
    fn members(&self, entry: &Entry) -> Vec<usize> {
        let mut members = Vec::with_capacity(entry.len as usize);
        let mut at = entry.head;
        while at != NONE {
            members.push(at as usize);
            at = self.next_in_group[at as usize];
        }
        members
    }

    /// Records a shared form and every real name that travels as it, for
    /// [`Census::collisions`]: the spec's `build_sanitized_index` collisions, with the taken
    /// name among them when there is one.
    fn record_collision(&mut self, form: &str, members: &[usize], meta: u32) {
        let mut names: Vec<String> = members
            .iter()
            .map(|&i| self.tools[i].name.to_string())
            .collect();
        if meta != NONE {
            names.push(self.taken[meta as usize].to_string());
        }
        names.sort();
        names.dedup();
        self.collisions.insert(form.to_owned(), names);
    }

    /// The meta rule: every tool that is, or travels as, a taken name is left out. The spec:
    /// "a provider's tool called one of them, or sent under one, could never be called (the
    /// runtime answers that name), and a request carrying both would name a tool twice."
    fn meta_rule(&mut self, members: &[usize], meta: u32) {
        let meta = &self.taken[meta as usize];
        for &i in members {
            self.left_out.push((
                i,
                LeftOutReason::MetaTool {
                    meta: meta.to_string(),
                },
            ));
        }
    }

    /// The rank rule: of the tools that share a form, only those of the lowest rank compete;
    /// every other is left out ([`LeftOutReason::Outranked`]). Returns the competing tools and
    /// their real names, sorted.
    ///
    /// The spec has one kind of tool and no ranks: this rule is toolwire's own (README: "`#[tool]`s
    /// outrank loaded tools: a loaded tool whose form is a static tool's [...] is left out,
    /// logged, and never reached through the healing map"). It keeps the spec's promise that
    /// a reference "dispatches to exactly that tool, on this turn and on every later turn":
    /// a provider loaded later can never take a static tool's form.
    fn rank_rule(&mut self, members: &[usize]) -> (Vec<usize>, Vec<String>) {
        let top = members.iter().map(|&i| self.tools[i].rank).min();
        let (winners, losers): (Vec<usize>, Vec<usize>) = members
            .iter()
            .partition(|&&i| Some(self.tools[i].rank) == top);
        let mut holders: Vec<String> = winners
            .iter()
            .map(|&i| self.tools[i].name.to_string())
            .collect();
        holders.sort();
        for &i in &losers {
            self.outranked.push(i);
            self.left_out.push((
                i,
                LeftOutReason::Outranked {
                    holders: holders.clone(),
                },
            ));
        }
        (winners, holders)
    }

    /// The owner rule: of the tools that share a form, only the one whose real name is the form
    /// is offered. The spec: "A request can carry a form only once, so of the tools that share
    /// one, only the one whose real name IS the form (if one is) is offered; the rest are left
    /// out of the request (left_out)."
    ///
    /// `winners` are the tools the rank rule kept; `holders` their names, sorted. One winner
    /// shares its form with no one.
    fn owner_rule(&mut self, form: &str, winners: &[usize], holders: &[String]) {
        if winners.len() < 2 {
            return;
        }
        let owner = winners
            .iter()
            .copied()
            .find(|&i| *self.tools[i].name == *form);
        for &i in winners {
            if Some(i) == owner {
                continue;
            }
            let reason = match owner {
                Some(owner) => LeftOutReason::FormIsAnotherTool {
                    owner: self.tools[owner].name.to_string(),
                },
                None => LeftOutReason::SharesForm {
                    others: holders
                        .iter()
                        .filter(|h| **h != *self.tools[i].name)
                        .cloned()
                        .collect(),
                },
            };
            self.left_out.push((i, reason));
        }
    }

    /// The outranked clean-up: a tool the rank rule refused is never reached, not even by its
    /// exact real name. Toolwire's own, like the rank rule (README: "left out, logged, and never
    /// reached"); a later call by that name is an unknown tool, so it cannot run a tool the
    /// request never offered in place of the one it did.
    fn clean_up_outranked(&mut self) {
        for &i in &self.outranked {
            if let Some(e) = self.table.find(&self.tools[i].name, &self.strings) {
                let entry = &mut self.table.entries[e];
                if entry.exact == i as u32 {
                    entry.exact = NONE;
                }
            }
        }
    }
}

/// The duplicate rule: the first tool with a real name is that tool; a later one is left out
/// (`Some(first)`). The spec: "The real name stays the tool's identity everywhere else: the
/// dispatch index, approvals, the user's switches, the Tools page and the tool catalog the
/// model reads." One identity is one tool, and a request carrying it twice would name a tool
/// twice.
fn duplicate_rule(name_entry: &mut Entry, i: usize) -> Option<usize> {
    if name_entry.exact != NONE {
        return Some(name_entry.exact as usize);
    }
    name_entry.exact = i as u32;
    None
}

/// Grouping by form: tool `i` joins the group of tools that travel as its form. The spec:
/// "the request carries the tool's model-safe form [...]: each other character becomes _, cut
/// to 64. A name already in that form is its own." Tools whose forms are equal are one group,
/// whatever their real names.
fn group_by_form(group: &mut Entry, i: usize, next_in_group: &mut [u32]) {
    next_in_group[i] = group.head;
    group.head = i as u32;
    group.len += 1;
}

/// The healing rule: a call by a form reaches a tool only when exactly one tool (after the
/// rank rule) travels as it and its real name is not the form itself; returns that tool, or
/// `NONE`. The spec: "build_sanitized_index maps a model-safe form back to its real name only
/// when no other tool of the request shares the form: two tools a call names the same way
/// cannot be told apart, and dispatching a guess would run the wrong tool."
fn healing_rule(tools: &[CensusTool], holders: &[usize], form: &str) -> u32 {
    match holders {
        [only] if *tools[*only].name != *form => *only as u32,
        _ => NONE,
    }
}
