//! The catalog policy: which offered tools a request carries.
//!
//! Policy: the census always covers the whole catalog (forms, left-out tools and the healing map
//! never depend on what is loaded); the policy only chooses which offered tools travel. Below the
//! threshold every offered tool travels (nothing to defer), beside the app's own meta-tools and
//! none of the catalog's; above it a request carries every meta-tool (`tool_search`,
//! `tool_schema`, `reset_tools` among them), the pinned tools and the tools its conversation
//! loaded, and the model finds the rest with `tool_search`. The catalog's names are taken
//! either way, so no form moves when it starts deferring.

use crate::wire::OPENAI_MAX_TOOLS;

/// Which offered tools a request carries. The default is
/// [`CatalogPolicy::deferred`] with nothing pinned: every tool while the tools fit one OpenAI
/// request (128 tools, the meta-tools included), the catalog past that.
///
/// ```
/// use toolwire_core::runtime::CatalogPolicy;
/// assert_eq!(CatalogPolicy::default(), CatalogPolicy::deferred(Vec::<String>::new()));
/// assert_eq!(CatalogPolicy::default().threshold(3), 125);
/// assert_eq!(CatalogPolicy::All.threshold(3), usize::MAX);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CatalogPolicy {
    /// Every offered tool in every request (nothing deferred, so none of the catalog's own
    /// meta-tools).
    All,
    /// Past `threshold` offered tools, a request carries the meta-tools, the `pinned` tools and
    /// the tools its conversation loaded; at or below it, every offered tool.
    Deferred {
        /// Real names of the tools every request carries.
        pinned: Vec<String>,
        /// How many offered tools every request may carry before the catalog is deferred;
        /// `None`: what keeps an OpenAI request within its 128 tools, meta-tools included.
        threshold: Option<usize>,
    },
}

impl Default for CatalogPolicy {
    fn default() -> Self {
        CatalogPolicy::Deferred {
            pinned: Vec::new(),
            threshold: None,
        }
    }
}

impl CatalogPolicy {
    /// Deferred past the default threshold, with these tools (real names) in every request.
    ///
    /// ```
    /// use toolwire_core::runtime::CatalogPolicy;
    /// let policy = CatalogPolicy::deferred(["mcp/files/read"]);
    /// assert_eq!(policy.pinned(), ["mcp/files/read"]);
    /// ```
    pub fn deferred<I, S>(pinned: I) -> CatalogPolicy
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        CatalogPolicy::Deferred {
            pinned: pinned.into_iter().map(Into::into).collect(),
            threshold: None,
        }
    }

    /// This policy deferring past `threshold` offered tools (`0`: always deferred). `All` stays
    /// `All`.
    ///
    /// ```
    /// use toolwire_core::runtime::CatalogPolicy;
    /// let policy = CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(0);
    /// assert_eq!(policy.threshold(3), 0);
    /// ```
    pub fn with_threshold(self, threshold: usize) -> CatalogPolicy {
        match self {
            CatalogPolicy::All => CatalogPolicy::All,
            CatalogPolicy::Deferred { pinned, .. } => CatalogPolicy::Deferred {
                pinned,
                threshold: Some(threshold),
            },
        }
    }

    /// The real names every request carries.
    ///
    /// ```
    /// assert!(toolwire_core::runtime::CatalogPolicy::All.pinned().is_empty());
    /// ```
    pub fn pinned(&self) -> &[String] {
        match self {
            CatalogPolicy::All => &[],
            CatalogPolicy::Deferred { pinned, .. } => pinned,
        }
    }

    /// How many offered tools a request carries before the catalog is deferred, beside
    /// `meta_tools` meta-tools.
    ///
    /// ```
    /// use toolwire_core::runtime::CatalogPolicy;
    /// assert_eq!(CatalogPolicy::default().threshold(0), 128);
    /// ```
    pub fn threshold(&self, meta_tools: usize) -> usize {
        match self {
            CatalogPolicy::All => usize::MAX,
            CatalogPolicy::Deferred {
                threshold: Some(t), ..
            } => *t,
            CatalogPolicy::Deferred {
                threshold: None, ..
            } => OPENAI_MAX_TOOLS.saturating_sub(meta_tools),
        }
    }
}
