pub use toolwire_core::*;
