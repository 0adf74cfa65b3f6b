//! How many placements each side has left in the standard game: sound
//! bounds for proofs, and cheap estimates of the same for the evaluation.
//!
//! In the standard game a side's legal placements only ever shrink: points
//! fill up, attacked points and opponent pods only grow, hands only empty.
//! So every placement a side will make is one it could make now (as if it
//! were its turn), and no two of them share a pod or a point: the largest
//! matching of its hand's pods to the points they fit is an upper bound on
//! the placements it has left. Some placements are also beyond the
//! opponent's reach: a point the opponent can neither take nor attack, for
//! a pod that will never attack a point the opponent could use, with a
//! liberty nobody will fill. Those are a lower bound. A side to move that
//! can count on more placements than the other can ever make wins; one that
//! can make no more than the other can count on loses.

use super::pods::{MAX_PODS, Pod};
use super::position::Position;
use super::ruleset::{Geometry, Rules, Variant};
use super::types::{Bitboard, Direction, POINTS, SIZE, Side};

/// The placements one side could make now, pod by pod, and what they touch.
pub struct Prospects {
    pods: [Pod; MAX_PODS],
    targets: [Bitboard; MAX_PODS],
    count: usize,
    /// Every point some pod could be placed on.
    points: Bitboard,
    /// Every point some placement would attack.
    attacks: Bitboard,
}

impl Prospects {
    pub fn of(rules: &Rules, position: &Position, side: Side) -> Prospects {
        let geometry = rules.geometry(position.rotation());
        let mut prospects = Prospects {
            pods: [Pod::from_index(0).expect("pod A"); MAX_PODS],
            targets: [Bitboard::EMPTY; MAX_PODS],
            count: 0,
            points: Bitboard::EMPTY,
            attacks: Bitboard::EMPTY,
        };
        // Targets gathered by leg, so each direction is spread once.
        let (mut short_from, mut long_from) = ([Bitboard::EMPTY; 8], [Bitboard::EMPTY; 8]);
        position.placements_for(side, position.hand(side), |pod, targets| {
            if targets.is_empty() {
                return;
            }
            prospects.pods[prospects.count] = pod;
            prospects.targets[prospects.count] = targets;
            prospects.count += 1;
            prospects.points |= targets;
            let legs = rules.legs[side.index()][pod.index()];
            for dir in 0..8 {
                if legs.long & (1 << dir) != 0 {
                    long_from[dir] |= targets;
                } else if legs.all & (1 << dir) != 0 {
                    short_from[dir] |= targets;
                }
            }
        });
        for direction in Direction::ALL {
            let dir = direction.index();
            let links = geometry.links[dir];
            let back = direction.reverse();
            prospects.attacks |= (short_from[dir] & links).pull(back);
            // A long leg attacks along its line for as long as the line goes.
            let mut ray = (long_from[dir] & links).pull(back);
            for _ in 1..SIZE {
                prospects.attacks |= ray;
                ray = (ray & links).pull(back);
            }
        }
        prospects
    }

    /// The largest number of placements these prospects allow (a sound bound).
    pub fn most(&self) -> u32 {
        largest_matching(&self.targets[..self.count])
    }

    /// At most `least`, cheaply: a point counted on is one the other side
    /// can neither take nor attack, and the matching takes at most one
    /// pod a point. Lets `standard_verdict` skip the secure targets where
    /// they cannot decide.
    fn least_at_most(&self, other: &Prospects) -> u32 {
        let untouchable = !(other.points | other.attacks);
        let mut points = Bitboard::EMPTY;
        let mut pods = 0;
        for targets in &self.targets[..self.count] {
            let candidates = *targets & untouchable;
            points |= candidates;
            pods += u32::from(!candidates.is_empty());
        }
        pods.min(points.count())
    }

    /// The placements `side`, with these prospects, can count on whatever
    /// the other side, with `other`, does (a sound bound).
    fn least(&self, rules: &Rules, position: &Position, side: Side, other: &Prospects) -> u32 {
        largest_matching(&secure_targets(rules, position, side, self, other)[..self.count])
    }
}

/// For each of `side`'s pods, the points it can count on whatever `other`
/// does: points the other can neither take nor attack, where the pod would
/// never attack a point the other could take, with a liberty that neither
/// the other nor these placements themselves will fill.
fn secure_targets(
    rules: &Rules,
    position: &Position,
    side: Side,
    ours: &Prospects,
    other: &Prospects,
) -> [Bitboard; MAX_PODS] {
    let geometry = rules.geometry(position.rotation());
    let untouchable = !(other.points | other.attacks);
    let hits = direction_masks(geometry, other.points, false);
    let long_hits = direction_masks(geometry, other.points, true);
    let mut candidates = [Bitboard::EMPTY; MAX_PODS];
    let mut candidate_points = Bitboard::EMPTY;
    let pods = ours.pods.iter().zip(ours.targets).take(ours.count);
    for (candidate, (pod, targets)) in candidates.iter_mut().zip(pods) {
        let legs = rules.legs[side.index()][pod.index()];
        let mut hit = Bitboard::EMPTY;
        for dir in 0..8 {
            if legs.long & (1 << dir) != 0 {
                hit |= long_hits[dir];
            } else if legs.all & (1 << dir) != 0 {
                hit |= hits[dir];
            }
        }
        *candidate = targets & untouchable & !hit;
        candidate_points |= *candidate;
    }
    let lasting = position.empty() & !other.points & !candidate_points;
    let liberties = direction_masks(geometry, lasting, false);
    for (candidate, pod) in candidates.iter_mut().zip(&ours.pods[..ours.count]) {
        let legs = rules.legs[side.index()][pod.index()];
        let mut with_liberty = Bitboard::EMPTY;
        for (dir, liberty) in liberties.iter().enumerate() {
            if legs.all & (1 << dir) != 0 {
                with_liberty |= *liberty;
            }
        }
        *candidate &= with_liberty;
    }
    candidates
}

/// For each direction, the points from which a leg in that direction
/// reaches a point of `set`: one step, or with `long` along the line.
fn direction_masks(geometry: &Geometry, set: Bitboard, long: bool) -> [Bitboard; 8] {
    let mut masks = [Bitboard::EMPTY; 8];
    for direction in Direction::ALL {
        let dir = direction.index();
        masks[dir] =
            if long { geometry.long_leg_hits(direction, set) } else { geometry.links[dir] & set.pull(direction) };
    }
    masks
}

/// The largest set of (pod, point) pairs with no pod and no point twice.
fn largest_matching(targets: &[Bitboard]) -> u32 {
    const FREE: u8 = u8::MAX;
    let mut holder = [FREE; POINTS];
    let mut matched = 0;
    for pod in 0..targets.len() {
        let mut seen = Bitboard::EMPTY;
        if augment(pod, targets, &mut holder, &mut seen) {
            matched += 1;
        }
    }
    matched
}

/// Kuhn's augmenting path from `pod`: a point for it, moving earlier pods along if need be.
fn augment(pod: usize, targets: &[Bitboard], holder: &mut [u8; POINTS], seen: &mut Bitboard) -> bool {
    for point in targets[pod] & !*seen {
        *seen |= point.bit();
        let current = holder[point.index()];
        if current == u8::MAX || augment(current as usize, targets, holder, seen) {
            holder[point.index()] = pod as u8;
            return true;
        }
    }
    false
}

/// Who wins a standard position with the side to move not yet out of
/// placements, when the bounds decide it: `Some(true)` if the side to
/// move wins, `Some(false)` if it loses, with at most how many more plies
/// the game lasts.
pub fn standard_verdict(rules: &Rules, position: &Position) -> Option<(bool, u32)> {
    if rules.variant() != Variant::Standard || position.is_first_move() {
        return None;
    }
    let us = position.side_to_move();
    let them = us.opponent();
    let ours = Prospects::of(rules, position, us);
    let theirs = Prospects::of(rules, position, them);
    // Each test first against a cheap bound, which mostly settles it: the
    // matchings and the secure targets only where they can decide.
    let our_bound = ours.least_at_most(&theirs);
    if our_bound > 0 {
        let their_most = theirs.most();
        if our_bound > their_most && ours.least(rules, position, us, &theirs) > their_most {
            // They run out by their (their_most + 1)th turn.
            return Some((true, 2 * their_most + 1));
        }
    }
    let their_bound = theirs.least_at_most(&ours);
    if their_bound == 0 {
        // Only a side with no placement at all makes none more.
        return (ours.count == 0).then_some((false, 0));
    }
    let our_most = ours.most();
    if our_most <= their_bound && our_most <= theirs.least(rules, position, them, &ours) {
        // We run out by our (our_most + 1)th turn.
        return Some((false, 2 * our_most));
    }
    None
}

/// Placements a side can make at most (the sound bound).
pub fn most_placements(rules: &Rules, position: &Position, side: Side) -> u32 {
    Prospects::of(rules, position, side).most()
}

/// Placements a side can count on whatever the other does (the sound bound).
pub fn least_placements(rules: &Rules, position: &Position, side: Side) -> u32 {
    let theirs = Prospects::of(rules, position, side.opponent());
    Prospects::of(rules, position, side).least(rules, position, side, &theirs)
}

/// For the evaluation, cheaply: about how many placements `side` can
/// count on (pods with a secure point, at most one a point), given both
/// sides' prospects.
pub fn secure_estimate(rules: &Rules, position: &Position, side: Side, ours: &Prospects, other: &Prospects) -> u32 {
    let secure = secure_targets(rules, position, side, ours, other);
    let mut points = Bitboard::EMPTY;
    let mut pods = 0;
    for targets in &secure[..ours.count] {
        points |= *targets;
        pods += u32::from(!targets.is_empty());
    }
    pods.min(points.count())
}
