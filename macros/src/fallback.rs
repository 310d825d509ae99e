//! What `#[tool]` emits when its input is invalid: the errors, and still the user's function
//! (as thiserror's `fallback.rs` and tokio's `token_stream_with_error` do), so rust-analyzer
//! keeps working on it and no cascade of "cannot find function" errors hides the real one.

use proc_macro2::TokenStream;
use quote::quote;

use crate::parse::{Errors, Tool};

/// The item did not parse as a function: the errors, then the item's tokens unchanged.
pub fn unparsed(item: TokenStream, errors: Errors) -> TokenStream {
    let errors = errors.finish().err().map(|e| e.to_compile_error());
    quote! {
        #errors
        #item
    }
}

/// A function the attribute cannot honour: the errors, then the function without its argument
/// doc comments (rustc refuses doc comments on arguments) and without any registration.
pub fn invalid(tool: &Tool, error: syn::Error) -> TokenStream {
    let errors = error.to_compile_error();
    let item = &tool.item;
    quote! {
        #errors
        #item
    }
}
