//! Tool sets from JSON: every format the commands read, and the error for input they cannot use.
//!
//! Policy: never guess and never panic. Input is either read completely or refused with one
//! message that names the source and the place at fault: the line and column of a syntax error
//! (serde_json knows them), or the path of the entry of the wrong shape (`tools[3].name`), since
//! a parsed value no longer knows where it stood in the text.
//!
//! One job per file:
//! - `input/source.rs`: the bytes of a file or standard input; syntax errors with their place.
//! - `input/layout.rs`: the formats, told apart once ([`layout::Layout`], [`layout::ToolShape`]),
//!   for both readers.
//! - `input/sparse_json.rs`: the names-only parse, which skips descriptions and schemas unbuilt.
//! - `input/names.rs`: the names, fast (`census`), and every message about a name or a layout.
//! - `definitions.rs`, beside this module: whole definitions (`wire`, `census --json`), read
//!   where the names reader found each name.

// Each child names its file: the fuzz target `cli_input` compiles this file by path
// (`#[path = ".../cli/src/input.rs"] mod input;`), and a module loaded by path looks for its
// children beside it rather than in `input/`.
#[path = "input/layout.rs"]
pub mod layout;
#[path = "input/names.rs"]
mod names;
#[path = "input/source.rs"]
mod source;
#[path = "input/sparse_json.rs"]
mod sparse_json;

use std::fmt;

pub use names::{names_from_json, read_names, read_names_or_piped};
pub use source::{read_source_or_piped, syntax_error, without_bom};

/// Input the command cannot use (exit status 2): the message names the source and the place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusableInput(pub String);

impl fmt::Display for UnusableInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
