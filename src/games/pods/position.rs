//! A position: pods on the board, both hands, side to move, rotation and ply.
//! The only type that changes the board; it keeps its Zobrist key in step.

use std::fmt;

use super::moves::{Illegal, Move, MoveKind, MoveList};
use super::pods::{MAX_PODS, Pod, PodMask};
use super::ruleset::{Geometry, Rules, Variant};
use super::types::{Bitboard, Direction, POINTS, Point, Rotation, RotationParseError, SIZE, Side, SideParseError};

/// How a finished game was won or drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The side that won.
        winner: Side,
        /// How it won.
        reason: WinReason,
    },
    /// Neither side won.
    Draw(DrawReason),
}

/// How a game was won.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WinReason {
    /// Advanced game: the winner's hand is empty after their action.
    EmptyHand,
    /// The loser was to move and had no legal action.
    NoLegalMove,
    /// The loser tried an illegal move (judged by a referee, not by the rules).
    IllegalMove,
}

/// Why a game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawReason {
    /// Advanced game: the same position for the third time.
    Repetition,
    /// A match's ply limit was reached.
    PlyLimit,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let why = match reason {
                    WinReason::EmptyHand => "empty hand",
                    WinReason::NoLegalMove => "opponent has no legal move",
                    WinReason::IllegalMove => "opponent played an illegal move",
                };
                write!(f, "{} wins ({why})", winner.name())
            }
            Outcome::Draw(DrawReason::Repetition) => f.write_str("draw (threefold repetition)"),
            Outcome::Draw(DrawReason::PlyLimit) => f.write_str("draw (ply limit)"),
        }
    }
}

/// The largest ply a position line may give: far beyond any game, and far
/// enough below `u32::MAX` that no game played on from it counts round to 0
/// (where the first-move rule would apply again).
pub const LARGEST_PLY: u32 = i32::MAX as u32;

/// What is wrong with a position line, and where.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PositionError {
    /// The line has `found` fields instead of 5.
    #[error("invalid position: expected 5 fields (board side hands rotation ply), found {found}")]
    WrongFieldCount {
        /// How many fields the line has.
        found: usize,
    },
    /// The fields are not separated by single spaces, or the line has
    /// leading or trailing whitespace.
    #[error("invalid position: fields must be separated by single spaces, with no leading or trailing space")]
    BadSpacing,
    /// The ply field `text` is not a whole number from 0 to `LARGEST_PLY`.
    #[error("invalid position: ply: '{text}' is not a whole number of moves from 0 to {LARGEST_PLY}")]
    BadPly {
        /// The ply field as given.
        text: String,
    },
    /// The side-to-move field does not read.
    #[error("invalid position: side: {0}")]
    Side(SideParseError),
    /// The rotation field does not read.
    #[error("invalid position: rotation: {0}")]
    Rotation(RotationParseError),
    /// The board field does not split into 6 ranks at `/`; `found` is how many it has.
    #[error("invalid position: board: expected 6 ranks separated by '/', found {found}")]
    WrongRankCount {
        /// How many ranks the board field has.
        found: usize,
    },
    /// On `rank` (1-6), the digit `run` is not an empty run of 1 to 6 points.
    #[error("invalid position: board rank {rank}: '{run}' is not an empty run 1-6")]
    BadRun {
        /// The rank, 1 to 6.
        rank: u8,
        /// The digit as given.
        run: char,
    },
    /// `rank` (1-6), written `text`, describes `points` points instead of 6.
    #[error("invalid position: board rank {rank} '{text}' describes {points} points, not 6")]
    WrongRankLength {
        /// The rank, 1 to 6.
        rank: u8,
        /// The rank as given.
        text: String,
        /// How many points it describes.
        points: usize,
    },
    /// `letter`, on a rank or in the hands, is not a pod of the game's pod set.
    #[error("invalid position: {place}: '{letter}' is not a pod of this set")]
    UnknownPod {
        /// Where the letter was read.
        place: PodPlace,
        /// The letter as given.
        letter: char,
    },
    /// The pod `letter` stands for is already on the board or in a hand.
    #[error("invalid position: {place}: pod '{letter}' appears twice")]
    DuplicatePod {
        /// Where the letter was read the second time.
        place: PodPlace,
        /// The letter as given.
        letter: char,
    },
    /// The hands field is not White's pods then Black's, each alphabetical:
    /// `letter` comes too late.
    #[error(
        "invalid position: hands: '{letter}' is out of order: write White's pods (uppercase) then Black's \
         (lowercase), each in alphabetical order"
    )]
    HandsOutOfOrder {
        /// The first letter out of order.
        letter: char,
    },
    /// In the advanced game, `side`, to move, has no pod in hand.
    #[error(
        "invalid position: in the advanced game the side to move ({}) cannot have an empty hand",
        .side.name()
    )]
    EmptyHand {
        /// The side to move.
        side: Side,
    },
}

/// Where in a position line a pod letter was read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PodPlace {
    /// The board field, on this rank (1-6).
    BoardRank(u8),
    /// The hands field.
    Hands,
}

impl fmt::Display for PodPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PodPlace::BoardRank(rank) => write!(f, "board rank {rank}"),
            PodPlace::Hands => f.write_str("hands"),
        }
    }
}

/// Marks an empty point in `Position::points`.
const NO_POD: u8 = u8::MAX;

/// What `Position::points` holds where `side`'s `pod` stands.
fn point_code(side: Side, pod: Pod) -> u8 {
    (side.index() * 16 + pod.index()) as u8
}

/// The side index and pod index of a code `point_code` wrote, as the
/// geometry tables are indexed.
#[inline(always)]
fn decode_point(code: u8) -> (usize, usize) {
    (usize::from(code >> 4), usize::from(code & 15))
}

/// A position: the pods on the board, both hands, the side to move, the
/// board's rotation and the ply, with what move generation keeps up to date
/// move by move (attacks, where each pod in hand could go, the hash).
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// Per point: `NO_POD`, or side * 16 + pod index.
    points: [u8; POINTS],
    occupied: [Bitboard; 2],
    hands: [PodMask; 2],
    /// Points attacked by each side's pods on the board.
    attacked: [Bitboard; 2],
    /// For each side and each pod in its hand, the points where it could
    /// place that pod now if it were its turn (the first-move rule aside).
    /// A placement only takes points away (see `narrow_reach`); after a
    /// step the mover's half is updated and the opponent's worked out again
    /// (see `follow_step`), and after pods come off all of it, at once,
    /// since the evaluation and the move generator of the subtree below
    /// will both read it. The entries of pods not in hand are never read,
    /// and may hold anything.
    reach: [[Bitboard; MAX_PODS]; 2],
    /// `reach` summed up for each side, for the evaluation.
    summaries: [PlacementSummary; 2],
    /// Whether a pod may stand blocked: only in a position set up by hand,
    /// since every action takes blocked pods off (advanced game).
    blocked_possible: bool,
    side_to_move: Side,
    rotation: Rotation,
    ply: u32,
    hash: u64,
}

/// Equal positions have the same pods on the same points, hands, side to
/// move, rotation and ply; what is derived from those is not compared.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        (self.points, self.hands, self.side_to_move, self.rotation, self.ply)
            == (other.points, other.hands, other.side_to_move, other.rotation, other.ply)
    }
}

impl Eq for Position {}

/// What one side could place: where, how many (pod, point) pairs, and how
/// many of its pods fit somewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlacementSummary {
    pub points: Bitboard,
    pub placements: u16,
    pub pods: u8,
}

impl PlacementSummary {
    fn add(&mut self, targets: Bitboard) {
        self.points |= targets;
        self.placements += targets.count() as u16;
        self.pods += u8::from(!targets.is_empty());
    }

    /// About how many more placements the side can make: pods that fit
    /// somewhere, one a point at most (the endgame's bound without its matching).
    pub fn most(&self) -> i32 {
        i32::from(self.pods).min(self.points.count() as i32)
    }
}

/// See `Position::pod_mobility`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodMobility {
    pub moves: u32,
    pub nearly_blocked: [u32; 2],
}

/// Per-direction masks shared by every pod the side to move might place.
struct PlacementMasks {
    /// Empty points not attacked by the opponent.
    base: Bitboard,
    /// Points whose neighbour in each direction is linked and empty.
    liberty: [Bitboard; 8],
    /// Points from which a short leg in each direction hits an opponent pod.
    short_hit: [Bitboard; 8],
    /// Points from which a long leg in each direction hits an opponent pod.
    long_hit: [Bitboard; 8],
    needs_liberty: bool,
}

impl PlacementMasks {
    /// The masks `pods` of side `us` need: only the directions their legs use.
    fn new(position: &Position, rules: &Rules, us: Side, pods: PodMask) -> PlacementMasks {
        let geometry = rules.geometry(position.rotation);
        let needs_liberty = rules.placement_needs_liberty();
        let them = position.occupied[us.opponent().index()];
        let empty = position.empty();
        let mut masks = PlacementMasks {
            base: empty & !position.attacked[us.opponent().index()],
            liberty: [Bitboard::EMPTY; 8],
            short_hit: [Bitboard::EMPTY; 8],
            long_hit: [Bitboard::EMPTY; 8],
            needs_liberty,
        };
        let (mut short_dirs, mut long_dirs) = (0u8, 0u8);
        for pod in pods {
            let legs = rules.legs[us.index()][pod.index()];
            short_dirs |= legs.short();
            long_dirs |= legs.long;
        }
        if needs_liberty {
            for dir in DirBits(short_dirs | long_dirs) {
                masks.liberty[dir] = geometry.links[dir] & empty.pull(Direction::from_index(dir));
            }
        }
        for dir in DirBits(short_dirs) {
            masks.short_hit[dir] = geometry.links[dir] & them.pull(Direction::from_index(dir));
        }
        for dir in DirBits(long_dirs) {
            masks.long_hit[dir] = geometry.long_leg_hits(Direction::from_index(dir), them);
        }
        masks
    }

    /// The points where `pod` of the side to move may be placed.
    #[inline(always)]
    fn targets(&self, rules: &Rules, side: Side, pod: Pod) -> Bitboard {
        let legs = rules.legs[side.index()][pod.index()];
        let mut hit = Bitboard::EMPTY;
        for dir in DirBits(legs.short()) {
            hit |= self.short_hit[dir];
        }
        for dir in DirBits(legs.long) {
            hit |= self.long_hit[dir];
        }
        let mut allowed = self.base & !hit;
        if self.needs_liberty {
            let mut liberty = Bitboard::EMPTY;
            for dir in DirBits(legs.all) {
                liberty |= self.liberty[dir];
            }
            allowed &= liberty;
        }
        allowed
    }
}

/// Iterates the direction indices set in a direction bit mask.
struct DirBits(u8);

impl Iterator for DirBits {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(index)
    }
}

impl Position {
    /// The empty board with both hands full, White to move.
    pub fn start(rules: &Rules, rotation: Rotation) -> Position {
        let all = rules.pods().all();
        let mut position = Position {
            points: [NO_POD; POINTS],
            occupied: [Bitboard::EMPTY; 2],
            hands: [all, all],
            attacked: [Bitboard::EMPTY; 2],
            reach: [[Bitboard::EMPTY; MAX_PODS]; 2],
            summaries: [PlacementSummary::default(); 2],
            blocked_possible: false,
            side_to_move: Side::White,
            rotation,
            ply: 0,
            hash: 0,
        };
        position.refresh_reach(rules);
        position.hash = position.compute_hash(rules);
        position
    }

    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// How the board is turned in this game.
    pub fn rotation(&self) -> Rotation {
        self.rotation
    }

    /// Moves played since the start, which decides the first-move rule.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The Zobrist key of board, hands, side to move and rotation.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The pods `side` holds, not yet placed.
    pub fn hand(&self, side: Side) -> PodMask {
        self.hands[side.index()]
    }

    /// The points where `side`'s pods stand.
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// The points where no pod stands.
    pub fn empty(&self) -> Bitboard {
        !(self.occupied[0] | self.occupied[1])
    }

    /// Points attacked by `side`'s pods.
    pub fn attacked_by(&self, side: Side) -> Bitboard {
        self.attacked[side.index()]
    }

    /// The pod standing on `point`, with its owner.
    pub fn pod_at(&self, point: Point) -> Option<(Side, Pod)> {
        let code = self.points[point.index()];
        if code == NO_POD {
            return None;
        }
        let (side, pod) = decode_point(code);
        Some((Side::BOTH[side], Pod::from_index(pod).expect("stored pod")))
    }

    /// Whether the first-move rule (a two-legged pod, no moves) is in force.
    pub(crate) fn is_first_move(&self) -> bool {
        self.side_to_move == Side::White && self.ply == 0
    }

    /// The liberties `side`'s pod would have on `point`.
    pub fn liberties(&self, rules: &Rules, side: Side, pod: Pod, point: Point) -> Bitboard {
        rules.geometry(self.rotation).first_steps[side.index()][pod.index()][point.index()] & self.empty()
    }

    /// The Zobrist key computed from scratch; `hash()` must always equal it.
    pub fn compute_hash(&self, rules: &Rules) -> u64 {
        let keys = &rules.zobrist;
        let mut hash = keys.rotation[self.rotation.index()];
        if self.side_to_move == Side::Black {
            hash ^= keys.black_to_move;
        }
        for point in Point::ALL {
            if let Some((side, pod)) = self.pod_at(point) {
                hash ^= keys.board[side.index()][pod.index()][point.index()];
            }
        }
        for side in Side::BOTH {
            for pod in self.hands[side.index()] {
                hash ^= keys.hand[side.index()][pod.index()];
            }
        }
        hash
    }

    fn compute_attacks(&mut self, rules: &Rules) {
        for side in Side::BOTH {
            self.compute_side_attacks(rules.geometry(self.rotation), side);
        }
    }

    fn compute_side_attacks(&mut self, geometry: &Geometry, side: Side) {
        let mut attacked = Bitboard::EMPTY;
        for point in self.occupied[side.index()] {
            let (_, pod) = decode_point(self.points[point.index()]);
            attacked |= geometry.attacks[side.index()][pod][point.index()];
        }
        self.attacked[side.index()] = attacked;
    }

    fn put(&mut self, rules: &Rules, side: Side, pod: Pod, point: Point) {
        self.points[point.index()] = point_code(side, pod);
        self.occupied[side.index()] |= point.bit();
        self.hash ^= rules.zobrist.board[side.index()][pod.index()][point.index()];
    }

    fn take(&mut self, rules: &Rules, point: Point) -> (Side, Pod) {
        let (side, pod) = self.pod_at(point).expect("a pod to take");
        self.points[point.index()] = NO_POD;
        self.occupied[side.index()] &= !point.bit();
        self.hash ^= rules.zobrist.board[side.index()][pod.index()][point.index()];
        (side, pod)
    }

    fn hand_insert(&mut self, rules: &Rules, side: Side, pod: Pod) {
        self.hands[side.index()].insert(pod);
        self.hash ^= rules.zobrist.hand[side.index()][pod.index()];
    }

    /// Whether the game ended with the last action: in the advanced game the
    /// side that just moved has emptied its hand.
    pub(crate) fn last_mover_emptied_hand(&self, rules: &Rules) -> bool {
        rules.variant() == Variant::Advanced && self.hands[self.side_to_move.opponent().index()].is_empty()
    }

    /// The game's result as far as this position tells (no history: see `GameRecord`).
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        let opponent = self.side_to_move.opponent();
        if self.last_mover_emptied_hand(rules) {
            return Some(Outcome::Win { winner: opponent, reason: WinReason::EmptyHand });
        }
        if self.count_moves(rules) == 0 {
            return Some(Outcome::Win { winner: opponent, reason: WinReason::NoLegalMove });
        }
        None
    }

    /// Advanced game: a placement with which `side`, if it were its turn,
    /// would win at once: its last pod in hand, placed where neither that
    /// pod nor another of `side`'s ends blocked (a blocked pod of the mover
    /// goes back to its hand). Worked out from what the position keeps,
    /// without playing a move. For the side to move the first-move rule
    /// applies (it is never the last pod then).
    pub fn winning_placement(&self, rules: &Rules, side: Side) -> Option<Move> {
        let hand = self.hands[side.index()];
        if rules.variant() != Variant::Advanced || hand.count() != 1 || self.last_mover_emptied_hand(rules) {
            return None;
        }
        let pod = hand.into_iter().next()?;
        let us = side.index();
        let geometry = rules.geometry(self.rotation);
        let empty = self.empty();
        // A point that is the last liberty of one of our pods is no win:
        // taking it sends that pod back to hand.
        let mut last_liberties = Bitboard::EMPTY;
        for at in self.occupied[us] {
            let (_, each) = decode_point(self.points[at.index()]);
            let liberties = geometry.first_steps[us][each][at.index()] & empty;
            match liberties.count() {
                0 => return None,
                1 => last_liberties |= liberties,
                _ => {}
            }
        }
        let first_steps = &geometry.first_steps[us][pod.index()];
        (self.reach[us][pod.index()] & !last_liberties)
            .into_iter()
            .find(|to| !(first_steps[to.index()] & empty & !to.bit()).is_empty())
            .map(|to| Move::place(pod, to))
    }

    /// The pods the side to move may place now.
    fn placeable(&self, rules: &Rules) -> PodMask {
        let hand = self.hands[self.side_to_move.index()];
        if self.is_first_move() { PodMask(hand.0 & rules.bipods.0) } else { hand }
    }

    /// Whether pods on the board may move now.
    fn may_move_pods(&self, rules: &Rules) -> bool {
        rules.variant() == Variant::Advanced && !self.is_first_move()
    }

    /// Calls `visit(pod, targets)` for each pod the side to move may place.
    #[inline(always)]
    fn for_each_placement(&self, rules: &Rules, visit: impl FnMut(Pod, Bitboard)) {
        self.placements_for(self.side_to_move, self.placeable(rules), visit);
    }

    /// Calls `visit(pod, targets)` for each of `pods` in `side`'s hand, the
    /// points where `side` could place it if it were `side`'s turn (the
    /// first-move rule aside).
    #[inline(always)]
    pub(crate) fn placements_for(&self, side: Side, pods: PodMask, mut visit: impl FnMut(Pod, Bitboard)) {
        for pod in PodMask(pods.0 & self.hands[side.index()].0) {
            visit(pod, self.reach[side.index()][pod.index()]);
        }
    }

    /// Works `reach` and its summaries out from scratch, in one pass.
    fn refresh_reach(&mut self, rules: &Rules) {
        for side in Side::BOTH {
            self.refresh_side_reach(rules, side);
        }
    }

    /// Works `side`'s half of `reach` and its summary out from scratch.
    fn refresh_side_reach(&mut self, rules: &Rules, side: Side) {
        let hand = self.hands[side.index()];
        self.reach[side.index()] = [Bitboard::EMPTY; MAX_PODS];
        self.summaries[side.index()] = PlacementSummary::default();
        if hand.is_empty() {
            return;
        }
        let masks = PlacementMasks::new(self, rules, side, hand);
        for pod in hand {
            let targets = masks.targets(rules, side, pod);
            self.reach[side.index()][pod.index()] = targets;
            self.summaries[side.index()].add(targets);
        }
    }

    /// Brings `reach` and its summaries up to date after `side` moved a pod
    /// from `from` to `to`, nothing came off and placements need no
    /// liberty. `side`'s own pods lose `to` and may gain `from`: the
    /// opponent's pods, which decide the rest, stand where they stood. The
    /// opponent's are worked out again: what they must not attack moved.
    fn follow_step(
        &mut self,
        parent: &Position,
        rules: &Rules,
        geometry: &Geometry,
        side: Side,
        from: Point,
        to: Point,
    ) {
        let (us, them) = (side.index(), side.opponent().index());
        let from_open = !self.attacked[them].contains(from);
        let mut summary = PlacementSummary::default();
        for pod in self.hands[us] {
            let mut reach = parent.reach[us][pod.index()] & !to.bit();
            if from_open && (geometry.attacks[us][pod.index()][from.index()] & self.occupied[them]).is_empty() {
                reach |= from.bit();
            }
            self.reach[us][pod.index()] = reach;
            summary.add(reach);
        }
        self.summaries[us] = summary;
        self.refresh_side_reach(rules, side.opponent());
    }

    /// What `side` could place now, if it were its turn (the first-move rule aside).
    pub(crate) fn placement_summary(&self, side: Side) -> PlacementSummary {
        self.summaries[side.index()]
    }

    /// Brings `reach` and its summaries up to date after `side` placed `pod`
    /// on `to` and nothing came off: that point is taken, the points it now
    /// attacks are closed to the opponent, so are the points from which an
    /// opponent pod would attack it, and pods next to it may have lost their
    /// last liberty.
    fn narrow_reach(&mut self, parent: &Position, rules: &Rules, geometry: &Geometry, side: Side, pod: Pod, to: Point) {
        let (us, them) = (side.index(), side.opponent().index());
        self.reach[us][pod.index()] = Bitboard::EMPTY;
        let closed = geometry.closed_by_placement(side, pod, to);
        let needs_liberty = rules.placement_needs_liberty();
        let empty = self.empty();
        // One pass a side: what the placement closes, then the points
        // next to it whose last liberty it was.
        for owner in [us, them] {
            let mut summary = PlacementSummary::default();
            for each in self.hands[owner] {
                let shut = if owner == us {
                    to.bit()
                } else {
                    closed | geometry.reverse_attacks[them][each.index()][to.index()]
                };
                let mut reach = parent.reach[owner][each.index()] & !shut;
                if needs_liberty {
                    for point in reach & geometry.reverse_first_steps[owner][each.index()][to.index()] {
                        if (geometry.first_steps[owner][each.index()][point.index()] & empty).is_empty() {
                            reach &= !point.bit();
                        }
                    }
                }
                self.reach[owner][each.index()] = reach;
                summary.add(reach);
            }
            self.summaries[owner] = summary;
        }
    }

    /// Calls `visit(from, targets)` for each pod of the side to move that may move.
    #[inline(always)]
    fn for_each_pod_move(&self, rules: &Rules, mut visit: impl FnMut(Point, Bitboard)) {
        if !self.may_move_pods(rules) {
            return;
        }
        let geometry = rules.geometry(self.rotation);
        let side = self.side_to_move;
        for from in self.occupied[side.index()] {
            let (_, pod) = decode_point(self.points[from.index()]);
            visit(from, self.pod_targets(rules, geometry, pod, from));
        }
    }

    /// Where the side to move's pod (by index) on `from` may move.
    #[inline(always)]
    fn pod_targets(&self, rules: &Rules, geometry: &Geometry, pod: usize, from: Point) -> Bitboard {
        let side = self.side_to_move.index();
        let occupied = self.occupied[0] | self.occupied[1];
        let mut targets = geometry.short_steps[side][pod][from.index()] & !occupied;
        for dir in DirBits(rules.legs[side][pod].long) {
            // The ray up to its nearest blocker, without a branch: along
            // a ray the point numbers only climb, or only fall.
            let ray = geometry.rays[dir][from.index()];
            let blockers = ray & occupied;
            let (climbing, falling) = (blockers.below_first(), blockers.above_last());
            targets |= ray & if Direction::from_index(dir).index_delta() > 0 { climbing } else { falling };
        }
        targets
    }

    /// What the advanced game's evaluation asks of the pods on the board,
    /// in one pass over them: the side to move's legal pod moves, and how
    /// many of each side's pods have a single liberty left.
    pub(crate) fn pod_mobility(&self, rules: &Rules) -> PodMobility {
        let mut mobility = PodMobility::default();
        if self.last_mover_emptied_hand(rules) {
            return mobility;
        }
        let geometry = rules.geometry(self.rotation);
        let empty = self.empty();
        let may_move = self.may_move_pods(rules);
        for side in Side::BOTH {
            let mover = side == self.side_to_move;
            for from in self.occupied[side.index()] {
                let (_, pod) = decode_point(self.points[from.index()]);
                let liberties = geometry.first_steps[side.index()][pod][from.index()] & empty;
                mobility.nearly_blocked[side.index()] += u32::from(liberties.count() == 1);
                if mover && may_move {
                    mobility.moves += self.pod_targets(rules, geometry, pod, from).count();
                }
            }
        }
        mobility
    }

    /// Every legal move, appended to `moves`. None once the game is over.
    pub fn generate_moves(&self, rules: &Rules, moves: &mut MoveList) {
        self.for_each_move(rules, |mv| moves.push(mv));
    }

    /// Calls `visit` with every legal move, placements first.
    #[inline]
    pub(crate) fn for_each_move(&self, rules: &Rules, mut visit: impl FnMut(Move)) {
        if self.last_mover_emptied_hand(rules) {
            return;
        }
        self.for_each_placement(rules, |pod, targets| {
            for to in targets {
                visit(Move::place(pod, to));
            }
        });
        self.for_each_pod_move(rules, |from, targets| {
            for to in targets {
                visit(Move::step(from, to));
            }
        });
    }

    /// The number of legal moves, without listing them.
    pub fn count_moves(&self, rules: &Rules) -> u64 {
        if self.last_mover_emptied_hand(rules) {
            return 0;
        }
        let mut count = 0u64;
        self.for_each_placement(rules, |_, targets| count += targets.count() as u64);
        self.for_each_pod_move(rules, |_, targets| count += targets.count() as u64);
        count
    }

    /// The key after `mv` if no pod comes off (always so in the standard
    /// game), without playing it.
    pub(crate) fn hash_after(&self, rules: &Rules, mv: Move) -> u64 {
        let keys = &rules.zobrist;
        let side = self.side_to_move.index();
        let moved = match mv.kind() {
            MoveKind::Place { pod, to } => keys.hand[side][pod.index()] ^ keys.board[side][pod.index()][to.index()],
            MoveKind::Step { from, to } => match self.pod_at(from) {
                Some((_, pod)) => {
                    keys.board[side][pod.index()][from.index()] ^ keys.board[side][pod.index()][to.index()]
                }
                None => 0,
            },
        };
        self.hash ^ moved ^ keys.black_to_move
    }

    /// How many points the opponent could place on now that `mv` takes or
    /// attacks (0 for a move of a pod on the board).
    pub(crate) fn points_closed_to_opponent(&self, rules: &Rules, mv: Move) -> u32 {
        match mv.kind() {
            MoveKind::Place { pod, to } => {
                let closed = rules.geometry(self.rotation).closed_by_placement(self.side_to_move, pod, to);
                (closed & self.summaries[self.side_to_move.opponent().index()].points).count()
            }
            MoveKind::Step { .. } => 0,
        }
    }

    /// Whether `mv` is legal here, and if not, why.
    pub fn check(&self, rules: &Rules, mv: Move) -> Result<(), Illegal> {
        if self.last_mover_emptied_hand(rules) {
            return Err(Illegal::GameOver);
        }
        let side = self.side_to_move;
        let geometry = rules.geometry(self.rotation);
        match mv.kind() {
            MoveKind::Place { pod, to } => {
                if !rules.pods().contains(pod) {
                    return Err(Illegal::UnknownPod);
                }
                if !self.hands[side.index()].contains(pod) {
                    return Err(Illegal::NotInHand);
                }
                if self.is_first_move() && !rules.bipods.contains(pod) {
                    return Err(Illegal::NotBipodFirstMove);
                }
                if !self.empty().contains(to) {
                    return Err(Illegal::Occupied);
                }
                if self.attacked[side.opponent().index()].contains(to) {
                    return Err(Illegal::Attacked);
                }
                let attacks = geometry.attacks[side.index()][pod.index()][to.index()];
                if !(attacks & self.occupied[side.opponent().index()]).is_empty() {
                    return Err(Illegal::WouldAttack);
                }
                if rules.placement_needs_liberty() && self.liberties(rules, side, pod, to).is_empty() {
                    return Err(Illegal::NoLiberty);
                }
                Ok(())
            }
            MoveKind::Step { from, to } => {
                if rules.variant() == Variant::Standard {
                    return Err(Illegal::MovesNotAllowed);
                }
                if self.is_first_move() {
                    return Err(Illegal::FirstMoveMustPlace);
                }
                let (owner, pod) = self.pod_at(from).ok_or(Illegal::NoPodThere)?;
                if owner != side {
                    return Err(Illegal::NotYourPod);
                }
                let (dx, dy) = (to.file() - from.file(), to.rank() - from.rank());
                let distance = dx.abs().max(dy.abs());
                if distance == 0 {
                    return Err(Illegal::NotAlongALeg);
                }
                let dir = Direction::ALL
                    .into_iter()
                    .find(|d| d.delta() == (dx / distance, dy / distance))
                    .filter(|d| (d.delta().0 * distance, d.delta().1 * distance) == (dx, dy))
                    .ok_or(Illegal::NotAlongALeg)?;
                let legs = rules.legs[side.index()][pod.index()];
                let bit = 1 << dir.index();
                if legs.all & bit == 0 || (legs.long & bit == 0 && distance > 1) {
                    return Err(Illegal::NotAlongALeg);
                }
                let mut at = from;
                for _ in 0..distance {
                    if !geometry.links[dir.index()].contains(at) {
                        return Err(Illegal::BlockedPath);
                    }
                    at = at.step(dir).expect("linked");
                    if !self.empty().contains(at) {
                        return Err(if at == to { Illegal::Occupied } else { Illegal::BlockedPath });
                    }
                }
                Ok(())
            }
        }
    }

    /// Plays `mv` after checking it; the position is unchanged on error.
    pub fn try_play(&mut self, rules: &Rules, mv: Move) -> Result<(), Illegal> {
        self.check(rules, mv)?;
        self.play_unchecked(rules, mv);
        Ok(())
    }

    /// Plays `mv`, which the caller guarantees is legal (from `generate_moves`
    /// or `check`).
    pub fn play_unchecked(&mut self, rules: &Rules, mv: Move) {
        *self = self.after(rules, mv);
    }

    /// The position after `mv`, which the caller guarantees is legal.
    pub fn after(&self, rules: &Rules, mv: Move) -> Position {
        let mut next = *self;
        next.become_after(self, rules, mv);
        next
    }

    /// Makes this position the one after `mv` in `parent`, which the caller
    /// guarantees is legal: the fast path of search and perft, which write
    /// each child over the last. What a placement changes is written from
    /// the parent's fields, not read back from the copy just made, which
    /// would wait for the copy's wide stores to land.
    #[inline]
    pub(crate) fn become_after(&mut self, parent: &Position, rules: &Rules, mv: Move) {
        let side = parent.side_to_move;
        let us = side.index();
        let geometry = rules.geometry(parent.rotation);
        let keys = &rules.zobrist;
        // Every field but `reach`, which each way below writes for the pods
        // in hand from the parent's: copying it as well would be wasted.
        let Position {
            points,
            occupied,
            hands,
            attacked,
            reach: _,
            summaries,
            blocked_possible,
            side_to_move,
            rotation,
            ply,
            hash,
        } = *parent;
        (self.points, self.occupied, self.hands, self.attacked, self.summaries) =
            (points, occupied, hands, attacked, summaries);
        (self.blocked_possible, self.side_to_move, self.rotation, self.ply, self.hash) =
            (blocked_possible, side_to_move, rotation, ply, hash);
        let mut placed = None;
        let mut stepped = None;
        match mv.kind() {
            MoveKind::Place { pod, to } => {
                let mut hand = parent.hands[us];
                hand.remove(pod);
                self.hands[us] = hand;
                self.points[to.index()] = point_code(side, pod);
                self.occupied[us] = parent.occupied[us] | to.bit();
                self.attacked[us] = parent.attacked[us] | geometry.attacks[us][pod.index()][to.index()];
                self.hash = parent.hash ^ keys.hand[us][pod.index()] ^ keys.board[us][pod.index()][to.index()];
                placed = Some((pod, to));
            }
            MoveKind::Step { from, to } => {
                let (_, pod) = self.take(rules, from);
                self.put(rules, side, pod, to);
                stepped = Some((from, to));
            }
        }
        let removed = rules.variant() == Variant::Advanced && self.remove_blocked(rules, geometry, mv.to());
        match (placed, stepped) {
            (Some((pod, to)), _) if !removed => self.narrow_reach(parent, rules, geometry, side, pod, to),
            (_, Some((from, to))) if !removed && !rules.placement_needs_liberty() => {
                self.compute_side_attacks(geometry, side);
                self.follow_step(parent, rules, geometry, side, from, to);
            }
            _ => {
                self.compute_attacks(rules);
                self.refresh_reach(rules);
            }
        }
        self.side_to_move = side.opponent();
        self.hash ^= keys.black_to_move;
        self.ply = parent.ply + 1;
        debug_assert_eq!(self.hash, self.compute_hash(rules), "incremental hash drifted");
        #[cfg(debug_assertions)]
        {
            let mut fresh = *self;
            fresh.compute_attacks(rules);
            fresh.refresh_reach(rules);
            assert_eq!(self.attacked, fresh.attacked, "incremental attacks drifted");
            for side in Side::BOTH {
                for pod in self.hands[side.index()] {
                    let (reach, fresh_reach) =
                        (self.reach[side.index()][pod.index()], fresh.reach[side.index()][pod.index()]);
                    assert_eq!(reach, fresh_reach, "incremental reach drifted");
                }
            }
            assert_eq!(self.summaries, fresh.summaries, "incremental summaries drifted");
        }
    }

    /// Takes every blocked pod off at once: the mover's back to hand, the
    /// opponent's out of the game. Returns whether any came off.
    /// Only a pod that `to`, now taken, may have blocked needs looking at,
    /// unless the position was set up by hand.
    fn remove_blocked(&mut self, rules: &Rules, geometry: &Geometry, to: Point) -> bool {
        let empty = self.empty();
        let occupied = self.occupied[0] | self.occupied[1];
        let suspects =
            if self.blocked_possible { occupied } else { occupied & (geometry.neighbours[to.index()] | to.bit()) };
        self.blocked_possible = false;
        let blocked_among = |points: Bitboard| {
            let mut blocked = Bitboard::EMPTY;
            for point in points {
                let (side, pod) = decode_point(self.points[point.index()]);
                if (geometry.first_steps[side][pod][point.index()] & empty).is_empty() {
                    blocked |= point.bit();
                }
            }
            blocked
        };
        let blocked = blocked_among(suspects);
        debug_assert_eq!(blocked, blocked_among(occupied), "a blocked pod out of sight of the move");
        let mover = self.side_to_move;
        for point in blocked {
            let (side, pod) = self.take(rules, point);
            if side == mover {
                self.hand_insert(rules, side, pod);
            }
        }
        !blocked.is_empty()
    }

    /// Reads a position line (spec section 7) for a game played under `rules`.
    pub fn parse(text: &str, rules: &Rules) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(PositionError::WrongFieldCount { found: fields.len() });
        }
        if fields.join(" ") != text {
            return Err(PositionError::BadSpacing);
        }
        let bad_ply = || PositionError::BadPly { text: fields[4].to_string() };
        if !fields[4].bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad_ply());
        }
        let mut position = Position {
            points: [NO_POD; POINTS],
            occupied: [Bitboard::EMPTY; 2],
            hands: [PodMask::EMPTY; 2],
            attacked: [Bitboard::EMPTY; 2],
            reach: [[Bitboard::EMPTY; MAX_PODS]; 2],
            summaries: [PlacementSummary::default(); 2],
            blocked_possible: true,
            side_to_move: fields[1].parse().map_err(PositionError::Side)?,
            rotation: fields[3].parse().map_err(PositionError::Rotation)?,
            ply: fields[4].parse().ok().filter(|&ply| ply <= LARGEST_PLY).ok_or_else(bad_ply)?,
            hash: 0,
        };
        let mut seen = [PodMask::EMPTY; 2];
        let mut note_pod = |letter: char, place: PodPlace| -> Result<(Side, Pod), PositionError> {
            let (pod, side) = Pod::from_letter(letter)
                .filter(|(pod, _)| rules.pods().contains(*pod))
                .ok_or(PositionError::UnknownPod { place, letter })?;
            if seen[side.index()].contains(pod) {
                return Err(PositionError::DuplicatePod { place, letter });
            }
            seen[side.index()].insert(pod);
            Ok((side, pod))
        };

        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != SIZE as usize {
            return Err(PositionError::WrongRankCount { found: ranks.len() });
        }
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = SIZE as i8 - 1 - row as i8;
            let rank_number = SIZE - row as u8;
            let mut file: usize = 0;
            for c in rank_text.chars() {
                if let Some(run) = c.to_digit(10) {
                    if !(1..=6).contains(&run) {
                        return Err(PositionError::BadRun { rank: rank_number, run: c });
                    }
                    file += run as usize;
                    continue;
                }
                let (side, pod) = note_pod(c, PodPlace::BoardRank(rank_number))?;
                if let Some(point) = Point::from_coords(file.min(SIZE as usize) as i8, rank) {
                    position.points[point.index()] = point_code(side, pod);
                    position.occupied[side.index()] |= point.bit();
                }
                file += 1;
            }
            if file != SIZE as usize {
                return Err(PositionError::WrongRankLength {
                    rank: rank_number,
                    text: rank_text.to_string(),
                    points: file,
                });
            }
        }

        if fields[2] != "-" {
            let mut previous: Option<(Side, Pod)> = None;
            for c in fields[2].chars() {
                let (side, pod) = note_pod(c, PodPlace::Hands)?;
                if previous.is_some_and(|earlier| earlier > (side, pod)) {
                    return Err(PositionError::HandsOutOfOrder { letter: c });
                }
                previous = Some((side, pod));
                position.hands[side.index()].insert(pod);
            }
        }
        if rules.variant() == Variant::Advanced && position.hands[position.side_to_move.index()].is_empty() {
            return Err(PositionError::EmptyHand { side: position.side_to_move });
        }
        position.compute_attacks(rules);
        position.refresh_reach(rules);
        position.hash = position.compute_hash(rules);
        Ok(position)
    }
}

/// The position line of spec section 7.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE as i8).rev() {
            let mut run = 0;
            for file in 0..SIZE as i8 {
                let point = Point::from_coords(file, rank).expect("on the board");
                match self.pod_at(point) {
                    None => run += 1,
                    Some((side, pod)) => {
                        if run > 0 {
                            write!(f, "{run}")?;
                            run = 0;
                        }
                        write!(f, "{}", pod.letter(side))?;
                    }
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {} ", self.side_to_move)?;
        if self.hands[0].is_empty() && self.hands[1].is_empty() {
            f.write_str("-")?;
        }
        for side in Side::BOTH {
            for pod in self.hands[side.index()] {
                write!(f, "{}", pod.letter(side))?;
            }
        }
        write!(f, " {} {}", self.rotation, self.ply)
    }
}

/// Plays 20 random games of `rules` of at most `plies` plies, from
/// random rotations, and calls `visit` with every position reached
/// that has legal moves, and those moves. For the tests of the pods module.
#[cfg(test)]
pub(crate) fn visit_random_games(rules: &Rules, seed: u64, plies: usize, mut visit: impl FnMut(&Position, &MoveList)) {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};
    let mut random = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..20 {
        let mut position = Position::start(rules, Rotation::ALL[(random.next_u64() % 4) as usize]);
        for _ in 0..plies {
            let mut moves = MoveList::new();
            position.generate_moves(rules, &mut moves);
            if moves.is_empty() {
                break;
            }
            visit(&position, &moves);
            position.play_unchecked(rules, moves[(random.next_u64() % moves.len() as u64) as usize]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_carry_what_is_wrong() {
        let rules = Rules::default_for(Variant::Advanced);
        let parse = |text: &str| Position::parse(text, &rules).unwrap_err();
        assert_eq!(parse("6/6/6/6/6/6 w AB 0"), PositionError::WrongFieldCount { found: 4 });
        let side = parse("6/6/6/6/6/6 x AB 0 0");
        assert_eq!(side, PositionError::Side(SideParseError { text: "x".into() }));
        assert_eq!(side.to_string(), "invalid position: side: 'x' is not a side: expected 'w' or 'b'");
        assert_eq!(parse("7/6/6/6/6/6 w AB 0 0"), PositionError::BadRun { rank: 6, run: '7' });
        assert_eq!(parse("6/6/6/6/6/6 w AAB 0 0"), PositionError::DuplicatePod { place: PodPlace::Hands, letter: 'A' });
        assert_eq!(
            parse("6/6/Z5/6/6/6 w AB 0 0"),
            PositionError::UnknownPod { place: PodPlace::BoardRank(4), letter: 'Z' }
        );
        assert_eq!(parse("6/6/6/6/6/6 w ab 0 0"), PositionError::EmptyHand { side: Side::White });
    }

    #[test]
    fn hash_after_is_the_key_played_moves_get_when_no_pod_comes_off() {
        let mut checked = 0;
        for variant in [Variant::Standard, Variant::Advanced] {
            let rules = Rules::default_for(variant);
            visit_random_games(&rules, 7, 60, |position, moves| {
                for &mv in moves.iter() {
                    let after = position.after(&rules, mv);
                    let on_board = |p: &Position| (p.occupied[0] | p.occupied[1]).count();
                    let placed = matches!(mv.kind(), MoveKind::Place { .. }) as u32;
                    if on_board(&after) == on_board(position) + placed {
                        assert_eq!(position.hash_after(&rules, mv), after.hash(), "{position} {mv}");
                        checked += 1;
                    }
                }
            });
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Every point counted is one the opponent can no longer place on after
    /// the placement, and the count finds most of the points lost.
    #[test]
    fn points_closed_to_opponent_are_lost_to_it() {
        let rules = Rules::default_for(Variant::Standard);
        let (mut counted, mut lost_in_all) = (0, 0);
        visit_random_games(&rules, 11, 30, |position, moves| {
            let them = position.side_to_move().opponent();
            let before = position.placement_summary(them).points;
            for &mv in moves.iter() {
                let closed = position.points_closed_to_opponent(&rules, mv);
                let lost = (before & !position.after(&rules, mv).placement_summary(them).points).count();
                assert!(closed <= lost, "{position} {mv}: {closed} counted, {lost} lost");
                counted += closed;
                lost_in_all += lost;
            }
        });
        assert!(counted * 2 > lost_in_all && counted > 1000, "{counted} of {lost_in_all}");
    }

    /// `winning_placement` finds a win exactly where one of the legal
    /// moves empties the mover's hand, for the side to move and, through
    /// the same position with the other side to move, for its opponent.
    #[test]
    fn winning_placement_is_found_exactly_where_a_move_wins_at_once() {
        let rules = Rules::default_for(Variant::Advanced);
        let wins_at_once = |position: &Position| {
            let mut moves = MoveList::new();
            position.generate_moves(&rules, &mut moves);
            let wins: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| position.after(&rules, mv).last_mover_emptied_hand(&rules))
                .collect();
            wins
        };
        let (mut last_pod, mut won) = (0, 0);
        visit_random_games(&rules, 17, 400, |position, _| {
            let side = position.side_to_move();
            // The same position with the other side to move, where that is valid.
            let text = position.to_string();
            let mut fields: Vec<&str> = text.split(' ').collect();
            fields[1] = if side == Side::White { "b" } else { "w" };
            let flipped = Position::parse(&fields.join(" "), &rules).ok();
            for (mover, seen_from) in [(side, Some(*position)), (side.opponent(), flipped)] {
                let Some(seen_from) = seen_from else { continue };
                let wins = wins_at_once(&seen_from);
                let found = position.winning_placement(&rules, mover);
                assert_eq!(found.is_some(), !wins.is_empty(), "{seen_from}: {found:?} against {wins:?}");
                if let Some(mv) = found {
                    assert!(wins.contains(&mv), "{seen_from}: {mv}");
                    won += 1;
                }
                last_pod += usize::from(position.hand(mover).count() == 1);
            }
        });
        assert!(last_pod > 300 && won > 100, "{last_pod} positions with a last pod, {won} won at once");
    }

    #[test]
    fn pod_mobility_counts_the_step_moves_and_the_pods_with_one_liberty() {
        let rules = Rules::default_for(Variant::Advanced);
        let (mut steps_seen, mut nearly_blocked_seen) = (0, 0);
        visit_random_games(&rules, 5, 80, |position, moves| {
            let steps = moves.iter().filter(|mv| matches!(mv.kind(), MoveKind::Step { .. })).count() as u32;
            let nearly_blocked = Side::BOTH.map(|side| {
                position
                    .occupied(side)
                    .filter(|&point| {
                        let (_, pod) = position.pod_at(point).expect("occupied");
                        position.liberties(&rules, side, pod, point).count() == 1
                    })
                    .count() as u32
            });
            let mobility = position.pod_mobility(&rules);
            assert_eq!(mobility, PodMobility { moves: steps, nearly_blocked }, "{position}");
            steps_seen += steps;
            nearly_blocked_seen += nearly_blocked.iter().sum::<u32>();
        });
        assert!(steps_seen > 1_000 && nearly_blocked_seen > 100, "{steps_seen} {nearly_blocked_seen}");
    }
}
