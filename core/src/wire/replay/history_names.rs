//! Which name a renamed call carries in history: a name that, in the
//! census of the request the history travels with, reaches the tool that was called, or no
//! tool at all, never another.
//!
//! Policy (hop 5 of `docs/spec/tool-name-wire.md`: an exact real name first, then a form that
//! exactly one tool travels as): the called tool's offered form when it is its own (one tool
//! travels as it and hop 5 maps it back to that tool); otherwise an alias, the called name's
//! form with a hash of the call's name after it, that no tool of the census answers to (our
//! rule: the model reads it in history and may call it again, and only the conversation that
//! recorded it maps it back). Pure: no I/O.

use std::borrow::Cow;

use crate::census::{Census, Resolution, UnknownTool};
use crate::names::{model_safe_name, MAX_FORM_CHARS};

/// The real name of the tool a name of replayed history reached, called in a namespace (the
/// Responses API's) or not, when the conversation recorded it: what [`history_name`] must not
/// give a call that reached another tool, and what a call by it reaches in every later census.
pub(crate) type Recorded<'a> = dyn Fn(Option<&str>, &str) -> Option<String> + 'a;

/// The name a replayed call carries, and whether it is an alias (reaching no tool).
pub(crate) struct HistoryName {
    pub(crate) name: String,
    pub(crate) alias: bool,
}

/// Hop 5 in a conversation whose history names are `recorded`: a recorded name reaches the
/// tool it reached when it was recorded, found by its real name alone, or no tool when that
/// tool is gone, never another, whatever the census is now; any other name resolves in the
/// census ([`Census::resolve_call`]).
pub(crate) fn resolve_in_history<'c>(
    census: &'c Census,
    recorded: &Recorded<'_>,
    namespace: Option<&str>,
    called: &str,
) -> Result<Resolution<'c>, UnknownTool> {
    let Some(tool) = recorded(namespace, called) else {
        return census.resolve_call(namespace, called);
    };
    match census.resolve(&tool) {
        // The exact real name only: a form that is the recorded name is another tool's.
        Ok(Resolution::Tool(hit)) if hit.name == tool => Ok(Resolution::Tool(hit)),
        _ => Err(UnknownTool {
            called: called.to_owned(),
        }),
    }
}

/// Whether two resolutions reach the same thing: the same tool of the census (by whatever
/// way), the same meta-tool, or both nothing.
fn same_target(
    a: &Result<Resolution<'_>, impl Sized>,
    b: &Result<Resolution<'_>, impl Sized>,
) -> bool {
    match (a, b) {
        (Ok(Resolution::Tool(a)), Ok(Resolution::Tool(b))) => a.index == b.index,
        (Ok(Resolution::Meta(a)), Ok(Resolution::Meta(b))) => a == b,
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

/// The name `called` (inside `namespace`, for a Responses API call made in one) carries in
/// replayed history, in `census` and the conversation's `recorded` history names: refused
/// (`refuses`) is what the format refuses there. The call resolves as hop 5 in the
/// conversation does ([`resolve_in_history`]), and a name recorded for another tool is never
/// given to it.
pub(crate) fn history_name(
    census: &Census,
    namespace: Option<&str>,
    called: &str,
    refuses: &dyn Fn(&str) -> bool,
    recorded: &Recorded<'_>,
) -> HistoryName {
    let resolve = |name: &str| resolve_in_history(census, recorded, namespace, name);
    let original = resolve(called);
    let reached_tool = match &original {
        Ok(Resolution::Tool(hit)) => Some(hit.name),
        _ => None,
    };
    // Recorded for another tool, or for a tool when this call reached none.
    let means_another = |name: &str| {
        recorded(namespace, name).is_some_and(|tool| Some(tool.as_str()) != reached_tool)
    };
    // An unknown call gets an alias too: a form of it could be a tool's name in a later census.
    let candidate: Option<Cow<'_, str>> = match &original {
        // A flat call: the tool's offered form, which hop 5 maps back only when it is unique.
        Ok(Resolution::Tool(hit)) if namespace.is_none() => {
            let tool = &census.tools()[hit.index];
            tool.is_offered().then(|| Cow::Borrowed(tool.form()))
        }
        Ok(_) => Some(model_safe_name(called)),
        Err(_) => None,
    };
    if let Some(candidate) = candidate {
        if !candidate.is_empty()
            && !refuses(&candidate)
            && !means_another(&candidate)
            && same_target(&resolve(&candidate), &original)
        {
            return HistoryName {
                name: candidate.into_owned(),
                alias: false,
            };
        }
    }
    let free = |alias: &str| match recorded(namespace, alias) {
        // This call's own alias, recorded on an earlier replay.
        Some(tool) => Some(tool.as_str()) == reached_tool,
        None => {
            census.resolve(alias).is_err()
                && census.resolve_call(namespace, alias).is_err()
                && recorded(None, alias).is_none()
        }
    };
    HistoryName {
        name: alias(namespace, called, &free),
        alias: true,
    }
}

/// An alias of the call: the called name's form, cut so that `_h` and eight hex digits of a
/// hash of the call (and a salt, raised until `free` takes the alias) fit [`MAX_FORM_CHARS`],
/// the shortest limit a replayed name meets (Chat Completions and Converse: 64).
/// Deterministic, so one call replayed twice in one census carries one alias. `free`: no tool
/// of the census answers to it, flat or in the namespace, and it means no other call of the
/// conversation.
fn alias(namespace: Option<&str>, called: &str, free: &dyn Fn(&str) -> bool) -> String {
    let form = model_safe_name(called);
    let mut salt = 0u32;
    loop {
        let suffix = format!("_h{:08x}", fnv1a(namespace, called, salt));
        // The form is ASCII: any byte is a character boundary.
        let keep = form.len().min(MAX_FORM_CHARS - suffix.len());
        let alias = format!("{}{suffix}", &form[..keep]);
        if free(&alias) {
            return alias;
        }
        salt = salt.wrapping_add(1);
    }
}

/// 32-bit FNV-1a over the namespace, the called name and the salt: a stable hash (not std's,
/// whose output may change between releases), for an alias a persisted conversation keeps.
fn fnv1a(namespace: Option<&str>, called: &str, salt: u32) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    let namespace = namespace.unwrap_or_default().as_bytes();
    let salt = salt.to_le_bytes();
    let bytes = namespace
        .iter()
        .chain(&[0])
        .chain(called.as_bytes())
        .chain(&salt);
    for &byte in bytes {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::replay::outside_form_chars;

    fn none(_: Option<&str>, _: &str) -> Option<String> {
        None
    }

    #[test]
    fn a_unique_form_is_kept_and_a_taken_one_is_aliased() {
        let census = Census::build(["mcp/x/search.web", "mcp/y/fetch"], &[]);
        let name = history_name(&census, None, "mcp/y/fetch", &outside_form_chars, &none);
        assert_eq!((name.name.as_str(), name.alias), ("mcp_y_fetch", false));
        let census = Census::build(["mcp/x/search.web", "mcp_x_search_web"], &[]);
        let name = history_name(
            &census,
            None,
            "mcp/x/search.web",
            &outside_form_chars,
            &none,
        );
        assert!(name.alias, "{}", name.name);
        assert!(name.name.starts_with("mcp_x_search_web_h"), "{}", name.name);
        assert!(census.resolve(&name.name).is_err());
    }

    #[test]
    fn an_alias_fits_64_characters_and_is_stable() {
        let long = format!("mcp/x/{}", "a.".repeat(60));
        let census = Census::build([long.as_str()], &[]);
        let called = format!("{long}!");
        let one = history_name(&census, None, &called, &outside_form_chars, &none);
        let two = history_name(&census, None, &called, &outside_form_chars, &none);
        assert!(one.alias);
        assert_eq!(one.name.len(), MAX_FORM_CHARS);
        assert_eq!(one.name, two.name);
        assert!(!outside_form_chars(&one.name));
    }

    #[test]
    fn an_alias_recorded_for_another_call_is_not_reused() {
        let census = Census::build(["mcp_x_search_web"], &[]);
        let first = history_name(
            &census,
            None,
            "mcp/x/search.web",
            &outside_form_chars,
            &none,
        );
        let taken = first.name.clone();
        let other =
            move |_: Option<&str>, name: &str| (name == taken).then(|| "someone/else".to_owned());
        let again = history_name(
            &census,
            None,
            "mcp/x/search.web",
            &outside_form_chars,
            &other,
        );
        assert!(again.alias);
        assert_ne!(again.name, first.name);
    }
}
