//! The name budget (issue 19, point 2): forms cut to the budget, the census's rules unchanged
//! over the cut forms, the budget named when it makes two forms one, hop 5 back from a cut form.

use proptest::prelude::*;
use toolwire_core::{
    census::{budgeted_form, LeftOutReason, NameBudget, Resolution, Via},
    model_safe_name,
    names::DEFAULT_META_TOOLS,
    Census,
};

fn budget(chars: usize) -> NameBudget {
    NameBudget::new(chars).unwrap()
}

fn resolved<'a>(census: &'a Census, called: &str) -> Option<(&'a str, Via)> {
    match census.resolve(called) {
        Ok(Resolution::Tool(hit)) => Some((hit.name, hit.via)),
        _ => None,
    }
}

const GITHUB: [&str; 2] = [
    "mcp/github/list_pull_request_review_comments",
    "mcp/github/list_pull_request_reviews",
];

#[test]
fn a_budget_that_makes_two_forms_one_leaves_both_out_and_names_the_budget() {
    // Apart under 64: both offered.
    let full = Census::build(GITHUB, &DEFAULT_META_TOOLS);
    assert_eq!(full.offered().count(), 2);
    // Cut to 30, both are `mcp_github_list_pull_request_r`.
    let census = Census::build_within(GITHUB, &DEFAULT_META_TOOLS, budget(30));
    assert_eq!(census.offered().count(), 0);
    for (tool, other) in census.tools().iter().zip(GITHUB.iter().rev()) {
        assert_eq!(tool.form(), "mcp_github_list_pull_request_r");
        let Some(LeftOutReason::BudgetClash {
            budget,
            full_form,
            cause,
        }) = tool.left_out_reason()
        else {
            panic!("{} should be left out for the budget", tool.name())
        };
        assert_eq!(*budget, 30);
        assert_eq!(*full_form, model_safe_name(tool.name()));
        assert_eq!(
            **cause,
            LeftOutReason::SharesForm {
                others: vec![other.to_string()]
            }
        );
        let said = tool.left_out_reason().unwrap().to_string();
        assert!(said.contains("name budget of 30"), "{said}");
        assert_eq!(tool.left_out_reason().unwrap().key(), "budget_clash");
    }
    // The cut form is unknown (a guess could run the wrong tool); each real name still works.
    assert!(census.resolve("mcp_github_list_pull_request_r").is_err());
    for name in GITHUB {
        assert_eq!(resolved(&census, name), Some((name, Via::Exact)));
    }
}

#[test]
fn hop_5_maps_a_cut_form_back_to_its_one_tool() {
    let census = Census::build_within(
        ["mcp/github/list_pull_request_reviews", "mcp/fs/read"],
        &DEFAULT_META_TOOLS,
        budget(20),
    );
    let forms: Vec<_> = census.offered().map(|t| t.form()).collect();
    assert_eq!(forms, ["mcp_github_list_pull", "mcp_fs_read"]);
    assert_eq!(
        resolved(&census, "mcp_github_list_pull"),
        Some(("mcp/github/list_pull_request_reviews", Via::Form))
    );
    assert_eq!(census.budget().chars(), 20);
}

#[test]
fn a_clash_the_budget_did_not_make_keeps_its_own_reason() {
    // `a.b` and `a/b` share `a_b` at any budget: the budget is not the cause.
    let census = Census::build_within(["x/a.b", "x/a/b"], &[], budget(10));
    assert!(matches!(
        census.tools()[0].left_out_reason(),
        Some(LeftOutReason::SharesForm { .. })
    ));
}

#[test]
fn a_cut_form_that_is_another_tools_name_or_a_meta_tool_names_the_budget() {
    let census = Census::build_within(["search", "search/web"], &[], budget(6));
    assert!(census.tools()[0].is_offered());
    let Some(LeftOutReason::BudgetClash { cause, .. }) = census.tools()[1].left_out_reason() else {
        panic!("{:?}", census.tools()[1].status())
    };
    assert_eq!(
        **cause,
        LeftOutReason::FormIsAnotherTool {
            owner: "search".into()
        }
    );
    let census = Census::build_within(["tool_search_everything"], &DEFAULT_META_TOOLS, budget(11));
    let Some(LeftOutReason::BudgetClash { cause, .. }) = census.tools()[0].left_out_reason() else {
        panic!("{:?}", census.tools()[0].status())
    };
    assert!(matches!(**cause, LeftOutReason::MetaTool { .. }));
    // The meta-tool still answers its own name.
    assert_eq!(
        census.resolve("tool_search"),
        Ok(Resolution::Meta("tool_search"))
    );
}

#[test]
fn the_full_budget_is_the_census_without_one() {
    let names = ["mcp/a/b", "mcp/a_b", &"z".repeat(70), "echo"];
    let plain = Census::build(names, &DEFAULT_META_TOOLS);
    let full = Census::build_within(names, &DEFAULT_META_TOOLS, NameBudget::FULL);
    for (a, b) in plain.tools().iter().zip(full.tools()) {
        assert_eq!((a.form(), a.status()), (b.form(), b.status()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Under any budget every offered form fits it, is the budgeted form of its name, and a
    /// call by it or by the real name reaches exactly that tool.
    #[test]
    fn every_offered_form_fits_the_budget_and_resolves_to_its_tool(
        names in prop::collection::vec("[ab_/.-]{0,3}[a-z/._]{0,40}", 0..12),
        chars in 1usize..=64,
    ) {
        let census = Census::build_within(&names, &DEFAULT_META_TOOLS, budget(chars));
        for tool in census.offered() {
            prop_assert!(tool.form().len() <= chars);
            prop_assert_eq!(tool.form(), budgeted_form(tool.name(), budget(chars)));
            prop_assert_eq!(resolved(&census, tool.form()).map(|(n, _)| n), Some(tool.name()));
            prop_assert_eq!(resolved(&census, tool.name()).map(|(n, _)| n), Some(tool.name()));
        }
    }
}
