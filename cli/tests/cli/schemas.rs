//! `census --json`'s `schemas` key and `--provider`: how each schema travels in each dialect.

use serde_json::{json, Value};

use crate::{
    census_json, file, messages_definitions, path, status, stderr, stdout, toolwire, SMALL_SET,
};

/// The `schemas` entry of a tool with no arguments (a bare name), as core prepares the schema
/// the wire sends for it, `{"type":"object","properties":{}}`.
pub(crate) static NO_ARGUMENTS: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| verdicts_of(&json!({"type": "object", "properties": {}})));

/// What `schemas` says of a tool whose wire schema is `schema`: core's own preparation in
/// each dialect, in the contract's shape.
fn verdicts_of(schema: &Value) -> Value {
    let mut verdicts = serde_json::Map::new();
    for dialect in toolwire_core::schema::Dialect::ALL {
        // A tool read from a file says nothing of what validates its arguments: a loss of
        // its is unguarded.
        let verdict = match toolwire_core::schema::prepare_schema(dialect, schema) {
            Ok(prepared) => json!({"status": prepared.status.key(), "losses": prepared.losses,
                "reason": null,
                "standing": (!prepared.losses.is_empty()).then_some("unguarded"),
                "over_restricts": prepared.losses.iter().any(|l| l.narrows)}),
            Err(refusal) => json!({"status": "refused", "losses": [],
                "reason": refusal.to_string(), "standing": "refused", "over_restricts": false}),
        };
        verdicts.insert(dialect.key().to_owned(), verdict);
    }
    Value::Object(verdicts)
}

#[test]
fn a_tool_with_no_arguments_travels_as_is_or_exactly_except_where_strict_closes_it() {
    assert_eq!(NO_ARGUMENTS["openai"]["status"], "as_is");
    assert_eq!(NO_ARGUMENTS["gemini"]["status"], "rewritten");
    assert_eq!(NO_ARGUMENTS["openai-strict"]["status"], "lossy");
    assert_eq!(
        NO_ARGUMENTS["anthropic-strict"]["losses"][0]["keyword"],
        "additionalProperties"
    );
}

#[test]
fn census_json_says_how_each_schema_travels_in_each_dialect() {
    let (code, object) = census_json(SMALL_SET, &[]);
    assert_eq!(
        code, 0,
        "without --provider, schemas do not change the status"
    );
    let schemas = &object["schemas"];
    assert_eq!(schemas.as_object().unwrap().len(), 2);
    for definition in messages_definitions(SMALL_SET) {
        assert_eq!(
            schemas[&definition.name],
            verdicts_of(&definition.parameters_schema()),
            "{}",
            definition.name
        );
    }
    let tree = &schemas["files/tree"];
    assert_eq!(tree["gemini"]["status"], "refused");
    assert!(tree["gemini"]["reason"]
        .as_str()
        .unwrap()
        .contains("no recursion"));
    assert_ne!(
        tree["openai-strict"]["status"], "refused",
        "openai-strict has recursion"
    );
    let search = &schemas["search.web"];
    assert_eq!(
        search["gemini"],
        json!({"status": "rewritten", "losses": [], "reason": null, "standing": null,
            "over_restricts": false})
    );
    assert_eq!(search["openai-strict"]["standing"], "unguarded");
    assert_eq!(search["openai-strict"]["status"], "lossy");
    assert!(search["openai-strict"]["losses"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["pointer"] == "/properties/limit" && l["keyword"] == "required"));
}

/// Issue 28, review point 3: each loss says whether it narrows, a fact recorded where the
/// rewrite made it, not guessed from its keyword.
#[test]
fn census_json_says_per_loss_whether_it_narrows() {
    let open = r#"[{"name": "find", "input_schema": {"type": "object", "properties": {
        "q": {"type": "string", "minLength": 3},
        "o": {"properties": {"a": {"type": "string"}}}}}}]"#;
    let (_, object) = census_json(open, &[]);
    let losses = object["schemas"]["find"]["anthropic-strict"]["losses"]
        .as_array()
        .unwrap();
    let of = |pointer: &str, keyword: &str| {
        losses
            .iter()
            .find(|l| l["pointer"] == pointer && l["keyword"] == keyword)
            .unwrap_or_else(|| panic!("no {keyword} loss at {pointer}: {losses:?}"))["narrows"]
            .clone()
    };
    assert_eq!(
        of("/properties/q", "minLength"),
        false,
        "a dropped bound widens"
    );
    assert_eq!(
        of("", "additionalProperties"),
        true,
        "closing the root narrows"
    );
    assert_eq!(
        of("/properties/o", "type"),
        true,
        "typing `o` as an object narrows"
    );
}

#[test]
fn census_provider_counts_lossy_and_refused_schemas_in_the_named_dialects() {
    let (code, _) = census_json(SMALL_SET, &["--provider", "gemini"]);
    assert_eq!(code, 1, "the tree is refused in gemini");
    let typed = r#"[{"name": "get", "input_schema": {"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}}]"#;
    let (code, _) = census_json(typed, &["--provider", "gemini", "--provider", "openai"]);
    assert_eq!(code, 0, "rewritten exactly is not a loss");
    let (code, _) = census_json(typed, &["--provider", "converse-strict"]);
    assert_eq!(code, 1, "anthropic-strict closes the object");

    // The table reads definitions too when --provider is given, and says why in the summary.
    let f = file(SMALL_SET);
    let output = toolwire(
        &[
            "census",
            "--provider",
            "gemini",
            "--provider",
            "openai",
            path(&f),
        ],
        "",
    );
    assert_eq!(status(&output), 1);
    assert_eq!(
        stdout(&output).lines().last().unwrap(),
        // The recursive tree travels to OpenAI (a recursive local `$ref`), not to Gemini (no `$ref`).
        "2 tools: 2 offered, 0 left out; openai schemas: none lossy or refused; gemini schemas: 0 lossy, 1 refused"
    );
    let output = toolwire(&["census", "--provider", "gemini!", path(&f)], "");
    assert_eq!(status(&output), 2);
    // clap's words (`--provider` is a `ValueEnum`): the bad value, then the values it takes.
    assert!(stderr(&output).contains("invalid value 'gemini!' for '--provider <DIALECT>'"));
    assert!(stderr(&output).contains("[possible values: openai, openai-strict, anthropic"));
}
