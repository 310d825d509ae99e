//! The formats the `#[tool]`'s validator checks beside `jsonschema`'s own, the ones schemars
//! writes for everyday types (issue 28, point 1): `ip` (`std::net::IpAddr`),
//! `partial-date-time` and `partial-time` (chrono's `NaiveDateTime`/`NaiveTime`, jiff's
//! `civil::DateTime`/`civil::Time`). Each takes what those types write and what RFC 3339's
//! grammar allows (§ 5.6), and refuses the rest.

use serde_json::json;

/// Whether the `#[tool]`'s validator takes `value` under `{"type": "string", "format": format}`.
fn takes(format: &str, value: &str) -> bool {
    toolwire_core::schema::arguments_validator_options()
        .build(&json!({"type": "string", "format": format}))
        .expect("compiles")
        .is_valid(&json!(value))
}

fn check(format: &str, good: &[&str], bad: &[&str]) {
    for value in good {
        assert!(takes(format, value), "`{format}` refuses {value:?}");
    }
    for value in bad {
        assert!(!takes(format, value), "`{format}` takes {value:?}");
    }
}

#[test]
fn ip_is_an_ipv4_or_ipv6_address() {
    check(
        "ip",
        &[
            "127.0.0.1",
            "0.0.0.0",
            "::",
            "::1",
            "2001:db8::8a2e:370:7334",
            "2001:DB8::1",
            "::ffff:192.0.2.1",
        ],
        &[
            "",
            "localhost",
            "256.0.0.1",
            "01.2.3.4",
            "1.2.3",
            "[::1]",
            "fe80::1%eth0",
            "::1/128",
            " 127.0.0.1",
            "2001:db8:::1",
        ],
    );
}

#[test]
fn partial_time_is_a_time_without_an_offset() {
    check(
        "partial-time",
        &[
            "00:00:00",
            "23:59:59",
            // A leap second: without an offset, any minute may hold one.
            "23:59:60",
            "12:30:60.5",
            // chrono's precisions (3, 6, 9 digits) and jiff's shortest ones.
            "07:00:00.123",
            "07:00:00.123456",
            "07:00:00.123456789",
            "07:00:00.1",
            "07:00:00.1234567891",
        ],
        &[
            "",
            "7:00:00",
            "07:00",
            "07:0:00",
            "24:00:00",
            "12:60:00",
            "12:00:61",
            "07:00:00.",
            "07:00:00,5",
            "07:00:00Z",
            "07:00:00+01:00",
            "07:00:00.5Z",
            "07-00-00",
            "07:00:00 ",
            "ab:cd:ef",
            "07:00:0٣",
        ],
    );
}

#[test]
fn partial_date_time_is_a_date_and_a_time_without_an_offset() {
    check(
        "partial-date-time",
        &[
            "2024-06-15T07:00:00",
            "2024-06-15t07:00:00",
            "2024-02-29T00:00:00",
            "2000-02-29T00:00:00",
            "0000-01-01T00:00:00",
            "9999-12-31T23:59:60.999999999",
            "2024-06-15T07:00:00.123",
        ],
        &[
            "",
            "2024-06-15",
            "2024-06-15T",
            "2024-06-15 07:00:00",
            "2024-06-15T07:00:00Z",
            "2024-06-15T07:00:00+02:00",
            "2023-02-29T00:00:00",
            "1900-02-29T00:00:00",
            "2024-04-31T00:00:00",
            "2024-13-01T00:00:00",
            "2024-00-01T00:00:00",
            "2024-01-00T00:00:00",
            "24-06-15T07:00:00",
            "+10000-01-01T00:00:00",
            "-0001-01-01T00:00:00",
            "2024-06-15T24:00:00",
            "2024/06/15T07:00:00",
            "2024-06-15T07:00",
            "2024-06-15é07:00:00",
        ],
    );
}

#[test]
fn a_zoned_date_time_is_not_checked() {
    // jiff's `Zoned`: whether its offset is one its zone has needs the time zone database.
    assert!(takes("zoned-date-time", "not a time at all"));
}
