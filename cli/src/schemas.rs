//! How each tool's parameter schema travels in each dialect (`tool-schema-wire.md`): the
//! `schemas` key of `census --json`, the summary of `census --provider`, and its exit status.
//!
//! Policy: every verdict is `prepare_definition_cached` on the definition `wire_tools` would send
//! (`ToolDefinition::parameters_schema`), so what the census says about a schema is what the
//! wire does with it. One tool per distinct real name, judged at its first occurrence, as the
//! rest of the census report.

use std::collections::BTreeMap;

use serde::ser::{Serialize, SerializeMap, Serializer};
use toolwire_core::{
    schema::{Dialect, SchemaReport, SchemaStatus, Standing},
    Census, ToolDefinition,
};

use crate::distinct::is_repeat;

/// The schema verdicts of every distinct tool in some dialects.
pub struct SchemaVerdicts<'a> {
    /// The dialects judged, in [`Dialect::ALL`] order, without repeats.
    dialects: Vec<Dialect>,
    /// One per distinct real name, in input order: the name and one verdict per dialect (in
    /// the order of `dialects`), each with its standing: what a file or an MCP server lists
    /// says nothing of what validates its arguments, so a loss of theirs is unguarded.
    tools: Vec<(&'a str, Vec<SchemaReport>)>,
}

/// How the schemas of one dialect fare: how many tools are lossy (and how many of those only
/// guarded), how many refused, and how many fail the rule (`tool-schema-wire.md`, "What the
/// rail fails on, revised 2026-12": refused, unguarded or over-restricting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Troubles {
    /// Tools whose schema travels with a loss in this dialect.
    pub lossy: usize,
    /// Of the lossy ones, those whose every loss is guarded (their own validation refuses
    /// what the provider does not see).
    pub guarded: usize,
    /// Tools whose schema this dialect refuses: they do not travel there.
    pub refused: usize,
    /// Tools whose schema fails the rail here: refused, unguarded or over-restricting.
    pub failing: usize,
}

impl<'a> SchemaVerdicts<'a> {
    /// The verdicts of `census`'s distinct tools in `dialects`; `definitions` are the census
    /// input, in the same order.
    pub fn new(
        census: &'a Census,
        definitions: &[ToolDefinition],
        dialects: &[Dialect],
    ) -> SchemaVerdicts<'a> {
        let dialects: Vec<Dialect> = Dialect::ALL
            .into_iter()
            .filter(|d| dialects.contains(d))
            .collect();
        let tools = census
            .tools()
            .iter()
            .zip(definitions)
            .filter(|(tool, _)| !is_repeat(tool))
            .map(|(tool, definition)| {
                let verdicts = dialects
                    .iter()
                    // A bare definition (a file's, an MCP server's): nothing here runs it, so
                    // the one judge says unguarded (`SchemaReport::of_definition`).
                    .map(|d| SchemaReport::of_definition(*d, definition))
                    .collect();
                (tool.name(), verdicts)
            })
            .collect();
        SchemaVerdicts { dialects, tools }
    }

    /// How the schemas fare in `dialect` (all zero when it is not judged).
    pub fn troubles(&self, dialect: Dialect) -> Troubles {
        let mut troubles = Troubles::default();
        let Some(d) = self.dialects.iter().position(|x| *x == dialect) else {
            return troubles;
        };
        for (_, verdicts) in &self.tools {
            let verdict = &verdicts[d];
            match verdict.status {
                SchemaStatus::Lossy => troubles.lossy += 1,
                SchemaStatus::Refused => troubles.refused += 1,
                SchemaStatus::AsIs | SchemaStatus::Rewritten => {}
            }
            if verdict.standing == Some(Standing::Guarded) && !verdict.over_restricts {
                troubles.guarded += 1;
            }
            if verdict.fails(false) {
                troubles.failing += 1;
            }
        }
        troubles
    }

    /// Whether no schema fails the rule in any of `dialects`: a guarded loss is listed, and
    /// does not count.
    pub fn all_pass_in(&self, dialects: &[Dialect]) -> bool {
        dialects.iter().all(|d| self.troubles(*d).failing == 0)
    }

    /// The end of the table's summary line: per dialect judged, how many schemas are lossy or
    /// refused (`; openai-strict schemas: 3 lossy, 1 refused`; `3 lossy (2 guarded)` when some
    /// losses are guarded and do not count).
    pub fn summary(&self) -> String {
        let mut line = String::new();
        for dialect in &self.dialects {
            let Troubles {
                lossy,
                guarded,
                refused,
                ..
            } = self.troubles(*dialect);
            let key = dialect.key();
            if lossy + refused == 0 {
                line.push_str(&format!("; {key} schemas: none lossy or refused"));
            } else {
                let guarded = if guarded > 0 {
                    format!(" ({guarded} guarded)")
                } else {
                    String::new()
                };
                line.push_str(&format!(
                    "; {key} schemas: {lossy} lossy{guarded}, {refused} refused"
                ));
            }
        }
        line
    }
}

/// The `schemas` value: real name → dialect key → verdict (core's [`SchemaReport`], with its
/// standing), both maps sorted (as every map of the census object is).
impl Serialize for SchemaVerdicts<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut by_name: Vec<&(&str, Vec<SchemaReport>)> = self.tools.iter().collect();
        by_name.sort_unstable_by_key(|(name, _)| *name);
        let mut map = serializer.serialize_map(Some(by_name.len()))?;
        for (name, verdicts) in by_name {
            let per_dialect: BTreeMap<&str, &SchemaReport> = self
                .dialects
                .iter()
                .zip(verdicts)
                .map(|(dialect, verdict)| (dialect.key(), verdict))
                .collect();
            map.serialize_entry(name, &per_dialect)?;
        }
        map.end()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::{json, Value};
    use toolwire_core::names::DEFAULT_META_TOOLS;
    use toolwire_core::schema::prepare_definition_cached;
    use toolwire_core::tools::{ToolFuture, ToolInput, ToolRegistration};
    use toolwire_core::ToolError;

    /// What `#[tool] fn count(n: u8)` registers, with a handler that does by hand what the
    /// generated one does with `jsonschema` (this crate does not depend on the macro): it
    /// refuses, naming the rule, every argument its schema refuses, so it says it validates.
    pub(crate) static COUNT: ToolRegistration = ToolRegistration {
        name: "count",
        form: "count",
        description: "Counts.",
        schema: || {
            json!({"type": "object", "additionalProperties": false, "required": ["n"],
            "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 255}}})
        },
        handler: count_checked,
        module_path: "demo",
        file: "demo.rs",
        line: 1,
        validates_arguments: true,
    };

    /// `COUNT`'s handler: `n` alone, an integer in `0..=255`, or a refusal naming the rule.
    fn count_checked(input: ToolInput) -> ToolFuture {
        Box::pin(async move {
            let refuse = |argument: Option<&str>, reason: &str| ToolError::InvalidArguments {
                tool: "count".to_owned(),
                argument: argument.map(str::to_owned),
                reason: reason.to_owned(),
            };
            let object = input
                .arguments
                .as_object()
                .ok_or_else(|| refuse(None, "type: the arguments must be an object"))?;
            if let Some(extra) = object.keys().find(|k| *k != "n") {
                return Err(refuse(Some(extra), "additionalProperties: false"));
            }
            match object.get("n").map(|n| (n.as_u64(), n)) {
                Some((Some(n), _)) if n <= 255 => Ok(json!(n)),
                Some((_, n)) => Err(refuse(
                    Some("n"),
                    &format!("{n} is not an integer in 0..=255 (minimum, maximum)"),
                )),
                None => Err(refuse(Some("n"), "required")),
            }
        })
    }

    #[test]
    fn the_count_registration_refuses_what_its_schema_refuses() {
        let call = |arguments| {
            futures::executor::block_on(COUNT.call(arguments, toolwire_core::AppState::new()))
        };
        assert_eq!(call(json!({"n": 255})), Ok(json!(255)));
        for bad in [
            json!({"n": 256}),
            json!({"n": -1}),
            json!({"n": 1.5}),
            json!({}),
            json!({"n": 1, "m": 2}),
            json!([1]),
        ] {
            assert!(
                matches!(call(bad.clone()), Err(ToolError::InvalidArguments { .. })),
                "{bad}"
            );
        }
    }

    /// Definitions of `tools` (name, schema), and their census.
    fn census_of(tools: &[(&str, Value)]) -> (Vec<ToolDefinition>, Census) {
        let defs: Vec<ToolDefinition> = tools
            .iter()
            .map(|(name, schema)| ToolDefinition::new(*name, "d", schema.clone()))
            .collect();
        let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
        (defs, census)
    }

    #[test]
    fn each_dialect_says_how_each_schema_travels() {
        let typed = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}});
        let (defs, census) = census_of(&[("typed", typed), ("empty", Value::Null)]);
        let report = SchemaVerdicts::new(&census, &defs, &Dialect::ALL);
        let json = serde_json::to_value(&report).unwrap();
        let names: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(names, ["empty", "typed"]);
        assert_eq!(json["typed"].as_object().unwrap().len(), 6);
        assert_eq!(
            json["typed"]["gemini"],
            json!({"status": "rewritten", "losses": [], "reason": null, "standing": null,
                "over_restricts": false})
        );
        assert_eq!(json["typed"]["openai"]["status"], "as_is");
        assert_eq!(json["empty"]["anthropic"]["status"], "as_is");
        assert_eq!(report.troubles(Dialect::Gemini), Troubles::default());
    }

    #[test]
    fn refusals_and_losses_are_counted_per_dialect() {
        let recursive = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
        let pattern =
            json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^a$"}}});
        let (defs, census) = census_of(&[("tree", recursive), ("pat", pattern)]);
        let report = SchemaVerdicts::new(
            &census,
            &defs,
            &[Dialect::Gemini, Dialect::OpenAi, Dialect::AnthropicStrict],
        );
        let troubles = |d| {
            let t = report.troubles(d);
            (t.lossy, t.refused, t.failing)
        };
        assert_eq!(troubles(Dialect::Gemini), (0, 1, 1));
        // Recursion travels wherever the provider takes it (`tool-schema-wire.md`, "Recursion,
        // revised"): to OpenAI, not to Gemini (no `$ref`) nor to the strict Messages API (its
        // refusal; closing the pattern's object is its loss).
        assert_eq!(troubles(Dialect::OpenAi), (0, 0, 0));
        // A file's tool says nothing of what checks its arguments: its loss is unguarded, and
        // fails.
        assert_eq!(troubles(Dialect::AnthropicStrict), (1, 1, 2));
        assert_eq!(troubles(Dialect::OpenAiStrict), (0, 0, 0), "not judged");
        assert!(!report.all_pass_in(&[Dialect::Gemini]));
        assert_eq!(
            report.summary(),
            "; openai schemas: none lossy or refused; anthropic-strict schemas: 1 lossy, 1 \
             refused; gemini schemas: 0 lossy, 1 refused"
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["tree"]["gemini"]["status"], "refused");
        assert_eq!(json["tree"]["gemini"]["standing"], "refused");
        assert_eq!(json["pat"]["anthropic-strict"]["standing"], "unguarded");
        assert!(json["tree"]["gemini"]["reason"]
            .as_str()
            .unwrap()
            .starts_with("gemini refuses the schema"));
    }

    #[test]
    fn a_validating_registration_s_definition_read_bare_is_unguarded() {
        // The census reads definitions (a file's, a server's) and runs none of them: even the
        // definition of a registration whose handler validates is judged bare, as the rail
        // judges a bare `ToolDefinition`.
        let defs = vec![COUNT.definition()];
        assert!(defs[0].validates_arguments());
        let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
        let report = SchemaVerdicts::new(&census, &defs, &[Dialect::AnthropicStrict]);
        let troubles = report.troubles(Dialect::AnthropicStrict);
        assert_eq!(
            (troubles.lossy, troubles.guarded, troubles.failing),
            (1, 0, 1)
        );
        assert!(!report.all_pass_in(&[Dialect::AnthropicStrict]));
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["count"]["anthropic-strict"]["standing"], "unguarded");
    }

    #[test]
    fn guarded_verdicts_are_counted_apart_and_do_not_fail() {
        let preparation = prepare_definition_cached(Dialect::AnthropicStrict, &COUNT.definition());
        let report = SchemaVerdicts {
            dialects: vec![Dialect::AnthropicStrict],
            tools: vec![(
                "count",
                vec![SchemaReport::of_preparation(&preparation, true)],
            )],
        };
        let troubles = report.troubles(Dialect::AnthropicStrict);
        assert_eq!(
            (troubles.lossy, troubles.guarded, troubles.failing),
            (1, 1, 0)
        );
        assert!(report.all_pass_in(&[Dialect::AnthropicStrict]));
        assert_eq!(
            report.summary(),
            "; anthropic-strict schemas: 1 lossy (1 guarded), 0 refused"
        );
    }

    #[test]
    fn a_repeated_name_is_judged_once_at_its_first_occurrence() {
        let (defs, census) = census_of(&[("a", Value::Null), ("a", json!({"type": "string"}))]);
        let report = SchemaVerdicts::new(&census, &defs, &[Dialect::OpenAi]);
        assert_eq!(report.tools.len(), 1);
        assert_eq!(report.troubles(Dialect::OpenAi), Troubles::default());
    }
}
