//! The attribute and the function → the model of one tool (`ast.rs`).
//!
//! Policy: report every bad key and every bad argument at once (serde's `Ctxt`): an error is
//! pushed and parsing goes on with a default, so a user fixes them all in one build. Each error
//! is spanned on the user's tokens it is about.
//!
//! One job per file, as thiserror's `impl/src` splits its phases:
//! - `parse/errors.rs`: the errors, combined ([`Errors`]).
//! - `parse/ast.rs`: the model ([`Tool`], [`Arg`], [`ArgKind`], [`Output`]).
//! - `parse/attr.rs`: `#[tool(...)]`'s keys.
//! - `parse/signature.rs`: what a tool function cannot be, and its return type.
//! - `parse/args.rs`: each argument, JSON or app state.
//! - `parse/doc.rs`: doc comments as descriptions.

mod args;
mod ast;
mod attr;
mod doc;
mod errors;
mod signature;

use proc_macro2::TokenStream;
use syn::ext::IdentExt;
use syn::ItemFn;

pub use ast::{Arg, ArgKind, Output, Tool};
pub use errors::Errors;

/// Parses `#[tool(attr)] item`. `None` when the item is not a function at all (the error is
/// recorded).
pub fn parse(attr: TokenStream, item: TokenStream, errors: &mut Errors) -> Option<Tool> {
    let mut item: ItemFn = match syn::parse2(item) {
        Ok(item) => item,
        Err(error) => {
            errors.push(syn::Error::new(
                error.span(),
                format!("#[tool] goes on a free function (`fn` or `async fn`): {error}"),
            ));
            return None;
        }
    };
    let options = attr::parse_options(attr, errors);
    signature::check_signature(&item, errors);

    let ident = &item.sig.ident;
    let (name, name_span, name_given) = match &options.name {
        Some(lit) => (lit.value(), lit.span(), true),
        None => (ident.unraw().to_string(), ident.span(), false),
    };
    let (description, description_span) = match &options.description {
        Some(lit) => (lit.value().trim().to_owned(), lit.span()),
        None => (doc::doc_text(&item.attrs), ident.span()),
    };

    // Errors in source order: the attribute, the signature, each argument, the return type.
    let args = args::parse_args(&mut item.sig.inputs, errors);
    let output = signature::output(&item.sig.output, errors);

    Some(Tool {
        item,
        name,
        name_span,
        name_given,
        description,
        description_span,
        allow_gemini_refusal: options.allow_gemini_refusal,
        krate: options
            .krate
            .unwrap_or_else(|| syn::parse_quote!(::toolwire)),
        args,
        output,
    })
}
