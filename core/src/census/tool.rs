//! One tool of a census: its real name, the form it travels as, its rank and its status.
//!
//! Policy: a form that is a prefix of the name (all of it, for a safe name) is not copied.

use super::reasons::{LeftOutReason, ToolStatus};

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
    pub(super) name: Box<str>,
    pub(super) form: Form,
    pub(super) rank: u32,
    pub(super) status: ToolStatus,
}

/// A tool's form: most often a prefix of its name (all of it, for a safe name), so no copy.
/// (Keeping the other forms inline instead of boxed was measured: no faster, more memory.)
#[derive(Clone, Debug)]
pub(super) enum Form {
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
    pub(super) fn is_own_form(&self) -> bool {
        matches!(self.form, Form::Prefix(len) if len == self.name.len())
    }
    /// The rank it was given (lower ranks win a shared form); 0 for [`Census::build`].
    ///
    /// [`Census::build`]: crate::census::Census::build
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
    /// use toolwire_core::{Census, census::{LeftOutReason, ToolStatus}, names::DEFAULT_META_TOOLS};
    /// let census = Census::build(["tool_search"], &DEFAULT_META_TOOLS);
    /// let meta = LeftOutReason::MetaTool { meta: "tool_search".into() };
    /// assert_eq!(census.tools()[0].status(), &ToolStatus::LeftOut(meta));
    /// ```
    pub fn status(&self) -> &ToolStatus {
        &self.status
    }
    /// Whether the request carries it.
    ///
    /// ```
    /// use toolwire_core::{Census, names::DEFAULT_META_TOOLS};
    /// let census = Census::build(["mcp/server/echo", "tool/search"], &DEFAULT_META_TOOLS);
    /// assert!(census.tools()[0].is_offered());
    /// assert!(!census.tools()[1].is_offered());
    /// ```
    pub fn is_offered(&self) -> bool {
        self.status == ToolStatus::Offered
    }
    /// Why it is left out, if it is.
    ///
    /// ```
    /// use toolwire_core::{Census, census::LeftOutReason};
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
