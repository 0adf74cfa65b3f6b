// Independent, deliberately simple and slow reference implementation of POLD.R,
// written from the POLD.R rules contract only, by a developer who had not seen src/. Meant for cross-checking a fast
// engine in tests. Clarity over speed: a Vec of cells, plain loops over cells and
// the eight directions, a full clone of the position for every move.
//
// This file is self-contained (std only, no `crate::` paths, no inner attributes)
// so that it can be copied into another crate as `mod poldr_reference;`.

use std::collections::HashMap;

/// Content of one cell of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Square {
    Empty,
    Pawn,
    /// The marker of a seat (0 = Blue, 1 = Yellow, 2 = Red).
    Marker(usize),
    /// A brick of a seat.
    Brick(usize),
}

/// The eight directions (file step, rank step).
const DIRECTIONS: [(i64, i64); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

const SIDE_LETTERS: [char; 3] = ['b', 'y', 'r'];
const MARKER_LETTERS: [char; 3] = ['B', 'Y', 'R'];

/// A POLD.R position.
///
/// Cells are stored rank by rank from rank 1 (the bottom), files from `a`:
/// cell index = (rank - 1) * size + file_index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    size: usize,
    players: usize,
    cells: Vec<Square>,
    reserves: Vec<u32>,
    /// 1 or 2, as written in the position line.
    phase: u8,
    ply: u64,
    /// Ply of the position right after the seat's last reserve-changing turn.
    changed: Vec<Option<u64>>,
}

/// One way of setting pieces down, before the interval is looked at.
struct Placement {
    notation: String,
    cells: Vec<Square>,
    pawn: usize,
    marker: usize,
}

/// Name of a cell, like `c3`.
#[allow(dead_code)]
fn cell_name(size: usize, index: usize) -> String {
    let file = index % size;
    let rank = index / size;
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The interval between p and q: Some(cells strictly between) when p and q are
/// aligned (same rank, file or diagonal, at least one cell strictly between),
/// None otherwise. Found by walking from p in each of the eight directions.
#[allow(dead_code)]
fn interval(size: usize, p: usize, q: usize) -> Option<Vec<usize>> {
    if p == q {
        return None;
    }
    let pf = (p % size) as i64;
    let pr = (p / size) as i64;
    for &(df, dr) in DIRECTIONS.iter() {
        let mut between: Vec<usize> = Vec::new();
        let mut f = pf + df;
        let mut r = pr + dr;
        while f >= 0 && r >= 0 && f < size as i64 && r < size as i64 {
            let here = (r as usize) * size + (f as usize);
            if here == q {
                if between.is_empty() {
                    // Next to each other: not aligned.
                    return None;
                }
                return Some(between);
            }
            between.push(here);
            f += df;
            r += dr;
        }
    }
    None
}

/// Reads a non-empty string of ASCII digits as a number (leading zeros allowed).
#[allow(dead_code)]
fn parse_number(text: &str, what: &str) -> Result<u64, String> {
    if text.is_empty() {
        return Err(format!("{} is empty", what));
    }
    if !text.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("{} '{}' is not a number", what, text));
    }
    text.parse::<u64>().map_err(|_| format!("{} '{}' is too large", what, text))
}

/// Reads a cell name like `c3` on a board of the given size.
#[allow(dead_code)]
fn parse_cell(size: usize, text: &str) -> Result<usize, String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 2 {
        return Err(format!("bad cell '{}'", text));
    }
    let file_char = chars[0];
    let rank_char = chars[1];
    if !file_char.is_ascii_lowercase() {
        return Err(format!("bad file in cell '{}'", text));
    }
    let file = (file_char as u8 - b'a') as usize;
    if file >= size {
        return Err(format!("file of cell '{}' is off the board", text));
    }
    if !('1'..='9').contains(&rank_char) {
        return Err(format!("bad rank in cell '{}'", text));
    }
    let rank = (rank_char as u8 - b'1') as usize;
    if rank >= size {
        return Err(format!("rank of cell '{}' is off the board", text));
    }
    Ok(rank * size + file)
}

/// Turns a move as written by a user into canonical notation
/// (`Pc3`, `Mc5`, `Pc3Mc5`, `pass`), checking only its form.
#[allow(dead_code)]
fn canonical_move(size: usize, text: &str) -> Result<String, String> {
    if text == "pass" {
        return Ok("pass".to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    let piece_of = |c: char| -> Option<char> {
        match c {
            'P' | 'p' => Some('P'),
            'M' | 'm' => Some('M'),
            _ => None,
        }
    };
    if chars.len() == 3 {
        let piece = piece_of(chars[0]).ok_or_else(|| format!("malformed move '{}'", text))?;
        let cell: String = chars[1..3].iter().collect();
        let index = parse_cell(size, &cell)?;
        return Ok(format!("{}{}", piece, cell_name(size, index)));
    }
    if chars.len() == 6 {
        let first = piece_of(chars[0]).ok_or_else(|| format!("malformed move '{}'", text))?;
        let second = piece_of(chars[3]).ok_or_else(|| format!("malformed move '{}'", text))?;
        if first != 'P' || second != 'M' {
            return Err(format!("malformed move '{}': a double move is pawn then marker", text));
        }
        let cell1: String = chars[1..3].iter().collect();
        let cell2: String = chars[4..6].iter().collect();
        let i1 = parse_cell(size, &cell1)?;
        let i2 = parse_cell(size, &cell2)?;
        return Ok(format!("P{}M{}", cell_name(size, i1), cell_name(size, i2)));
    }
    Err(format!("malformed move '{}'", text))
}

#[allow(dead_code)]
impl RefPos {
    /// Start of a game: empty board, phase 1, ply 0, every reserve = bricks.
    pub fn start(size: usize, players: usize, bricks: u32) -> RefPos {
        assert!((4..=9).contains(&size), "size must be 4..9");
        assert!(players == 2 || players == 3, "players must be 2 or 3");
        assert!((1..=40).contains(&bricks), "bricks must be 1..40");
        RefPos {
            size,
            players,
            cells: vec![Square::Empty; size * size],
            reserves: vec![bricks; players],
            phase: 1,
            ply: 0,
            changed: vec![None; players],
        }
    }

    /// Reads a position line (section 5).
    pub fn parse(line: &str) -> Result<RefPos, String> {
        let fields: Vec<&str> = line.split(' ').collect();
        if fields.len() != 6 {
            return Err(format!("expected 6 fields separated by single spaces, got {}", fields.len()));
        }

        // --- reserves: sets the number of players ---
        let reserve_texts: Vec<&str> = fields[2].split(',').collect();
        if reserve_texts.len() != 2 && reserve_texts.len() != 3 {
            return Err(format!("reserves must list 2 or 3 numbers, got {}", reserve_texts.len()));
        }
        let players = reserve_texts.len();
        let mut reserves: Vec<u32> = Vec::new();
        for text in reserve_texts.iter() {
            let n = parse_number(text, "reserve")?;
            if n > 40 {
                return Err(format!("reserve {} is above 40", n));
            }
            reserves.push(n as u32);
        }

        // --- board ---
        let rank_texts: Vec<&str> = fields[0].split('/').collect();
        let size = rank_texts.len();
        if !(4..=9).contains(&size) {
            return Err(format!("board has {} ranks, must be 4 to 9", size));
        }
        let mut cells = vec![Square::Empty; size * size];
        for (row, text) in rank_texts.iter().enumerate() {
            let rank = size - 1 - row; // first written rank is the top one
            let mut file = 0usize;
            for c in text.chars() {
                let (count, square) = match c {
                    '1'..='9' => ((c as u8 - b'0') as usize, Square::Empty),
                    'P' => (1, Square::Pawn),
                    'B' => (1, Square::Marker(0)),
                    'Y' => (1, Square::Marker(1)),
                    'R' => (1, Square::Marker(2)),
                    'b' => (1, Square::Brick(0)),
                    'y' => (1, Square::Brick(1)),
                    'r' => (1, Square::Brick(2)),
                    _ => return Err(format!("bad character '{}' in board", c)),
                };
                if file + count > size {
                    return Err(format!("rank {} describes more than {} cells", rank + 1, size));
                }
                for k in 0..count {
                    cells[rank * size + file + k] = square;
                }
                file += count;
            }
            if file != size {
                return Err(format!("rank {} describes {} cells, expected {}", rank + 1, file, size));
            }
        }

        // --- side ---
        let side = match fields[1] {
            "b" => 0usize,
            "y" => 1,
            "r" => 2,
            other => return Err(format!("bad side '{}'", other)),
        };

        // --- phase ---
        let phase: u8 = match fields[3] {
            "1" => 1,
            "2" => 2,
            other => return Err(format!("bad phase '{}'", other)),
        };

        // --- ply ---
        let ply = parse_number(fields[4], "ply")?;

        // --- changed ---
        let changed_texts: Vec<&str> = fields[5].split(',').collect();
        if changed_texts.len() != players {
            return Err(format!("changed lists {} entries, expected {}", changed_texts.len(), players));
        }
        let mut changed: Vec<Option<u64>> = Vec::new();
        for text in changed_texts.iter() {
            if *text == "-" {
                changed.push(None);
            } else {
                changed.push(Some(parse_number(text, "changed entry")?));
            }
        }

        let pos = RefPos { size, players, cells, reserves, phase, ply, changed };

        // --- validity clauses ---

        // At most one pawn, at most one marker per player, no piece of a seat
        // beyond the number of players.
        let mut pawns = 0;
        let mut markers = vec![0usize; 3];
        let mut bricks = vec![0usize; 3];
        for square in pos.cells.iter() {
            match *square {
                Square::Empty => {}
                Square::Pawn => pawns += 1,
                Square::Marker(s) => markers[s] += 1,
                Square::Brick(s) => bricks[s] += 1,
            }
        }
        if pawns > 1 {
            return Err("more than one pawn".to_string());
        }
        for s in 0..3 {
            if markers[s] > 1 {
                return Err(format!("more than one {} marker", MARKER_LETTERS[s]));
            }
            if s >= players && (markers[s] > 0 || bricks[s] > 0) {
                return Err(format!("piece of seat {} in a {}-player game", s + 1, players));
            }
        }

        // Marker on the board exactly when changed is a number; bricks imply marker.
        for s in 0..players {
            let has_marker = markers[s] == 1;
            if has_marker != pos.changed[s].is_some() {
                return Err(format!("seat {}: marker on board must match a numeric changed entry", s + 1));
            }
            if bricks[s] > 0 && !has_marker {
                return Err(format!("seat {} has bricks on the board but no marker", s + 1));
            }
        }

        // changed numbers: 1..=ply, pairwise different, n mod N = (s+1) mod N.
        for s in 0..players {
            if let Some(n) = pos.changed[s] {
                if n < 1 || n > ply {
                    return Err(format!("changed entry {} of seat {} not in 1..ply", n, s + 1));
                }
                if n % players as u64 != ((s + 1) % players) as u64 {
                    return Err(format!("changed entry {} of seat {} does not fall after that seat's turn", n, s + 1));
                }
                for t in 0..s {
                    if pos.changed[t] == Some(n) {
                        return Err(format!("two changed entries equal {}", n));
                    }
                }
            }
        }

        // In phase 1, every seat that has had a turn has its marker.
        if phase == 1 {
            for s in 0..players {
                if (s as u64) < ply && markers[s] == 0 {
                    return Err(format!("phase 1: seat {} has had a turn but has no marker", s + 1));
                }
            }
        }

        // Side to move is seat ply mod players.
        if side != (ply % players as u64) as usize {
            return Err(format!(
                "side to move must be seat ply mod players ({})",
                SIDE_LETTERS[(ply % players as u64) as usize]
            ));
        }

        // Ply 0: empty board, phase 1, no changed. After: pawn on board.
        if ply == 0 {
            if pos.cells.iter().any(|c| *c != Square::Empty) {
                return Err("ply 0 but the board is not empty".to_string());
            }
            if phase != 1 {
                return Err("ply 0 but phase is not 1".to_string());
            }
            if pos.changed.iter().any(|c| c.is_some()) {
                return Err("ply 0 but a changed entry is a number".to_string());
            }
        } else if pawns == 0 {
            return Err("ply above 0 but no pawn on the board".to_string());
        }

        // Reserve 0: only in phase 1, only for the player who moved last.
        for s in 0..players {
            if pos.reserves[s] == 0 {
                if phase != 1 {
                    return Err("a reserve of 0 in phase 2".to_string());
                }
                if ply == 0 {
                    return Err("a reserve of 0 at ply 0".to_string());
                }
                let last_mover = ((ply - 1) % players as u64) as usize;
                if s != last_mover {
                    return Err(format!("seat {} has reserve 0 but did not move last", s + 1));
                }
            }
        }

        Ok(pos)
    }

    /// Canonical position line (merged empty runs).
    pub fn to_line(&self) -> String {
        let mut ranks: Vec<String> = Vec::new();
        for rank in (0..self.size).rev() {
            let mut text = String::new();
            let mut empties = 0;
            for file in 0..self.size {
                let square = self.cells[rank * self.size + file];
                if square == Square::Empty {
                    empties += 1;
                    continue;
                }
                if empties > 0 {
                    text.push_str(&empties.to_string());
                    empties = 0;
                }
                let c = match square {
                    Square::Empty => unreachable!(),
                    Square::Pawn => 'P',
                    Square::Marker(s) => MARKER_LETTERS[s],
                    Square::Brick(s) => SIDE_LETTERS[s],
                };
                text.push(c);
            }
            if empties > 0 {
                text.push_str(&empties.to_string());
            }
            ranks.push(text);
        }
        let reserves: Vec<String> = self.reserves.iter().map(|r| r.to_string()).collect();
        let changed: Vec<String> = self
            .changed
            .iter()
            .map(|c| match c {
                Some(n) => n.to_string(),
                None => "-".to_string(),
            })
            .collect();
        format!(
            "{} {} {} {} {} {}",
            ranks.join("/"),
            SIDE_LETTERS[self.side_to_move()],
            reserves.join(","),
            self.phase,
            self.ply,
            changed.join(",")
        )
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// Seat 0 = Blue, 1 = Yellow, 2 = Red.
    pub fn side_to_move(&self) -> usize {
        (self.ply % self.players as u64) as usize
    }

    pub fn reserve(&self, seat: usize) -> u32 {
        self.reserves[seat]
    }

    fn find(&self, wanted: Square) -> Option<usize> {
        (0..self.cells.len()).find(|&i| self.cells[i] == wanted)
    }

    /// Every way for `seat` to set a piece (or, on the first turn of the game,
    /// the pawn and its marker) down, with the resulting board, before any
    /// brick is placed or cleared. Alignment is not checked here.
    fn placements(&self, seat: usize) -> Vec<Placement> {
        let mut out = Vec::new();
        let pawn = self.find(Square::Pawn);
        let marker = self.find(Square::Marker(seat));
        let n = self.cells.len();
        match (pawn, marker) {
            (None, _) => {
                // First turn of the game: pawn on any empty cell, then the marker.
                for p in 0..n {
                    if self.cells[p] != Square::Empty {
                        continue;
                    }
                    for m in 0..n {
                        if m == p || self.cells[m] != Square::Empty {
                            continue;
                        }
                        let mut cells = self.cells.clone();
                        cells[p] = Square::Pawn;
                        cells[m] = Square::Marker(seat);
                        out.push(Placement {
                            notation: format!("P{}M{}", cell_name(self.size, p), cell_name(self.size, m)),
                            cells,
                            pawn: p,
                            marker: m,
                        });
                    }
                }
            }
            (Some(pw), None) => {
                // The player's first turn: put the marker down, the pawn stays.
                for m in 0..n {
                    if self.cells[m] != Square::Empty {
                        continue;
                    }
                    let mut cells = self.cells.clone();
                    cells[m] = Square::Marker(seat);
                    out.push(Placement {
                        notation: format!("M{}", cell_name(self.size, m)),
                        cells,
                        pawn: pw,
                        marker: m,
                    });
                }
            }
            (Some(pw), Some(mk)) => {
                // Lift the pawn or the own marker and set it on another empty
                // cell; the cell it left is empty from then on.
                for c in 0..n {
                    if self.cells[c] != Square::Empty {
                        continue;
                    }
                    let mut cells = self.cells.clone();
                    cells[pw] = Square::Empty;
                    cells[c] = Square::Pawn;
                    out.push(Placement {
                        notation: format!("P{}", cell_name(self.size, c)),
                        cells,
                        pawn: c,
                        marker: mk,
                    });
                    let mut cells = self.cells.clone();
                    cells[mk] = Square::Empty;
                    cells[c] = Square::Marker(seat);
                    out.push(Placement {
                        notation: format!("M{}", cell_name(self.size, c)),
                        cells,
                        pawn: pw,
                        marker: c,
                    });
                }
            }
        }
        out
    }

    /// Legal phase-1 turns of the side to move, with the positions after them.
    fn building_turns(&self) -> Vec<(String, RefPos)> {
        let seat = self.side_to_move();
        let mut out = Vec::new();
        for pl in self.placements(seat) {
            let between = match interval(self.size, pl.pawn, pl.marker) {
                Some(b) => b,
                None => continue,
            };
            let empties: Vec<usize> = between.iter().copied().filter(|&i| pl.cells[i] == Square::Empty).collect();
            if empties.is_empty() || empties.len() as u32 > self.reserves[seat] {
                continue;
            }
            let mut next = self.clone();
            next.cells = pl.cells;
            for &i in empties.iter() {
                next.cells[i] = Square::Brick(seat);
            }
            next.reserves[seat] -= empties.len() as u32;
            next.ply = self.ply + 1;
            next.changed[seat] = Some(next.ply);
            next.phase = 1;
            out.push((pl.notation, next));
        }
        out
    }

    /// Legal clearing turns (phase 2) of `seat`, as if `seat` were to move,
    /// with the positions after them.
    fn clearing_turns(&self, seat: usize) -> Vec<(String, RefPos)> {
        let mut out = Vec::new();
        // Clearing moves the own marker or the pawn: both must be on the board.
        if self.find(Square::Pawn).is_none() || self.find(Square::Marker(seat)).is_none() {
            return out;
        }
        for pl in self.placements(seat) {
            let between = match interval(self.size, pl.pawn, pl.marker) {
                Some(b) => b,
                None => continue,
            };
            let own: Vec<usize> = between.iter().copied().filter(|&i| pl.cells[i] == Square::Brick(seat)).collect();
            if own.is_empty() {
                continue;
            }
            let mut next = self.clone();
            next.cells = pl.cells;
            for &i in own.iter() {
                next.cells[i] = Square::Empty;
            }
            next.reserves[seat] += own.len() as u32;
            next.ply = self.ply + 1;
            next.changed[seat] = Some(next.ply);
            next.phase = 2;
            out.push((pl.notation, next));
        }
        out
    }

    /// All legal moves with the positions after them, sorted by notation.
    fn successors(&self) -> Vec<(String, RefPos)> {
        // A reserve of 0: that player has won, the game is over.
        if self.reserves.iter().any(|&r| r == 0) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        if self.phase == 1 {
            moves = self.building_turns();
        }
        if moves.is_empty() {
            // Phase 2, or phase 1 with the side to move blocked.
            let seat = self.side_to_move();
            moves = self.clearing_turns(seat);
            if moves.is_empty() {
                let someone_else_can_clear =
                    (0..self.players).filter(|&s| s != seat).any(|s| !self.clearing_turns(s).is_empty());
                if someone_else_can_clear {
                    let mut next = self.clone();
                    next.ply = self.ply + 1;
                    next.phase = 2;
                    moves.push(("pass".to_string(), next));
                }
            }
        }
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        moves.dedup_by(|a, b| a.0 == b.0);
        moves
    }

    /// All legal moves in canonical notation, sorted as strings, deduplicated;
    /// empty when the game is over.
    pub fn legal_moves(&self) -> Vec<String> {
        self.successors().into_iter().map(|(m, _)| m).collect()
    }

    /// Plays a move given in notation (lowercase p/m accepted).
    pub fn play(&self, mv: &str) -> Result<RefPos, String> {
        let canonical = canonical_move(self.size, mv)?;
        for (m, next) in self.successors() {
            if m == canonical {
                return Ok(next);
            }
        }
        Err(format!("illegal move '{}' in {}", mv, self.to_line()))
    }

    pub fn is_over(&self) -> bool {
        self.successors().is_empty()
    }

    /// Winning seat once the game is over; None while it goes on.
    pub fn winner(&self) -> Option<usize> {
        if !self.is_over() {
            return None;
        }
        for s in 0..self.players {
            if self.reserves[s] == 0 {
                return Some(s);
            }
        }
        // Most bricks in reserve; ties: earlier last change (`-` = 0); then earlier seat.
        let mut best = 0usize;
        for s in 1..self.players {
            let better = if self.reserves[s] != self.reserves[best] {
                self.reserves[s] > self.reserves[best]
            } else {
                self.changed[s].unwrap_or(0) < self.changed[best].unwrap_or(0)
            };
            if better {
                best = s;
            }
        }
        Some(best)
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for (_, next) in self.successors() {
            total += next.perft(depth - 1);
        }
        total
    }

    /// depth >= 1: one entry per legal move, sorted by move string.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        assert!(depth >= 1, "divide needs depth >= 1");
        self.successors().into_iter().map(|(m, next)| (m, next.perft(depth - 1))).collect()
    }

    /// Two-player games only: the seat that wins with perfect play from here.
    pub fn solve_winner(&self) -> usize {
        assert!(self.players == 2, "solve_winner is for two-player games");
        let mut memo: HashMap<String, usize> = HashMap::new();
        self.solve_with(&mut memo)
    }

    fn solve_with(&self, memo: &mut HashMap<String, usize>) -> usize {
        let key = self.to_line();
        if let Some(&w) = memo.get(&key) {
            return w;
        }
        let successors = self.successors();
        let result = if successors.is_empty() {
            self.winner().expect("a game with no legal move is over")
        } else {
            let me = self.side_to_move();
            let mut result = 1 - me;
            for (_, next) in successors.iter() {
                if next.solve_with(memo) == me {
                    result = me;
                    break;
                }
            }
            result
        };
        memo.insert(key, result);
        result
    }
}
