#![allow(dead_code)]
pub mod reference;
