//! Property tests: the form, the census and resolve over arbitrary Unicode names.

use proptest::prelude::*;
use toolwire_core::{
    census::{Resolution, Via},
    model_safe_name,
    names::{is_model_safe, DEFAULT_META_TOOLS, MAX_FORM_CHARS},
    Census,
};

/// Names that collide often: a small alphabet of safe and unsafe characters, lengths around
/// the 64 cut, and meta-tool look-alikes.
fn tricky_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[ab_/.-]{0,4}",
        2 => "\\PC{0,12}",
        1 => "[a_]{60,70}",
        1 => prop::sample::select(vec![
            "tool_search".to_string(), "tool/search".into(), "tool.schema".into(),
            "reset-tools".into(), "reset_tools".into(), "mcp/a/b".into(), "mcp_a_b".into(),
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_form_is_model_safe_idempotent_and_cut(name in any::<String>()) {
        let form = model_safe_name(&name);
        if !name.is_empty() {
            prop_assert!(is_model_safe(&form), "{form:?}");
        }
        prop_assert_eq!(model_safe_name(&form), form.clone());
        prop_assert_eq!(form.chars().count(), name.chars().count().min(MAX_FORM_CHARS));
        prop_assert_eq!(is_model_safe(&name), *form == *name && !name.is_empty());
    }

    #[test]
    fn a_census_never_offers_two_tools_with_one_form(names in prop::collection::vec(tricky_name(), 0..24)) {
        let census = Census::build(&names, &DEFAULT_META_TOOLS);
        let mut seen = std::collections::HashSet::new();
        for tool in census.offered() {
            prop_assert!(seen.insert(tool.form().to_owned()), "form {} offered twice", tool.form());
            prop_assert!(is_model_safe(tool.form()));
            prop_assert!(!DEFAULT_META_TOOLS.contains(&tool.form()));
        }
    }

    #[test]
    fn resolve_reaches_only_the_exact_tool_or_the_unique_holder_of_the_form(
        names in prop::collection::vec(tricky_name(), 0..24),
        extra_calls in prop::collection::vec(tricky_name(), 0..8),
    ) {
        let census = Census::build(&names, &DEFAULT_META_TOOLS);
        let calls = names.iter().chain(&extra_calls).cloned()
            .chain(names.iter().map(|n| model_safe_name(n).into_owned()));
        for called in calls {
            match census.resolve(&called) {
                Ok(Resolution::Meta(meta)) => prop_assert_eq!(meta, called.as_str()),
                Ok(Resolution::Tool(hit)) => {
                    prop_assert_eq!(census.tools()[hit.index].name(), hit.name);
                    prop_assert!(!DEFAULT_META_TOOLS.contains(&called.as_str()));
                    match hit.via {
                        Via::Exact => prop_assert_eq!(hit.name, called.as_str()),
                        Via::Form => {
                            prop_assert!(!names.contains(&called), "a real name was remapped");
                            let holders: std::collections::HashSet<_> = names.iter()
                                .filter(|n| !n.is_empty() && model_safe_name(n) == called.as_str())
                                .collect();
                            prop_assert_eq!(holders.len(), 1);
                            prop_assert!(holders.contains(&hit.name.to_string()));
                        }
                        via => prop_assert!(false, "a way to reach a tool this test does not know: {via:?}"),
                    }
                }
                Ok(other) => prop_assert!(false, "an answer this test does not know: {other:?}"),
                Err(unknown) => {
                    prop_assert_eq!(unknown.called, called.as_str());
                    prop_assert!(called.is_empty() || !names.contains(&called) || DEFAULT_META_TOOLS.contains(&called.as_str()));
                }
            }
        }
    }

    #[test]
    fn ranked_census_never_lets_a_higher_rank_take_a_lower_ranks_form(
        statics in prop::collection::vec(tricky_name(), 0..10),
        loaded in prop::collection::vec(tricky_name(), 0..10),
    ) {
        let census = Census::build_ranked(
            statics.iter().map(|n| (n, 0)).chain(loaded.iter().map(|n| (n, 1))),
            &DEFAULT_META_TOOLS,
        );
        let static_forms: std::collections::HashSet<_> =
            statics.iter().filter(|n| !n.is_empty()).map(|n| model_safe_name(n).into_owned()).collect();
        for tool in census.offered().filter(|t| t.rank() == 1) {
            prop_assert!(!static_forms.contains(tool.form()), "{} took a static form", tool.name());
        }
        for form in &static_forms {
            if let Ok(Resolution::Tool(hit)) = census.resolve(form) {
                prop_assert_eq!(census.tools()[hit.index].rank(), 0, "{} reached a loaded tool", form);
            }
        }
    }
}
