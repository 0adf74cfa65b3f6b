//! The one writer all protocol output goes through. Every line is written
//! under one lock and flushed at once, so lines from the search thread and
//! from the input loop never interleave mid-line, and a controller reading a
//! pipe sees each line as soon as it exists.

use std::fmt::Display;
use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

/// A shared, line-at-a-time writer; clones write to the same sink.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Writes to `sink`.
    pub fn new(sink: impl Write + Send + 'static) -> Output {
        Output { sink: Arc::new(Mutex::new(Box::new(sink))) }
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: impl Display) {
        self.lines([text]);
    }

    /// Writes lines that belong together (a picture, a perft table) as one
    /// block, so no search line lands in between.
    pub fn lines<T: Display>(&self, lines: impl IntoIterator<Item = T>) {
        let mut sink = self.lock();
        for line in lines {
            let text = printable(&line.to_string());
            log::debug!("-> {text}");
            // A controller that closed our stdout can no longer hear us; the
            // end of our stdin follows, so a failed write is only logged.
            if let Err(error) = writeln!(sink, "{text}").and_then(|()| sink.flush()) {
                log::debug!("cannot write to the output: {error}");
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        // A thread that panicked while writing left at worst half a line.
        self.sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The line with any control character (a NUL, an escape, a newline) as
/// its Rust escape: words echoed from the input cannot break a line in two or
/// reach a terminal raw.
fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect()
}

/// A `Write` sink that keeps everything in memory, for tests of the protocol
/// without pipes (and for embedding the engine in a program).
#[derive(Clone, Default)]
pub struct MemorySink {
    bytes: Arc<Mutex<Vec<u8>>>,
}

impl MemorySink {
    /// Everything written so far, line by line; clears the sink.
    pub fn take_lines(&self) -> Vec<String> {
        let mut bytes = self.bytes.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let text = String::from_utf8_lossy(&bytes).into_owned();
        bytes.clear();
        text.lines().map(str::to_string).collect()
    }
}

impl Write for MemorySink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
