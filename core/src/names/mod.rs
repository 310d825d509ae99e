//! Names: a tool's **model-safe form** and the **taken names** of the runtime's meta-tools.
//!
//! A tool's *real name* is whatever its source calls it (`mcp/files/read`, `search.web`); its
//! *form* is that name with each character outside `[A-Za-z0-9_-]` made `_`, cut to
//! [`MAX_FORM_CHARS`] (hop 2 of the spec). Every request names a tool by its form, so one name
//! that a provider refuses never fails a request. A *taken name* is one the runtime answers
//! itself (its meta-tools, [`DEFAULT_META_TOOLS`]): no tool may travel under it.
//!
//! Pure `std`: `toolwire-macros` computes forms at compile time with this very code.
//!
//! ```
//! use toolwire_core::names::{is_model_safe, meta_tool_named, model_safe_name};
//!
//! assert_eq!(model_safe_name("mcp/files/read"), "mcp_files_read");
//! assert!(is_model_safe("mcp_files_read"));
//! assert_eq!(meta_tool_named(&model_safe_name("tool/search")), Some("tool_search"));
//! ```

mod meta_tools;
mod model_safe;

pub use meta_tools::{meta_tool_named, DEFAULT_META_TOOLS};
pub use model_safe::{is_form_char, is_model_safe, model_safe_name, MAX_FORM_CHARS};
pub(crate) use model_safe::{push_form, safe_prefix_len};
