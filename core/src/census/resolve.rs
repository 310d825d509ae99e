//! Hop 5 of the spec: a called name back to exactly one tool, or an error, never a guess.
//!
//! Policy: a meta-tool's name first, then an exact real name, always; only a name that is
//! neither consults the healing map. One hash lookup; only an unknown name allocates (the
//! error owns it).

use std::fmt;

use super::name_table::NONE;
use super::Census;

/// How a called name reached its tool.
///
/// A `match` on it needs a `_` arm: a new way to reach a tool may come.
///
/// ```
/// use toolwire_core::{Census, census::{Resolution, Via}};
/// let census = Census::build(["mcp/server/echo"], &[]);
/// let via = |called| match census.resolve(called) {
///     Ok(Resolution::Tool(hit)) => hit.via,
///     _ => panic!(),
/// };
/// assert_eq!(via("mcp/server/echo"), Via::Exact);
/// assert_eq!(via("mcp_server_echo"), Via::Form);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// assert_eq!(toolwire_core::census::Via::Form.key(), "form");
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
/// A `match` on it needs a `_` arm (treat an answer you do not know as an unknown tool): a
/// new kind of answer may come.
///
/// ```
/// use toolwire_core::{Census, census::{Resolution, Via}, names::DEFAULT_META_TOOLS};
/// let census = Census::build(["mcp/server/echo"], &DEFAULT_META_TOOLS);
/// assert_eq!(census.resolve("tool_search"), Ok(Resolution::Meta("tool_search")));
/// let Ok(Resolution::Tool(hit)) = census.resolve("mcp_server_echo") else { panic!() };
/// assert_eq!((hit.name, hit.via), ("mcp/server/echo", Via::Form));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Resolution<'a> {
    /// A meta-tool: the runtime answers it.
    Meta(&'a str),
    /// A tool of the census.
    Tool(ResolvedTool<'a>),
}

/// A tool a call reached.
///
/// ```
/// use toolwire_core::{Census, census::{Resolution, ResolvedTool, Via}};
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
/// It owns the called name, so it is a `'static` error: it outlives the call and the census,
/// and goes into a `Box<dyn Error + Send + Sync>` as it is.
///
/// ```
/// use toolwire_core::{Census, census::UnknownTool};
/// let census = Census::build(["mcp/a/b", "mcp/a_b"], &[]);
/// let err = census.resolve("mcp_a_b").unwrap_err();
/// assert_eq!(err.called, "mcp_a_b");
/// assert!(err.to_string().contains("mcp_a_b"));
/// let boxed: Box<dyn std::error::Error + Send + Sync + 'static> = Box::new(err);
/// assert!(boxed.is::<UnknownTool>());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTool {
    /// The name the call used.
    pub called: String,
}

impl fmt::Display for UnknownTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: it is neither a meta-tool, a real tool name, nor the form of exactly one tool",
            unknown_tool_words::<&str>(&self.called, &[])
        )
    }
}

/// The one wording of a call no tool answers to, with the offered forms closest to it when
/// there are any: `` unknown tool `serch`; the closest offered tools are `search` ``. The
/// runtime's answers (`DispatchError::UnknownTool`), the census's
/// own error and `tool_schema` all say it so.
pub(crate) fn unknown_tool_words<S: AsRef<str>>(called: &str, closest: &[S]) -> String {
    format!("unknown tool `{called}`{}", closest_clause(closest))
}

/// `; the closest offered tools are `a`, `b`` after a call that reached no tool, or nothing
/// when there are none: the one wording of the suggestions.
pub(crate) fn closest_clause<S: AsRef<str>>(closest: &[S]) -> String {
    if closest.is_empty() {
        return String::new();
    }
    let names: Vec<String> = closest
        .iter()
        .map(|c| format!("`{}`", c.as_ref()))
        .collect();
    format!("; the closest offered tools are {}", names.join(", "))
}

impl std::error::Error for UnknownTool {}

impl Census {
    /// Resolves a called name (hop 5): a meta-tool's name is the runtime's; then an exact real
    /// name, always (a tool left out of the request is still that tool, unless a higher rank
    /// refused it); only a name that is neither consults the healing map. Anything else is
    /// [`UnknownTool`]. One hash lookup; only the error allocates (it owns the called name).
    ///
    /// ```
    /// use toolwire_core::{Census, census::{Resolution, Via}};
    /// let census = Census::build(["mcp/x", "mcp_x"], &[]);
    /// // `mcp_x` is a real name: it is never remapped to `mcp/x`.
    /// let Ok(Resolution::Tool(hit)) = census.resolve("mcp_x") else { panic!() };
    /// assert_eq!((hit.name, hit.via), ("mcp_x", Via::Exact));
    /// ```
    pub fn resolve(&self, called: &str) -> Result<Resolution<'_>, UnknownTool> {
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
            _ => Err(UnknownTool {
                called: called.to_owned(),
            }),
        }
    }

    /// The real names of the tools that share `form`, sorted, when two or more do (so none is
    /// offered under it and a call by it is unknown); empty otherwise. Each real name reaches
    /// its tool exactly (hop 5), so a model that called the shared form can retry with one.
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["mcp/a/b", "mcp/a.b", "mcp/c"], &[]);
    /// assert_eq!(census.sharing("mcp_a_b"), ["mcp/a.b", "mcp/a/b"]);
    /// assert!(census.sharing("mcp_c").is_empty());
    /// ```
    pub fn sharing(&self, form: &str) -> Vec<&str> {
        let Some(names) = self.collisions.get(form) else {
            return Vec::new();
        };
        // A taken (meta-tool) name in the list is the runtime's, not a tool to call.
        let tools: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|name| !self.taken().any(|taken| taken == *name))
            .collect();
        if tools.len() < 2 {
            return Vec::new();
        }
        tools
    }

    fn resolved(&self, index: u32, via: Via) -> ResolvedTool<'_> {
        let index = index as usize;
        ResolvedTool {
            index,
            name: &self.tools[index].name,
            via,
        }
    }
}
