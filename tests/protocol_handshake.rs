//! The handshake (`ugi`, `uci`), `isready`, and the reply forms the other
//! protocol tests rely on.

mod protocol_common;

use protocol_common::{EngineProcess, INFO_FORM, REPLY_TIMEOUT, has_form};

/// Every option line has one of these forms (the one button's name has a space).
const OPTION_FORMS: [&str; 5] = [
    "option name <word> type spin default <uint> min <uint> max <uint>",
    "option name <word> type combo default <word> var <rest>",
    "option name <word> type check default true|false",
    "option name <word> type string default <word>",
    "option name Clear Hash type button",
];

fn handshake(hello: &str, confirmation: &str) -> Vec<String> {
    let mut engine = EngineProcess::start();
    engine.send(hello);
    let lines = engine.read_until(|line| line == confirmation, REPLY_TIMEOUT);
    assert_eq!(lines[0], format!("id name Podium {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(lines[1], "id author the Podium developers");
    let options = &lines[2..lines.len() - 1];
    for line in options {
        assert!(OPTION_FORMS.iter().any(|form| has_form(form, line)), "bad option line {line:?}");
    }
    let names: Vec<&str> = options.iter().filter_map(|line| line.split(' ').nth(2)).collect();
    assert_eq!(
        names,
        [
            "Hash",
            "Threads",
            "Game",
            "Variant",
            "Rotation",
            "Board",
            "Pods",
            "PlacementLiberty",
            "EvalWeights",
            "Players",
            "Size",
            "Bricks",
            "MoveOverhead",
            "MaxPlies",
            "MultiplayerSearch",
            "MultiPV",
            "Ponder",
            "OwnBook",
            "Clear"
        ]
    );
    assert_eq!(engine.sync(), Vec::<String>::new(), "isready answers readyok alone");
    lines
}

#[test]
fn ugi_identifies_declares_every_option_and_ends_with_ugiok() {
    let lines = handshake("ugi", "ugiok");
    assert!(lines.contains(&"option name Hash type spin default 64 min 1 max 1024".to_string()));
    assert!(lines.contains(&"option name MaxPlies type spin default 0 min 0 max 100000".to_string()));
    assert!(lines.contains(&"option name Variant type combo default standard var standard var advanced".to_string()));
    assert!(lines.contains(&"option name Game type combo default pods var pods var poldr".to_string()));
    assert!(lines.contains(&"option name Size type spin default 5 min 4 max 9".to_string()));
}

#[test]
fn uci_gets_the_same_handshake_ending_with_uciok() {
    let ugi = handshake("ugi", "ugiok");
    let uci = handshake("uci", "uciok");
    assert_eq!(ugi[..ugi.len() - 1], uci[..uci.len() - 1]);
}

#[test]
fn known_options_in_any_case_are_silent() {
    let mut engine = EngineProcess::start();
    for line in [
        "setoption name hash value 16",
        "setoption name THREADS value 1",
        "setoption name moveoverhead value 20",
        "setoption name Board value o-o-o-o-o-o,|X|\\|/|/|/|,o-o-o-o-o-o,|\\|X|X|\\|/|,o-o-o-o.o-o,|.|/|/|X|X.,o-o-o.o-o-o,|.|\\./|.|\\|,o.o-o.o-o-o,|.|.|.|/|.|,o-o-o-o-o-o",
        "setoption name placementliberty value true",
    ] {
        engine.send(line);
    }
    assert_eq!(engine.sync(), Vec::<String>::new());
}

#[test]
fn forms_match_whole_lines_only() {
    assert!(has_form("bestmove <move>", "bestmove A@c3"));
    assert!(has_form("bestmove <move>", "bestmove c3c5"));
    assert!(!has_form("bestmove <move>", "bestmove A@c3 "));
    assert!(!has_form("bestmove <move>", "bestmove  A@c3"));
    assert!(!has_form("bestmove <move>", "bestmove A@c3 ponder b@d4"));
    assert!(!has_form("bestmove <move>", "bestmove A@g3"));
    assert!(has_form("response true|false", "response false"));
    assert!(!has_form("response true|false", "response"));
    assert!(has_form(INFO_FORM, "info depth 1 seldepth 1 score mate -2 nodes 5 nps 9 hashfull 0 time 0 pv A@c3 c3c4"));
    assert!(!has_form(INFO_FORM, "info depth 1 seldepth 1 score cp 1.5 nodes 5 nps 9 hashfull 0 time 0 pv A@c3"));
    assert!(!has_form(INFO_FORM, "info depth 1 seldepth 1 score cp 1 nodes 5 nps 9 hashfull 0 time 0 pv"));
}
