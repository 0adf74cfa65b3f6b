use podium::rules::*;
use podium::search::*;
use std::sync::{Arc, atomic::AtomicBool};
fn main() {
    for variant in [Variant::Standard, Variant::Advanced] {
        let rules = Arc::new(Rules::default_for(variant));
        let game = PodsGame::new(rules.clone(), 0);
        let pos = Position::start(&rules, Rotation::R0);
        let mut s = Searcher::new(64);
        let stop = AtomicBool::new(false);
        let limits = Limits { depth: Some(6), ..Limits::default() };
        let r = s.search(&game, &pos, &[], &limits, &stop, |r: &Report<Move>| {
            println!("depth {} score {} nodes {} nps {} pv {:?}", r.depth, r.score, r.nodes, r.nps(), r.pv);
        });
        println!("{variant}: {:?}", r);
    }
}
