//! Why a tool is left out of a request, and whether it is in it: the census's verdicts, as the
//! user, the Tools page and `--json` read them.

use std::fmt;

/// Why a tool is left out of the request.
///
/// New rules may bring new reasons, so a `match` on it needs a `_` arm.
///
/// ```
/// use toolwire_core::{Census, census::LeftOutReason, names::DEFAULT_META_TOOLS};
/// let census = Census::build(["tool/search"], &DEFAULT_META_TOOLS);
/// assert_eq!(
///     census.tools()[0].left_out_reason(),
///     Some(&LeftOutReason::MetaTool { meta: "tool_search".into() })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// Under the census's name budget ([`NameBudget`](crate::census::NameBudget)) its form is
    /// cut to one that another tool, or a meta-tool, has too; without the budget it would be
    /// `full_form`, apart from them. `cause` is what the census's rules said of the cut form.
    /// A shorter server name (a larger budget) or a rename is the fix.
    BudgetClash {
        /// The budget, in characters.
        budget: usize,
        /// The form it would travel as without the budget.
        full_form: String,
        /// What the rules said of its form under the budget.
        cause: Box<LeftOutReason>,
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
            LeftOutReason::BudgetClash {
                budget,
                full_form,
                cause,
            } => write!(
                f,
                "under the name budget of {budget} characters {cause} (without the budget it \
                 would travel as `{full_form}`)"
            ),
        }
    }
}

impl LeftOutReason {
    /// A short stable key for the reason, for JSON output.
    ///
    /// ```
    /// assert_eq!(toolwire_core::census::LeftOutReason::EmptyName.key(), "empty_name");
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
            LeftOutReason::BudgetClash { .. } => "budget_clash",
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
/// A `match` on it needs a `_` arm: a new kind of status may come.
///
/// ```
/// use toolwire_core::{Census, census::{LeftOutReason, ToolStatus}};
/// let census = Census::build(["a", "a"], &[]);
/// assert_eq!(census.tools()[0].status(), &ToolStatus::Offered);
/// let again = ToolStatus::LeftOut(LeftOutReason::DuplicateName { first: 0 });
/// assert_eq!(census.tools()[1].status(), &again);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolStatus {
    /// The request carries the tool under its form.
    Offered,
    /// The request does not carry the tool.
    LeftOut(LeftOutReason),
}
