//! The wire: what toolwire sends to an LLM API and what each API accepts. That is the name a
//! tool definition may carry ([`check_definition_name`], per [`LlmProvider`]), the tool list as
//! each API receives it ([`WireFormat`], [`wire_tools`], a [`ToolList`] saying what it left out
//! and why, [`LeftOutTool`]) and the limits of one request
//! ([`RequestLimit`], [`OPENAI_MAX_TOOLS`]). The schema dialect a format's parameters follow is
//! [`Dialect`](crate::schema::Dialect), in [`schema::dialect`](crate::schema::dialect).
//!
//! Only offered tools travel, each under its model-safe form, with its description verbatim and
//! its parameter schema prepared for the format's dialect; the shape changes between providers,
//! the name string does not.
//!
//! The public API is keyed by the enums, because which provider a request goes to is run-time
//! data. Behind them, each LLM API is one type implementing one trait, and the code is laid out
//! in three kinds of file:
//! - generic machinery, which holds no provider's facts and dispatches to a provider through
//!   the trait: `api.rs` (`LlmApi`: the provider, its name rule and its dialects with their
//!   rules, the shape of one tool and where `strict` goes, its request limits, its native tool
//!   search and its `namespace` tool where it has them, the body parser and stream machine with
//!   the stream's end marker, the replay rules, the answer writer and what an answer can
//!   carry), `name_rules.rs` ([`NameRule`], [`check_definition_name`]),
//!   `format.rs` ([`WireFormat`], [`wire_tools`], [`RequestLimit`]), `namespaces.rs`
//!   ([`namespaced_tools`]: the Responses API's `namespace` tools), [`calls`], [`answers`],
//!   [`replay`] (the assistant turn as history carries it, from a body or a stream) and, for
//!   schemas, `schema/dialect.rs` (the `DialectRules` types and the `Dialect` enum);
//! - the table, `apis.rs`: each [`CallFormat`](calls::CallFormat) to its API, and the `const`
//!   maps the public `const fn`s read (name rules, history-name limits, dialects); the one
//!   generic file that names the providers. No other generic module imports a provider folder
//!   (a test in `apis.rs` reads the sources), and the runtime asks the API too (the native
//!   tool search of `runtime/request.rs`). One provider fact is read by name, as a policy of
//!   ours: a deferred catalog (`runtime/catalog_policy.rs`, `runtime/request.rs`) carries at
//!   most [`OPENAI_MAX_TOOLS`] tools whatever the format, so one conversation's lists fit every
//!   API's request (OpenAI's count is the smallest any API sets);
//! - one folder per LLM provider, holding everything toolwire knows about it, each fact citing
//!   its source: in its `mod.rs` its name rule, its schema dialects, the shape of one tool in its
//!   tool list (and where `strict` goes) and its request limits; beside it its calls read from a
//!   response body and from its stream, the answers sent back, its replay (the names it refuses
//!   in history, the body its stream builds), and the API type that joins them (`api.rs`).
//!   `openai/` (Chat Completions and the Responses API, `chat_api.rs` and `responses_api.rs`),
//!   `anthropic/` (the Messages API, with its native tool search), `converse/` (Bedrock
//!   Converse) and `gemini/` (Gemini).
//!
//! ```
//! use toolwire_core::wire::{check_definition_name, LlmProvider};
//!
//! assert!(check_definition_name(LlmProvider::OpenAi, "files_read").is_ok());
//! assert!(check_definition_name(LlmProvider::OpenAi, "files/read").is_err());
//! ```

#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub mod answers;
pub(crate) mod anthropic;
#[cfg(feature = "runtime")]
pub(crate) mod api;
pub(crate) mod apis;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub mod calls;
pub(crate) mod converse;
#[cfg(feature = "runtime")]
mod format;
pub(crate) mod gemini;
#[cfg(feature = "runtime")]
pub(crate) mod json_len;
#[cfg(feature = "runtime")]
pub(crate) mod json_pointer;
mod name_rules;
#[cfg(feature = "runtime")]
pub(crate) mod namespaces;
pub(crate) mod openai;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub mod replay;
#[cfg(feature = "runtime")]
mod tool_list;

#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub use apis::OPENAI_MAX_TOOLS;
#[cfg(feature = "runtime")]
pub(crate) use format::wire_list;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub use format::{unsupported_reason, wire_tools, RequestLimit, WireError, WireFormat};
pub use name_rules::{check_definition_name, CharClass, LlmProvider, NameRejection, NameRule};
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub use namespaces::namespaced_tools;
#[cfg(feature = "runtime")]
#[cfg_attr(docsrs, doc(cfg(feature = "runtime")))]
pub use tool_list::{LeftOutTool, ToolList, WhyLeftOut};
