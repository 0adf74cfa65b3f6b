#![allow(dead_code)]
pub mod certificate;
// Written for plainness, not for the lints.
#[allow(clippy::needless_range_loop, clippy::useless_vec, clippy::manual_contains)]
pub mod poldr_reference;
pub mod reference;
