//! The validator a `#[tool]` checks its arguments with, built in one place: the tool's own
//! handler (`toolwire::__private`) compiles its schema with [`arguments_validator_options`],
//! and a lost `format` is guarded exactly when these options check it ([`is_checked_format`]),
//! so what the report calls guarded and what the tool refuses cannot drift apart.
//!
//! Beside `jsonschema`'s own formats it checks the ones schemars writes for everyday Rust types
//! that `jsonschema` does not know (`schemars-1.2.3/src/json_schema_impls/`): `ip` for
//! `std::net::IpAddr` (`primitives.rs`), `partial-date-time` and `partial-time` for chrono's
//! `NaiveDateTime`/`NaiveTime` (`chrono04.rs`) and jiff's `civil::DateTime`/`civil::Time`
//! (`jiff02.rs`). Not `zoned-date-time` (jiff's `Zoned`): it is an RFC 9557 date-time with a
//! time zone annotation (`2024-06-15T07:00:00-04:00[America/New_York]`), valid only when the
//! offset is one the named zone has at that instant, which only the time zone database can
//! say; a check of its shape alone would call guarded a rule nobody checks, so its loss stays
//! unguarded.

use std::net::IpAddr;
use std::sync::OnceLock;

use jsonschema::{Draft, ValidationOptions};

/// What schemars writes (`SchemaSettings::draft2020_12`), and what the validator reads a schema
/// as: `#[tool]` schemas carry no `$schema`.
const DRAFT: Draft = Draft::Draft202012;

/// A format's check: whether a string is of the format.
type FormatCheck = fn(&str) -> bool;

/// The formats checked here that `jsonschema` does not know, each with its check.
const OWN_FORMATS: [(&str, FormatCheck); 3] = [
    ("ip", is_ip),
    ("partial-date-time", is_partial_date_time),
    ("partial-time", is_partial_time),
];

/// The options every `#[tool]`'s arguments validator is built with: draft 2020-12, formats
/// checked (a `format` schemars writes is a bound like any other), `jsonschema`'s own formats
/// and the ones in this file's doc. A `format` none of them knows is ignored
/// (`should_ignore_unknown_formats` is left at its default): refusing it would fail every call
/// of the tool, and its loss is unguarded. Without the crate's `resolve-*` features nothing is
/// fetched: a `$ref` outside the schema is an error when it compiles, never a request.
///
/// Not public API: the tool's handler and the tests that stand for it build with it.
///
/// ```
/// use serde_json::json;
/// let schema = json!({"type": "string", "format": "partial-time"});
/// let validator = toolwire_core::schema::arguments_validator_options().build(&schema).unwrap();
/// assert!(validator.is_valid(&json!("07:30:00.25")));
/// assert!(!validator.is_valid(&json!("07:30")));
/// ```
#[doc(hidden)]
pub fn arguments_validator_options() -> ValidationOptions<'static> {
    OWN_FORMATS.iter().fold(
        jsonschema::options()
            .with_draft(DRAFT)
            .should_validate_formats(true),
        |options, (name, check)| options.with_format(*name, *check),
    )
}

/// Whether the `#[tool]`'s validator checks the format `format`: asked of the options it is
/// built with ([`arguments_validator_options`], `ValidationOptions::is_known_format`), so a
/// format `jsonschema` learns (or, with its `idna` feature, `idn-email`) is counted as soon as
/// the validator checks it.
pub(crate) fn is_checked_format(format: &str) -> bool {
    static OPTIONS: OnceLock<ValidationOptions<'static>> = OnceLock::new();
    OPTIONS
        .get_or_init(arguments_validator_options)
        .is_known_format(DRAFT, format)
}

/// `ip`: an IPv4 or an IPv6 address, as `IpAddr` reads and writes one (dotted quad without
/// leading zeros, RFC 5952 text; no zone index, no brackets).
fn is_ip(text: &str) -> bool {
    text.parse::<IpAddr>().is_ok()
}

/// `partial-date-time`: RFC 3339's `full-date "T" partial-time` (§ 5.6), a date-time without
/// an offset, `T` in either case (the note under § 5.6's grammar). chrono's `NaiveDateTime`
/// writes it so (`2024-06-15T07:00:00.123`, its `Debug`, chrono's `naive/datetime/serde.rs`),
/// and so does jiff's `civil::DateTime` (its `Display`, `jiff/src/civil/datetime.rs`). A year
/// past 9999 or before 0, which both write with a sign, has no RFC 3339 form and is refused,
/// as `date-time` refuses it.
fn is_partial_date_time(text: &str) -> bool {
    match text.as_bytes().get(10) {
        Some(b'T' | b't') => is_full_date(&text[..10]) && is_partial_time(&text[11..]),
        _ => false,
    }
}

/// `partial-time`: RFC 3339's `time-hour ":" time-minute ":" time-second [time-secfrac]`
/// (§ 5.6): two digits each, any number (at least one) of fraction digits, no offset. chrono
/// writes 3, 6 or 9 fraction digits, jiff as many as it needs. A leap second (`60`) is taken
/// at any minute: without an offset, when one may fall cannot be known (§ 5.7), and chrono
/// writes one wherever its value holds it.
fn is_partial_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 8 || bytes[2] != b':' || bytes[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        two_digits(&bytes[0..2]),
        two_digits(&bytes[3..5]),
        two_digits(&bytes[6..8]),
    ) else {
        return false;
    };
    let fraction = &bytes[8..];
    let fraction_ok = match fraction.split_first() {
        None => true,
        Some((b'.', digits)) => !digits.is_empty() && digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    };
    hour <= 23 && minute <= 59 && second <= 60 && fraction_ok
}

/// RFC 3339's `full-date`: `YYYY-MM-DD`, a day the month has (February 29 in leap years).
fn is_full_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let (Some(century), Some(year_in_century), Some(month), Some(day)) = (
        two_digits(&bytes[0..2]),
        two_digits(&bytes[2..4]),
        two_digits(&bytes[5..7]),
        two_digits(&bytes[8..10]),
    ) else {
        return false;
    };
    let year = u32::from(century) * 100 + u32::from(year_in_century);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// Two ASCII digits as a number.
fn two_digits(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [a @ b'0'..=b'9', b @ b'0'..=b'9'] => Some((a - b'0') * 10 + (b - b'0')),
        _ => None,
    }
}
