//! The arguments: each one a JSON property (described by its doc comment) or app state.
//!
//! Policy: an argument is judged by its written type, never by what it resolves to (a macro
//! cannot see that): `State<...>` is app state; anything else is deserialized from the call's
//! JSON, so it cannot borrow or be `impl Trait`.

use quote::ToTokens;
use syn::ext::IdentExt;
use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::{FnArg, Ident, Pat, Token, Type};

use super::doc::doc_text;
use super::{Arg, ArgKind, Errors};

/// The attributes that belong to an argument's field of the generated arguments struct: what
/// serde and schemars read there.
const FIELD_ATTRIBUTES: [&str; 2] = ["serde", "schemars"];

/// The arguments of `inputs`, in order, each one's doc comment taken off (rustc refuses doc
/// comments on arguments) and kept as its description, and its `#[serde]`/`#[schemars]`
/// attributes taken off (rustc knows neither on an argument) and kept for its field.
pub fn parse_args(inputs: &mut Punctuated<FnArg, Token![,]>, errors: &mut Errors) -> Vec<Arg> {
    let mut args = Vec::new();
    for input in inputs {
        let FnArg::Typed(typed) = input else { continue };
        let description = doc_text(&typed.attrs);
        typed.attrs.retain(|attr| !attr.path().is_ident("doc"));
        let (attrs, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut typed.attrs)
            .into_iter()
            .partition(|attr| {
                FIELD_ATTRIBUTES
                    .iter()
                    .any(|name| attr.path().is_ident(name))
            });
        typed.attrs = rest;
        let ident = match &*typed.pat {
            Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => pat.ident.clone(),
            other => {
                errors.at(
                    other,
                    "a #[tool] argument must be a plain name (`city: String`): its name is the JSON property's",
                );
                continue;
            }
        };
        let ty = (*typed.ty).clone();
        let kind = if is_state(&ty) {
            for attr in &attrs {
                errors.at(
                    attr,
                    format!(
                        "#[tool] argument `{}` is app state (`State<...>`), not JSON: a `#[serde]` or `#[schemars]` attribute on it has nothing to apply to; remove it",
                        ident.unraw()
                    ),
                );
            }
            ArgKind::State
        } else {
            check_argument_type(&ident, &ty, errors);
            ArgKind::Json { description }
        };
        args.push(Arg {
            key: ident.unraw().to_string(),
            ident,
            attrs,
            ty,
            kind,
        });
    }
    args
}

/// A JSON argument is deserialized into an owned value: no references, no `impl Trait`.
fn check_argument_type(ident: &Ident, ty: &Type, errors: &mut Errors) {
    struct Finder<'e> {
        arg: String,
        errors: &'e mut Errors,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_type_reference(&mut self, r: &'ast syn::TypeReference) {
            self.errors.at(
                r,
                format!(
                    "#[tool] argument `{}` borrows (`{}`), but arguments are deserialized from the call's JSON into owned values; take an owned type (`String` for `&str`, `Vec<T>` for `&[T]`)",
                    self.arg,
                    r.to_token_stream().to_string().replace("& ", "&")
                ),
            );
        }
        fn visit_type_impl_trait(&mut self, t: &'ast syn::TypeImplTrait) {
            self.errors.at(
                t,
                format!(
                    "#[tool] argument `{}` cannot be `impl Trait`: the macro must name the type to deserialize it from JSON; use a concrete type",
                    self.arg
                ),
            );
        }
    }
    Finder {
        arg: ident.unraw().to_string(),
        errors,
    }
    .visit_type(ty);
}

/// `State<...>` (any path ending in `State` with one generic argument): app state, not JSON.
fn is_state(ty: &Type) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().is_some_and(|s| {
            s.ident == "State"
                && matches!(&s.arguments, syn::PathArguments::AngleBracketed(a) if a.args.len() == 1)
        }),
        Type::Group(g) => is_state(&g.elem),
        Type::Paren(p) => is_state(&p.elem),
        _ => false,
    }
}
