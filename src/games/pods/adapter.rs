//! Pods as the search sees it: its rules, its knowledge (the evaluation,
//! move order, proofs and clock) and the search's settings for it.

use std::sync::Arc;

use super::eval::{EvalTerms, evaluate, evaluate_terms};
use super::features::Weights;
use super::tunables::TUNABLES;
use super::{Move, Position, Rules, Side, Variant, most_placements, standard_verdict};
use crate::search::{Decided, GameKnowledge, GameRules, Policy, SearchGame};

/// Pods for the search: the rules plus what a match adds (a ply limit).
pub struct PodsAdapter {
    rules: Arc<Rules>,
    max_plies: u32,
    weights: Weights,
}

impl PodsAdapter {
    /// The game of `rules` with a match's ply limit (0: none), evaluated
    /// with the variant's weights.
    pub fn new(rules: Arc<Rules>, max_plies: u32) -> PodsAdapter {
        PodsAdapter { weights: TUNABLES.weights(rules.variant()), rules, max_plies }
    }

    /// The same game evaluated with other weights, for tuning.
    pub(crate) fn with_weights(mut self, weights: Weights) -> PodsAdapter {
        self.weights = weights;
        self
    }

    /// The static evaluation's terms, for people (the `eval` command).
    pub(crate) fn evaluate_terms(&self, position: &Position) -> EvalTerms {
        evaluate_terms(&self.rules, position, &self.weights).0
    }
}

impl GameRules for PodsAdapter {
    type Position = Position;
    type Move = Move;

    fn hash(&self, position: &Position) -> u64 {
        position.hash()
    }

    fn players(&self, _: &Position) -> usize {
        2
    }

    fn mover(&self, position: &Position) -> usize {
        position.side_to_move().index()
    }

    fn legal_moves(&self, position: &Position, moves: &mut Vec<Move>) {
        position.for_each_move(&self.rules, |mv| moves.push(mv));
    }

    fn play(&self, position: &Position, mv: Move) -> Position {
        position.after(&self.rules, mv)
    }

    fn play_into(&self, position: &Position, mv: Move, child: &mut Position) {
        child.become_after(position, &self.rules, mv);
    }

    fn child_hash_hint(&self, position: &Position, mv: Move) -> Option<u64> {
        Some(position.hash_after(&self.rules, mv))
    }

    fn is_legal(&self, position: &Position, mv: Move) -> bool {
        position.check(&self.rules, mv).is_ok()
    }

    /// A side with no legal action has lost (an emptied hand wins the
    /// game for the side that just moved, which leaves the other none).
    fn winner(&self, position: &Position) -> Option<usize> {
        Some(position.side_to_move().opponent().index())
    }

    fn is_draw(&self, position: &Position) -> bool {
        self.max_plies > 0 && position.ply() >= self.max_plies
    }

    fn repetition_is_draw(&self) -> bool {
        self.rules.variant() == Variant::Advanced
    }

    fn move_to_bits(mv: Move) -> u16 {
        mv.to_bits()
    }

    fn move_from_bits(bits: u16) -> Option<Move> {
        Move::from_bits(bits)
    }
}

impl GameKnowledge for PodsAdapter {
    fn evaluate(&self, position: &Position, player: usize) -> Option<i32> {
        let score = evaluate(&self.rules, position, &self.weights)?;
        Some(if player == position.side_to_move().index() { score } else { -score })
    }

    /// Advanced: the side to move's last pod placed where it wins (not
    /// where a match's ply limit draws the game first).
    fn winning_move(&self, position: &Position) -> Option<Move> {
        if self.max_plies > 0 && position.ply() + 1 >= self.max_plies {
            return None;
        }
        position.winning_placement(&self.rules, position.side_to_move())
    }

    /// Advanced: the opponent could place its last pod where it wins.
    fn win_threatened(&self, position: &Position) -> bool {
        position.winning_placement(&self.rules, position.side_to_move().opponent()).is_some()
    }

    /// Standard: placements that shut the opponent out of the most points
    /// first, among moves history does not tell apart.
    fn order_hint(&self, position: &Position, mv: Move) -> i32 {
        match self.rules.variant() {
            Variant::Standard => {
                TUNABLES.hint_per_closed_point * position.points_closed_to_opponent(&self.rules, mv) as i32
            }
            Variant::Advanced => 0,
        }
    }

    /// Moves that leave the opponent worst off first: its fewest replies
    /// make the quickest refutations too.
    fn proof_priority(&self, _: &Position, _: Move, child: &Position) -> i32 {
        -(child.count_moves(&self.rules) as i32)
    }

    /// Advanced: the pods the player has in hand, each to be placed before
    /// it can win.
    fn proof_cost(&self, position: &Position, player: usize) -> u32 {
        match self.rules.variant() {
            Variant::Standard => 1,
            Variant::Advanced => position.hand(Side::BOTH[player]).count().max(1),
        }
    }

    fn move_count(&self, position: &Position) -> usize {
        position.count_moves(&self.rules) as usize
    }

    fn decided(&self, position: &Position) -> Option<Decided> {
        let (mover_wins, plies) = standard_verdict(&self.rules, position)?;
        let mover = position.side_to_move();
        let winner = if mover_wins { mover } else { mover.opponent() };
        Some(Decided { winner: winner.index(), plies })
    }

    /// Standard: every ply is a placement that a side could make now.
    fn plies_left_bound(&self, position: &Position) -> Option<u32> {
        (self.rules.variant() == Variant::Standard)
            .then(|| Side::BOTH.into_iter().map(|side| most_placements(&self.rules, position, side)).sum())
    }

    /// The proof books of the standard game's proved 4-ply openings
    /// (`book.rs`), where the game ends, as the proof says, before a
    /// match's ply limit.
    fn known_win(&self, position: &Position) -> Option<(Move, u32)> {
        let (mv, plies) = super::book::known_win(&self.rules, position)?;
        (self.max_plies == 0 || position.ply().saturating_add(plies) < self.max_plies).then_some((mv, plies))
    }

    fn expected_moves_left(&self, position: &Position) -> u32 {
        let in_hand = position.hand(position.side_to_move()).count();
        match self.rules.variant() {
            // The moves that count are those before the game is decided:
            // about half the placements left above `decided_at` are ours.
            Variant::Standard => {
                let placements_left = self.plies_left_bound(position).unwrap_or(0);
                (placements_left.saturating_sub(TUNABLES.decided_at) / 2)
                    .max(TUNABLES.fewest_moves_left)
                    .min(in_hand.max(1))
            }
            // Pods come back to hand and move about: games run longer.
            Variant::Advanced => TUNABLES.advanced_moves_left + TUNABLES.advanced_moves_per_pod * in_hand,
        }
    }
}

impl SearchGame for PodsAdapter {
    /// The settings of this variant, as `Tunables` gives them with their reasons.
    fn policy(&self) -> Policy {
        let futility_pruning = match self.rules.variant() {
            Variant::Standard => TUNABLES.standard_futility_pruning,
            Variant::Advanced => TUNABLES.advanced_futility_pruning,
        };
        Policy {
            history_malus: TUNABLES.history_malus,
            futility_pruning,
            proof_horizon: TUNABLES.proof_horizon,
            dedicated_proof_horizon: TUNABLES.dedicated_proof_horizon,
            proof_lookahead: TUNABLES.proof_lookahead,
            verdicts_in_search: TUNABLES.verdicts_in_search,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pods::{MoveList, Rotation};
    use crate::search::{Limits, Progress, Score, Searcher, Signals};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    /// Plays `moves` from the start of a standard game.
    fn standard_after(moves: &str) -> (PodsAdapter, Position) {
        let rules = Arc::new(Rules::default_for(Variant::Standard));
        let mut position = Position::start(&rules, Rotation::R0);
        for text in moves.split_whitespace() {
            position.try_play(&rules, text.parse().expect("a move")).expect("legal");
        }
        (PodsAdapter::new(rules, 0), position)
    }

    #[test]
    fn standard_clock_is_shared_over_the_moves_before_the_game_is_decided() {
        let (game, start) = standard_after("");
        let full_hand = start.hand(Side::White).count();
        let early = game.expected_moves_left(&start);
        assert!(early <= full_hand / 2 && early > TUNABLES.fewest_moves_left, "{early} of {full_hand}");

        // 13 plies of a match game: few placements left on either side.
        let (game, late) = standard_after("B@e6 L@c5 N@a1 N@b5 J@d3 G@c4 G@d2 B@e3 E@f3 A@b3 K@f6 C@b4 I@c2");
        let left = game.plies_left_bound(&late).unwrap();
        assert!(left < TUNABLES.decided_at + 2 * TUNABLES.fewest_moves_left, "{left} placements left");
        assert_eq!(game.expected_moves_left(&late), TUNABLES.fewest_moves_left);
    }

    /// Where every move of the side to move leaves the opponent a
    /// placement that wins at once, a search one ply deep already sees the
    /// loss: the win a ply past its leaves is found before they are scored.
    #[test]
    fn a_search_one_ply_deep_sees_a_win_at_once_past_its_leaves() {
        let rules = Arc::new(Rules::default_for(Variant::Advanced));
        let game = PodsAdapter::new(rules.clone(), 0);
        let mut searcher = Searcher::new(4);
        let limits = Limits { depth: Some(1), ..Limits::default() };
        let mut lost = 0;
        super::super::position::visit_random_games(&rules, 23, 400, |position, moves| {
            let them = position.side_to_move().opponent();
            if !moves.iter().all(|&mv| position.after(&rules, mv).winning_placement(&rules, them).is_some()) {
                return;
            }
            searcher.clear();
            let result = searcher.search(&game, position, &[], &limits, &[], &Signals::default(), |_| {});
            assert_eq!(result.score, Score::Mate(-1), "{position}");
            lost += 1;
        });
        assert!(lost >= 10, "{lost} positions lost at once");
    }

    /// Where the side to move has a placement after which its last pod
    /// threatens to win at once and every answer leaves that win, a search
    /// one ply deep of that placement alone already sees the win: the
    /// threatened side's answers are searched a ply past the leaves.
    #[test]
    fn a_search_one_ply_deep_sees_a_threat_that_cannot_be_answered() {
        let rules = Arc::new(Rules::default_for(Variant::Advanced));
        let game = PodsAdapter::new(rules.clone(), 0);
        let mut searcher = Searcher::new(4);
        let limits = Limits { depth: Some(1), ..Limits::default() };
        let mut won = 0;
        super::super::position::visit_random_games(&rules, 29, 400, |position, moves| {
            let us = position.side_to_move();
            if position.winning_placement(&rules, us).is_some() {
                return;
            }
            let unanswerable = |mv: Move| {
                let after = position.after(&rules, mv);
                let mut answers = MoveList::new();
                after.generate_moves(&rules, &mut answers);
                after.winning_placement(&rules, us.opponent()).is_none()
                    && after.winning_placement(&rules, us).is_some()
                    && !answers.is_empty()
                    && answers.iter().all(|&answer| after.after(&rules, answer).winning_placement(&rules, us).is_some())
            };
            let Some(&threat) = moves.iter().find(|&&mv| unanswerable(mv)) else { return };
            searcher.clear();
            let result = searcher.search(&game, position, &[], &limits, &[threat], &Signals::default(), |_| {});
            assert!(matches!(result.score, Score::Mate(n) if n > 0), "{position}: {:?}", result.score);
            won += 1;
        });
        assert!(won >= 10, "{won} positions won by a threat");
    }

    /// How much the score changes, on average, from an even depth to the
    /// next odd one, less the same from an odd depth to the next even one,
    /// searching standard positions two random plies into the game to `DEPTH`.
    /// An evaluation that leans to the side to move, or away from it, makes
    /// the scores swing between odd and even depths, and this figure large.
    fn odd_even_swing(weights: Weights) -> f64 {
        const DEPTH: u32 = 6;
        let rules = Arc::new(Rules::default_for(Variant::Standard));
        let game = PodsAdapter::new(rules.clone(), 0).with_weights(weights);
        let mut random = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut searcher = Searcher::new(4);
        let limits = Limits { depth: Some(DEPTH), ..Limits::default() };
        let mut changes = [Vec::new(), Vec::new()];
        for opening in 0..16 {
            let mut position = Position::start(&rules, Rotation::ALL[opening % 4]);
            for _ in 0..2 {
                let mut moves = MoveList::new();
                position.generate_moves(&rules, &mut moves);
                position.play_unchecked(&rules, moves[(random.next_u64() % moves.len() as u64) as usize]);
            }
            searcher.clear();
            let mut scores = vec![None; DEPTH as usize + 1];
            searcher.search(&game, &position, &[], &limits, &[], &Signals::default(), |progress| {
                if let Progress::Line(report) = progress
                    && let Score::Centipawns(score) = report.score
                {
                    scores[report.depth as usize] = Some(score);
                }
            });
            for depth in 2..=DEPTH as usize {
                if let (Some(before), Some(after)) = (scores[depth - 1], scores[depth]) {
                    changes[depth % 2].push(f64::from(after - before));
                }
            }
        }
        let mean = |values: &[f64]| values.iter().sum::<f64>() / values.len() as f64;
        mean(&changes[1]) - mean(&changes[0])
    }

    #[test]
    fn standard_scores_do_not_swing_between_odd_and_even_depths() {
        let shipped = TUNABLES.weights(Variant::Standard);
        let swing = odd_even_swing(shipped);
        // Without the contested points, the side to move's next placement
        // goes uncounted, and the scores swing.
        let without = odd_even_swing(shipped.with_text("contested_points=0").unwrap());
        assert!(without > 400.0, "without contested points: {without}");
        assert!(swing.abs() * 4.0 < without, "{swing} with contested points, {without} without");
    }
}
