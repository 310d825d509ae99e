//! The attribute: `#[tool(name = "...", description = "...", allow_gemini_refusal, crate = path)]`.
//!
//! Policy: every bad key is reported, each at its own tokens, and the key is then ignored: an
//! unknown key lists the valid ones, a repeated key says to keep one, a value of the wrong kind
//! shows the right form.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, LitStr, Meta, Path, Token};

use super::Errors;

/// The keys `#[tool(...)]` takes, for the unknown-key message.
const KEYS: &str = "`name`, `description`, `allow_gemini_refusal`, `crate`";

/// What `#[tool(...)]` said; every key optional.
#[derive(Default)]
pub struct Options {
    /// `name = "..."`.
    pub name: Option<LitStr>,
    /// `description = "..."`.
    pub description: Option<LitStr>,
    /// `allow_gemini_refusal`.
    pub allow_gemini_refusal: bool,
    /// `crate = path`.
    pub krate: Option<Path>,
}

/// `#[tool(name = "...", description = "...", allow_gemini_refusal, crate = path)]`.
pub fn parse_options(attr: TokenStream, errors: &mut Errors) -> Options {
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
