//! A provider's load status and the problems its tool list showed: what `add_provider` and
//! `reload_provider` return, what the state records per provider, and what a Tools page shows.

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
    /// The provider could not be reached (it failed to list its tools, or its server exited,
    /// crashed or hung during a call). Its tools are out of every request until it is reloaded.
    Unreachable {
        /// What happened.
        reason: String,
    },
}

/// A provider's load status, as a Tools page shows it.
///
/// ```
/// let status = toolwire_core::runtime::LoadStatus::Loaded;
/// assert_eq!(serde_json::to_value(&status).unwrap(), serde_json::json!({"state": "loaded"}));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LoadStatus {
    /// Every tool loaded cleanly.
    Loaded,
    /// The load failed: the problems say why. Tools not named by a problem are still offered,
    /// unless the provider is unreachable.
    Failed {
        /// What went wrong.
        problems: Vec<LoadProblem>,
    },
}

impl LoadStatus {
    pub(super) fn is_unreachable(&self) -> bool {
        matches!(self, LoadStatus::Failed { problems } if problems.iter().any(|p| matches!(p, LoadProblem::Unreachable { .. })))
    }

    pub(super) fn of(problems: Vec<LoadProblem>) -> LoadStatus {
        if problems.is_empty() {
            LoadStatus::Loaded
        } else {
            LoadStatus::Failed { problems }
        }
    }

    pub(super) fn unreachable(reason: String) -> LoadStatus {
        LoadStatus::of(vec![LoadProblem::Unreachable { reason }])
    }
}
