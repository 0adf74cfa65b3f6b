//! The lines of `podium analyse --positions`: read one at a time, so the
//! answers come as the lines do and memory does not grow with the input; a
//! line is at most `MAX_LINE_BYTES` long, and a line that is too long or
//! not UTF-8 is reported and skipped, never the whole input. A line is a
//! position as `position` takes it (`startpos moves A@c3`, a bare position
//! line, ...) or a JSON object that also names the game and its settings,
//! so that a file can say which variant its positions are of:
//!
//! `{"game":"pods","variant":"advanced","fen":"<position line>","moves":["A@c3"],"id":7}`

use std::io::{self, BufRead};

use crate::protocol::command::{CommandError, Start, parse_position_text};
use crate::protocol::input::{self, LineReader};

/// The longest line read, in bytes without its line break: a position
/// line with a long game's moves after it is a few kilobytes.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The most of a bad line repeated in its answer, in characters.
const SHOWN_CHARS: usize = 60;

/// Why a line of the input was skipped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// More than `MAX_LINE_BYTES` before the line break.
    #[error("line {line} is longer than {MAX_LINE_BYTES} bytes: skipped")]
    TooLong {
        /// The line's number, from 1.
        line: usize,
    },
    /// Bytes that are not UTF-8.
    #[error("line {line} is not UTF-8 (byte {offset} of the line): skipped")]
    NotUtf8 {
        /// The line's number, from 1.
        line: usize,
        /// Where the first bad byte is, from 0.
        offset: usize,
    },
}

/// One line worth an answer (not blank, not a `#` comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its number in the input, from 1.
    pub number: usize,
    /// The line, trimmed; for a line skipped, its beginning as far as it
    /// reads (at most `SHOWN_CHARS` characters), to say which it was.
    pub text: String,
    /// Why it was skipped, if it was.
    pub fault: Option<LineError>,
}

/// The lines of a reader, one at a time, at most `MAX_LINE_BYTES` each.
pub struct Lines<R> {
    reader: LineReader<R>,
    /// Lines read so far.
    number: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines read from `reader`.
    pub fn new(reader: R) -> Lines<R> {
        Lines { reader: LineReader::with_limit(reader, MAX_LINE_BYTES), number: 0 }
    }

    /// The next line worth an answer, or `None` at the end of the input.
    /// A line too long is reported as soon as it passes the limit, and
    /// its rest is skipped without being kept.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        loop {
            let Some(read) = self.reader.next_line()? else {
                return Ok(None);
            };
            self.number += 1;
            let line = self.number;
            let fault = match read {
                Ok(text) => {
                    let text = text.trim();
                    if !text.is_empty() && !text.starts_with('#') {
                        return Ok(Some(Line { number: line, text: text.to_string(), fault: None }));
                    }
                    continue;
                }
                Err(input::LineError::TooLong { .. }) => LineError::TooLong { line },
                Err(input::LineError::NotUtf8 { valid_up_to }) => LineError::NotUtf8 { line, offset: valid_up_to },
            };
            let raw = self.reader.raw();
            let shown = String::from_utf8_lossy(&raw[..raw.len().min(4 * SHOWN_CHARS)]).into_owned();
            return Ok(Some(self.fault(&shown, fault)));
        }
    }

    fn fault(&self, text: &str, fault: LineError) -> Line {
        let text = text.trim();
        let mut shown: String = text.chars().take(SHOWN_CHARS).collect();
        if shown.len() < text.len() {
            shown.push_str("...");
        }
        Line { number: self.number, text: shown, fault: Some(fault) }
    }
}

/// What a line asks for: the position, and the game and settings it is
/// of where the line names them (a JSON line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The game named (`"game"`), if any.
    pub game: Option<String>,
    /// The variant named (`"variant"`): the value of the game's variant parameter.
    pub variant: Option<String>,
    /// Other parameters by name (`"settings"`), values as text.
    pub settings: Vec<(String, String)>,
    /// The start position, before the moves.
    pub start: Start,
    /// The moves to play from it.
    pub moves: Vec<String>,
    /// The line's `"id"`, any JSON value, as JSON text: repeated in the answer.
    pub id: Option<String>,
}

/// Why a line does not name a position.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// A plain line that `position` would not take.
    #[error(transparent)]
    Position(#[from] CommandError),
    /// A line starting with `{` that is not JSON.
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A key the line may not have (a misspelt "variant" would otherwise go unnoticed).
    #[error("unknown key {0:?}: a JSON line takes {KEYS}")]
    UnknownKey(String),
    /// A value of the wrong kind.
    #[error("\"{key}\" must be {expected}")]
    WrongType {
        /// The key.
        key: &'static str,
        /// What it takes.
        expected: &'static str,
    },
}

/// The keys of a JSON line, for messages.
const KEYS: &str = "\"game\", \"variant\", \"settings\", \"fen\", \"moves\" and \"id\"";

/// Reads a line: a JSON object if it starts with `{`, else a position as
/// `position` takes it (with or without the word `position`).
pub fn parse_request(line: &str) -> Result<Request, RequestError> {
    if !line.starts_with('{') {
        let (start, moves) = parse_position_text(line)?;
        return Ok(Request { game: None, variant: None, settings: Vec::new(), start, moves, id: None });
    }
    // A line starting with `{` is an object or not JSON at all.
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line)?;
    let mut request = Request {
        game: None,
        variant: None,
        settings: Vec::new(),
        start: Start::StartPos,
        moves: Vec::new(),
        id: None,
    };
    for (key, value) in object {
        match key.as_str() {
            "game" => request.game = Some(text(&value, "game")?),
            "variant" => request.variant = Some(text(&value, "variant")?),
            "fen" => request.start = Start::Fen(text(&value, "fen")?),
            "settings" => {
                let serde_json::Value::Object(settings) = value else {
                    return Err(RequestError::WrongType { key: "settings", expected: "an object of names and values" });
                };
                for (name, value) in settings {
                    let value = match value {
                        serde_json::Value::String(text) => text,
                        serde_json::Value::Number(number) => number.to_string(),
                        serde_json::Value::Bool(flag) => flag.to_string(),
                        _ => {
                            return Err(RequestError::WrongType {
                                key: "settings",
                                expected: "an object whose values are strings, numbers or true/false",
                            });
                        }
                    };
                    request.settings.push((name, value));
                }
            }
            "moves" => {
                request.moves = match value {
                    serde_json::Value::String(moves) => moves.split_whitespace().map(str::to_string).collect(),
                    serde_json::Value::Array(moves) => {
                        moves.iter().map(|mv| text(mv, "moves")).collect::<Result<Vec<String>, RequestError>>()?
                    }
                    _ => return Err(RequestError::WrongType { key: "moves", expected: "a list of moves" }),
                }
            }
            "id" => request.id = Some(value.to_string()),
            _ => return Err(RequestError::UnknownKey(key)),
        }
    }
    Ok(request)
}

/// The `"id"` of a JSON line, as JSON text, where the line is a JSON
/// object that has one: for the answer to a line that cannot be used.
pub fn line_id(line: &str) -> Option<String> {
    if !line.starts_with('{') {
        return None;
    }
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).ok()?;
    object.get("id").map(serde_json::Value::to_string)
}

fn text(value: &serde_json::Value, key: &'static str) -> Result<String, RequestError> {
    match value {
        serde_json::Value::String(text) => Ok(text.clone()),
        _ => Err(RequestError::WrongType { key, expected: "a string" }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<Line> {
        let mut lines = Lines::new(io::BufReader::with_capacity(16, input));
        std::iter::from_fn(|| lines.next_line().unwrap()).collect()
    }

    #[test]
    fn a_bad_line_is_reported_by_number_and_the_lines_after_it_are_read() {
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        let mut bytes = format!("startpos\n\n# note\n{long}\n").into_bytes();
        bytes.extend_from_slice(b"fen a\xff b\n");
        bytes.extend_from_slice(format!("startpos moves A@c3\r\n{long}").as_bytes());
        let lines = all(&bytes);
        let numbers: Vec<usize> = lines.iter().map(|line| line.number).collect();
        assert_eq!(numbers, [1, 4, 5, 6, 7]);
        assert_eq!(lines[0].text, "startpos");
        assert_eq!(lines[1].fault, Some(LineError::TooLong { line: 4 }));
        assert_eq!(lines[1].text, format!("{}...", "x".repeat(SHOWN_CHARS)));
        assert_eq!(lines[2].fault, Some(LineError::NotUtf8 { line: 5, offset: 5 }));
        assert_eq!(lines[2].text, "fen a\u{fffd} b");
        assert_eq!((lines[3].text.as_str(), &lines[3].fault), ("startpos moves A@c3", &None));
        assert_eq!(lines[4].fault, Some(LineError::TooLong { line: 7 }));
        // A line of exactly the limit is read.
        let exact = "y".repeat(MAX_LINE_BYTES);
        assert_eq!(all(exact.as_bytes())[0].fault, None);
    }

    #[test]
    fn json_lines_name_the_game_its_settings_and_the_position() {
        let request =
            parse_request(r#"{"game":"pods","variant":"advanced","settings":{"PlacementLiberty":true},"fen":"6/6/6/6/6/6 w a 0 0","moves":["A@c3","b@d4"],"id":{"plies":8}}"#)
                .unwrap();
        assert_eq!(request.game.as_deref(), Some("pods"));
        assert_eq!(request.variant.as_deref(), Some("advanced"));
        assert_eq!(request.settings, [("PlacementLiberty".to_string(), "true".to_string())]);
        assert_eq!(request.start, Start::Fen("6/6/6/6/6/6 w a 0 0".to_string()));
        assert_eq!(request.moves, ["A@c3", "b@d4"]);
        assert_eq!(request.id.as_deref(), Some(r#"{"plies":8}"#));
        let start = parse_request(r#"{"variant":"standard","moves":"A@c3 b@d4"}"#).unwrap();
        assert_eq!((start.start, start.moves.len()), (Start::StartPos, 2));
        let plain = parse_request("startpos moves A@c3").unwrap();
        assert_eq!((plain.game, plain.variant, plain.moves), (None, None, vec!["A@c3".to_string()]));
        for (line, message) in [
            (r#"{"varaint":"advanced"}"#, "unknown key \"varaint\""),
            (r#"{"variant":3}"#, "\"variant\" must be a string"),
            (r#"{"moves":[1]}"#, "\"moves\" must be a string"),
            (r#"{"settings":[]}"#, "\"settings\" must be an object"),
            (r#"{"variant":"#, "not JSON: "),
            (&format!("{}1{}", "{\"id\":".repeat(200), "}".repeat(200)), "not JSON: recursion limit"),
        ] {
            let error = parse_request(line).unwrap_err().to_string();
            assert!(error.contains(message), "{line}: {error}");
        }
        assert!(matches!(parse_request("{}[").unwrap_err(), RequestError::Json(_)));
        assert_eq!(line_id(r#"{"varaint":"advanced","id":[1,"a"]}"#).as_deref(), Some(r#"[1,"a"]"#));
        assert_eq!(line_id(r#"{"id":1"#), None);
    }
}
