//! Lint hygiene: the code `#[tool]` generates must not trip the lints a user denies at the call
//! site (thiserror's `tests/test_lints.rs`). Every shape of tool stands here once: public, in a
//! module, in a function body, async, `Result`, `State`, raw identifier, no arguments.
#![deny(
    warnings,
    missing_docs,
    unused_qualifications,
    unused_results,
    unused_extern_crates,
    unused_import_braces,
    unused_lifetimes,
    unreachable_pub,
    unsafe_op_in_unsafe_fn,
    trivial_casts,
    trivial_numeric_casts,
    non_ascii_idents,
    rust_2018_idioms,
    single_use_lifetimes,
    elided_lifetimes_in_paths,
    missing_debug_implementations,
    variant_size_differences,
    clippy::all,
    clippy::pedantic,
    clippy::nursery
)]
#![allow(clippy::needless_pass_by_value, clippy::unnecessary_wraps)]

use toolwire::{tool, State};

/// Tools that a public API exposes.
pub mod public {
    /// Echoes its input.
    #[toolwire::tool]
    #[must_use]
    pub const fn echo(
        /// What to echo.
        text: String,
    ) -> String {
        text
    }
}

/// Counts in the app state.
#[tool]
async fn count(counter: State<std::sync::atomic::AtomicU32>) -> Result<u32, std::io::Error> {
    std::future::ready(()).await;
    Ok(counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
}

/// A keyword as a name.
#[tool]
const fn r#type(r#match: Option<bool>) -> Option<bool> {
    r#match
}

/// No arguments, no result.
#[tool(name = "ping.pong", description = "Pings.")]
const fn ping() {}

#[test]
fn tools_in_a_function_body_pass_the_lints_too() {
    /// Lives inside a test function.
    #[tool]
    fn nested(a: u8) -> u8 {
        a
    }
    let names: Vec<&str> = toolwire::registered_tools()
        .iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["count", "echo", "nested", "ping.pong", "type"]);
}
