use podium::games::poldr::*;
fn main() {
    let mut seed: u64 = 12345;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (size, players, plies) in
        [(5u8, 2u8, 0usize), (5, 2, 6), (5, 2, 12), (6, 2, 4), (6, 2, 14), (7, 2, 10), (5, 3, 9), (6, 3, 12)]
    {
        let mut p = Position::start(size, players, 16).unwrap();
        let mut played = Vec::new();
        for _ in 0..plies {
            let m = p.legal_moves();
            if m.is_empty() {
                break;
            }
            let mv = m[(next() % m.len() as u64) as usize];
            played.push(mv.to_string());
            p.play_unchecked(mv);
        }
        println!("{} | {} | over {}", played.join(" "), p, p.outcome().is_some());
    }
}
