//! Property tests over what `schemars` itself writes for the common Rust shapes (issue 17,
//! point 1): plain and documented enums, an `Option` of each, a `Vec` and a map of each,
//! internally, adjacently and un-tagged enums, tuples, bounded numbers and strings, recursive
//! types; each as `schema_for!` writes it (references into `$defs`) and as `#[tool]` does
//! (subschemas inlined, no `$schema`). For every dialect of [`Dialect::ALL`], with
//! `null_is_absent` off and on, checked with `jsonschema` (Gemini's OpenAPI style read back as
//! JSON Schema first):
//!
//! - the shape travels, or is refused for what the shape is (recursion, a map where every
//!   object must be closed), never for a case the rewrites left behind;
//! - every property and item of the prepared schema says what it is (a type, a value set, a
//!   union or a reference): none reaches a dialect with neither;
//! - every instance the original accepts is accepted (in `openai-strict` after writing it the
//!   strict way, and `restore_arguments` brings it back);
//! - where preparing reported no loss, every instance the original refuses is refused too (in
//!   `openai-strict`: whatever the prepared schema accepts comes back as something the original
//!   accepts).
//!
//! Instances: the types' own values serialized by serde (valid by construction), then
//! instances aimed at the schema and broken on purpose (`properties.rs`' generator), from a
//! proptest seed; which are valid is always the validator's word.

use std::collections::BTreeMap;
use std::rc::Rc;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use toolwire_core::schema::{
    check_schema, prepare_schema_with, restore_arguments, Dialect, PrepareOptions, RefusalReason,
};

use super::properties::{between, config, instances, meaning, strictly, validator};

// ---------------------------------------------------------------------------------------------
// The shapes

/// A plain enum: schemars writes `{"type": "string", "enum": [...]}`.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Plain {
    Red,
    Green,
}

/// A documented enum: schemars writes a `oneOf` of `const`s, each with its description.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Documented {
    /// Books and magazines.
    Books,
    /// Films.
    Movies,
    /// Anything else.
    Other,
}

/// An externally tagged enum of every kind of variant.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
enum External {
    /// No data.
    Unit,
    /// One value.
    Newtype(u8),
    /// Fields.
    Struct { name: String, flag: Option<bool> },
}

/// An internally tagged enum, closed (its variants refuse unknown fields).
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Internal {
    /// A circle.
    Circle {
        radius: f64,
    },
    /// A square.
    Square {
        side: f64,
        label: Option<Documented>,
    },
    Nothing,
}

/// An adjacently tagged enum.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Count(u32),
    Word(String),
    Empty,
}

/// An untagged enum: schemars writes an `anyOf`.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Untagged {
    Number(i64),
    Text(String),
    Pair { left: bool, right: bool },
}

/// Bounded numbers and strings, a tuple.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Bounded {
    #[schemars(range(min = 1, max = 10))]
    quantity: u32,
    #[schemars(range(min = -1.5, max = 2.5))]
    ratio: f64,
    #[schemars(length(min = 2, max = 5))]
    code: String,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    sku: String,
    #[schemars(length(min = 1, max = 3))]
    tags: Vec<String>,
    pair: (i32, String),
}

/// A recursive type.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Node {
    name: String,
    children: Vec<Node>,
    parent: Option<Box<Node>>,
}

/// A value of `T` in every common position: alone, optional, in a list. Closed
/// (`deny_unknown_fields`), as a `#[tool]`'s arguments are.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Holder<T> {
    value: T,
    maybe: Option<T>,
    list: Vec<T>,
}

/// [`Holder`], open: what it takes beyond its fields is ignored.
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
struct OpenHolder<T> {
    value: T,
    maybe: Option<T>,
    list: Vec<T>,
}

/// A value of `T` in a map (a separate shape: the strict dialects refuse an open map).
#[derive(Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Mapped<T> {
    map: BTreeMap<String, T>,
}

/// One shape under test: its schema and the values serde writes for it.
struct Shape {
    name: &'static str,
    schema: Value,
    values: Vec<Value>,
    /// It refers to itself.
    recursive: bool,
    /// It holds a map (an object with no declared properties).
    map: bool,
}

/// Holders of `samples` (every sample alone and in a list, `maybe` left out or set).
fn holders<T: Clone + Serialize>(samples: &[T]) -> Vec<Value> {
    let mut out = Vec::new();
    for (i, sample) in samples.iter().enumerate() {
        let next = samples[(i + 1) % samples.len()].clone();
        for maybe in [None, Some(next.clone())] {
            let holder = Holder {
                value: sample.clone(),
                maybe,
                list: vec![next.clone(), sample.clone()],
            };
            out.push(serde_json::to_value(holder).expect("serializes"));
        }
    }
    out.push(
        serde_json::to_value(Holder {
            value: samples[0].clone(),
            maybe: None,
            list: Vec::new(),
        })
        .expect("serializes"),
    );
    out
}

fn mapped<T: Clone + Serialize>(samples: &[T]) -> Vec<Value> {
    let map: BTreeMap<String, T> = samples
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("k{i}"), s.clone()))
        .collect();
    vec![
        serde_json::to_value(Mapped { map }).expect("serializes"),
        serde_json::to_value(Mapped::<T> {
            map: BTreeMap::new(),
        })
        .expect("serializes"),
    ]
}

/// The schema of `T` as `schema_for!` writes it (`inline: false`) or as `#[tool]` does.
fn schema_of<T: JsonSchema>(inline: bool) -> Value {
    let settings = if inline {
        SchemaSettings::draft2020_12()
            .with(|s| {
                s.inline_subschemas = true;
                s.meta_schema = None;
            })
            .for_deserialize()
    } else {
        SchemaSettings::draft2020_12()
    };
    settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

fn held<T: Clone + Serialize + JsonSchema>(
    name: &'static str,
    inline: bool,
    samples: &[T],
    recursive: bool,
) -> [Shape; 3] {
    [
        Shape {
            name,
            schema: schema_of::<Holder<T>>(inline),
            values: holders(samples),
            recursive,
            map: false,
        },
        // (The same values: the two differ only in what else they take.)
        Shape {
            name,
            schema: schema_of::<OpenHolder<T>>(inline),
            values: holders(samples),
            recursive,
            map: false,
        },
        Shape {
            name,
            schema: schema_of::<Mapped<T>>(inline),
            values: mapped(samples),
            recursive,
            map: true,
        },
    ]
}

fn shapes() -> Vec<Shape> {
    let leaf = Node {
        name: "leaf".into(),
        children: Vec::new(),
        parent: None,
    };
    let tree = Node {
        name: "root".into(),
        children: vec![leaf.clone(), leaf.clone()],
        parent: Some(Box::new(leaf.clone())),
    };
    let bounded = Bounded {
        quantity: 3,
        ratio: -1.5,
        code: "ab".into(),
        sku: "abc".into(),
        tags: vec!["x".into()],
        pair: (-4, "p".into()),
    };
    let mut out = Vec::new();
    for inline in [false, true] {
        out.extend(held(
            "plain enum",
            inline,
            &[Plain::Red, Plain::Green],
            false,
        ));
        out.extend(held(
            "documented enum",
            inline,
            &[Documented::Books, Documented::Movies, Documented::Other],
            false,
        ));
        out.extend(held(
            "externally tagged enum",
            inline,
            &[
                External::Unit,
                External::Newtype(7),
                External::Struct {
                    name: "n".into(),
                    flag: Some(true),
                },
                External::Struct {
                    name: "m".into(),
                    flag: None,
                },
            ],
            false,
        ));
        out.extend(held(
            "internally tagged enum",
            inline,
            &[
                Internal::Circle { radius: 1.5 },
                Internal::Square {
                    side: 2.0,
                    label: Some(Documented::Movies),
                },
                Internal::Square {
                    side: 0.5,
                    label: None,
                },
                Internal::Nothing,
            ],
            false,
        ));
        out.extend(held(
            "adjacently tagged enum",
            inline,
            &[
                Adjacent::Count(4),
                Adjacent::Word("w".into()),
                Adjacent::Empty,
            ],
            false,
        ));
        out.extend(held(
            "untagged enum",
            inline,
            &[
                Untagged::Number(-3),
                Untagged::Text("t".into()),
                Untagged::Pair {
                    left: true,
                    right: false,
                },
            ],
            false,
        ));
        out.extend(held(
            "bounded numbers and strings, a tuple",
            inline,
            &[
                bounded.clone(),
                Bounded {
                    quantity: 10,
                    ratio: 2.5,
                    code: "abcde".into(),
                    tags: vec!["a".into(), "b".into(), "c".into()],
                    ..bounded.clone()
                },
            ],
            false,
        ));
        out.extend(held(
            "recursive type",
            inline,
            &[tree.clone(), leaf.clone()],
            true,
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// What must hold

/// Whether every property and item schema under `node` says what it is: a type, a value set,
/// a union or a reference.
fn every_property_says_what_it_is(node: &Value, pointer: &str, out: &mut Vec<String>) {
    let Value::Object(map) = node else {
        return;
    };
    let check = |schema: &Value, at: String, out: &mut Vec<String>| {
        // (`ref`: Gemini's `Schema` writes a reference without `$`, "Revised 2026-12".)
        let says = [
            "type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "ref",
        ]
        .iter()
        .any(|k| schema.get(*k).is_some());
        if !says {
            out.push(format!("{at}: {schema}"));
        }
    };
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, prop) in props {
            check(prop, format!("{pointer}/properties/{name}"), out);
        }
    }
    if let Some(items @ Value::Object(_)) = map.get("items") {
        check(items, format!("{pointer}/items"), out);
    }
    for (key, value) in map {
        match value {
            Value::Object(sub) if key == "properties" || key == "$defs" => {
                for (name, sub) in sub {
                    every_property_says_what_it_is(sub, &format!("{pointer}/{key}/{name}"), out);
                }
            }
            Value::Object(_) => {
                every_property_says_what_it_is(value, &format!("{pointer}/{key}"), out)
            }
            Value::Array(list)
                if ["anyOf", "oneOf", "allOf", "prefixItems", "items"].contains(&key.as_str()) =>
            {
                for (i, sub) in list.iter().enumerate() {
                    every_property_says_what_it_is(sub, &format!("{pointer}/{key}/{i}"), out);
                }
            }
            _ => {}
        }
    }
}

/// One shape prepared for one dialect, with what checking it needs, built once.
struct Case<'a> {
    shape: &'a Shape,
    dialect: Dialect,
    null_is_absent: bool,
    /// `None`: refused (for what the shape is, checked when built).
    prepared: Option<Ready>,
}

struct Ready {
    schema: Value,
    exact: bool,
    losses: String,
    original: Rc<jsonschema::Validator>,
    rewritten: Rc<jsonschema::Validator>,
}

impl Case<'_> {
    fn context(&self) -> String {
        format!(
            "{} in {} (null_is_absent: {})\nschema {}",
            self.shape.name, self.dialect, self.null_is_absent, self.shape.schema
        )
    }
}

/// Prepares `shape` for `dialect`: refused only for what the shape is, never for a case the
/// rewrites left behind; otherwise clean, and every property says what it is.
fn case(shape: &Shape, dialect: Dialect, null_is_absent: bool) -> Case<'_> {
    let options = PrepareOptions {
        null_is_absent,
        ..PrepareOptions::default()
    };
    let mut case = Case {
        shape,
        dialect,
        null_is_absent,
        prepared: None,
    };
    let prepared = match prepare_schema_with(dialect, &shape.schema, options) {
        Ok(prepared) => prepared,
        Err(refusal) => {
            let expected = match refusal.reason {
                RefusalReason::Recursive => shape.recursive,
                RefusalReason::Inexpressible => {
                    shape.map && dialect.rules().closed_objects
                        || shape.recursive && refusal.keyword == "$ref"
                }
                _ => false,
            };
            assert!(
                expected && !refusal.why.ends_with("(left after rewriting)"),
                "refused: {refusal}\n{}",
                case.context()
            );
            return case;
        }
    };
    let problems = check_schema(dialect, &prepared.schema);
    assert!(
        problems.is_empty(),
        "{problems:?}\n{}\nprepared {}",
        case.context(),
        prepared.schema
    );
    let mut vague = Vec::new();
    every_property_says_what_it_is(&prepared.schema, "", &mut vague);
    assert!(
        vague.is_empty(),
        "neither a type nor a value set: {vague:?}\n{}\nprepared {}",
        case.context(),
        prepared.schema
    );
    case.prepared = Some(Ready {
        original: validator(&shape.schema),
        rewritten: validator(&meaning(dialect, &prepared.schema)),
        exact: prepared.losses.is_empty(),
        losses: format!("{:?}", prepared.losses),
        schema: prepared.schema,
    });
    case
}

/// An instance of one shape, with its verdict under the original and its strict form.
struct Candidate {
    instance: Value,
    valid: bool,
    /// As OpenAI strict sends it: `null` for every absent optional property.
    written: Value,
    /// Whether every object's keys are declared (strict closes every object: an instance that
    /// needs one open is a loss the spec names).
    declared: bool,
    /// `written` with `null` only where the property takes it (what the way back may leave).
    expected: Value,
}

fn candidates(
    shape: &Shape,
    original: &jsonschema::Validator,
    instances: Vec<Value>,
) -> Vec<Candidate> {
    let schema = &shape.schema;
    instances
        .into_iter()
        .map(|instance| {
            let mut written = instance.clone();
            let declared = strictly(schema, schema, &mut written, 0, false);
            let mut expected = instance.clone();
            strictly(schema, schema, &mut expected, 0, true);
            Candidate {
                valid: original.is_valid(&instance),
                instance,
                written,
                declared,
                expected,
            }
        })
        .collect()
}

/// Checks one prepared shape against `candidates`.
fn check_case(case: &Case<'_>, candidates: &[Candidate]) -> Result<(), TestCaseError> {
    let Some(ready) = &case.prepared else {
        return Ok(());
    };
    let schema = &case.shape.schema;
    let rules = case.dialect.rules();
    for c in candidates {
        let shown = || {
            format!(
                "{} ({})\n{}\nprepared {}\nlosses {}",
                c.instance,
                if c.valid { "valid" } else { "invalid" },
                case.context(),
                ready.schema,
                ready.losses
            )
        };
        if !rules.all_required {
            let accepted = ready.rewritten.is_valid(&c.instance);
            if c.valid && (c.declared || !rules.closed_objects) {
                prop_assert!(accepted, "the prepared schema refuses {}", shown());
            }
            prop_assert!(
                c.valid || !ready.exact || !accepted,
                "no loss, yet the prepared schema accepts {}",
                shown()
            );
            continue;
        }
        // Required-or-null: the strict form, and the way back.
        if c.valid && c.declared {
            prop_assert!(
                ready.rewritten.is_valid(&c.written),
                "the prepared schema refuses the strict form {} of {}",
                c.written,
                shown()
            );
            let mut restored = c.written.clone();
            restore_arguments(schema, &mut restored);
            prop_assert!(
                between(&c.instance, &restored, &c.expected),
                "restored {restored} from {}, not {}",
                c.written,
                shown()
            );
        }
        if ready.exact {
            for candidate in [&c.instance, &c.written] {
                if ready.rewritten.is_valid(candidate) {
                    let mut restored = candidate.clone();
                    restore_arguments(schema, &mut restored);
                    prop_assert!(
                        ready.original.is_valid(&restored),
                        "no loss, yet the prepared schema accepts {candidate}, which comes back as {restored}, refused by the original; from {}",
                        shown()
                    );
                }
            }
        }
    }
    Ok(())
}

#[test]
fn schemars_shapes_travel_exactly_where_exact_exists() {
    let shapes = shapes();
    let originals: Vec<Rc<jsonschema::Validator>> = shapes
        .iter()
        .map(|shape| validator(&shape.schema))
        .collect();
    for (shape, original) in shapes.iter().zip(&originals) {
        for value in &shape.values {
            assert!(
                original.is_valid(value),
                "serde wrote {value}, which {} refuses: {}",
                shape.name,
                shape.schema
            );
        }
    }
    // Every shape prepared for every dialect, once.
    let cases: Vec<Vec<Case<'_>>> = shapes
        .iter()
        .map(|shape| {
            Dialect::ALL
                .into_iter()
                .flat_map(|dialect| {
                    [false, true].map(|null_is_absent| case(shape, dialect, null_is_absent))
                })
                .collect()
        })
        .collect();
    // Nothing passes on nothing: every dialect sends most shapes, and sends some exactly.
    for dialect in Dialect::ALL {
        let of_dialect: Vec<&Case<'_>> = cases
            .iter()
            .flatten()
            .filter(|c| c.dialect == dialect)
            .collect();
        let sent = of_dialect.iter().filter(|c| c.prepared.is_some()).count();
        let exact = of_dialect
            .iter()
            .filter(|c| c.prepared.as_ref().is_some_and(|r| r.exact))
            .count();
        assert!(
            sent * 2 >= of_dialect.len() && exact > 0,
            "{dialect}: {sent} of {} shapes sent, {exact} exactly",
            of_dialect.len()
        );
    }
    // The values serde writes, then instances aimed at each schema and broken on purpose, from
    // each seed.
    for ((shape, original), cases) in shapes.iter().zip(&originals).zip(&cases) {
        let values = candidates(shape, original, shape.values.clone());
        for case in cases {
            check_case(case, &values).unwrap_or_else(|failure| panic!("{failure}"));
        }
    }
    let mut runner = TestRunner::new(config(16));
    runner
        .run(&any::<u64>(), |seed| {
            for ((shape, original), cases) in shapes.iter().zip(&originals).zip(&cases) {
                let made = candidates(
                    shape,
                    original,
                    instances(&shape.schema, seed, 10, false, true),
                );
                for case in cases {
                    check_case(case, &made)?;
                }
            }
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{failure}"));
}

#[test]
fn an_optional_documented_enum_loses_nothing_in_any_dialect() {
    // Issue 17, point 1: `Option<Documented>` kept its values in Gemini only as a note.
    let schema = schema_of::<Holder<Documented>>(false);
    for dialect in Dialect::ALL {
        for null_is_absent in [false, true] {
            let options = PrepareOptions {
                null_is_absent,
                ..PrepareOptions::default()
            };
            let prepared = prepare_schema_with(dialect, &schema, options).expect("prepared");
            // (Gemini's own loss of `additionalProperties` at the root is not the enum's.)
            let left: Vec<_> = prepared
                .losses
                .iter()
                .filter(|l| l.pointer.starts_with("/properties"))
                .filter(|l| l.keyword != "required" || null_is_absent)
                .collect();
            assert!(left.is_empty(), "{dialect}: {left:?}\n{}", prepared.schema);
            let maybe = &prepared.schema["properties"]["maybe"];
            if dialect == Dialect::Gemini {
                assert_eq!(
                    maybe,
                    &json!({"type": "STRING", "enum": ["books", "movies", "other"], "nullable": true,
                        "description": "A documented enum: schemars writes a `oneOf` of `const`s, each with its description.\n- \"books\": Books and magazines.\n- \"movies\": Films.\n- \"other\": Anything else."})
                );
            }
        }
    }
}
