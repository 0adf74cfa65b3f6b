//! Input lines as bytes: a line that is not UTF-8 or is absurdly long is
//! reported and skipped, never fatal, and never held in memory whole.

use std::io::{self, BufRead};

/// Longer lines are skipped: a real `position ... moves ...` line is a few
/// kilobytes even for a very long advanced game.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Why an input line cannot be read as text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// More bytes than the reader's limit before the line break.
    #[error("line longer than {max_bytes} bytes ignored")]
    TooLong {
        /// The reader's limit.
        max_bytes: usize,
    },
    /// Bytes that are not UTF-8.
    #[error("line ignored: not valid UTF-8 after the first {valid_up_to} bytes")]
    NotUtf8 {
        /// How many bytes are UTF-8 before the first bad one.
        valid_up_to: usize,
    },
}

/// The lines of a reader, one at a time, each held to at most a limit of
/// bytes: the protocol's commands and `analyse --positions` both read
/// through it.
pub struct LineReader<R> {
    input: R,
    /// The last line's bytes, as far as the limit.
    buffer: Vec<u8>,
    max_bytes: usize,
    /// Inside a line too long, already reported: its rest is skipped first.
    skipping: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of at most `MAX_LINE_BYTES`, the protocol's limit.
    pub fn new(input: R) -> LineReader<R> {
        LineReader::with_limit(input, MAX_LINE_BYTES)
    }

    /// Lines of at most `max_bytes`.
    pub fn with_limit(input: R, max_bytes: usize) -> LineReader<R> {
        LineReader { input, buffer: Vec::new(), max_bytes, skipping: false }
    }

    /// The next line without its line ending; `None` at the end of input.
    /// A line too long is reported as soon as it passes the limit, before
    /// its rest is read: that rest is skipped, never kept, on the next call.
    pub fn next_line(&mut self) -> io::Result<Option<Result<String, LineError>>> {
        if self.skipping {
            self.skipping = false;
            if self.read_bounded(true)?.is_none() {
                return Ok(None);
            }
        }
        let Some(complete) = self.read_bounded(false)? else {
            return Ok(None);
        };
        if !complete {
            self.skipping = true;
            return Ok(Some(Err(LineError::TooLong { max_bytes: self.max_bytes })));
        }
        if self.buffer.last() == Some(&b'\r') {
            self.buffer.pop();
        }
        Ok(Some(match std::str::from_utf8(&self.buffer) {
            Ok(text) => Ok(text.to_string()),
            Err(error) => Err(LineError::NotUtf8 { valid_up_to: error.valid_up_to() }),
        }))
    }

    /// The last line's bytes as far as they were read (at most the limit):
    /// what a bad line began with, to say which it was.
    pub fn raw(&self) -> &[u8] {
        &self.buffer
    }

    /// Reads a line into the buffer (its break dropped), keeping at most
    /// the limit: `Some(true)` for a whole line, `Some(false)` when it is
    /// longer (the rest is still to be read), `None` at the end. With
    /// `skip`, reads to the end of the line and keeps nothing.
    fn read_bounded(&mut self, skip: bool) -> io::Result<Option<bool>> {
        self.buffer.clear();
        let mut read_any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                return Ok(read_any.then_some(true));
            }
            read_any = true;
            let end = available.iter().position(|&byte| byte == b'\n');
            let part = &available[..end.unwrap_or(available.len())];
            if !skip {
                let room = self.max_bytes - self.buffer.len();
                if part.len() > room {
                    self.buffer.extend_from_slice(&part[..room]);
                    self.input.consume(room);
                    return Ok(Some(false));
                }
                self.buffer.extend_from_slice(part);
            }
            let used = end.map_or(part.len(), |end| end + 1);
            self.input.consume(used);
            if end.is_some() {
                return Ok(Some(true));
            }
        }
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
            vec![
                Err(LineError::NotUtf8 { valid_up_to: 3 }),
                Err(LineError::TooLong { max_bytes: MAX_LINE_BYTES }),
                Ok("isready".into())
            ]
        );
    }

    #[test]
    fn a_line_too_long_is_reported_at_its_limit_and_its_rest_skipped() {
        let read = |bytes: &[u8]| {
            let mut reader = LineReader::with_limit(io::BufReader::with_capacity(3, bytes), 4);
            let mut lines = Vec::new();
            while let Some(line) = reader.next_line().unwrap() {
                lines.push(line.map_err(|_| String::from_utf8_lossy(reader.raw()).into_owned()));
            }
            lines
        };
        assert_eq!(read(b"abcd\nabcdefgh\nok"), vec![Ok("abcd".into()), Err("abcd".into()), Ok("ok".into())]);
        // The input ends inside the line skipped.
        assert_eq!(read(b"go\nabcdefgh"), vec![Ok("go".into()), Err("abcd".into())]);
    }
}
