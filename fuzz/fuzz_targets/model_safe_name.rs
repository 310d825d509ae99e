//! `model_safe_name` against a reference model: each scalar outside `[A-Za-z0-9_-]` becomes one
//! `_`, cut to 64 characters; borrowed exactly when no character had to change.
#![no_main]

use std::borrow::Cow;

use libfuzzer_sys::fuzz_target;
use toolwire_core::{
    model_safe_name,
    names::{is_form_char, is_model_safe, MAX_FORM_CHARS},
};

fuzz_target!(|data: &[u8]| {
    let name = String::from_utf8_lossy(data);
    let name: &str = &name;
    let form = model_safe_name(name);

    // The reference: the spec's rule, one character at a time.
    let expected: String = name
        .chars()
        .take(MAX_FORM_CHARS)
        .map(|c| if is_form_char(c) { c } else { '_' })
        .collect();
    assert_eq!(*form, expected, "form of {name:?}");

    // Model-safe for any non-empty name; the empty name's form is empty.
    assert_eq!(
        is_model_safe(&form),
        !name.is_empty(),
        "{name:?} -> {form:?}"
    );
    // Idempotent, and a form is its own form without allocating.
    let again = model_safe_name(&form);
    assert_eq!(again, form);
    assert!(
        matches!(again, Cow::Borrowed(_)),
        "a form was reallocated: {form:?}"
    );
    // The cut counts characters.
    assert_eq!(
        form.chars().count(),
        name.chars().count().min(MAX_FORM_CHARS)
    );

    // Borrowed iff no character within the cut had to change, and then it is a prefix of
    // the name itself (no copy). In particular a model-safe name (1..=64 form characters) is
    // borrowed and is exactly its form.
    let unchanged = name.chars().take(MAX_FORM_CHARS).all(is_form_char);
    match &form {
        Cow::Borrowed(b) => {
            assert!(unchanged, "borrowed but changed: {name:?}");
            assert_eq!(b.as_ptr(), name.as_ptr(), "borrowed from elsewhere");
        }
        Cow::Owned(_) => assert!(!unchanged, "allocated for an unchanged name: {name:?}"),
    }
    if is_model_safe(name) {
        assert!(matches!(form, Cow::Borrowed(b) if b == name));
    }
    assert_eq!(
        is_model_safe(name),
        *form == *name && !name.is_empty(),
        "is_model_safe disagrees with the form for {name:?}"
    );
});
