//! The games Podium plays, each in its own module tree with everything that
//! is about it: types, rules, move generation, notation, hashing, evaluation
//! and its adapter to the search.

pub mod pods;
