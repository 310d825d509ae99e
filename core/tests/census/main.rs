//! The name census (`tool-name-wire.md`): the form, the census and resolve, through the spec's
//! own cases, properties over arbitrary Unicode names, and the inputs the fuzz targets found.
//!
//! One test binary (one link) with a module per kind of test.

mod budget;
mod fuzz_regressions;
mod properties;
mod spec_cases;
