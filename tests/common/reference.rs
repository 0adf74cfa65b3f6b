//! A deliberately simple and slow reference implementation of the rules of Pods
//! (see the project's rules file), written independently of the engine so that
//! tests can cross-check the engine's move generator against it.
//!
//! Everything is done the plain way: the board is a list of lines between
//! points, connectivity is a 36x36 table of booleans rebuilt for the position's
//! rotation, and attacks/liberties are found by walking from point to point.

use std::collections::BTreeSet;

/// The default board picture (section 2). Row 6 is deliberately left one
/// character short, as in the rules file: missing characters are blanks.
const DEFAULT_BOARD: [&str; 11] = [
    r"o-o-o-o-o-o",
    r"|X|\|/|/|/|",
    r"o-o-o-o-o-o",
    r"|\|X|X|\|/|",
    r"o-o-o-o o-o",
    r"| |/|/|X|X",
    r"o-o-o o-o-o",
    r"| |\ /| |\|",
    r"o o-o o-o-o",
    r"| | | |/| |",
    r"o-o-o-o-o-o",
];

/// The default pod set (section 3), as White's pods stand on the board.
const DEFAULT_PODS: &str = "A=W:s,E:s;B=N:l,S:s;C=NW:s,SW:s,E:s;D=N:s,SW:l,SE:l;\
E=NW:l,NE:l,S:s;F=W:l,E:l,N:s;G=N:l,S:l,W:s,E:s;H=NW:s,NE:s,SW:s,SE:s;\
I=N:s,E:s,S:s,W:s;J=NE:l,SW:l,NW:s,SE:s;K=N:s,NE:s,E:s,W:s,S:l;\
L=NW:l,N:s,NE:l,SW:s,SE:s;M=N:s,NE:s,SE:s,S:s,SW:s,NW:s;\
N=N:l,NE:s,E:l,SE:s,S:l,SW:s,W:l,NW:s";

const WHITE: usize = 0;
const BLACK: usize = 1;

/// One leg of a pod as White's pod stands: direction (dx = towards file f,
/// dy = towards rank 6) and whether it is long.
#[derive(Clone, Copy, Debug)]
struct Leg {
    dx: i32,
    dy: i32,
    long: bool,
}

/// A point as (file index 0..5, rank index 0..5).
type Xy = (i32, i32);

pub struct RefRules {
    /// The lines of the unrotated board picture, each joining two points.
    lines: Vec<(Xy, Xy)>,
    /// pods[i] = legs of the pod with letter 'A' + i, as White's stands.
    pods: Vec<Vec<Leg>>,
    advanced: bool,
    placement_liberty: bool,
}

/// A position, decoded.
#[derive(Clone, Debug)]
struct State {
    /// board[point] = Some((side, pod index)).
    board: [Option<(usize, usize)>; 36],
    /// hands[side][pod index] = pod is in that side's hand.
    hands: [Vec<bool>; 2],
    side: usize,
    rotation: u32,
    ply: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Move {
    Place(usize, usize), // pod index, point
    Shift(usize, usize), // from point, to point
}

/// Connectivity for one rotation: conn[a][b] is true when a line joins a, b.
struct Geometry {
    conn: Vec<Vec<bool>>,
}

fn point_index(x: i32, y: i32) -> usize {
    (y * 6 + x) as usize
}

fn point_xy(p: usize) -> Xy {
    ((p % 6) as i32, (p / 6) as i32)
}

fn point_name(p: usize) -> String {
    let (x, y) = point_xy(p);
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

fn parse_point(s: &str) -> usize {
    let b = s.as_bytes();
    assert!(b.len() == 2, "bad point {s:?}");
    assert!((b'a'..=b'f').contains(&b[0]), "bad file in {s:?}");
    assert!((b'1'..=b'6').contains(&b[1]), "bad rank in {s:?}");
    point_index((b[0] - b'a') as i32, (b[1] - b'1') as i32)
}

/// The neighbour of p one step in direction (dx, dy), if on the board.
fn step(p: usize, dx: i32, dy: i32) -> Option<usize> {
    let (x, y) = point_xy(p);
    let (nx, ny) = (x + dx, y + dy);
    if (0..6).contains(&nx) && (0..6).contains(&ny) { Some(point_index(nx, ny)) } else { None }
}

fn direction(name: &str) -> (i32, i32) {
    match name {
        "N" => (0, 1),
        "NE" => (1, 1),
        "E" => (1, 0),
        "SE" => (1, -1),
        "S" => (0, -1),
        "SW" => (-1, -1),
        "W" => (-1, 0),
        "NW" => (-1, 1),
        _ => panic!("bad direction {name:?}"),
    }
}

/// Reads the 11 rows of a board picture into a list of lines. Rows shorter
/// than 11 characters are padded with blanks only when `pad` is set (the
/// picture form); the one-line form must have exactly 11 characters a row.
fn parse_board_rows(rows: &[&str], pad: bool) -> Vec<(Xy, Xy)> {
    assert!(rows.len() == 11, "a board has 11 rows, got {}", rows.len());
    // Picture cell (row, col) with even row and col is point (col/2, 5 - row/2).
    let pt = |row: usize, col: usize| -> Xy { ((col / 2) as i32, 5 - (row / 2) as i32) };
    let mut lines = Vec::new();
    for (row, text) in rows.iter().enumerate() {
        let mut chars: Vec<char> = text.chars().collect();
        if pad {
            assert!(chars.len() <= 11, "board row {row} is too long");
            while chars.len() < 11 {
                chars.push(' ');
            }
        }
        assert!(chars.len() == 11, "board row {row} must have 11 characters: {text:?}");
        for (col, &c0) in chars.iter().enumerate() {
            let c = if c0 == '.' { ' ' } else { c0 };
            match (row % 2, col % 2) {
                (0, 0) => assert!(c == 'o', "expected a point at ({row},{col})"),
                (0, 1) => match c {
                    '-' => lines.push((pt(row, col - 1), pt(row, col + 1))),
                    ' ' => {}
                    _ => panic!("bad character {c0:?} at ({row},{col})"),
                },
                (1, 0) => match c {
                    '|' => lines.push((pt(row - 1, col), pt(row + 1, col))),
                    ' ' => {}
                    _ => panic!("bad character {c0:?} at ({row},{col})"),
                },
                _ => {
                    let back = (pt(row - 1, col - 1), pt(row + 1, col + 1)); // '\'
                    let fwd = (pt(row - 1, col + 1), pt(row + 1, col - 1)); // '/'
                    match c {
                        '\\' => lines.push(back),
                        '/' => lines.push(fwd),
                        'X' => {
                            lines.push(back);
                            lines.push(fwd);
                        }
                        ' ' => {}
                        _ => panic!("bad character {c0:?} at ({row},{col})"),
                    }
                }
            }
        }
    }
    lines
}

fn parse_pods(text: &str) -> Vec<Vec<Leg>> {
    let mut pods = Vec::new();
    for (i, item) in text.split(';').enumerate() {
        let (letter, legs_text) = item.split_once('=').unwrap_or_else(|| panic!("bad pod {item:?}"));
        assert!(letter.len() == 1 && letter.as_bytes()[0] == b'A' + i as u8, "pod letters must run from A: {item:?}");
        let mut legs: Vec<Leg> = Vec::new();
        for leg in legs_text.split(',') {
            let (dir, kind) = leg.split_once(':').unwrap_or_else(|| panic!("bad leg {leg:?}"));
            let (dx, dy) = direction(dir);
            let long = match kind {
                "s" => false,
                "l" => true,
                _ => panic!("bad leg length {leg:?}"),
            };
            assert!(!legs.iter().any(|l| l.dx == dx && l.dy == dy), "direction twice in {item:?}");
            legs.push(Leg { dx, dy, long });
        }
        assert!(!legs.is_empty(), "a pod needs a leg");
        pods.push(legs);
    }
    assert!((1..=16).contains(&pods.len()), "a set has 1 to 16 pods");
    pods
}

impl RefRules {
    /// board: None = default board, Some(one-line form per spec section 2).
    /// pods: None = default set, Some(one-line form per section 3).
    pub fn new(board: Option<&str>, pods: Option<&str>, advanced: bool, placement_liberty: bool) -> RefRules {
        let lines = match board {
            None => parse_board_rows(&DEFAULT_BOARD, true),
            Some(one_line) => {
                let rows: Vec<&str> = one_line.split(',').collect();
                parse_board_rows(&rows, false)
            }
        };
        let pods = parse_pods(pods.unwrap_or(DEFAULT_PODS));
        RefRules { lines, pods, advanced, placement_liberty }
    }

    /// Number of lines of the (unrotated) board. Extra helper for self tests.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Whether points a and b (names like "a6") are joined at the given
    /// rotation. Extra helper for self tests.
    pub fn connected(&self, rotation: u32, a: &str, b: &str) -> bool {
        self.geometry(rotation).conn[parse_point(a)][parse_point(b)]
    }

    /// All legal moves, as sorted strings without duplicates.
    pub fn legal_moves(&self, position: &str) -> Vec<String> {
        let st = self.parse_position(position);
        let geo = self.geometry(st.rotation);
        let set: BTreeSet<String> = self.generate(&geo, &st).iter().map(|&m| self.move_name(m)).collect();
        set.into_iter().collect()
    }

    /// Plays a legal move and returns the new position in canonical form.
    pub fn play(&self, position: &str, mv: &str) -> String {
        let st = self.parse_position(position);
        let geo = self.geometry(st.rotation);
        // Readers accept a lowercase letter in a placement.
        let wanted = match mv.split_once('@') {
            Some((letter, at)) => format!("{}@{}", letter.to_ascii_uppercase(), at),
            None => mv.to_string(),
        };
        let moves = self.generate(&geo, &st);
        let found = moves.iter().find(|&&m| self.move_name(m) == wanted);
        let m = *found.unwrap_or_else(|| panic!("move {mv:?} is not legal in {position:?}"));
        let next = self.apply(&geo, &st, m);
        self.format_position(&next)
    }

    /// The position in canonical form (as `play` writes positions).
    pub fn canonical(&self, position: &str) -> String {
        self.format_position(&self.parse_position(position))
    }

    /// The side to move: 0 for White, 1 for Black.
    pub fn side_to_move(&self, position: &str) -> usize {
        self.parse_position(position).side
    }

    /// Every legal move with the position after it, the moves sorted:
    /// `legal_moves` and `play` at once, for checkers that visit many positions.
    pub fn children(&self, position: &str) -> Vec<(String, String)> {
        let st = self.parse_position(position);
        let geo = self.geometry(st.rotation);
        let mut children: Vec<(String, String)> = self
            .generate(&geo, &st)
            .into_iter()
            .map(|m| (self.move_name(m), self.format_position(&self.apply(&geo, &st, m))))
            .collect();
        children.sort();
        children.dedup_by(|a, b| a.0 == b.0);
        children
    }

    /// Whether `side` (0 White, 1 Black) can force the game from `position`
    /// to end with its win within `plies` plies, by trying every line (a
    /// player to move with no legal move has lost; draws by repetition play
    /// no part, as no line that short repeats a position three times). A
    /// brute force over these rules, sharing results between transpositions.
    pub fn side_wins_within(&self, position: &str, side: usize, plies: u32) -> bool {
        let st = self.parse_position(position);
        let geo = self.geometry(st.rotation);
        let mut known = std::collections::HashMap::new();
        self.wins_within(&geo, &st, side, plies, &mut known)
    }

    /// `side_wins_within` on a decoded position; `known` maps a position (by
    /// `state_key`) to the most plies known not to be enough and the fewest
    /// known to be.
    fn wins_within(
        &self,
        geo: &Geometry,
        st: &State,
        side: usize,
        plies: u32,
        known: &mut std::collections::HashMap<Vec<u8>, (Option<u32>, Option<u32>)>,
    ) -> bool {
        let key = state_key(st);
        if let Some(&(not_enough, enough)) = known.get(&key) {
            if enough.is_some_and(|enough| enough <= plies) {
                return true;
            }
            if not_enough.is_some_and(|not_enough| not_enough >= plies) {
                return false;
            }
        }
        let moves = self.generate(geo, st);
        let wins = if moves.is_empty() {
            st.side != side
        } else if plies == 0 {
            false
        } else if st.side == side {
            moves.iter().any(|&m| self.wins_within(geo, &self.apply(geo, st, m), side, plies - 1, known))
        } else {
            moves.iter().all(|&m| self.wins_within(geo, &self.apply(geo, st, m), side, plies - 1, known))
        };
        let entry = known.entry(key).or_insert((None, None));
        if wins {
            entry.1 = Some(entry.1.map_or(plies, |enough| enough.min(plies)));
        } else {
            entry.0 = Some(entry.0.map_or(plies, |not_enough| not_enough.max(plies)));
        }
        wins
    }

    /// perft per section 8.
    pub fn perft(&self, position: &str, depth: u32) -> u64 {
        let st = self.parse_position(position);
        let geo = self.geometry(st.rotation);
        self.perft_state(&geo, &st, depth)
    }

    fn perft_state(&self, geo: &Geometry, st: &State, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.generate(geo, st);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.perft_state(geo, &self.apply(geo, st, m), depth - 1)).sum()
    }

    // ----- geometry -----

    /// Builds connectivity for a rotation: each line of the picture has its
    /// endpoints turned 90 degrees clockwise, (x, y) -> (y, 5 - x), once per
    /// quarter turn.
    fn geometry(&self, rotation: u32) -> Geometry {
        let turns = match rotation {
            0 => 0,
            90 => 1,
            180 => 2,
            270 => 3,
            _ => panic!("bad rotation {rotation}"),
        };
        let turn = |(x, y): Xy| -> Xy { (y, 5 - x) };
        let mut conn = vec![vec![false; 36]; 36];
        for &(mut a, mut b) in &self.lines {
            for _ in 0..turns {
                a = turn(a);
                b = turn(b);
            }
            let (pa, pb) = (point_index(a.0, a.1), point_index(b.0, b.1));
            conn[pa][pb] = true;
            conn[pb][pa] = true;
        }
        Geometry { conn }
    }

    // ----- pods on the board -----

    /// The legs of a side's pod as it stands on the board: Black's pods have
    /// every direction reversed.
    fn legs(&self, side: usize, pod: usize) -> Vec<Leg> {
        self.pods[pod]
            .iter()
            .map(|l| if side == BLACK { Leg { dx: -l.dx, dy: -l.dy, long: l.long } } else { *l })
            .collect()
    }

    /// Points attacked by a side's pod standing at p. Attacks pass through
    /// pods; only a missing line stops a long leg.
    fn attacks(&self, geo: &Geometry, p: usize, side: usize, pod: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for leg in self.legs(side, pod) {
            let mut from = p;
            while let Some(q) = step(from, leg.dx, leg.dy) {
                if !geo.conn[from][q] {
                    break;
                }
                out.push(q);
                if !leg.long {
                    break;
                }
                from = q;
            }
        }
        out
    }

    /// Number of liberties of a side's pod at p on this board: neighbours in
    /// its leg directions (first step only), connected and empty.
    fn liberties(
        &self,
        geo: &Geometry,
        board: &[Option<(usize, usize)>; 36],
        p: usize,
        side: usize,
        pod: usize,
    ) -> usize {
        let mut n = 0;
        for leg in self.legs(side, pod) {
            if let Some(q) = step(p, leg.dx, leg.dy)
                && geo.conn[p][q]
                && board[q].is_none()
            {
                n += 1;
            }
        }
        n
    }

    // ----- move generation -----

    fn game_over(&self, st: &State) -> bool {
        self.advanced && st.hands[1 - st.side].iter().all(|&h| !h)
    }

    fn generate(&self, geo: &Geometry, st: &State) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.game_over(st) {
            return moves;
        }
        let me = st.side;
        let them = 1 - me;
        let first_move = me == WHITE && st.ply == 0;

        // Points attacked by the opponent, and points holding opponent pods.
        let mut attacked = [false; 36];
        for p in 0..36 {
            if let Some((s, pod)) = st.board[p]
                && s == them
            {
                for q in self.attacks(geo, p, s, pod) {
                    attacked[q] = true;
                }
            }
        }

        // Placements.
        for pod in 0..self.pods.len() {
            if !st.hands[me][pod] {
                continue;
            }
            if first_move && self.pods[pod].len() != 2 {
                continue; // condition 4
            }
            for (p, &is_attacked) in attacked.iter().enumerate() {
                if st.board[p].is_some() || is_attacked {
                    continue; // empty point; condition 2
                }
                let hits_opponent =
                    self.attacks(geo, p, me, pod).iter().any(|&q| matches!(st.board[q], Some((s, _)) if s == them));
                if hits_opponent {
                    continue; // condition 3
                }
                let need_liberty = !self.advanced || self.placement_liberty;
                if need_liberty && self.liberties(geo, &st.board, p, me, pod) == 0 {
                    continue; // condition 1
                }
                moves.push(Move::Place(pod, p));
            }
        }

        // Moves of pods on the board (advanced game, not on White's first move).
        if self.advanced && !first_move {
            for p in 0..36 {
                let Some((s, pod)) = st.board[p] else { continue };
                if s != me {
                    continue;
                }
                for leg in self.legs(me, pod) {
                    let mut from = p;
                    while let Some(q) = step(from, leg.dx, leg.dy) {
                        if !geo.conn[from][q] || st.board[q].is_some() {
                            break;
                        }
                        moves.push(Move::Shift(p, q));
                        if !leg.long {
                            break;
                        }
                        from = q;
                    }
                }
            }
        }
        moves
    }

    /// Applies a move (assumed legal) and returns the next state.
    fn apply(&self, geo: &Geometry, st: &State, m: Move) -> State {
        let me = st.side;
        let mut next = st.clone();
        match m {
            Move::Place(pod, p) => {
                next.hands[me][pod] = false;
                next.board[p] = Some((me, pod));
            }
            Move::Shift(from, to) => {
                next.board[to] = next.board[from];
                next.board[from] = None;
            }
        }
        if self.advanced {
            // One pass: find every blocked pod first, then take them all off.
            let blocked: Vec<usize> = (0..36)
                .filter(|&p| match next.board[p] {
                    Some((s, pod)) => self.liberties(geo, &next.board, p, s, pod) == 0,
                    None => false,
                })
                .collect();
            for p in blocked {
                let (s, pod) = next.board[p].unwrap();
                next.board[p] = None;
                if s == me {
                    next.hands[me][pod] = true;
                } // the opponent's blocked pods leave the game
            }
        }
        next.side = 1 - me;
        next.ply += 1;
        next
    }

    fn move_name(&self, m: Move) -> String {
        match m {
            Move::Place(pod, p) => format!("{}@{}", (b'A' + pod as u8) as char, point_name(p)),
            Move::Shift(a, b) => format!("{}{}", point_name(a), point_name(b)),
        }
    }

    // ----- position text -----

    fn pod_of_letter(&self, c: char) -> (usize, usize) {
        let (side, base) = if c.is_ascii_uppercase() { (WHITE, b'A') } else { (BLACK, b'a') };
        assert!(c.is_ascii_alphabetic(), "bad pod letter {c:?}");
        let pod = (c as u8 - base) as usize;
        assert!(pod < self.pods.len(), "pod {c:?} is not in the set");
        (side, pod)
    }

    fn parse_position(&self, text: &str) -> State {
        let fields: Vec<&str> = text.split(' ').collect();
        assert!(fields.len() == 5, "a position has 5 fields: {text:?}");
        let n = self.pods.len();
        let mut seen = [vec![false; n], vec![false; n]];
        let mut note = |side: usize, pod: usize| {
            assert!(!seen[side][pod], "pod letter twice in {text:?}");
            seen[side][pod] = true;
        };

        let mut board = [None; 36];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert!(ranks.len() == 6, "the board has 6 ranks: {text:?}");
        for (i, rank_text) in ranks.iter().enumerate() {
            let y = 5 - i as i32;
            let mut x = 0;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    assert!((1..=6).contains(&d), "bad digit in {text:?}");
                    x += d as i32;
                } else {
                    assert!(x < 6, "rank too long in {text:?}");
                    let (side, pod) = self.pod_of_letter(c);
                    note(side, pod);
                    board[point_index(x, y)] = Some((side, pod));
                    x += 1;
                }
            }
            assert!(x == 6, "each rank describes 6 points: {text:?}");
        }

        let side = match fields[1] {
            "w" => WHITE,
            "b" => BLACK,
            _ => panic!("bad side in {text:?}"),
        };

        let mut hands = [vec![false; n], vec![false; n]];
        if fields[2] != "-" {
            for c in fields[2].chars() {
                let (s, pod) = self.pod_of_letter(c);
                note(s, pod);
                hands[s][pod] = true;
            }
        }

        let rotation: u32 = fields[3].parse().unwrap_or_else(|_| panic!("bad rotation in {text:?}"));
        assert!([0, 90, 180, 270].contains(&rotation), "bad rotation in {text:?}");
        let ply: u64 = fields[4].parse().unwrap_or_else(|_| panic!("bad ply in {text:?}"));

        let st = State { board, hands, side, rotation, ply };
        if self.advanced {
            assert!(
                st.hands[side].iter().any(|&h| h),
                "advanced position whose side to move has an empty hand is invalid: {text:?}"
            );
        }
        st
    }

    fn format_position(&self, st: &State) -> String {
        let mut ranks = Vec::new();
        for y in (0..6).rev() {
            let mut s = String::new();
            let mut empty = 0;
            for x in 0..6 {
                match st.board[point_index(x, y)] {
                    None => empty += 1,
                    Some((side, pod)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let base = if side == WHITE { b'A' } else { b'a' };
                        s.push((base + pod as u8) as char);
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            ranks.push(s);
        }
        let mut hands = String::new();
        for (side, base) in [(WHITE, b'A'), (BLACK, b'a')] {
            for pod in 0..self.pods.len() {
                if st.hands[side][pod] {
                    hands.push((base + pod as u8) as char);
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let side = if st.side == WHITE { "w" } else { "b" };
        format!("{} {} {} {} {}", ranks.join("/"), side, hands, st.rotation, st.ply)
    }
}

/// A position's board, hands and side to move as bytes, for tables of known results.
fn state_key(st: &State) -> Vec<u8> {
    let mut key: Vec<u8> =
        st.board.iter().map(|cell| cell.map_or(0, |(side, pod)| 1 + (side * 16 + pod) as u8)).collect();
    for hand in &st.hands {
        key.extend(hand.iter().map(|&held| held as u8));
    }
    key.push(st.side as u8);
    key
}
