//! Sound bounds on how a standard game ends, for proofs.
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
use super::ruleset::{Rules, Variant};
use super::types::{Bitboard, POINTS, Side};

/// The placements one side could make now, pod by pod.
struct Reach {
    pods: [Pod; MAX_PODS],
    targets: [Bitboard; MAX_PODS],
    count: usize,
    /// Every point some pod could be placed on.
    points: Bitboard,
    /// Every point some placement would attack.
    attacks: Bitboard,
}

impl Reach {
    fn of(rules: &Rules, position: &Position, side: Side) -> Reach {
        let geometry = rules.geometry(position.rotation());
        let mut reach = Reach {
            pods: [Pod::from_index(0).expect("pod A"); MAX_PODS],
            targets: [Bitboard::EMPTY; MAX_PODS],
            count: 0,
            points: Bitboard::EMPTY,
            attacks: Bitboard::EMPTY,
        };
        position.placements_for(rules, side, position.hand(side), |pod, targets| {
            if targets.is_empty() {
                return;
            }
            reach.pods[reach.count] = pod;
            reach.targets[reach.count] = targets;
            reach.count += 1;
            reach.points |= targets;
            for to in targets {
                reach.attacks |= geometry.attacks[side.index()][pod.index()][to.index()];
            }
        });
        reach
    }
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

/// How many placements `side` can make whatever `other` does, given what
/// `other` could ever reach.
fn secure_placements(rules: &Rules, position: &Position, side: Side, ours: &Reach, other: &Reach) -> u32 {
    let geometry = rules.geometry(position.rotation());
    let empty = position.empty();
    // Points the other side can neither take nor attack.
    let untouchable = !(other.points | other.attacks);
    let mut candidates = [Bitboard::EMPTY; MAX_PODS];
    let mut candidate_points = Bitboard::EMPTY;
    let pods = ours.pods.iter().zip(ours.targets).take(ours.count);
    for (candidate, (pod, targets)) in candidates.iter_mut().zip(pods) {
        for to in targets & untouchable {
            let attacks = geometry.attacks[side.index()][pod.index()][to.index()];
            if (attacks & other.points).is_empty() {
                *candidate |= to.bit();
            }
        }
        candidate_points |= *candidate;
    }
    // A liberty must stay empty: not a point the other side could take, nor
    // one of the points these placements use.
    let lasting_liberties = empty & !other.points & !candidate_points;
    for (candidate, pod) in candidates.iter_mut().zip(&ours.pods[..ours.count]) {
        let first_steps = &geometry.first_steps[side.index()][pod.index()];
        let mut keep = Bitboard::EMPTY;
        for to in *candidate {
            if !(first_steps[to.index()] & lasting_liberties).is_empty() {
                keep |= to.bit();
            }
        }
        *candidate = keep;
    }
    largest_matching(&candidates[..ours.count])
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
    let ours = Reach::of(rules, position, us);
    let theirs = Reach::of(rules, position, them);
    let their_most = largest_matching(&theirs.targets[..theirs.count]);
    let our_least = secure_placements(rules, position, us, &ours, &theirs);
    if our_least > their_most {
        // They run out by their (their_most + 1)th turn.
        return Some((true, 2 * their_most + 1));
    }
    let our_most = largest_matching(&ours.targets[..ours.count]);
    let their_least = secure_placements(rules, position, them, &theirs, &ours);
    if our_most <= their_least {
        // We run out by our (our_most + 1)th turn.
        return Some((false, 2 * our_most));
    }
    None
}

/// Placements a side can make at most, for tests of the bound.
pub fn most_placements(rules: &Rules, position: &Position, side: Side) -> u32 {
    let reach = Reach::of(rules, position, side);
    largest_matching(&reach.targets[..reach.count])
}

/// Placements a side can count on, for tests of the bound.
pub fn least_placements(rules: &Rules, position: &Position, side: Side) -> u32 {
    let ours = Reach::of(rules, position, side);
    let theirs = Reach::of(rules, position, side.opponent());
    secure_placements(rules, position, side, &ours, &theirs)
}
