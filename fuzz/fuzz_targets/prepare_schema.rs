//! `prepare_schema` for every dialect over arbitrary JSON (the bytes parsed as JSON; anything
//! else is skipped).
//!
//! Properties (tool-schema-wire.md, "Rewrites" and "Where each part lives"): preparing never
//! panics; a prepared schema always passes `check_schema` for its dialect; `AsIs` is the schema
//! byte for byte, `Lossy` exactly when losses are listed; the rewriter never leaves behind a
//! problem it does not mend or refuse itself ("(left after rewriting)"); and the cache
//! (`prepare_schema_cached`) gives the same answer as preparing afresh.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolwire_core::schema::{
    check_schema, prepare_schema, prepare_schema_cached, Dialect, SchemaStatus,
};

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for dialect in Dialect::ALL {
        let fresh = prepare_schema(dialect, &schema);
        match &fresh {
            Ok(prepared) => {
                let problems = check_schema(dialect, &prepared.schema);
                assert!(
                    problems.is_empty(),
                    "{dialect}: prepared {} still has {problems:?}",
                    prepared.schema
                );
                assert_eq!(
                    prepared.status == SchemaStatus::Lossy,
                    !prepared.losses.is_empty(),
                    "{dialect}: {:?} with losses {:?}",
                    prepared.status,
                    prepared.losses
                );
                if prepared.status == SchemaStatus::AsIs {
                    assert_eq!(prepared.schema, schema, "{dialect}: as is, yet changed");
                }
            }
            Err(refusal) => {
                assert!(
                    !refusal.why.ends_with("(left after rewriting)"),
                    "{dialect}: the rewriter left {refusal}"
                );
            }
        }
        let cached = prepare_schema_cached(dialect, &schema);
        assert_eq!(*cached, fresh, "{dialect}: the cache disagrees");
    }
});
