//! Where the tool set comes from (a file, standard input) and input the command cannot use.

use std::io::Write;

use serde_json::{json, Value};

use crate::{file, path, status, stderr, stdout, toolwire};

#[test]
fn stdin_is_read_for_a_dash_or_no_file() {
    for args in [&["census", "--json", "-"][..], &["census", "--json"][..]] {
        let output = toolwire(args, r#"["a.b"]"#);
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        let object: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(object["healing"], json!({"a_b": "a.b"}));
    }
}

/// Runs `census` on `text` and returns its stderr, checking it exits 2 with nothing on stdout.
fn unusable(text: &str) -> (String, String) {
    let f = file(text);
    let output = toolwire(&["census", "--json", path(&f)], "");
    assert_eq!(status(&output), 2, "{text}: {}", stdout(&output));
    assert!(output.stdout.is_empty());
    (stderr(&output), path(&f).to_owned())
}

#[test]
fn text_that_is_not_json_names_the_file_line_and_column() {
    let (err, file) = unusable("[\n  \"a\",\n  oops\n]\n");
    assert_eq!(
        err,
        format!("toolwire: {file}:3:3: not valid JSON: expected value\n")
    );
    let (err, file) = unusable("[\"a\", \"b\"");
    assert!(err.starts_with(&format!("toolwire: {file}:1:")), "{err}");
    assert!(err.contains("EOF"), "{err}");
}

#[test]
fn the_wrong_shape_names_the_entry() {
    let (err, file) = unusable(r#"{"tools": [{"name": "a"}, {"name": 42}]}"#);
    assert_eq!(
        err,
        format!("toolwire: {file}: tools[1].name is a number, not a string\n")
    );
    let (err, _) = unusable(r#"[{"type": "function", "function": {"name": ["x"]}}]"#);
    assert!(
        err.contains("[0].function.name is an array, not a string"),
        "{err}"
    );
    let (err, _) = unusable(r#"{"servers": [{"server": "s", "tools": ["a", null]}]}"#);
    assert!(err.contains("servers[0].tools[1] is null"), "{err}");
    let (err, _) = unusable(r#"{"name": "just one tool"}"#);
    assert!(err.contains("found an object with keys `name`"), "{err}");
    let (err, _) = unusable("\"a string\"");
    assert!(err.contains("found a string"), "{err}");
}

#[test]
fn an_empty_file_or_a_missing_one_is_unusable() {
    let (err, file) = unusable("");
    assert!(
        err.starts_with(&format!("toolwire: {file}: the input is empty")),
        "{err}"
    );
    let (err, _) = unusable("  \n");
    assert!(err.contains("the input is empty"), "{err}");

    let output = toolwire(&["census", "/no/such/tools.json"], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).starts_with("toolwire: /no/such/tools.json: cannot read:"));

    let output = toolwire(&["census", "-"], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).starts_with("toolwire: <stdin>: the input is empty"));
}

#[test]
fn invalid_utf8_is_unusable_not_a_panic() {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(b"[\"a\xff\"]").unwrap();
    let output = toolwire(&["census", path(&f)], "");
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains(":1:"), "{}", stderr(&output));
}
