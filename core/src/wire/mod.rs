//! The wire: what each LLM API accepts as a tool name ([`check_definition_name`], per
//! [`LlmProvider`]), the tool list as each API receives it ([`WireFormat`], [`wire_tools`]) and the
//! limits of one request ([`RequestLimit`]).
//!
//! Only offered tools travel, each under its model-safe form, with its description verbatim and
//! its parameter schema prepared for the format's dialect; the shape changes between providers,
//! the name string does not.
//!
//! ```
//! use toolwire_core::wire::{check_definition_name, LlmProvider};
//!
//! assert!(check_definition_name(LlmProvider::OpenAi, "files_read").is_ok());
//! assert!(check_definition_name(LlmProvider::OpenAi, "files/read").is_err());
//! ```

#[cfg(feature = "runtime")]
mod format;
mod name_rules;

#[cfg(feature = "runtime")]
pub use crate::schema::dialect::OPENAI_MAX_TOOLS;
#[cfg(feature = "runtime")]
pub(crate) use format::wire_list;
#[cfg(feature = "runtime")]
pub use format::{wire_tools, RequestLimit, WireError, WireFormat};
pub use name_rules::{check_definition_name, CharClass, LlmProvider, NameRejection, NameRule};
