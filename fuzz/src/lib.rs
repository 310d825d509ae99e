//! Input generators shared by the fuzz targets.
//!
//! Policy: random Unicode almost never makes two names share a form, so most names are built
//! from a small palette of pieces that collide often (safe and unsafe characters, meta-tool
//! look-alikes, names around the 64-character cut); a few are raw arbitrary strings.

pub mod streams;

use arbitrary::{Arbitrary, Result, Unstructured};
use serde_json::{Map, Number, Value};

/// Pieces names are built from: form characters, characters that become `_`, multi-byte and
/// multi-scalar characters, and pieces of the meta-tool names.
const PIECES: &[&str] = &[
    "a",
    "b",
    "A",
    "0",
    "_",
    "-",
    "/",
    ".",
    " ",
    ":",
    "é",
    "🦀",
    "👩\u{200d}🚀",
    "\u{0}",
    "\t",
    "mcp/",
    "mcp_",
    "tool",
    "search",
    "schema",
    "reset",
    "s",
    "x",
];

/// The names a census can take: the runtime's meta-tools and their look-alikes.
const WHOLE: &[&str] = &[
    "tool_search",
    "tool/search",
    "tool.search",
    "tool-search",
    "tool_schema",
    "tool/schema",
    "reset_tools",
    "reset-tools",
    "reset.tools",
    "tool_call",
    "tool/call",
    "tool.call",
    "mcp/a/b",
    "mcp_a_b",
    "mcp/a_b",
    "mcp_a/b",
    "",
];

/// A tool name shaped to collide.
#[derive(Clone, Debug)]
pub struct FuzzName(pub String);

impl<'a> Arbitrary<'a> for FuzzName {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let name = match u.int_in_range(0u8..=9)? {
            0 => String::arbitrary(u)?,
            1 => (*u.choose(WHOLE)?).to_owned(),
            2 => {
                // Around the 64-character cut: one piece repeated, then a short tail.
                let piece = *u.choose(PIECES)?;
                let times = u.int_in_range(56usize..=72)?;
                let mut name = piece.repeat(times);
                for _ in 0..u.int_in_range(0u8..=3)? {
                    name.push_str(u.choose(PIECES)?);
                }
                name
            }
            _ => {
                let mut name = String::new();
                for _ in 0..u.int_in_range(0u8..=6)? {
                    name.push_str(u.choose(PIECES)?);
                }
                name
            }
        };
        Ok(FuzzName(name))
    }
}

/// An arbitrary JSON value (bounded depth and width): what a tool's parameters may be.
#[derive(Clone, Debug)]
pub struct ArbJson(pub Value);

impl<'a> Arbitrary<'a> for ArbJson {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(ArbJson(json_value(u, 4)?))
    }
}

const SCHEMA_KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "description",
    "items",
    "additionalProperties",
    "$ref",
    "$defs",
    "",
];

fn json_value(u: &mut Unstructured<'_>, depth: u32) -> Result<Value> {
    let top = if depth == 0 { 5 } else { 8 };
    Ok(match u.int_in_range(0u8..=top)? {
        0 => Value::Null,
        1 => Value::Bool(bool::arbitrary(u)?),
        2 => Value::Number(Number::from(i64::arbitrary(u)?)),
        3 => Number::from_f64(f64::arbitrary(u)?).map_or(Value::Null, Value::Number),
        4 => Value::String(String::arbitrary(u)?),
        5 => Value::String((*u.choose(&["object", "string", "array", "integer"])?).to_owned()),
        6 => {
            let len = u.int_in_range(0usize..=4)?;
            let mut items = Vec::with_capacity(len);
            for _ in 0..len {
                items.push(json_value(u, depth - 1)?);
            }
            Value::Array(items)
        }
        _ => {
            let mut map = Map::new();
            for _ in 0..u.int_in_range(0u8..=5)? {
                let key = if bool::arbitrary(u)? {
                    (*u.choose(SCHEMA_KEYS)?).to_owned()
                } else {
                    String::arbitrary(u)?
                };
                map.insert(key, json_value(u, depth - 1)?);
            }
            Value::Object(map)
        }
    })
}
