//! A POLD.R position: pawn, markers, bricks, reserves, phase, ply and the
//! plies of the last reserve changes. The only type that changes a position;
//! it keeps its Zobrist key in step.

use std::fmt;

use super::geometry::{Geometry, SYMMETRIES};
use super::moves::{Illegal, Move};
use super::types::{Cell, Cells, MAX_BRICKS, MAX_PLAYERS, MAX_SIZE, MIN_SIZE, Phase, Seat};
use super::zobrist::{Piece, ZobristKeys};

/// How a finished game was won. There is no draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The seat that won.
    pub winner: Seat,
    /// How it won.
    pub reason: WinReason,
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// The winner placed their last brick.
    LastBrick,
    /// Nobody can clear: the winner has the most bricks in reserve.
    MostBricks,
    /// Nobody can clear and the best reserves are tied: the winner's last
    /// reserve change came first.
    TieBreak,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            WinReason::LastBrick => "placed the last brick",
            WinReason::MostBricks => "most bricks in reserve",
            WinReason::TieBreak => "tied reserve, reached first",
        };
        write!(f, "{} wins ({why})", self.winner.name())
    }
}

/// A position: the board of its size with the pawn, the markers and the
/// bricks, each seat's reserve, the phase, the ply and the plies of the
/// last reserve changes, with its hash kept in step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    size: u8,
    players: u8,
    pawn: Option<Cell>,
    markers: [Option<Cell>; MAX_PLAYERS],
    bricks: [Cells; MAX_PLAYERS],
    reserves: [u8; MAX_PLAYERS],
    phase: Phase,
    ply: u64,
    /// Per seat, the ply right after its last turn that changed its reserve.
    changed: [Option<u64>; MAX_PLAYERS],
    hash: u64,
}

/// What is wrong with the settings of a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A board size out of range.
    #[error("board size {0} is not from {MIN_SIZE} to {MAX_SIZE}")]
    Size(u8),
    /// A number of players other than 2 or 3.
    #[error("{0} players: POLD.R is for 2 or 3")]
    Players(u8),
    /// A reserve of no bricks, or of more than `MAX_BRICKS`.
    #[error("{0} bricks: each player has 1 to {MAX_BRICKS}")]
    Bricks(u8),
}

impl Position {
    /// The empty board with every reserve full, Blue to move.
    pub fn start(size: u8, players: u8, bricks: u8) -> Result<Position, SetupError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SetupError::Size(size));
        }
        if !(2..=MAX_PLAYERS as u8).contains(&players) {
            return Err(SetupError::Players(players));
        }
        if !(1..=MAX_BRICKS).contains(&bricks) {
            return Err(SetupError::Bricks(bricks));
        }
        let mut reserves = [0; MAX_PLAYERS];
        reserves[..players as usize].fill(bricks);
        let mut position = Position::empty_board(size, players, reserves);
        position.hash = position.compute_hash();
        Ok(position)
    }

    /// No piece on the board, phase 1, ply 0, nothing changed yet; the key
    /// is left for the caller to compute once the position is complete.
    fn empty_board(size: u8, players: u8, reserves: [u8; MAX_PLAYERS]) -> Position {
        Position {
            size,
            players,
            pawn: None,
            markers: [None; MAX_PLAYERS],
            bricks: [Cells::EMPTY; MAX_PLAYERS],
            reserves,
            phase: Phase::Building,
            ply: 0,
            changed: [None; MAX_PLAYERS],
            hash: 0,
        }
    }

    pub(crate) fn size(&self) -> u8 {
        self.size
    }

    /// How many players the game has: 2 or 3.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The seats of this game, in turn order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + use<> {
        Seat::ALL.into_iter().take(self.players as usize)
    }

    /// The seat whose turn it is: seats take turns in order, by ply.
    pub fn mover(&self) -> Seat {
        Seat::from_index((self.ply % self.players as u64) as usize).expect("a seat of the game")
    }

    pub(crate) fn pawn(&self) -> Option<Cell> {
        self.pawn
    }

    pub(crate) fn marker(&self, seat: Seat) -> Option<Cell> {
        self.markers[seat.index()]
    }

    pub(crate) fn bricks(&self, seat: Seat) -> Cells {
        self.bricks[seat.index()]
    }

    /// How many bricks `seat` has in reserve.
    pub fn reserve(&self, seat: Seat) -> u8 {
        self.reserves[seat.index()]
    }

    /// As written in the position line: clearing from the first clearing turn or pass on.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Turns played since the start.
    pub fn ply(&self) -> u64 {
        self.ply
    }

    /// The ply right after `seat`'s last turn that changed its reserve, if
    /// any: the tie-break when reserves are equal.
    pub fn last_change(&self, seat: Seat) -> Option<u64> {
        self.changed[seat.index()]
    }

    /// The Zobrist key of everything the position line holds.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub(crate) fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.size)
    }

    /// Every player's bricks (the seats a game has not stay empty).
    pub(crate) fn all_bricks(&self) -> Cells {
        self.bricks[0] | self.bricks[1] | self.bricks[2]
    }

    /// Every cell holding a piece.
    pub(crate) fn occupied(&self) -> Cells {
        let mut occupied = self.all_bricks();
        for cell in self.pawn.iter().chain(self.markers.iter().flatten()) {
            occupied |= cell.bit();
        }
        occupied
    }

    pub(crate) fn empty(&self) -> Cells {
        self.geometry().board & !self.occupied()
    }

    /// The piece standing on `cell`, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        if self.pawn == Some(cell) {
            return Some(Piece::Pawn);
        }
        (0..MAX_PLAYERS).find_map(|seat| {
            if self.markers[seat] == Some(cell) {
                Some(Piece::Marker(seat))
            } else {
                self.bricks[seat].contains(cell).then_some(Piece::Brick(seat))
            }
        })
    }

    /// The player who has just placed their last brick, if any.
    fn emptied_reserve(&self) -> Option<Seat> {
        self.seats().find(|&seat| self.reserves[seat.index()] == 0)
    }

    /// Calls `visit` with every building turn of the mover; returns whether there was any.
    fn for_each_building_move(&self, visit: &mut impl FnMut(Move)) -> bool {
        let geometry = self.geometry();
        let seat = self.mover().index();
        let reserve = self.reserves[seat] as u32;
        let empty = geometry.board & !self.occupied();
        let fits = |interval: Cells, free: Cells| (1..=reserve).contains(&(interval & free).count());
        let mut any = false;
        let mut found = |mv| {
            any = true;
            visit(mv);
        };
        match (self.pawn, self.markers[seat]) {
            (None, _) => {
                for pawn in empty {
                    for marker in geometry.aligned(pawn) & empty {
                        if fits(geometry.between(pawn, marker), empty) {
                            found(Move::Opening { pawn, marker });
                        }
                    }
                }
            }
            (Some(pawn), None) => {
                for marker in geometry.aligned(pawn) & empty {
                    if fits(geometry.between(pawn, marker), empty) {
                        found(Move::Marker(marker));
                    }
                }
            }
            (Some(pawn), Some(marker)) => {
                // A lifted piece leaves its cell empty, maybe inside the new interval.
                for to in geometry.aligned(pawn) & empty {
                    if fits(geometry.between(pawn, to), empty | marker.bit()) {
                        found(Move::Marker(to));
                    }
                }
                for to in geometry.aligned(marker) & empty {
                    if fits(geometry.between(to, marker), empty | pawn.bit()) {
                        found(Move::Pawn(to));
                    }
                }
            }
        }
        any
    }

    /// Calls `visit` with every clearing turn of `seat`; stops early and
    /// returns true as soon as `visit` does.
    fn for_each_clearing_move(&self, seat: Seat, mut visit: impl FnMut(Move) -> bool) -> bool {
        let (Some(pawn), Some(marker)) = (self.pawn, self.markers[seat.index()]) else {
            return false;
        };
        let own = self.bricks[seat.index()];
        if own.is_empty() {
            return false;
        }
        let geometry = self.geometry();
        let empty = geometry.board & !self.occupied();
        for to in geometry.aligned(pawn) & empty {
            if !(geometry.between(pawn, to) & own).is_empty() && visit(Move::Marker(to)) {
                return true;
            }
        }
        for to in geometry.aligned(marker) & empty {
            if !(geometry.between(to, marker) & own).is_empty() && visit(Move::Pawn(to)) {
                return true;
            }
        }
        false
    }

    /// Whether `seat` has a clearing turn here.
    pub fn can_clear(&self, seat: Seat) -> bool {
        self.for_each_clearing_move(seat, |_| true)
    }

    /// Whether the mover, in the building phase, has no building turn left.
    pub fn is_blocked(&self) -> bool {
        self.phase == Phase::Building && !self.for_each_building_move(&mut |_| {})
    }

    /// Calls `visit` with every legal move; none once the game is over.
    pub(crate) fn for_each_move(&self, mut visit: impl FnMut(Move)) {
        if self.emptied_reserve().is_some() {
            return;
        }
        if self.phase == Phase::Building && self.for_each_building_move(&mut visit) {
            return;
        }
        let mover = self.mover();
        let mut can_clear = false;
        self.for_each_clearing_move(mover, |mv| {
            can_clear = true;
            visit(mv);
            false
        });
        if !can_clear && self.seats().any(|seat| seat != mover && self.can_clear(seat)) {
            visit(Move::Pass);
        }
    }

    /// Appends every legal move to `moves`.
    pub fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.for_each_move(|mv| moves.push(mv));
    }

    /// Every legal move; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// How many legal moves there are, without keeping them.
    pub fn count_moves(&self) -> u64 {
        let mut count = 0;
        self.for_each_move(|_| count += 1);
        count
    }

    /// Whether the game is over: a reserve emptied, or nobody can move (cheaper than generating).
    pub fn is_over(&self) -> bool {
        if self.emptied_reserve().is_some() {
            return true;
        }
        if self.phase == Phase::Building && self.for_each_building_move(&mut |_| {}) {
            return false;
        }
        !self.seats().any(|seat| self.can_clear(seat))
    }

    pub(crate) fn has_moves(&self) -> bool {
        !self.is_over()
    }

    /// The result once the game is over, `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.emptied_reserve() {
            return Some(Outcome { winner, reason: WinReason::LastBrick });
        }
        if self.has_moves() {
            return None;
        }
        Some(self.scored_outcome())
    }

    /// Who wins if the game ends here with nobody able to clear: the most
    /// bricks in reserve, then the earliest last change (none counts as ply
    /// 0), then the earlier seat.
    pub fn scored_outcome(&self) -> Outcome {
        if let Some(winner) = self.emptied_reserve() {
            return Outcome { winner, reason: WinReason::LastBrick };
        }
        let winner = self.best_standing(self.seats()).expect("players");
        let best = self.reserves[winner.index()];
        let tied = self.seats().filter(|&seat| self.reserves[seat.index()] == best).count();
        let reason = if tied == 1 { WinReason::MostBricks } else { WinReason::TieBreak };
        Outcome { winner, reason }
    }

    /// Of `seats`, the one the scoring puts first: the most bricks in
    /// reserve, then the earliest last change (none counts as ply 0), then
    /// the earlier seat.
    pub(crate) fn best_standing(&self, seats: impl Iterator<Item = Seat>) -> Option<Seat> {
        seats.min_by_key(|&seat| {
            (std::cmp::Reverse(self.reserves[seat.index()]), self.changed[seat.index()].unwrap_or(0), seat)
        })
    }

    /// In the clearing phase, the seat that wins however the rest is
    /// played, where reserves and bricks already decide it: from here a
    /// reserve only grows, by at most its own bricks on the board, and a
    /// reserve that does not grow keeps its last change's ply.
    pub(crate) fn decided_winner(&self) -> Option<Seat> {
        if self.phase != Phase::Clearing {
            return None;
        }
        self.seats().find(|&seat| self.seats().all(|other| other == seat || self.surely_ahead(seat, other)))
    }

    /// Whether `seat` ends ahead of `other` whatever either does from here
    /// on (clearing phase): even at its most, `other` stays below, or only
    /// equals `seat` by a later change or a later last change.
    fn surely_ahead(&self, seat: Seat, other: Seat) -> bool {
        let ours = self.reserves[seat.index()] as u32;
        let their_most = self.reserves[other.index()] as u32 + self.bricks(other).count();
        let tie_break = |seat: Seat| (self.changed[seat.index()].unwrap_or(0), seat);
        ours > their_most
            || (ours == their_most && (!self.bricks(other).is_empty() || tie_break(seat) < tie_break(other)))
    }

    /// The bricks on the board, of every seat.
    pub(crate) fn bricks_on_board(&self) -> u32 {
        self.seats().map(|seat| self.bricks(seat).count()).sum()
    }

    /// At most how many more turns the clearing phase lasts: each clearing
    /// turn takes back a brick at least, with fewer than `players` passes before it.
    pub(crate) fn clearing_plies_bound(&self) -> u32 {
        self.bricks_on_board() * self.players as u32
    }

    /// Why `mv` cannot be played here, or `Ok` if it can.
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        // One generation answers both: no move at all means the game is over.
        let (mut any, mut legal) = (false, false);
        self.for_each_move(|candidate| {
            any = true;
            legal |= candidate == mv;
        });
        match (any, legal) {
            (_, true) => Ok(()),
            (false, _) => Err(Illegal::GameOver),
            (true, false) => Err(self.diagnose(mv)),
        }
    }

    /// The reason an illegal move is illegal, for people.
    fn diagnose(&self, mv: Move) -> Illegal {
        let geometry = self.geometry();
        let seat = self.mover().index();
        let cells: Vec<Cell> = match mv {
            Move::Opening { pawn, marker } => vec![pawn, marker],
            Move::Pawn(cell) | Move::Marker(cell) => vec![cell],
            Move::Pass => vec![],
        };
        if let Some(&off) = cells.iter().find(|cell| !cell.is_on(self.size)) {
            return Illegal::OffBoard(off);
        }
        if let Some(&taken) = cells.iter().find(|&&cell| self.occupied().contains(cell)) {
            return Illegal::Occupied(taken);
        }
        let (pawn, marker) = match (mv, self.pawn, self.markers[seat]) {
            (Move::Pass, ..) => return Illegal::CannotPass,
            (Move::Opening { .. }, Some(_), _) => return Illegal::NotTheOpening,
            (Move::Opening { pawn, marker }, None, _) => (pawn, marker),
            (_, None, _) => return Illegal::OpeningExpected,
            (Move::Pawn(_), Some(_), None) => return Illegal::MarkerFirst,
            (Move::Marker(to), Some(pawn), _) => (pawn, to),
            (Move::Pawn(to), Some(_), Some(marker)) => (to, marker),
        };
        let interval = geometry.between(pawn, marker);
        if interval.is_empty() {
            return Illegal::NotAligned;
        }
        if self.phase == Phase::Building && !self.is_blocked() {
            let lifted = match mv {
                Move::Pawn(_) => self.pawn,
                Move::Marker(_) => self.markers[seat],
                _ => None,
            };
            let free = self.empty() | lifted.map_or(Cells::EMPTY, Cell::bit);
            let needed = (interval & free).count();
            return if needed == 0 {
                Illegal::NothingToFill
            } else {
                Illegal::TooFewBricks { needed, reserve: self.reserves[seat] }
            };
        }
        Illegal::NothingToClear
    }

    /// How many bricks the legal move `mv` places or takes back.
    pub(crate) fn bricks_moved_by(&self, mv: Move) -> u32 {
        let seat = self.mover().index();
        let geometry = self.geometry();
        let (interval, lifted) = match (mv, self.pawn, self.markers[seat]) {
            (Move::Opening { pawn, marker }, ..) => (geometry.between(pawn, marker), Cells::EMPTY),
            (Move::Pawn(to), Some(pawn), Some(marker)) => (geometry.between(to, marker), pawn.bit()),
            (Move::Marker(to), Some(pawn), marker) => {
                (geometry.between(pawn, to), marker.map_or(Cells::EMPTY, Cell::bit))
            }
            _ => return 0,
        };
        let to_fill = (interval & (self.empty() | lifted)).count();
        if self.phase == Phase::Building && (1..=self.reserves[seat] as u32).contains(&to_fill) {
            to_fill
        } else {
            (interval & self.bricks[seat]).count()
        }
    }

    /// Plays `mv` after checking it; the position is unchanged on error.
    pub fn try_play(&mut self, mv: Move) -> Result<(), Illegal> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv`, which the caller guarantees is legal (from move generation
    /// or `check`): the fast path of search and perft.
    pub fn play_unchecked(&mut self, mv: Move) {
        let keys = ZobristKeys::get();
        let seat = self.mover().index();
        let geometry = self.geometry();
        let interval = match mv {
            Move::Pass => {
                self.set_phase(Phase::Clearing, keys);
                Cells::EMPTY
            }
            Move::Opening { pawn, marker } => {
                self.place(Piece::Pawn, pawn, keys);
                self.place(Piece::Marker(seat), marker, keys);
                geometry.between(pawn, marker)
            }
            Move::Pawn(to) => {
                let from = self.pawn.expect("a pawn to move");
                self.hash ^= keys.piece(Piece::Pawn, from.index());
                self.place(Piece::Pawn, to, keys);
                geometry.between(to, self.markers[seat].expect("the mover's marker"))
            }
            Move::Marker(to) => {
                if let Some(from) = self.markers[seat] {
                    self.hash ^= keys.piece(Piece::Marker(seat), from.index());
                }
                self.place(Piece::Marker(seat), to, keys);
                geometry.between(self.pawn.expect("a pawn"), to)
            }
        };
        if mv != Move::Pass {
            let to_fill = interval & geometry.board & !self.occupied();
            let reserve = self.reserves[seat];
            // A legal move builds exactly when it can: otherwise it clears.
            let builds = self.phase == Phase::Building && (1..=reserve as u32).contains(&to_fill.count());
            let (changed_cells, new_reserve) = if builds {
                self.bricks[seat] |= to_fill;
                (to_fill, reserve - to_fill.count() as u8)
            } else {
                self.set_phase(Phase::Clearing, keys);
                let own = interval & self.bricks[seat];
                self.bricks[seat] &= !own;
                (own, reserve + own.count() as u8)
            };
            for cell in changed_cells {
                self.hash ^= keys.piece(Piece::Brick(seat), cell.index());
            }
            self.hash ^= keys.reserve(seat, reserve) ^ keys.reserve(seat, new_reserve);
            self.reserves[seat] = new_reserve;
            let order = self.change_order();
            self.changed[seat] = Some(self.ply + 1);
            let new_order = self.last_changed_to_end(order, seat);
            debug_assert_eq!(new_order, self.change_order());
            self.hash ^= keys.change_order[order] ^ keys.change_order[new_order];
        }
        let next = (seat + 1) % self.players as usize;
        self.hash ^= keys.mover[seat] ^ keys.mover[next];
        self.ply += 1;
        debug_assert_eq!(self.hash, self.compute_hash(), "incremental hash drifted after {mv}");
    }

    /// Sets a piece on `cell` (its old cell, for a moved piece, is already unhashed).
    fn place(&mut self, piece: Piece, cell: Cell, keys: &ZobristKeys) {
        match piece {
            Piece::Pawn => self.pawn = Some(cell),
            Piece::Marker(seat) => self.markers[seat] = Some(cell),
            Piece::Brick(seat) => self.bricks[seat] |= cell.bit(),
        }
        self.hash ^= keys.piece(piece, cell.index());
    }

    fn set_phase(&mut self, phase: Phase, keys: &ZobristKeys) {
        if self.phase != phase {
            self.hash ^= keys.clearing;
            self.phase = phase;
        }
    }

    /// The seats ordered by last reserve change (tie-break order), coded as
    /// one number: all the future needs of the `changed` plies.
    /// Sorted by three compare-and-swaps: it runs every ply of a playout,
    /// where the library's sort of three items took a seventh of the time.
    fn change_order(&self) -> usize {
        let players = self.players as usize;
        let key = |seat: Seat| (self.changed[seat.index()].unwrap_or(0), seat);
        let mut seats = Seat::ALL;
        for (first, second) in [(0, 1), (1, 2), (0, 1)] {
            if second < players && key(seats[second]) < key(seats[first]) {
                seats.swap(first, second);
            }
        }
        seats[..players].iter().fold(0, |code, seat| code * MAX_PLAYERS + seat.index())
    }

    /// `order` (a `change_order` code) with `seat` moved to its end: the
    /// order after `seat`'s reserve changed, without sorting again.
    fn last_changed_to_end(&self, order: usize, seat: usize) -> usize {
        let players = self.players as usize;
        let in_order = (0..players).rev().map(|place| order / MAX_PLAYERS.pow(place as u32) % MAX_PLAYERS);
        in_order.filter(|&other| other != seat).fold(0, |code, other| code * MAX_PLAYERS + other) * MAX_PLAYERS + seat
    }

    /// The least of the Zobrist keys of the position's 8 images under the
    /// board's symmetries, and the symmetry that gives it: one key for all
    /// positions that are the same up to a rotation or reflection.
    pub fn symmetric_key(&self) -> (u64, usize) {
        let keys = ZobristKeys::get();
        let geometry = self.geometry();
        let mut hashes = [self.hash; SYMMETRIES];
        for cell in self.occupied() {
            let piece = self.piece_at(cell).expect("an occupied cell");
            let own = keys.piece(piece, cell.index());
            for (symmetry, hash) in hashes.iter_mut().enumerate().skip(1) {
                *hash ^= own ^ keys.piece(piece, geometry.transform(cell, symmetry, false).index());
            }
        }
        let (symmetry, &key) = hashes.iter().enumerate().min_by_key(|&(_, &hash)| hash).expect("8 keys");
        (key, symmetry)
    }

    /// The position turned or reflected by symmetry `symmetry` (0 to 7, 0
    /// the identity): the same game, with every piece moved.
    pub(crate) fn transformed(&self, symmetry: usize) -> Position {
        let geometry = self.geometry();
        let map = |cell| geometry.transform(cell, symmetry, false);
        let mut image = *self;
        image.pawn = self.pawn.map(map);
        image.markers = self.markers.map(|marker| marker.map(map));
        image.bricks = self.bricks.map(|bricks| bricks.fold(Cells::EMPTY, |image, cell| image | map(cell).bit()));
        image.hash = image.compute_hash();
        image
    }

    /// `mv` as seen through symmetry `symmetry` (or its inverse).
    pub fn transform_move(&self, mv: Move, symmetry: usize, inverse: bool) -> Move {
        let geometry = self.geometry();
        let map = |cell| geometry.transform(cell, symmetry, inverse);
        match mv {
            Move::Opening { pawn, marker } => Move::Opening { pawn: map(pawn), marker: map(marker) },
            Move::Pawn(cell) => Move::Pawn(map(cell)),
            Move::Marker(cell) => Move::Marker(map(cell)),
            Move::Pass => Move::Pass,
        }
    }

    /// The Zobrist key computed from scratch; `hash()` must always equal it.
    pub fn compute_hash(&self) -> u64 {
        let keys = ZobristKeys::get();
        let mut hash = keys.size[self.size as usize]
            ^ keys.players[self.players as usize]
            ^ keys.mover[self.mover().index()]
            ^ keys.change_order[self.change_order()];
        if self.phase == Phase::Clearing {
            hash ^= keys.clearing;
        }
        for cell in self.geometry().board {
            if let Some(piece) = self.piece_at(cell) {
                hash ^= keys.piece(piece, cell.index());
            }
        }
        for seat in self.seats() {
            hash ^= keys.reserve(seat.index(), self.reserves[seat.index()]);
        }
        hash
    }
}

/// The largest ply a position line may give: far beyond any game, and far
/// enough below `u64::MAX` that no game played on from it counts round to 0
/// (where the board must be empty).
pub const LARGEST_PLY: u64 = i64::MAX as u64;

/// What is wrong with a position line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The line does not have 6 fields.
    #[error(
        "invalid position: expected 6 fields (board side reserves phase ply changed), found {found}: the start is \
         5/5/5/5/5 b 16,16 1 0 -,-"
    )]
    FieldCount {
        /// How many fields it has.
        found: usize,
    },
    /// Fields not separated by single spaces.
    #[error("invalid position: fields must be separated by single spaces")]
    Spacing,
    /// The board has too few or too many ranks.
    #[error("invalid position: board: {ranks} ranks, but a board has {MIN_SIZE} to {MAX_SIZE} ranks separated by '/'")]
    RankCount {
        /// How many ranks it has.
        ranks: usize,
    },
    /// A rank of another length than the board's size.
    #[error("invalid position: board rank {rank} describes {cells} cells, not {size}")]
    RankLength {
        /// The rank, from 1 at the bottom.
        rank: u8,
        /// How many cells it describes.
        cells: usize,
        /// The board's size, from its number of ranks.
        size: u8,
    },
    /// A character that is no piece and no run of empty cells.
    #[error(
        "invalid position: board rank {rank}: '{found}' is not P (pawn), B Y R (markers), b y r (bricks) or a digit 1-9"
    )]
    BadBoardChar {
        /// The rank, from 1 at the bottom.
        rank: u8,
        /// The character as given.
        found: char,
    },
    /// Two pawns on the board.
    #[error("invalid position: board: more than one pawn")]
    SecondPawn,
    /// Two markers of one seat.
    #[error("invalid position: board: more than one {} marker", .0.name())]
    SecondMarker(Seat),
    /// A marker or brick of a seat the game does not have.
    #[error("invalid position: board: '{found}' belongs to a seat beyond the {players} players")]
    NoSuchSeat {
        /// The letter as given.
        found: char,
        /// How many players the game has.
        players: usize,
    },
    /// A side-to-move field that is not a seat's letter.
    #[error("invalid position: side: '{0}' is not b, y or r")]
    BadSide(String),
    /// A reserves field that does not read.
    #[error("invalid position: reserves: '{0}' is not 2 or 3 whole numbers separated by ','")]
    BadReserves(String),
    /// A reserve for fewer than 2 or more than 3 players.
    #[error("invalid position: reserves: {found} numbers, but POLD.R is for 2 or 3 players")]
    ReserveCount {
        /// How many reserves the field has.
        found: usize,
    },
    /// A reserve above `MAX_BRICKS`.
    #[error("invalid position: reserves: {} has {reserve} bricks, more than {MAX_BRICKS}", .seat.name())]
    ReserveTooLarge {
        /// Whose reserve.
        seat: Seat,
        /// The reserve as given.
        reserve: u64,
    },
    /// A phase field other than 1 or 2.
    #[error("invalid position: phase: '{0}' is not 1 or 2")]
    BadPhase(String),
    /// A ply field that is not a whole number up to `LARGEST_PLY`.
    #[error("invalid position: ply: '{0}' is not a whole number from 0 to {LARGEST_PLY}")]
    BadPly(String),
    /// A changed field that does not read.
    #[error("invalid position: changed: '{0}' is not a ply or '-' per player, separated by ','")]
    BadChanged(String),
    /// A changed field with another number of entries than players.
    #[error("invalid position: changed: {found} entries for {players} players")]
    ChangedCount {
        /// How many entries it has.
        found: usize,
        /// How many players the game has.
        players: usize,
    },
    /// A side to move that the ply does not give.
    #[error("invalid position: side: {} is to move at this ply, not {}", .expected.name(), .found.name())]
    WrongSide {
        /// The seat the ply gives.
        expected: Seat,
        /// The seat as given.
        found: Seat,
    },
    /// A seat with a marker on the board but no reserve change.
    #[error("invalid position: {} has a marker on the board but no reserve change in 'changed'", .0.name())]
    MarkerWithoutChange(Seat),
    /// A seat with a reserve change but no marker on the board.
    #[error("invalid position: {} has a reserve change in 'changed' but no marker on the board", .0.name())]
    ChangeWithoutMarker(Seat),
    /// A seat with bricks on the board but no marker.
    #[error("invalid position: {} has bricks on the board but no marker", .0.name())]
    BricksWithoutMarker(Seat),
    /// A reserve change at ply 0 or after the position's ply.
    #[error("invalid position: changed: {}'s ply {ply} is not from 1 to the position's ply", .seat.name())]
    ChangeOutOfRange {
        /// Whose change.
        seat: Seat,
        /// The ply as given.
        ply: u64,
    },
    /// A reserve change at a ply that does not follow a turn of its seat.
    #[error("invalid position: changed: ply {ply} does not follow a turn of {}", .seat.name())]
    ChangeNotOnOwnTurn {
        /// Whose change.
        seat: Seat,
        /// The ply as given.
        ply: u64,
    },
    /// Two seats' reserve changes at one ply.
    #[error("invalid position: changed: two players at the same ply {0}")]
    SameChangePly(u64),
    /// A seat that has had a turn in the building phase with no marker on the board.
    #[error("invalid position: {} has had a turn in the building phase but has no marker on the board", .0.name())]
    MarkerMissing(Seat),
    /// A position at ply 0 that is not the start: a piece on the board, phase
    /// 2 or a reserve change.
    #[error("invalid position: at ply 0 the board is empty, the phase is 1 and no reserve has changed")]
    StartNotEmpty,
    /// A position after ply 0 with no pawn.
    #[error("invalid position: after ply 0 the pawn is on the board")]
    NoPawn,
    /// An empty reserve where the rules allow none: only the seat that just
    /// moved may have one, in the building phase (it has won).
    #[error(
        "invalid position: {} has an empty reserve: only the player who just moved may, in the building phase",
        .0.name()
    )]
    EmptyReserve(Seat),
}

/// Digits only (`+5` and `-0` are not numbers here); leading zeros are read.
fn whole_number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl std::str::FromStr for Position {
    type Err = PositionError;

    /// Reads a position line and checks every rule of validity.
    fn from_str(text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.iter().any(|field| field.is_empty()) || text.contains(|c: char| c.is_whitespace() && c != ' ') {
            let words = text.split_whitespace().count();
            return Err(if words == 6 { PositionError::Spacing } else { PositionError::FieldCount { found: words } });
        }
        if fields.len() != 6 {
            return Err(PositionError::FieldCount { found: fields.len() });
        }
        let reserves_text: Vec<&str> = fields[2].split(',').collect();
        if !(2..=MAX_PLAYERS).contains(&reserves_text.len()) {
            if reserves_text.iter().all(|text| whole_number(text).is_some()) {
                return Err(PositionError::ReserveCount { found: reserves_text.len() });
            }
            return Err(PositionError::BadReserves(fields[2].to_string()));
        }
        let players = reserves_text.len();
        let mut reserves = [0u8; MAX_PLAYERS];
        for (seat, text) in Seat::ALL.into_iter().zip(&reserves_text) {
            let reserve = whole_number(text).ok_or_else(|| PositionError::BadReserves(fields[2].to_string()))?;
            if reserve > MAX_BRICKS as u64 {
                return Err(PositionError::ReserveTooLarge { seat, reserve });
            }
            reserves[seat.index()] = reserve as u8;
        }

        let ranks: Vec<&str> = fields[0].split('/').collect();
        if !(MIN_SIZE as usize..=MAX_SIZE as usize).contains(&ranks.len()) {
            return Err(PositionError::RankCount { ranks: ranks.len() });
        }
        let size = ranks.len() as u8;
        let mut position = Position::empty_board(size, players as u8, reserves);
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = size - 1 - row as u8;
            let mut file = 0usize;
            for found in rank_text.chars() {
                if let Some(run) = found.to_digit(10).filter(|&run| run >= 1) {
                    file += run as usize;
                    continue;
                }
                let piece = match found {
                    'P' => Piece::Pawn,
                    'B' | 'Y' | 'R' => Piece::Marker("BYR".find(found).expect("a marker letter")),
                    'b' | 'y' | 'r' => Piece::Brick("byr".find(found).expect("a brick letter")),
                    _ => return Err(PositionError::BadBoardChar { rank: rank + 1, found }),
                };
                let cell = Cell::new(file.min(MAX_SIZE as usize - 1) as u8, rank).filter(|_| file < size as usize);
                file += 1;
                let Some(cell) = cell else { continue };
                match piece {
                    Piece::Pawn if position.pawn.is_some() => return Err(PositionError::SecondPawn),
                    Piece::Marker(seat) | Piece::Brick(seat) if seat >= players => {
                        return Err(PositionError::NoSuchSeat { found, players });
                    }
                    Piece::Marker(seat) if position.markers[seat].is_some() => {
                        return Err(PositionError::SecondMarker(Seat::ALL[seat]));
                    }
                    Piece::Pawn => position.pawn = Some(cell),
                    Piece::Marker(seat) => position.markers[seat] = Some(cell),
                    Piece::Brick(seat) => position.bricks[seat] |= cell.bit(),
                }
            }
            if file != size as usize {
                return Err(PositionError::RankLength { rank: rank + 1, cells: file, size });
            }
        }

        let side: Seat = fields[1].parse().map_err(|_| PositionError::BadSide(fields[1].to_string()))?;
        if side.index() >= players {
            return Err(PositionError::BadSide(fields[1].to_string()));
        }
        position.phase = match fields[3] {
            "1" => Phase::Building,
            "2" => Phase::Clearing,
            other => return Err(PositionError::BadPhase(other.to_string())),
        };
        position.ply = whole_number(fields[4])
            .filter(|&ply| ply <= LARGEST_PLY)
            .ok_or_else(|| PositionError::BadPly(fields[4].to_string()))?;
        let changed_text: Vec<&str> = fields[5].split(',').collect();
        if changed_text.len() != players {
            if changed_text.iter().all(|text| *text == "-" || whole_number(text).is_some()) {
                return Err(PositionError::ChangedCount { found: changed_text.len(), players });
            }
            return Err(PositionError::BadChanged(fields[5].to_string()));
        }
        for (seat, text) in changed_text.iter().enumerate() {
            position.changed[seat] = match *text {
                "-" => None,
                number => Some(whole_number(number).ok_or_else(|| PositionError::BadChanged(fields[5].to_string()))?),
            };
        }
        position.validate(side)?;
        position.hash = position.compute_hash();
        Ok(position)
    }
}

impl Position {
    /// The validity rules that tie the fields together.
    fn validate(&self, side: Seat) -> Result<(), PositionError> {
        let players = self.players as u64;
        let expected = self.mover();
        if side != expected {
            return Err(PositionError::WrongSide { expected, found: side });
        }
        for seat in self.seats() {
            let index = seat.index();
            match (self.markers[index], self.changed[index]) {
                (Some(_), None) => return Err(PositionError::MarkerWithoutChange(seat)),
                (None, Some(_)) => return Err(PositionError::ChangeWithoutMarker(seat)),
                (None, None) if !self.bricks[index].is_empty() => return Err(PositionError::BricksWithoutMarker(seat)),
                _ => {}
            }
            if let Some(ply) = self.changed[index] {
                if !(1..=self.ply).contains(&ply) {
                    return Err(PositionError::ChangeOutOfRange { seat, ply });
                }
                if ply % players != (index as u64 + 1) % players {
                    return Err(PositionError::ChangeNotOnOwnTurn { seat, ply });
                }
                if self.seats().any(|other| other < seat && self.changed[other.index()] == Some(ply)) {
                    return Err(PositionError::SameChangePly(ply));
                }
            }
            if self.phase == Phase::Building && (index as u64) < self.ply && self.markers[index].is_none() {
                return Err(PositionError::MarkerMissing(seat));
            }
        }
        if self.ply == 0 {
            if !self.occupied().is_empty() || self.phase != Phase::Building {
                return Err(PositionError::StartNotEmpty);
            }
        } else if self.pawn.is_none() {
            return Err(PositionError::NoPawn);
        }
        let last_mover = (self.ply % players + players - 1) % players;
        for seat in self.seats() {
            let may_be_empty = self.phase == Phase::Building && self.ply > 0 && seat.index() as u64 == last_mover;
            if self.reserves[seat.index()] == 0 && !may_be_empty {
                return Err(PositionError::EmptyReserve(seat));
            }
        }
        Ok(())
    }
}

/// The position line of the rules: board, side, reserves, phase, ply, changed.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..self.size).rev() {
            let mut run = 0;
            for file in 0..self.size {
                let cell = Cell::new(file, rank).expect("on the board");
                let Some(piece) = self.piece_at(cell) else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                let letter = match piece {
                    Piece::Pawn => 'P',
                    Piece::Marker(seat) => Seat::ALL[seat].marker_letter(),
                    Piece::Brick(seat) => Seat::ALL[seat].brick_letter(),
                };
                write!(f, "{letter}")?;
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {} ", self.mover())?;
        let reserves: Vec<String> = self.seats().map(|seat| self.reserves[seat.index()].to_string()).collect();
        let changed: Vec<String> = self
            .seats()
            .map(|seat| self.changed[seat.index()].map_or("-".to_string(), |ply| ply.to_string()))
            .collect();
        write!(f, "{} {} {} {}", reserves.join(","), self.phase, self.ply, changed.join(","))
    }
}
