//! The schema half of the wire (`tool-schema-wire.md`): one case per rule of the spec, property
//! tests against a reference validator, and schemas on the wire through the runtime.
//!
//! One test binary (one link) with a module per kind of test.

mod formats;
mod properties;
mod recursion;
mod rust_shapes;
mod spec_cases;
mod standing;
mod wire;
