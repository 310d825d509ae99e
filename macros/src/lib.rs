//! `#[tool]`: the attribute of [toolwire](https://docs.rs/toolwire). Use it through the facade,
//! `toolwire::tool`; its documentation lives there.
//!
//! This file holds the entry point only. The phases are one module each: `parse/` (attribute
//! and function → model, every error at once), `validate.rs` (the naming rules, from
//! toolwire-core), `expand.rs` (the generated code) and `fallback.rs` (what to emit when the
//! input is invalid).
#![deny(missing_docs)]

mod expand;
mod fallback;
mod parse;
mod validate;

use proc_macro::TokenStream;

/// Registers a function as a tool. See `toolwire::tool` for the documentation.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    let mut errors = parse::Errors::default();
    let Some(tool) = parse::parse(attr.into(), item.clone(), &mut errors) else {
        return fallback::unparsed(item, errors).into();
    };
    let checked = validate::validate(&tool, &mut errors);
    match errors.finish() {
        Ok(()) => expand::expand(&tool, &checked).into(),
        Err(error) => fallback::invalid(&tool, error).into(),
    }
}
