//! The code `#[tool]` generates for a valid tool: the user's function unchanged (argument doc
//! comments and `#[serde]`/`#[schemars]` attributes aside), a sentinel `const` whose name
//! tells a `#[tool]` in an `impl` to move out, and, inside one named
//! `const __TOOLWIRE_TOOL_<fn>: () = { ... };`, a marker that makes two tools of one crate with
//! one form a compile error, the arguments struct, the schema, the handler and the `inventory`
//! submission.
//!
//! Policy: absolute paths only (`#krate::__private::...`, `::core::...`), so neither the
//! user's imports nor a renamed crate can break the expansion; code that type-checks a user's
//! type is spanned on that type, so the error underlines it.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::Ident;

use crate::parse::{ArgKind, Output, Tool};
use crate::validate::Checked;

/// The whole expansion of a valid tool: the function, a sentinel, then one named `const`
/// holding the marker and the registration.
///
/// A proc macro cannot see whether it stands in a module or in an `impl`, so the expansion is
/// made of items that parse in both: the function, and named `const`s (not `const _`, nor a
/// bare `macro_rules!`, which an `impl` refuses with errors of rustc's about them). In a
/// module, the registration names the sentinel and the function, both free items. In an
/// `impl`, both are associated items, which no path without `Self::` reaches, and the
/// registration cannot write `Self` (its handler is a nested item): the first error is then
/// rustc's "cannot find value" for the sentinel, whose name is the message, at the function's
/// name.
pub fn expand(tool: &Tool, checked: &Checked) -> TokenStream {
    let item = &tool.item;
    let marker = form_marker(tool, &checked.form);
    let registration = registration(tool, checked);
    let ident = &tool.item.sig.ident;
    let span = ident.span();
    let holder = format_ident!("__TOOLWIRE_TOOL_{}", ident.unraw(), span = span);
    let sentinel = format_ident!(
        "tool_takes_a_free_function__move_{}_out_of_the_impl",
        ident.unraw(),
        span = span
    );
    quote! {
        #item
        #[doc(hidden)]
        #[allow(dead_code, non_upper_case_globals)]
        const #sentinel: () = ();
        #[doc(hidden)]
        #[allow(dead_code, non_upper_case_globals)]
        const #holder: () = {
            let () = #sentinel;
            #marker
            #registration
        };
    }
}

/// The identifier of the marker for `form`: injective over forms (so `a-b` and `a_b` differ
/// while `a.b` and `a_b`, one form, meet), and a valid Rust identifier.
///
/// A form without `-` is written as is after `tool_form_`. A form with `-` is written after
/// `tool_dashed_form_` with each `-` as `_`, then `_` and the 16 hex digits of the bit set of
/// dash positions (a form has at most 64 characters). The two prefixes differ at their sixth
/// character, so no identifier of one family is one of the other.
pub fn marker_ident(form: &str, span: Span) -> Ident {
    const SUFFIX: &str = "__is_the_form_of_another_tool__rename_one";
    if !form.contains('-') {
        return Ident::new(&format!("tool_form_{form}{SUFFIX}"), span);
    }
    let mut dashes: u64 = 0;
    for (at, c) in form.chars().enumerate() {
        if c == '-' && at < 64 {
            dashes |= 1 << at;
        }
    }
    let readable = form.replace('-', "_");
    Ident::new(
        &format!("tool_dashed_form_{readable}_{dashes:016x}{SUFFIX}"),
        span,
    )
}

/// A `#[macro_export] macro_rules!` named after the form. Whatever module, function body or
/// block a `#[tool]` stands in, the marker lands in the crate root's macro namespace, so two
/// tools of one crate with one form are rustc's E0428, pointing at both tools. Nothing is kept
/// between macro invocations (incremental builds and rust-analyzer would break that).
fn form_marker(tool: &Tool, form: &str) -> TokenStream {
    let span = tool.name_span;
    let ident = marker_ident(form, span);
    // Every token on the user's name, so E0428 underlines the two tools' names.
    quote_spanned! {span=>
        #[doc(hidden)]
        #[macro_export]
        #[allow(non_local_definitions, unused_macros, clippy::crate_in_macro_def)]
        macro_rules! #ident { () => {}; }
    }
}

/// What an argument's `#[serde]`/`#[schemars]` attributes make its field read.
#[derive(Default)]
struct AttributeReads {
    /// `with`, `deserialize_with`, `schema_with` or `default = "..."`: a function of the
    /// user's, written for the user's type.
    through_a_function: bool,
    /// `default`: the type's `Default`.
    default: bool,
}

impl AttributeReads {
    /// Read from the attributes' keys (identifiers), never from their string values: a
    /// `rename = "width"` names no `with`.
    fn of(attrs: &[syn::Attribute]) -> AttributeReads {
        fn walk(tokens: proc_macro2::TokenStream, reads: &mut AttributeReads) {
            let mut tokens = tokens.into_iter().peekable();
            while let Some(token) = tokens.next() {
                match token {
                    proc_macro2::TokenTree::Ident(ident) => {
                        let key = ident.to_string();
                        let valued = matches!(tokens.peek(), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '=');
                        match key.as_str() {
                            "with" | "deserialize_with" | "schema_with" => {
                                reads.through_a_function = true
                            }
                            "default" if valued => reads.through_a_function = true,
                            "default" => reads.default = true,
                            _ => {}
                        }
                    }
                    proc_macro2::TokenTree::Group(group) => walk(group.stream(), reads),
                    _ => {}
                }
            }
        }
        let mut reads = AttributeReads::default();
        for attr in attrs {
            if let syn::Meta::List(list) = &attr.meta {
                walk(list.tokens.clone(), &mut reads);
            }
        }
        reads
    }
}

/// The path of `krate` as the string `#[serde(crate = "...")]` and `#[schemars(crate = "...")]`
/// take, for the crate `name` re-exported by `krate::__private`.
fn reexported_crate(krate: &syn::Path, name: &str) -> String {
    let krate = krate.to_token_stream().to_string().replace(' ', "");
    format!("{krate}::__private::{name}")
}

fn registration(tool: &Tool, checked: &Checked) -> TokenStream {
    // Arguments without `#[serde]`/`#[schemars]` attributes (most tools) take the plain path:
    // its generic code is per argument *type*, shared by every tool of the crate, where a
    // derived struct per tool costs ten times as much to compile (benches/compile_time.sh).
    let attributed = tool.args.iter().any(|arg| match &arg.kind {
        ArgKind::Json { .. } => !arg.attrs.is_empty(),
        ArgKind::State => false,
    });
    if attributed {
        derived_registration(tool, checked)
    } else {
        plain_registration(tool, checked)
    }
}

/// The plain path: the schema built one argument at a time (`ObjectSchema`), the arguments
/// taken one at a time (`take_argument`), both after the same validation as the derived path.
fn plain_registration(tool: &Tool, checked: &Checked) -> TokenStream {
    let krate = &tool.krate;
    let private = quote!(#krate::__private);
    let name = &tool.name;
    let mut params = Vec::new();
    let mut param_bounds = Vec::new();
    let mut concrete = Vec::new();
    let mut properties = Vec::new();
    let mut takes = Vec::new();
    let mut bindings = Vec::new();
    let mut call_args = Vec::new();
    for arg in &tool.args {
        let local = format_ident!("__toolwire_arg_{}", arg.key);
        let ty = &arg.ty;
        let span = ty.span();
        match &arg.kind {
            ArgKind::Json { description } => {
                let key = &arg.key;
                let param = format_ident!("__ToolwireArgument{}", params.len());
                param_bounds.push(quote! {
                    #param: #private::ArgumentSchema + #private::ArgumentDeserialize
                });
                properties.push(quote! {
                    __toolwire_schema.property::<#param>(#key, #description);
                });
                takes.push(quote! {
                    #private::take_argument::<#param>(__toolwire_name, &mut __toolwire_map, #key)?,
                });
                let index = syn::Index::from(params.len());
                bindings.push(quote_spanned! {span=>
                    let #local: #ty = __toolwire_parsed.#index;
                });
                params.push(param);
                // Written with the user's tokens: an unmet bound underlines the user's type.
                concrete.push(quote_spanned!(span=> #ty));
            }
            ArgKind::State => {
                bindings.push(quote_spanned! {span=>
                    let #local: #ty = <#ty as #private::FromAppState>::from_app_state(&__toolwire_state, NAME)?;
                });
            }
        }
        call_args.push(local);
    }
    let common = common_items(tool, checked, &private, &bindings, &call_args);
    quote! {
        const NAME: &str = #name;

        fn __toolwire_schema_of<#(#param_bounds),*>() -> #private::serde_json::Value {
            #[allow(unused_mut)]
            let mut __toolwire_schema = #private::ObjectSchema::new();
            #(#properties)*
            __toolwire_schema.finish()
        }

        #[allow(unused_mut, unused_variables)]
        fn __toolwire_parse_of<#(#param_bounds),*>(
            __toolwire_name: &str,
            __toolwire_validator: &#private::ArgumentsValidator,
            __toolwire_schema: fn() -> #private::serde_json::Value,
            __toolwire_arguments: #private::serde_json::Value,
        ) -> ::core::result::Result<(#(#params,)*), #private::ToolError> {
            let mut __toolwire_map = #private::validated_object(
                __toolwire_name,
                __toolwire_validator,
                __toolwire_schema,
                __toolwire_arguments,
            )?;
            ::core::result::Result::Ok((#(#takes)*))
        }

        const fn __toolwire_parts<#(#param_bounds),*>()
            -> #private::ArgumentsParts<(#(#params,)*)>
        {
            #private::ArgumentsParts {
                schema: __toolwire_schema_of::<#(#params),*>,
                parse: __toolwire_parse_of::<#(#params),*>,
            }
        }

        // The one place the arguments' types are named: each bound is checked at the type the
        // user wrote.
        const __TOOLWIRE_PARTS: #private::ArgumentsParts<(#(#concrete,)*)> =
            __toolwire_parts::<#(#concrete),*>();

        #common
    }
}

/// The derived path: one arguments struct per tool, deriving `Deserialize` and `JsonSchema`,
/// so each argument's `#[serde]`/`#[schemars]` attributes apply to it.
fn derived_registration(tool: &Tool, checked: &Checked) -> TokenStream {
    let krate = &tool.krate;
    let private = quote!(#krate::__private);
    let serde_crate = reexported_crate(krate, "serde");
    let private_text = reexported_crate(krate, "")
        .trim_end_matches("::")
        .to_owned();
    let schemars_crate = reexported_crate(krate, "schemars");
    let name = &tool.name;

    let mut fields = Vec::new();
    let mut params = Vec::new();
    let mut param_bounds = Vec::new();
    let mut concrete = Vec::new();
    let mut serde_bounds = Vec::new();
    let mut schemars_bounds = Vec::new();
    let mut bindings = Vec::new();
    let mut call_args = Vec::new();
    for arg in &tool.args {
        let local = format_ident!("__toolwire_arg_{}", arg.key);
        let ty = &arg.ty;
        let span = ty.span();
        match &arg.kind {
            ArgKind::Json { description } => {
                let ident = &arg.ident;
                let attrs = &arg.attrs;
                let reads = AttributeReads::of(attrs);
                let described = attrs.iter().any(|a| {
                    a.path().is_ident("schemars")
                        && a.to_token_stream().to_string().contains("description")
                });
                let describe = (!description.is_empty() && !described)
                    .then(|| quote!(#[schemars(description = #description)]));
                // A field reads its type through a function of the user's (`with`,
                // `deserialize_with`, `default = "..."`, `schema_with`) stays of the user's
                // type: such a function is not generic. Every other field is of a type
                // parameter, so the derives ask nothing of the user's type themselves.
                if reads.through_a_function {
                    fields.push(quote! { #(#attrs)* #describe #ident: #ty, });
                } else {
                    let param = format_ident!("__ToolwireArgument{}", params.len());
                    // `#[serde(default)]` needs `Default`, which the bound must then say.
                    let default = reads.default.then(|| quote!(+ ::core::default::Default));
                    let default_text = if default.is_some() {
                        " + ::core::default::Default"
                    } else {
                        ""
                    };
                    serde_bounds.push(format!(
                        "{param}: {private_text}::ArgumentDeserialize{default_text}"
                    ));
                    schemars_bounds.push(format!(
                        "{param}: {private_text}::ArgumentSchema{default_text}"
                    ));
                    param_bounds.push(quote! {
                        #param: #private::ArgumentSchema + #private::ArgumentDeserialize #default
                    });
                    fields.push(quote! { #(#attrs)* #describe #ident: #param, });
                    params.push(param);
                    // Written with the user's tokens: an unmet bound underlines the user's type.
                    concrete.push(quote_spanned!(span=> #ty));
                }
                bindings.push(quote_spanned! {span=>
                    let #local: #ty = __toolwire_parsed.#ident;
                });
            }
            ArgKind::State => {
                bindings.push(quote_spanned! {span=>
                    let #local: #ty = <#ty as #private::FromAppState>::from_app_state(&__toolwire_state, NAME)?;
                });
            }
        }
        call_args.push(local);
    }
    let serde_bound = serde_bounds.join(", ");
    let schemars_bound = schemars_bounds.join(", ");

    let common = common_items(tool, checked, &private, &bindings, &call_args);
    quote! {
        const NAME: &str = #name;

        // The tool's JSON arguments: one field per argument, with its `#[serde]` and
        // `#[schemars]` attributes, of a type parameter (see `ArgumentsParts`). Its schema is
        // the tool's, and a call is checked against that schema before it is deserialized
        // into this. (No doc comment: schemars would make it the schema's description.)
        #[derive(#private::serde::Deserialize, #private::schemars::JsonSchema)]
        #[serde(crate = #serde_crate, bound(deserialize = #serde_bound))]
        #[schemars(crate = #schemars_crate, bound = #schemars_bound)]
        struct __ToolwireArguments<#(#params),*> {
            #(#fields)*
        }

        const fn __toolwire_parts<#(#param_bounds),*>()
            -> #private::ArgumentsParts<__ToolwireArguments<#(#params),*>>
        {
            #private::ArgumentsParts::new()
        }

        // The one place the arguments' types are named: each bound is checked at the type the
        // user wrote.
        const __TOOLWIRE_PARTS: #private::ArgumentsParts<__ToolwireArguments<#(#concrete),*>> =
            __toolwire_parts::<#(#concrete),*>();

        #common
    }
}

/// What both paths emit once their `__TOOLWIRE_PARTS` exist: the tool's schema function, its
/// validator, the run of the user's function on the parsed arguments (`bindings` take each
/// argument out of them), the handler and the registration.
fn common_items(
    tool: &Tool,
    checked: &Checked,
    private: &TokenStream,
    bindings: &[TokenStream],
    call_args: &[proc_macro2::Ident],
) -> TokenStream {
    let form = &checked.form;
    let description = &tool.description;
    let fn_ident = &tool.item.sig.ident;
    let call = if tool.item.sig.asyncness.is_some() {
        quote!(#fn_ident(#(#call_args),*).await)
    } else {
        quote!(#fn_ident(#(#call_args),*))
    };
    let output = match &tool.output {
        Output::Unit => quote! {
            #call;
            ::core::result::Result::Ok(#private::serde_json::Value::Null)
        },
        Output::Value(ty) => {
            let span = ty.span();
            let convert = quote_spanned!(span=> #private::value_output::<#ty>);
            quote!(#convert(NAME, #call))
        }
        Output::Result(ty) => {
            let span = ty.span();
            let convert = quote_spanned!(span=> <#ty as #private::ResultOutput>::into_tool_output);
            quote!(#convert(#call, NAME))
        }
    };

    let is_async = tool.item.sig.asyncness.is_some();
    // A sync tool runs through one non-generic function pointer: no future type per tool,
    // which is most of what a tool costs to compile (benches/compile_time.sh).
    let (run_sig, handler_body) = if is_async {
        (
            quote!(async fn),
            quote!(#private::guard(NAME, __toolwire_run(__toolwire_input))),
        )
    } else {
        (
            quote!(fn),
            quote!(#private::guard_sync(NAME, __toolwire_run, __toolwire_input)),
        )
    };
    quote! {
        fn __toolwire_schema() -> #private::serde_json::Value {
            (__TOOLWIRE_PARTS.schema)()
        }

        static __TOOLWIRE_VALIDATOR: #private::ArgumentsValidator = #private::ArgumentsValidator::new();

        #run_sig __toolwire_run(
            __toolwire_input: #private::ToolInput,
        ) -> ::core::result::Result<#private::serde_json::Value, #private::ToolError> {
            #[allow(unused_variables)]
            let #private::ToolInput {
                arguments: __toolwire_arguments,
                state: __toolwire_state,
            } = __toolwire_input;
            #[allow(unused_variables)]
            let __toolwire_parsed = (__TOOLWIRE_PARTS.parse)(
                NAME,
                &__TOOLWIRE_VALIDATOR,
                __toolwire_schema,
                __toolwire_arguments,
            )?;
            #(#bindings)*
            #output
        }

        fn __toolwire_handler(__toolwire_input: #private::ToolInput) -> #private::ToolFuture {
            #handler_body
        }

        #private::inventory::submit! {
            #private::ToolRegistration {
                name: NAME,
                form: #form,
                description: #description,
                schema: __toolwire_schema,
                handler: __toolwire_handler,
                module_path: ::core::module_path!(),
                file: ::core::file!(),
                line: ::core::line!(),
                // The handler above checks every call against `__toolwire_schema` before the
                // function runs (`__private::validated_arguments`): the promise this makes.
                validates_arguments: true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::marker_ident;
    use proc_macro2::Span;

    fn ident(form: &str) -> String {
        marker_ident(form, Span::call_site()).to_string()
    }

    #[test]
    fn dash_and_underscore_forms_get_different_markers() {
        assert_ne!(ident("a-b"), ident("a_b"));
        assert_eq!(
            ident("search_web"),
            "tool_form_search_web__is_the_form_of_another_tool__rename_one"
        );
    }

    #[test]
    fn the_marker_is_injective_over_every_short_form() {
        // Every form of up to 6 characters over an alphabet with the awkward ones: `_`, `-`,
        // a letter, a digit, and letters the suffix and prefixes are made of.
        let alphabet = ['a', '0', '_', '-', 'd', 'f'];
        let mut seen: HashMap<String, String> = HashMap::new();
        let mut forms = vec![String::new()];
        for _ in 0..6 {
            let mut longer = Vec::new();
            for form in &forms {
                for c in alphabet {
                    longer.push(format!("{form}{c}"));
                }
            }
            for form in &longer {
                if let Some(other) = seen.insert(ident(form), form.clone()) {
                    panic!("`{form}` and `{other}` share a marker");
                }
            }
            forms = longer;
        }
        assert_eq!(seen.len(), (1..=6).map(|n| 6usize.pow(n)).sum::<usize>());
    }

    #[test]
    fn a_64_character_form_with_dashes_is_a_valid_identifier() {
        let form = "-".repeat(64).replacen('-', "x", 1);
        let marker = ident(&form);
        assert!(marker.ends_with(&format!(
            "{:016x}__is_the_form_of_another_tool__rename_one",
            u64::MAX - 1
        )));
    }
}
