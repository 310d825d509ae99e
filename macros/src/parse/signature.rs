//! The signature: what a tool function cannot be, and what it returns.

use syn::ext::IdentExt;
use syn::{ItemFn, ReturnType, Type};

use super::{Errors, Output};

/// What a tool function cannot be: generic, a method, unsafe, variadic.
pub fn check_signature(item: &ItemFn, errors: &mut Errors) {
    let sig = &item.sig;
    let name = sig.ident.unraw();
    if !sig.generics.params.is_empty() {
        errors.at(
            &sig.generics,
            format!("#[tool] function `{name}` cannot be generic: its JSON schema and handler are fixed at compile time; use concrete types"),
        );
    } else if let Some(clause) = &sig.generics.where_clause {
        errors.at(
            clause,
            format!("#[tool] function `{name}` cannot have a `where` clause; use concrete types"),
        );
    }
    if let Some(receiver) = sig.receiver() {
        errors.at(
            receiver,
            format!("#[tool] goes on a free function, not a method: `{name}` takes `self`; move it out of the `impl` and pass what it needs as arguments or `State<T>`"),
        );
    }
    if let Some(unsafety) = &sig.unsafety {
        errors.at(
            unsafety,
            format!("#[tool] function `{name}` cannot be `unsafe`: a model's call cannot uphold a safety contract"),
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.at(
            variadic,
            format!("#[tool] function `{name}` cannot be variadic"),
        );
    }
}

/// What the function returns: nothing, a `Result` (by its written last segment) or a value.
pub fn output(output: &ReturnType, errors: &mut Errors) -> Output {
    match output {
        ReturnType::Default => Output::Unit,
        ReturnType::Type(_, ty) if last_segment_is(ty, "Result") => Output::Result((**ty).clone()),
        ReturnType::Type(_, ty) => {
            check_no_impl_trait(ty, "return", errors);
            Output::Value((**ty).clone())
        }
    }
}

/// A value returned is serialized from a named type: no `impl Trait`.
fn check_no_impl_trait(ty: &Type, what: &str, errors: &mut Errors) {
    if let Type::ImplTrait(t) = ty {
        errors.at(
            t,
            format!("a #[tool] function cannot {what} `impl Trait`: write `async fn` for a future, or name a type that implements `Serialize`"),
        );
    }
}

/// Whether `ty` is a path (through groups and parentheses) whose last segment is `name`.
fn last_segment_is(ty: &Type, name: &str) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            p.path.segments.last().is_some_and(|s| s.ident == name)
        }
        Type::Group(g) => last_segment_is(&g.elem, name),
        Type::Paren(p) => last_segment_is(&p.elem, name),
        _ => false,
    }
}
