//! The name budget: the longest form a census gives, for a client that adds its own prefix to
//! every tool name it sends on, and the rule that names the budget when it makes two forms one.
//!
//! Policy: the budget only cuts. Forms are cut to it and the census's rules run over the cut
//! forms unchanged, so a form two tools share under the budget is left out like any shared form
//! (never shortened further, never numbered: the spec's "Renaming is the fix for a clash"); the
//! budget rule then says so in the tool's [`LeftOutReason`], so the budget is named as the
//! cause, in the census's return value.

use std::fmt;

use super::reasons::LeftOutReason;
use super::tool::CensusTool;
use crate::names::{model_safe_name, MAX_FORM_CHARS};

/// The longest name, in characters, a census gives a tool: [`MAX_FORM_CHARS`] (64) unless a
/// client needs fewer (1 to 64). The number is the contract; the client profiles below are
/// the known cases, each with the public report it comes from.
///
/// ```
/// use toolwire_core::census::NameBudget;
/// assert_eq!(NameBudget::FULL.chars(), 64);
/// assert_eq!(NameBudget::new(40).unwrap().chars(), 40);
/// assert!(NameBudget::new(0).is_err());
/// assert!(NameBudget::new(65).is_err());
/// // Claude Code sends `mcp__files__<tool>`: 7 + 5 characters of the 64 are its own.
/// assert_eq!(NameBudget::claude_code("files").unwrap().chars(), 52);
/// // Cursor counts the server's name and the tool's together against 60.
/// assert_eq!(NameBudget::cursor("files").unwrap().chars(), 55);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NameBudget(usize);

impl NameBudget {
    /// No budget below the form's own limit: forms are cut at 64, as without a budget.
    pub const FULL: NameBudget = NameBudget(MAX_FORM_CHARS);

    /// The most characters Claude Code lets a whole tool name have: the Claude API refuses a
    /// tool name over 64 characters and Claude Code sends an MCP tool as `mcp__<server>__<tool>`
    /// (anthropics/claude-code #2326, #2412, #2445).
    pub const CLAUDE_CODE_LIMIT: usize = 64;
    /// What Claude Code adds to a tool's name besides the server's name: `mcp__` and `__`
    /// (anthropics/claude-code #2326, #2445).
    pub const CLAUDE_CODE_PREFIX_CHARS: usize = 7;
    /// Cursor leaves out a tool whose server name and tool name together pass 60 characters
    /// (idosal/git-mcp #31, awslabs/mcp #1283).
    pub const CURSOR_LIMIT: usize = 60;

    /// A budget of `chars` characters: 1 to [`MAX_FORM_CHARS`].
    ///
    /// ```
    /// use toolwire_core::census::{BudgetError, NameBudget};
    /// assert_eq!(NameBudget::new(0), Err(BudgetError::OutOfRange { chars: 0 }));
    /// ```
    pub fn new(chars: usize) -> Result<NameBudget, BudgetError> {
        if (1..=MAX_FORM_CHARS).contains(&chars) {
            Ok(NameBudget(chars))
        } else {
            Err(BudgetError::OutOfRange { chars })
        }
    }

    /// The budget for Claude Code serving this gateway as the MCP server `server`:
    /// [`CLAUDE_CODE_LIMIT`](Self::CLAUDE_CODE_LIMIT) less `mcp__`, the server's name and `__`.
    /// An error when the server's name leaves no room (say a 57-character name).
    ///
    /// ```
    /// use toolwire_core::census::NameBudget;
    /// assert_eq!(NameBudget::claude_code("toolwire").unwrap().chars(), 49);
    /// assert!(NameBudget::claude_code(&"s".repeat(57)).is_err());
    /// ```
    pub fn claude_code(server: &str) -> Result<NameBudget, BudgetError> {
        let taken = Self::CLAUDE_CODE_PREFIX_CHARS + server.chars().count();
        Self::left_after(Self::CLAUDE_CODE_LIMIT, taken)
    }

    /// The budget for Cursor serving this gateway as the MCP server `server`:
    /// [`CURSOR_LIMIT`](Self::CURSOR_LIMIT) less the server's name.
    ///
    /// ```
    /// use toolwire_core::census::NameBudget;
    /// assert_eq!(NameBudget::cursor("toolwire").unwrap().chars(), 52);
    /// ```
    pub fn cursor(server: &str) -> Result<NameBudget, BudgetError> {
        Self::left_after(Self::CURSOR_LIMIT, server.chars().count())
    }

    fn left_after(limit: usize, taken: usize) -> Result<NameBudget, BudgetError> {
        NameBudget::new(limit.saturating_sub(taken).min(MAX_FORM_CHARS))
    }

    /// The budget in characters.
    ///
    /// ```
    /// assert_eq!(toolwire_core::census::NameBudget::FULL.chars(), 64);
    /// ```
    pub const fn chars(self) -> usize {
        self.0
    }

    /// Whether the budget cuts anything a form without it keeps (it is below 64).
    ///
    /// ```
    /// use toolwire_core::census::NameBudget;
    /// assert!(!NameBudget::FULL.is_below_full());
    /// assert!(NameBudget::new(63).unwrap().is_below_full());
    /// ```
    pub const fn is_below_full(self) -> bool {
        self.0 < MAX_FORM_CHARS
    }
}

impl Default for NameBudget {
    fn default() -> NameBudget {
        NameBudget::FULL
    }
}

impl fmt::Display for NameBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} characters", self.0)
    }
}

/// A name budget that cannot be.
///
/// ```
/// use toolwire_core::census::NameBudget;
/// let err = NameBudget::new(100).unwrap_err();
/// assert!(err.to_string().contains("1 to 64"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BudgetError {
    /// The budget is 0, or more than the form's own 64.
    OutOfRange {
        /// The budget asked for.
        chars: usize,
    },
}

impl fmt::Display for BudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BudgetError::OutOfRange { chars } => write!(
                f,
                "a name budget is 1 to {MAX_FORM_CHARS} characters, not {chars} (for a client \
                 profile: the server's name leaves no room; choose a shorter server name)"
            ),
        }
    }
}

impl std::error::Error for BudgetError {}

/// The form of `name` under `budget`: its model-safe form, cut to the budget. Forms are ASCII,
/// so a cut at any byte is a cut at a character.
///
/// ```
/// use toolwire_core::census::{budgeted_form, NameBudget};
/// let budget = NameBudget::new(8).unwrap();
/// assert_eq!(budgeted_form("mcp/server/echo", budget), "mcp_serv");
/// assert_eq!(budgeted_form("echo", budget), "echo");
/// ```
pub fn budgeted_form(name: &str, budget: NameBudget) -> std::borrow::Cow<'_, str> {
    let mut form = model_safe_name(name);
    if form.len() > budget.0 {
        match &mut form {
            std::borrow::Cow::Borrowed(borrowed) => *borrowed = &borrowed[..budget.0],
            std::borrow::Cow::Owned(owned) => owned.truncate(budget.0),
        }
    }
    form
}

/// The budget rule: a tool left out for its form (it shares it, its form is another tool's
/// name or a meta-tool's, or a higher rank holds it) whose form without the budget would have
/// been apart from one of the others is left out *because of the budget*: its reason becomes
/// [`LeftOutReason::BudgetClash`], holding the rule's own reason and the form it would have had.
///
/// The spec has no budget: this rule is toolwire's own (issue 19, point 2: "a form two tools
/// share under the budget is left out, loudly, with the budget named as the cause"). It changes
/// no verdict, only what the verdict says.
pub(super) fn budget_rule(
    tools: &[CensusTool],
    budget: NameBudget,
    left_out: &mut [(usize, LeftOutReason)],
) {
    if !budget.is_below_full() {
        return;
    }
    for (i, reason) in left_out.iter_mut() {
        let name = &tools[*i].name;
        let full = model_safe_name(name);
        let differs = |other: &str| model_safe_name(other) != full;
        let caused = match reason {
            LeftOutReason::SharesForm { others } => others.iter().any(|o| differs(o)),
            LeftOutReason::FormIsAnotherTool { owner } => differs(owner),
            LeftOutReason::Outranked { holders } => holders.iter().any(|h| differs(h)),
            LeftOutReason::MetaTool { meta } => differs(meta),
            _ => false,
        };
        if caused {
            let cause = std::mem::replace(reason, LeftOutReason::EmptyName);
            *reason = LeftOutReason::BudgetClash {
                budget: budget.0,
                full_form: full.into_owned(),
                cause: Box::new(cause),
            };
        }
    }
}
