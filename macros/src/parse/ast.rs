//! The model of one `#[tool]` function: what parsing produces and validation and expansion
//! read (thiserror's `ast.rs`).

use proc_macro2::Span;
use syn::{Attribute, Ident, ItemFn, Path, Type};

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
    /// The JSON property name: the ident without `r#` (a `#[serde(rename)]` aside).
    pub key: String,
    /// The argument's name as written (`r#type` stays raw): the generated field's.
    pub ident: Ident,
    /// The argument's `#[serde(...)]` and `#[schemars(...)]` attributes, taken off the function
    /// (rustc knows neither there) and put on the argument's field of the generated arguments
    /// struct, where the derives read them.
    pub attrs: Vec<Attribute>,
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
