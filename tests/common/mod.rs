#![allow(dead_code)]
pub mod reference;
pub mod poldr_reference;
