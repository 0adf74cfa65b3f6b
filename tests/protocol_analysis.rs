//! What analysts use through the real binary, for both games: MultiPV,
//! `go searchmoves`, `go mate`, pondering, `currmove`, `Clear Hash` and
//! `debug`.

mod protocol_common;

use std::time::{Duration, Instant};

use protocol_common::{CURRMOVE_FORM, EngineProcess, INFO_FORM, REPLY_TIMEOUT, check_search_output, has_form};

/// A Pods game in progress and a POLD.R one, each as the lines that set it up.
const GAMES: [[&str; 2]; 2] = [
    ["newgame standard", "position startpos moves A@c1 n@d5"],
    ["newgame poldr size 6", "position startpos moves Pc3Mc5 Ma1"],
];

fn engine_at(setup: &[&str]) -> EngineProcess {
    let mut engine = EngineProcess::start();
    for line in setup {
        engine.send(line);
    }
    engine
}

/// The words after `key` in an info line, up to the next key word.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split(&format!(" {key} ")).nth(1).and_then(|rest| rest.split(' ').next())
}

/// A score's place in the order of scores: any win above any centipawns,
/// quicker wins higher, slower losses higher.
fn score_rank(line: &str) -> i64 {
    let rest = line.split(" score ").nth(1).expect("a score");
    let mut words = rest.split(' ');
    let (kind, value): (&str, i64) = (words.next().unwrap(), words.next().unwrap().parse().unwrap());
    match kind {
        "cp" => value,
        "mate" if value > 0 => 1_000_000 - value,
        "mate" => -1_000_000 - value,
        _ => panic!("{line}"),
    }
}

#[test]
fn multipv_reports_the_best_lines_at_every_depth() {
    // The standard start too: there a later line has scored above an earlier one.
    for setup in GAMES.into_iter().chain([["newgame standard", "position startpos"]]) {
        let mut engine = engine_at(&setup);
        let legal = engine.sync();
        assert!(legal.is_empty(), "{legal:?}");
        engine.send("setoption name MultiPV value 3");
        let (infos, mv) = engine.search("go depth 3", REPLY_TIMEOUT);
        let lines: Vec<&String> = infos.iter().filter(|line| line.starts_with("info multipv ")).collect();
        assert_eq!(lines.len(), 9, "{infos:?}");
        for (depth, group) in (1..=3).zip(lines.chunks(3)) {
            let mut firsts = Vec::new();
            for (k, line) in group.iter().enumerate() {
                let rest = line.strip_prefix(&format!("info multipv {} ", k + 1)).expect("multipv in order");
                assert!(has_form(INFO_FORM, &format!("info {rest}")), "{line}");
                assert_eq!(field(line, "depth"), Some(depth.to_string().as_str()), "{line}");
                firsts.push(field(line, "pv").unwrap().to_string());
            }
            firsts.dedup();
            assert_eq!(firsts.len(), 3, "three different moves at depth {depth}: {group:?}");
            let ranks: Vec<i64> = group.iter().map(|line| score_rank(line)).collect();
            assert!(ranks.is_sorted_by(|a, b| a >= b), "best first at depth {depth}: {group:?}");
        }
        assert_eq!(field(lines[6], "pv"), Some(mv.as_str()), "{infos:?}");
        // More lines than moves: one line per legal move.
        engine.send("setoption name MultiPV value 256");
        engine.send("moves");
        let count = engine.sync()[0].split(' ').count();
        let (infos, _) = engine.search("go depth 1", REPLY_TIMEOUT);
        assert_eq!(infos.len(), count, "{infos:?}");
    }
}

#[test]
fn searchmoves_confine_the_root() {
    for setup in GAMES {
        let mut engine = engine_at(&setup);
        engine.send("moves");
        let moves: Vec<String> = engine.sync()[0].split(' ').map(str::to_string).collect();
        // The last two moves generated: rarely the best, so the limit shows.
        let allowed = &moves[moves.len() - 2..];
        let (infos, mv) = engine.search(&format!("go depth 4 searchmoves {}", allowed.join(" ")), REPLY_TIMEOUT);
        check_search_output(&infos, &mv);
        assert!(allowed.contains(&mv), "{mv} not in {allowed:?}");
        for line in &infos {
            assert!(allowed.iter().any(|allowed| field(line, "pv") == Some(allowed.as_str())), "{line}");
        }
    }
}

#[test]
fn go_mate_stops_at_a_win_found_and_otherwise_at_its_other_limits() {
    // The default POLD.R start is a proved win for Blue in 16 of its moves.
    let mut engine = engine_at(&["newgame poldr", "position startpos"]);
    let (infos, mv) = engine.search("go mate 16", Duration::from_secs(120));
    check_search_output(&infos, &mv);
    let mate: i32 = field(infos.last().unwrap(), "mate").expect("a mate score").parse().unwrap();
    assert!((1..=16).contains(&mate), "{infos:?}");
    // No mate in 1 from the Pods start: the search ends at its depth instead.
    let mut engine = engine_at(&["newgame standard", "position startpos"]);
    let (infos, mv) = engine.search("go mate 1 depth 2", REPLY_TIMEOUT);
    check_search_output(&infos, &mv);
    assert_eq!(field(infos.last().unwrap(), "depth"), Some("2"), "{infos:?}");
    // Pods: a short hand gives mates within reach.
    let mut engine = engine_at(&["newgame advanced", "position fen 6/6/6/6/6/6 w Ab 0 0"]);
    let (infos, mv) = engine.search("go mate 3", REPLY_TIMEOUT);
    check_search_output(&infos, &mv);
    assert!(field(infos.last().unwrap(), "mate").is_some(), "{infos:?}");
}

#[test]
fn pondering_ignores_the_clock_until_ponderhit_and_names_the_reply_when_asked() {
    for setup in GAMES {
        let mut engine = engine_at(&setup);
        engine.send("setoption name Ponder value true");
        engine.send("go ponder movetime 200");
        // Pondering, the 200 ms do not run: no answer for a while.
        assert_eq!(engine.try_read_line_matching("bestmove", Duration::from_millis(800)), None);
        let hit = Instant::now();
        engine.send("ponderhit");
        let answer = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT).pop().unwrap();
        assert!(hit.elapsed() < Duration::from_secs(5), "{:?} after ponderhit", hit.elapsed());
        assert!(has_form("bestmove <move> ponder <move>", &answer), "{answer}");
        // `stop` ends pondering too, at once.
        engine.send("go ponder wtime 100000 btime 100000 p3time 100000");
        assert_eq!(engine.try_read_line_matching("bestmove", Duration::from_millis(300)), None);
        engine.send("stop");
        engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
        // Without the option, bestmove stands alone (as cutegames needs).
        engine.send("setoption name Ponder value false");
        let (_, mv) = engine.search("go depth 3", REPLY_TIMEOUT);
        assert!(!mv.contains(' '), "{mv}");
    }
}

#[test]
fn long_searches_name_the_root_move_in_hand() {
    for setup in GAMES {
        let mut engine = engine_at(&setup);
        engine.send("moves");
        let count = engine.sync()[0].split(' ').count();
        let (infos, mv) = engine.search("go movetime 2500", Duration::from_secs(20));
        check_search_output(&infos, &mv);
        let announced: Vec<&String> = infos.iter().filter(|line| has_form(CURRMOVE_FORM, line)).collect();
        if infos.iter().any(|line| field(line, "mate").is_some()) {
            continue; // proved early: the search may end before the first second
        }
        assert!(!announced.is_empty(), "{infos:?}");
        for line in announced {
            let number: usize = field(line, "currmovenumber").unwrap().parse().unwrap();
            assert!((1..=count).contains(&number), "{line}");
        }
    }
}

/// Checks that a search's currmove lines name each root move at most once
/// an iteration (`count` moves); returns how many there were.
fn check_announced_once_an_iteration(infos: &[String], count: usize) -> usize {
    let mut by_depth: std::collections::BTreeMap<&str, Vec<&str>> = std::collections::BTreeMap::new();
    for line in infos.iter().filter(|line| has_form(CURRMOVE_FORM, line)) {
        by_depth.entry(field(line, "depth").unwrap()).or_default().push(field(line, "currmove").unwrap());
    }
    for (depth, moves) in &by_depth {
        let distinct: std::collections::HashSet<&&str> = moves.iter().collect();
        assert_eq!(distinct.len(), moves.len(), "a move named twice at depth {depth}");
        assert!(moves.len() <= count, "{} currmove lines at depth {depth} for {count} moves", moves.len());
    }
    by_depth.values().map(Vec::len).sum()
}

#[test]
fn many_lines_name_each_root_move_once_an_iteration() {
    // The MultiPV flood: 256 lines of a 9x9 POLD.R start search the root
    // 256 times at depth 1, and each search named every move again once the
    // first second had passed: 154,697 currmove lines for 1,568 moves on a
    // machine where the depth took 1.9 s.
    let mut engine =
        engine_at(&["setoption name MultiPV value 256", "newgame poldr size 9 bricks 40", "position startpos"]);
    engine.send("moves");
    let count = engine.sync()[0].split(' ').count();
    let (infos, _) = engine.search("go depth 1", Duration::from_secs(120));
    check_announced_once_an_iteration(&infos, count);
    assert_eq!(infos.iter().filter(|line| line.starts_with("info multipv ")).count(), 256);
    // On a 5x5 board depth 2 takes 256 root searches of some 15,000 nodes
    // each, so the first second passes inside it on any machine.
    engine.send("newgame poldr size 5 bricks 16");
    engine.send("position startpos");
    engine.send("moves");
    let count = engine.sync()[0].split(' ').count();
    let (infos, _) = engine.search("go movetime 2500", Duration::from_secs(120));
    assert!(check_announced_once_an_iteration(&infos, count) > 0, "{infos:?}");
}

#[test]
fn clear_hash_forgets_what_searches_learned() {
    for setup in GAMES {
        let nodes = |engine: &mut EngineProcess| {
            let (infos, _) = engine.search("go depth 5", REPLY_TIMEOUT);
            field(infos.last().unwrap(), "nodes").unwrap().to_string()
        };
        let mut engine = engine_at(&setup);
        let fresh = nodes(&mut engine);
        let warm = nodes(&mut engine);
        assert_ne!(fresh, warm, "a second search profits from the first");
        engine.send("setoption name Clear Hash");
        assert_eq!(engine.sync(), Vec::<String>::new());
        assert_eq!(nodes(&mut engine), fresh, "cleared, the search starts afresh");
    }
}

#[test]
fn debug_on_says_what_a_go_searches() {
    let mut engine = engine_at(&GAMES[0]);
    engine.send("debug on");
    let (infos, _) = engine.search("go depth 1", REPLY_TIMEOUT);
    assert!(infos[0].starts_with("info string debug: searching "), "{infos:?}");
    engine.send("debug off");
    let (infos, _) = engine.search("go depth 1", REPLY_TIMEOUT);
    assert!(infos.iter().all(|line| !line.starts_with("info string")), "{infos:?}");
}

#[test]
fn debug_with_another_word_is_a_warning_and_changes_nothing() {
    let mut engine = engine_at(&GAMES[0]);
    engine.send("debug on");
    engine.send("debug maybe");
    assert_eq!(engine.sync(), ["info string warning: debug: unexpected 'maybe', expected on or off (ignored)"]);
    let (infos, _) = engine.search("go depth 1", REPLY_TIMEOUT);
    assert!(infos[0].starts_with("info string debug: searching "), "still on: {infos:?}");
    engine.send("debug off");
    engine.send("debug");
    assert_eq!(engine.sync(), ["info string warning: debug: missing on or off (ignored)"]);
    let (infos, _) = engine.search("go depth 1", REPLY_TIMEOUT);
    assert!(infos.iter().all(|line| !line.starts_with("info string")), "still off: {infos:?}");
}
