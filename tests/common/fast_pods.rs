//! A fast, independent brute-force solver for the standard game of Pods,
//! written from the rules contract (docs of the game: `pods-rules.md`,
//! sections 1 to 5, 7 and 8) alone, to verify the engine's proof
//! certificates. It shares no code with the engine or with the other
//! reference implementations of the tests.
//!
//! Everything is bitmasks over the 36 points (`index = rank * 6 + file`).
//! For each of the four rotations, per side, pod and point, tables hold the
//! points the pod attacks (attacks depend on the lines and the pod's point
//! only, never on other pods: contract section 4) and its liberty candidates
//! (the connected neighbours in its legs' directions). In the standard game
//! pods never leave the board, so every condition of a legal placement can
//! only turn false as the game goes on: a state keeps, per side and pod in
//! hand, the mask of the points it may be placed on, and a placement only
//! removes points from those masks.
//!
//! `wins_within` is an AND/OR search (any move of the winner, every move of
//! the loser) with a transposition table keyed by the whole state (where
//! every pod is, the side to move, the first-move rule, the rotation and the
//! side asked about). Each entry keeps the largest ply count known not to
//! be enough and the smallest known to be enough, so calls with different
//! ply counts share their results. The table has a fixed size (2^21 entries
//! of 32 bytes, 64 MB, taken at the first `wins_within`; buckets of two,
//! newest first): memory stays bounded.
//!
//! What makes it fast, none of it changing an answer: moves are tried in
//! the order of the opponent's fewest replies (the table's remembered move
//! first); the last ply is a direct test (is there a placement after which
//! the loser has none?); and a node is given up at once when the loser
//! surely keeps a move at each of its turns to come (`survives`: options
//! the winner cannot take away, or cannot take away fast enough, since the
//! winner's legal placements only shrink). Ply counts are first rounded to
//! the turns where a win can happen (the loser's) and to the pods left.

/// All 36 points.
const ALL: u64 = (1u64 << 36) - 1;
/// N, NE, E, SE, S, SW, W, NW as (file, rank) steps; the opposite of
/// direction `d` is `(d + 4) % 8`.
const DIRS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
const DIR_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
/// The most pods a set may have.
const MAX_PODS: usize = 16;

/// The contract's default board, in its one-line form.
pub const DEFAULT_BOARD: &str = "o-o-o-o-o-o,|X|\\|/|/|/|,o-o-o-o-o-o,|\\|X|X|\\|/|,o-o-o-o.o-o,|.|/|/|X|X.,\
o-o-o.o-o-o,|.|\\./|.|\\|,o.o-o.o-o-o,|.|.|.|/|.|,o-o-o-o-o-o";
/// The contract's default pod set (White's pods as they stand on the board).
pub const DEFAULT_PODS: &str = "A=W:s,E:s;B=N:l,S:s;C=NW:s,SW:s,E:s;D=N:s,SW:l,SE:l;E=NW:l,NE:l,S:s;F=W:l,E:l,N:s;\
G=N:l,S:l,W:s,E:s;H=NW:s,NE:s,SW:s,SE:s;I=N:s,E:s,S:s,W:s;J=NE:l,SW:l,NW:s,SE:s;K=N:s,NE:s,E:s,W:s,S:l;\
L=NW:l,N:s,NE:l,SW:s,SE:s;M=N:s,NE:s,SE:s,S:s,SW:s,NW:s;N=N:l,NE:s,E:l,SE:s,S:l,SW:s,W:l,NW:s";

/// Transposition table: 2^TT_BITS entries of 32 bytes.
const TT_BITS: u32 = 21;
/// Moves are ordered at nodes with at least this many plies left.
const ORDER_FROM: u32 = 3;
/// The transposition table keeps nodes with at least this many plies left.
const TT_FROM: u32 = 4;
// Layout of the key's last word (the first three hold 30 pod slots of 6 bits).
const STM_BIT: u32 = 12;
const FIRST_BIT: u32 = 13;
const WINNER_BIT: u32 = 14;
const ROT_SHIFT: u32 = 15;
const KEY3_MASK: u64 = (1 << 17) - 1;
const BEST_SHIFT: u32 = 20;
const FAIL_SHIFT: u32 = 32;
const WIN_SHIFT: u32 = 40;
/// Slot code of a pod in hand, and of one that is nowhere (out of the game or
/// not in the set); codes 0..36 are points.
const IN_HAND: u64 = 36;
const NOWHERE: u64 = 37;

fn point_name(p: usize) -> String {
    format!("{}{}", (b'a' + (p % 6) as u8) as char, p / 6 + 1)
}

fn slot_place(side: usize, pod: usize) -> (usize, u32) {
    let slot = side * MAX_PODS + pod;
    (slot / 10, 6 * (slot % 10) as u32)
}

/// Per rotation: tables indexed by `ti(side, pod, point)`.
struct Tables {
    /// The points a pod there attacks.
    att: Vec<u64>,
    /// The connected neighbours in its legs' directions (liberty candidates).
    lib: Vec<u64>,
    /// `revatt[q]`: the points from which the pod would attack q.
    revatt: Vec<u64>,
    /// `revlib[q]`: the points whose liberty candidates include q.
    revlib: Vec<u64>,
    /// `zone[q]`: the points where an opponent placement could take the
    /// placement of this pod on q away (q itself, the points from which
    /// some opponent pod of the set attacks q, the points the pod would
    /// attack or have as liberty from q).
    zone: Vec<u64>,
}

#[inline]
fn ti(side: usize, pod: usize, point: usize) -> usize {
    (side * 36 + point) * MAX_PODS + pod
}

/// A position of the standard game as the solver keeps it.
#[derive(Clone, Copy)]
struct State {
    occ: [u64; 2],
    hand: [u16; 2],
    stm: usize,
    /// The first-move rule applies (White to move at ply 0).
    first: bool,
    rot: usize,
    /// Per side and pod in hand: the points it may legally be placed on
    /// (first-move rule aside); 0 for pods not in hand.
    masks: [[u64; MAX_PODS]; 2],
    key: [u64; 4],
}

/// A position as read, before the masks.
#[derive(Clone, Debug, PartialEq)]
struct Parsed {
    board: [Option<(usize, usize)>; 36],
    stm: usize,
    hands: [u16; 2],
    rot: usize,
    ply: u32,
}

pub struct FastPods {
    npods: usize,
    /// The pods with exactly two legs.
    bipods: u16,
    /// Per pod: its legs as White's, (direction, long).
    legs: Vec<Vec<(usize, bool)>>,
    /// `conn[rot][point][direction]`: a line joins the point to its neighbour.
    conn: Vec<[[bool; 8]; 36]>,
    tables: Vec<Tables>,
    tt: Vec<[u64; 4]>,
    buffers: Vec<Vec<u64>>,
    /// Per depth: the last two moves that decided a node (move + 1).
    killers: Vec<[u32; 2]>,
    winner: usize,
    /// Nodes visited by `wins_within` since the solver was made.
    pub nodes: u64,
}

impl FastPods {
    /// `board`: the one-line board (rows joined by `,`, top row first; a
    /// row may be shorter than 11 characters, its missing end is blank);
    /// `pods`: `A=W:s,E:s;B=N:l,S:s;...`. `None` means the contract's default.
    pub fn new(board: Option<&str>, pods: Option<&str>) -> Result<FastPods, String> {
        let lines = parse_board(board.unwrap_or(DEFAULT_BOARD))?;
        let legs = parse_pods(pods.unwrap_or(DEFAULT_PODS))?;
        let npods = legs.len();
        let bipods = (0..npods).filter(|&i| legs[i].len() == 2).fold(0u16, |m, i| m | 1 << i);
        let mut conn = Vec::new();
        for rot in 0..4 {
            let mut c = [[false; 8]; 36];
            for &(a, b) in &lines {
                let (mut a, mut b) = (a, b);
                for _ in 0..rot {
                    a = (a.1, 5 - a.0);
                    b = (b.1, 5 - b.0);
                }
                let d = DIRS.iter().position(|&(dx, dy)| (a.0 + dx, a.1 + dy) == b).expect("lines join neighbours");
                c[(a.1 * 6 + a.0) as usize][d] = true;
                c[(b.1 * 6 + b.0) as usize][(d + 4) % 8] = true;
            }
            conn.push(c);
        }
        let mut tables = Vec::new();
        for c in &conn {
            let size = 2 * MAX_PODS * 36;
            let mut t = Tables {
                att: vec![0; size],
                lib: vec![0; size],
                revatt: vec![0; size],
                revlib: vec![0; size],
                zone: vec![0; size],
            };
            for side in 0..2 {
                for (pod, pod_legs) in legs.iter().enumerate() {
                    for p in 0..36 {
                        let (mut att, mut lib) = (0u64, 0u64);
                        for &(d, long) in pod_legs {
                            let d = if side == 0 { d } else { (d + 4) % 8 };
                            let mut q = p;
                            let mut first = true;
                            while c[q][d] {
                                q = step(q, d).expect("a connected neighbour is on the board");
                                att |= 1 << q;
                                if first {
                                    lib |= 1 << q;
                                    first = false;
                                }
                                if !long {
                                    break;
                                }
                            }
                        }
                        t.att[ti(side, pod, p)] = att;
                        t.lib[ti(side, pod, p)] = lib;
                        for q in bits(att) {
                            t.revatt[ti(side, pod, q)] |= 1 << p;
                        }
                        for q in bits(lib) {
                            t.revlib[ti(side, pod, q)] |= 1 << p;
                        }
                    }
                }
            }
            for side in 0..2 {
                for pod in 0..npods {
                    for p in 0..36 {
                        let by_opponent = (0..npods).fold(0, |m, o| m | t.revatt[ti(1 - side, o, p)]);
                        t.zone[ti(side, pod, p)] =
                            1 << p | by_opponent | t.att[ti(side, pod, p)] | t.lib[ti(side, pod, p)];
                    }
                }
            }
            tables.push(t);
        }
        Ok(FastPods {
            npods,
            bipods,
            legs,
            conn,
            tables,
            tt: Vec::new(),
            buffers: Vec::new(),
            killers: Vec::new(),
            winner: 0,
            nodes: 0,
        })
    }

    /// Whether `side` (0 White, 1 Black) can force a win from `position`
    /// within `plies` plies: the player to move with no legal placement (an
    /// empty hand included) has lost.
    pub fn wins_within(&mut self, position: &str, side: usize, plies: u32) -> Result<bool, String> {
        if side > 1 {
            return Err(format!("side {side}: 0 is White, 1 is Black"));
        }
        let st = self.state(&self.parse_position(position)?);
        if self.tt.is_empty() {
            self.tt = vec![[0; 4]; 1 << TT_BITS];
        }
        self.winner = side;
        let total = st.hand[0].count_ones() + st.hand[1].count_ones();
        let n = plies.min(total);
        // Short wins first (cheap), then the whole depth at once: deepening
        // step by step costs more than it saves here.
        let mut d = if st.stm == side { 1 } else { 0 };
        while d < n && d <= 3 {
            if self.solve(&st, d, 0) {
                return Ok(true);
            }
            d += 2;
        }
        Ok(self.solve(&st, n, 0))
    }

    /// perft (contract section 8) of the standard game from `position`.
    pub fn perft(&mut self, position: &str, depth: u32) -> Result<u64, String> {
        let st = self.state(&self.parse_position(position)?);
        Ok(self.perft_state(&st, depth))
    }

    /// The legal moves of `position`, as `G@e2` (letter in uppercase).
    pub fn legal_moves(&mut self, position: &str) -> Result<Vec<String>, String> {
        let st = self.state(&self.parse_position(position)?);
        let mut out = Vec::new();
        self.gen_moves(&st, &mut out);
        Ok(out
            .iter()
            .map(|&mv| format!("{}@{}", (b'A' + (mv >> 6) as u8) as char, point_name((mv & 63) as usize)))
            .collect())
    }

    fn parse_position(&self, text: &str) -> Result<Parsed, String> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 5 || fields.iter().any(|f| f.is_empty()) {
            return Err(format!(
                "a position is five fields separated by single spaces (board side hands rotation ply): {text:?}"
            ));
        }
        let mut board = [None; 36];
        let mut seen = [0u16; 2];
        let take = |c: char, seen: &mut [u16; 2]| -> Result<(usize, usize), String> {
            let (side, pod) = if c.is_ascii_uppercase() {
                (0, (c as u8 - b'A') as usize)
            } else if c.is_ascii_lowercase() {
                (1, (c as u8 - b'a') as usize)
            } else {
                return Err(format!("{c:?} is no pod letter in position {text:?}"));
            };
            if pod >= self.npods {
                return Err(format!(
                    "pod {c:?} is not in the pod set (it has {} pods, A to {}) in position {text:?}",
                    self.npods,
                    (b'A' + self.npods as u8 - 1) as char
                ));
            }
            if seen[side] & 1 << pod != 0 {
                return Err(format!("pod {c:?} appears twice in position {text:?}"));
            }
            seen[side] |= 1 << pod;
            Ok((side, pod))
        };
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 6 {
            return Err(format!("the board field has {} ranks, not 6, in position {text:?}", ranks.len()));
        }
        for (i, rank) in ranks.iter().enumerate() {
            let y = 5 - i;
            let mut x = 0;
            for c in rank.chars() {
                if x >= 6 {
                    return Err(format!("rank {} describes more than 6 points in position {text:?}", y + 1));
                }
                if ('1'..='6').contains(&c) {
                    x += (c as u8 - b'0') as usize;
                } else {
                    board[y * 6 + x] = Some(take(c, &mut seen)?);
                    x += 1;
                }
            }
            if x != 6 {
                return Err(format!("rank {} describes {x} points, not 6, in position {text:?}", y + 1));
            }
        }
        let stm = match fields[1] {
            "w" => 0,
            "b" => 1,
            other => return Err(format!("side to move {other:?} is neither w nor b in position {text:?}")),
        };
        let mut hands = [0u16; 2];
        if fields[2] != "-" {
            let mut last: Option<(usize, usize)> = None;
            for c in fields[2].chars() {
                let (side, pod) = take(c, &mut seen)?;
                if let Some(prev) = last
                    && prev > (side, pod)
                {
                    return Err(format!(
                        "hands must list White's pods (uppercase) then Black's (lowercase), each alphabetically: {:?} in position {text:?}",
                        fields[2]
                    ));
                }
                last = Some((side, pod));
                hands[side] |= 1 << pod;
            }
        }
        let rot = match fields[3] {
            "0" => 0,
            "90" => 1,
            "180" => 2,
            "270" => 3,
            other => return Err(format!("rotation {other:?} is not 0, 90, 180 or 270 in position {text:?}")),
        };
        if !fields[4].bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("ply {:?} is not a number in position {text:?}", fields[4]));
        }
        let ply = fields[4].parse::<u32>().map_err(|e| format!("ply {:?}: {e} in position {text:?}", fields[4]))?;
        Ok(Parsed { board, stm, hands, rot, ply })
    }

    fn state(&self, p: &Parsed) -> State {
        let t = &self.tables[p.rot];
        let mut occ = [0u64; 2];
        let mut codes = [[NOWHERE; MAX_PODS]; 2];
        for (q, cell) in p.board.iter().enumerate() {
            if let Some((side, pod)) = *cell {
                occ[side] |= 1 << q;
                codes[side][pod] = q as u64;
            }
        }
        let empty = ALL & !(occ[0] | occ[1]);
        let mut masks = [[0u64; MAX_PODS]; 2];
        for side in 0..2 {
            let opp = 1 - side;
            // Points attacked by the opponent's pods.
            let mut attacked = 0u64;
            for (q, cell) in p.board.iter().enumerate() {
                if let Some((s, pod)) = *cell
                    && s == opp
                {
                    attacked |= t.att[ti(s, pod, q)];
                }
            }
            for pod in bits(p.hands[side] as u64) {
                codes[side][pod] = IN_HAND;
                let mut m = 0u64;
                for q in bits(empty & !attacked) {
                    if t.att[ti(side, pod, q)] & occ[opp] == 0 && t.lib[ti(side, pod, q)] & empty != 0 {
                        m |= 1 << q;
                    }
                }
                masks[side][pod] = m;
            }
        }
        let first = p.stm == 0 && p.ply == 0;
        let mut key = [0u64; 4];
        for (side, side_codes) in codes.iter().enumerate() {
            for (pod, &code) in side_codes.iter().enumerate() {
                let (w, shift) = slot_place(side, pod);
                key[w] |= code << shift;
            }
        }
        key[3] |= (p.stm as u64) << STM_BIT | (first as u64) << FIRST_BIT | (p.rot as u64) << ROT_SHIFT;
        State { occ, hand: p.hands, stm: p.stm, first, rot: p.rot, masks, key }
    }

    /// The pods the side to move may place.
    #[inline]
    fn movable(&self, st: &State) -> u16 {
        if st.first { st.hand[st.stm] & self.bipods } else { st.hand[st.stm] }
    }

    fn gen_moves(&self, st: &State, out: &mut Vec<u64>) {
        out.clear();
        for pod in bits(self.movable(st) as u64) {
            for q in bits(st.masks[st.stm][pod]) {
                out.push((pod as u64) << 6 | q as u64);
            }
        }
    }

    #[inline]
    fn count_moves(&self, st: &State, side: usize) -> u32 {
        let hand = if side == st.stm { self.movable(st) } else { st.hand[side] };
        bits(hand as u64).map(|pod| st.masks[side][pod].count_ones()).sum()
    }

    #[inline]
    fn has_move(&self, st: &State) -> bool {
        bits(self.movable(st) as u64).any(|pod| st.masks[st.stm][pod] != 0)
    }

    /// The position after the side to move places `pod` on `q`.
    #[inline]
    fn play(&self, st: &State, pod: usize, q: usize) -> State {
        let t = &self.tables[st.rot];
        let s = st.stm;
        let o = 1 - s;
        let mut c = *st;
        let qb = 1u64 << q;
        c.occ[s] |= qb;
        c.hand[s] &= !(1 << pod);
        c.masks[s][pod] = 0;
        let empty = ALL & !(c.occ[0] | c.occ[1]);
        for k in bits(c.hand[s] as u64) {
            let mut m = c.masks[s][k] & !qb;
            for p in bits(m & t.revlib[ti(s, k, q)]) {
                if t.lib[ti(s, k, p)] & empty == 0 {
                    m &= !(1 << p);
                }
            }
            c.masks[s][k] = m;
        }
        let a = t.att[ti(s, pod, q)] | qb;
        for k in bits(c.hand[o] as u64) {
            let mut m = c.masks[o][k] & !a & !t.revatt[ti(o, k, q)];
            for p in bits(m & t.revlib[ti(o, k, q)]) {
                if t.lib[ti(o, k, p)] & empty == 0 {
                    m &= !(1 << p);
                }
            }
            c.masks[o][k] = m;
        }
        let (w, shift) = slot_place(s, pod);
        c.key[w] ^= (IN_HAND ^ q as u64) << shift;
        c.key[3] ^= 1 << STM_BIT;
        if c.first {
            c.first = false;
            c.key[3] ^= 1 << FIRST_BIT;
        }
        c.stm = o;
        c
    }

    /// Whether the side to move has a placement after which the opponent
    /// has none.
    fn has_killing_move(&self, st: &State) -> bool {
        let t = &self.tables[st.rot];
        let w = st.stm;
        let l = 1 - w;
        let empty0 = ALL & !(st.occ[0] | st.occ[1]);
        // The points where one placement could take every reply away.
        let mut candidates = ALL;
        for k in bits(st.hand[l] as u64) {
            for p in bits(st.masks[l][k]) {
                candidates &= t.zone[ti(l, k, p)];
            }
            if candidates == 0 {
                return false;
            }
        }
        for pod in bits(self.movable(st) as u64) {
            'point: for q in bits(st.masks[w][pod] & candidates) {
                let qb = 1u64 << q;
                let empty = empty0 & !qb;
                let a = t.att[ti(w, pod, q)] | qb;
                for k in bits(st.hand[l] as u64) {
                    let m = st.masks[l][k] & !a & !t.revatt[ti(l, k, q)];
                    if m & !t.revlib[ti(l, k, q)] != 0 {
                        continue 'point;
                    }
                    for p in bits(m) {
                        if t.lib[ti(l, k, p)] & empty != 0 {
                            continue 'point;
                        }
                    }
                }
                return true;
            }
        }
        false
    }

    /// Whether `loser` surely has a move at each of its next `turns` turns
    /// while the opponent plays `opponent_plies` placements in between.
    /// It picks options (pod, point) with different pods and points, none on
    /// another's liberty candidates (so that playing one never takes another
    /// away), whose threats are pairwise disjoint: the threat of an option is
    /// the set of the opponent's legal points from which a placement could
    /// take it away (being the point, attacking it, being attacked from it,
    /// being one of its liberty candidates). The opponent's legal points
    /// only shrink, so each opponent placement takes at most one chosen
    /// option away, and those without threat never go.
    fn survives(&self, st: &State, loser: usize, turns: u32, opponent_plies: u32) -> bool {
        let t = &self.tables[st.rot];
        let w = 1 - loser;
        let mut reach = 0u64;
        for pod in bits(st.hand[w] as u64) {
            reach |= st.masks[w][pod];
        }
        let (mut safe, mut threatened) = (0u32, 0u32);
        let (mut used, mut libs, mut threats) = (0u64, 0u64, 0u64);
        let mut left = st.hand[loser];
        // First the options without threat, then the others.
        for pass in 0..2 {
            for k in bits(left as u64) {
                let mut pick: Option<(usize, u64)> = None;
                for p in bits(st.masks[loser][k] & !used & !libs) {
                    let i = ti(loser, k, p);
                    if t.lib[i] & used != 0 {
                        continue;
                    }
                    let mut threat = t.zone[i] & reach;
                    if threat != 0 {
                        threat = (1 << p | t.att[i] | t.lib[i]) & reach;
                        for pod in bits(st.hand[w] as u64) {
                            threat |= st.masks[w][pod] & t.revatt[ti(w, pod, p)];
                        }
                    }
                    if (pass == 0 && threat != 0) || threat & threats != 0 {
                        continue;
                    }
                    pick = Some((p, threat));
                    break;
                }
                let Some((p, threat)) = pick else { continue };
                if threat == 0 {
                    safe += 1;
                } else {
                    threatened += 1;
                }
                if safe + threatened.saturating_sub(opponent_plies) >= turns {
                    return true;
                }
                left &= !(1 << k);
                used |= 1 << p;
                libs |= t.lib[ti(loser, k, p)];
                threats |= threat;
            }
        }
        false
    }

    fn perft_state(&mut self, st: &State, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_moves(st, st.stm) as u64;
        }
        let mut total = 0;
        for pod in bits(self.movable(st) as u64) {
            for q in bits(st.masks[st.stm][pod]) {
                let child = self.play(st, pod, q);
                total += self.perft_state(&child, depth - 1);
            }
        }
        total
    }

    #[inline]
    fn tt_index(key: &[u64; 4]) -> usize {
        let mut h = key[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ key[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ key[2].wrapping_mul(0x1656_67B1_9E37_79F9)
            ^ key[3].wrapping_mul(0x85EB_CA77_C2B2_AE63);
        h ^= h >> 31;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        ((h >> (64 - TT_BITS)) as usize) & !1
    }

    /// Asks the processor to bring the key's table entries closer.
    #[inline]
    fn tt_prefetch(&self, key: &[u64; 4]) {
        #[cfg(target_arch = "x86_64")]
        {
            let entry = self.tt.as_ptr().wrapping_add(Self::tt_index(key));
            // SAFETY: a prefetch is a hint: it reads nothing and never faults.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(entry as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn tt_matches(entry: &[u64; 4], key: &[u64; 4]) -> bool {
        entry[0] == key[0] && entry[1] == key[1] && entry[2] == key[2] && entry[3] & KEY3_MASK == key[3]
    }

    /// (smallest ply count known enough, largest known not enough, best move + 1).
    fn tt_probe(&self, key: &[u64; 4]) -> Option<(u32, u32, u32)> {
        let i = Self::tt_index(key);
        for e in &self.tt[i..i + 2] {
            if Self::tt_matches(e, key) {
                let w = e[3];
                let win = ((w >> WIN_SHIFT) & 0xFF) as u32;
                let fail = ((w >> FAIL_SHIFT) & 0xFF) as u32;
                let best = ((w >> BEST_SHIFT) & 0x7FF) as u32;
                return Some((if win == 0 { u32::MAX } else { win - 1 }, fail, best));
            }
        }
        None
    }

    /// Records that `n` plies are (`won`) or are not enough.
    fn tt_store(&mut self, key: &[u64; 4], n: u32, won: bool, best: Option<u32>) {
        if n < TT_FROM {
            return;
        }
        let i = Self::tt_index(key);
        let slot = if Self::tt_matches(&self.tt[i], key) {
            i
        } else if Self::tt_matches(&self.tt[i + 1], key) {
            i + 1
        } else {
            self.tt[i + 1] = self.tt[i];
            self.tt[i] = [key[0], key[1], key[2], key[3]];
            i
        };
        let e = &mut self.tt[slot];
        let mut win = ((e[3] >> WIN_SHIFT) & 0xFF) as u32;
        let mut fail = ((e[3] >> FAIL_SHIFT) & 0xFF) as u32;
        if won {
            if win == 0 || n + 1 < win {
                win = n + 1;
            }
        } else if n + 1 > fail {
            fail = n + 1;
        }
        let mut bm = ((e[3] >> BEST_SHIFT) & 0x7FF) as u32;
        if let Some(mv) = best {
            bm = mv + 1;
        }
        e[3] = key[3] | (bm as u64) << BEST_SHIFT | (fail as u64) << FAIL_SHIFT | (win as u64) << WIN_SHIFT;
    }

    /// Whether `self.winner` wins from `st` within `n` plies.
    fn solve(&mut self, st: &State, n: u32, depth: usize) -> bool {
        self.nodes += 1;
        let total = st.hand[0].count_ones() + st.hand[1].count_ones();
        let winner_moves = st.stm == self.winner;
        let Some(n) = normalized(n, total, winner_moves) else { return false };
        if winner_moves {
            if n == 1 {
                return self.has_killing_move(st);
            }
        } else {
            if !self.has_move(st) {
                return true;
            }
            if n == 0 {
                return false;
            }
        }
        let key = [st.key[0], st.key[1], st.key[2], st.key[3] | (self.winner as u64) << WINNER_BIT];
        if n >= TT_FROM {
            self.tt_prefetch(&key);
        }
        // The loser's turns within n plies: it must have a move at each.
        let loser_turns = if winner_moves { n.div_ceil(2) } else { n / 2 + 1 };
        let winner_plies = if winner_moves { loser_turns } else { loser_turns - 1 };
        if self.survives(st, 1 - self.winner, loser_turns, winner_plies) {
            return false;
        }
        let mut best = 0;
        if n >= TT_FROM
            && let Some((win, fail, bm)) = self.tt_probe(&key)
        {
            if n >= win {
                return true;
            }
            if n < fail {
                return false;
            }
            best = bm;
        }
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        self.gen_moves(st, &mut moves);
        let result = self.search_moves(st, n, depth, &key, best, &mut moves);
        self.buffers[depth] = moves;
        result
    }

    fn search_moves(
        &mut self,
        st: &State,
        n: u32,
        depth: usize,
        key: &[u64; 4],
        best: u32,
        moves: &mut Vec<u64>,
    ) -> bool {
        let winner_moves = st.stm == self.winner;
        if moves.is_empty() {
            // Only the winner can be here without a move: lost at any depth.
            self.tt_store(key, n, false, None);
            return false;
        }
        if depth >= self.killers.len() {
            self.killers.resize(depth + 1, [0; 2]);
        }
        let killers = self.killers[depth];
        if n < ORDER_FROM {
            // The moves that decided a sibling first.
            let mut front = 0;
            for killer in killers {
                if killer != 0
                    && let Some(i) = moves.iter().position(|&mv| mv == (killer - 1) as u64)
                    && i >= front
                {
                    moves.swap(front, i);
                    front += 1;
                }
            }
            for &mv in moves.iter() {
                let m = (mv & 0x3FF) as u32;
                let child = self.play(st, (m >> 6) as usize, (m & 63) as usize);
                let r = self.solve(&child, n - 1, depth + 1);
                if r == winner_moves {
                    self.tt_store(key, n, r, Some(m));
                    self.add_killer(depth, m);
                    return r;
                }
            }
            self.tt_store(key, n, !winner_moves, None);
            return !winner_moves;
        }
        // The remembered best move first, before any ordering work.
        if best != 0
            && let Some(i) = moves.iter().position(|&mv| mv == (best - 1) as u64)
        {
            let m = best - 1;
            let child = self.play(st, (m >> 6) as usize, (m & 63) as usize);
            if self.solve(&child, n - 1, depth + 1) == winner_moves {
                self.tt_store(key, n, winner_moves, Some(m));
                return winner_moves;
            }
            moves.swap_remove(i);
        }
        // Then the moves leaving the opponent fewest replies first.
        let mut scorer = Scorer::new();
        for mv in moves.iter_mut() {
            let (pod, q) = ((*mv >> 6) as usize, (*mv & 63) as usize);
            let replies = scorer.replies(self, st, pod, q) as u64;
            if replies == 0 {
                // The opponent is stuck: a win for the mover at once.
                let m = (*mv & 0x3FF) as u32;
                self.tt_store(key, n, winner_moves, Some(m));
                return winner_moves;
            }
            *mv |= replies << 20;
        }
        let mut result = !winner_moves;
        let mut decisive = None;
        for i in 0..moves.len() {
            // The first pick is a plain minimum: it often decides.
            if i == 0 {
                let min = (0..moves.len()).min_by_key(|&j| moves[j]).expect("moves");
                moves.swap(0, min);
            } else if i == 1 {
                moves[1..].sort_unstable();
            }
            let m = (moves[i] & 0x3FF) as u32;
            let child = self.play(st, (m >> 6) as usize, (m & 63) as usize);
            if self.solve(&child, n - 1, depth + 1) == winner_moves {
                result = winner_moves;
                decisive = Some(m);
                break;
            }
        }
        if let Some(m) = decisive {
            self.add_killer(depth, m);
        }
        self.tt_store(key, n, result, decisive);
        result
    }

    fn add_killer(&mut self, depth: usize, m: u32) {
        let k = &mut self.killers[depth];
        if k[0] != m + 1 {
            k[1] = k[0];
            k[0] = m + 1;
        }
    }
}

/// Counts, for ordering, the placements the opponent keeps after each move
/// of a position; what a placement on a point takes away whatever the pod
/// (the point itself, the options that would attack it, those whose last
/// liberty it is) is worked out once per point.
struct Scorer {
    /// Per point: whether `kept` and `planes` hold it.
    known: u64,
    /// Per point: the opponent's options a placement there keeps, pod aside.
    kept: [u32; 36],
    /// Per point: those options counted per point, as bit planes.
    planes: [[u64; 5]; 36],
}

impl Scorer {
    fn new() -> Scorer {
        Scorer { known: 0, kept: [0; 36], planes: [[0; 5]; 36] }
    }

    #[inline]
    fn replies(&mut self, fp: &FastPods, st: &State, pod: usize, q: usize) -> u32 {
        let t = &fp.tables[st.rot];
        let (s, o) = (st.stm, 1 - st.stm);
        if self.known & 1 << q == 0 {
            self.known |= 1 << q;
            let qb = 1u64 << q;
            let empty = ALL & !(st.occ[0] | st.occ[1] | qb);
            let (mut kept, mut planes) = (0, [0u64; 5]);
            for k in bits(st.hand[o] as u64) {
                let mut m = st.masks[o][k] & !qb & !t.revatt[ti(o, k, q)];
                for p in bits(m & t.revlib[ti(o, k, q)]) {
                    if t.lib[ti(o, k, p)] & empty == 0 {
                        m &= !(1 << p);
                    }
                }
                kept += m.count_ones();
                let mut carry = m;
                for plane in planes.iter_mut() {
                    let next = *plane & carry;
                    *plane ^= carry;
                    carry = next;
                }
            }
            self.kept[q] = kept;
            self.planes[q] = planes;
        }
        let a = t.att[ti(s, pod, q)];
        let p = &self.planes[q];
        let attacked = (a & p[0]).count_ones()
            + 2 * (a & p[1]).count_ones()
            + 4 * (a & p[2]).count_ones()
            + 8 * (a & p[3]).count_ones()
            + 16 * (a & p[4]).count_ones();
        self.kept[q] - attacked
    }
}

/// The ply count a search with `n` plies left, `total` pods in hands, the
/// winner to move or not, stands for (the win can only come at the loser's
/// turn, and no later than when the hands are empty); `None` when nothing
/// can be won.
fn normalized(n: u32, total: u32, winner_moves: bool) -> Option<u32> {
    let n = n.min(total);
    if winner_moves { if n == 0 { None } else { Some(n - 1 + n % 2) } } else { Some(n & !1) }
}

fn step(p: usize, d: usize) -> Option<usize> {
    let (x, y) = ((p % 6) as i32 + DIRS[d].0, (p / 6) as i32 + DIRS[d].1);
    ((0..6).contains(&x) && (0..6).contains(&y)).then(|| (y * 6 + x) as usize)
}

/// The set bits of `m`, lowest first.
#[inline]
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let b = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(b)
    })
}

/// A line of the board: the (file, rank) of its two points.
type Line = ((i32, i32), (i32, i32));

/// The lines of a board picture (one-line form, or rows on lines).
fn parse_board(text: &str) -> Result<Vec<Line>, String> {
    let rows: Vec<&str> = if text.contains('\n') {
        text.lines().filter(|l| !l.trim().is_empty()).collect()
    } else {
        text.split(',').collect()
    };
    if rows.len() != 11 {
        return Err(format!("a board has 11 rows (joined by ','), this one has {}: {text:?}", rows.len()));
    }
    let mut lines = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let chars: Vec<char> = row.chars().collect();
        if chars.len() > 11 {
            return Err(format!("board row {} has {} characters, at most 11: {row:?}", r + 1, chars.len()));
        }
        for c in 0..11 {
            let ch = chars.get(c).copied().unwrap_or(' ');
            let blank = ch == ' ' || ch == '.';
            let (x, y) = ((c / 2) as i32, 5 - (r / 2) as i32);
            let bad = |what: &str| {
                Err(format!("board row {}, column {}: {ch:?} does not fit there ({what}) in row {row:?}", r + 1, c + 1))
            };
            match (r % 2, c % 2) {
                (0, 0) => {
                    if ch != 'o' {
                        return bad("a point must be 'o'");
                    }
                }
                (0, _) => match ch {
                    '-' => lines.push(((x, y), (x + 1, y))),
                    _ if blank => {}
                    _ => return bad("between two points of a row: '-' or blank"),
                },
                (_, 0) => match ch {
                    '|' => lines.push(((x, y), (x, y - 1))),
                    _ if blank => {}
                    _ => return bad("between two points of a column: '|' or blank"),
                },
                _ => {
                    let (back, fore) = match ch {
                        '\\' => (true, false),
                        '/' => (false, true),
                        'X' => (true, true),
                        _ if blank => (false, false),
                        _ => return bad("inside a square: '\\', '/', 'X' or blank"),
                    };
                    if back {
                        lines.push(((x, y), (x + 1, y - 1)));
                    }
                    if fore {
                        lines.push(((x + 1, y), (x, y - 1)));
                    }
                }
            }
        }
    }
    Ok(lines)
}

/// A pod set: per pod, its legs as (direction, long).
fn parse_pods(text: &str) -> Result<Vec<Vec<(usize, bool)>>, String> {
    let parts: Vec<&str> = text.split(';').collect();
    if parts.len() > MAX_PODS {
        return Err(format!("a pod set has 1 to {MAX_PODS} pods, this one has {}: {text:?}", parts.len()));
    }
    let mut pods = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let letter = (b'A' + i as u8) as char;
        let Some(legs_text) = part.strip_prefix(&format!("{letter}=")) else {
            return Err(format!(
                "pod {} of the set should be written {letter}=LEGS (letters from A without gaps), not {part:?}",
                i + 1
            ));
        };
        let mut legs = Vec::new();
        for leg in legs_text.split(',') {
            let parsed = leg.split_once(':').and_then(|(dir, kind)| {
                let d = DIR_NAMES.iter().position(|&n| n == dir)?;
                let long = match kind {
                    "s" => false,
                    "l" => true,
                    _ => return None,
                };
                Some((d, long))
            });
            let Some((d, long)) = parsed else {
                return Err(format!(
                    "pod {letter}: leg {leg:?} is not DIRECTION:s or DIRECTION:l (directions N NE E SE S SW W NW)"
                ));
            };
            if legs.iter().any(|&(e, _)| e == d) {
                return Err(format!("pod {letter} has direction {} twice", DIR_NAMES[d]));
            }
            legs.push((d, long));
        }
        pods.push(legs);
    }
    Ok(pods)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    const START: &str = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0";

    /// A tiny xorshift generator: the tests need no crate.
    struct Rand(u64);
    impl Rand {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// The slow way, straight from the rules: attacks walked along the
    /// lines (the connectivity table only) for every candidate placement.
    fn naive_attacks(fp: &FastPods, rot: usize, side: usize, pod: usize, p: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for &(d, long) in &fp.legs[pod] {
            let d = if side == 1 { (d + 4) % 8 } else { d };
            let mut q = p;
            while fp.conn[rot][q][d] {
                q = step(q, d).unwrap();
                out.push(q);
                if !long {
                    break;
                }
            }
        }
        out
    }

    fn naive_moves(fp: &FastPods, pos: &Parsed) -> Vec<(usize, usize)> {
        let (s, o) = (pos.stm, 1 - pos.stm);
        let mut out = Vec::new();
        for pod in 0..fp.npods {
            if pos.hands[s] & 1 << pod == 0 || (pos.stm == 0 && pos.ply == 0 && fp.legs[pod].len() != 2) {
                continue;
            }
            for p in 0..36 {
                if pos.board[p].is_some() {
                    continue;
                }
                let liberty = fp.legs[pod].iter().any(|&(d, _)| {
                    let d = if s == 1 { (d + 4) % 8 } else { d };
                    fp.conn[pos.rot][p][d] && pos.board[step(p, d).unwrap()].is_none()
                });
                let attacked = (0..36).any(|q| match pos.board[q] {
                    Some((side, other)) if side == o => naive_attacks(fp, pos.rot, o, other, q).contains(&p),
                    _ => false,
                });
                let attacks = naive_attacks(fp, pos.rot, s, pod, p)
                    .iter()
                    .any(|&q| matches!(pos.board[q], Some((side, _)) if side == o));
                if liberty && !attacked && !attacks {
                    out.push((pod, p));
                }
            }
        }
        out
    }

    fn naive_play(pos: &Parsed, (pod, p): (usize, usize)) -> Parsed {
        let mut c = pos.clone();
        c.board[p] = Some((pos.stm, pod));
        c.hands[pos.stm] &= !(1 << pod);
        c.stm = 1 - pos.stm;
        c.ply += 1;
        c
    }

    fn naive_perft(fp: &FastPods, pos: &Parsed, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        naive_moves(fp, pos).into_iter().map(|m| naive_perft(fp, &naive_play(pos, m), depth - 1)).sum()
    }

    fn naive_wins(fp: &FastPods, pos: &Parsed, winner: usize, n: u32) -> bool {
        let moves = naive_moves(fp, pos);
        if pos.stm == winner {
            n > 0 && moves.into_iter().any(|m| naive_wins(fp, &naive_play(pos, m), winner, n - 1))
        } else {
            moves.is_empty() || (n > 0 && moves.into_iter().all(|m| naive_wins(fp, &naive_play(pos, m), winner, n - 1)))
        }
    }

    fn fen(pos: &Parsed) -> String {
        let mut s = String::new();
        for y in (0..6).rev() {
            let mut run = 0;
            for x in 0..6 {
                match pos.board[y * 6 + x] {
                    None => run += 1,
                    Some((side, pod)) => {
                        if run > 0 {
                            write!(s, "{run}").unwrap();
                            run = 0;
                        }
                        s.push((if side == 0 { b'A' } else { b'a' } + pod as u8) as char);
                    }
                }
            }
            if run > 0 {
                write!(s, "{run}").unwrap();
            }
            if y > 0 {
                s.push('/');
            }
        }
        let hands: String = (0..2)
            .flat_map(|side| {
                bits(pos.hands[side] as u64).map(move |pod| (if side == 0 { b'A' } else { b'a' } + pod as u8) as char)
            })
            .collect();
        let hands = if hands.is_empty() { "-".to_string() } else { hands };
        format!("{s} {} {hands} {} {}", ["w", "b"][pos.stm], pos.rot * 90, pos.ply)
    }

    /// A random board (each line kept with probability 3/4) and a random
    /// pod set of `n` pods, written in the contract's forms.
    fn random_rules(r: &mut Rand, n: usize) -> (String, String) {
        let mut rows = Vec::new();
        for row in 0..11 {
            let s: String = (0..11)
                .map(|col| {
                    let on = r.below(4) != 0;
                    match (row % 2, col % 2) {
                        (0, 0) => 'o',
                        (0, _) => ['.', '-'][on as usize],
                        (_, 0) => ['.', '|'][on as usize],
                        _ => ['.', '\\', '/', 'X'][r.below(4)],
                    }
                })
                .collect();
            rows.push(s);
        }
        let pods: Vec<String> = (0..n)
            .map(|i| {
                let mut legs = Vec::new();
                let count = 1 + r.below(5);
                while legs.len() < count {
                    let d = r.below(8);
                    if !legs.iter().any(|l: &String| l.split(':').next() == Some(DIR_NAMES[d])) {
                        legs.push(format!("{}:{}", DIR_NAMES[d], ["s", "l"][r.below(2)]));
                    }
                }
                // Make some bipods, for the first move.
                if i < 3 {
                    legs.truncate(2);
                    while legs.len() < 2 {
                        let d = r.below(8);
                        if !legs.iter().any(|l: &String| l.split(':').next() == Some(DIR_NAMES[d])) {
                            legs.push(format!("{}:s", DIR_NAMES[d]));
                        }
                    }
                }
                format!("{}={}", (b'A' + i as u8) as char, legs.join(","))
            })
            .collect();
        (rows.join(","), pods.join(";"))
    }

    /// A random game from the start of `fp`'s set at `rot`, as its positions.
    fn random_game(fp: &FastPods, r: &mut Rand, rot: usize) -> Vec<Parsed> {
        let all = ((1u32 << fp.npods) - 1) as u16;
        let mut pos = Parsed { board: [None; 36], stm: 0, hands: [all, all], rot, ply: 0 };
        let mut game = vec![pos.clone()];
        loop {
            let moves = naive_moves(fp, &pos);
            if moves.is_empty() {
                return game;
            }
            pos = naive_play(&pos, moves[r.below(moves.len())]);
            game.push(pos.clone());
        }
    }

    #[test]
    fn default_board_has_77_lines_and_rotates() {
        assert_eq!(parse_board(DEFAULT_BOARD).unwrap().len(), 77);
        // The picture drawn over several lines, the sixth row unpadded, reads the same.
        let picture = "o-o-o-o-o-o\n|X|\\|/|/|/|\no-o-o-o-o-o\n|\\|X|X|\\|/|\no-o-o-o o-o\n| |/|/|X|X\n\
                       o-o-o o-o-o\n| |\\ /| |\\|\no o-o o-o-o\n| | | |/| |\no-o-o-o-o-o\n";
        assert_eq!(parse_board(picture).unwrap(), parse_board(DEFAULT_BOARD).unwrap());
        let fp = FastPods::new(None, None).unwrap();
        let (a6, b6, f6, f5) = (30, 31, 35, 29);
        assert!(fp.conn[0][a6][2] && fp.conn[0][b6][6], "a6-b6 at rotation 0");
        // Contract: at rotation 90 the line drawn from a6 to b6 joins f6 and f5.
        assert!(fp.conn[1][f6][4] && fp.conn[1][f5][0], "f6-f5 at rotation 90");
        // f4 and f3 are not joined at rotation 0 (the sixth row's blank end).
        assert!(!fp.conn[0][23][4] && !fp.conn[0][17][0]);
        for rot in 0..4 {
            let count: usize = fp.conn[rot].iter().map(|p| p.iter().filter(|&&c| c).count()).sum();
            assert_eq!(count, 2 * 77, "rotation {rot} keeps every line");
        }
        // Rotation 90 four times is the identity, and 180 is 90 twice.
        for p in 0..36 {
            let (x, y) = (p % 6, p / 6);
            let r90 = |x: usize, y: usize| (y, 5 - x);
            let (x2, y2) = r90(r90(x, y).0, r90(x, y).1);
            for d in 0..8 {
                assert_eq!(fp.conn[2][y2 * 6 + x2][(d + 4) % 8], fp.conn[0][p][d], "rotation 180 at {p} dir {d}");
            }
        }
    }

    #[test]
    fn perft_of_the_default_start() {
        // Computed here, then found equal to the table of docs/correctness.md
        // (the engine and the reference rules), which this code never read.
        let expected = [
            (0, [1, 71, 27_610, 9_449_841]),
            (90, [1, 71, 27_905, 9_424_673]),
            (180, [1, 71, 28_130, 9_468_582]),
            (270, [1, 71, 27_818, 9_407_901]),
        ];
        let mut fp = FastPods::new(None, None).unwrap();
        for (rot, counts) in expected {
            let start = START.replace(" 0 0", &format!(" {rot} 0"));
            let pos = fp.parse_position(&start).unwrap();
            for (depth, &count) in counts.iter().enumerate() {
                let fast = fp.perft(&start, depth as u32).unwrap();
                assert_eq!(fast, count, "rotation {rot} depth {depth}");
                if depth <= 2 {
                    assert_eq!(naive_perft(&fp, &pos, depth as u32), count, "slow, rotation {rot} depth {depth}");
                }
            }
        }
        // Only bipods (A and B) at the first move: each on every point with a liberty.
        assert_eq!(fp.perft(START, 1).unwrap(), fp.legal_moves(START).unwrap().len() as u64);
        assert!(fp.legal_moves(START).unwrap().iter().all(|m| m.starts_with("A@") || m.starts_with("B@")));
        // The rule holds at ply 0 only, and for White only.
        let later = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 2";
        assert!(fp.legal_moves(later).unwrap().iter().any(|m| m.starts_with("N@")));
        let black = "6/6/6/6/6/6 b ABCDEFGHIJKLMNabcdefghijklmn 0 0";
        assert!(fp.legal_moves(black).unwrap().iter().any(|m| m.starts_with("N@")));
    }

    #[test]
    fn fast_and_slow_generators_agree_on_random_rules() {
        let mut r = Rand(0x9E37_79B9_7F4A_7C15);
        for case in 0..10 {
            let (board, pods) = if case == 0 {
                (DEFAULT_BOARD.to_string(), DEFAULT_PODS.to_string())
            } else {
                let n = 1 + r.below(MAX_PODS);
                random_rules(&mut r, n)
            };
            let mut fp = FastPods::new(Some(&board), Some(&pods)).unwrap();
            let rot = r.below(4);
            let game = random_game(&fp, &mut r, rot);
            for pos in game.iter().step_by(4) {
                let text = fen(pos);
                assert_eq!(fp.parse_position(&text).unwrap(), *pos, "{text}");
                let mut fast = fp.legal_moves(&text).unwrap();
                let mut slow: Vec<String> = naive_moves(&fp, pos)
                    .into_iter()
                    .map(|(pod, p)| format!("{}@{}", (b'A' + pod as u8) as char, point_name(p)))
                    .collect();
                fast.sort();
                slow.sort();
                assert_eq!(fast, slow, "{text} with {board} {pods}");
                let depth = if pos.ply < 12 { 2 } else { 3 };
                assert_eq!(fp.perft(&text, depth).unwrap(), naive_perft(&fp, pos, depth), "{text}");
            }
        }
    }

    #[test]
    fn wins_within_agrees_with_plain_minimax() {
        let mut r = Rand(0x1234_5678_9ABC_DEF1);
        let (mut checked, mut deep_wins) = (0, 0);
        for case in 0..8 {
            let (board, pods) = if case < 3 {
                (DEFAULT_BOARD.to_string(), DEFAULT_PODS.to_string())
            } else {
                let n = 4 + r.below(8);
                random_rules(&mut r, n)
            };
            // One solver for all: its table carries results from one question to the next.
            let mut fp = FastPods::new(Some(&board), Some(&pods)).unwrap();
            let rot = r.below(4);
            let game = random_game(&fp, &mut r, rot);
            for pos in game.iter().rev().take(7) {
                let text = fen(pos);
                for side in 0..2 {
                    // The slow answers (a win within n is one within n + 1).
                    let mut slow = [false; 7];
                    for n in 0..7 {
                        slow[n] = (n > 0 && slow[n - 1]) || naive_wins(&fp, pos, side, n as u32);
                    }
                    deep_wins += (slow[6] && !slow[2]) as u32;
                    // The fast ones in a random order.
                    let mut order: Vec<usize> = (0..7).collect();
                    for i in (1..7).rev() {
                        order.swap(i, r.below(i + 1));
                    }
                    for n in order {
                        let fast = fp.wins_within(&text, side, n as u32).unwrap();
                        assert_eq!(fast, slow[n], "{text} side {side} plies {n} with {board} {pods}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 0 && deep_wins > 0, "{checked} answers, {deep_wins} wins needing 3 plies or more");
    }

    #[test]
    fn empty_hand_to_move_loses() {
        let mut fp = FastPods::new(None, None).unwrap();
        // White to move with nothing in hand: lost at once, Black wins in 0 plies.
        let pos = "6/6/6/6/6/ABCDEF w abc 0 6";
        assert!(fp.legal_moves(pos).unwrap().is_empty());
        assert_eq!(fp.perft(pos, 1).unwrap(), 0);
        assert!(fp.wins_within(pos, 1, 0).unwrap());
        assert!(!fp.wins_within(pos, 0, 20).unwrap());
        // Both hands empty, Black to move: Black has lost.
        let pos = "6/6/6/6/6/6 b - 0 0";
        assert!(fp.wins_within(pos, 0, 0).unwrap());
        assert!(!fp.wins_within(pos, 1, 5).unwrap());
        // White places its last pod, then Black, with an empty hand, is stuck.
        let pos = "6/6/6/6/6/6 w A 0 1";
        assert!(fp.wins_within(pos, 0, 1).unwrap(), "A placed, Black with an empty hand is stuck");
        assert!(!fp.wins_within(pos, 0, 0).unwrap());
    }

    #[test]
    fn rotation_changes_the_moves() {
        let mut fp = FastPods::new(None, None).unwrap();
        // White's A (W:s E:s) on a1: at rotation 0 the line a1-b1 is there
        // (bottom row drawn whole), so A@a1 is legal, and a1 has no W neighbour.
        let at = |fp: &mut FastPods, rot: u32| fp.legal_moves(&format!("6/6/6/6/6/6 w A {rot} 1")).unwrap();
        assert!(at(&mut fp, 0).contains(&"A@a1".to_string()));
        // At rotation 90 the bottom row of the board is the picture's left
        // column turned: a1-b1 comes from a6-a5 in the picture ('|' there).
        // Compute what the contract says for each rotation from the picture.
        let lines = parse_board(DEFAULT_BOARD).unwrap();
        for rot in 0..4u32 {
            let joined = |p: (i32, i32), q: (i32, i32)| {
                lines.iter().any(|&(a, b)| {
                    let (mut a, mut b) = (a, b);
                    for _ in 0..rot {
                        a = (a.1, 5 - a.0);
                        b = (b.1, 5 - b.0);
                    }
                    (a == p && b == q) || (a == q && b == p)
                })
            };
            let moves = at(&mut fp, rot * 90);
            for p in 0..36i32 {
                let (x, y) = (p % 6, p / 6);
                let legal = (x > 0 && joined((x, y), (x - 1, y))) || (x < 5 && joined((x, y), (x + 1, y)));
                assert_eq!(moves.contains(&format!("A@{}", point_name(p as usize))), legal, "rotation {rot} point {p}");
            }
        }
        // A long attack at rotation 0 versus 180: Black's n on d6 attacks
        // down the d file as far as lines go.
        let pos0 = "3n2/6/6/6/6/6 w ABCDEFGHIJKLMabcdefghijklm 0 3";
        let pos180 = "3n2/6/6/6/6/6 w ABCDEFGHIJKLMabcdefghijklm 180 3";
        assert_ne!(fp.legal_moves(pos0).unwrap(), fp.legal_moves(pos180).unwrap());
    }

    #[test]
    fn parse_errors_are_reported() {
        let bad_boards = [
            "o-o-o",                                                   // too few rows
            &DEFAULT_BOARD.replacen("o-o", "o+o", 1),                  // wrong character
            &DEFAULT_BOARD.replacen("|X|", "|o|", 1),                  // 'o' off a point
            &DEFAULT_BOARD.replacen("o-o-o-o-o-o", "o-o-o-o-o-o-", 1), // row too long
            &DEFAULT_BOARD.replacen("o-o-o-o-o-o", "-o-o-o-o-o", 1),   // no point
            &format!("{DEFAULT_BOARD},o-o-o-o-o-o"),                   // 12 rows
        ];
        for board in bad_boards {
            let e = FastPods::new(Some(board), None).err().unwrap_or_else(|| panic!("{board:?} accepted"));
            assert!(!e.is_empty());
        }
        for pods in ["", "A=", "B=N:s", "A=N:s;C=S:s", "A=N:x", "A=Q:s", "A=N:s,N:l", "A=N:s;", "a=N:s"] {
            assert!(FastPods::new(None, Some(pods)).is_err(), "pods {pods:?} accepted");
        }
        let seventeen: Vec<String> = (0..17).map(|i| format!("{}=N:s", (b'A' + i) as char)).collect();
        assert!(FastPods::new(None, Some(&seventeen.join(";"))).is_err());
        assert!(FastPods::new(None, Some("A=N:s")).is_ok());
        let mut fp = FastPods::new(None, None).unwrap();
        for pos in [
            "",
            "6/6/6/6/6/6 w ABC 0",
            "6/6/6/6/6/6  w ABC 0 0",
            "6/6/6/6/6/6 w ABC 0 0 ",
            "6/6/6/6/6 w ABC 0 0",
            "7/6/6/6/6/6 w ABC 0 0",
            "5/6/6/6/6/6 w ABC 0 0",
            "6/6/6/6/6/33A w ABC 0 0",
            "6/6/6/6/6/6 x ABC 0 0",
            "6/6/6/6/6/6 w CBA 0 0",
            "6/6/6/6/6/6 w abcA 0 0",
            "6/6/6/6/6/6 w AAB 0 0",
            "A5/6/6/6/6/6 w ABC 0 0",
            "6/6/6/6/6/6 w ABCO 0 0",
            "6/6/6/6/6/6 w AB1 0 0",
            "6/6/6/6/6/6 w ABC 45 0",
            "6/6/6/6/6/6 w ABC 0 -1",
            "6/6/6/6/6/6 w ABC 0 x",
            "6/6/6/6/6/6 w  0 0",
        ] {
            assert!(fp.legal_moves(pos).is_err(), "{pos:?} accepted");
            assert!(fp.perft(pos, 1).is_err());
            assert!(fp.wins_within(pos, 0, 3).is_err());
        }
        assert!(fp.wins_within(START, 2, 3).is_err());
        // Valid extremes.
        assert!(fp.legal_moves("6/6/6/6/6/6 w - 270 7").is_ok());
        assert!(fp.legal_moves("N5/6/6/6/6/5n w a 0 2").is_ok());
    }

    #[test]
    fn duplicate_pods_are_different_letters() {
        let mut fp = FastPods::new(None, Some("A=N:s,S:s;B=N:s,S:s")).unwrap();
        let moves = fp.legal_moves("6/6/6/6/6/6 w ABab 0 0").unwrap();
        assert!(moves.contains(&"A@c3".to_string()) && moves.contains(&"B@c3".to_string()));
        assert_eq!(moves.len() % 2, 0);
    }
}
