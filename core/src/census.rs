//! The name census of one request (hop 1 of the spec) and dispatch resolution (hop 5).
//!
//! Policy: never guess. A form maps back to a real name only when exactly one tool of the
//! census travels as it; of the tools that share a form, only the one whose real name IS the
//! form is offered; the taken (meta-tool) names beat every tool. Building is linear in the
//! number of tools; resolving is one hash lookup and never allocates.

use std::collections::BTreeMap;
use std::fmt;

use crate::name_table::{Key, KeyText, NameTable, NONE};
use crate::naming::{model_safe_name, push_form, safe_prefix_len, MAX_FORM_CHARS};

/// Why a tool is left out of the request.
///
/// ```
/// use toolwire_core::{Census, LeftOutReason, META_TOOLS};
/// let census = Census::build(["tool/search"], &META_TOOLS);
/// assert_eq!(
///     census.tools()[0].left_out_reason(),
///     Some(&LeftOutReason::MetaTool { meta: "tool_search".into() })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeftOutReason {
    /// The real name is empty: no provider accepts it and no call can name it.
    EmptyName,
    /// The same real name came earlier in the census (at input position `first`); only that one
    /// is the tool.
    DuplicateName {
        /// The position of the first tool with this name.
        first: usize,
    },
    /// The tool is, or travels as, a meta-tool: the runtime answers that name.
    MetaTool {
        /// The meta-tool's name.
        meta: String,
    },
    /// Its form is another tool's real name: that tool is offered under it, and a call by it
    /// reaches that tool.
    FormIsAnotherTool {
        /// The tool whose real name is the form.
        owner: String,
    },
    /// It shares its form with other tools, none of which is the form itself: a call by the
    /// form could not be told apart.
    SharesForm {
        /// The other tools that travel as the same form, sorted.
        others: Vec<String>,
    },
    /// The app holds the tool back from this request (the user switched it off, or its
    /// provider is unreachable). It still holds its real name and its form, so no call by
    /// either reaches another tool instead.
    Withheld,
    /// A tool of a higher rank (for the runtime: a static `#[tool]` beside a loaded one) already
    /// travels as this form, so this tool is refused and never reached.
    Outranked {
        /// The higher-ranked tools that travel as the form, sorted.
        holders: Vec<String>,
    },
}

impl fmt::Display for LeftOutReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeftOutReason::EmptyName => f.write_str("the name is empty"),
            LeftOutReason::DuplicateName { first } => {
                write!(f, "the same name came earlier (entry {first})")
            }
            LeftOutReason::MetaTool { meta } => {
                write!(f, "it is, or travels as, the meta-tool `{meta}`")
            }
            LeftOutReason::FormIsAnotherTool { owner } => {
                write!(f, "its form is the real name of the tool `{owner}`")
            }
            LeftOutReason::SharesForm { others } => {
                write!(f, "it shares its form with {}", quoted_list(others))
            }
            LeftOutReason::Withheld => f.write_str("it is held back (switched off or unreachable)"),
            LeftOutReason::Outranked { holders } => {
                write!(
                    f,
                    "its form already belongs to {}, which outranks it",
                    quoted_list(holders)
                )
            }
        }
    }
}

impl LeftOutReason {
    /// A short stable key for the reason, for JSON output.
    ///
    /// ```
    /// assert_eq!(toolwire_core::LeftOutReason::EmptyName.key(), "empty_name");
    /// ```
    pub fn key(&self) -> &'static str {
        match self {
            LeftOutReason::EmptyName => "empty_name",
            LeftOutReason::DuplicateName { .. } => "duplicate_name",
            LeftOutReason::MetaTool { .. } => "meta_tool",
            LeftOutReason::FormIsAnotherTool { .. } => "form_is_another_tool",
            LeftOutReason::SharesForm { .. } => "shares_form",
            LeftOutReason::Withheld => "withheld",
            LeftOutReason::Outranked { .. } => "outranked",
        }
    }
}

fn quoted_list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a tool is in the request.
///
/// ```
/// use toolwire_core::{Census, LeftOutReason, ToolStatus};
/// let census = Census::build(["a", "a"], &[]);
/// assert_eq!(census.tools()[0].status(), &ToolStatus::Offered);
/// let again = ToolStatus::LeftOut(LeftOutReason::DuplicateName { first: 0 });
/// assert_eq!(census.tools()[1].status(), &again);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolStatus {
    /// The request carries the tool under its form.
    Offered,
    /// The request does not carry the tool.
    LeftOut(LeftOutReason),
}

/// One tool of a census: its real name, its form and its status.
///
/// ```
/// use toolwire_core::Census;
/// let census = Census::build(["mcp/server/echo"], &[]);
/// let tool = &census.tools()[0];
/// assert_eq!((tool.name(), tool.form(), tool.is_offered()), ("mcp/server/echo", "mcp_server_echo", true));
/// ```
#[derive(Clone, Debug)]
pub struct CensusTool {
    name: Box<str>,
    form: Form,
    rank: u32,
    status: ToolStatus,
}

/// A tool's form: most often a prefix of its name (all of it, for a safe name), so no copy.
/// (Keeping the other forms inline instead of boxed was measured: no faster, more memory.)
#[derive(Clone, Debug)]
enum Form {
    Prefix(usize),
    Owned(Box<str>),
}

impl CensusTool {
    /// The tool's real name: its identity.
    ///
    /// ```
    /// use toolwire_core::Census;
    /// let census = Census::build(["mcp/server/echo"], &[]);
    /// assert_eq!(census.tools()[0].name(), "mcp/server/echo");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The model-safe form the request carries (or would carry) it under.
    ///
    /// ```
    /// use toolwire_core::Census;
    /// let census = Census::build(["mcp/server/echo", "get_weather"], &[]);
    /// assert_eq!(census.tools()[0].form(), "mcp_server_echo");
    /// assert_eq!(census.tools()[1].form(), "get_weather");
    /// ```
    pub fn form(&self) -> &str {
        match &self.form {
            Form::Prefix(len) => &self.name[..*len],
            Form::Owned(form) => form,
        }
    }

    /// Whether the tool's whole name is its form.
    fn is_own_form(&self) -> bool {
        matches!(self.form, Form::Prefix(len) if len == self.name.len())
    }
    /// The rank it was given (lower ranks win a shared form); 0 for [`Census::build`].
    ///
    /// ```
    /// use toolwire_core::Census;
    /// let census = Census::build_ranked([("search.web", 0), ("mcp/s/fetch", 1)], &[]);
    /// assert_eq!(census.tools()[0].rank(), 0);
    /// assert_eq!(census.tools()[1].rank(), 1);
    /// assert_eq!(Census::build(["a"], &[]).tools()[0].rank(), 0);
    /// ```
    pub fn rank(&self) -> u32 {
        self.rank
    }
    /// Offered or left out, and why.
    ///
    /// ```
    /// use toolwire_core::{Census, LeftOutReason, ToolStatus, META_TOOLS};
    /// let census = Census::build(["tool_search"], &META_TOOLS);
    /// let meta = LeftOutReason::MetaTool { meta: "tool_search".into() };
    /// assert_eq!(census.tools()[0].status(), &ToolStatus::LeftOut(meta));
    /// ```
    pub fn status(&self) -> &ToolStatus {
        &self.status
    }
    /// Whether the request carries it.
    ///
    /// ```
    /// use toolwire_core::{Census, META_TOOLS};
    /// let census = Census::build(["mcp/server/echo", "tool/search"], &META_TOOLS);
    /// assert!(census.tools()[0].is_offered());
    /// assert!(!census.tools()[1].is_offered());
    /// ```
    pub fn is_offered(&self) -> bool {
        self.status == ToolStatus::Offered
    }
    /// Why it is left out, if it is.
    ///
    /// ```
    /// use toolwire_core::{Census, LeftOutReason};
    /// let census = Census::build(["a.b", "a/b", "c"], &[]);
    /// let shares = LeftOutReason::SharesForm { others: vec!["a/b".into()] };
    /// assert_eq!(census.tools()[0].left_out_reason(), Some(&shares));
    /// assert_eq!(census.tools()[2].left_out_reason(), None);
    /// ```
    pub fn left_out_reason(&self) -> Option<&LeftOutReason> {
        match &self.status {
            ToolStatus::Offered => None,
            ToolStatus::LeftOut(reason) => Some(reason),
        }
    }
}

/// How a called name reached its tool.
///
/// ```
/// use toolwire_core::{Census, Resolution, Via};
/// let census = Census::build(["mcp/server/echo"], &[]);
/// let via = |called| match census.resolve(called) {
///     Ok(Resolution::Tool(hit)) => hit.via,
///     _ => panic!(),
/// };
/// assert_eq!(via("mcp/server/echo"), Via::Exact);
/// assert_eq!(via("mcp_server_echo"), Via::Form);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Via {
    /// The call named the tool's real name.
    Exact,
    /// The call named the tool's model-safe form, and exactly one tool travels as it.
    Form,
}

impl Via {
    /// `"exact"` or `"form"`.
    ///
    /// ```
    /// assert_eq!(toolwire_core::Via::Form.key(), "form");
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            Via::Exact => "exact",
            Via::Form => "form",
        }
    }
}

/// What a called name resolves to.
///
/// ```
/// use toolwire_core::{Census, Resolution, Via, META_TOOLS};
/// let census = Census::build(["mcp/server/echo"], &META_TOOLS);
/// assert_eq!(census.resolve("tool_search"), Ok(Resolution::Meta("tool_search")));
/// let Ok(Resolution::Tool(hit)) = census.resolve("mcp_server_echo") else { panic!() };
/// assert_eq!((hit.name, hit.via), ("mcp/server/echo", Via::Form));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution<'a> {
    /// A meta-tool: the runtime answers it.
    Meta(&'a str),
    /// A tool of the census.
    Tool(ResolvedTool<'a>),
}

/// A tool a call reached.
///
/// ```
/// use toolwire_core::{Census, Resolution, ResolvedTool, Via};
/// let census = Census::build(["a", "mcp/server/echo"], &[]);
/// let hit = ResolvedTool { index: 1, name: "mcp/server/echo", via: Via::Form };
/// assert_eq!(census.resolve("mcp_server_echo"), Ok(Resolution::Tool(hit)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedTool<'a> {
    /// The tool's position in the census input.
    pub index: usize,
    /// The tool's real name.
    pub name: &'a str,
    /// How the call reached it.
    pub via: Via,
}

/// A called name that is no meta-tool, no real name and no unique form: never a guess.
///
/// ```
/// use toolwire_core::Census;
/// let census = Census::build(["mcp/a/b", "mcp/a_b"], &[]);
/// let err = census.resolve("mcp_a_b").unwrap_err();
/// assert_eq!(err.called, "mcp_a_b");
/// assert!(err.to_string().contains("mcp_a_b"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownTool<'c> {
    /// The name the call used.
    pub called: &'c str,
}

impl fmt::Display for UnknownTool<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no tool answers to `{}`: it is neither a meta-tool, a real tool name, nor the form of exactly one tool",
            self.called
        )
    }
}

impl std::error::Error for UnknownTool<'_> {}

/// The census of one request: which tools are offered, under which form, which are left out
/// and why, and how a called name maps back to a real tool.
///
/// Building it logs one `tracing` warning per shared form (with the `runtime` feature, on by
/// default), naming the tools left out and the form.
///
/// ```
/// use toolwire_core::{Census, Resolution, Via, META_TOOLS};
///
/// let census = Census::build(["mcp/server/echo", "mcp/a/b", "mcp/a_b", "tool_search"], &META_TOOLS);
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
    tools: Vec<CensusTool>,
    taken: Vec<Box<str>>,
    taken_forms: Vec<Box<str>>,
    table: NameTable,
    collisions: BTreeMap<String, Vec<String>>,
    duplicates: Vec<String>,
}

impl Census {
    /// The census of tools given by real name, all of one rank, beside the `taken` names
    /// (the runtime's meta-tools: usually [`META_TOOLS`](crate::META_TOOLS)).
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
    /// use toolwire_core::{Census, LeftOutReason};
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
        let tools = tools.into_iter();
        let mut entries: Vec<CensusTool> = Vec::with_capacity(tools.size_hint().0);
        // One scratch buffer for every form that is not a prefix of its name (at most 64 bytes).
        let mut scratch = String::with_capacity(MAX_FORM_CHARS);
        for (name, rank) in tools {
            let name = name.as_ref();
            let form = match safe_prefix_len(name) {
                Ok(len) => Form::Prefix(len),
                Err(safe_prefix) => {
                    scratch.clear();
                    push_form(name, safe_prefix, &mut scratch);
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
        };
        census.settle();
        census
    }

    /// Decides every tool's status and fills the table.
    fn settle(&mut self) {
        let count = self.tools.len();
        let mut next_in_group = vec![NONE; count];
        // Only left-out tools get a status here; most tools are offered.
        let mut left_out: Vec<(usize, LeftOutReason)> = Vec::new();
        let mut duplicates: Vec<String> = Vec::new();
        let strings = Strings {
            tools: &self.tools,
            taken: &self.taken,
            taken_forms: &self.taken_forms,
        };
        let table = &mut self.table;

        // A taken name answers to itself and travels as its form, like any tool: a custom
        // taken name that is not model-safe (`tool/schema`) takes its form (`tool_schema`) too.
        // Names first, so a taken name always answers to itself before another's form.
        for (i, taken) in self.taken.iter().enumerate() {
            let entry = table.slot(Key::Taken(i as u32), taken, &strings);
            if entry.meta == NONE {
                entry.meta = i as u32;
            }
        }
        for (i, (taken, form)) in self.taken.iter().zip(&self.taken_forms).enumerate() {
            if form != taken {
                let entry = table.slot(Key::TakenForm(i as u32), form, &strings);
                if entry.meta == NONE {
                    entry.meta = i as u32;
                }
            }
        }
        let mut first_empty: Option<usize> = None;
        for (i, tool) in self.tools.iter().enumerate() {
            if tool.name.is_empty() {
                // The empty name is a name too: given twice, the second is a duplicate.
                left_out.push((
                    i,
                    match first_empty {
                        None => LeftOutReason::EmptyName,
                        Some(first) => {
                            duplicates.push(String::new());
                            LeftOutReason::DuplicateName { first }
                        }
                    },
                ));
                first_empty.get_or_insert(i);
                continue;
            }
            let entry = table.slot(Key::Name(i as u32), &tool.name, &strings);
            if entry.exact != NONE {
                duplicates.push(tool.name.to_string());
                left_out.push((
                    i,
                    LeftOutReason::DuplicateName {
                        first: entry.exact as usize,
                    },
                ));
                continue;
            }
            entry.exact = i as u32;
            // A safe name is its own form: the same entry, no second lookup.
            let group = if tool.is_own_form() {
                entry
            } else {
                table.slot(Key::Form(i as u32), tool.form(), &strings)
            };
            next_in_group[i] = group.head;
            group.head = i as u32;
            group.len += 1;
        }

        let mut outranked: Vec<usize> = Vec::new();
        let mut shared: Vec<(String, Vec<String>)> = Vec::new();
        for entry in table.entries.iter_mut() {
            if entry.len == 0 {
                continue;
            }
            let form = strings.text(entry.key);
            if entry.len == 1 && entry.meta == NONE {
                if *self.tools[entry.head as usize].name != *form {
                    entry.heal = entry.head;
                }
                continue;
            }
            // A shared form: collect its members.
            let mut members = Vec::with_capacity(entry.len as usize);
            let mut at = entry.head;
            while at != NONE {
                members.push(at as usize);
                at = next_in_group[at as usize];
            }
            let mut names: Vec<String> = members
                .iter()
                .map(|&i| self.tools[i].name.to_string())
                .collect();
            if entry.meta != NONE {
                names.push(self.taken[entry.meta as usize].to_string());
            }
            names.sort();
            names.dedup();
            self.collisions.insert(form.to_owned(), names);

            let before = left_out.len();
            if entry.meta != NONE {
                let meta = self.taken[entry.meta as usize].to_string();
                for &i in &members {
                    left_out.push((i, LeftOutReason::MetaTool { meta: meta.clone() }));
                }
            } else {
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
                    outranked.push(i);
                    left_out.push((
                        i,
                        LeftOutReason::Outranked {
                            holders: holders.clone(),
                        },
                    ));
                }
                if let [winner] = winners[..] {
                    if *self.tools[winner].name != *form {
                        entry.heal = winner as u32;
                    }
                } else {
                    let owner = winners
                        .iter()
                        .copied()
                        .find(|&i| *self.tools[i].name == *form);
                    for &i in &winners {
                        if Some(i) == owner {
                            continue;
                        }
                        left_out.push((
                            i,
                            match owner {
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
                            },
                        ));
                    }
                }
            }
            if left_out.len() > before {
                let mut names: Vec<String> = left_out[before..]
                    .iter()
                    .map(|(i, _)| self.tools[*i].name.to_string())
                    .collect();
                names.sort();
                shared.push((form.to_owned(), names));
            }
        }
        // A tool refused for its rank is never reached, not even by its exact name.
        for i in outranked {
            if let Some(e) = table.find(&self.tools[i].name, &strings) {
                let entry = &mut table.entries[e];
                if entry.exact == i as u32 {
                    entry.exact = NONE;
                }
            }
        }
        for (i, reason) in left_out {
            self.tools[i].status = ToolStatus::LeftOut(reason);
        }
        duplicates.sort();
        duplicates.dedup();
        self.duplicates = duplicates;
        shared.sort();
        self.log_left_out(&shared);
    }

    #[cfg(feature = "runtime")]
    fn log_left_out(&self, shared: &[(String, Vec<String>)]) {
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

    #[cfg(not(feature = "runtime"))]
    fn log_left_out(&self, _shared: &[(String, Vec<String>)]) {}

    /// Holds the tool at `index` back from the request: it is left out
    /// ([`LeftOutReason::Withheld`]) but keeps its place in the census, so a call by its real
    /// name or by a form only it has still resolves to it (for the caller to refuse), and a
    /// form it shares never heals to another tool. Other tools' statuses do not change.
    ///
    /// ```
    /// use toolwire_core::{Census, LeftOutReason, Resolution};
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
    /// use toolwire_core::{Census, META_TOOLS};
    /// let census = Census::build(["a"], &META_TOOLS);
    /// assert_eq!(census.taken().collect::<Vec<_>>(), META_TOOLS);
    /// assert_eq!(Census::build(["a"], &[]).taken().count(), 0);
    /// ```
    pub fn taken(&self) -> impl Iterator<Item = &str> + '_ {
        self.taken.iter().map(|t| &**t)
    }

    /// Each shared form → every real name that travels as it, sorted (taken names included).
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["tool/schema"], &toolwire_core::META_TOOLS);
    /// assert_eq!(census.collisions()["tool_schema"], ["tool/schema", "tool_schema"]);
    /// ```
    pub fn collisions(&self) -> &BTreeMap<String, Vec<String>> {
        &self.collisions
    }

    /// The healing map: form → real name, for each offered tool whose form differs from its
    /// name (only a form exactly one tool travels as).
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["mcp/server/echo", "echo"], &[]);
    /// assert_eq!(census.healing().into_iter().collect::<Vec<_>>(), [("mcp_server_echo", "mcp/server/echo")]);
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

    /// Real names given more than once, sorted.
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["a", "a", "b"], &[]);
    /// assert_eq!(census.duplicates(), ["a"]);
    /// ```
    pub fn duplicates(&self) -> &[String] {
        &self.duplicates
    }

    /// Resolves a called name (hop 5): a meta-tool's name is the runtime's; then an exact real
    /// name, always (a tool left out of the request is still that tool, unless a higher rank
    /// refused it); only a name that is neither consults the healing map. Anything else is
    /// [`UnknownTool`]. One hash lookup; no allocation.
    ///
    /// ```
    /// use toolwire_core::{Census, Resolution, Via};
    /// let census = Census::build(["mcp/x", "mcp_x"], &[]);
    /// // `mcp_x` is a real name: it is never remapped to `mcp/x`.
    /// let Ok(Resolution::Tool(hit)) = census.resolve("mcp_x") else { panic!() };
    /// assert_eq!((hit.name, hit.via), ("mcp_x", Via::Exact));
    /// ```
    pub fn resolve<'c>(&self, called: &'c str) -> Result<Resolution<'_>, UnknownTool<'c>> {
        match self
            .table
            .find(called, &self.strings())
            .map(|e| &self.table.entries[e])
        {
            Some(entry) if entry.meta != NONE => {
                Ok(Resolution::Meta(&self.taken[entry.meta as usize]))
            }
            Some(entry) if entry.exact != NONE => {
                Ok(Resolution::Tool(self.resolved(entry.exact, Via::Exact)))
            }
            Some(entry) if entry.heal != NONE => {
                Ok(Resolution::Tool(self.resolved(entry.heal, Via::Form)))
            }
            _ => Err(UnknownTool { called }),
        }
    }

    fn key_text(&self, key: Key) -> &str {
        self.strings().get(key)
    }

    fn strings(&self) -> Strings<'_> {
        Strings {
            tools: &self.tools,
            taken: &self.taken,
            taken_forms: &self.taken_forms,
        }
    }

    fn resolved(&self, index: u32, via: Via) -> ResolvedTool<'_> {
        let index = index as usize;
        ResolvedTool {
            index,
            name: &self.tools[index].name,
            via,
        }
    }

    /// The offered forms closest to `called` (by edit distance over characters), at most
    /// `limit`, closest first: for an unknown-tool error that helps the model retry.
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["search_web", "read_file", "write_file"], &[]);
    /// assert_eq!(census.closest_offered("serch_web", 1), ["search_web"]);
    /// ```
    pub fn closest_offered(&self, called: &str, limit: usize) -> Vec<&str> {
        let called: Vec<char> = called.chars().take(256).collect();
        let mut scored: Vec<(usize, &str)> = self
            .offered()
            .map(|t| (edit_distance(&called, t.form()), t.form()))
            .collect();
        scored.sort();
        scored.into_iter().take(limit).map(|(_, f)| f).collect()
    }
}

/// The census's strings, for the name table's keys.
struct Strings<'a> {
    tools: &'a [CensusTool],
    taken: &'a [Box<str>],
    taken_forms: &'a [Box<str>],
}

impl<'a> Strings<'a> {
    /// The string at `key`, borrowed from the census itself (not from this view).
    fn get(&self, key: Key) -> &'a str {
        match key {
            Key::Name(i) => &self.tools[i as usize].name,
            Key::Form(i) => self.tools[i as usize].form(),
            Key::Taken(i) => &self.taken[i as usize],
            Key::TakenForm(i) => &self.taken_forms[i as usize],
        }
    }
}

impl KeyText for Strings<'_> {
    fn text(&self, key: Key) -> &str {
        self.get(key)
    }
}

fn edit_distance(a: &[char], b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The spec's `build_sanitized_index` over one set of real names (no taken names).
///
/// ```
/// let index = toolwire_core::build_sanitized_index(["mcp/server/echo", "mcp/a/b", "mcp/a_b", "mcp_a/b"]);
/// assert_eq!(index.healing["mcp_server_echo"], "mcp/server/echo");
/// assert_eq!(index.collisions["mcp_a_b"], ["mcp/a/b", "mcp/a_b", "mcp_a/b"]);
/// assert_eq!(index.left_out.len(), 3);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SanitizedIndex {
    /// Form → real name, only where exactly one tool has that form and its real name differs.
    pub healing: BTreeMap<String, String>,
    /// Each shared form → every real name that travels as it, sorted (the one that IS the form
    /// included).
    pub collisions: BTreeMap<String, Vec<String>>,
    /// Each real name no request can carry → the form it shares.
    pub left_out: BTreeMap<String, String>,
}

/// Builds the [`SanitizedIndex`] of `names`: the healing map, the collisions and `left_out`.
///
/// ```
/// let index = toolwire_core::build_sanitized_index(["mcp/x", "mcp_x", "echo"]);
/// assert!(index.healing.is_empty());
/// assert_eq!(index.left_out["mcp/x"], "mcp_x");
/// ```
pub fn build_sanitized_index<I, S>(names: I) -> SanitizedIndex
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let census = Census::build(names, &[]);
    SanitizedIndex {
        healing: census
            .healing()
            .into_iter()
            .map(|(f, n)| (f.to_owned(), n.to_owned()))
            .collect(),
        left_out: census
            .left_out()
            .filter(|t| {
                matches!(
                    t.left_out_reason(),
                    Some(
                        LeftOutReason::SharesForm { .. } | LeftOutReason::FormIsAnotherTool { .. }
                    )
                )
            })
            .map(|t| (t.name().to_owned(), t.form().to_owned()))
            .collect(),
        collisions: census.collisions,
    }
}
