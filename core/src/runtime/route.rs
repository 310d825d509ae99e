//! How a call reached what answered it: a value the approval hook and the call's outcome both
//! carry.

use serde::Serialize;

use crate::census::Via;

/// How a call reached what answered it.
///
/// ```
/// use toolwire_core::{ToolRuntime, runtime::Route};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let request = ToolRuntime::new().request();
/// let out = request.dispatch("reset_tools", serde_json::json!({})).await.unwrap();
/// assert_eq!(out.route, Route::Meta);
/// assert_eq!(serde_json::to_value(Route::Form).unwrap(), "form");
/// # });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Route {
    /// A meta-tool, answered by the runtime.
    Meta,
    /// The tool's real name.
    Exact,
    /// The tool's model-safe form.
    Form,
    /// A name this conversation's replayed history carries for the tool
    /// ([`ConversationState::history_names`](super::ConversationState::history_names)), not
    /// the tool's real name: it reaches the tool its call reached then, whatever the census
    /// says of the name now.
    History,
}

impl From<Via> for Route {
    fn from(via: Via) -> Route {
        match via {
            Via::Exact => Route::Exact,
            Via::Form => Route::Form,
        }
    }
}
