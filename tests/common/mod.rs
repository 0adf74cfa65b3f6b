#![allow(dead_code)]
// certificate.rs and fast_pods.rs are tests/certificate.rs's alone: it
// includes them itself.
// Written for plainness, not for the lints.
#[allow(clippy::needless_range_loop, clippy::useless_vec, clippy::manual_contains)]
pub mod poldr_reference;
pub mod reference;
