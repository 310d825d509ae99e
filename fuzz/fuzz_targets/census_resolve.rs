//! The census and `resolve` over arbitrary tool lists, ranks and taken names.
//!
//! Properties (tool-name-wire.md, hops 1 and 5): a request never carries one form twice;
//! offered forms are model-safe and neither a taken name nor a taken name's form; a taken name,
//! and a taken name's form, always resolve to that meta-tool (a name before another's form);
//! a call by any name or form reaches either the tool whose real name it exactly is (the first
//! of that name, unless a higher rank refused it) or the unique offered tool travelling as it,
//! and never anything else; every offered tool is reachable by its name and by its form.
#![no_main]

use std::collections::{BTreeMap, HashMap, HashSet};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use toolwire_core::{
    census::{build_sanitized_index, LeftOutReason, Resolution, Via},
    model_safe_name,
    names::{is_model_safe, DEFAULT_META_TOOLS},
    Census,
};
use toolwire_fuzz::FuzzName;

#[derive(Debug, Arbitrary)]
struct Input {
    tools: Vec<(FuzzName, u8)>,
    taken: Vec<FuzzName>,
    with_meta_tools: bool,
    ranked: bool,
    probes: Vec<FuzzName>,
    limit: u8,
}

fuzz_target!(|input: Input| {
    let tools: Vec<(String, u32)> = input
        .tools
        .iter()
        .map(|(n, r)| (n.0.clone(), if input.ranked { u32::from(r % 3) } else { 0 }))
        .collect();
    let mut taken: Vec<String> = input.taken.iter().map(|n| n.0.clone()).collect();
    if input.with_meta_tools {
        taken.extend(DEFAULT_META_TOOLS.iter().map(|m| m.to_string()));
    }
    let taken_refs: Vec<&str> = taken.iter().map(String::as_str).collect();

    let census = if input.ranked {
        Census::build_ranked(tools.iter().map(|(n, r)| (n.as_str(), *r)), &taken_refs)
    } else {
        Census::build(tools.iter().map(|(n, _)| n.as_str()), &taken_refs)
    };
    check(&census, &tools, &taken_refs, &input);

    // The spec's build_sanitized_index is the rank-0 census without taken names.
    if !input.ranked {
        let plain = Census::build(tools.iter().map(|(n, _)| n.as_str()), &[]);
        let index = build_sanitized_index(tools.iter().map(|(n, _)| n.as_str()));
        let healing: BTreeMap<String, String> = plain
            .healing()
            .into_iter()
            .map(|(f, n)| (f.to_owned(), n.to_owned()))
            .collect();
        assert_eq!(index.healing, healing);
        assert_eq!(&index.collisions, plain.collisions());
        for (name, form) in &index.left_out {
            assert_eq!(*form, model_safe_name(name));
            assert!(
                index.collisions.contains_key(form),
                "{name:?} left out alone"
            );
            assert!(!index.healing.contains_key(form));
        }
    }
});

/// The meta-tool a call by `s` reaches: the taken name `s` itself, else the first taken name
/// whose form `s` is (a taken name travels as its form too).
fn meta_for<'t>(s: &str, taken: &[&'t str]) -> Option<&'t str> {
    taken
        .iter()
        .copied()
        .find(|t| *t == s)
        .or_else(|| taken.iter().copied().find(|t| model_safe_name(t) == s))
}

fn check(census: &Census, tools: &[(String, u32)], taken_list: &[&str], input: &Input) {
    let taken: HashSet<&str> = taken_list.iter().copied().collect();
    let entries = census.tools();
    assert_eq!(entries.len(), tools.len());
    let mut first_of: HashMap<&str, usize> = HashMap::new();
    for (i, (tool, (name, rank))) in entries.iter().zip(tools).enumerate() {
        assert_eq!(tool.name(), name);
        assert_eq!(tool.form(), model_safe_name(name));
        assert_eq!(tool.rank(), *rank);
        first_of.entry(name.as_str()).or_insert(i);
    }

    // Which tools a call by real name must reach: the first of each non-empty name, unless a
    // higher rank refused it or the runtime answers that name.
    let reachable = |i: usize| {
        let tool = &entries[i];
        !tool.name().is_empty()
            && first_of[tool.name()] == i
            && meta_for(tool.name(), taken_list).is_none()
            && !matches!(
                tool.left_out_reason(),
                Some(LeftOutReason::Outranked { .. })
            )
    };

    // Offered forms: model-safe, not taken, one tool each.
    let mut offered_by_form: HashMap<&str, usize> = HashMap::new();
    for (i, tool) in entries.iter().enumerate() {
        if !tool.is_offered() {
            continue;
        }
        assert!(
            is_model_safe(tool.form()),
            "offered unsafe {:?}",
            tool.form()
        );
        assert!(
            meta_for(tool.form(), taken_list).is_none(),
            "offered a taken form {:?}",
            tool.form()
        );
        assert!(
            meta_for(tool.name(), taken_list).is_none(),
            "offered {:?}, whose real name is taken: no call by that name reaches it",
            tool.name()
        );
        if let Some(other) = offered_by_form.insert(tool.form(), i) {
            panic!(
                "two offered tools travel as {:?}: {:?} and {:?}",
                tool.form(),
                entries[other].name(),
                tool.name()
            );
        }
    }

    // Left-out reasons say something true.
    for (i, tool) in entries.iter().enumerate() {
        match tool.left_out_reason() {
            None => {}
            Some(LeftOutReason::EmptyName) => assert!(tool.name().is_empty()),
            Some(LeftOutReason::DuplicateName { first }) => {
                assert_eq!(*first, first_of[tool.name()]);
                assert!(*first < i);
            }
            Some(LeftOutReason::MetaTool { meta }) => {
                assert!(taken.contains(meta.as_str()));
                assert_eq!(meta_for(tool.form(), taken_list), Some(meta.as_str()));
            }
            Some(LeftOutReason::FormIsAnotherTool { owner }) => {
                assert_eq!(owner, tool.form());
                assert_ne!(owner, tool.name());
                assert!(entries[first_of[owner.as_str()]].is_offered());
            }
            Some(LeftOutReason::SharesForm { others }) => {
                assert!(!others.is_empty());
                for other in others {
                    assert_eq!(model_safe_name(other), tool.form());
                    assert_ne!(other, tool.name());
                }
            }
            Some(LeftOutReason::Withheld) => panic!("only Census::withhold withholds a tool"),
            Some(LeftOutReason::Outranked { holders }) => {
                assert!(!holders.is_empty());
                for holder in holders {
                    let h = &entries[first_of[holder.as_str()]];
                    assert_eq!(h.form(), tool.form());
                    assert!(h.rank() < tool.rank());
                }
            }
            Some(other) => panic!("a reason this target does not know: {other:?}"),
        }
        if tool.is_offered() {
            assert!(reachable(i), "offered but unreachable: {:?}", tool.name());
        }
    }

    // Every string a call could carry: names, forms, taken names and probes.
    let mut called: Vec<&str> = Vec::new();
    for tool in entries {
        called.push(tool.name());
        called.push(tool.form());
    }
    called.extend(taken.iter().copied());
    called.extend(input.probes.iter().map(|p| p.0.as_str()));

    for s in called {
        let got = census.resolve(s);
        if let Some(meta) = meta_for(s, taken_list) {
            assert_eq!(got, Ok(Resolution::Meta(meta)), "taken {s:?}");
            continue;
        }
        let exact = first_of.get(s).copied().filter(|&i| reachable(i));
        match got {
            Ok(Resolution::Meta(m)) => panic!("{s:?} resolved to the meta-tool {m:?}, not taken"),
            Ok(Resolution::Tool(hit)) => {
                assert_eq!(hit.name, entries[hit.index].name());
                match hit.via {
                    Via::Exact => {
                        assert_eq!(hit.name, s);
                        assert_eq!(Some(hit.index), exact, "{s:?} reached an unreachable tool");
                    }
                    Via::Form => {
                        assert_eq!(exact, None, "{s:?} is a real name but was healed");
                        assert_eq!(
                            offered_by_form.get(s),
                            Some(&hit.index),
                            "{s:?} healed to {:?}, not the unique offered holder",
                            hit.name
                        );
                        assert_ne!(hit.name, s);
                    }
                    via => panic!("a way to reach a tool this target does not know: {via:?}"),
                }
            }
            Ok(other) => panic!("an answer this target does not know: {other:?}"),
            Err(unknown) => {
                assert_eq!(unknown.called, s);
                assert_eq!(exact, None, "the real name {s:?} is unknown");
                assert_eq!(
                    offered_by_form.get(s),
                    None,
                    "the offered form {s:?} is unknown"
                );
            }
        }
    }

    // Every offered tool is reached by its name and by its form.
    for (&form, &i) in &offered_by_form {
        for s in [form, entries[i].name()] {
            match census.resolve(s) {
                Ok(Resolution::Tool(hit)) => assert_eq!(hit.index, i, "{s:?}"),
                other => panic!(
                    "offered {:?} not reached by {s:?}: {other:?}",
                    entries[i].name()
                ),
            }
        }
    }

    // The healing map is exactly the Form resolutions.
    for (form, name) in census.healing() {
        match census.resolve(form) {
            Ok(Resolution::Tool(hit)) => {
                assert_eq!((hit.name, hit.via), (name, Via::Form));
            }
            other => panic!("healing {form:?} -> {name:?} but resolve gives {other:?}"),
        }
    }
    for (form, names) in census.collisions() {
        // Two or more names; one only when a tool IS a taken name (the list is deduplicated).
        assert!(
            names.len() >= 2 || meta_for(form, taken_list).is_some(),
            "collision {form:?} of {names:?}"
        );
        assert!(names.windows(2).all(|w| w[0] < w[1]), "unsorted {names:?}");
    }

    // closest_offered: offered forms only, at most `limit`, closest first.
    let limit = usize::from(input.limit % 8);
    for probe in input.probes.iter().take(2) {
        let close = census.closest_offered(&probe.0, limit);
        assert_eq!(close.len(), limit.min(offered_by_form.len()));
        for form in &close {
            assert!(offered_by_form.contains_key(form));
        }
    }
}
