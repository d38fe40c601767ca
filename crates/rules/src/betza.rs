//! Betza notation (XBoard / Interactive Diagram dialect) to movement paths.
//!
//! A piece's move string is a sequence of *components*; each is a run of
//! lowercase modifiers followed by an uppercase atom and an optional range.
//!
//! | text      | meaning |
//! |-----------|---------|
//! | `W` `F`   | one step orthogonally / diagonally (leapers) |
//! | `D` `A` `H` `G` | two or three squares straight or diagonally, jumping |
//! | `N` `C`/`L` `Z` | (1,2), (1,3), (2,3) leapers |
//! | `K` `R` `B` `Q` | King (`WF`), Rook (`WW`), Bishop (`FF`), Queen (`RB`) |
//! | `WW`, `NN` | a doubled leaper is a rider (Rook, Nightrider) |
//! | `W2`, `Q2` | a number limits the range: at most that many steps (a slide) |
//! | `f b l r` | forward, back, left, right; `v` = forward and back, `s` = left and right |
//! | `fl`, `ff`, `fs` | on diagonal atoms a pair names one diagonal; on oblique atoms (`N`) `ff` are the two most forward moves and `fs` the two forward-sideways ones; on orthogonal atoms letters simply add up (`fsW` = forward and sideways) |
//! | `m` `c`   | move only / capture only (default: both) |
//! | `p` `g`   | hop over exactly one piece (cannon `cpR`; grasshopper `gQ`) |
//! | `i`       | only as the piece's first move (from its initial squares) |
//! | `n`       | not jumping: the squares passed must be empty (`ifmnD` double step) |
//! | `e`       | may capture en passant |
//! | `a`       | a further leg: `caK` = capture a king step away, then make another king step |
//! | `y`       | the next leg slides (`FyafsF`: a diagonal step, then slide outward) |
//!
//! In a later leg, direction letters are relative to the previous leg: `f`
//! straight on, `b` straight back, `l`/`r`/`s` a 90-degree turn, `fl`/`fr`/`fs`
//! a 45-degree turn, `bl`/`br`/`bs` 135 degrees; no letter means every
//! direction of the leg's atom. A leg without `m`/`c` is `m` (to an empty
//! square) unless it is the last. A component that starts with `a` adds legs
//! with its own atom to the component before it (`mFafB`: a diagonal step to
//! an empty square, then a bishop slide straight on: Tamerlane's Picket).
//!
//! Examples (rule books): Sho Shogi Knight `ffN`; Drunk Elephant `FfsW`;
//! Courier Pawn `mfWcfF`; modern Pawn `mfWcfFifmnD`; Chu Lion `KNADcaKmabK`;
//! Horned Falcon `BsbRfWfDfcafWfabW`; Tamerlane Giraffe `mFafsmWafmWafR`;
//! Frolov Gryphon `FyafsF`; Leo `mQcpQ`.
//!
//! [`parse`] returns [`Path`]s with absolute vectors (`dy` forward for the
//! moving side); the variant compiler turns them into board offsets.

use std::collections::HashSet;

/// Most legs in one move (`a`-joined components). The built-in games use
/// at most four (Tamerlane's Giraffe `mFafsmWafmWafR`); an undirected leg
/// multiplies the paths by up to 8, so the bound keeps loading quick.
pub const MAX_LEGS: usize = 5;

/// Most concrete paths one Betza string may expand to (a Chu Lion has 80,
/// four undirected King legs 4,096).
pub const MAX_PATHS: usize = 4096;

/// A displacement in files (`dx`, right positive) and ranks (`dy`, forward
/// positive, from the moving side's point of view).
pub type Vector = (i8, i8);

/// How a leg treats the square it ends on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Mode {
    /// May end on an empty square (`m`).
    pub to_empty: bool,
    /// May end on (and capture) an enemy piece (`c`).
    pub capture: bool,
    /// Intermediate leg only: may pass over a piece of either side (`p`).
    pub hop_any: bool,
    /// Rider legs: must jump exactly one screen first (`p`: cannon).
    pub cannon: bool,
    /// Rider legs: lands right behind the screen (`g`: grasshopper).
    pub grasshopper: bool,
    /// May capture en passant (`e`).
    pub en_passant: bool,
}

/// One leg of a path: a vector repeated up to `range` times.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Leg {
    /// The step of this leg.
    pub vector: Vector,
    /// 1 = a single leap; 0 = unlimited slide; n = slide of at most n steps.
    pub range: u8,
    /// The leg's mode.
    pub mode: Mode,
    /// Leaps only: the squares passed must be empty (`n`).
    pub lame: bool,
}

/// A concrete way to move: one or more legs, each with an absolute vector.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Path {
    /// The legs in order; a plain leaper or rider has one.
    pub legs: Vec<Leg>,
    /// Only from the piece's initial squares (`i`).
    pub initial: bool,
}

/// A Betza string that could not be read: the string, the byte position
/// and what is wrong there.
///
/// Displayed as ``Betza `TEXT` at position N: `` and then the kind's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Betza `{}` at position {pos}: {kind}", crate::excerpt::excerpt(text))]
pub struct BetzaError {
    /// The whole string.
    pub text: String,
    /// Byte offset of the problem (the start of its component for
    /// [`BetzaErrorKind::LaterLegAtom`] and [`BetzaErrorKind::CannotTurn`]).
    pub pos: usize,
    /// What is wrong.
    pub kind: BetzaErrorKind,
}

impl BetzaError {
    /// What is wrong, as the text after the position.
    pub fn what(&self) -> String {
        self.kind.to_string()
    }
}

/// What is wrong with a Betza string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BetzaErrorKind {
    /// A modifier of the XBoard dialect that kamil does not implement.
    #[error("modifier `{letter}` is not supported")]
    UnsupportedModifier {
        /// The modifier.
        letter: char,
    },
    /// A lowercase letter that is no modifier.
    #[error("unknown modifier `{letter}`")]
    UnknownModifier {
        /// The letter.
        letter: char,
    },
    /// Modifiers at the end of the string, with no atom after them.
    #[error("modifiers without an atom")]
    MissingAtom,
    /// A character where an atom should be that is no atom.
    #[error("unknown atom `{letter}`")]
    UnknownAtom {
        /// The character.
        letter: char,
    },
    /// A range whose digits do not make a number.
    #[error("bad range")]
    BadRange {
        /// The digits.
        digits: String,
    },
    /// A range above 255.
    #[error("range above 255")]
    RangeTooLarge {
        /// The range given.
        range: u32,
    },
    /// A component starting with `a` at the start of the string.
    #[error("a leading `a` has no leg before it")]
    LeadingA,
    /// A later leg (after `a`) whose atom moves more than one step.
    #[error("a later leg must use a one-step atom (W, F, K, R, B, Q), not `{atom}`")]
    LaterLegAtom {
        /// The leg's atom.
        atom: char,
    },
    /// A leg after one whose direction is no King direction, so turns
    /// relative to it mean nothing.
    #[error("cannot turn after this leg")]
    CannotTurn,
    /// More than [`MAX_LEGS`] legs in one move.
    #[error("{legs} legs in one move; at most {MAX_LEGS} are allowed")]
    TooManyLegs {
        /// The legs given.
        legs: usize,
    },
    /// The string expands to more than [`MAX_PATHS`] paths.
    #[error("more than {MAX_PATHS} paths; simplify the move")]
    TooManyPaths,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Orth,
    Diag,
    Oblique,
}

fn class(v: Vector) -> Class {
    if v.0 == 0 || v.1 == 0 {
        Class::Orth
    } else if v.0.abs() == v.1.abs() {
        Class::Diag
    } else {
        Class::Oblique
    }
}

/// The eight (or four) symmetric images of a base leap `(a, b)`.
fn symmetric(a: i8, b: i8) -> Vec<Vector> {
    let mut out = Vec::new();
    for &(x, y) in &[(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

struct Atom {
    vectors: Vec<Vector>,
    rider: bool,
}

fn atom(letter: char) -> Option<Atom> {
    let (base, rider): (&[(i8, i8)], bool) = match letter {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(1, 2)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'C' | 'L' => (&[(1, 3)], false),
        'Z' => (&[(2, 3)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    };
    let mut vectors = Vec::new();
    for &(a, b) in base {
        vectors.extend(symmetric(a, b));
    }
    Some(Atom { vectors, rider })
}

/// Does absolute vector `v` match the direction letters `dirs` (a modifier
/// group with mode letters removed)? Empty = every direction.
fn matches(dirs: &[char], v: Vector) -> bool {
    if dirs.is_empty() {
        return true;
    }
    let (x, y) = (v.0 as i32, v.1 as i32);
    let single = |c: char| match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' => match class(v) {
            Class::Orth => x == 0,
            Class::Diag => true,
            Class::Oblique => y.abs() > x.abs(),
        },
        's' => match class(v) {
            Class::Orth => y == 0,
            Class::Diag => true,
            Class::Oblique => x.abs() > y.abs(),
        },
        _ => false,
    };
    let mut i = 0;
    while i < dirs.len() {
        let c = dirs[i];
        let n = dirs.get(i + 1).copied();
        let pair = match (class(v), n) {
            (Class::Diag, Some(n))
                if (matches!(c, 'f' | 'b') && matches!(n, 'l' | 'r'))
                    || (matches!(c, 'l' | 'r') && matches!(n, 'f' | 'b')) =>
            {
                Some(single(c) && single(n))
            }
            (Class::Oblique, Some(n)) if n == c => Some(
                single(c)
                    && if matches!(c, 'f' | 'b') {
                        y.abs() > x.abs()
                    } else {
                        x.abs() > y.abs()
                    },
            ),
            (Class::Oblique, Some(n))
                if (matches!(c, 'f' | 'b') && matches!(n, 's' | 'l' | 'r'))
                    || (matches!(c, 'l' | 'r' | 's') && matches!(n, 'f' | 'b')) =>
            {
                Some(single(c) && single(n))
            }
            _ => None,
        };
        match pair {
            Some(ok) => {
                if ok {
                    return true;
                }
                i += 2;
            }
            None => {
                if single(c) {
                    return true;
                }
                i += 1;
            }
        }
    }
    false
}

/// Relative turns (in 45-degree steps, counter-clockwise) named by a later
/// leg's direction letters; `None` = no letters (every direction of the atom).
fn turns(dirs: &[char]) -> Option<Vec<i32>> {
    if dirs.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let c = dirs[i];
        let n = dirs.get(i + 1).copied();
        let two: Option<&[i32]> = match (c, n) {
            ('f', Some('l')) | ('l', Some('f')) => Some(&[1]),
            ('f', Some('r')) | ('r', Some('f')) => Some(&[-1]),
            ('f', Some('s')) | ('s', Some('f')) => Some(&[1, -1]),
            ('b', Some('l')) | ('l', Some('b')) => Some(&[3]),
            ('b', Some('r')) | ('r', Some('b')) => Some(&[-3]),
            ('b', Some('s')) | ('s', Some('b')) => Some(&[3, -3]),
            _ => None,
        };
        if let Some(t) = two {
            out.extend_from_slice(t);
            i += 2;
            continue;
        }
        out.extend_from_slice(match c {
            'f' => &[0][..],
            'b' => &[4],
            'l' => &[2],
            'r' => &[-2],
            's' => &[2, -2],
            'v' => &[0, 4],
            _ => &[],
        });
        i += 1;
    }
    Some(out)
}

/// The eight King directions (files, ranks), counter-clockwise from one
/// file right: the Betza compiler's turning order and the Checker's leg codes.
pub const UNIT: [Vector; 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

fn unit_index(v: Vector) -> Option<usize> {
    let g = gcd(v.0.unsigned_abs(), v.1.unsigned_abs()) as i8;
    if g == 0 {
        return None;
    }
    let u = (v.0 / g, v.1 / g);
    UNIT.iter().position(|&w| w == u)
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// One modifier group of a leg, split into kinds.
#[derive(Default, Clone)]
struct Group {
    dirs: Vec<char>,
    m: bool,
    c: bool,
    p: bool,
    g: bool,
    i: bool,
    n: bool,
    e: bool,
    y: bool,
}

struct LegSpec {
    group: Group,
    atom: char,
    rider: bool,
    range: u8,
}

/// Parses a Betza string into concrete paths (see the module docs).
///
/// Errors: an unknown letter, a modifier with no atom after it, a later leg
/// whose direction cannot be taken relative to the previous one, a range
/// that does not fit in 1..=255, more than [`MAX_LEGS`] legs in a move or
/// more than [`MAX_PATHS`] paths in all; see [`BetzaErrorKind`].
pub fn parse(text: &str) -> Result<Vec<Path>, BetzaError> {
    let err = |pos: usize, kind: BetzaErrorKind| BetzaError {
        text: text.to_string(),
        pos,
        kind,
    };
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    // Components: (legs, starts_with_a)
    let mut components: Vec<(Vec<LegSpec>, bool, usize)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = chars[i].0;
        let mut groups: Vec<Group> = vec![Group::default()];
        let mut leading_a = false;
        while i < chars.len() && chars[i].1.is_ascii_lowercase() {
            let (pos, c) = chars[i];
            let g = groups.last_mut().expect("at least one group");
            match c {
                'a' => {
                    if groups.len() == 1 && is_empty_group(&groups[0]) {
                        leading_a = true;
                    } else {
                        groups.push(Group::default());
                    }
                }
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => g.dirs.push(c),
                'm' => g.m = true,
                'c' => g.c = true,
                'p' => g.p = true,
                'g' => g.g = true,
                'i' => g.i = true,
                'n' => g.n = true,
                'e' => g.e = true,
                'y' => g.y = true,
                'h' | 'j' | 'o' | 'd' | 'u' | 'k' | 'q' | 't' | 'w' | 'x' | 'z' => {
                    return Err(err(pos, BetzaErrorKind::UnsupportedModifier { letter: c }));
                }
                _ => return Err(err(pos, BetzaErrorKind::UnknownModifier { letter: c })),
            }
            i += 1;
        }
        let Some(&(pos, letter)) = chars.get(i) else {
            return Err(err(text.len(), BetzaErrorKind::MissingAtom));
        };
        if atom(letter).is_none() {
            return Err(err(pos, BetzaErrorKind::UnknownAtom { letter }));
        }
        i += 1;
        let mut rider = atom(letter).map(|a| a.rider).unwrap_or(false);
        if i < chars.len() && chars[i].1 == letter && !rider {
            rider = true;
            i += 1;
        }
        let mut range = if rider { 0u32 } else { 1 };
        let dstart = i;
        while i < chars.len() && chars[i].1.is_ascii_digit() {
            i += 1;
        }
        if i > dstart {
            let digits: String = chars[dstart..i].iter().map(|c| c.1).collect();
            let Ok(n) = digits.parse::<u32>() else {
                return Err(err(chars[dstart].0, BetzaErrorKind::BadRange { digits }));
            };
            if n > 255 {
                let kind = BetzaErrorKind::RangeTooLarge { range: n };
                return Err(err(chars[dstart].0, kind));
            }
            range = n;
            rider = n != 1;
        }
        let legs = groups
            .into_iter()
            .map(|group| LegSpec {
                group,
                atom: letter,
                rider,
                range: range as u8,
            })
            .collect();
        components.push((legs, leading_a, start));
    }
    // Attach `a...` components to the previous one.
    let mut moves: Vec<(Vec<LegSpec>, usize)> = Vec::new();
    for (legs, leading_a, start) in components {
        if leading_a {
            let Some(prev) = moves.last_mut() else {
                return Err(err(start, BetzaErrorKind::LeadingA));
            };
            prev.0.extend(legs);
        } else {
            moves.push((legs, start));
        }
    }
    let mut paths = Paths::default();
    for (legs, start) in moves {
        if legs.len() > MAX_LEGS {
            let kind = BetzaErrorKind::TooManyLegs { legs: legs.len() };
            return Err(err(start, kind));
        }
        expand(&legs, &mut paths).map_err(|kind| err(start, kind))?;
    }
    Ok(paths.list)
}

/// Paths in the order found, without duplicates.
#[derive(Default)]
struct Paths {
    list: Vec<Path>,
    seen: HashSet<Path>,
}

impl Paths {
    /// Adds `p` unless it is there already.
    ///
    /// Errors: the paths would pass [`MAX_PATHS`].
    fn add(&mut self, p: Path) -> Result<(), BetzaErrorKind> {
        if !self.seen.contains(&p) {
            if self.list.len() == MAX_PATHS {
                return Err(BetzaErrorKind::TooManyPaths);
            }
            self.seen.insert(p.clone());
            self.list.push(p);
        }
        Ok(())
    }
}

fn is_empty_group(g: &Group) -> bool {
    g.dirs.is_empty() && !(g.m || g.c || g.p || g.g || g.i || g.n || g.e || g.y)
}

fn mode_of(g: &Group, last: bool, rider: bool) -> Mode {
    let mut mode = Mode {
        to_empty: g.m,
        capture: g.c,
        en_passant: g.e,
        ..Mode::default()
    };
    if last {
        if rider && g.p {
            mode.cannon = true;
        }
        if rider && g.g {
            mode.grasshopper = true;
        }
        if !g.m && !g.c {
            mode.to_empty = true;
            mode.capture = true;
        }
    } else {
        mode.hop_any = g.p;
        if !g.m && !g.c && !g.p {
            mode.to_empty = true;
        }
    }
    mode
}

fn expand(legs: &[LegSpec], out: &mut Paths) -> Result<(), BetzaErrorKind> {
    let first = &legs[0];
    let a = atom(first.atom).expect("checked atom");
    let initial = legs.iter().any(|l| l.group.i);
    let n = legs.len();
    let mut partial: Vec<Vec<Leg>> = Vec::new();
    for &v in &a.vectors {
        if matches(&first.group.dirs, v) {
            partial.push(vec![Leg {
                vector: v,
                range: first.range,
                mode: mode_of(&first.group, n == 1, first.rider),
                lame: first.group.n,
            }]);
        }
    }
    for k in 1..n {
        let spec = &legs[k];
        let prev_spec = &legs[k - 1];
        let la = atom(spec.atom).expect("checked atom");
        let unit_atom = la.vectors.iter().all(|v| v.0.abs() <= 1 && v.1.abs() <= 1);
        if !unit_atom {
            return Err(BetzaErrorKind::LaterLegAtom { atom: spec.atom });
        }
        let rider = spec.rider || prev_spec.group.y;
        let range = if rider && spec.range == 1 {
            0
        } else {
            spec.range
        };
        let mut next = Vec::new();
        let mut seen = HashSet::new();
        for path in partial {
            let prev = path.last().expect("non-empty").vector;
            let Some(pi) = unit_index(prev) else {
                return Err(BetzaErrorKind::CannotTurn);
            };
            let dirs: Vec<Vector> = match turns(&spec.group.dirs) {
                Some(t) => t
                    .iter()
                    .map(|&d| UNIT[((pi as i32 + d).rem_euclid(8)) as usize])
                    .collect(),
                None => la.vectors.clone(),
            };
            for d in dirs {
                let mut p = path.clone();
                p.push(Leg {
                    vector: d,
                    range,
                    mode: mode_of(&spec.group, k == n - 1, rider),
                    lame: false,
                });
                if seen.insert(p.clone()) {
                    if next.len() == MAX_PATHS {
                        return Err(BetzaErrorKind::TooManyPaths);
                    }
                    next.push(p);
                }
            }
        }
        partial = next;
    }
    for legs in partial {
        out.add(Path { legs, initial })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn single(text: &str) -> Vec<(Vector, u8, bool, bool)> {
        let mut v: Vec<_> = parse(text)
            .unwrap()
            .into_iter()
            .map(|p| {
                assert_eq!(p.legs.len(), 1, "{text}");
                let l = p.legs[0];
                (l.vector, l.range, l.mode.to_empty, l.mode.capture)
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn leapers_and_riders() {
        assert_eq!(single("K").len(), 8);
        assert_eq!(single("N").len(), 8);
        assert!(single("R").iter().all(|x| x.1 == 0));
        assert_eq!(single("WW"), single("R"));
        assert_eq!(single("Q2").len(), 8);
        assert!(single("Q2").iter().all(|x| x.1 == 2));
        assert!(single("W2").iter().all(|x| x.1 == 2));
    }

    #[test]
    fn directions() {
        let v: Vec<Vector> = single("ffN").into_iter().map(|x| x.0).collect();
        assert_eq!(v, vec![(-1, 2), (1, 2)]);
        let de: Vec<Vector> = single("FfsW").into_iter().map(|x| x.0).collect();
        assert_eq!(de.len(), 7);
        assert!(!de.contains(&(0, -1)));
        let gold: Vec<Vector> = single("WfF").into_iter().map(|x| x.0).collect();
        assert_eq!(gold.len(), 6);
        let fl: Vec<Vector> = single("flF").into_iter().map(|x| x.0).collect();
        assert_eq!(fl, vec![(-1, 1)]);
        assert_eq!(single("fK").len(), 3);
        assert_eq!(single("sbR").len(), 3);
    }

    #[test]
    fn modes() {
        assert_eq!(
            single("mfWcfF"),
            vec![
                ((-1, 1), 1, false, true),
                ((0, 1), 1, true, false),
                ((1, 1), 1, false, true)
            ]
        );
        let p = parse("ifmnD").unwrap();
        assert_eq!(p.len(), 1);
        assert!(p[0].initial && p[0].legs[0].lame);
        assert_eq!(p[0].legs[0].vector, (0, 2));
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon.iter().filter(|p| p.legs[0].mode.cannon).count(), 4);
    }

    #[test]
    fn lion_legs() {
        let p = parse("KNADcaKmabK").unwrap();
        let one = p.iter().filter(|p| p.legs.len() == 1).count();
        assert_eq!(one, 8 + 8 + 4 + 4);
        // caK: 8 first steps x 8 second steps; mabK: 8 there-and-back.
        let igui = p
            .iter()
            .filter(|p| p.legs.len() == 2 && p.legs[0].mode.capture)
            .count();
        assert_eq!(igui, 64);
        let pass = p
            .iter()
            .filter(|p| p.legs.len() == 2 && !p.legs[0].mode.capture)
            .count();
        assert_eq!(pass, 8);
        assert!(
            p.iter()
                .filter(|p| p.legs.len() == 2 && !p.legs[0].mode.capture)
                .all(|p| { p.legs[1].vector == (-p.legs[0].vector.0, -p.legs[0].vector.1) })
        );
    }

    #[test]
    fn bent_riders() {
        // Giraffe: diagonal step, 45-degree turn outward, at least three squares.
        let g = parse("mFafsmWafmWafR").unwrap();
        assert_eq!(g.len(), 8);
        for p in &g {
            assert_eq!(p.legs.len(), 4);
            let (d, o) = (p.legs[0].vector, p.legs[1].vector);
            assert!(d.0.abs() == 1 && d.1.abs() == 1);
            assert!(
                (o.0 == d.0 && o.1 == 0) || (o.0 == 0 && o.1 == d.1),
                "{d:?} {o:?}"
            );
            assert_eq!(p.legs[3].range, 0);
        }
        // Gryphon: the second leg slides because of `y`.
        let gr = parse("FyafsF").unwrap();
        assert_eq!(
            gr.iter()
                .filter(|p| p.legs.len() == 2 && p.legs[1].range == 0)
                .count(),
            8
        );
        let picket = parse("mFafB").unwrap();
        assert!(picket.iter().all(|p| p.legs[1].vector == p.legs[0].vector));
    }

    #[test]
    fn errors_name_the_position() {
        let e = parse("KX").unwrap_err();
        assert_eq!(e.pos, 1);
        assert_eq!(e.kind, BetzaErrorKind::UnknownAtom { letter: 'X' });
        assert!(parse("fm").is_err());
        assert!(parse("aK").is_err());
        assert!(parse("NaN").is_err());
    }
}
