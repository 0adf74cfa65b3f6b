#![allow(dead_code)]
pub mod poldr_reference;
pub mod reference;
