//! A provider's load status and the problems its tool list showed: what `add_provider` and
//! `reload_provider` return, what the state records per provider, and what a Tools page shows.
//!
//! Policy: loud means returned. A failed load is not an error of the call (the provider stays,
//! to be reloaded), so the status is `#[must_use]` and [`LoadStatus::check`] turns a failure
//! into an error in one expression: `runtime.add_provider(p).await?.check()?`.

use std::fmt;

use serde::Serialize;

/// A problem found when a provider's tools were loaded.
///
/// ```
/// let p = toolwire_core::runtime::LoadProblem::EmptyName;
/// assert_eq!(serde_json::to_value(&p).unwrap()["kind"], "empty_name");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LoadProblem {
    /// Two or more of the provider's own tools share a form. A request carries a form once, so
    /// at most one of them is offered: the one whose real name is the form, if one is; the
    /// others are left out.
    SharedForm {
        /// The form.
        form: String,
        /// The tools that travel as it, sorted.
        tools: Vec<String>,
    },
    /// The provider listed the same real name more than once.
    DuplicateName {
        /// The name.
        name: String,
    },
    /// The provider listed a tool with an empty name.
    EmptyName,
    /// A tool of the app (a static provider's) travels as the name of one of the runtime's own
    /// tools: the census leaves it out (a request would name a tool twice). Rename it.
    MetaToolName {
        /// The tool's real name.
        tool: String,
        /// The meta-tool's name, which is its form.
        name: String,
    },
    /// A tool the provider listed is not valid MCP (its schema is not an object, its name is not
    /// a string): that tool is refused (withheld from every request, a call to it says why);
    /// the provider's other tools load.
    InvalidTool {
        /// The tool's real name, or where it stands in its server's list (`mcp/<server>/tools[N]`,
        /// counting from 0) when it has no name that is a string.
        tool: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A tool the provider listed was read leniently (an MCP tool without `inputSchema` is a
    /// tool without arguments): it loads and is offered, but its server does not list it as
    /// MCP says.
    ReadLeniently {
        /// The tool's real name.
        tool: String,
        /// How it was read.
        reading: String,
    },
    /// The provider could not be reached (it failed to list its tools, or its server exited,
    /// crashed or hung during a call). Its tools are out of every request until it is reloaded.
    Unreachable {
        /// What happened.
        reason: String,
    },
}

impl LoadProblem {
    /// Whether this is a note rather than a loss: a tool read leniently loads and is offered.
    ///
    /// ```
    /// use toolwire_core::runtime::LoadProblem;
    /// assert!(!LoadProblem::EmptyName.is_note());
    /// ```
    pub fn is_note(&self) -> bool {
        matches!(self, LoadProblem::ReadLeniently { .. })
    }
}

impl fmt::Display for LoadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted = |names: &[String]| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            LoadProblem::SharedForm { form, tools } => write!(
                f,
                "{} travel as the one form `{form}`, so at most one of them is offered",
                quoted(tools)
            ),
            LoadProblem::DuplicateName { name } => {
                write!(f, "the tool `{name}` is listed more than once")
            }
            LoadProblem::EmptyName => f.write_str("a tool has an empty name"),
            LoadProblem::MetaToolName { tool, name } => write!(
                f,
                "the tool `{tool}` travels as `{name}`, the name of one of the runtime's own tools; rename it"
            ),
            LoadProblem::InvalidTool { tool, reason } => {
                write!(f, "the tool `{tool}` is not valid MCP and is left out: {reason}")
            }
            LoadProblem::ReadLeniently { tool, reading } => {
                write!(f, "the tool `{tool}` is not listed as MCP says: {reading}")
            }
            LoadProblem::Unreachable { reason } => write!(f, "unreachable: {reason}"),
        }
    }
}

/// A provider's load status, as a Tools page shows it. A failed load is the provider's status,
/// not an error of the call that loaded it: check it ([`check`](Self::check),
/// [`is_loaded`](Self::is_loaded)).
///
/// ```
/// use toolwire_core::runtime::{LoadProblem, LoadStatus};
/// let status = LoadStatus::Loaded;
/// assert_eq!(serde_json::to_value(&status).unwrap(), serde_json::json!({"state": "loaded"}));
/// assert!(status.is_loaded() && status.check().is_ok());
/// let failed = LoadStatus::Failed { problems: vec![LoadProblem::EmptyName] };
/// assert_eq!(failed.check().unwrap_err().to_string(), "the provider's tools did not load cleanly: a tool has an empty name");
/// ```
///
/// A status dropped unread is a warning (`unused_must_use`): the `?` of `add_provider` alone
/// would let a failed load pass.
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// # async fn load(runtime: toolwire_core::ToolRuntime, provider: std::sync::Arc<dyn toolwire_core::provider::ToolProvider>) -> Result<(), Box<dyn std::error::Error>> {
/// runtime.add_provider(provider).await?;
/// # Ok(()) }
/// ```
///
/// ```
/// #![deny(unused_must_use)]
/// # async fn load(runtime: toolwire_core::ToolRuntime, provider: std::sync::Arc<dyn toolwire_core::provider::ToolProvider>) -> Result<(), Box<dyn std::error::Error>> {
/// runtime.add_provider(provider).await?.check()?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[must_use = "a failed load is returned, not raised: call `.check()?` or look at the problems"]
#[serde(tag = "state", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LoadStatus {
    /// Every tool loaded cleanly.
    Loaded,
    /// Every tool loaded and is offered, but some were read leniently: their source did not
    /// list them as its protocol says, and the notes say how each was read (an MCP tool
    /// without `inputSchema` is a tool without arguments). Nothing is lost, so
    /// [`check`](LoadStatus::check) passes; the notes are here for a Tools page or a log.
    LoadedWithNotes {
        /// How each such tool was read ([`LoadProblem::ReadLeniently`]).
        notes: Vec<LoadProblem>,
    },
    /// The load failed: the problems say why. Tools not named by a problem are still offered,
    /// unless the provider is unreachable.
    Failed {
        /// What went wrong.
        problems: Vec<LoadProblem>,
    },
}

impl LoadStatus {
    /// Whether every tool loaded (cleanly, or read leniently with notes).
    ///
    /// ```
    /// use toolwire_core::runtime::{LoadProblem, LoadStatus};
    /// assert!(LoadStatus::Loaded.is_loaded());
    /// let lenient = LoadProblem::ReadLeniently { tool: "mcp/s/ping".into(), reading: "…".into() };
    /// assert!(LoadStatus::LoadedWithNotes { notes: vec![lenient] }.is_loaded());
    /// assert!(!LoadStatus::Failed { problems: vec![LoadProblem::EmptyName] }.is_loaded());
    /// ```
    pub fn is_loaded(&self) -> bool {
        matches!(
            self,
            LoadStatus::Loaded | LoadStatus::LoadedWithNotes { .. }
        )
    }

    /// `Ok` when every tool loaded cleanly, else the problems as an error, so one `?` checks
    /// a load: `runtime.add_provider(provider).await?.check()?`.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use serde_json::json;
    /// # use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let clashing = provider_fn("files", vec![
    ///     ToolDefinition::new("mcp/files/read", "Reads.", json!({})),
    ///     ToolDefinition::new("mcp/files.read", "Reads too.", json!({})),
    /// ], |_, args| async move { Ok(args) });
    /// let runtime = ToolRuntime::new();
    /// let status = runtime.add_provider(Arc::new(clashing)).await.unwrap();
    /// let err = status.check().unwrap_err();
    /// assert_eq!(err.problems, [LoadProblem::SharedForm {
    ///     form: "mcp_files_read".into(),
    ///     tools: vec!["mcp/files.read".into(), "mcp/files/read".into()],
    /// }]);
    /// assert!(err.to_string().contains("`mcp/files.read`, `mcp/files/read` travel as the one form `mcp_files_read`"));
    /// # });
    /// ```
    pub fn check(&self) -> Result<(), LoadFailed> {
        match self {
            LoadStatus::Loaded | LoadStatus::LoadedWithNotes { .. } => Ok(()),
            LoadStatus::Failed { problems } => Err(LoadFailed {
                problems: problems.clone(),
            }),
        }
    }

    pub(super) fn is_unreachable(&self) -> bool {
        matches!(self, LoadStatus::Failed { problems } if problems.iter().any(|p| matches!(p, LoadProblem::Unreachable { .. })))
    }

    /// The status of a load that found `problems`: clean when there are none, loaded with
    /// notes when every one is a lenient reading (nothing lost), else failed (a failed load
    /// lists its lenient readings beside what failed).
    pub(super) fn of(problems: Vec<LoadProblem>) -> LoadStatus {
        if problems.is_empty() {
            LoadStatus::Loaded
        } else if problems.iter().all(LoadProblem::is_note) {
            LoadStatus::LoadedWithNotes { notes: problems }
        } else {
            LoadStatus::Failed { problems }
        }
    }

    pub(super) fn unreachable(reason: String) -> LoadStatus {
        LoadStatus::of(vec![LoadProblem::Unreachable { reason }])
    }
}

/// A provider's health, in the words a Tools page shows: running, failed (unreachable: its
/// server exited, crashed or hung; its tools are withheld until it is reloaded) or
/// restarting (a reload is under way).
///
/// ```
/// use toolwire_core::runtime::ProviderHealth;
/// assert_eq!(ProviderHealth::Restarting.word(), "restarting");
/// assert_eq!(serde_json::to_value(ProviderHealth::Failed).unwrap(), "failed");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ProviderHealth {
    /// Reachable: its tools are in the requests (a load problem, a clash, is its status's).
    Running,
    /// Unreachable until it is reloaded.
    Failed,
    /// Being reloaded now (a gateway restarts a crashed server before its next call).
    Restarting,
}

impl ProviderHealth {
    /// The word a page shows for it, as it serializes.
    ///
    /// ```
    /// assert_eq!(toolwire_core::runtime::ProviderHealth::Running.word(), "running");
    /// ```
    pub fn word(self) -> &'static str {
        match self {
            ProviderHealth::Running => "running",
            ProviderHealth::Failed => "failed",
            ProviderHealth::Restarting => "restarting",
        }
    }

    /// The health of a provider whose status is `status`, while a reload is or is not under
    /// way.
    pub(super) fn of(status: &LoadStatus, reloading: bool) -> ProviderHealth {
        if reloading {
            ProviderHealth::Restarting
        } else if status.is_unreachable() {
            ProviderHealth::Failed
        } else {
            ProviderHealth::Running
        }
    }
}

/// A load that did not go cleanly, as an error ([`LoadStatus::check`]): the provider stays in
/// the runtime (its tools not named by a problem are offered, unless it is unreachable).
///
/// ```
/// use toolwire_core::runtime::{LoadFailed, LoadProblem, LoadStatus};
/// let status = LoadStatus::Failed { problems: vec![LoadProblem::DuplicateName { name: "a".into() }] };
/// let err: LoadFailed = status.check().unwrap_err();
/// assert_eq!(err.to_string(), "the provider's tools did not load cleanly: the tool `a` is listed more than once");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct LoadFailed {
    /// What went wrong.
    pub problems: Vec<LoadProblem>,
}

impl fmt::Display for LoadFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the provider's tools did not load cleanly: ")?;
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            problem.fmt(f)?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadFailed {}
