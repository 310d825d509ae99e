//! Tool sets from JSON: every format the commands read, and the error for input they cannot use.
//!
//! Policy: never guess and never panic. Input is either read completely or refused with one
//! message that names the source and the place at fault: the line and column of a syntax error
//! (serde_json knows them), or the path of the entry of the wrong shape (`tools[3].name`), since
//! a parsed value no longer knows where it stood in the text.
//!
//! One job per file:
//! - `source.rs`: the bytes of a file or standard input; syntax errors with their place.
//! - `layout.rs`: the formats, told apart once (`layout::Layout`, `layout::ToolShape`), for
//!   both readers.
//! - `sparse_json.rs`: the names-only parse, which skips descriptions and schemas unbuilt.
//! - `names.rs`: the names, fast (`census`), and every message about a name or a layout.
//! - `definitions.rs`, beside this folder: whole definitions (`wire`, `census --json`), read
//!   where the names reader found each name.
//!
//! Public for the fuzz target `cli_input`: [`names_from_json`] and [`UnusableInput`].

pub(crate) mod layout;
mod names;
mod source;
mod sparse_json;

use std::fmt;

pub use names::names_from_json;
pub(crate) use names::{listed_from_json, read_listed, read_listed_or_piped, read_names, Found};
pub(crate) use source::{read_source_or_piped, syntax_error, without_bom};

/// Input the command cannot use (exit status 2): the message names the source and the place.
///
/// ```
/// use toolwire_cli::input::{names_from_json, UnusableInput};
/// let refused = names_from_json("tools.json", b"{}", None).unwrap_err();
/// assert!(refused.to_string().starts_with("tools.json: "));
/// let UnusableInput(message) = refused;
/// assert!(message.contains("tools"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusableInput(pub String);

impl fmt::Display for UnusableInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
