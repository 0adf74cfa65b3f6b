#![allow(dead_code)]
pub mod certificate;
pub mod fast_pods;
// Written for plainness, not for the lints.
#[allow(clippy::needless_range_loop, clippy::useless_vec, clippy::manual_contains)]
pub mod poldr_reference;
pub mod reference;
