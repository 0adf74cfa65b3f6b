//! The games Podium plays, each in its own module tree with everything that
//! is about it: types, rules, move generation, notation, hashing, evaluation
//! and its adapter to the search.
//!
//! The protocol and the command line see the games only through the
//! `Registry` (what games there are, their parameters, how to set one up)
//! and `Session` (a game in progress: positions and moves as text, the
//! result, perft, a picture, the evaluation and a search). Each game
//! implements both once.

mod linear;
pub mod pods;
pub mod poldr;
pub mod registry;

pub use registry::{GameError, GameSetup, GameType, Registry};

use std::error::Error;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::search::{
    Leaves, Limits, Progress, ProofStep, Report, SearchGame, SearchResult, Searcher, Signals, Solver, Verdict,
    build_proof_tree, build_proof_tree_from, build_refutation_trees, ceiling,
};

/// How a game ended, for any game: a game's own typed outcome seen through
/// text, as the layers above the games read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning seat (0 = the first player), `None` for a draw.
    pub winner: Option<usize>,
    /// The game's own words, as `White wins (empty hand)`.
    pub description: String,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

/// Why a move given as text was not played.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The text is not a move of this game.
    #[error(transparent)]
    Unreadable(Box<dyn Error + Send + Sync>),
    /// A move, but not one the position allows.
    #[error(transparent)]
    Illegal(Box<dyn Error + Send + Sync>),
}

impl PlayError {
    /// A move the position does not allow, for `map_err`.
    pub fn illegal(error: impl Error + Send + Sync + 'static) -> PlayError {
        PlayError::Illegal(Box::new(error))
    }
}

/// Reads a move of any game, as `Session::play` and `Session::legal_move` take it.
pub fn read_move<M: FromStr>(text: &str) -> Result<M, PlayError>
where
    M::Err: Error + Send + Sync + 'static,
{
    text.parse().map_err(|error| PlayError::Unreadable(Box::new(error)))
}

/// What `podium solve --tree` asks a game for.
#[derive(Clone, Debug)]
pub struct TreeRequest {
    /// Positions proved within this many nodes (with a cleared table of
    /// 4 MB) end the tree.
    pub leaf_nodes: u64,
    /// The table of the full proofs, in megabytes.
    pub megabytes: usize,
    /// The trees refuting the side to move's losing moves, rather than
    /// the tree of its win.
    pub refutations: bool,
    /// The side to move's winning move, known from elsewhere (a campaign's
    /// store): the tree is written from it, without proving the root again.
    pub first_move: Option<String>,
}

/// A game in progress: its start, its moves and what its history decides,
/// seen through text. Moves cross this line as notation; inside, each game
/// keeps its own typed moves.
pub trait Session: Send {
    /// A copy of the game, behind a box like this one (what `Clone` for
    /// `Box<dyn Session>` calls).
    fn box_clone(&self) -> Box<dyn Session>;
    /// The current position as a position line.
    fn position_line(&self) -> String;
    /// The position's hash key, kept up to date move by move: a position
    /// read from its own line has the same key (the conformance tests check
    /// the one against the other, which is computed from scratch).
    fn key(&self) -> u64;
    /// How many players the game has.
    fn players(&self) -> usize;
    /// The seat to move (0 = the first player).
    fn mover(&self) -> usize;
    /// The seat's name for people, as `White` or `Blue`.
    fn seat_name(&self, seat: usize) -> &'static str;
    /// The result, once the game is over (a forfeit included).
    fn outcome(&self) -> Option<Outcome>;
    /// The legal moves in notation; none once the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move given in notation, if it is legal and the game goes on.
    fn play(&mut self, text: &str) -> Result<(), PlayError>;
    /// A legal move given in notation, written as the game writes it
    /// (readers may accept other spellings).
    fn legal_move(&self, text: &str) -> Result<String, PlayError>;
    /// The mover tried an illegal move: they lose, unless the game was already over.
    fn forfeit(&mut self);
    /// A match's ply limit for the game as it stands (0: none), in games
    /// that have one (Pods); others ignore it.
    fn set_max_plies(&mut self, max_plies: u32);
    /// How many move sequences of `depth` moves the position has (perft).
    fn perft(&self, depth: u32) -> u64;
    /// perft split by first move (`depth` >= 1), each move's count handed to
    /// `each` as it is known, in generation order. Returns `false` if `stop`
    /// was set before the end.
    fn divide(&self, depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(&str, u64)) -> bool;
    /// The board for people: lines of text with coordinates, then the state.
    fn picture(&self) -> Vec<String>;
    /// The static evaluation and its terms, for people.
    fn evaluation(&self) -> String;
    /// The proof tree of the position (see `search::build_proof_tree`), or
    /// with `request.refutations` the trees that refute its losing moves
    /// (`search::build_refutation_trees`), a line for each entry: the
    /// position line, the winner's move and at most how many plies the game
    /// then lasts; `Err` where the game has none or the side to move does
    /// not win.
    fn proof_tree(&self, _request: &TreeRequest) -> Result<Vec<String>, String> {
        Err("this game has no proof trees".to_string())
    }
    /// Searches the current position, which must not be over, among
    /// `root_moves` (legal moves as `legal_move` writes them; empty: all).
    fn search(
        &self,
        searcher: &mut Searcher,
        limits: &Limits,
        root_moves: &[String],
        signals: &Signals,
        report: &mut dyn FnMut(Progress<'_, String>),
    ) -> SearchResult<String>;

    /// Proves who wins the current position with perfect play, by the
    /// proof search for solving, where the game has it (`None`: the caller
    /// proves by searching instead). The position is solved as a game that
    /// starts there: the moves before it do not count towards repetitions.
    fn solve(&self, _request: &SolveRequest, _signals: &Signals) -> Option<Solved> {
        None
    }

    /// The ceiling against random movers of the current position for a
    /// seat (`search::ceiling`): its chance to win when it plays its best
    /// and every other seat plays a uniformly random legal move; `Err` says
    /// why not (a game with repetitions, stopped before the end).
    fn ceiling(&self, _request: &CeilingRequest, _signals: &Signals) -> Result<CeilingReport, String> {
        Err("this game has no ceiling against random movers".to_string())
    }
}

/// What `Session::ceiling` is asked.
#[derive(Clone, Copy, Debug)]
pub struct CeilingRequest {
    /// The seat whose chance it is (0 = the first player).
    pub seat: usize,
    /// The memory of the table of values, in megabytes.
    pub megabytes: usize,
    /// Stop after this many positions.
    pub max_nodes: Option<u64>,
}

/// What `Session::ceiling` found, moves in notation.
#[derive(Clone, Debug)]
pub struct CeilingReport {
    /// The seat's chance to win against random movers, playing its best.
    pub chance: f64,
    /// Where the seat is to move: each legal move's chance, best first.
    pub moves: Vec<(String, f64)>,
    /// Positions worked out.
    pub nodes: u64,
}

/// What `Session::solve` is asked: the tables' memory, the limits (nodes
/// and time), and whether to write out the proof tree.
#[derive(Clone, Debug, Default)]
pub struct SolveRequest {
    /// The memory of the proof tables, in megabytes.
    pub megabytes: usize,
    /// Nodes and time (the other limits are ignored).
    pub limits: Limits,
    /// Whether to write out the proof tree (`Solved::certificate`).
    pub certificate: bool,
    /// Only where this proof search proves more than the game's search
    /// with proofs (docs/solving.md): `Session::solve` is `None` elsewhere.
    pub where_better: bool,
}

/// What `Session::solve` found.
#[derive(Clone, Debug)]
pub struct Solved {
    /// For the side to move.
    pub verdict: Verdict,
    /// The winning seat, after a win or a loss.
    pub winner: Option<usize>,
    /// Plies to the end along the proof (an upper bound on the quickest win).
    pub plies: u32,
    /// The proof's line in notation: the winner's moves, the loser's longest resistance.
    pub line: Vec<String>,
    /// Positions visited.
    pub nodes: u64,
    /// The proof tree as a certificate (docs/solving.md), when asked for
    /// and the position was won or lost: its lines, or why it could not be written.
    pub certificate: Option<Result<Vec<String>, String>>,
    /// The tables' size in megabytes, where they are smaller than asked
    /// (the memory could not be had).
    pub megabytes_if_short: Option<usize>,
}

impl Clone for Box<dyn Session> {
    fn clone(&self) -> Box<dyn Session> {
        self.box_clone()
    }
}

/// Searches `root` with a game's typed moves and reports in notation, for
/// `Session::search`. It keeps the promises that need the game's rules: at
/// least one report, every PV move legal, the last PV starting with the
/// move returned, and a legal move returned whenever there is one. (The
/// protocol's `report::search_and_report` then keeps those of the
/// protocol: lines, the ponder move, a finished game.)
/// `history` holds the keys of the game's positions before `root`;
/// `root_moves` the moves to search, in notation (empty: all).
#[allow(clippy::too_many_arguments)]
pub fn search_in_notation<G: SearchGame>(
    game: &G,
    root: &G::Position,
    history: &[u64],
    searcher: &mut Searcher,
    limits: &Limits,
    root_moves: &[String],
    signals: &Signals,
    report: &mut dyn FnMut(Progress<'_, String>),
) -> SearchResult<String> {
    let started = Instant::now();
    let mut legal = Vec::new();
    game.legal_moves(root, &mut legal);
    let allowed: Vec<G::Move> = legal.into_iter().filter(|mv| root_moves.contains(&mv.to_string())).collect();
    let mut last_reported: Option<Report<String>> = None;
    let result = searcher.search(game, root, history, limits, &allowed, signals, |progress| match progress {
        Progress::Line(found) => {
            let text = Report {
                multipv: found.multipv,
                depth: found.depth,
                seldepth: found.seldepth,
                score: found.score,
                nodes: found.nodes,
                elapsed: found.elapsed,
                hashfull: found.hashfull,
                pv: legal_prefix(game, root, &found.pv),
            };
            report(Progress::Line(&text));
            if text.multipv == 1 {
                last_reported = Some(text);
            }
        }
        Progress::CurrentMove { depth, mv, number } => {
            report(Progress::CurrentMove { depth, mv: mv.to_string(), number })
        }
        Progress::Note(text) => report(Progress::Note(text)),
    });
    let best = result.best_move.filter(|&mv| game.is_legal(root, mv)).or_else(|| {
        let first = allowed.first().copied().or_else(|| first_legal_move(game, root));
        if first.is_some() {
            log::error!("the search returned no legal move ({:?}): playing the first legal move", result.best_move);
        }
        first
    });
    let best_text = best.map(|mv| mv.to_string());
    // Stopped before the first iteration, or a PV that lost its head: say
    // what is known, so the last PV starts with the move played.
    if last_reported.as_ref().and_then(|last| last.pv.first()) != best_text.as_ref() {
        report(Progress::Line(&Report {
            multipv: 1,
            depth: result.depth,
            seldepth: last_reported.as_ref().map_or(result.depth, |last| last.seldepth),
            score: result.score,
            nodes: result.nodes,
            elapsed: started.elapsed(),
            hashfull: last_reported.as_ref().map_or(0, |last| last.hashfull),
            pv: best_text.iter().cloned().collect(),
        }));
    }
    SearchResult { best_move: best_text, score: result.score, depth: result.depth, nodes: result.nodes }
}

/// The longest start of `pv` that the game accepts move after move, in notation.
fn legal_prefix<G: SearchGame>(game: &G, root: &G::Position, pv: &[G::Move]) -> Vec<String> {
    let mut position = *root;
    let mut legal = Vec::new();
    for &mv in pv {
        if !game.is_legal(&position, mv) {
            break;
        }
        legal.push(mv.to_string());
        position = game.play(&position, mv);
    }
    legal
}

/// `Session::proof_tree` for a game: the tree of `root` (see
/// `search::build_proof_tree`, from `request.first_move` with
/// `search::build_proof_tree_from`, or with `request.refutations`
/// `search::build_refutation_trees`), with these `leaves`, a line for each entry: the position line,
/// the winner's move and at most how many plies the game then lasts.
pub(crate) fn proof_tree_lines<G: SearchGame>(
    game: &G,
    root: &G::Position,
    leaves: Leaves,
    request: &TreeRequest,
) -> Result<Vec<String>, String>
where
    G::Position: fmt::Display,
    G::Move: fmt::Display,
{
    let entries = match (&request.first_move, request.refutations) {
        (Some(_), true) => return Err("a first move and the refutations: one tree or the other".to_string()),
        (Some(first), false) => {
            let mut moves = Vec::new();
            game.legal_moves(root, &mut moves);
            let mv = moves
                .into_iter()
                .find(|mv| mv.to_string() == *first)
                .ok_or_else(|| format!("first move {first}: not a legal move here"))?;
            build_proof_tree_from(game, root, mv, leaves, request.megabytes)?
        }
        (None, true) => build_refutation_trees(game, root, leaves, request.megabytes)?,
        (None, false) => build_proof_tree(game, root, leaves, request.megabytes)?,
    };
    Ok(entries.iter().map(|entry| format!("{} {} {}", entry.position, entry.mv, entry.plies)).collect())
}

/// The first move the game allows, for when the search has none to give.
pub(crate) fn first_legal_move<G: SearchGame>(game: &G, position: &G::Position) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(position, &mut moves);
    moves.first().copied()
}

/// `Session::ceiling` for a game: `search::ceiling` of `root`, its moves in notation.
pub(crate) fn ceiling_in_notation<G: SearchGame>(
    game: &G,
    root: &G::Position,
    request: &CeilingRequest,
    signals: &Signals,
) -> Result<CeilingReport, String>
where
    G::Move: fmt::Display,
{
    if request.seat >= game.players(root) {
        return Err(format!("seat {} of a game of {} players", request.seat + 1, game.players(root)));
    }
    let answer = ceiling(game, root, request.seat, request.megabytes, request.max_nodes, signals)
        .map_err(|error| error.to_string())?;
    let moves = answer.moves.iter().map(|(mv, chance)| (mv.to_string(), *chance)).collect();
    Ok(CeilingReport { chance: answer.chance, moves, nodes: answer.nodes })
}

/// Solves `root` for `Session::solve`: the verdict, the line in notation,
/// and where asked the certificate, its header lines given (`header`) and
/// each position written by `position_line`.
pub fn solve_in_notation<G: SearchGame>(
    game: &G,
    root: &G::Position,
    request: &SolveRequest,
    signals: &Signals,
    header: &[String],
    position_line: impl Fn(&G::Position) -> String,
    seat_name: impl Fn(usize) -> String,
) -> Solved {
    let mut solver = Solver::new(request.megabytes);
    let solution = solver.solve(game, root, &request.limits, signals);
    let mover = game.mover(root);
    let other = (0..game.players(root)).find(|&seat| seat != mover);
    let winner = match solution.verdict {
        Verdict::Win => Some(mover),
        Verdict::Loss => other,
        Verdict::Draw | Verdict::Unknown => None,
    };
    let certificate = (request.certificate && winner.is_some()).then(|| {
        let tree = solver.proof_tree(game, root, &solution, &request.limits, signals);
        match tree {
            None => Err("no proof tree: the position is not won or lost".to_string()),
            Some(Err(error)) => Err(format!("the proof tree could not be written: {error:?}")),
            Some(Ok(tree)) => {
                let mut lines = header.to_vec();
                lines.push(format!("root {}", position_line(root)));
                lines.push(format!("winner {}", seat_name(tree.winner)));
                lines.push(format!("plies {}", tree.plies));
                // The root's step first, then the rest as the proof met them (leaves first).
                for (position, step) in tree.steps.iter().rev() {
                    match step {
                        ProofStep::Move(mv) => lines.push(format!("move {} {mv}", position_line(position))),
                        ProofStep::Leaf(plies) => lines.push(format!("leaf {} {plies}", position_line(position))),
                    }
                }
                lines.push("end".to_string());
                Ok(lines)
            }
        }
    });
    Solved {
        verdict: solution.verdict,
        winner,
        plies: solution.plies,
        line: legal_prefix(game, root, &solution.line),
        nodes: solution.nodes,
        certificate,
        megabytes_if_short: solver.megabytes_if_short(),
    }
}
