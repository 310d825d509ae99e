//! The attribute and the function → the model of one tool.
//!
//! Policy: report every bad key and every bad argument at once (serde's `Ctxt`): an error is
//! pushed and parsing goes on with a default, so a user fixes them all in one build. Each error
//! is spanned on the user's tokens it is about.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::{Expr, FnArg, Ident, ItemFn, Lit, LitStr, Meta, Pat, Path, ReturnType, Token, Type};

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

/// The keys `#[tool(...)]` takes, for the unknown-key message.
pub const KEYS: &str = "`name`, `description`, `allow_gemini_refusal`, `crate`";

/// One `#[tool]` function, as the macro understands it.
pub struct Tool {
    /// The function as it is emitted: argument doc comments removed (rustc refuses them there).
    pub item: ItemFn,
    /// The real name.
    pub name: String,
    /// The user's tokens that give the name: the `name = "..."` literal, or the fn's ident.
    pub name_span: Span,
    /// Whether the name came from `#[tool(name = ...)]`.
    pub name_given: bool,
    /// The description: `#[tool(description = ...)]`, else the doc comment's lines joined.
    pub description: String,
    /// Where the description came from, for an error about it.
    pub description_span: Span,
    /// `#[tool(allow_gemini_refusal)]`: the form need not suit Gemini.
    pub allow_gemini_refusal: bool,
    /// The path of the facade crate (`#[tool(crate = ...)]`, default `::toolwire`).
    pub krate: Path,
    /// The arguments, in order.
    pub args: Vec<Arg>,
    /// What the function returns.
    pub output: Output,
}

/// One argument of a tool function.
pub struct Arg {
    /// The JSON property name: the ident without `r#`.
    pub key: String,
    /// Its type, as the user wrote it.
    pub ty: Type,
    /// A JSON argument or app state.
    pub kind: ArgKind,
}

/// Where an argument's value comes from.
pub enum ArgKind {
    /// The call's JSON arguments; the doc comment describes the property.
    Json {
        /// The argument's doc comment, lines joined.
        description: String,
    },
    /// The app state (`State<T>`): not part of the schema.
    State,
}

/// What a tool function returns.
pub enum Output {
    /// Nothing: the call returns `null`.
    Unit,
    /// A value to serialize.
    Value(Type),
    /// A `Result`: `Ok` is serialized, `Err` becomes a tool error.
    Result(Type),
}

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
    let options = parse_options(attr, errors);
    check_signature(&item, errors);

    let ident = &item.sig.ident;
    let (name, name_span, name_given) = match &options.name {
        Some(lit) => (lit.value(), lit.span(), true),
        None => (ident.unraw().to_string(), ident.span(), false),
    };
    let (description, description_span) = match &options.description {
        Some(lit) => (lit.value().trim().to_owned(), lit.span()),
        None => (doc_text(&item.attrs), ident.span()),
    };

    let mut args = Vec::new();
    for input in &mut item.sig.inputs {
        let FnArg::Typed(typed) = input else { continue };
        let description = doc_text(&typed.attrs);
        typed.attrs.retain(|attr| !attr.path().is_ident("doc"));
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
            ArgKind::State
        } else {
            check_argument_type(&ident, &ty, errors);
            ArgKind::Json { description }
        };
        args.push(Arg {
            key: ident.unraw().to_string(),
            ty,
            kind,
        });
    }

    let output = match &item.sig.output {
        ReturnType::Default => Output::Unit,
        ReturnType::Type(_, ty) if last_segment_is(ty, "Result") => Output::Result((**ty).clone()),
        ReturnType::Type(_, ty) => {
            check_no_impl_trait(ty, "return", errors);
            Output::Value((**ty).clone())
        }
    };

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

#[derive(Default)]
struct Options {
    name: Option<LitStr>,
    description: Option<LitStr>,
    allow_gemini_refusal: bool,
    krate: Option<Path>,
}

/// `#[tool(name = "...", description = "...", allow_gemini_refusal, crate = path)]`.
fn parse_options(attr: TokenStream, errors: &mut Errors) -> Options {
    let mut options = Options::default();
    if attr.is_empty() {
        return options;
    }
    let metas = match syn::parse::Parser::parse2(
        Punctuated::<Meta, Token![,]>::parse_terminated,
        attr,
    ) {
        Ok(metas) => metas,
        Err(error) => {
            errors.push(syn::Error::new(
                error.span(),
                format!("#[tool(...)] takes `key = \"value\"` pairs and flags, separated by commas ({KEYS}): {error}"),
            ));
            return options;
        }
    };
    let mut seen: Vec<String> = Vec::new();
    for meta in metas {
        let path = meta.path();
        let key = path
            .get_ident()
            .map(|i| i.unraw().to_string())
            .unwrap_or_else(|| path.to_token_stream().to_string());
        if seen.contains(&key) {
            errors.at(
                path,
                format!("`{key}` is given twice in #[tool(...)]; keep one"),
            );
            continue;
        }
        seen.push(key.clone());
        match key.as_str() {
            "name" | "description" => {
                if let Some(lit) = string_value(&meta, &key, errors) {
                    if key == "name" {
                        options.name = Some(lit);
                    } else {
                        options.description = Some(lit);
                    }
                }
            }
            "allow_gemini_refusal" => match &meta {
                Meta::Path(_) => options.allow_gemini_refusal = true,
                _ => errors.at(
                    &meta,
                    "#[tool(allow_gemini_refusal)] is a flag and takes no value; write it alone",
                ),
            },
            "crate" => match &meta {
                Meta::NameValue(nv) => match &nv.value {
                    Expr::Path(p) if p.qself.is_none() => options.krate = Some(p.path.clone()),
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(s), ..
                    }) => match s.parse::<Path>() {
                        Ok(path) => options.krate = Some(path),
                        Err(_) => errors.at(
                            s,
                            "#[tool(crate = ...)] takes a path, such as `crate = my_toolwire`",
                        ),
                    },
                    other => errors.at(
                        other,
                        "#[tool(crate = ...)] takes a path, such as `crate = my_toolwire`",
                    ),
                },
                _ => errors.at(
                    &meta,
                    "#[tool(crate = ...)] takes a path, such as `crate = my_toolwire`",
                ),
            },
            _ => errors.at(
                path,
                format!("unknown key `{key}` in #[tool(...)]; the keys are {KEYS}"),
            ),
        }
    }
    options
}

/// The string literal of `key = "..."`, or an error.
fn string_value(meta: &Meta, key: &str, errors: &mut Errors) -> Option<LitStr> {
    let example = if key == "name" {
        "name = \"search_web\""
    } else {
        "description = \"Searches the web.\""
    };
    match meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(lit), ..
            }) => Some(lit.clone()),
            other => {
                errors.at(
                    other,
                    format!("#[tool({key} = ...)] takes a string literal, such as `{example}`"),
                );
                None
            }
        },
        _ => {
            errors.at(
                meta,
                format!("#[tool({key} = ...)] takes a string literal, such as `{example}`"),
            );
            None
        }
    }
}

/// What a tool function cannot be: generic, a method, unsafe, variadic.
fn check_signature(item: &ItemFn, errors: &mut Errors) {
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

fn check_no_impl_trait(ty: &Type, what: &str, errors: &mut Errors) {
    if let Type::ImplTrait(t) = ty {
        errors.at(
            t,
            format!("a #[tool] function cannot {what} `impl Trait`: write `async fn` for a future, or name a type that implements `Serialize`"),
        );
    }
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

/// The doc comment as a description: wrapped prose lines are joined with a space (a single
/// newline in Markdown is a soft wrap), while blank lines, list items, headings, quotes, tables
/// and fenced code keep their own lines.
fn doc_text(attrs: &[syn::Attribute]) -> String {
    let mut raw: Vec<String> = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
            {
                raw.extend(s.value().lines().map(str::to_owned));
            }
        }
    }
    join_doc_lines(&raw)
}

fn join_doc_lines(raw: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut in_fence = false;
    let mut prose_open = false;
    for line in raw {
        let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            out.push(line.to_owned());
            prose_open = false;
        } else if in_fence {
            out.push(line.to_owned());
        } else if trimmed.is_empty() {
            if out.last().is_some_and(|l| !l.is_empty()) {
                out.push(String::new());
            }
            prose_open = false;
        } else if prose_open && !starts_block(trimmed) {
            if let Some(last) = out.last_mut() {
                last.push(' ');
                last.push_str(trimmed);
            }
        } else {
            out.push(if starts_block(trimmed) { line } else { trimmed }.to_owned());
            prose_open = !trimmed.starts_with('#') && !trimmed.starts_with('|');
        }
    }
    out.join("\n").trim().to_owned()
}

/// Whether a Markdown line starts a block of its own (a list item, heading, quote or table row).
fn starts_block(line: &str) -> bool {
    let bullet = ["- ", "* ", "+ "].iter().any(|b| line.starts_with(b));
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let numbered =
        digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "));
    bullet || numbered || line.starts_with('#') || line.starts_with('>') || line.starts_with('|')
}

#[cfg(test)]
mod tests {
    use super::join_doc_lines;

    fn join(lines: &[&str]) -> String {
        join_doc_lines(&lines.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn wrapped_prose_becomes_one_line() {
        assert_eq!(
            join(&[
                " Reads a file of the drive: it",
                " travels as `files_read`."
            ]),
            "Reads a file of the drive: it travels as `files_read`."
        );
    }

    #[test]
    fn paragraphs_lists_and_code_keep_their_lines() {
        assert_eq!(
            join(&[
                " Searches.", "", "", " Modes:", " - fast", " - deep, which", " takes longer",
                " 2. two", "", " ```", " let x = 1;", "   indented();", " ```", " After.",
            ]),
            "Searches.\n\nModes:\n- fast\n- deep, which takes longer\n2. two\n\n```\nlet x = 1;\n  indented();\n```\nAfter."
        );
    }

    #[test]
    fn blank_docs_are_empty() {
        assert_eq!(join(&["", "   ", ""]), "");
    }
}
