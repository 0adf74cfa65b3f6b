//! Pods: a letter per pod, its legs, and the pod set of a game (spec section 3).

use std::fmt;
use std::str::FromStr;

use super::types::{Direction, DirectionParseError, Side};

/// The most pods a set may hold.
pub(crate) const MAX_PODS: usize = 16;

/// The default set, White's legs as they stand on the board.
pub const DEFAULT_POD_SET: &str = "A=W:s,E:s;B=N:l,S:s;C=NW:s,SW:s,E:s;D=N:s,SW:l,SE:l;\
E=NW:l,NE:l,S:s;F=W:l,E:l,N:s;G=N:l,S:l,W:s,E:s;H=NW:s,NE:s,SW:s,SE:s;I=N:s,E:s,S:s,W:s;\
J=NE:l,SW:l,NW:s,SE:s;K=N:s,NE:s,E:s,W:s,S:l;L=NW:l,N:s,NE:l,SW:s,SE:s;\
M=N:s,NE:s,SE:s,S:s,SW:s,NW:s;N=N:l,NE:s,E:l,SE:s,S:l,SW:s,W:l,NW:s";

/// A pod's identity: its letter, `A` = 0. Shown uppercase; a side picks the case
/// where it matters (`Pod::letter`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Pod(u8);

impl Pod {
    /// The pod of `index` (`A` = 0), if a set can hold it.
    pub const fn from_index(index: usize) -> Option<Pod> {
        if index < MAX_PODS { Some(Pod(index as u8)) } else { None }
    }

    /// `A` = 0, `B` = 1, ...
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter as written for `side`: uppercase White, lowercase Black.
    pub const fn letter(self, side: Side) -> char {
        let base = match side {
            Side::White => b'A',
            Side::Black => b'a',
        };
        (base + self.0) as char
    }

    /// The pod and side a letter stands for (`A`..`P`, `a`..`p`).
    pub(crate) fn from_letter(letter: char) -> Option<(Pod, Side)> {
        match letter {
            'A'..='P' => Some((Pod(letter as u8 - b'A'), Side::White)),
            'a'..='p' => Some((Pod(letter as u8 - b'a'), Side::Black)),
            _ => None,
        }
    }
}

impl fmt::Display for Pod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter(Side::White))
    }
}

/// Why a text is not a pod: it is not one letter `A`-`P` (either case).
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{text}' is not a pod: expected one letter A-P")]
pub struct PodParseError {
    /// The text as given.
    pub text: String,
}

impl FromStr for Pod {
    type Err = PodParseError;

    /// One letter, either case.
    fn from_str(s: &str) -> Result<Pod, PodParseError> {
        let mut chars = s.chars();
        match (chars.next().and_then(Pod::from_letter), chars.next()) {
            (Some((pod, _)), None) => Ok(pod),
            _ => Err(PodParseError { text: s.to_string() }),
        }
    }
}

/// A set of pods as a bit mask by letter: a hand, or the pods of a set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct PodMask(pub u16);

impl PodMask {
    pub(crate) const EMPTY: PodMask = PodMask(0);

    pub(crate) const fn first(count: usize) -> PodMask {
        PodMask(((1u32 << count) - 1) as u16)
    }

    /// Whether `pod` is in the set.
    pub const fn contains(self, pod: Pod) -> bool {
        self.0 & (1 << pod.0) != 0
    }

    /// Whether no pod is in the set: an empty hand.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many pods are in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Adds `pod`.
    pub fn insert(&mut self, pod: Pod) {
        self.0 |= 1 << pod.0;
    }

    /// Takes `pod` out.
    pub fn remove(&mut self, pod: Pod) {
        self.0 &= !(1 << pod.0);
    }
}

impl Iterator for PodMask {
    type Item = Pod;

    #[inline]
    fn next(&mut self) -> Option<Pod> {
        if self.0 == 0 {
            return None;
        }
        let pod = Pod(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(pod)
    }
}

/// One leg: a direction and whether it is long.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Leg {
    /// Where it points, for White's pod (Black's points the opposite way).
    pub direction: Direction,
    /// A long leg reaches along its line; a short one reaches one step.
    pub long: bool,
}

impl fmt::Display for Leg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.direction, if self.long { 'l' } else { 's' })
    }
}

/// A pod's legs as White's pod stands on the board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PodShape {
    /// At least one, no two in one direction.
    pub legs: Vec<Leg>,
}

impl PodShape {
    pub(crate) fn is_bipod(&self) -> bool {
        self.legs.len() == 2
    }

    /// The legs as `side`'s pod stands: Black's pods face the other way.
    pub fn legs_for(&self, side: Side) -> impl Iterator<Item = Leg> + '_ {
        self.legs.iter().map(move |leg| match side {
            Side::White => *leg,
            Side::Black => Leg { direction: leg.direction.reverse(), long: leg.long },
        })
    }
}

/// The pods each side owns, in letter order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PodSet {
    shapes: Vec<PodShape>,
}

/// What is wrong with a pod set text. `pod` is the pod whose entry is at
/// fault: entries are numbered by position, so the third entry is pod `C`
/// whatever letter it was given.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PodSetError {
    /// The text is empty or blank.
    #[error("invalid pod set: empty: a set has 1 to 16 pods")]
    Empty,
    /// The text has `found` entries, more than `MAX_PODS`.
    #[error("invalid pod set: {found} pods, at most 16 allowed")]
    TooManyPods {
        /// How many entries the text has.
        found: usize,
    },
    /// An entry has no `=` between its letter and its legs.
    #[error("invalid pod set: pod {} '{entry}' has no '=': write it as {pod}=N:s,...", .pod.index() + 1)]
    MissingEquals {
        /// The pod the entry is for.
        pod: Pod,
        /// The entry as given.
        entry: String,
    },
    /// The entry is named `found` (the text before `=`) instead of `pod`'s letter.
    #[error(
        "invalid pod set: pod {} is named '{found}', expected '{pod}' (letters run from A without gaps)",
        .pod.index() + 1
    )]
    WrongLetter {
        /// The pod the entry is for.
        pod: Pod,
        /// The name given instead.
        found: String,
    },
    /// A leg has no `:` between its direction and its length.
    #[error("invalid pod set: pod {pod}: leg '{leg}' must look like N:s or SW:l")]
    MalformedLeg {
        /// The pod the entry is for.
        pod: Pod,
        /// The leg as given.
        leg: String,
    },
    /// A leg's direction does not read.
    #[error("invalid pod set: pod {pod}: {error}")]
    BadDirection {
        /// The pod the entry is for.
        pod: Pod,
        /// Why the direction does not read.
        error: DirectionParseError,
    },
    /// A leg's length is neither `s` nor `l`.
    #[error("invalid pod set: pod {pod}: leg '{leg}' has length '{length}', expected 's' or 'l'")]
    BadLength {
        /// The pod the entry is for.
        pod: Pod,
        /// The leg as given.
        leg: String,
        /// The length as given.
        length: String,
    },
    /// The pod has two legs towards `direction`.
    #[error("invalid pod set: pod {pod} has two legs towards {direction}")]
    DuplicateLeg {
        /// The pod the entry is for.
        pod: Pod,
        /// The direction given twice.
        direction: Direction,
    },
}

impl Default for PodSet {
    fn default() -> PodSet {
        DEFAULT_POD_SET.parse().expect("the default pod set is valid")
    }
}

impl PodSet {
    /// How many pods the set has (1 to 16).
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// Never true of a set that was read: it has at least one pod.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Every pod of the set.
    pub fn all(&self) -> PodMask {
        PodMask::first(self.shapes.len())
    }

    /// Whether `pod` is one of the set's pods.
    pub fn contains(&self, pod: Pod) -> bool {
        pod.index() < self.shapes.len()
    }

    /// The legs of `pod`, which must belong to the set.
    pub fn shape(&self, pod: Pod) -> &PodShape {
        &self.shapes[pod.index()]
    }

    /// The set's two-legged pods.
    pub(crate) fn bipods(&self) -> PodMask {
        let mut mask = PodMask::EMPTY;
        for (index, shape) in self.shapes.iter().enumerate() {
            if shape.is_bipod() {
                mask.insert(Pod(index as u8));
            }
        }
        mask
    }
}

impl FromStr for PodSet {
    type Err = PodSetError;

    /// The one-line form `A=W:s,E:s;B=N:l,S:s;...`.
    fn from_str(s: &str) -> Result<PodSet, PodSetError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(PodSetError::Empty);
        }
        let entries: Vec<&str> = text.split(';').collect();
        if entries.len() > MAX_PODS {
            return Err(PodSetError::TooManyPods { found: entries.len() });
        }
        let mut shapes = Vec::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            let pod = Pod(index as u8);
            let (letter, legs_text) =
                entry.split_once('=').ok_or_else(|| PodSetError::MissingEquals { pod, entry: entry.to_string() })?;
            if letter != pod.to_string() {
                return Err(PodSetError::WrongLetter { pod, found: letter.to_string() });
            }
            let mut legs: Vec<Leg> = Vec::new();
            for leg_text in legs_text.split(',') {
                let (dir_text, length) = leg_text
                    .split_once(':')
                    .ok_or_else(|| PodSetError::MalformedLeg { pod, leg: leg_text.to_string() })?;
                let direction: Direction =
                    dir_text.parse().map_err(|error| PodSetError::BadDirection { pod, error })?;
                let long = match length {
                    "s" => false,
                    "l" => true,
                    _ => {
                        return Err(PodSetError::BadLength {
                            pod,
                            leg: leg_text.to_string(),
                            length: length.to_string(),
                        });
                    }
                };
                if legs.iter().any(|leg| leg.direction == direction) {
                    return Err(PodSetError::DuplicateLeg { pod, direction });
                }
                legs.push(Leg { direction, long });
            }
            shapes.push(PodShape { legs });
        }
        Ok(PodSet { shapes })
    }
}

/// The one-line form, in letter order.
impl fmt::Display for PodSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, shape) in self.shapes.iter().enumerate() {
            if index > 0 {
                f.write_str(";")?;
            }
            write!(f, "{}=", Pod(index as u8))?;
            for (leg_index, leg) in shape.legs.iter().enumerate() {
                if leg_index > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{leg}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_set_has_fourteen_pods_with_two_bipods() {
        let set = PodSet::default();
        assert_eq!(set.len(), 14);
        assert_eq!(set.bipods().collect::<Vec<_>>(), vec![Pod(0), Pod(1)]);
        assert_eq!(set.to_string(), DEFAULT_POD_SET);
        let legs: Vec<usize> = (0..14).map(|i| set.shape(Pod(i)).legs.len()).collect();
        assert_eq!(legs, vec![2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 6, 8]);
    }

    #[test]
    fn black_pods_have_every_leg_reversed() {
        let set = PodSet::default();
        let j = set.shape("J".parse().unwrap());
        let black: Vec<String> = j.legs_for(Side::Black).map(|l| l.to_string()).collect();
        assert_eq!(black, vec!["SW:l", "NE:l", "SE:s", "NW:s"]);
    }

    #[test]
    fn invalid_sets_are_rejected_with_a_reason() {
        for (text, needle) in [
            ("", "empty"),
            ("B=N:s", "expected 'A'"),
            ("A=N:s;C=S:s", "expected 'B'"),
            ("A=N:s,N:l", "two legs towards N"),
            ("A=Q:s", "not a direction"),
            ("A=N:x", "length 'x'"),
            ("A=", "must look like"),
            ("A", "has no '='"),
        ] {
            let err = text.parse::<PodSet>().unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
        let seventeen: Vec<String> = (0..17).map(|i| format!("{}=N:s", (b'A' + i) as char)).collect();
        assert!(seventeen.join(";").parse::<PodSet>().is_err());
        let sixteen: Vec<String> = (0..16).map(|i| format!("{}=N:s", (b'A' + i) as char)).collect();
        assert_eq!(sixteen.join(";").parse::<PodSet>().unwrap().len(), 16);
        assert_eq!(
            "A=N:s,N:l".parse::<PodSet>(),
            Err(PodSetError::DuplicateLeg { pod: Pod(0), direction: Direction::N })
        );
        assert_eq!(
            "A=N:s;B=Q:s".parse::<PodSet>(),
            Err(PodSetError::BadDirection { pod: Pod(1), error: DirectionParseError { text: "Q".into() } })
        );
    }

    #[test]
    fn pod_letters_name_side_and_pod() {
        assert_eq!(Pod::from_letter('c'), Some((Pod(2), Side::Black)));
        assert_eq!(Pod::from_letter('P'), Some((Pod(15), Side::White)));
        assert_eq!(Pod::from_letter('q'), None);
        assert_eq!("n".parse::<Pod>(), Ok(Pod(13)));
        assert!("AB".parse::<Pod>().is_err());
    }
}
