//! Hop 5 for a call named inside a namespace: the Responses API's `namespace` tool groups
//! function tools under one name, and a call to one of them comes back as `(namespace, name)`
//! (`function_call.namespace` beside `name`). toolwire sends an MCP server's tools under one
//! namespace each (`wire::namespaced_tools`); this maps such a pair back to exactly one tool,
//! or to none, never a guess.
//!
//! Policy: a call with a namespace is never resolved by its bare name: `create_issue` inside
//! `mcp_github` is not a top-level tool `create_issue`. The one exception is a namespace that
//! is the call's own name and names no namespace of the census: the Responses API's echo for a
//! top-level function, which resolves to that function only (`own_name_as_namespace`). A pair
//! is a tool's form split in two, each part with its own 64 characters, so the census rule
//! holds for pairs: a pair reaches a
//! tool only when exactly one tool of the census has it ([`namespace_parts`]), and two tools
//! whose flat forms collide (`mcp/a/b_c`, `mcp/a_b/c`; or two long names cut to one 64-character
//! form) can each travel under its own pair. A repeated or empty name holds no pair of its own;
//! a tool outranked for its form stays unreachable (the rank is the runtime's policy).

use std::borrow::Cow;
#[cfg(feature = "runtime")]
use std::collections::HashMap;

use super::reasons::LeftOutReason;
use super::resolve::{Resolution, ResolvedTool, UnknownTool, Via};
use super::tool::CensusTool;
use super::Census;
use crate::names::{is_form_char, model_safe_name, MAX_FORM_CHARS};

/// The prefix of an MCP server's tools (`mcp/<server>/<tool>`, `mcp::mcp_tool_name`).
const MCP_PREFIX: &str = "mcp/";

/// The namespace an MCP tool travels in and its name inside it, each as its own model-safe
/// form (cut to 64 characters on its own): `mcp/<server>/<tool>` gives
/// `(model_safe("mcp/<server>"), model_safe("<tool>"))`. `None` for a tool that is not an MCP
/// server's (a server name has no `/`: `mcp::check_server_name`), which travels un-namespaced.
///
/// ```
/// use toolwire_core::census::namespace_parts;
/// let (namespace, name) = namespace_parts("mcp/github/create_issue").unwrap();
/// assert_eq!((&*namespace, &*name), ("mcp_github", "create_issue"));
/// let (_, name) = namespace_parts("mcp/docs/search/v2").unwrap();
/// assert_eq!(name, "search_v2");
/// assert!(namespace_parts("get_weather").is_none());
/// assert!(namespace_parts("mcp/github/").is_none());
/// ```
pub fn namespace_parts(real_name: &str) -> Option<(Cow<'_, str>, Cow<'_, str>)> {
    let (server, tool) = real_parts(real_name)?;
    let namespace = &real_name[..MCP_PREFIX.len() + server.len()];
    Some((model_safe_name(namespace), model_safe_name(tool)))
}

/// `mcp/<server>/<tool>` as its server and tool, both non-empty.
fn real_parts(real_name: &str) -> Option<(&str, &str)> {
    let rest = real_name.strip_prefix(MCP_PREFIX)?;
    let (server, tool) = rest.split_once('/')?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

impl Census {
    /// Resolves a call named inside a namespace (hop 5 for the Responses API's
    /// `function_call.namespace`): the tool whose real name is `namespace/called` (the model
    /// echoed the real parts: [`Via::Exact`]), or the one tool of the census whose
    /// [`namespace_parts`] are exactly `(namespace, called)` ([`Via::Form`]), offered in a
    /// namespaced list or held back; or, when `namespace` is `called` itself and no tool of
    /// the census travels in a namespace of that name, the top-level tool `called` names (the
    /// own-name rule: the Responses API's hosted tool search echoes a deferred top-level
    /// function's name as its namespace). Anything else is [`UnknownTool`]: never the tool a bare
    /// `called` would name, never a meta-tool (the runtime's own tools travel outside every
    /// namespace), never one of two tools sharing the pair. Linear in the census (no
    /// allocation): a turn has few namespaced calls.
    ///
    /// ```
    /// use toolwire_core::{Census, census::{Resolution, Via}};
    /// let census = Census::build(["mcp/github/create_issue", "create_issue"], &[]);
    /// let Ok(Resolution::Tool(hit)) = census.resolve_in_namespace("mcp_github", "create_issue") else { panic!() };
    /// assert_eq!((hit.name, hit.via), ("mcp/github/create_issue", Via::Form));
    /// let Ok(Resolution::Tool(hit)) = census.resolve_in_namespace("mcp/github", "create_issue") else { panic!() };
    /// assert_eq!(hit.via, Via::Exact);
    /// // Not the top-level `create_issue`, and not another namespace's.
    /// assert!(census.resolve_in_namespace("mcp_gitlab", "create_issue").is_err());
    /// // A namespace that is the call's own name, and no namespace of the census: top level.
    /// let Ok(Resolution::Tool(hit)) = census.resolve_in_namespace("create_issue", "create_issue") else { panic!() };
    /// assert_eq!(hit.name, "create_issue");
    /// ```
    pub fn resolve_in_namespace(
        &self,
        namespace: &str,
        called: &str,
    ) -> Result<Resolution<'_>, UnknownTool> {
        let unknown = || UnknownTool {
            called: called.to_owned(),
        };
        // The real parts, joined: exact, as a bare real name is.
        let joined = format!("{namespace}/{called}");
        if real_parts(&joined)
            .is_some_and(|(server, _)| namespace.len() == MCP_PREFIX.len() + server.len())
        {
            if let Ok(Resolution::Tool(hit)) = self.resolve(&joined) {
                if hit.via == Via::Exact {
                    return Ok(Resolution::Tool(hit));
                }
            }
        }
        let mut found = None;
        for (index, tool) in self.tools().iter().enumerate() {
            if !holds_a_pair(tool) || !has_pair(tool.name(), namespace, called) {
                continue;
            }
            if found.is_some() {
                return Err(unknown());
            }
            found = Some(index);
        }
        match found {
            Some(index) if reachable_by_pair(&self.tools()[index]) => {
                Ok(Resolution::Tool(ResolvedTool {
                    index,
                    name: self.tools()[index].name(),
                    via: Via::Form,
                }))
            }
            Some(_) => Err(unknown()),
            None => self
                .own_name_as_namespace(namespace, called)
                .ok_or_else(unknown),
        }
    }

    /// The own-name namespace rule: "a `namespace` that names no namespace of the request and
    /// equals the call's name is the top-level function" (issue 26, point 1). The Responses
    /// API's hosted `tool_search` returns a call to a deferred top-level function with
    /// `"name": "get_weather", "namespace": "get_weather"` (a recorded gpt-5.4 response; the
    /// function calling guide's tool search section does not document the echo). The call
    /// resolves as its bare name would, but only to a tool that travels outside every
    /// namespace (one without [`namespace_parts`]) or a meta-tool: the name is never split,
    /// and a namespaced tool's flat form is not reached this way.
    fn own_name_as_namespace(&self, namespace: &str, called: &str) -> Option<Resolution<'_>> {
        if namespace != called || self.names_a_namespace(namespace) {
            return None;
        }
        match self.resolve(called).ok()? {
            Resolution::Tool(hit) if namespace_parts(hit.name).is_none() => {
                Some(Resolution::Tool(hit))
            }
            Resolution::Meta(meta) => Some(Resolution::Meta(meta)),
            Resolution::Tool(_) => None,
        }
    }

    /// Whether some tool of the census travels inside `namespace` (by its form or its real
    /// `mcp/<server>` part).
    fn names_a_namespace(&self, namespace: &str) -> bool {
        self.tools().iter().any(|tool| {
            real_parts(tool.name()).is_some_and(|(server, _)| {
                let real = &tool.name()[..MCP_PREFIX.len() + server.len()];
                real == namespace || form_is(real, namespace)
            })
        })
    }

    /// Resolves a call as it came, with its namespace when the provider named one
    /// ([`ToolCall::namespace`](crate::wire::calls::ToolCall::namespace)): inside a namespace
    /// [`Census::resolve_in_namespace`], else [`Census::resolve`]. The one hop-5 entry point
    /// for a parsed call.
    ///
    /// ```
    /// use toolwire_core::{Census, census::Resolution};
    /// let census = Census::build(["mcp/github/create_issue", "create_issue"], &[]);
    /// let Ok(Resolution::Tool(hit)) = census.resolve_call(None, "create_issue") else { panic!() };
    /// assert_eq!(hit.name, "create_issue");
    /// let Ok(Resolution::Tool(hit)) = census.resolve_call(Some("mcp_github"), "create_issue") else { panic!() };
    /// assert_eq!(hit.name, "mcp/github/create_issue");
    /// ```
    pub fn resolve_call(
        &self,
        namespace: Option<&str>,
        called: &str,
    ) -> Result<Resolution<'_>, UnknownTool> {
        match namespace {
            Some(namespace) => self.resolve_in_namespace(namespace, called),
            None => self.resolve(called),
        }
    }

    /// Where each tool of the census travels in a namespaced tool list, in census order: the
    /// one judgement `wire::namespaced_tools` shares with [`Census::resolve_in_namespace`].
    #[cfg(feature = "runtime")]
    pub(crate) fn namespace_placements(&self) -> Vec<NamespacePlacement<'_>> {
        let mut holders: HashMap<(Cow<'_, str>, Cow<'_, str>), Vec<usize>> = HashMap::new();
        let pairs: Vec<_> = self
            .tools()
            .iter()
            .map(|tool| namespace_parts(tool.name()).filter(|_| holds_a_pair(tool)))
            .collect();
        for (index, pair) in pairs.iter().enumerate() {
            if let Some(pair) = pair {
                holders.entry(pair.clone()).or_default().push(index);
            }
        }
        self.tools()
            .iter()
            .zip(pairs)
            .enumerate()
            .map(|(index, (tool, pair))| match pair {
                None if tool.is_offered() => NamespacePlacement::Flat,
                None => NamespacePlacement::LeftOut(left_out_reason(tool)),
                Some(pair) => {
                    let sharing = &holders[&pair];
                    if sharing.len() > 1 {
                        let mut others: Vec<String> = sharing
                            .iter()
                            .filter(|&&other| other != index)
                            .map(|&other| self.tools()[other].name().to_owned())
                            .collect();
                        others.sort();
                        NamespacePlacement::LeftOut(LeftOutReason::SharesForm { others })
                    } else if tool.is_offered() || overridden_by_pair(tool) {
                        NamespacePlacement::InNamespace {
                            namespace: pair.0,
                            name: pair.1,
                        }
                    } else {
                        NamespacePlacement::LeftOut(left_out_reason(tool))
                    }
                }
            })
            .collect()
    }
}

/// Where one tool travels in a namespaced tool list.
#[cfg(feature = "runtime")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NamespacePlacement<'c> {
    /// Inside the namespace `namespace`, as `name`.
    InNamespace {
        namespace: Cow<'c, str>,
        name: Cow<'c, str>,
    },
    /// At the top level, under its form (a tool that is no MCP server's).
    Flat,
    /// Not in the list, with the census's reason (or the shared pair's).
    LeftOut(LeftOutReason),
}

/// The reason of a tool this placement leaves out (always one: an offered tool is placed).
#[cfg(feature = "runtime")]
fn left_out_reason(tool: &CensusTool) -> LeftOutReason {
    tool.left_out_reason()
        .cloned()
        .unwrap_or(LeftOutReason::Withheld)
}

/// Whether a tool holds a pair of its own: a repeated name is its first entry's, an empty one
/// is no tool.
fn holds_a_pair(tool: &CensusTool) -> bool {
    !matches!(
        tool.left_out_reason(),
        Some(LeftOutReason::EmptyName | LeftOutReason::DuplicateName { .. })
    )
}

/// The census verdicts a pair of its own lifts: both are about the flat form only.
fn overridden_by_pair(tool: &CensusTool) -> bool {
    matches!(
        tool.left_out_reason(),
        Some(LeftOutReason::SharesForm { .. } | LeftOutReason::FormIsAnotherTool { .. })
    )
}

/// Whether a call by its pair reaches the tool: offered in a namespace, or held back (it keeps
/// its names, as [`Census::resolve`] keeps a withheld tool's, so the dispatch says why).
fn reachable_by_pair(tool: &CensusTool) -> bool {
    tool.is_offered()
        || overridden_by_pair(tool)
        || matches!(tool.left_out_reason(), Some(LeftOutReason::Withheld))
}

/// Whether `real_name`'s [`namespace_parts`] are `(namespace, name)`, without allocating.
fn has_pair(real_name: &str, namespace: &str, name: &str) -> bool {
    let Some((server, tool)) = real_parts(real_name) else {
        return false;
    };
    form_is(&real_name[..MCP_PREFIX.len() + server.len()], namespace) && form_is(tool, name)
}

/// Whether `model_safe_name(part) == form`, without allocating.
fn form_is(part: &str, form: &str) -> bool {
    let mut expected = part
        .chars()
        .map(|c| if is_form_char(c) { c } else { '_' })
        .take(MAX_FORM_CHARS);
    let mut given = form.chars();
    loop {
        match (expected.next(), given.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

#[cfg(all(test, feature = "runtime"))]
mod tests {
    use super::*;

    fn reached<'c>(census: &'c Census, namespace: &str, called: &str) -> Option<&'c str> {
        match census.resolve_in_namespace(namespace, called) {
            Ok(Resolution::Tool(hit)) => Some(hit.name),
            _ => None,
        }
    }

    #[test]
    fn a_pair_reaches_only_the_tool_whose_parts_it_is() {
        let census = Census::build(
            [
                "mcp/a/b_c",
                "mcp/a_b/c",
                "mcp_x_y",
                "mcp/s/t",
                "tool_search",
            ],
            &["tool_search"],
        );
        // `mcp/a/b_c` and `mcp/a_b/c` share the flat form `mcp_a_b_c`, so neither is offered
        // flat; their pairs differ, so each reaches its own tool inside its namespace.
        assert_eq!(reached(&census, "mcp_a", "b_c"), Some("mcp/a/b_c"));
        assert_eq!(reached(&census, "mcp_a_b", "c"), Some("mcp/a_b/c"));
        assert!(census.resolve("mcp_a_b_c").is_err());
        // Their real parts still reach them exactly.
        assert_eq!(reached(&census, "mcp/a", "b_c"), Some("mcp/a/b_c"));
        assert_eq!(reached(&census, "mcp/a_b", "c"), Some("mcp/a_b/c"));
        // A top-level tool named the flat form is not inside any namespace.
        assert_eq!(reached(&census, "mcp_x", "y"), None);
        assert_eq!(reached(&census, "mcp_s", "t"), Some("mcp/s/t"));
        // A meta-tool, or a bare name, is never reached through a namespace.
        assert_eq!(reached(&census, "mcp_s", "tool_search"), None);
        assert!(census.resolve_in_namespace("", "tool_search").is_err());
        assert_eq!(reached(&census, "mcp/s/t", ""), None);
        // A joined name whose split is not at the server is not exact.
        assert_eq!(reached(&census, "mcp", "s/t"), None);
    }

    #[test]
    fn a_namespace_equal_to_the_name_is_the_top_level_function() {
        let census = Census::build(["get_weather", "mcp/github/create_issue"], &[]);
        // The recorded gpt-5.4 shape: the namespace is the call's own name, and no tool of
        // the request travels in a namespace of that name.
        assert_eq!(
            reached(&census, "get_weather", "get_weather"),
            Some("get_weather")
        );
        // A namespace that is not the name still fails as unknown.
        assert_eq!(reached(&census, "weather", "get_weather"), None);
        assert_eq!(reached(&census, "mcp_weather", "get_weather"), None);
        // The rule never reaches a namespaced tool by its flat form, nor splits a name.
        let flat = "mcp_github_create_issue";
        assert!(census.resolve(flat).is_ok());
        assert_eq!(reached(&census, flat, flat), None);
        assert_eq!(reached(&census, "create_issue", "create_issue"), None);
        // A namespace the request does have keeps its meaning: no top-level fallback.
        let census = Census::build(["mcp_x", "mcp/x/other"], &[]);
        assert_eq!(reached(&census, "mcp_x", "mcp_x"), None);
    }

    #[test]
    fn each_part_keeps_its_own_64_characters() {
        // Two tools of one long-named server: one flat form (cut to 64), two pairs.
        let server = format!("mcp/{}", "s".repeat(60));
        let (a, b) = (
            format!("{server}/read_file"),
            format!("{server}/write_file"),
        );
        let census = Census::build([a.as_str(), b.as_str()], &[]);
        assert!(census.offered().next().is_none());
        let (namespace, name) = namespace_parts(&a).unwrap();
        assert_eq!((namespace.len(), &*name), (64, "read_file"));
        assert_eq!(reached(&census, &namespace, "read_file"), Some(a.as_str()));
        assert_eq!(reached(&census, &namespace, "write_file"), Some(b.as_str()));
        let placements = census.namespace_placements();
        assert!(placements
            .iter()
            .all(|p| matches!(p, NamespacePlacement::InNamespace { .. })));
        // A pair two tools hold reaches neither, and neither travels.
        let census = Census::build(["mcp/s/a.b", "mcp/s/a/b", "mcp/s/a/b"], &[]);
        assert_eq!(reached(&census, "mcp_s", "a_b"), None);
        let placements = census.namespace_placements();
        assert!(
            matches!(&placements[0], NamespacePlacement::LeftOut(LeftOutReason::SharesForm { others }) if others == &["mcp/s/a/b"])
        );
        assert!(matches!(
            &placements[2],
            NamespacePlacement::LeftOut(LeftOutReason::DuplicateName { .. })
        ));
        // Still exact by the real parts.
        assert_eq!(reached(&census, "mcp/s", "a.b"), Some("mcp/s/a.b"));
    }
}
