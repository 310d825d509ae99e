//! Every error met while parsing, combined into one (serde's `Ctxt`): a user fixes them all
//! in one build.

use proc_macro2::Span;
use quote::ToTokens;

/// Every error met so far, combined into one.
#[derive(Default)]
pub struct Errors {
    combined: Option<syn::Error>,
}

impl Errors {
    /// Records `message` at `tokens`.
    pub fn at(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records `message` at `span`.
    pub fn at_span(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Records an error.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.combined {
            Some(combined) => combined.combine(error),
            None => self.combined = Some(error),
        }
    }

    /// `Ok` when nothing was recorded.
    pub fn finish(self) -> Result<(), syn::Error> {
        self.combined.map_or(Ok(()), Err)
    }
}
