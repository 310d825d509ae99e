//! The census itself: how it is built from real names (and ranks) beside the taken names, and
//! what it answers once built. The rules that decide each tool's status are in `rules.rs`.

use std::collections::BTreeMap;

use super::budget::NameBudget;
use super::name_table::{Key, NameTable, Strings, NONE};
use super::reasons::{LeftOutReason, ToolStatus};
use super::tool::{CensusTool, Form};
use crate::names::{model_safe_name, push_form, safe_prefix_len, MAX_FORM_CHARS};

/// The census of one request: which tools are offered, under which form, which are left out
/// and why, and how a called name maps back to a real tool.
///
/// Building it logs one `tracing` warning per shared form (with the `runtime` feature, on by
/// default), naming the tools left out and the form.
///
/// ```
/// use toolwire_core::{Census, census::{Resolution, Via}, names::DEFAULT_META_TOOLS};
///
/// let census = Census::build(["mcp/server/echo", "mcp/a/b", "mcp/a_b", "tool_search"], &DEFAULT_META_TOOLS);
/// let offered: Vec<_> = census.offered().map(|t| t.form()).collect();
/// assert_eq!(offered, ["mcp_server_echo"]);
///
/// // A call by the real name and one by the form reach the same tool.
/// for called in ["mcp/server/echo", "mcp_server_echo"] {
///     let Ok(Resolution::Tool(hit)) = census.resolve(called) else { panic!() };
///     assert_eq!(hit.name, "mcp/server/echo");
/// }
/// // The shared form is unknown: a guess could run the wrong tool.
/// assert!(census.resolve("mcp_a_b").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Census {
    pub(super) tools: Vec<CensusTool>,
    pub(super) taken: Vec<Box<str>>,
    pub(super) taken_forms: Vec<Box<str>>,
    pub(super) table: NameTable,
    pub(super) collisions: BTreeMap<String, Vec<String>>,
    pub(super) duplicates: Vec<String>,
    /// The longest form it gives ([`NameBudget::FULL`] unless built with one).
    pub(super) budget: NameBudget,
}

impl Census {
    /// The census of tools given by real name, all of one rank, beside the `taken` names
    /// (the runtime's meta-tools: usually [`DEFAULT_META_TOOLS`](crate::names::DEFAULT_META_TOOLS)).
    ///
    /// ```
    /// use toolwire_core::Census;
    /// let census = Census::build(["mcp/x", "mcp_x"], &[]);
    /// assert!(!census.tools()[0].is_offered());
    /// assert!(census.tools()[1].is_offered());
    /// ```
    pub fn build<I, S>(names: I, taken: &[&str]) -> Census
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Census::build_ranked(names.into_iter().map(|n| (n, 0)), taken)
    }

    /// The census of tools given as `(real name, rank)`. Of tools that share a form, those of
    /// the lowest rank compete by the spec's rules and every higher-ranked one is left out
    /// ([`LeftOutReason::Outranked`]) and unreachable: the runtime ranks `#[tool]`s 0 and loaded
    /// tools 1, so a loaded tool can never take over a static one.
    ///
    /// ```
    /// use toolwire_core::{Census, census::LeftOutReason};
    /// let census = Census::build_ranked([("search.web", 0), ("mcp/s/search_web", 1), ("search/web", 1)], &[]);
    /// assert!(census.tools()[0].is_offered());
    /// assert!(census.tools()[1].is_offered());
    /// assert!(matches!(census.tools()[2].left_out_reason(), Some(LeftOutReason::Outranked { .. })));
    /// assert!(census.resolve("search/web").is_err());
    /// ```
    pub fn build_ranked<I, S>(tools: I, taken: &[&str]) -> Census
    where
        I: IntoIterator<Item = (S, u32)>,
        S: AsRef<str>,
    {
        Census::build_ranked_within(tools, taken, NameBudget::FULL)
    }

    /// [`Census::build`] under a name budget: every form is cut to `budget` characters and
    /// the rules run over the cut forms unchanged, so a form two tools share under the budget
    /// leaves them out ([`LeftOutReason::BudgetClash`] names the budget as the cause), and a
    /// call by a cut form reaches its one tool (hop 5). Taken names keep their own forms.
    ///
    /// ```
    /// use toolwire_core::{Census, census::{LeftOutReason, NameBudget, Resolution}};
    /// let budget = NameBudget::new(12).unwrap();
    /// let census = Census::build_within(["mcp/files/read", "mcp/files/write", "mcp/web/fetch"], &[], budget);
    /// // `mcp_files_re` and `mcp_files_wr`: apart under 12; `mcp_web_fetc` heals back.
    /// assert_eq!(census.offered().map(|t| t.form()).collect::<Vec<_>>(), ["mcp_files_re", "mcp_files_wr", "mcp_web_fetc"]);
    /// let Ok(Resolution::Tool(hit)) = census.resolve("mcp_web_fetc") else { panic!() };
    /// assert_eq!(hit.name, "mcp/web/fetch");
    /// // Under 9 the two file tools are one form: both left out, the budget named.
    /// let census = Census::build_within(["mcp/files/read", "mcp/files/write"], &[], NameBudget::new(9).unwrap());
    /// assert!(matches!(census.tools()[0].left_out_reason(), Some(LeftOutReason::BudgetClash { budget: 9, .. })));
    /// ```
    pub fn build_within<I, S>(names: I, taken: &[&str], budget: NameBudget) -> Census
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Census::build_ranked_within(names.into_iter().map(|n| (n, 0)), taken, budget)
    }

    /// [`Census::build_ranked`] under a name budget (see [`Census::build_within`]).
    ///
    /// ```
    /// use toolwire_core::{Census, census::{LeftOutReason, NameBudget}};
    /// let budget = NameBudget::new(6).unwrap();
    /// let census = Census::build_ranked_within([("search", 0), ("search/web", 1)], &[], budget);
    /// let Some(LeftOutReason::BudgetClash { cause, .. }) = census.tools()[1].left_out_reason() else { panic!() };
    /// assert!(matches!(**cause, LeftOutReason::Outranked { .. }));
    /// assert_eq!(census.budget(), budget);
    /// ```
    pub fn build_ranked_within<I, S>(tools: I, taken: &[&str], budget: NameBudget) -> Census
    where
        I: IntoIterator<Item = (S, u32)>,
        S: AsRef<str>,
    {
        let cut = budget.chars();
        let tools = tools.into_iter();
        let mut entries: Vec<CensusTool> = Vec::with_capacity(tools.size_hint().0);
        // One scratch buffer for every form that is not a prefix of its name (at most 64 bytes).
        let mut scratch = String::with_capacity(MAX_FORM_CHARS);
        for (name, rank) in tools {
            let name = name.as_ref();
            let form = match safe_prefix_len(name) {
                Ok(len) => Form::Prefix(len.min(cut)),
                // The form's first `cut` characters are all the name's own.
                Err(safe_prefix) if safe_prefix >= cut => Form::Prefix(cut),
                Err(safe_prefix) => {
                    scratch.clear();
                    push_form(name, safe_prefix, &mut scratch);
                    // Forms are ASCII: a cut at any byte is a cut at a character.
                    scratch.truncate(cut);
                    Form::Owned(scratch.as_str().into())
                }
            };
            entries.push(CensusTool {
                name: name.into(),
                form,
                rank,
                status: ToolStatus::Offered,
            });
        }
        let taken_forms = taken
            .iter()
            .map(|t| model_safe_name(t).into_owned().into_boxed_str())
            .collect();
        let mut census = Census {
            // Room for every name and about half as many other forms, so building rarely rehashes.
            table: NameTable::with_capacity(entries.len() + entries.len() / 2 + 2 * taken.len()),
            tools: entries,
            taken: taken.iter().map(|t| Box::from(*t)).collect(),
            taken_forms,
            collisions: BTreeMap::new(),
            duplicates: Vec::new(),
            budget,
        };
        census.settle();
        census
    }

    /// Holds the tool at `index` back from the request: it is left out
    /// ([`LeftOutReason::Withheld`]) but keeps its place in the census, so a call by its real
    /// name or by a form only it has still resolves to it (for the caller to refuse), and a
    /// form it shares never heals to another tool. Other tools' statuses do not change.
    ///
    /// ```
    /// use toolwire_core::{Census, census::{LeftOutReason, Resolution}};
    /// let mut census = Census::build(["x.y", "x_y"], &[]);
    /// census.withhold(1); // `x_y` is switched off
    /// assert_eq!(census.tools()[1].left_out_reason(), Some(&LeftOutReason::Withheld));
    /// // `x_y` still names the switched-off tool, never `x.y`.
    /// let Ok(Resolution::Tool(hit)) = census.resolve("x_y") else { panic!() };
    /// assert_eq!(hit.name, "x_y");
    /// ```
    pub fn withhold(&mut self, index: usize) {
        if let Some(tool) = self.tools.get_mut(index) {
            if tool.is_offered() {
                tool.status = ToolStatus::LeftOut(LeftOutReason::Withheld);
            }
        }
    }

    /// Every tool, in input order.
    ///
    /// ```
    /// use toolwire_core::Census;
    /// let census = Census::build(["b", "a", "a"], &[]);
    /// let names: Vec<_> = census.tools().iter().map(|t| t.name()).collect();
    /// assert_eq!(names, ["b", "a", "a"]);
    /// ```
    pub fn tools(&self) -> &[CensusTool] {
        &self.tools
    }

    /// The tools the request carries, in input order.
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["a", "b/c"], &[]);
    /// assert_eq!(census.offered().count(), 2);
    /// ```
    pub fn offered(&self) -> impl Iterator<Item = &CensusTool> + '_ {
        self.tools.iter().filter(|t| t.is_offered())
    }

    /// The tools left out of the request, in input order.
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["a.b", "a/b"], &[]);
    /// assert_eq!(census.left_out().count(), 2);
    /// ```
    pub fn left_out(&self) -> impl Iterator<Item = &CensusTool> + '_ {
        self.tools.iter().filter(|t| !t.is_offered())
    }

    /// The taken (meta-tool) names.
    ///
    /// ```
    /// use toolwire_core::{Census, names::DEFAULT_META_TOOLS};
    /// let census = Census::build(["a"], &DEFAULT_META_TOOLS);
    /// assert_eq!(census.taken().collect::<Vec<_>>(), DEFAULT_META_TOOLS);
    /// assert_eq!(Census::build(["a"], &[]).taken().count(), 0);
    /// ```
    pub fn taken(&self) -> impl Iterator<Item = &str> + '_ {
        self.taken.iter().map(|t| &**t)
    }

    /// Each shared form → every real name that travels as it, sorted (taken names included).
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["tool/schema"], &toolwire_core::names::DEFAULT_META_TOOLS);
    /// assert_eq!(census.collisions()["tool_schema"], ["tool/schema", "tool_schema"]);
    /// ```
    pub fn collisions(&self) -> &BTreeMap<String, Vec<String>> {
        &self.collisions
    }

    /// The healing map: form → real name, for each tool whose form differs from its name and
    /// is the form of no other tool (after ranks), no taken name and no real name. A withheld
    /// tool ([`Census::withhold`]) is in it too, though the request does not carry it: a call
    /// by its form still names that tool (for the caller to refuse), never another.
    ///
    /// ```
    /// let mut census = toolwire_core::Census::build(["mcp/server/echo", "echo"], &[]);
    /// assert_eq!(census.healing().into_iter().collect::<Vec<_>>(), [("mcp_server_echo", "mcp/server/echo")]);
    /// census.withhold(0); // switched off: still healed to, so no other tool answers its form
    /// assert_eq!(census.healing()["mcp_server_echo"], "mcp/server/echo");
    /// assert_eq!(census.offered().count(), 1);
    /// ```
    pub fn healing(&self) -> BTreeMap<&str, &str> {
        self.table
            .entries
            .iter()
            .filter(|entry| entry.heal != NONE && entry.meta == NONE && entry.exact == NONE)
            .map(|entry| {
                (
                    self.key_text(entry.key),
                    self.tools[entry.heal as usize].name(),
                )
            })
            .collect()
    }

    /// The name budget its forms are cut to ([`NameBudget::FULL`] unless built with one).
    ///
    /// ```
    /// use toolwire_core::{Census, census::NameBudget};
    /// assert_eq!(Census::build(["a"], &[]).budget(), NameBudget::FULL);
    /// ```
    pub fn budget(&self) -> NameBudget {
        self.budget
    }

    /// Real names given more than once, sorted.
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["a", "a", "b"], &[]);
    /// assert_eq!(census.duplicates(), ["a"]);
    /// ```
    pub fn duplicates(&self) -> &[String] {
        &self.duplicates
    }

    fn key_text(&self, key: Key) -> &str {
        self.strings().get(key)
    }

    /// The census's strings, as the name table's keys name them.
    pub(super) fn strings(&self) -> Strings<'_> {
        Strings {
            tools: &self.tools,
            taken: &self.taken,
            taken_forms: &self.taken_forms,
        }
    }
}
