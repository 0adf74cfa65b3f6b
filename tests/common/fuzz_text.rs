//! Random and mutated text for the parsers' fuzz tests. Each game's fuzz
//! says which characters and separators its notation uses; the edits are
//! the same for both.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::Rng;

pub fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

pub fn chance(rng: &mut Xoshiro256PlusPlus, one_in: u64) -> bool {
    rng.next_u64().is_multiple_of(one_in)
}

pub struct TextFuzz {
    /// Characters that mean something to some parser, plus a few that never do.
    pub alphabet: &'static [char],
    /// Where fields are split to be dropped, copied or swapped.
    pub separators: &'static [char],
    /// The longest random text, in characters or bytes.
    pub max_len: usize,
}

impl TextFuzz {
    pub fn random_char(&self, rng: &mut Xoshiro256PlusPlus) -> char {
        if chance(rng, 8) {
            // Any code point at all.
            loop {
                if let Some(c) = char::from_u32((rng.next_u64() % 0x11_0000) as u32) {
                    return c;
                }
            }
        }
        self.alphabet[below(rng, self.alphabet.len())]
    }

    pub fn random_text(&self, rng: &mut Xoshiro256PlusPlus) -> String {
        if chance(rng, 4) {
            // Raw bytes, read the way a careless reader would.
            let len = below(rng, self.max_len);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        let max = if chance(rng, 3) { 8 } else { self.max_len };
        let len = below(rng, max);
        (0..len).map(|_| self.random_char(rng)).collect()
    }

    /// One to three edits: insert, delete or replace a character, duplicate
    /// or drop a piece, remove, copy or swap fields around a separator,
    /// change a digit or a whole number, truncate.
    pub fn mutate(&self, rng: &mut Xoshiro256PlusPlus, text: &str) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..1 + below(rng, 3) {
            let len = chars.len();
            match below(rng, 10) {
                0 => chars.insert(below(rng, len + 1), self.random_char(rng)),
                1 if len > 0 => {
                    chars.remove(below(rng, len));
                }
                2 if len > 0 => chars[below(rng, len)] = self.random_char(rng),
                3 if len > 0 => {
                    let start = below(rng, len);
                    let end = start + below(rng, (len - start).min(8) + 1);
                    let piece: Vec<char> = chars[start..end].to_vec();
                    let at = below(rng, len + 1);
                    chars.splice(at..at, piece);
                }
                4 if len > 0 => {
                    let start = below(rng, len);
                    let end = start + below(rng, (len - start).min(6) + 1);
                    chars.drain(start..end);
                }
                5 | 6 => {
                    let separator = self.separators[below(rng, self.separators.len())];
                    let s: String = chars.iter().collect();
                    let mut fields: Vec<&str> = s.split(separator).collect();
                    if fields.len() >= 2 {
                        let i = below(rng, fields.len());
                        let j = below(rng, fields.len());
                        if chance(rng, 4) {
                            fields.remove(i);
                        } else if chance(rng, 4) {
                            let copy = fields[i];
                            fields.insert(j, copy);
                        } else {
                            fields.swap(i, j);
                        }
                    }
                    chars = fields.join(&separator.to_string()).chars().collect();
                }
                7 | 8 => {
                    let digits: Vec<usize> = (0..len).filter(|&i| chars[i].is_ascii_digit()).collect();
                    if digits.is_empty() {
                        continue;
                    }
                    let at = digits[below(rng, digits.len())];
                    if chance(rng, 2) {
                        chars[at] = (b'0' + below(rng, 10) as u8) as char;
                    } else {
                        // The whole number around it, replaced.
                        let (mut start, mut end) = (at, at + 1);
                        while start > 0 && chars[start - 1].is_ascii_digit() {
                            start -= 1;
                        }
                        while end < len && chars[end].is_ascii_digit() {
                            end += 1;
                        }
                        let number = match below(rng, 6) {
                            0 => "0".to_string(),
                            1 => (rng.next_u64() % 100_000_000_000).to_string(),
                            // At the limits of the integer types a reader may count in.
                            2 => {
                                let limits = [i32::MAX as u64, u32::MAX as u64, i64::MAX as u64, u64::MAX];
                                let limit = limits[below(rng, limits.len())];
                                [limit - 1, limit, limit.wrapping_add(1)][below(rng, 3)].to_string()
                            }
                            _ => below(rng, 45).to_string(),
                        };
                        chars.splice(start..end, number.chars());
                    }
                }
                _ if len > 0 => chars.truncate(below(rng, len)),
                _ => chars.push(self.random_char(rng)),
            }
        }
        chars.into_iter().collect()
    }
}
