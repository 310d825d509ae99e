//! The runtime's own tools: names that a provider's tool can never take.

/// The meta-tools the runtime answers itself. Their names are in every census as names already
/// taken: a provider's tool called one of them, or travelling as one, could never be called.
/// A runtime can be given a different set.
///
/// ```
/// assert!(toolwire_core::names::DEFAULT_META_TOOLS.contains(&"tool_search"));
/// assert!(toolwire_core::names::DEFAULT_META_TOOLS.contains(&"tool_call"));
/// ```
pub const DEFAULT_META_TOOLS: [&str; 4] =
    ["tool_search", "tool_schema", "reset_tools", "tool_call"];

/// The meta-tool whose name `form` is, if any.
///
/// ```
/// use toolwire_core::{model_safe_name, names::meta_tool_named};
/// assert_eq!(meta_tool_named(&model_safe_name("tool/schema")), Some("tool_schema"));
/// assert_eq!(meta_tool_named("tool-schema"), None);
/// ```
pub fn meta_tool_named(form: &str) -> Option<&'static str> {
    DEFAULT_META_TOOLS
        .iter()
        .copied()
        .find(|meta| *meta == form)
}
