//! Seeded fuzz of POLD.R: every parser (positions, moves, cells, seats) on
//! random and mutated text (no panic; what parses writes back and reads back
//! to the same value; a parsed position hashes as computed from scratch and
//! can be asked for its moves and result), a naive reading of the validity
//! clauses of the notation against the reader, and random games of two and
//! three players on every size with 1 to 16 bricks, checked after every move.

use std::collections::HashSet;

use podium::games::poldr::{Cell, Illegal, LARGEST_PLY, Move, Phase, Piece, Position, Seat, WinReason, perft};
#[path = "common/fuzz_text.rs"]
mod fuzz_text;

use fuzz_text::{TextFuzz, below, chance};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// Every cell the notation can name, a1 to i9, on any board.
fn all_cells() -> Vec<Cell> {
    (0..81).map(|index| Cell::from_index(index).expect("a cell")).collect()
}

// ---------------------------------------------------------------- random text

/// Characters that mean something to some parser, plus a few that never do.
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'z', 'p', 'm', 's', 'y', 'r', 'P', 'M', 'B', 'Y', 'R', 'A', 'S',
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ' ', '/', ',', '-', '+', '.', '\n', '\t', '\r', 'é', 'ß',
    '\u{0}', '٣', '😀',
];

const TEXT: TextFuzz = TextFuzz { alphabet: ALPHABET, separators: &[' ', ',', '/'], max_len: 80 };

// ---------------------------------------------------------------- lines, field by field

/// The board field as a grid of cells, top rank first, '.' for empty.
fn expand(board: &str) -> Vec<Vec<char>> {
    board
        .split('/')
        .map(|rank| {
            let mut cells = Vec::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(run) => cells.extend(std::iter::repeat_n('.', run as usize)),
                    None => cells.push(c),
                }
            }
            cells
        })
        .collect()
}

/// The grid written back; `merged` merges runs of empty cells as writers do.
fn contract(grid: &[Vec<char>], merged: bool) -> String {
    let ranks: Vec<String> = grid
        .iter()
        .map(|rank| {
            let mut text = String::new();
            let mut run = 0;
            for &c in rank {
                if c == '.' {
                    run += 1;
                    if !merged {
                        text.push('1');
                        run = 0;
                    }
                    continue;
                }
                if run > 0 {
                    text.push_str(&run.to_string());
                    run = 0;
                }
                text.push(c);
            }
            if run > 0 {
                text.push_str(&run.to_string());
            }
            text
        })
        .collect();
    ranks.join("/")
}

/// One field of a valid line changed to a plausible value, or two swapped:
/// the result is valid now and then and invalid for one reason or another.
fn tweak_fields(rng: &mut Xoshiro256PlusPlus, line: &str) -> String {
    let mut fields: Vec<String> = line.split(' ').map(String::from).collect();
    if fields.len() != 6 {
        return TEXT.mutate(rng, line);
    }
    let players = fields[2].split(',').count();
    let ply: usize = fields[4].parse().unwrap_or(0);
    let number_or_dash = |rng: &mut Xoshiro256PlusPlus| {
        if chance(rng, 3) { "-".to_string() } else { below(rng, ply + 3).to_string() }
    };
    for _ in 0..1 + below(rng, 2) {
        match below(rng, 9) {
            0 | 1 => {
                let mut grid = expand(&fields[0]);
                if grid.is_empty() || grid[0].is_empty() {
                    continue;
                }
                match below(rng, 4) {
                    0 => {
                        let (i, j) = (below(rng, grid.len()), below(rng, grid.len()));
                        grid.swap(i, j);
                    }
                    1 => {
                        // Move a piece to another cell.
                        let r = below(rng, grid.len());
                        let f = below(rng, grid[r].len());
                        let piece = std::mem::replace(&mut grid[r][f], '.');
                        let r2 = below(rng, grid.len());
                        let f2 = below(rng, grid[r2].len());
                        grid[r2][f2] = piece;
                    }
                    _ => {
                        let r = below(rng, grid.len());
                        let f = below(rng, grid[r].len());
                        grid[r][f] = ['.', '.', 'P', 'B', 'Y', 'R', 'b', 'y', 'r'][below(rng, 9)];
                    }
                }
                fields[0] = contract(&grid, !chance(rng, 6));
            }
            2 => fields[1] = ["b", "y", "r"][below(rng, 3)].to_string(),
            3 => {
                let count = if chance(rng, 4) { 5 - players } else { players };
                let reserves: Vec<String> = (0..count)
                    .map(|_| if chance(rng, 4) { "0".to_string() } else { below(rng, 43).to_string() })
                    .collect();
                fields[2] = reserves.join(",");
            }
            4 => fields[3] = ["1", "2"][below(rng, 2)].to_string(),
            5 => {
                fields[4] = match below(rng, 4) {
                    0 => (ply + 1).to_string(),
                    1 => ply.saturating_sub(1).to_string(),
                    2 => (LARGEST_PLY + below(rng, 2) as u64).to_string(),
                    _ => below(rng, 30).to_string(),
                }
            }
            6 | 7 => {
                let count = if chance(rng, 6) { 5 - players } else { players };
                let mut entries: Vec<String> = fields[5].split(',').map(String::from).collect();
                entries.resize(count, "-".to_string());
                let at = below(rng, count);
                entries[at] = number_or_dash(rng);
                fields[5] = entries.join(",");
            }
            _ => {
                let (i, j) = (below(rng, 6), below(rng, 6));
                fields.swap(i, j);
            }
        }
    }
    fields.join(" ")
}

// ---------------------------------------------------------------- the notation's validity, read naively

#[derive(Debug, PartialEq)]
enum Verdict {
    /// Valid; `canonical` when written exactly as writers write it.
    Valid {
        canonical: bool,
    },
    Invalid(&'static str),
    /// A number too large for this model: no opinion.
    Unknown,
}

/// Section 5 of the rules, clause by clause, from the text alone.
fn model(text: &str) -> Verdict {
    use Verdict::{Invalid, Unknown, Valid};
    let mut canonical = true;
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 6 {
        return Invalid("six fields separated by single spaces");
    }
    // Whole numbers: digits only; leading zeros are another spelling.
    let mut number = |text: &str| -> Result<Option<u64>, ()> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(());
        }
        if text.len() > 1 && text.starts_with('0') {
            canonical = false;
        }
        Ok(text.parse::<u64>().ok())
    };
    let mut reserves = Vec::new();
    for text in fields[2].split(',') {
        match number(text) {
            Err(()) => return Invalid("reserves are numbers"),
            Ok(None) => return Invalid("a reserve is at most 40"),
            Ok(Some(n)) => reserves.push(n),
        }
    }
    let players = reserves.len();
    if !(2..=3).contains(&players) {
        return Invalid("two or three reserves");
    }
    if reserves.iter().any(|&n| n > 40) {
        return Invalid("a reserve is at most 40");
    }
    let phase = match fields[3] {
        "1" => 1,
        "2" => 2,
        _ => return Invalid("phase 1 or 2"),
    };
    let ply = match number(fields[4]) {
        Err(()) => return Invalid("ply is a number"),
        Ok(Some(n)) if n <= LARGEST_PLY => n,
        Ok(_) => return Invalid("a ply of at most LARGEST_PLY"),
    };
    let side = match fields[1] {
        "b" => 0,
        "y" => 1,
        "r" => 2,
        _ => return Invalid("side b, y or r"),
    };
    let entries: Vec<&str> = fields[5].split(',').collect();
    if entries.len() != players {
        return Invalid("one changed entry per player");
    }
    let mut changed = Vec::new();
    for entry in entries {
        changed.push(match entry {
            "-" => None,
            text => match number(text) {
                Err(()) => return Invalid("changed: a number or -"),
                Ok(None) => return Unknown,
                Ok(Some(n)) => Some(n),
            },
        });
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    let size = ranks.len();
    if !(4..=9).contains(&size) {
        return Invalid("4 to 9 ranks");
    }
    let (mut pawns, mut markers, mut bricks) = (0, [0; 3], [0; 3]);
    for rank in ranks {
        let mut cells = 0;
        let mut after_digit = false;
        for c in rank.chars() {
            let digit = matches!(c, '1'..='9');
            if digit && after_digit {
                canonical = false;
            }
            after_digit = digit;
            match c {
                '1'..='9' => cells += c as usize - '0' as usize,
                'P' => {
                    pawns += 1;
                    cells += 1;
                }
                'B' | 'Y' | 'R' | 'b' | 'y' | 'r' => {
                    let seat = "BYR".find(c.to_ascii_uppercase()).expect("a seat letter");
                    if seat >= players {
                        return Invalid("no piece of a seat beyond the players");
                    }
                    if c.is_ascii_uppercase() {
                        markers[seat] += 1;
                    } else {
                        bricks[seat] += 1;
                    }
                    cells += 1;
                }
                _ => return Invalid("board letters"),
            }
        }
        if cells != size {
            return Invalid("each rank describes size cells");
        }
    }
    if pawns > 1 || markers.iter().any(|&count| count > 1) {
        return Invalid("one pawn, one marker per player");
    }
    for seat in 0..players {
        if (markers[seat] == 1) != changed[seat].is_some() {
            return Invalid("a marker exactly when changed is a number");
        }
        if bricks[seat] > 0 && markers[seat] == 0 {
            return Invalid("bricks need the marker");
        }
        if let Some(n) = changed[seat] {
            if !(1..=ply).contains(&n) {
                return Invalid("changed from 1 to ply");
            }
            if n % players as u64 != (seat as u64 + 1) % players as u64 {
                return Invalid("changed after the player's own turn");
            }
            if (0..seat).any(|other| changed[other] == Some(n)) {
                return Invalid("no two changed equal");
            }
        }
        if phase == 1 && (seat as u64) < ply && markers[seat] == 0 {
            return Invalid("in phase 1 every seat that has had a turn has its marker");
        }
    }
    if side as u64 >= players as u64 || side as u64 != ply % players as u64 {
        return Invalid("the side to move is seat ply mod players");
    }
    if ply == 0 {
        let pieces = pawns + markers.iter().sum::<usize>() + bricks.iter().sum::<usize>();
        if pieces > 0 || phase != 1 || changed.iter().any(Option::is_some) {
            return Invalid("ply 0: empty board, phase 1, nothing changed");
        }
    } else if pawns == 0 {
        return Invalid("after ply 0 the pawn is on the board");
    }
    for (seat, &reserve) in reserves.iter().enumerate() {
        if reserve == 0 && !(phase == 1 && ply > 0 && seat as u64 == (ply - 1) % players as u64) {
            return Invalid("a zero reserve only in phase 1, for the last mover");
        }
    }
    Valid { canonical }
}

// ---------------------------------------------------------------- parsers

/// Everything a parsed position must stand without a panic.
fn exercise(position: &Position, text: &str) {
    let line = position.to_string();
    let again = line.parse::<Position>();
    assert_eq!(again.as_ref(), Ok(position), "{text:?} -> {line}");
    assert_eq!(again.unwrap().to_string(), line, "{line}");
    assert_eq!(position.hash(), position.compute_hash(), "{line}");
    assert_eq!(position.mover().index() as u64, position.ply() % position.players() as u64, "{line}");
    let moves = position.legal_moves();
    let outcome = position.outcome();
    assert_eq!(outcome.is_some(), moves.is_empty(), "{line}: over exactly when there is no move");
    let _ = position.scored_outcome();
    let _ = position.is_blocked();
    for seat in position.seats() {
        let _ = position.can_clear(seat);
    }
    for &mv in moves.iter().take(4) {
        assert_eq!(position.check(mv), Ok(()), "{line}: {mv}");
        let mut next = *position;
        next.play_unchecked(mv);
        assert_eq!(next.hash(), next.compute_hash(), "{line} after {mv}");
        let _ = next.legal_moves();
        let _ = next.outcome();
    }
    for text in ["pass", "Pa1", "Mi9", "Pc3Mc5"] {
        let _ = position.check(text.parse().expect("a move"));
    }
}

/// Feeds `text` to every parser; returns how many accepted it.
fn feed(text: &str) -> usize {
    let mut accepted = 0;
    let parsed = text.parse::<Position>();
    match (model(text), &parsed) {
        (Verdict::Invalid(clause), Ok(position)) => {
            panic!("{text:?} breaks '{clause}' but was read as {position}")
        }
        (Verdict::Valid { canonical: true }, Err(error)) => panic!("{text:?} is valid but was refused: {error}"),
        _ => {}
    }
    if let Ok(position) = parsed {
        accepted += 1;
        exercise(&position, text);
    }
    if let Ok(mv) = text.parse::<Move>() {
        accepted += 1;
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv), "{text:?}");
        assert!(mv.to_string().eq_ignore_ascii_case(text), "{text:?} read as {mv}");
        assert_eq!(Move::from_bits(mv.to_bits()), Some(mv), "{text:?}");
    }
    if let Ok(cell) = text.parse::<Cell>() {
        accepted += 1;
        assert_eq!(cell.to_string(), text, "a cell has one spelling");
        assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
    }
    if let Ok(seat) = text.parse::<Seat>() {
        accepted += 1;
        assert_eq!(seat.to_string(), text);
    }
    accepted
}

/// Valid texts of every kind, to mutate: starts, positions from random
/// games of both kinds, hand-built lines, moves and cells.
fn seeds(rng: &mut Xoshiro256PlusPlus) -> Vec<String> {
    let mut seeds: Vec<String> = [
        "5/5/5/5/5 b 16,16 1 0 -,-",
        "5/5/5/5/5 b 16,16,16 1 0 -,-,-",
        "ybyB/1bby/bbyy/PyyY b 11,9 1 10 9,10",
        "RybB/rrbb/rb1y/PyyY b 12,12,13 2 12 10,11,12",
        "5/5/2B2/bb3/PyY2 y 0,15 1 3 3,2",
        "4/B3/4/P2Y r 15,16,16 2 5 4,2,-",
        "Pc3",
        "Mc5",
        "Pc3Mc5",
        "pc3mc5",
        "pass",
        "a1",
        "i9",
        "b",
        "r",
    ]
    .map(String::from)
    .to_vec();
    for game in 0..12 {
        let players = 2 + game as u8 % 2;
        let size = 4 + game as u8 % 6;
        let mut position = Position::start(size, players, 1 + below(rng, 16) as u8).expect("valid settings");
        seeds.push(position.to_string());
        loop {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[below(rng, moves.len())];
            seeds.push(mv.to_string());
            position.play_unchecked(mv);
            seeds.push(position.to_string());
        }
    }
    seeds
}

#[test]
fn parsers_never_panic_on_random_text_and_round_trip_what_they_accept() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x901d_0001);
    let mut accepted = 0;
    for _ in 0..20_000 {
        accepted += feed(&TEXT.random_text(&mut rng));
    }
    println!("random text: {accepted} accepted");
    // Short texts of the right letters are cells and moves now and then.
    assert!(accepted > 0);
}

#[test]
fn parsers_never_panic_on_mutated_valid_text_and_round_trip_what_they_accept() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x901d_0002);
    let seeds = seeds(&mut rng);
    for seed in &seeds {
        assert!(feed(seed) > 0, "seed {seed:?} should parse");
        if seed.contains(' ') {
            assert_eq!(model(seed), Verdict::Valid { canonical: true }, "seed {seed:?}");
        }
    }
    let mut accepted = 0;
    for round in 0..40_000 {
        let seed = &seeds[round % seeds.len()];
        accepted += feed(&TEXT.mutate(&mut rng, seed));
    }
    println!("mutated text: {accepted} accepted");
    assert!(accepted > 2_000, "only {accepted} mutations parsed");
}

#[test]
fn the_position_reader_accepts_exactly_the_valid_lines() {
    // Lines from random games with one or two fields changed: the reader and
    // the naive reading of section 5 must agree on every canonical line.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x901d_0003);
    let lines: Vec<String> = seeds(&mut rng).into_iter().filter(|seed| seed.contains(' ')).collect();
    let (mut valid, mut invalid) = (0, 0);
    for round in 0..60_000 {
        let text = tweak_fields(&mut rng, &lines[round % lines.len()]);
        match model(&text) {
            Verdict::Valid { .. } => valid += 1,
            Verdict::Invalid(_) => invalid += 1,
            Verdict::Unknown => {}
        }
        feed(&text);
    }
    println!("field tweaks: {valid} valid, {invalid} invalid");
    assert!(valid > 5_000 && invalid > 5_000, "{valid} valid, {invalid} invalid");
}

#[test]
fn move_packing_never_panics_and_round_trips_every_move() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x901d_0004);
    for _ in 0..20_000 {
        let bits = rng.next_u64() as u16;
        if let Some(mv) = Move::from_bits(bits) {
            assert_eq!(Move::from_bits(mv.to_bits()), Some(mv), "{bits:#x}");
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
    }
}

// ---------------------------------------------------------------- random games

/// The notation's view of one position of a game: every move it can write
/// (both pieces to all 81 cells a1..i9, `pass`, and at ply 0 the first turns
/// `openings`) is accepted by `check` exactly when generated.
fn check_agrees_with_generation(position: &Position, openings: &[Move]) {
    let line = position.to_string();
    let moves = position.legal_moves();
    let legal: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(legal.len(), moves.len(), "{line}: a move generated twice");
    assert_eq!(perft(position, 1), moves.len() as u64, "{line}");
    let over = position.outcome().is_some();
    let mut expressible = vec![Move::Pass];
    for cell in all_cells() {
        expressible.push(Move::Pawn(cell));
        expressible.push(Move::Marker(cell));
    }
    expressible.extend_from_slice(openings);
    for mv in expressible {
        let verdict = position.check(mv);
        assert_eq!(verdict.is_ok(), legal.contains(&mv), "{line}: check({mv}) = {verdict:?}");
        if over {
            assert_eq!(verdict, Err(Illegal::GameOver), "{line}: {mv}");
        }
    }
    for &mv in &moves {
        assert_eq!(position.check(mv), Ok(()), "{line}: generated {mv}");
    }
}

/// Bricks on the board of each seat.
fn on_board(position: &Position, seat: Seat) -> u32 {
    all_cells().into_iter().filter(|&cell| position.piece_at(cell) == Some(Piece::Brick(seat.index()))).count() as u32
}

/// Plays one random game, checking every position and every move; returns
/// the final position.
fn random_game(rng: &mut Xoshiro256PlusPlus, size: u8, players: u8, bricks: u8, all_openings: bool) -> Position {
    let mut position = Position::start(size, players, bricks).expect("valid settings");
    let cells = all_cells();
    loop {
        let line = position.to_string();
        assert_eq!(line.parse::<Position>().as_ref(), Ok(&position), "{line}");
        assert_eq!(position.hash(), position.compute_hash(), "{line}");
        assert_eq!(position.mover().index() as u64, position.ply() % players as u64, "{line}");
        for seat in position.seats() {
            // Bricks are only moved between a reserve and the board.
            assert_eq!(position.reserve(seat) as u32 + on_board(&position, seat), bricks as u32, "{line}");
        }
        // At ply 0 every first turn (or a sample of them), later a few,
        // which must all be refused.
        let openings: Vec<Move> = if position.ply() == 0 && all_openings {
            cells.iter().flat_map(|&pawn| cells.iter().map(move |&marker| Move::Opening { pawn, marker })).collect()
        } else {
            (0..if position.ply() == 0 { 300 } else { 4 })
                .map(|_| Move::Opening { pawn: cells[below(rng, 81)], marker: cells[below(rng, 81)] })
                .collect()
        };
        check_agrees_with_generation(&position, &openings);
        let moves = position.legal_moves();
        if moves.is_empty() {
            assert!(position.outcome().is_some(), "{line}");
            return position;
        }
        let mv = moves[below(rng, moves.len())];
        let before = position;
        position.play_unchecked(mv);
        let mut checked = before;
        checked.try_play(mv).expect("a generated move is legal");
        assert_eq!(checked, position, "{line}: try_play and play_unchecked differ on {mv}");
        assert_eq!(position.hash(), position.compute_hash(), "{line} after {mv}");
        assert_eq!(position.ply(), before.ply() + 1);
        let seat = before.mover();
        if mv == Move::Pass {
            assert_eq!(position.phase(), Phase::Clearing, "{line}: a pass is a phase-2 turn");
            for other in position.seats() {
                assert_eq!(position.reserve(other), before.reserve(other), "{line}: pass");
                assert_eq!(position.last_change(other), before.last_change(other), "{line}: pass");
            }
        } else {
            // Every other turn places or clears at least one brick.
            assert_ne!(position.reserve(seat), before.reserve(seat), "{line}: {mv}");
            assert_eq!(position.last_change(seat), Some(position.ply()), "{line}: {mv}");
            for other in position.seats().filter(|&other| other != seat) {
                assert_eq!(position.reserve(other), before.reserve(other), "{line}: {mv}");
                assert_eq!(position.last_change(other), before.last_change(other), "{line}: {mv}");
            }
            let cleared = position.reserve(seat) > before.reserve(seat);
            assert_eq!(cleared, position.phase() == Phase::Clearing, "{line}: {mv}: phase 2 clears, phase 1 builds");
        }
        if before.phase() == Phase::Clearing {
            assert_eq!(position.phase(), Phase::Clearing, "{line}: phase 2 never ends");
        }
    }
}

#[test]
fn random_games_keep_hash_and_check_in_step_with_generation() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x901d_0005);
    let mut games = 0;
    let mut plies = 0;
    // Every game kind once, every first turn checked on three brick counts.
    for players in [2u8, 3] {
        for size in 4..=9u8 {
            for bricks in 1..=16u8 {
                let all_openings = [1, 2, 16].contains(&bricks);
                plies += random_game(&mut rng, size, players, bricks, all_openings).ply() as usize;
                games += 1;
            }
        }
    }
    // Then random kinds.
    for _ in 0..200 {
        let (players, size, bricks) =
            (2 + below(&mut rng, 2) as u8, 4 + below(&mut rng, 6) as u8, 1 + below(&mut rng, 16) as u8);
        plies += random_game(&mut rng, size, players, bricks, false).ply() as usize;
        games += 1;
    }
    println!("{games} random games, {plies} moves");
    assert!(plies > games * 5);
}

#[test]
fn random_games_end_both_ways() {
    // Small boards block before the bricks run out; one to three bricks on
    // larger ones run out first. Both endings occur, on every game kind.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x901d_0006);
    let (mut by_last_brick, mut by_score) = (0, 0);
    for round in 0..40 {
        let players = 2 + (round % 2) as u8;
        let size = 4 + (round % 4) as u8;
        let bricks = [1, 2, 3, 8, 16][round % 5];
        let end = random_game(&mut rng, size, players, bricks, false);
        match end.outcome().expect("over").reason {
            WinReason::LastBrick => by_last_brick += 1,
            WinReason::MostBricks | WinReason::TieBreak => by_score += 1,
        }
    }
    println!("{by_last_brick} won by the last brick, {by_score} by score");
    assert!(by_last_brick > 0 && by_score > 0);
}
