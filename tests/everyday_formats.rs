//! Everyday `#[tool]` arguments whose schemas schemars writes with a `format` of its own (issue
//! 28, point 1): `std::net::IpAddr` (`ip`), chrono's `NaiveDateTime` (`partial-date-time`) and
//! `NaiveTime` (`partial-time`). The dialects that drop those formats lose a rule the tool's own
//! validator checks, so the loss is guarded and the rail passes in all six dialects; the tool
//! refuses a value outside the format naming the rule, and takes every value chrono writes.

use std::net::IpAddr;

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use serde_json::{json, Value};
use toolwire::{registered_tools, schema::Dialect, schema::Standing, tool, AppState, ToolError};

/// Books a visit to a host.
#[tool]
fn book(
    /// The host's address.
    host: IpAddr,
    /// When, on the host's own clock.
    at: NaiveDateTime,
    /// The daily check's time, on the host's own clock.
    daily: NaiveTime,
) -> Value {
    json!({"host": host, "at": at, "daily": daily})
}

fn call(arguments: Value) -> Result<Value, ToolError> {
    let book = registered_tools()
        .into_iter()
        .find(|t| t.name == "book")
        .expect("`#[tool] fn book` is registered");
    futures::executor::block_on(book.call(arguments, AppState::new()))
}

#[test]
fn the_formats_schemars_writes_are_the_ones_checked_here() {
    let book = registered_tools()
        .into_iter()
        .find(|t| t.name == "book")
        .expect("`#[tool] fn book` is registered");
    let properties = &book.definition().parameters["properties"];
    let formats: Vec<&Value> = ["host", "at", "daily"]
        .iter()
        .map(|p| &properties[*p]["format"])
        .collect();
    assert_eq!(formats, ["ip", "partial-date-time", "partial-time"]);
}

#[test]
fn a_tool_taking_an_address_and_naive_times_passes_the_rail_in_every_dialect(
) -> Result<(), toolwire::rail::SchemaFindings> {
    toolwire::rail::check_tool_schemas(&Dialect::ALL)
}

#[test]
fn each_dropped_format_is_listed_as_guarded() {
    let findings = toolwire::rail::tool_schema_findings(&Dialect::ALL);
    let formats: Vec<(Dialect, &str, Standing)> = findings
        .findings()
        .iter()
        .filter(|f| f.problem.starts_with("`format`"))
        .map(|f| (f.dialect, f.pointer.as_str(), f.standing))
        .collect();
    // At least the strict dialects drop them (they take a short list of string formats).
    assert!(
        formats
            .iter()
            .any(|(d, p, _)| *d == Dialect::AnthropicStrict && *p == "/properties/host"),
        "{findings}"
    );
    assert!(
        formats.iter().all(|(_, _, s)| *s == Standing::Guarded),
        "{findings}"
    );
}

#[test]
fn a_value_outside_its_format_is_refused_by_the_validator_naming_the_rule() {
    let good = json!({"host": "::1", "at": "2024-06-15T07:00:00", "daily": "07:00:00"});
    for (argument, bad) in [
        ("host", "not an address"),
        ("host", "fe80::1%eth0"),
        ("at", "2024-06-15 07:00:00"),
        ("at", "2024-06-15T07:00:00Z"),
        ("at", "2023-02-29T07:00:00"),
        ("daily", "24:00:00"),
        ("daily", "07:00"),
        ("daily", "07:00:00+01:00"),
    ] {
        let mut arguments = good.clone();
        arguments[argument] = json!(bad);
        match call(arguments) {
            Err(ToolError::InvalidArguments {
                argument: at,
                reason,
                ..
            }) => {
                assert_eq!(at.as_deref(), Some(argument), "{bad}: {reason}");
                assert!(reason.contains("rule `format`"), "{bad}: {reason}");
            }
            other => panic!("{bad} passed as `{argument}`: {other:?}"),
        }
    }
    assert_eq!(
        call(good.clone()),
        Ok(good),
        "the same call with good values runs"
    );
}

#[test]
fn every_value_chrono_writes_is_taken() {
    let date = NaiveDate::from_ymd_opt(2024, 2, 29).expect("a leap day");
    // Whole seconds, then each precision chrono writes (milli, micro, nano: `.3`, `.6`, `.9`
    // digits), then a leap second (chrono writes `:60`).
    let times = [
        NaiveTime::from_hms_opt(0, 0, 0),
        NaiveTime::from_hms_milli_opt(7, 30, 5, 120),
        NaiveTime::from_hms_micro_opt(12, 0, 59, 1),
        NaiveTime::from_hms_nano_opt(23, 59, 59, 999_999_999),
        NaiveTime::from_hms_milli_opt(23, 59, 59, 1_500),
    ];
    for time in times {
        let time = time.expect("a time chrono makes");
        let at = NaiveDateTime::new(date, time);
        let arguments = json!({"host": "192.0.2.1", "at": at, "daily": time});
        assert_eq!(call(arguments.clone()), Ok(arguments), "{at}");
    }
    for host in [
        "127.0.0.1",
        "::",
        "2001:db8::8a2e:370:7334",
        "::ffff:192.0.2.1",
    ] {
        let host: IpAddr = host.parse().expect("an address");
        let arguments = json!({"host": host, "at": "2024-06-15T07:00:00", "daily": "07:00:00"});
        assert_eq!(call(arguments.clone()), Ok(arguments), "{host}");
    }
}
