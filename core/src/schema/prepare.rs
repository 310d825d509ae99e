//! `prepare_schema`: a schema made ready for one dialect (exact rewrites, then lossy ones with
//! their notes), or the reason it cannot travel there.
//!
//! Policy: a schema the dialect already takes is sent as it is, byte for byte. Otherwise:
//! references first (inlined, or kept where the dialect has recursion and the schema needs
//! it), then each node ([`super::rewrite`]), then [`crate::schema::check_schema`] once more, so what
//! leaves here always checks clean.

use serde::Serialize;
use serde_json::{Map, Value};

use super::check::check_schema;
use super::keywords::names_draft_07_or_older;
use super::keywords::{child, for_each_subschema_mut};
use super::refs::{no_recursion_why, ref_faults, siblings_ignored, Inliner, MAX_DEPTH, MAX_NODES};
use super::report::{Loss, RefusalReason, SchemaRefusal, SchemaStatus};
use super::rewrite::{Place, Rewriter};
use crate::schema::dialect::RefSupport;
use crate::schema::Dialect;
use crate::tools::ToolDefinition;

/// How to prepare.
///
/// ```
/// use toolwire_core::schema::PrepareOptions;
/// assert!(PrepareOptions::default().notes_in_descriptions);
/// assert!(!PrepareOptions::default().null_is_absent);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PrepareOptions {
    /// Write each loss into the description of the node it stood on, so the model still reads
    /// it, and OpenAI strict's "Send null to leave it out." on each property it made
    /// required-or-null, lost or not (default: yes).
    pub notes_in_descriptions: bool,
    /// The tool reads an explicit `null` for an optional property as the property's absence
    /// ([`crate::ToolDefinition::null_is_absent`]; default: no). Then OpenAI strict's
    /// required-or-null is exact for every optional property; without it, only for those whose
    /// own schema refuses `null` (the way back removes it), and a loss where the schema takes
    /// both `null` and absence (`tool-schema-wire.md`, "Strict, revised").
    pub null_is_absent: bool,
}

impl Default for PrepareOptions {
    fn default() -> Self {
        PrepareOptions {
            notes_in_descriptions: true,
            null_is_absent: false,
        }
    }
}

impl PrepareOptions {
    /// The options a tool's definition calls for: the defaults, with the definition's
    /// [`null_is_absent`](crate::ToolDefinition::null_is_absent).
    ///
    /// ```
    /// use toolwire_core::{schema::PrepareOptions, ToolDefinition};
    /// let def = ToolDefinition::new("t", "d", serde_json::json!({})).with_null_is_absent(true);
    /// assert!(PrepareOptions::for_definition(&def).null_is_absent);
    /// ```
    pub fn for_definition(definition: &ToolDefinition) -> PrepareOptions {
        PrepareOptions {
            null_is_absent: definition.null_is_absent,
            ..PrepareOptions::default()
        }
    }
}

/// A schema ready for one dialect: what to send, and what it lost on the way.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, SchemaStatus, prepare_schema};
/// let schema = json!({"type": "object", "properties": {"days": {"type": ["integer", "null"]}}});
/// let prepared = prepare_schema(Dialect::Gemini, &schema).unwrap();
/// assert_eq!(prepared.status, SchemaStatus::Rewritten);
/// assert_eq!(prepared.schema["properties"]["days"], json!({"type": "INTEGER", "nullable": true}));
/// assert!(prepared.losses.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prepared {
    /// The schema to send.
    pub schema: Value,
    /// As is, rewritten exactly, or lossy (never refused: that is the error).
    pub status: SchemaStatus,
    /// What the rewrite lost, in the order found (empty unless lossy).
    pub losses: Vec<Loss>,
}

/// Prepares `schema` for `dialect` with the default options: see [`prepare_schema_with`].
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, SchemaStatus, prepare_schema};
/// let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
/// let prepared = prepare_schema(Dialect::OpenAi, &schema).unwrap();
/// assert_eq!((prepared.status, &prepared.schema), (SchemaStatus::AsIs, &schema));
/// ```
pub fn prepare_schema(dialect: Dialect, schema: &Value) -> Result<Prepared, SchemaRefusal> {
    prepare_schema_with(dialect, schema, PrepareOptions::default())
}

/// Prepares `schema` (a tool's parameter schema) for `dialect`: as it is when the dialect takes
/// it; else rewritten (the exact rewrites of `tool-schema-wire.md` always, the lossy ones
/// recorded and, by default, written into the description of the node they stood on); or
/// refused, for what cannot travel (recursion where the dialect has none: `anthropic-strict`,
/// whose provider refuses it, and `gemini`, which takes no `$ref`; an external or dangling
/// `$ref`, a root that is not an object, a schema over the dialect's limits). The result always
/// passes [`crate::schema::check_schema`] for `dialect`; a schema is never emptied.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, PrepareOptions, SchemaStatus, prepare_schema_with};
/// let schema = json!({"type": "object", "properties": {"tag": {"type": "string", "pattern": "^[a-z]+$"}}});
/// let quiet = PrepareOptions { notes_in_descriptions: false, ..PrepareOptions::default() };
/// let prepared = prepare_schema_with(Dialect::AnthropicStrict, &schema, quiet).unwrap();
/// assert_eq!(prepared.status, SchemaStatus::Lossy);
/// assert_eq!(prepared.schema["properties"]["tag"], json!({"type": "string", "pattern": "^[a-z]+$"}));
/// assert_eq!(prepared.schema["additionalProperties"], false);
/// ```
pub fn prepare_schema_with(
    dialect: Dialect,
    schema: &Value,
    options: PrepareOptions,
) -> Result<Prepared, SchemaRefusal> {
    if check_schema(dialect, schema).is_empty() {
        return Ok(Prepared {
            schema: schema.clone(),
            status: SchemaStatus::AsIs,
            losses: Vec::new(),
        });
    }
    if !schema.is_object() {
        return Err(SchemaRefusal::new(
            dialect,
            "",
            "type",
            RefusalReason::RootNotObject,
            "the parameters must be an object schema",
        ));
    }
    let rules = dialect.rules();
    let faults = ref_faults(schema);
    let mut recursive = None;
    for fault in faults {
        let why = match fault.reason {
            RefusalReason::Recursive => {
                recursive.get_or_insert(fault);
                continue;
            }
            RefusalReason::ExternalRef => format!(
                "`{}` leaves the schema; only local references (`#/...`) travel",
                fault.reference
            ),
            RefusalReason::RefToNowhere => {
                format!("`{}` names nothing in the schema", fault.reference)
            }
            _ => "references nested too deeply".to_owned(),
        };
        return Err(SchemaRefusal::new(
            dialect,
            &fault.pointer,
            "$ref",
            fault.reason,
            why,
        ));
    }
    let mut working = match recursive {
        Some(fault) if rules.refs != RefSupport::LocalAndRecursive => {
            return Err(SchemaRefusal::new(
                dialect,
                &fault.pointer,
                "$ref",
                RefusalReason::Recursive,
                no_recursion_why(dialect, &fault.reference),
            ))
        }
        Some(_) => keep_references(dialect, schema)?,
        None => {
            let mut inliner = Inliner {
                root: schema,
                dialect,
                siblings_ignored: siblings_ignored(schema),
                budget: MAX_NODES,
            };
            inliner.inline(schema, "", &mut Vec::new())?
        }
    };
    let mut rewriter = Rewriter::new(dialect, options);
    rewriter.content_asserts = names_draft_07_or_older(schema);
    if recursive.is_some() {
        // References stay: what a property refuses is read through them.
        rewriter.references = working.clone();
    }
    rewriter.node(&mut working, "", Place::Root, 0)?;
    // What the rewrites could not mend (a size limit, or a case they do not know) is refused
    // here rather than sent to fail the request.
    if let Some(problem) = check_schema(dialect, &working).into_iter().next() {
        // A size limit is a refusal of its own; anything else is a case the rewrites do not
        // know, marked so (the property tests and the fuzzer look for the mark).
        let (reason, why) = if problem.pointer.is_empty()
            && rules.limits.is_some()
            && problem.why.contains("at most")
        {
            (RefusalReason::TooLarge, problem.why)
        } else {
            (
                RefusalReason::Inexpressible,
                format!("{} (left after rewriting)", problem.why),
            )
        };
        return Err(SchemaRefusal::new(
            dialect,
            &problem.pointer,
            &problem.keyword,
            reason,
            why,
        ));
    }
    let status = if rewriter.losses.is_empty() {
        SchemaStatus::Rewritten
    } else {
        SchemaStatus::Lossy
    };
    Ok(Prepared {
        schema: working,
        status,
        losses: rewriter.losses,
    })
}

/// A recursive schema for a dialect that has recursion: references stay, pointing into one
/// `$defs` at the root (`definitions` moves there); any other local reference cannot travel.
fn keep_references(dialect: Dialect, schema: &Value) -> Result<Value, SchemaRefusal> {
    let mut root = schema.clone();
    if let Value::Object(map) = &mut root {
        if let Some(Value::Object(old)) = map.remove("definitions") {
            let defs = map
                .entry("$defs")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(defs) = defs {
                for (name, def) in old {
                    defs.entry(name).or_insert(def);
                }
            }
        }
    }
    let defs: Vec<String> = root
        .get("$defs")
        .and_then(Value::as_object)
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default();
    retarget(&mut root, "", &defs, dialect, 0)?;
    Ok(root)
}

fn retarget(
    node: &mut Value,
    pointer: &str,
    defs: &[String],
    dialect: Dialect,
    depth: usize,
) -> Result<(), SchemaRefusal> {
    let Value::Object(map) = node else {
        return Ok(());
    };
    if depth > MAX_DEPTH {
        return Err(SchemaRefusal::new(
            dialect,
            pointer,
            "",
            RefusalReason::TooLarge,
            format!("nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    if let Some(Value::String(reference)) = map.get_mut("$ref") {
        let name = reference
            .strip_prefix("#/$defs/")
            .or_else(|| reference.strip_prefix("#/definitions/"));
        match name {
            _ if reference == "#" => {}
            Some(name) if defs.iter().any(|d| d == name) => {
                *reference = format!("#/$defs/{name}");
            }
            _ => {
                return Err(SchemaRefusal::new(
                    dialect,
                    pointer,
                    "$ref",
                    RefusalReason::Inexpressible,
                    format!("{dialect} takes a recursive schema only through `#` or `#/$defs/NAME`, not `{reference}`"),
                ))
            }
        }
    }
    let mut result = Ok(());
    for_each_subschema_mut(map, |segments, sub| {
        if result.is_ok() {
            result = retarget(sub, &child(pointer, segments), defs, dialect, depth + 1);
        }
    });
    result
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn recursion_travels_wherever_the_dialect_has_it() {
        let tree = json!({"type": "object", "properties": {
            "node": {"$ref": "#/$defs/Node"}}, "required": ["node"],
            "$defs": {"Node": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                "required": ["children"]}}});
        for dialect in Dialect::ALL {
            let prepared = prepare_schema(dialect, &tree);
            match dialect.rules().refs {
                RefSupport::LocalAndRecursive => {
                    let prepared = prepared.unwrap_or_else(|r| panic!("{dialect}: {r}"));
                    assert_eq!(
                        prepared.schema["properties"]["node"]["$ref"], "#/$defs/Node",
                        "{dialect}"
                    );
                    if dialect == Dialect::OpenAiStrict {
                        assert_eq!(
                            prepared.schema["$defs"]["Node"]["additionalProperties"],
                            false
                        );
                    } else {
                        // The broad dialects take it as it is.
                        assert_eq!(prepared.status, SchemaStatus::AsIs, "{dialect}");
                    }
                }
                _ => {
                    let refusal = prepared.unwrap_err();
                    assert_eq!(refusal.reason, RefusalReason::Recursive, "{dialect}");
                    assert_eq!(
                        refusal.pointer, "/$defs/Node/properties/children/items",
                        "{dialect}"
                    );
                }
            }
        }
        // Why, in each refusing dialect's own terms.
        let why = |dialect| prepare_schema(dialect, &tree).unwrap_err().why;
        assert!(why(Dialect::Gemini).contains("takes no `$ref`"));
        assert!(why(Dialect::AnthropicStrict).contains("its provider refuses recursive schemas"));
    }

    #[test]
    fn a_schema_that_is_not_an_object_is_refused_never_emptied() {
        for schema in [json!(false), json!("object"), json!([1])] {
            for dialect in Dialect::ALL {
                let refusal = prepare_schema(dialect, &schema).unwrap_err();
                assert_eq!(
                    refusal.reason,
                    RefusalReason::RootNotObject,
                    "{schema} {dialect}"
                );
            }
        }
        let def = crate::tools::ToolDefinition::new("t", "d", json!(false));
        assert_eq!(def.parameters_schema(), json!(false));
    }

    #[test]
    fn only_simple_patterns_reach_strict_messages_api() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string", "pattern": "^(?!x)[a-z]+$"},
            "b": {"type": "string", "pattern": "^(a)\\1$"},
            "c": {"type": "string", "pattern": "^[a-z]+\\\\1$"},
        }, "required": ["a", "b", "c"]});
        let prepared = prepare_schema(Dialect::AnthropicStrict, &schema).unwrap();
        let props = &prepared.schema["properties"];
        assert_eq!(props["a"].get("pattern"), None);
        assert_eq!(props["a"]["description"], "Must match ^(?!x)[a-z]+$.");
        assert_eq!(props["b"].get("pattern"), None);
        assert_eq!(
            props["c"]["pattern"], "^[a-z]+\\\\1$",
            "an escaped backslash is no backreference"
        );
        // Gemini and OpenAI strict take them.
        assert!(check_schema(
            Dialect::OpenAiStrict,
            &prepare_schema(Dialect::OpenAiStrict, &schema)
                .unwrap()
                .schema
        )
        .is_empty());
        assert_eq!(
            prepare_schema(Dialect::Gemini, &schema).unwrap().schema["properties"]["a"]["pattern"],
            "^(?!x)[a-z]+$"
        );
    }
}
