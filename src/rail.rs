//! The census rail (the spec's "railed" point): a test that fails when two tools linked into one
//! binary, from any crates, travel under one model-safe form, or a tool travels as a
//! meta-tool's name.
//!
//! Policy: `#[tool]` already refuses a shared form within one crate at compile time; no
//! compile-time check sees two crates at once, so this runs in the user's test suite over
//! [`registered_tools`] and names every shared form and every tool behind it.

use std::collections::BTreeMap;
use std::fmt;

use toolwire_core::{model_safe_name, registered_tools, ToolRegistration, META_TOOLS};

/// Checks every `#[tool]` linked into this binary, from every crate, against each other and
/// against the runtime's meta-tools ([`META_TOOLS`]): `Err` names every shared form.
///
/// The one-line rail for a test suite (a tools-only crate must be linked: `use my_tools as _;`):
///
/// ```
/// #[toolwire::tool]
/// /// Echoes its input.
/// fn echo(text: String) -> String { text }
///
/// # /*
/// #[test]
/// # */
/// fn tool_census() -> Result<(), toolwire::SharedForms> { toolwire::check_tool_census() }
/// # tool_census().unwrap();
/// ```
pub fn check_tool_census() -> Result<(), SharedForms> {
    check_forms(registered_tools(), &META_TOOLS)
}

/// Checks `tools` against each other and against the `taken` names (a runtime's meta-tools):
/// `Err` names every form more than one of them travels as.
///
/// ```
/// use toolwire::{check_forms, ToolRegistration};
/// # fn schema() -> serde_json::Value { serde_json::json!({}) }
/// # fn handler(_: toolwire::ToolInput) -> toolwire::ToolFuture { unimplemented!() }
/// let tool = |name: &'static str| ToolRegistration {
///     name, form: "", description: "d", schema, handler,
///     module_path: "demo", file: "demo.rs", line: 1,
/// };
/// let (a, b) = (tool("search.web"), tool("search_web"));
/// let shared = check_forms([&a, &b], &["tool_search"]).unwrap_err();
/// assert_eq!(shared.forms().keys().collect::<Vec<_>>(), ["search_web"]);
/// assert!(check_forms([&a], &["tool_search"]).is_ok());
/// ```
pub fn check_forms<'a>(
    tools: impl IntoIterator<Item = &'a ToolRegistration>,
    taken: &[&str],
) -> Result<(), SharedForms> {
    let mut by_form: BTreeMap<String, Vec<FormHolder>> = BTreeMap::new();
    for name in taken {
        by_form
            .entry(model_safe_name(name).into_owned())
            .or_default()
            .push(FormHolder::MetaTool {
                name: (*name).to_owned(),
            });
    }
    for tool in tools {
        by_form
            .entry(model_safe_name(tool.name).into_owned())
            .or_default()
            .push(FormHolder::Tool {
                name: tool.name.to_owned(),
                module_path: tool.module_path.to_owned(),
                file: tool.file.to_owned(),
                line: tool.line,
            });
    }
    by_form.retain(|_, holders| holders.len() > 1);
    for holders in by_form.values_mut() {
        holders.sort();
    }
    if by_form.is_empty() {
        Ok(())
    } else {
        Err(SharedForms { forms: by_form })
    }
}

/// A tool, or a meta-tool, that travels as a shared form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FormHolder {
    /// A runtime's meta-tool: the runtime answers its name.
    MetaTool {
        /// Its name.
        name: String,
    },
    /// A registered tool.
    Tool {
        /// Its real name.
        name: String,
        /// The module it is defined in.
        module_path: String,
        /// The file it is defined in.
        file: String,
        /// The line of its definition.
        line: u32,
    },
}

impl FormHolder {
    /// The real name.
    ///
    /// ```
    /// let meta = toolwire::FormHolder::MetaTool { name: "tool_search".into() };
    /// assert_eq!(meta.name(), "tool_search");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            FormHolder::MetaTool { name } | FormHolder::Tool { name, .. } => name,
        }
    }
}

impl fmt::Display for FormHolder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormHolder::MetaTool { name } => write!(f, "the meta-tool `{name}`"),
            FormHolder::Tool {
                name,
                module_path,
                file,
                line,
            } => write!(f, "`{name}` ({module_path}, {file}:{line})"),
        }
    }
}

/// Forms that more than one tool (or a tool and a meta-tool) travel as: a request can carry
/// each only once, so all but one of those tools would never reach the model.
///
/// Its `Debug` is its `Display`, so a test returning `Result<(), SharedForms>` prints the
/// message itself.
///
/// ```
/// use toolwire::{check_forms, ToolRegistration};
/// # fn schema() -> serde_json::Value { serde_json::json!({}) }
/// # fn handler(_: toolwire::ToolInput) -> toolwire::ToolFuture { unimplemented!() }
/// let tool = ToolRegistration {
///     name: "tool/search", form: "tool_search", description: "d", schema, handler,
///     module_path: "demo", file: "demo.rs", line: 7,
/// };
/// let shared = check_forms([&tool], &["tool_search"]).unwrap_err();
/// assert!(shared.to_string().contains("`tool_search`: the meta-tool `tool_search`, `tool/search` (demo, demo.rs:7)"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SharedForms {
    forms: BTreeMap<String, Vec<FormHolder>>,
}

impl SharedForms {
    /// Each shared form → the tools and meta-tools that travel as it (meta-tools first, then
    /// by real name).
    ///
    /// ```
    /// use toolwire::{check_forms, ToolRegistration};
    /// # fn schema() -> serde_json::Value { serde_json::json!({}) }
    /// # fn handler(_: toolwire::ToolInput) -> toolwire::ToolFuture { unimplemented!() }
    /// let tool = |name| ToolRegistration {
    ///     name, form: "", description: "d", schema, handler, module_path: "m", file: "f.rs", line: 1,
    /// };
    /// let (a, b) = (tool("a.b"), tool("a/b"));
    /// let shared = check_forms([&a, &b], &[]).unwrap_err();
    /// let names: Vec<&str> = shared.forms()["a_b"].iter().map(|h| h.name()).collect();
    /// assert_eq!(names, ["a.b", "a/b"]);
    /// ```
    pub fn forms(&self) -> &BTreeMap<String, Vec<FormHolder>> {
        &self.forms
    }
}

impl fmt::Display for SharedForms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.forms.len();
        let (forms, are) = if count == 1 {
            ("form is", "it")
        } else {
            ("forms are", "each")
        };
        writeln!(
            f,
            "{count} model-safe {forms} shared by more than one tool; a request carries {are} once, so the others can never be called; rename all but one tool of each:"
        )?;
        for (form, holders) in &self.forms {
            let list: Vec<String> = holders.iter().map(ToString::to_string).collect();
            writeln!(f, "  `{form}`: {}", list.join(", "))?;
        }
        Ok(())
    }
}

impl fmt::Debug for SharedForms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for SharedForms {}
