use podium::rules::*;
fn main() {
    for variant in [Variant::Standard, Variant::Advanced] {
        let rules = Rules::default_for(variant);
        for rot in Rotation::ALL {
            let pos = Position::start(&rules, rot);
            let t = std::time::Instant::now();
            let v: Vec<u64> = (1..=4).map(|d| perft(&rules, &pos, d)).collect();
            println!("{variant} {rot}: {:?} {:?}", v, t.elapsed());
        }
    }
}
