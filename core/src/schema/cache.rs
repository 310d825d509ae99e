//! Preparation, cached per schema, dialect and options: a request never rewrites a schema it
//! rewrote before (`tool-schema-wire.md`: "Preparation is pure and cached").
//!
//! Policy: the key is the schema's content (a hash, then equality) with the dialect and the
//! options that change the answer (a definition's `null_is_absent`), so every definition with
//! the same schema and the same options shares one preparation, whoever built it. The cache is
//! process-wide and bounded: past [`CAPACITY`] schemas it starts again empty rather than grow.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::Value;

use super::prepare::{prepare_schema_with, PrepareOptions, Prepared};
use super::report::SchemaRefusal;
use crate::schema::Dialect;
use crate::tools::ToolDefinition;

/// What preparing one schema for one dialect gave.
pub type Preparation = Result<Prepared, SchemaRefusal>;

/// Distinct (schema, dialect, options) triples kept before the cache starts again.
const CAPACITY: usize = 16_384;

type Entries = HashMap<(Dialect, PrepareOptions, u64), Vec<(Value, Arc<Preparation>)>>;

fn cache() -> &'static Mutex<(Entries, usize)> {
    static CACHE: OnceLock<Mutex<(Entries, usize)>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new((HashMap::new(), 0)))
}

/// [`crate::schema::prepare_schema`], cached: the first call for a schema's content and a
/// dialect prepares it, every later one shares that answer. A tool's schema is prepared with
/// [`prepare_definition_cached`], which also knows what the tool makes of `null`.
///
/// ```
/// use std::sync::Arc;
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, prepare_schema_cached};
/// let schema = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}});
/// let first = prepare_schema_cached(Dialect::Gemini, &schema);
/// let again = prepare_schema_cached(Dialect::Gemini, &schema.clone());
/// assert!(Arc::ptr_eq(&first, &again));
/// ```
pub fn prepare_schema_cached(dialect: Dialect, schema: &Value) -> Arc<Preparation> {
    cached(dialect, schema, PrepareOptions::default())
}

/// A tool's parameter schema ([`ToolDefinition::parameters_schema`]) prepared for `dialect`
/// with the options its definition calls for ([`PrepareOptions::for_definition`]: a tool that
/// reads `null` as absent loses nothing to OpenAI strict's required-or-null), cached. What the
/// wire formats, the rail and the command all send and judge.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{schema::{Dialect, prepare_definition_cached}, ToolDefinition};
/// let schema = json!({"type": "object", "additionalProperties": false,
///     "properties": {"limit": {"type": ["integer", "null"]}}});
/// let mcp = ToolDefinition::new("search", "Searches.", schema);
/// let own = mcp.clone().with_null_is_absent(true);
/// // An MCP server may read `"limit": null` apart from no `limit`: a loss. A `#[tool]` does not.
/// let lost = prepare_definition_cached(Dialect::OpenAiStrict, &mcp);
/// assert_eq!(lost.as_ref().as_ref().unwrap().losses.len(), 1);
/// let exact = prepare_definition_cached(Dialect::OpenAiStrict, &own);
/// assert!(exact.as_ref().as_ref().unwrap().losses.is_empty());
/// ```
pub fn prepare_definition_cached(
    dialect: Dialect,
    definition: &ToolDefinition,
) -> Arc<Preparation> {
    cached(
        dialect,
        &definition.parameters_schema(),
        PrepareOptions::for_definition(definition),
    )
}

fn cached(dialect: Dialect, schema: &Value, options: PrepareOptions) -> Arc<Preparation> {
    let key = (dialect, options, fingerprint(schema));
    {
        let guard = cache().lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(hit) = guard
            .0
            .get(&key)
            .and_then(|entries| entries.iter().find(|(s, _)| s == schema))
        {
            return hit.1.clone();
        }
    }
    // Prepared outside the lock: a large schema never holds up the other requests.
    let prepared = Arc::new(prepare_schema_with(dialect, schema, options));
    let mut guard = cache().lock().unwrap_or_else(PoisonError::into_inner);
    let (entries, count) = &mut *guard;
    if *count >= CAPACITY {
        entries.clear();
        *count = 0;
    }
    let slot = entries.entry(key).or_default();
    if let Some(existing) = slot.iter().find(|(s, _)| s == schema) {
        return existing.1.clone();
    }
    slot.push((schema.clone(), prepared.clone()));
    *count += 1;
    prepared
}

/// A hash of a JSON value's content (object keys in their order: equal maps in another order
/// only miss the cache).
fn fingerprint(value: &Value) -> u64 {
    let mut hasher = foldhash::fast::FixedState::with_seed(0x746f_6f6c_7769_7265).build_hasher();
    feed(value, &mut hasher);
    hasher.finish()
}

fn feed(value: &Value, h: &mut impl Hasher) {
    match value {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => h.write_u8(1 + u8::from(*b)),
        Value::Number(n) => {
            h.write_u8(3);
            if let Some(i) = n.as_i64() {
                h.write_i64(i);
            } else if let Some(u) = n.as_u64() {
                h.write_u64(u);
            } else {
                h.write_u64(n.as_f64().unwrap_or_default().to_bits());
            }
        }
        Value::String(s) => {
            h.write_u8(4);
            h.write(s.as_bytes());
            h.write_u8(0xff);
        }
        Value::Array(list) => {
            h.write_u8(5);
            h.write_usize(list.len());
            for item in list {
                feed(item, h);
            }
        }
        Value::Object(map) => {
            h.write_u8(6);
            h.write_usize(map.len());
            for (key, item) in map {
                h.write(key.as_bytes());
                h.write_u8(0xff);
                feed(item, h);
            }
        }
    }
}
