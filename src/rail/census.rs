//! The census rail (the spec's "railed" point): a test that fails when two tools linked into one
//! binary, from any crates, travel under one model-safe form, or a tool travels as a
//! meta-tool's name.
//!
//! Policy: the rail is a census. `#[tool]` already refuses a shared form within one crate at
//! compile time; no compile-time check sees two crates at once, so this builds the same
//! [`Census`] a request would (over [`registered_tools`], with the meta-tools taken), reports
//! exactly the tools it leaves out, and names every tool behind each of their forms, with the
//! crate and file it comes from. A real name given by two tools is one of those: it says so.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use toolwire_core::{
    census::LeftOutReason, model_safe_name, names::DEFAULT_META_TOOLS, registered_tools,
    tools::ToolRegistration, Census,
};

/// Checks every `#[tool]` linked into this binary, from every crate, against each other and
/// against the runtime's meta-tools ([`DEFAULT_META_TOOLS`]): `Err` names every form the census would
/// leave a tool out of.
///
/// A binary with no registered tool fails too ([`SharedForms::saw_no_tools`]), saying why: the
/// tools were most likely never linked into the test.
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
/// fn tool_census() -> Result<(), toolwire::rail::SharedForms> { toolwire::check_tool_census() }
/// tool_census().unwrap();
/// assert!(toolwire::registered_tools().iter().any(|t| t.name == "echo"));
/// ```
pub fn check_tool_census() -> Result<(), SharedForms> {
    let tools = registered_tools();
    if tools.is_empty() {
        return Err(SharedForms {
            saw_no_tools: true,
            ..SharedForms::default()
        });
    }
    check_forms(tools, &DEFAULT_META_TOOLS)
}

/// Builds the census of `tools` beside the `taken` names (a runtime's meta-tools), as a request
/// would: `Err` names every tool it leaves out, every form those tools travel as with every
/// tool and meta-tool behind it, and every real name given more than once.
///
/// ```
/// use toolwire::{rail::check_forms, tools::ToolRegistration};
/// # fn schema() -> serde_json::Value { serde_json::json!({}) }
/// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
/// let tool = |name: &'static str| ToolRegistration {
///     name, form: "", description: "d", schema, handler,
///     module_path: "demo", file: "demo.rs", line: 1, validates_arguments: false,
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
    let tools: Vec<&ToolRegistration> = tools.into_iter().collect();
    let census = Census::build(tools.iter().map(|t| t.name), taken);
    let left_out: Vec<(FormHolder, LeftOutReason)> = census
        .tools()
        .iter()
        .zip(&tools)
        .filter_map(|(entry, tool)| {
            let reason = entry.left_out_reason()?;
            Some((FormHolder::of(tool), reason.clone()))
        })
        .collect();
    if left_out.is_empty() {
        return Ok(());
    }

    // Every form a tool is left out of, with every meta-tool and tool that travels as it.
    let troubled: BTreeSet<&str> = census.left_out().map(|t| t.form()).collect();
    let mut forms: BTreeMap<String, Vec<FormHolder>> = troubled
        .iter()
        .map(|form| ((*form).to_owned(), Vec::new()))
        .collect();
    for name in taken {
        if let Some(holders) = forms.get_mut(&*model_safe_name(name)) {
            holders.push(FormHolder::MetaTool {
                name: (*name).to_owned(),
            });
        }
    }
    for (entry, tool) in census.tools().iter().zip(&tools) {
        if let Some(holders) = forms.get_mut(entry.form()) {
            holders.push(FormHolder::of(tool));
        }
    }
    for holders in forms.values_mut() {
        holders.sort();
    }

    // Every real name given more than once, with every tool that gives it.
    let mut duplicates: BTreeMap<String, Vec<FormHolder>> = census
        .duplicates()
        .iter()
        .map(|name| (name.clone(), Vec::new()))
        .collect();
    for tool in &tools {
        if let Some(givers) = duplicates.get_mut(tool.name) {
            givers.push(FormHolder::of(tool));
        }
    }
    for givers in duplicates.values_mut() {
        givers.sort();
    }

    Err(SharedForms {
        saw_no_tools: false,
        forms,
        left_out,
        duplicates,
    })
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
    /// let meta = toolwire::rail::FormHolder::MetaTool { name: "tool_search".into() };
    /// assert_eq!(meta.name(), "tool_search");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            FormHolder::MetaTool { name } | FormHolder::Tool { name, .. } => name,
        }
    }

    fn of(tool: &ToolRegistration) -> FormHolder {
        FormHolder::Tool {
            name: tool.name.to_owned(),
            module_path: tool.module_path.to_owned(),
            file: tool.file.to_owned(),
            line: tool.line,
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

/// What the census of the linked tools leaves out: the forms more than one tool (or a tool and
/// a meta-tool) travel as, and the real names given more than once. A request carries each form
/// once, so all but one of those tools would never reach the model.
///
/// Its `Debug` is its `Display`, so a test returning `Result<(), SharedForms>` prints the
/// message itself.
///
/// ```
/// use toolwire::{rail::check_forms, tools::ToolRegistration};
/// # fn schema() -> serde_json::Value { serde_json::json!({}) }
/// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
/// let tool = ToolRegistration {
///     name: "tool/search", form: "tool_search", description: "d", schema, handler,
///     module_path: "demo", file: "demo.rs", line: 7, validates_arguments: false,
/// };
/// let shared = check_forms([&tool], &["tool_search"]).unwrap_err();
/// assert!(shared.to_string().contains("`tool_search`: the meta-tool `tool_search`, `tool/search` (demo, demo.rs:7)"));
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SharedForms {
    saw_no_tools: bool,
    forms: BTreeMap<String, Vec<FormHolder>>,
    left_out: Vec<(FormHolder, LeftOutReason)>,
    duplicates: BTreeMap<String, Vec<FormHolder>>,
}

impl SharedForms {
    /// Whether [`check_tool_census`] failed because the binary has no registered tool at all
    /// (then every other list is empty, and the message says how to link the tools).
    ///
    /// ```
    /// use toolwire::{rail::check_forms, tools::ToolRegistration};
    /// # fn schema() -> serde_json::Value { serde_json::json!({}) }
    /// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
    /// let tool = |name| ToolRegistration {
    ///     name, form: "", description: "d", schema, handler, module_path: "m", file: "f.rs", line: 1, validates_arguments: false,
    /// };
    /// let (a, b) = (tool("a.b"), tool("a/b"));
    /// assert!(!check_forms([&a, &b], &[]).unwrap_err().saw_no_tools());
    /// ```
    pub fn saw_no_tools(&self) -> bool {
        self.saw_no_tools
    }

    /// Each form the census leaves a tool out of → the tools and meta-tools that travel as it
    /// (meta-tools first, then by real name, crate and file).
    ///
    /// ```
    /// use toolwire::{rail::check_forms, tools::ToolRegistration};
    /// # fn schema() -> serde_json::Value { serde_json::json!({}) }
    /// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
    /// let tool = |name| ToolRegistration {
    ///     name, form: "", description: "d", schema, handler, module_path: "m", file: "f.rs", line: 1, validates_arguments: false,
    /// };
    /// let (a, b) = (tool("a.b"), tool("a/b"));
    /// let shared = check_forms([&a, &b], &[]).unwrap_err();
    /// let names: Vec<&str> = shared.forms()["a_b"].iter().map(|h| h.name()).collect();
    /// assert_eq!(names, ["a.b", "a/b"]);
    /// ```
    pub fn forms(&self) -> &BTreeMap<String, Vec<FormHolder>> {
        &self.forms
    }

    /// Each tool the census leaves out, with the census's reason, in the order the tools were
    /// checked (for [`check_tool_census`]: by real name, then file and line). For a
    /// [`LeftOutReason::DuplicateName`], `first` is a position in that order.
    ///
    /// ```
    /// use toolwire::{census::LeftOutReason, rail::check_forms, tools::ToolRegistration};
    /// # fn schema() -> serde_json::Value { serde_json::json!({}) }
    /// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
    /// let tool = |name| ToolRegistration {
    ///     name, form: "", description: "d", schema, handler, module_path: "m", file: "f.rs", line: 1, validates_arguments: false,
    /// };
    /// let (owner, other) = (tool("a_b"), tool("a/b"));
    /// let shared = check_forms([&owner, &other], &[]).unwrap_err();
    /// let [(holder, reason)] = shared.left_out() else { panic!() };
    /// assert_eq!(holder.name(), "a/b");
    /// assert_eq!(reason, &LeftOutReason::FormIsAnotherTool { owner: "a_b".into() });
    /// ```
    pub fn left_out(&self) -> &[(FormHolder, LeftOutReason)] {
        &self.left_out
    }

    /// Each real name given by more than one tool → every tool that gives it: which crates and
    /// files. A name is one tool, so a request carries only one of them.
    ///
    /// ```
    /// use toolwire::{rail::check_forms, tools::ToolRegistration};
    /// # fn schema() -> serde_json::Value { serde_json::json!({}) }
    /// # fn handler(_: toolwire::tools::ToolInput) -> toolwire::tools::ToolFuture { unimplemented!() }
    /// let tool = |module_path, file| ToolRegistration {
    ///     name: "echo", form: "", description: "d", schema, handler, module_path, file, line: 3, validates_arguments: false,
    /// };
    /// let (a, b) = (tool("crate_a", "a/src/lib.rs"), tool("crate_b", "b/src/lib.rs"));
    /// let shared = check_forms([&a, &b], &[]).unwrap_err();
    /// let crates: Vec<String> = shared.duplicates()["echo"].iter().map(|h| h.to_string()).collect();
    /// assert_eq!(crates, ["`echo` (crate_a, a/src/lib.rs:3)", "`echo` (crate_b, b/src/lib.rs:3)"]);
    /// assert!(shared.to_string().contains("`echo` is one real name given by 2 tools"));
    /// ```
    pub fn duplicates(&self) -> &BTreeMap<String, Vec<FormHolder>> {
        &self.duplicates
    }

    /// Why the tools of `form` are left out, when the list of holders does not say it: a real
    /// name given more than once, or an empty name.
    fn why(&self, form: &str) -> Vec<String> {
        let mut why: Vec<String> = self
            .duplicates
            .iter()
            .filter(|(name, _)| model_safe_name(name) == form)
            .map(|(name, givers)| {
                format!(
                    "`{name}` is one real name given by {} tools, so a request carries only one",
                    givers.len()
                )
            })
            .collect();
        if form.is_empty() {
            why.push("an empty name: no provider accepts it".to_owned());
        }
        why
    }
}

impl fmt::Display for SharedForms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.saw_no_tools {
            return writeln!(f, "{}", super::NO_REGISTERED_TOOLS);
        }
        let count = self.forms.len();
        let (forms, are) = if count == 1 {
            ("form is", "it")
        } else {
            ("forms are", "each")
        };
        if self.forms.values().all(|holders| holders.len() > 1) {
            writeln!(
                f,
                "{count} model-safe {forms} shared by more than one tool; a request carries {are} once, so the others can never be called; rename all but one tool of each:"
            )?;
        } else {
            writeln!(
                f,
                "{count} model-safe {forms} left out of every request; rename the tools behind {are}:"
            )?;
        }
        for (form, holders) in &self.forms {
            let list: Vec<String> = holders.iter().map(ToString::to_string).collect();
            write!(f, "  `{form}`: {}", list.join(", "))?;
            for why in self.why(form) {
                write!(f, "; {why}")?;
            }
            writeln!(f)?;
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
