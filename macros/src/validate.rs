//! The naming rules a tool must pass at compile time, from toolwire-core (the one
//! implementation the runtime uses too): a name, a form that is no meta-tool's and that every
//! provider accepts, and a description.
//!
//! Policy: each error names the tool and its form, says what refuses it, and says the fix.
//! Forms shared by two tools of one crate are not checked here (one invocation sees one tool):
//! `expand.rs` emits a marker that makes rustc report them.

use toolwire_core::{
    model_safe_name,
    names::meta_tool_named,
    wire::{check_definition_name, LlmProvider},
};

use crate::parse::{Errors, Tool};

/// What validation worked out for a valid tool.
pub struct Checked {
    /// The model-safe form.
    pub form: String,
}

/// Checks `tool`, recording every problem in `errors`.
pub fn validate(tool: &Tool, errors: &mut Errors) -> Checked {
    let name = &tool.name;
    let form = model_safe_name(name).into_owned();
    let how = if tool.name_given {
        format!("#[tool(name = {name:?})]")
    } else {
        format!("#[tool] fn {}", tool.item.sig.ident)
    };

    if name.is_empty() {
        errors.at_span(
            tool.name_span,
            "#[tool(name = \"\")]: the tool name is empty, and no provider accepts an empty name nor can a call name it; give the tool a name, such as `name = \"search_web\"`",
        );
        return Checked { form };
    }

    if let Some(meta) = meta_tool_named(&form) {
        let travels = if form == *name {
            " is".to_owned()
        } else {
            format!(" travels as `{form}`, which is")
        };
        errors.at_span(
            tool.name_span,
            format!(
                "{how}: the tool `{name}`{travels} the name of the runtime's meta-tool `{meta}`; the runtime answers that name, so no call could reach this tool; rename the tool (for example `name = \"my_{form}\"`)"
            ),
        );
    }

    for provider in LlmProvider::ALL {
        if provider == LlmProvider::Gemini && tool.allow_gemini_refusal {
            continue;
        }
        if let Err(rejection) = check_definition_name(provider, &form) {
            let fix = if provider == LlmProvider::Gemini {
                "rename the tool so its form starts with a letter or `_`, or, if this tool is never sent to Gemini, opt out with #[tool(allow_gemini_refusal)]"
            } else {
                "rename the tool"
            };
            errors.at_span(
                tool.name_span,
                format!(
                    "{how}: the tool `{name}` travels as `{form}`, which {provider} refuses: {rejection}; {fix}"
                ),
            );
        }
    }

    if tool.description.is_empty() {
        errors.at_span(
            tool.description_span,
            format!(
                "{how}: the tool `{name}` (form `{form}`) has no description, and Bedrock Converse refuses a tool without one; write a doc comment on the function or #[tool(description = \"...\")]"
            ),
        );
    }

    Checked { form }
}
