//! Property tests of the schema half of the wire (`tool-schema-wire.md`): over generated JSON
//! Schemas (2020-12) and instances generated from them, with the `jsonschema` crate as the
//! reference validator.
//!
//! - every dialect: a schema is refused, or prepared into one that checks clean; never a
//!   refusal the rewriter left behind ("(left after rewriting)"), never a panic;
//! - exact means exact: a `Rewritten` schema accepts exactly the instances the original does
//!   (Gemini's OpenAPI style read back as JSON Schema first); a `Lossy` one in a non-strict
//!   dialect accepts every instance the original does (a lossy rewrite only widens);
//! - the way back (`openai-strict`, whose required-or-null changes every instance that leaves
//!   a property out): an instance valid under the original, written the strict way (`null` for
//!   every absent optional property), passes the prepared schema, and `restore_arguments` gives
//!   the original instance back; where preparing lost nothing, whatever the prepared schema
//!   accepts comes back as something the original accepts.
//!
//! `rust_shapes.rs` holds the same properties over schemars' own output.
//!
//! Instances come from a seed, with a small generator that aims at the schema (valid ones) and
//! then breaks them (probably invalid ones); which are valid is always the validator's word.
//! Arguments are always objects, so only object instances are used. The way back has two
//! limits the spec implies: an optional property that takes `null` may come back as `null`
//! (strict cannot tell "left out" from "null" there; the tool takes both), and an instance that
//! needs an object left open is skipped (strict closes every object, a loss the spec names).
//!
//! Each place where these properties once found the implementation at odds with the spec is
//! pinned by a `finding_*` test with its minimal schema in `spec_cases.rs`. Cases: 1,500
//! for the first property, 600 for each other; the seed is fixed (set `PROPTEST_RNG_SEED` for others)
//! and no failure file is written.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm, RngSeed};
use serde_json::{json, Map, Value};
use toolwire_core::schema::{
    check_schema, prepare_schema, restore_arguments, Dialect, SchemaStatus,
};

// ---------------------------------------------------------------------------------------------
// Schemas

const NAMES: &[&str] = &["a", "b", "c", "kind", "id", "n", "tags"];
const PATTERNS: &[&str] = &["^[a-z]+$", "^[0-9]{2,4}$", "b", "^x"];
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "email",
    "uuid",
    "uri",
    "ipv4",
    "hostname",
    "duration",
];
const WORDS: &[&str] = &["x", "y", "z", "red", "blue"];

/// Where a `$ref` will go, chosen once the definitions are known (see [`with_refs`]).
const REF_MARK: &str = "@ref";

fn description() -> impl Strategy<Value = Option<String>> {
    prop::option::weighted(
        0.25,
        prop::sample::select(vec!["What it is.".to_owned(), "A value  ".to_owned()]),
    )
}

fn put(map: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        map.insert(key.to_owned(), value);
    }
}

fn string_schema() -> impl Strategy<Value = Value> {
    (
        prop::option::weighted(0.3, 0u64..3),
        prop::option::weighted(0.3, 1u64..6),
        prop::option::weighted(0.3, prop::sample::select(PATTERNS)),
        prop::option::weighted(0.3, prop::sample::select(FORMATS)),
        description(),
    )
        .prop_map(|(min, max, pattern, format, description)| {
            let mut map = Map::new();
            map.insert("type".into(), json!("string"));
            put(&mut map, "minLength", min.map(Value::from));
            put(&mut map, "maxLength", max.map(Value::from));
            put(&mut map, "pattern", pattern.map(Value::from));
            put(&mut map, "format", format.map(Value::from));
            put(&mut map, "description", description.map(Value::from));
            Value::Object(map)
        })
}

/// A bound: an integer, or a number with a fraction.
fn bound() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => (-5i64..8).prop_map(Value::from),
        1 => prop::sample::select(vec![-2.5f64, 0.5, 2.5, 3.75]).prop_map(Value::from),
    ]
}

fn numeric_schema() -> impl Strategy<Value = Value> {
    (
        prop::bool::weighted(0.6),
        prop::option::weighted(0.3, bound()),
        prop::option::weighted(0.3, bound()),
        prop::option::weighted(0.3, bound()),
        prop::option::weighted(0.3, bound()),
        prop::option::weighted(
            0.1,
            prop::sample::select(vec![json!(2), json!(3), json!(0.5)]),
        ),
        description(),
    )
        .prop_map(|(integer, min, max, xmin, xmax, multiple, description)| {
            let mut map = Map::new();
            let kind = if integer { "integer" } else { "number" };
            map.insert("type".into(), json!(kind));
            put(&mut map, "minimum", min);
            put(&mut map, "maximum", max);
            put(&mut map, "exclusiveMinimum", xmin);
            put(&mut map, "exclusiveMaximum", xmax);
            put(&mut map, "multipleOf", multiple);
            put(&mut map, "description", description.map(Value::from));
            Value::Object(map)
        })
}

fn enum_schema() -> impl Strategy<Value = Value> {
    let strings = prop::sample::subsequence(WORDS, 1..4)
        .prop_map(|v| v.into_iter().map(Value::from).collect::<Vec<_>>());
    let numbers = prop::sample::subsequence(vec![json!(1), json!(2.5), json!(-3), json!(0)], 1..4);
    let mixed =
        prop::sample::subsequence(vec![json!("x"), json!(1), json!(true), json!(null)], 1..4);
    (
        prop_oneof![3 => strings, 2 => numbers, 1 => mixed],
        0u8..4,
        description(),
    )
        .prop_map(|(values, shape, description)| {
            let mut map = Map::new();
            let all_strings = values.iter().all(Value::is_string);
            match shape {
                // `const` of the first value.
                0 => {
                    map.insert("const".into(), values[0].clone());
                }
                // Typed, where the values agree on a type.
                1 if all_strings => {
                    map.insert("type".into(), json!("string"));
                    map.insert("enum".into(), Value::Array(values));
                }
                1 if values.iter().all(Value::is_number) => {
                    map.insert("type".into(), json!("number"));
                    map.insert("enum".into(), Value::Array(values));
                }
                2 if all_strings => {
                    map.insert("type".into(), json!("string"));
                    map.insert("const".into(), values[0].clone());
                }
                _ => {
                    map.insert("enum".into(), Value::Array(values));
                }
            }
            put(&mut map, "description", description.map(Value::from));
            Value::Object(map)
        })
}

fn leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => string_schema(),
        4 => numeric_schema(),
        3 => enum_schema(),
        1 => Just(json!({"type": "boolean"})),
        1 => Just(json!({"type": "null"})),
        1 => Just(json!({})),
        1 => Just(json!({"type": ["string", "integer"]})),
        1 => Just(json!({"type": ["string", "integer", "null"]})),
        // A reference, resolved once the definitions are known; sometimes with siblings.
        2 => (0usize..8, 0u8..4).prop_map(|(k, siblings)| {
            let mut map = Map::new();
            map.insert("$ref".into(), json!(format!("{REF_MARK}{k}")));
            match siblings {
                0 => { map.insert("description".into(), json!("Referred.")); }
                1 => { map.insert("minLength".into(), json!(1)); }
                _ => {}
            }
            Value::Object(map)
        }),
    ]
    .boxed()
}

/// `schema` also accepting `null`: a type array, `anyOf: [X, {type: null}]`, or as it is.
fn maybe_null(inner: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    (inner, 0u8..8)
        .prop_map(|(schema, how)| match how {
            0 | 1 => match &schema {
                Value::Object(map) => match map.get("type") {
                    Some(Value::String(t)) if t != "null" => {
                        let mut map = map.clone();
                        map.insert("type".into(), json!([t, "null"]));
                        Value::Object(map)
                    }
                    _ => schema,
                },
                _ => schema,
            },
            2 => json!({"anyOf": [schema, {"type": "null"}]}),
            3 => json!({"anyOf": [{"type": "null"}, schema], "description": "Or nothing."}),
            _ => schema,
        })
        .boxed()
}

fn object_schema(inner: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    (
        prop::collection::btree_map(prop::sample::select(NAMES), inner.clone(), 0..4),
        any::<u8>(),
        0u8..6,
        inner,
        prop::bool::weighted(0.8),
        description(),
    )
        .prop_map(
            |(properties, required_mask, additional, extra, typed, description)| {
                let mut map = Map::new();
                if typed {
                    map.insert("type".into(), json!("object"));
                }
                let required: Vec<Value> = properties
                    .keys()
                    .enumerate()
                    .filter(|(i, _)| required_mask & (1 << i) != 0)
                    .map(|(_, name)| json!(name))
                    .collect();
                map.insert(
                    "properties".into(),
                    Value::Object(
                        properties
                            .into_iter()
                            .map(|(k, v)| (k.to_owned(), v))
                            .collect(),
                    ),
                );
                if !required.is_empty() {
                    map.insert("required".into(), Value::Array(required));
                }
                match additional {
                    0 => {
                        map.insert("additionalProperties".into(), json!(false));
                    }
                    1 => {
                        map.insert("additionalProperties".into(), json!(true));
                    }
                    2 => {
                        map.insert("additionalProperties".into(), extra);
                    }
                    _ => {}
                }
                put(&mut map, "description", description.map(Value::from));
                Value::Object(map)
            },
        )
        .boxed()
}

fn array_schema(inner: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    (
        prop::option::weighted(0.9, inner),
        prop::option::weighted(0.3, 0u64..3),
        prop::option::weighted(0.3, 1u64..4),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(items, min, max, unique)| {
            let mut map = Map::new();
            map.insert("type".into(), json!("array"));
            put(&mut map, "items", items);
            put(&mut map, "minItems", min.map(Value::from));
            put(&mut map, "maxItems", max.map(Value::from));
            if unique {
                map.insert("uniqueItems".into(), json!(true));
            }
            Value::Object(map)
        })
        .boxed()
}

/// A discriminated `oneOf`: objects that each require a different `const` of `kind`.
fn discriminated(inner: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    (
        prop::collection::vec(
            (
                prop::collection::btree_map(prop::sample::select(&NAMES[..3]), inner, 0..3),
                prop::bool::weighted(0.8),
            ),
            2..4,
        ),
        prop::bool::weighted(0.3),
        any::<bool>(),
    )
        .prop_map(|(branches, closed, as_enum)| {
            let branches: Vec<Value> = branches
                .into_iter()
                .enumerate()
                .map(|(i, (props, typed))| {
                    let tag = format!("k{i}");
                    let mut properties: Map<String, Value> =
                        props.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                    let discriminator = if as_enum {
                        json!({"type": "string", "enum": [tag]})
                    } else {
                        json!({"const": tag})
                    };
                    properties.insert("kind".into(), discriminator);
                    let mut branch = Map::new();
                    if typed {
                        branch.insert("type".into(), json!("object"));
                    }
                    branch.insert("properties".into(), Value::Object(properties));
                    branch.insert("required".into(), json!(["kind"]));
                    if closed {
                        branch.insert("additionalProperties".into(), json!(false));
                    }
                    Value::Object(branch)
                })
                .collect();
            json!({"oneOf": branches})
        })
        .boxed()
}

/// `allOf` of objects that merge: different properties, each branch's own `required`.
fn all_of_objects(inner: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    (
        prop::collection::btree_map(prop::sample::select(&NAMES[..3]), inner.clone(), 1..3),
        prop::collection::btree_map(prop::sample::select(&NAMES[3..]), inner, 1..3),
        0u8..4,
        any::<bool>(),
    )
        .prop_map(|(left, right, shape, required)| {
            let props = |m: std::collections::BTreeMap<&str, Value>| -> Value {
                Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            };
            let first_name = left.keys().next().map(|k| (*k).to_owned());
            let mut a = json!({"type": "object", "properties": props(left)});
            if required {
                a["required"] = json!([first_name]);
            }
            let mut b = json!({"properties": props(right)});
            match shape {
                // A closed branch: merging it with the other's properties would not be exact.
                0 => b["additionalProperties"] = json!(false),
                1 => b["type"] = json!("object"),
                _ => {}
            }
            json!({"allOf": [a, b]})
        })
        .boxed()
}

/// Keywords few dialects take, for the "no panic, checks clean, only widens" properties.
fn rare(inner: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    (inner.clone(), inner, 0u8..7)
        .prop_map(|(x, y, which)| match which {
            0 => json!({"type": "string", "not": {"const": "no"}}),
            1 => json!({"type": "object", "properties": {"a": x},
                        "patternProperties": {"^p": y}, "propertyNames": {"maxLength": 3}}),
            2 => json!({"type": "object", "properties": {"a": x, "b": y},
                        "dependentRequired": {"a": ["b"]}, "minProperties": 1}),
            3 => json!({"type": "array", "prefixItems": [x], "items": y, "contains": {"type": "string"}}),
            4 => json!({"if": {"type": "string"}, "then": {"minLength": 1}, "else": y}),
            5 => json!({"type": "object", "properties": {"a": x}, "maxProperties": 2,
                        "$comment": "annotation", "examples": [{"a": 1}]}),
            _ => json!({"type": "array", "items": x, "minItems": 2, "default": []}),
        })
        .boxed()
}

fn schema_node() -> BoxedStrategy<Value> {
    leaf()
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                4 => object_schema(inner.clone()),
                3 => array_schema(inner.clone()),
                3 => maybe_null(inner.clone()),
                2 => prop::collection::vec(inner.clone(), 2..4).prop_map(|b| json!({"anyOf": b})),
                2 => prop::collection::vec(inner.clone(), 2..4).prop_map(|b| json!({"oneOf": b})),
                1 => (string_schema(), numeric_schema()).prop_map(|(s, n)| json!({"oneOf": [s, n]})),
                2 => discriminated(inner.clone()),
                2 => all_of_objects(inner.clone()),
                1 => rare(inner),
            ]
        })
        .boxed()
}

/// Replaces each reference mark with a reference to definition `k mod count` among the
/// definitions allowed (`count` of them), or with a plain string schema when there are none.
fn with_refs(node: &mut Value, count: usize, defs_key: &str) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(mark)) = map.get("$ref") {
                if let Some(k) = mark.strip_prefix(REF_MARK) {
                    let k: usize = k.parse().unwrap_or(0);
                    if count == 0 {
                        map.remove("$ref");
                        map.insert("type".into(), json!("string"));
                    } else {
                        map.insert("$ref".into(), json!(format!("#/{defs_key}/d{}", k % count)));
                    }
                }
            }
            for value in map.values_mut() {
                with_refs(value, count, defs_key);
            }
        }
        Value::Array(list) => list.iter_mut().for_each(|v| with_refs(v, count, defs_key)),
        _ => {}
    }
}

/// A tool's parameter schema: an object root, some properties, maybe definitions (each may
/// refer only to the ones before it, so nothing recurses).
fn tool_schema() -> impl Strategy<Value = Value> {
    (
        prop::collection::btree_map(prop::sample::select(NAMES), schema_node(), 1..5),
        any::<u8>(),
        prop::collection::vec(schema_node(), 0..3),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.15),
        description(),
        prop_oneof![12 => Just(0u8), 1 => 1u8..8],
    )
        .prop_map(
            |(properties, required_mask, mut defs, dollar_defs, closed, description, extra)| {
                let defs_key = if dollar_defs { "$defs" } else { "definitions" };
                for (i, def) in defs.iter_mut().enumerate() {
                    with_refs(def, i, defs_key);
                }
                let required: Vec<Value> = properties
                    .keys()
                    .enumerate()
                    .filter(|(i, _)| required_mask & (1 << i) != 0)
                    .map(|(_, name)| json!(name))
                    .collect();
                let mut root = Map::new();
                root.insert("type".into(), json!("object"));
                let mut properties: Value = Value::Object(
                    properties
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                );
                with_refs(&mut properties, defs.len(), defs_key);
                root.insert("properties".into(), properties);
                root.insert("required".into(), Value::Array(required));
                if closed {
                    root.insert("additionalProperties".into(), json!(false));
                }
                put(&mut root, "description", description.map(Value::from));
                // What the root may carry beyond the usual: what the broad dialects rewrite.
                match extra {
                    1 => {
                        root.remove("type");
                    }
                    2 => {
                        root.insert("$comment".into(), json!("an annotation"));
                    }
                    3 => {
                        root.insert(
                            "anyOf".into(),
                            json!([{"required": ["a"]}, {"minProperties": 1}]),
                        );
                    }
                    4 => {
                        root.insert(
                            "oneOf".into(),
                            json!([{"required": ["a"]}, {"required": ["b"]}]),
                        );
                    }
                    5 => {
                        root.insert(
                            "allOf".into(),
                            json!([{"properties": {"c": {"type": "string"}}}]),
                        );
                    }
                    6 => {
                        root.insert("not".into(), json!({"required": ["zz"]}));
                    }
                    7 => {
                        root.insert("type".into(), json!(["object", "null"]));
                    }
                    _ => {}
                }
                if !defs.is_empty() {
                    let defs: Map<String, Value> = defs
                        .into_iter()
                        .enumerate()
                        .map(|(i, d)| (format!("d{i}"), d))
                        .collect();
                    root.insert(defs_key.into(), Value::Object(defs));
                }
                Value::Object(root)
            },
        )
}

// ---------------------------------------------------------------------------------------------
// Instances

/// A small deterministic generator (splitmix64): instances follow from the case's seed.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, list: &'a [T]) -> &'a T {
        &list[self.below(list.len())]
    }
}

/// The node a `$ref` names, in `root` (local references only).
fn follow<'a>(root: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..16 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => match r.strip_prefix('#').and_then(|p| root.pointer(p)) {
                Some(target) => schema = target,
                None => return schema,
            },
            None => return schema,
        }
    }
    schema
}

/// The node with its `$ref` and `allOf` branches merged in, shallowly (good enough to aim at).
fn gathered(root: &Value, schema: &Value, depth: usize) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(map) = schema.as_object() else {
        return out;
    };
    let mut parts = vec![map.clone()];
    if map.contains_key("$ref") {
        parts.push(gathered(root, follow(root, schema), depth + 1));
    }
    if let Some(Value::Array(branches)) = map.get("allOf") {
        if depth < 8 {
            parts.extend(branches.iter().map(|b| gathered(root, b, depth + 1)));
        }
    }
    for part in parts {
        let before: Vec<String> = out.keys().cloned().collect();
        for (key, value) in part {
            // `additionalProperties` sees only the properties beside it: a branch's properties
            // do not join a node that has it (nor the other way round).
            let beside = match key.as_str() {
                "properties" => "additionalProperties",
                "additionalProperties" => "properties",
                _ => "",
            };
            if before.iter().any(|k| k == beside) {
                continue;
            }
            match (key.as_str(), out.get_mut(&key), value) {
                ("properties", Some(Value::Object(have)), Value::Object(more)) => {
                    for (k, v) in more {
                        have.entry(k).or_insert(v);
                    }
                }
                ("required", Some(Value::Array(have)), Value::Array(more)) => have.extend(more),
                ("$ref" | "allOf", _, _) => {}
                (_, None, value) => {
                    out.insert(key, value);
                }
                _ => {}
            }
        }
    }
    out
}

struct Instances<'a> {
    root: &'a Value,
    rng: Rng,
    /// Whether objects may carry properties their schema does not declare.
    extras: bool,
}

impl Instances<'_> {
    fn any_value(&mut self) -> Value {
        self.rng
            .pick(&[
                json!(null),
                json!(true),
                json!(3),
                json!(-1.5),
                json!("s"),
                json!([]),
                json!({}),
            ])
            .clone()
    }

    fn value(&mut self, schema: &Value, depth: usize) -> Value {
        if depth > 12 {
            return json!(null);
        }
        let map = match schema {
            Value::Bool(_) => return self.any_value(),
            Value::Object(_) => gathered(self.root, schema, 0),
            _ => return json!(null),
        };
        if let Some(value) = map.get("const") {
            return value.clone();
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            if !values.is_empty() {
                return self.rng.pick(values).clone();
            }
        }
        for union in ["oneOf", "anyOf"] {
            if let Some(Value::Array(branches)) = map.get(union) {
                if !branches.is_empty() {
                    let branch = self.rng.pick(branches).clone();
                    let mut merged = map.clone();
                    merged.remove(union);
                    let branch = gathered(self.root, &branch, 0);
                    for (k, v) in branch {
                        merged.insert(k, v);
                    }
                    return self.value(&Value::Object(merged), depth + 1);
                }
            }
        }
        let kind = match map.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) if !ts.is_empty() => {
                self.rng.pick(ts).as_str().unwrap_or("null").to_owned()
            }
            _ if map.contains_key("properties") => "object".into(),
            _ if map.contains_key("items") || map.contains_key("prefixItems") => "array".into(),
            _ if map.contains_key("minLength") || map.contains_key("pattern") => "string".into(),
            _ if map.contains_key("minimum") => "number".into(),
            _ => return self.any_value(),
        };
        match kind.as_str() {
            "null" => json!(null),
            "boolean" => json!(self.rng.chance(50)),
            "integer" | "number" => self.number(&map, kind == "integer"),
            "string" => self.string(&map),
            "array" => {
                let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
                let max = map.get("maxItems").and_then(Value::as_u64).unwrap_or(3) as usize;
                let len = min + self.rng.below(max.saturating_sub(min) + 1);
                let mut items = Vec::new();
                for i in 0..len.min(4) {
                    let item_schema = map
                        .get("prefixItems")
                        .and_then(|p| p.get(i))
                        .or_else(|| map.get("items"))
                        .cloned()
                        .unwrap_or(json!({}));
                    items.push(self.value(&item_schema, depth + 1));
                }
                Value::Array(items)
            }
            "object" => {
                let mut out = Map::new();
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if let Some(Value::Object(props)) = map.get("properties") {
                    for (name, sub) in props {
                        if required.contains(&name.as_str()) || self.rng.chance(60) {
                            let value = self.value(sub, depth + 1);
                            out.insert(name.clone(), value);
                        }
                    }
                }
                if self.extras
                    && map.get("additionalProperties") != Some(&json!(false))
                    && self.rng.chance(20)
                {
                    let value = match map.get("additionalProperties") {
                        Some(sub @ Value::Object(_)) => self.value(sub, depth + 1),
                        _ => json!("extra"),
                    };
                    out.insert("zz".into(), value);
                }
                Value::Object(out)
            }
            _ => self.any_value(),
        }
    }

    fn number(&mut self, map: &Map<String, Value>, integer: bool) -> Value {
        let get = |k: &str| map.get(k).and_then(Value::as_f64);
        let lo = match (get("minimum"), get("exclusiveMinimum")) {
            (Some(a), Some(b)) => Some(a.max(b + 1.0)),
            (a, b) => a.or(b.map(|b| b + 1.0)),
        };
        let hi = match (get("maximum"), get("exclusiveMaximum")) {
            (Some(a), Some(b)) => Some(a.min(b - 1.0)),
            (a, b) => a.or(b.map(|b| b - 1.0)),
        };
        let candidates = [
            lo.unwrap_or(0.0),
            hi.unwrap_or(4.0),
            lo.unwrap_or(-3.0) + 0.5,
            get("exclusiveMinimum").unwrap_or(1.0),
            get("exclusiveMaximum").unwrap_or(7.0),
            0.0,
            (self.rng.below(21) as f64) - 10.0,
        ];
        let mut x = *self.rng.pick(&candidates);
        if let Some(m) = get("multipleOf") {
            x = (x / m).ceil() * m;
        }
        if integer || self.rng.chance(40) {
            let i = x.ceil();
            if (-1e9..1e9).contains(&i) {
                return json!(i as i64);
            }
        }
        json!(x)
    }

    fn string(&mut self, map: &Map<String, Value>) -> Value {
        let by_format = |f: &str| match f {
            "date-time" => "2024-05-06T07:08:09Z",
            "date" => "2024-05-06",
            "time" => "07:08:09Z",
            "email" => "a@b.io",
            "uuid" => "123e4567-e89b-12d3-a456-426614174000",
            "uri" => "https://x.io/a",
            "ipv4" => "10.0.0.1",
            "hostname" => "example.com",
            "duration" => "P1D",
            _ => "plain",
        };
        let by_pattern = |p: &str| match p {
            "^[a-z]+$" => "abc",
            "^[0-9]{2,4}$" => "123",
            "b" => "abc",
            "^x" => "xy",
            _ => "abc",
        };
        let mut s = if let Some(f) = map.get("format").and_then(Value::as_str) {
            if self.rng.chance(80) {
                by_format(f).to_owned()
            } else {
                "not a format".to_owned()
            }
        } else if let Some(p) = map.get("pattern").and_then(Value::as_str) {
            by_pattern(p).to_owned()
        } else {
            (*self.rng.pick(&["", "a", "hello", "x", "red", "2024-05-06"])).to_owned()
        };
        if !map.contains_key("format") && !map.contains_key("pattern") {
            let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = map.get("maxLength").and_then(Value::as_u64).unwrap_or(64) as usize;
            while s.chars().count() < min {
                s.push('q');
            }
            if s.chars().count() > max {
                s = s.chars().take(max).collect();
            }
        }
        json!(s)
    }
}

/// A copy of `value` with one part changed to something that probably breaks the schema.
pub(super) fn mutate(rng: &mut Rng, value: &Value) -> Value {
    let mut out = value.clone();
    let mut at = &mut out;
    // Walk down a few steps at random.
    for _ in 0..rng.below(4) {
        let next_key = match &*at {
            Value::Object(m) if !m.is_empty() => {
                let keys: Vec<String> = m.keys().cloned().collect();
                Some(rng.pick(&keys).clone())
            }
            Value::Array(l) if !l.is_empty() => Some(rng.below(l.len()).to_string()),
            _ => None,
        };
        let Some(key) = next_key else { break };
        at = match at {
            Value::Object(m) => m.get_mut(&key).expect("a key just seen"),
            Value::Array(l) => &mut l[key.parse::<usize>().expect("an index")],
            _ => unreachable!(),
        };
    }
    match (rng.below(6), &mut *at) {
        (0, Value::Object(m)) if !m.is_empty() => {
            let keys: Vec<String> = m.keys().cloned().collect();
            m.remove(rng.pick(&keys));
        }
        (1, Value::Object(m)) => {
            m.insert("zz".into(), json!(1));
        }
        (2, Value::Number(n)) => {
            *at = json!(n.as_f64().unwrap_or(0.0) + 0.5);
        }
        (3, Value::Array(l)) => {
            l.push(json!("extra"));
            l.push(json!("extra"));
        }
        (4, Value::String(s)) => {
            *at = json!(format!("{s}#Z"));
        }
        _ => {
            *at = rng
                .pick(&[
                    json!(null),
                    json!("s"),
                    json!(1.5),
                    json!(7),
                    json!(true),
                    json!([]),
                    json!({}),
                ])
                .clone();
        }
    }
    out
}

/// Instances for `schema`: `count` aimed at it, then (with `broken`) as many broken on purpose;
/// deduplicated.
pub(super) fn instances(
    schema: &Value,
    seed: u64,
    count: usize,
    extras: bool,
    broken: bool,
) -> Vec<Value> {
    let mut gen = Instances {
        root: schema,
        rng: Rng(seed),
        extras,
    };
    let mut out: Vec<Value> = Vec::new();
    for _ in 0..count {
        let value = gen.value(schema, 0);
        if !out.contains(&value) {
            out.push(value);
        }
    }
    // Arguments are always an object.
    out.retain(Value::is_object);
    if out.is_empty() {
        out.push(json!({}));
    }
    let mut rng = Rng(seed ^ 0x5eed);
    for i in 0..if broken { count } else { 0 } {
        let base = out[i % out.len()].clone();
        let broken = mutate(&mut rng, &base);
        if broken.is_object() && !out.contains(&broken) {
            out.push(broken);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Validation

/// The reference validator for `schema`, compiled once per thread (the strict writing asks
/// for the same branches again and again).
pub(super) fn validator(schema: &Value) -> Rc<jsonschema::Validator> {
    thread_local! {
        static COMPILED: RefCell<HashMap<String, Rc<jsonschema::Validator>>> =
            RefCell::new(HashMap::new());
    }
    let key = schema.to_string();
    if let Some(hit) = COMPILED.with(|c| c.borrow().get(&key).cloned()) {
        return hit;
    }
    let compiled = Rc::new(
        toolwire_core::schema::arguments_validator_options()
            .build(schema)
            .unwrap_or_else(|e| panic!("the validator refuses {schema}: {e}")),
    );
    COMPILED.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() > 4_096 {
            c.clear();
        }
        c.insert(key, compiled.clone());
    });
    compiled
}

/// A Gemini (OpenAPI 3.0 subset) schema read back as JSON Schema: type names in lower case,
/// `nullable: true` as "or null".
fn from_openapi(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    let mut nullable = false;
    for (key, value) in map {
        let value = match key.as_str() {
            "nullable" => {
                nullable = value == &json!(true);
                continue;
            }
            "type" => match value {
                Value::String(t) => json!(t.to_ascii_lowercase()),
                other => other.clone(),
            },
            "properties" => match value {
                Value::Object(props) => Value::Object(
                    props
                        .iter()
                        .map(|(k, v)| (k.clone(), from_openapi(v)))
                        .collect(),
                ),
                other => other.clone(),
            },
            "items" => from_openapi(value),
            "anyOf" => match value {
                Value::Array(list) => Value::Array(list.iter().map(from_openapi).collect()),
                other => other.clone(),
            },
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    if nullable {
        json!({"anyOf": [Value::Object(out), {"type": "null"}]})
    } else {
        Value::Object(out)
    }
}

/// The schema a dialect's prepared schema means, as JSON Schema.
pub(super) fn meaning(dialect: Dialect, prepared: &Value) -> Value {
    if dialect == Dialect::Gemini {
        from_openapi(prepared)
    } else {
        prepared.clone()
    }
}

pub(super) fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        rng_algorithm: RngAlgorithm::ChaCha,
        max_shrink_iters: 2_000,
        // The same cases on every run (CI included); `PROPTEST_RNG_SEED` still picks others.
        rng_seed: match Config::default().rng_seed {
            RngSeed::Random => RngSeed::Fixed(0x746f_6f6c_7769_7265),
            chosen => chosen,
        },
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// The way back: strict writing

/// `schema` as a document of its own: the root's definitions beside it.
fn with_defs(root: &Value, schema: &Value) -> Option<Value> {
    let mut probe = match schema {
        Value::Object(m) => m.clone(),
        Value::Bool(true) => Map::new(),
        _ => return None,
    };
    for defs in ["$defs", "definitions"] {
        if let Some(d) = root.get(defs) {
            probe.insert(defs.into(), d.clone());
        }
    }
    Some(Value::Object(probe))
}

/// Whether `schema` (standing in `root`) takes `null`.
fn takes_null(root: &Value, schema: &Value) -> bool {
    with_defs(root, schema).is_some_and(|s| validator(&s).is_valid(&json!(null)))
}

/// The branch of a union `instance` matches (validated with the root's definitions): for an
/// object, first one that declares all its keys (strict closes every object, so that is the
/// branch the strict form goes by).
fn matching_branch<'a>(root: &Value, branches: &'a [Value], instance: &Value) -> Option<&'a Value> {
    let matches =
        |branch: &&Value| with_defs(root, branch).is_some_and(|s| validator(&s).is_valid(instance));
    let declares_all =
        |branch: &&Value| match (instance, gathered(root, branch, 0).get("properties")) {
            (Value::Object(fields), Some(Value::Object(props))) => {
                fields.keys().all(|k| props.contains_key(k))
            }
            (Value::Object(fields), _) => fields.is_empty(),
            _ => true,
        };
    branches
        .iter()
        .find(|b| declares_all(b) && matches(b))
        .or_else(|| branches.iter().find(matches))
}

/// `instance` as OpenAI strict sends it: `null` for every absent optional property of every
/// object (the union branch it matches, for a union), recursively. With `only_nullable`, only
/// for the properties whose own schema takes `null`: what the way back must leave (strict
/// cannot tell "left out" from "null" there, and the tool takes both). Returns whether every
/// object's keys were declared (strict closes every object: an instance that needs an open
/// one is a loss the spec names, not a fault of the way back).
pub(super) fn strictly(
    root: &Value,
    schema: &Value,
    instance: &mut Value,
    depth: usize,
    only_nullable: bool,
) -> bool {
    if depth > 16 {
        return true;
    }
    let mut map = gathered(root, schema, 0);
    // A branch may hold a union of its own: resolve until none is left (bounded).
    for union in ["anyOf", "oneOf"].into_iter().cycle().take(16) {
        if let Some(Value::Array(branches)) = map.remove(union) {
            if let Some(branch) = matching_branch(root, &branches, instance) {
                let branch = gathered(root, branch, 0);
                for (key, value) in branch {
                    match (key.as_str(), map.get_mut(&key), value) {
                        ("properties", Some(Value::Object(have)), Value::Object(more)) => {
                            for (k, v) in more {
                                have.entry(k).or_insert(v);
                            }
                        }
                        (_, None, value) => {
                            map.insert(key, value);
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    if !instance.is_object() && map.contains_key("properties") && !map.contains_key("type") {
        // Strict types such a node `object` (a loss it records): no strict model sends this.
        return false;
    }
    let mut declared = true;
    match instance {
        Value::Object(fields) => {
            let no_props = Map::new();
            let props = map
                .get("properties")
                .and_then(Value::as_object)
                .unwrap_or(&no_props);
            declared = fields.keys().all(|k| props.contains_key(k));
            for (name, sub) in props {
                match fields.get_mut(name) {
                    Some(value) => {
                        declared &= strictly(root, sub, value, depth + 1, only_nullable);
                    }
                    None if !only_nullable || takes_null(root, sub) => {
                        fields.insert(name.clone(), json!(null));
                    }
                    None => {}
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = map.get("items") {
                for item in items {
                    declared &= strictly(root, sub, item, depth + 1, only_nullable);
                }
            }
        }
        _ => {}
    }
    declared
}

/// Whether `restored` is `instance`, but for some of the `null`s `expected` adds to it (at
/// absent properties whose schema takes `null`, where either answer is right).
pub(super) fn between(instance: &Value, restored: &Value, expected: &Value) -> bool {
    match (instance, restored, expected) {
        (Value::Object(i), Value::Object(r), Value::Object(e)) => {
            i.keys().all(|k| r.contains_key(k))
                && r.iter().all(|(k, v)| match (i.get(k), e.get(k)) {
                    (Some(iv), Some(ev)) => between(iv, v, ev),
                    (None, Some(Value::Null)) => v.is_null(),
                    _ => false,
                })
        }
        (Value::Array(i), Value::Array(r), Value::Array(e)) => {
            i.len() == r.len()
                && r.len() == e.len()
                && i.iter()
                    .zip(r)
                    .zip(e)
                    .all(|((iv, rv), ev)| between(iv, rv, ev))
        }
        (i, r, _) => i == r,
    }
}

// ---------------------------------------------------------------------------------------------
// The properties

proptest! {
    #![proptest_config(config(1500))]

    /// (a) Refused, or prepared into a schema that checks clean; never a refusal the rewriter
    /// left behind; no panic.
    #[test]
    fn every_dialect_refuses_or_prepares_a_clean_schema(schema in tool_schema()) {
        for dialect in Dialect::ALL {
            match prepare_schema(dialect, &schema) {
                Ok(prepared) => {
                    let problems = check_schema(dialect, &prepared.schema);
                    prop_assert!(problems.is_empty(),
                        "{dialect}: prepared {} still has {problems:?}\nfrom {schema}", prepared.schema);
                    prop_assert_eq!(prepared.losses.is_empty(), prepared.status != SchemaStatus::Lossy,
                        "{}: status {:?} with losses {:?}", dialect, prepared.status, prepared.losses);
                    if prepared.status == SchemaStatus::AsIs {
                        prop_assert_eq!(&prepared.schema, &schema);
                    }
                }
                Err(refusal) => {
                    prop_assert!(!refusal.why.ends_with("(left after rewriting)"),
                        "{dialect}: the rewriter left {refusal}\nin {schema}");
                }
            }
        }
    }

}

proptest! {
    #![proptest_config(config(600))]

    /// (b) A `Rewritten` schema accepts exactly what the original accepts; a `Lossy` one in a
    /// non-strict dialect accepts at least that.
    #[test]
    fn exact_is_exact_and_lossy_only_widens(schema in tool_schema(), seed in any::<u64>()) {
        let original = validator(&schema);
        let cases = instances(&schema, seed, 10, true, true);
        let verdicts: Vec<bool> = cases.iter().map(|i| original.is_valid(i)).collect();
        for dialect in Dialect::ALL {
            // Required-or-null changes every instance that leaves a property out: judged on the
            // strict form of each instance, in (c).
            if dialect.rules().all_required {
                continue;
            }
            let Ok(prepared) = prepare_schema(dialect, &schema) else { continue };
            let exact = match prepared.status {
                SchemaStatus::AsIs => continue,
                SchemaStatus::Rewritten => true,
                SchemaStatus::Lossy if !dialect.is_strict() => false,
                _ => continue,
            };
            let meant = meaning(dialect, &prepared.schema);
            let rewritten = validator(&meant);
            for (instance, &before) in cases.iter().zip(&verdicts) {
                let after = rewritten.is_valid(instance);
                if exact {
                    prop_assert_eq!(before, after,
                        "{}: Rewritten changed the verdict on {}\noriginal {}\nprepared {}",
                        dialect, instance, schema, meant);
                } else {
                    prop_assert!(!before || after,
                        "{dialect}: a lossy rewrite refuses {instance}, which the tool accepts\noriginal {schema}\nprepared {meant}\nlosses {:?}",
                        prepared.losses);
                }
            }
        }
    }

    /// (c) The way back under `openai-strict`: a valid instance written the strict way passes
    /// the prepared schema, and `restore_arguments` gives the instance back. Where preparing
    /// lost nothing, whatever the prepared schema accepts comes back as something the original
    /// accepts (required-or-null is exact where the way back removes the `null`).
    #[test]
    fn strict_nulls_come_back_out(schema in tool_schema(), seed in any::<u64>()) {
        let original = validator(&schema);
        // The way back runs only for a tool sent strict.
        let Ok(ready) = prepare_schema(Dialect::OpenAiStrict, &schema) else {
            return Ok(());
        };
        let prepared = validator(&ready.schema);
        if ready.losses.is_empty() {
            for instance in instances(&schema, seed, 8, false, true) {
                let mut written = instance.clone();
                strictly(&schema, &schema, &mut written, 0, false);
                for candidate in [instance, written] {
                    if !prepared.is_valid(&candidate) {
                        continue;
                    }
                    let mut restored = candidate.clone();
                    restore_arguments(&schema, &mut restored);
                    prop_assert!(original.is_valid(&restored),
                        "no loss, yet the prepared schema takes {candidate}, which comes back as {restored}, which the original refuses\noriginal {schema}\nprepared {}", ready.schema);
                }
            }
        }
        for instance in instances(&schema, seed, 8, false, false) {
            if !original.is_valid(&instance) {
                continue;
            }
            let mut written = instance.clone();
            if !strictly(&schema, &schema, &mut written, 0, false) {
                // It needs an object open: no strict model can send it (a loss the spec names).
                continue;
            }
            prop_assert!(prepared.is_valid(&written),
                "the strict form {written} of {instance} fails the prepared schema\noriginal {schema}");
            let mut expected = instance.clone();
            strictly(&schema, &schema, &mut expected, 0, true);
            let mut restored = written.clone();
            restore_arguments(&schema, &mut restored);
            prop_assert!(between(&instance, &restored, &expected),
                "restored {restored} from {written}: not {instance} (nor with only these nulls: {expected})\noriginal {schema}");
            if restored == instance {
                prop_assert!(original.is_valid(&restored));
            }
        }
    }
}
