//! Seeded fuzz of the rules library: every parser on random and mutated text
//! (no panic; what parses formats and parses back to the same value), and
//! random games in both variants at every rotation, checked after every move
//! against the library's own invariants and against a small model of the
//! spec written here (walking the board's lines point by point).

use std::collections::{HashMap, HashSet};

use podium::games::pods::{
    Bitboard, Board, DEFAULT_PICTURE, DEFAULT_POD_SET, Direction, GameRecord, Move, MoveKind, MoveList, Outcome, Pod,
    PodSet, Point, Position, Rotation, Rules, Side, Variant,
};
#[path = "common/fuzz_text.rs"]
mod fuzz_text;

use fuzz_text::{TextFuzz, below, chance};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

const START: &str = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0";

// ---------------------------------------------------------------- random text

/// Characters that mean something to some parser, plus a few that never do.
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'n', 'o', 'p', 'q', 'w', 'x', 'A', 'B', 'C', 'E', 'L', 'N', 'O', 'P', 'Q', 'S',
    'W', 'X', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ' ', '/', '-', '@', ':', ';', '=', ',', '.', '|', '\\',
    '\n', '\t', '\r', '+', 'é', 'ß', '\u{0}', '∞', '😀',
];

const TEXT: TextFuzz = TextFuzz { alphabet: ALPHABET, separators: &[' ', ',', ';', '/', '@', '='], max_len: 140 };

/// A random valid board: each line of the picture present with probability 3/4.
fn random_board(rng: &mut Xoshiro256PlusPlus) -> Board {
    let mut rows = Vec::new();
    for row in 0..11 {
        let mut line = String::new();
        for column in 0..11 {
            let c = match (row % 2, column % 2) {
                (0, 0) => 'o',
                (0, 1) => '-',
                (1, 0) => '|',
                _ => ['\\', '/', 'X'][below(rng, 3)],
            };
            line.push(if c == 'o' || !chance(rng, 4) { c } else { '.' });
        }
        rows.push(line);
    }
    Board::from_one_line(&rows.join(",")).expect("a valid random board")
}

/// A random valid pod set of 1 to 16 pods with one to eight legs each.
fn random_pods(rng: &mut Xoshiro256PlusPlus) -> PodSet {
    let count = 1 + below(rng, 16);
    let text = (0..count)
        .map(|index| {
            let mut directions: Vec<Direction> = Direction::ALL.to_vec();
            let legs = if index == 0 || chance(rng, 3) { 2 } else { 1 + below(rng, 8) };
            let chosen: Vec<String> = (0..legs)
                .map(|_| {
                    let dir = directions.remove(below(rng, directions.len()));
                    format!("{dir}:{}", if chance(rng, 3) { 'l' } else { 's' })
                })
                .collect();
            format!("{}={}", (b'A' + index as u8) as char, chosen.join(","))
        })
        .collect::<Vec<_>>()
        .join(";");
    text.parse().expect("a valid random pod set")
}

// ---------------------------------------------------------------- parsers

struct Parsers {
    rules: Vec<Rules>,
}

impl Parsers {
    fn new() -> Parsers {
        let sixteen: Vec<String> = (0..16).map(|i| format!("{}=N:l,S:s", (b'A' + i) as char)).collect();
        let sixteen: PodSet = sixteen.join(";").parse().unwrap();
        Parsers {
            rules: vec![
                Rules::default_for(Variant::Standard),
                Rules::default_for(Variant::Advanced),
                Rules::new(Variant::Advanced, Board::default(), sixteen, true),
            ],
        }
    }

    /// Feeds `text` to every parser. No panic; what parses round-trips.
    fn feed(&self, text: &str) -> usize {
        let mut parsed = 0;
        if let Ok(board) = Board::from_one_line(text) {
            parsed += 1;
            assert_eq!(Board::from_one_line(&board.one_line()), Ok(board), "{text:?}");
            assert_eq!(Board::from_picture(&board.picture()), Ok(board), "{text:?}");
        }
        if let Ok(board) = Board::from_picture(text) {
            parsed += 1;
            assert_eq!(Board::from_picture(&board.picture()), Ok(board), "{text:?}");
            assert_eq!(Board::from_one_line(&board.to_string()), Ok(board), "{text:?}");
        }
        if let Ok(board) = text.parse::<Board>() {
            assert_eq!(board.to_string().parse::<Board>(), Ok(board), "{text:?}");
        }
        if let Ok(set) = text.parse::<PodSet>() {
            parsed += 1;
            assert!((1..=16).contains(&set.len()), "{text:?}");
            assert_eq!(set.to_string().parse::<PodSet>(), Ok(set.clone()), "{text:?}");
        }
        for rules in &self.rules {
            if let Ok(position) = Position::parse(text, rules) {
                parsed += 1;
                let line = position.to_string();
                assert_eq!(Position::parse(&line, rules), Ok(position), "{text:?} -> {line}");
                assert_eq!(position.hash(), position.compute_hash(rules), "{line}");
                // Whatever parses may be played from without a panic.
                let mut moves = MoveList::new();
                position.generate_moves(rules, &mut moves);
                assert_eq!(position.count_moves(rules), moves.len() as u64, "{line}");
                let _ = position.outcome(rules);
                for &mv in moves.iter().take(3) {
                    let mut next = position;
                    next.play_unchecked(rules, mv);
                    assert_eq!(next.hash(), next.compute_hash(rules), "{line} {mv}");
                }
            }
        }
        if let Ok(mv) = text.parse::<Move>() {
            parsed += 1;
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv), "{text:?}");
            assert_eq!(Move::from_bits(mv.to_bits()), Some(mv), "{text:?}");
        }
        if let Ok(point) = text.parse::<Point>() {
            parsed += 1;
            assert_eq!(point.to_string(), text, "a point has one spelling");
        }
        if let Ok(rotation) = text.parse::<Rotation>() {
            parsed += 1;
            assert_eq!(rotation.to_string(), text, "a rotation has one spelling");
        }
        if let Ok(side) = text.parse::<Side>() {
            assert_eq!(side.to_string(), text);
        }
        if let Ok(dir) = text.parse::<Direction>() {
            assert_eq!(dir.to_string(), text);
        }
        if let Ok(pod) = text.parse::<Pod>() {
            assert_eq!(pod.to_string(), text.to_uppercase());
        }
        if let Ok(variant) = text.parse::<Variant>() {
            assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
        }
        if let Ok(bits) = text.parse::<Bitboard>() {
            assert_eq!(bits.to_string().parse::<Bitboard>(), Ok(bits));
        }
        parsed
    }
}

/// Valid texts of every kind, to mutate.
fn seeds(rng: &mut Xoshiro256PlusPlus) -> Vec<String> {
    let mut seeds: Vec<String> = vec![
        Board::default().one_line(),
        DEFAULT_PICTURE.to_string(),
        DEFAULT_POD_SET.to_string(),
        START.to_string(),
        "5a/6/6/6/6/A5 w bcdefghijklmn 0 27".into(),
        "1A1b1C/a5/5n/2N3/3m2/M5 w DEFGHIJKLcdefghijkl 180 1000".into(),
        "OP4/op4/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 40".into(),
        "6/6/6/6/6/6 b - 270 3".into(),
        "A@c3".into(),
        "n@f6".into(),
        "c3c5".into(),
        "a1f6".into(),
        "a1".into(),
        "f6".into(),
        "0".into(),
        "90".into(),
        "180".into(),
        "270".into(),
        "A=N:s".into(),
        "A=N:l,S:s;B=E:s,W:s".into(),
    ];
    for _ in 0..6 {
        let board = random_board(rng);
        seeds.push(board.one_line());
        seeds.push(board.picture());
        seeds.push(random_pods(rng).to_string());
    }
    // Positions from a random advanced game.
    let rules = Rules::default_for(Variant::Advanced);
    let mut position = Position::start(&rules, Rotation::R90);
    for _ in 0..30 {
        let mut moves = MoveList::new();
        position.generate_moves(&rules, &mut moves);
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(&rules, moves[below(rng, moves.len())]);
        seeds.push(position.to_string());
    }
    seeds
}

#[test]
fn parsers_never_panic_on_random_text_and_round_trip_what_they_accept() {
    let parsers = Parsers::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0001);
    let mut accepted = 0;
    for _ in 0..4000 {
        let text = TEXT.random_text(&mut rng);
        accepted += parsers.feed(&text);
    }
    println!("random text: {accepted} parses accepted");
    // Short texts of the right characters do parse now and then.
    assert!(accepted > 0);
}

#[test]
fn parsers_never_panic_on_mutated_valid_text_and_round_trip_what_they_accept() {
    let parsers = Parsers::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0002);
    let seeds = seeds(&mut rng);
    for seed in &seeds {
        assert!(parsers.feed(seed) > 0, "seed {seed:?} should parse");
    }
    let mut accepted = 0;
    for round in 0..5000 {
        let seed = &seeds[round % seeds.len()];
        let text = TEXT.mutate(&mut rng, seed);
        accepted += parsers.feed(&text);
    }
    println!("mutated text: {accepted} parses accepted");
    assert!(accepted > 500, "only {accepted} mutations parsed");
}

// ---------------------------------------------------------------- a model of the spec

/// Sections 2 to 6 written out naively: lines looked up on the unturned board
/// through the spec's rotation formula, legs walked point by point.
struct Model {
    board: Board,
    pods: PodSet,
    advanced: bool,
    placement_liberty: bool,
}

/// A position as the model sees it.
#[derive(Clone)]
struct State {
    points: HashMap<(i8, i8), (Side, usize)>,
    hands: [Vec<bool>; 2],
    side: Side,
    rotation: usize,
    ply: u32,
}

fn letter(side: Side, pod: usize) -> char {
    (if side == Side::White { b'A' } else { b'a' } + pod as u8) as char
}

fn name(p: (i8, i8)) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1 + 1)
}

impl Model {
    fn new(rules: &Rules) -> Model {
        Model {
            board: *rules.board(),
            pods: rules.pods().clone(),
            advanced: rules.variant() == Variant::Advanced,
            placement_liberty: rules.placement_liberty(),
        }
    }

    /// Whether a line joins p and q (neighbours) once the board is turned by
    /// `quarter` quarter turns: undo the turns, (x,y) <- (5-y,x) each, and
    /// look at the picture.
    fn joined(&self, quarter: usize, p: (i8, i8), q: (i8, i8)) -> bool {
        let undo = |mut a: (i8, i8)| {
            for _ in 0..quarter {
                a = (5 - a.1, a.0);
            }
            a
        };
        let (p0, q0) = (undo(p), undo(q));
        let delta = (q0.0 - p0.0, q0.1 - p0.1);
        let dir = Direction::ALL.into_iter().find(|d| d.delta() == delta).expect("neighbours");
        let from = Point::from_coords(p0.0, p0.1).expect("on the board");
        self.board.is_linked(from, dir)
    }

    /// The next point from p in direction `delta`, if a line joins them.
    fn step(&self, quarter: usize, p: (i8, i8), delta: (i8, i8)) -> Option<(i8, i8)> {
        let q = (p.0 + delta.0, p.1 + delta.1);
        let on_board = (0..6).contains(&q.0) && (0..6).contains(&q.1);
        (on_board && self.joined(quarter, p, q)).then_some(q)
    }

    /// (delta, long) of each leg of `side`'s pod: Black's point the other way.
    fn legs(&self, side: Side, pod: usize) -> Vec<((i8, i8), bool)> {
        let shape = self.pods.shape(Pod::from_index(pod).unwrap());
        shape
            .legs
            .iter()
            .map(|leg| {
                let (dx, dy) = leg.direction.delta();
                let delta = if side == Side::White { (dx, dy) } else { (-dx, -dy) };
                (delta, leg.long)
            })
            .collect()
    }

    fn attacks(&self, state: &State, side: Side, pod: usize, p: (i8, i8)) -> HashSet<(i8, i8)> {
        let mut out = HashSet::new();
        for (delta, long) in self.legs(side, pod) {
            let mut at = p;
            while let Some(next) = self.step(state.rotation, at, delta) {
                out.insert(next);
                at = next;
                if !long {
                    break;
                }
            }
        }
        out
    }

    fn has_liberty(&self, state: &State, side: Side, pod: usize, p: (i8, i8)) -> bool {
        self.legs(side, pod)
            .into_iter()
            .any(|(delta, _)| self.step(state.rotation, p, delta).is_some_and(|q| !state.points.contains_key(&q)))
    }

    fn state(&self, position: &Position) -> State {
        let mut points = HashMap::new();
        for point in Point::ALL {
            if let Some((side, pod)) = position.pod_at(point) {
                points.insert((point.file(), point.rank()), (side, pod.index()));
            }
        }
        let hands =
            Side::BOTH.map(|side| (0..16).map(|i| position.hand(side).contains(Pod::from_index(i).unwrap())).collect());
        State {
            points,
            hands,
            side: position.side_to_move(),
            rotation: position.rotation().index(),
            ply: position.ply(),
        }
    }

    fn hand_empty(&self, state: &State, side: Side) -> bool {
        !state.hands[side.index()].iter().any(|&h| h)
    }

    fn legal_moves(&self, state: &State) -> Vec<String> {
        let us = state.side;
        let them = us.opponent();
        if self.advanced && self.hand_empty(state, them) {
            return Vec::new();
        }
        let first = us == Side::White && state.ply == 0;
        let mut attacked_by_them = HashSet::new();
        for (&p, &(side, pod)) in &state.points {
            if side == them {
                attacked_by_them.extend(self.attacks(state, side, pod, p));
            }
        }
        let mut moves = Vec::new();
        for pod in 0..self.pods.len() {
            if !state.hands[us.index()][pod]
                || (first && self.pods.shape(Pod::from_index(pod).unwrap()).legs.len() != 2)
            {
                continue;
            }
            for y in 0..6 {
                for x in 0..6 {
                    let p = (x, y);
                    if state.points.contains_key(&p) || attacked_by_them.contains(&p) {
                        continue;
                    }
                    let hits = self
                        .attacks(state, us, pod, p)
                        .iter()
                        .any(|q| state.points.get(q).is_some_and(|o| o.0 == them));
                    if hits {
                        continue;
                    }
                    if (!self.advanced || self.placement_liberty) && !self.has_liberty(state, us, pod, p) {
                        continue;
                    }
                    moves.push(format!("{}@{}", letter(Side::White, pod), name(p)));
                }
            }
        }
        if self.advanced && !first {
            for (&p, &(side, pod)) in &state.points {
                if side != us {
                    continue;
                }
                for (delta, long) in self.legs(side, pod) {
                    let mut at = p;
                    while let Some(next) = self.step(state.rotation, at, delta) {
                        if state.points.contains_key(&next) {
                            break;
                        }
                        moves.push(format!("{}{}", name(p), name(next)));
                        at = next;
                        if !long {
                            break;
                        }
                    }
                }
            }
        }
        moves.sort();
        moves
    }

    fn play(&self, state: &State, mv: Move) -> State {
        let mut next = state.clone();
        let us = state.side;
        match mv.kind() {
            MoveKind::Place { pod, to } => {
                next.hands[us.index()][pod.index()] = false;
                next.points.insert((to.file(), to.rank()), (us, pod.index()));
            }
            MoveKind::Step { from, to } => {
                let pod = next.points.remove(&(from.file(), from.rank())).expect("a pod to move");
                next.points.insert((to.file(), to.rank()), pod);
            }
        }
        if self.advanced {
            // One pass: decide every blocked pod first, then take them all off.
            let blocked: Vec<(i8, i8)> = next
                .points
                .iter()
                .filter(|&(&p, &(side, pod))| !self.has_liberty(&next, side, pod, p))
                .map(|(&p, _)| p)
                .collect();
            for p in blocked {
                let (side, pod) = next.points.remove(&p).unwrap();
                if side == us {
                    next.hands[us.index()][pod] = true;
                }
            }
        }
        next.side = us.opponent();
        next.ply += 1;
        next
    }

    /// The position line of spec section 7, written from scratch.
    fn line(&self, state: &State) -> String {
        let mut ranks = Vec::new();
        for y in (0..6).rev() {
            let mut rank = String::new();
            let mut run = 0;
            for x in 0..6 {
                match state.points.get(&(x, y)) {
                    Some(&(side, pod)) => {
                        if run > 0 {
                            rank += &run.to_string();
                            run = 0;
                        }
                        rank.push(letter(side, pod));
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                rank += &run.to_string();
            }
            ranks.push(rank);
        }
        let mut hands = String::new();
        for side in Side::BOTH {
            for pod in 0..16 {
                if state.hands[side.index()][pod] {
                    hands.push(letter(side, pod));
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let side = if state.side == Side::White { "w" } else { "b" };
        format!("{} {side} {hands} {} {}", ranks.join("/"), state.rotation * 90, state.ply)
    }
}

// ---------------------------------------------------------------- random games

/// Every move the type can express (a step to its own point aside: see
/// `check_of_a_step_to_its_own_point_is_an_error`).
fn every_move() -> Vec<Move> {
    (0..1u16 << 13)
        .filter_map(Move::from_bits)
        .filter(|m| !matches!(m.kind(), MoveKind::Step { from, to } if from == to))
        .collect()
}

/// Checks one position every way there is; returns the generated moves.
fn check_position(
    rules: &Rules,
    model: &Model,
    position: &Position,
    all: &[Move],
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Move> {
    let line = position.to_string();
    assert_eq!(position.hash(), position.compute_hash(rules), "{line}");
    assert_eq!(Position::parse(&line, rules), Ok(*position), "{line}");

    let mut list = MoveList::new();
    position.generate_moves(rules, &mut list);
    let moves: Vec<Move> = list.to_vec();
    assert_eq!(position.count_moves(rules), moves.len() as u64, "{line}");
    let generated: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(generated.len(), moves.len(), "{line}: a move generated twice");

    // Every expressible move: legal by check() exactly when generated.
    for &mv in all {
        let verdict = position.check(rules, mv);
        assert_eq!(verdict.is_ok(), generated.contains(&mv), "{line}: {mv} check says {verdict:?}");
        if verdict.is_err() && chance(rng, 40) {
            let mut tried = *position;
            assert_eq!(tried.try_play(rules, mv), verdict, "{line}: {mv}");
            assert_eq!(tried, *position, "{line}: try_play of illegal {mv} changed the position");
        }
    }

    // The model of the spec agrees on the legal moves.
    let state = model.state(position);
    assert_eq!(model.line(&state), line, "the model reads the position differently");
    let mut texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    texts.sort();
    assert_eq!(texts, model.legal_moves(&state), "{line} ({rules:?}): generated moves differ from the spec model");

    // Spec invariants of reachable positions.
    for side in Side::BOTH {
        for point in position.occupied(side) {
            let (_, pod) = position.pod_at(point).unwrap();
            if rules.variant() == Variant::Standard {
                assert!(!position.attacked_by(side.opponent()).contains(point), "{line}: {point} attacked (standard)");
            } else if position.ply() > 0 {
                assert!(!position.liberties(rules, side, pod, point).is_empty(), "{line}: blocked {point} stayed");
            }
        }
    }
    match position.outcome(rules) {
        None => assert!(!moves.is_empty(), "{line}"),
        Some(Outcome::Win { winner, .. }) => {
            assert!(moves.is_empty(), "{line}");
            assert_eq!(winner, position.side_to_move().opponent(), "{line}");
        }
        Some(other) => panic!("{line}: a position alone cannot be {other:?}"),
    }
    moves
}

/// Plays random games from the start; returns the number of positions checked.
fn random_games(rules: &Rules, games: usize, max_plies: u32, rng: &mut Xoshiro256PlusPlus) -> usize {
    let model = Model::new(rules);
    let all = every_move();
    let shared = std::sync::Arc::new(Rules::new(
        rules.variant(),
        *rules.board(),
        rules.pods().clone(),
        rules.placement_liberty(),
    ));
    let mut checked = 0;
    for game_index in 0..games {
        let rotation = Rotation::ALL[game_index % 4];
        let start = Position::start(rules, rotation);
        let mut game = GameRecord::new(shared.clone(), start);
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut position = start;
        loop {
            let moves = check_position(rules, &model, &position, &all, rng);
            checked += 1;
            // Repetition: same board, hands and side to move, three times.
            let line = position.to_string();
            let key = line.rsplit_once(' ').unwrap().0.to_string();
            let count = seen.entry(key).or_insert(0);
            *count += 1;
            let drawn = rules.variant() == Variant::Advanced && *count >= 3;
            let expected =
                position.outcome(rules).or(drawn.then_some(Outcome::Draw(podium::games::pods::DrawReason::Repetition)));
            assert_eq!(game.outcome(), expected, "{line}: game outcome");
            if expected.is_some() || position.ply() >= max_plies {
                break;
            }
            let mv = moves[below(rng, moves.len())];
            let predicted = model.line(&model.play(&model.state(&position), mv));
            position.play_unchecked(rules, mv);
            assert_eq!(position.to_string(), predicted, "after {mv} from {line}");
            assert_eq!(game.play(mv), Ok(()), "{line}: {mv}");
            assert_eq!(*game.position(), position);
        }
    }
    println!("{} games, {checked} positions checked ({rules:?})", games);
    checked
}

#[test]
fn random_standard_games_keep_every_invariant() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0101);
    let checked = random_games(&Rules::default_for(Variant::Standard), 60, 200, &mut rng);
    assert!(checked > 1000, "{checked}");
}

#[test]
fn random_advanced_games_keep_every_invariant() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0102);
    let checked = random_games(&Rules::default_for(Variant::Advanced), 60, 120, &mut rng);
    assert!(checked > 1000, "{checked}");
}

#[test]
fn random_advanced_games_with_the_liberty_option_keep_every_invariant() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0103);
    let rules = Rules::new(Variant::Advanced, Board::default(), PodSet::default(), true);
    let checked = random_games(&rules, 40, 120, &mut rng);
    assert!(checked > 500, "{checked}");
}

#[test]
fn random_games_on_random_boards_and_pod_sets_keep_every_invariant() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0104);
    let mut checked = 0;
    for index in 0..24 {
        let variant = if index % 2 == 0 { Variant::Standard } else { Variant::Advanced };
        let rules = Rules::new(variant, random_board(&mut rng), random_pods(&mut rng), index % 6 == 5);
        checked += random_games(&rules, 4, 80, &mut rng);
    }
    assert!(checked > 500, "{checked}");
}

/// A step from a point to itself is expressible (`Move::step(p, p)`,
/// `Move::from_bits`) though the notation rejects it; check() must say it is
/// illegal, not panic.
#[test]
fn check_of_a_step_to_its_own_point_is_an_error() {
    let rules = Rules::default_for(Variant::Advanced);
    let position = Position::parse("6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2", &rules).unwrap();
    let c3: Point = "c3".parse().unwrap();
    let e5: Point = "e5".parse().unwrap();
    assert!(position.check(&rules, Move::step(e5, e5)).is_err(), "no pod there");
    assert!(position.check(&rules, Move::step(c3, c3)).is_err(), "own pod, no displacement");
    let mut tried = position;
    assert!(tried.try_play(&rules, Move::step(c3, c3)).is_err());
    assert_eq!(tried, position);
}
