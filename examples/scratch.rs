use podium::games::poldr::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let line = args.get(1).cloned().unwrap_or("5/5/5/5/5 b 16,16 1 0 -,-".into());
    let depth: u32 = args.get(2).map(|d| d.parse().unwrap()).unwrap_or(4);
    let p: Position = line.parse().unwrap();
    println!("{p}");
    for d in 1..=depth {
        let t = std::time::Instant::now();
        println!("perft {d} = {} ({:?})", perft(&p, d), t.elapsed());
    }
}
