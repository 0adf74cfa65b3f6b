//! Input lines as bytes: a line that is not UTF-8 or is absurdly long is
//! reported and skipped, never fatal, and never held in memory whole.

use std::fmt;
use std::io::{self, BufRead};

/// Longer lines are skipped: a real `position ... moves ...` line is a few
/// kilobytes even for a very long advanced game.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Why an input line cannot be read as a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    TooLong,
    NotUtf8 { valid_up_to: usize },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooLong => write!(f, "line longer than {MAX_LINE_BYTES} bytes ignored"),
            LineError::NotUtf8 { valid_up_to } => {
                write!(f, "line ignored: not valid UTF-8 after the first {valid_up_to} bytes")
            }
        }
    }
}

pub struct LineReader<R> {
    input: R,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> LineReader<R> {
        LineReader { input, buffer: Vec::new() }
    }

    /// The next line without its line ending; `None` at the end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Result<String, LineError>>> {
        self.buffer.clear();
        let mut too_long = false;
        let mut read_anything = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                if !read_anything {
                    return Ok(None);
                }
                break;
            }
            read_anything = true;
            let newline = available.iter().position(|&byte| byte == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            if self.buffer.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                self.buffer.clear();
            } else if !too_long {
                self.buffer.extend_from_slice(chunk);
            }
            let used = newline.map_or(available.len(), |at| at + 1);
            self.input.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if too_long {
            return Ok(Some(Err(LineError::TooLong)));
        }
        if self.buffer.last() == Some(&b'\r') {
            self.buffer.pop();
        }
        Ok(Some(match std::str::from_utf8(&self.buffer) {
            Ok(text) => Ok(text.to_string()),
            Err(error) => Err(LineError::NotUtf8 { valid_up_to: error.valid_up_to() }),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> Vec<Result<String, LineError>> {
        let mut reader = LineReader::new(io::BufReader::with_capacity(7, bytes));
        let mut lines = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            lines.push(line);
        }
        lines
    }

    #[test]
    fn lines_end_with_lf_crlf_or_the_end_of_input() {
        assert_eq!(
            read_all(b"ugi\r\nisready\n\nquit"),
            vec![Ok("ugi".into()), Ok("isready".into()), Ok(String::new()), Ok("quit".into())]
        );
    }

    #[test]
    fn bad_lines_are_reported_and_the_next_line_still_reads() {
        let mut input = b"go \xff\xfe\n".to_vec();
        input.extend(vec![b'x'; MAX_LINE_BYTES + 10]);
        input.extend(b"\nisready\n");
        assert_eq!(
            read_all(&input),
            vec![Err(LineError::NotUtf8 { valid_up_to: 3 }), Err(LineError::TooLong), Ok("isready".into())]
        );
    }
}
