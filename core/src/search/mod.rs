//! Searching a tool set by what a tool is for: the index behind the runtime's `tool_search` and
//! `toolwire search` (hop 4 of the spec: the catalog where a model reads real names).
//!
//! Policy: built once per tool set, never per query; every position of the census is indexed
//! (offered or not) and the caller says which positions may be found, so one index serves every
//! filter. Any query, however odd, finds something or nothing; it never panics.
//!
//! | file | job |
//! |---|---|
//! | `terms.rs` | the words of a name or text ([`search_terms`]), stop words, the light stemmer |
//! | `index.rs` | the BM25F index ([`SearchIndex`]) and its hits ([`SearchHit`]) |
//!
//! ```
//! use toolwire_core::search::SearchIndex;
//!
//! // One document per tool: (real name, form, description).
//! let index = SearchIndex::build([
//!     ("mcp/fs/read_file", "mcp_fs_read_file", "Read the contents of a file"),
//!     ("mcp/web/fetch", "mcp_web_fetch", "Fetch a web page"),
//! ]);
//! let hits = index.search("read a file's contents", 5, |_| true);
//! assert_eq!(hits[0].index, 0);
//! ```

mod index;
mod terms;

pub use index::{SearchHit, SearchIndex};
pub use terms::search_terms;
