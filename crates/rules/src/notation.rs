//! Move text: coordinate notation `a1a2`, two-digit ranks (`b10c12`), every
//! square of a multi-leg move (`e5f6g7`, `e5f6e5` for a Lion pass), and a
//! promotion suffix (`+` in the shogi games, the new piece's letter in the
//! chess games), `ep` on a capture in passing whose piece could also step
//! there without capturing (Frolov's Sergeant), then Frolov's `/sq` for a
//! bonus upgrade or `@sq` for the drop square of a hostile general. Reading
//! also accepts `-`, `x`, `=`, `e.p.`, spaces, upper case, XBoard's comma
//! form `e5f6,f6g7`, and any spelling of a move with the same origin, final
//! square, captured squares and promotion (`ep` then asks for the capture
//! in passing).

use crate::excerpt::excerpt;
use crate::geometry::{Geometry, Square};
use crate::movegen::legal_moves;
use crate::moves::{Move, MoveKind};
use crate::piece::Side;
use crate::position::Position;
use crate::variant::Variant;

/// A move text that is not a legal move here: the text and what is wrong.
///
/// Displayed as ``move `TEXT`: `` and then the kind's text (a long text cut
/// to an [`excerpt`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move `{}`: {kind}", excerpt(.text))]
pub struct MoveError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub kind: MoveErrorKind,
}

impl MoveError {
    /// What is wrong, as the text after the move.
    pub fn what(&self) -> String {
        self.kind.to_string()
    }
}

/// What is wrong with a move text. Squares are named as in our notation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveErrorKind {
    /// Text that names fewer than two squares.
    #[error("not a move in coordinate notation (e.g. {example})")]
    Malformed {
        /// A move text of this board's form, to show.
        example: String,
    },
    /// The square after `/` or `@` (a Frolov upgrade or drop square) is no
    /// square.
    #[error("`{}` is not a square", excerpt(.text))]
    BadSquare {
        /// The text after the mark.
        text: String,
    },
    /// XBoard text naming a cell that is not a square of this board.
    #[error("`{}` is not a square of this board", excerpt(.text))]
    OffBoard {
        /// The square as XBoard wrote it.
        text: String,
    },
    /// No piece stands on the origin square.
    #[error("no piece on {square}")]
    NoPiece {
        /// The origin square.
        square: String,
    },
    /// The piece on the origin square is the opponent's.
    #[error("the piece on {square} is not the side to move's")]
    NotSideToMove {
        /// The origin square.
        square: String,
    },
    /// The side to move's piece has no legal move of this spelling.
    #[error("illegal; {}", not_legal_text(.square, .legal))]
    NotLegal {
        /// The origin square.
        square: String,
        /// The legal moves of the piece there, in our notation (empty when
        /// it has none).
        legal: Vec<String>,
    },
    /// XBoard's null move `@@@@` when no pass is legal.
    #[error(
        "XBoard's null move, a pass (a Lion's move out and back to its square), \
         and no pass is legal here"
    )]
    NoPass,
}

/// The text of [`MoveErrorKind::NotLegal`] after `illegal; `.
/// The end of an illegal-move message: the piece's legal moves, or that
/// it has none (shared with [`crate::usi`]).
pub(crate) fn not_legal_text(square: &str, legal: &[String]) -> String {
    if legal.is_empty() {
        format!("the piece on {square} has no legal move")
    } else {
        format!("legal moves of {square}: {}", legal.join(" "))
    }
}

/// The text of a move in our notation.
pub fn move_text(v: &Variant, m: Move) -> String {
    let g = &v.geometry;
    let mut s = String::new();
    if m.kind == MoveKind::Opening {
        let side = if g.rank(m.from) < g.ranks() / 2 { 0 } else { 1 };
        let side = if side == 0 { Side::First } else { Side::Second };
        if v.specials.has_compulsory_opening() {
            for &(a, b) in v.specials.opening_advances(side) {
                s.push_str(&format!("{}{}", g.name(a), g.name(b)));
            }
            return s;
        }
    }
    s.push_str(&g.name(m.from).to_string());
    if m.kind == MoveKind::Checker {
        // A Checker series: every landing square (`c3e5g7`).
        v.specials
            .for_each_series_leg(&m, |_, land| s.push_str(&g.name(land).to_string()));
        return s;
    }
    if m.via.is_some() {
        s.push_str(&g.name(m.via).to_string());
    }
    s.push_str(&g.name(m.to).to_string());
    if m.kind == MoveKind::CitadelSwap {
        // The King's entry, then the partner's square (rules/tamerlane.md 5.5).
        s.push_str(&g.name(m.extra).to_string());
        return s;
    }
    if let Some(t) = m.promotion() {
        if v.promotion.shogi {
            s.push('+');
        } else if !v.promotion.silent {
            s.push_str(&v.pieces[v.final_form(t) as usize].token.to_lowercase());
        }
    }
    if m.ep_mark {
        s.push_str("ep");
    }
    if m.aux.is_some() {
        s.push(aux_mark(v, m));
        s.push_str(&g.name(m.aux).to_string());
    }
    s
}

/// `@` before a hostile general's drop square, `/` before an upgraded
/// piece's square (rules/frolov-10x10.md 5.3, 5.5).
fn aux_mark(v: &Variant, m: Move) -> char {
    match m.promotion() {
        Some(t) if v.specials.is_hostile_promotion(t) => '@',
        _ => '/',
    }
}

fn normalize(text: &str) -> String {
    // `e.p.` (the rule books' mark, also in brackets) reads as `ep`.
    let t: String = text
        .to_lowercase()
        .replace("e.p.", "ep")
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '=' | '(' | ')'))
        .collect();
    // XBoard's comma form, one leg after another: `e5f6,f6g7` -> `e5f6g7`.
    let mut legs = t.split(',');
    let mut t = legs.next().unwrap_or_default().to_string();
    for b in legs {
        let last: String = t.chars().rev().take_while(|c| c.is_ascii_digit()).collect();
        let tail_len = last.len() + 1;
        if t.len() >= tail_len
            && t.is_char_boundary(t.len() - tail_len)
            && b.starts_with(&t[t.len() - tail_len..])
        {
            t.push_str(&b[tail_len..]);
        } else {
            t.push_str(b);
        }
    }
    // An `x` between squares marks a capture.
    let b: Vec<char> = t.chars().collect();
    let mut out = String::new();
    for (i, &c) in b.iter().enumerate() {
        let prev_digit = i > 0 && b[i - 1].is_ascii_digit();
        let next_letter = b.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
        if c == 'x' && (i == 0 || prev_digit) && next_letter && i + 1 < b.len() {
            continue;
        }
        out.push(c);
    }
    out
}

/// Splits normalized text into squares and the suffix after them.
fn squares_of(v: &Variant, t: &str) -> (Vec<Square>, String) {
    let mut sqs = Vec::new();
    let mut rest = t;
    while let Some((sq, used)) = v.geometry.parse_square_prefix(rest) {
        sqs.push(sq);
        rest = &rest[used..];
    }
    (sqs, rest.to_string())
}

/// Reads a move in any accepted spelling and returns it if it is legal in
/// `pos` (game-end rules included: no move is legal once the game has ended
/// by a rule).
///
/// Errors: text that names fewer than two squares
/// ([`MoveErrorKind::Malformed`]) or a `/`/`@` suffix that is no square
/// ([`MoveErrorKind::BadSquare`]); a move not legal here: no piece on the
/// origin ([`MoveErrorKind::NoPiece`]), the opponent's piece
/// ([`MoveErrorKind::NotSideToMove`]), else [`MoveErrorKind::NotLegal`] with
/// the legal moves of the piece on the origin square.
pub fn parse_move(pos: &mut Position, text: &str) -> Result<Move, MoveError> {
    let v = pos.variant().clone();
    let err = |kind: MoveErrorKind| MoveError {
        text: text.to_string(),
        kind,
    };
    let t = normalize(text);
    let legal = pos.legal_moves();
    if let Some(m) = legal.iter().find(|m| move_text(&v, **m) == t) {
        return Ok(*m);
    }
    // A `/sq` or `@sq` suffix names the move's second square (`aux`).
    let (t, aux) = match t.rfind(['/', '@']) {
        Some(i) => match v.geometry.parse_square(&t[i + 1..]) {
            Some(sq) => (t[..i].to_string(), sq),
            None => {
                return Err(err(MoveErrorKind::BadSquare {
                    text: t[i + 1..].to_string(),
                }));
            }
        },
        None => (t, Square::NONE),
    };
    let (sqs, suffix) = squares_of(&v, &t);
    // A closing `ep` asks for a capture in passing.
    let (suffix, ep) = match suffix.strip_suffix("ep") {
        Some(rest) => (rest.to_string(), true),
        None => (suffix, false),
    };
    if sqs.len() < 2 {
        return Err(err(MoveErrorKind::Malformed {
            example: example(&v),
        }));
    }
    let (from, to) = (sqs[0], *sqs.last().expect("two or more"));
    if suffix.is_empty()
        && let Some(m) = v.specials.series_by_path(pos, &sqs, &legal)
    {
        return Ok(m);
    }
    // Same origin, final square, captured squares and promotion.
    let caps = |m: &Move| {
        let mut c = Vec::new();
        if m.via_capture {
            c.push(m.via);
        }
        if m.to != m.from && pos.at(m.to).is_piece() {
            c.push(m.to);
        }
        c
    };
    let mut wanted: Vec<Square> = sqs[1..]
        .iter()
        .copied()
        .filter(|&s| s != from && pos.at(s).is_side(pos.side().flip()))
        .collect();
    wanted.dedup();
    for m in &legal {
        // Checker series are matched by their path above.
        if m.from != from
            || m.to != to
            || m.aux != aux
            || m.kind == MoveKind::Opening
            || m.kind == MoveKind::Checker
            || (ep && m.kind != MoveKind::EnPassant)
        {
            continue;
        }
        let mut c = caps(m);
        c.sort();
        let mut w = wanted.clone();
        w.sort();
        if c != w {
            continue;
        }
        let suffix_ok = match m.promotion() {
            None => suffix.is_empty(),
            Some(p) => {
                if v.promotion.shogi {
                    suffix == "+"
                } else {
                    (v.promotion.silent && suffix.is_empty())
                        || suffix == v.pieces[v.final_form(p) as usize].token.to_lowercase()
                }
            }
        };
        if suffix_ok {
            return Ok(*m);
        }
    }
    let of_piece: Vec<String> = legal
        .iter()
        .filter(|m| m.from == from)
        .map(|m| move_text(&v, *m))
        .collect();
    let p = pos.at(from);
    let square = v.geometry.name(from).to_string();
    Err(err(if !p.is_piece() {
        MoveErrorKind::NoPiece { square }
    } else if !p.is_side(pos.side()) {
        MoveErrorKind::NotSideToMove { square }
    } else {
        MoveErrorKind::NotLegal {
            square,
            legal: of_piece,
        }
    }))
}

fn example(v: &Variant) -> String {
    let g = &v.geometry;
    let a = g.squares().next().expect("a board has squares");
    let b = g.squares().nth(g.files() as usize).unwrap_or(a);
    format!("{}{}", g.name(a), g.name(b))
}

/// XBoard's name of a square (CECP, "MOVE"): the file's letter counted
/// from `a` on the grid (whatever this board calls its files, e.g.
/// Tamerlane's `z`), the rank counted from 1, except on boards of exactly
/// ten ranks, where XBoard counts from 0.
pub fn xboard_square(g: &Geometry, sq: Square) -> String {
    let file = (b'a' + g.file(sq)) as char;
    let base = if g.ranks() == 10 { 0 } else { 1 };
    format!("{file}{}", g.rank(sq) as u32 + base)
}

/// Reads one XBoard square name at the start of `s` (see
/// [`xboard_square`]); returns the cell and the bytes used. The cell may be
/// a hole: callers check [`Geometry::is_square`].
fn xboard_square_prefix(g: &Geometry, s: &str) -> Option<(Square, usize)> {
    let b = s.as_bytes();
    let file = b.first()?.to_ascii_lowercase().checked_sub(b'a')?;
    if file >= g.files() {
        return None;
    }
    let base = if g.ranks() == 10 { 0 } else { 1 };
    let digit = |i: usize| {
        b.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| (c - b'0') as u32)
    };
    let one = digit(1)?;
    let fits = |n: u32| n >= base && n - base < g.ranks() as u32;
    if let Some(two) = digit(2).map(|d| one * 10 + d)
        && one != 0
        && fits(two)
    {
        return Some((g.cell(file, (two - base) as u8), 3));
    }
    fits(one).then(|| (g.cell(file, (one - base) as u8), 2))
}

/// The text of a move as XBoard writes it: XBoard's square names (see
/// [`xboard_square`]), one leg per comma-separated part for a multi-leg
/// move (`e5e6,e6e7`; a Lion's igui `e5e6,e6e5`), the promotion suffix on
/// the last leg.
pub fn xboard_move_text(v: &Variant, m: Move) -> String {
    to_xboard(v, &move_text(v, m))
}

/// Our move text (`e5e6e7`, `b10c11b12+`, `a7a8f`) in XBoard's form (see
/// [`xboard_move_text`]). Text that names fewer than two squares is
/// returned unchanged.
pub fn to_xboard(v: &Variant, text: &str) -> String {
    let g = &v.geometry;
    let mut squares = Vec::new();
    let mut rest = text;
    while let Some((sq, used)) = g.parse_square_prefix(rest) {
        squares.push(sq);
        rest = &rest[used..];
    }
    if squares.len() < 2 {
        return text.to_string();
    }
    let names: Vec<String> = squares.iter().map(|&s| xboard_square(g, s)).collect();
    let legs: Vec<String> = names
        .windows(2)
        .map(|w| format!("{}{}", w[0], w[1]))
        .collect();
    format!("{}{rest}", legs.join(","))
}

/// A move in XBoard's text (see [`xboard_move_text`]; legs may also come
/// chained without commas) as our move text, ready for [`parse_move`].
///
/// Errors: the text names fewer than two squares
/// ([`MoveErrorKind::Malformed`]), or a cell that is not a square of this
/// board ([`MoveErrorKind::OffBoard`]).
pub fn from_xboard(v: &Variant, text: &str) -> Result<String, MoveError> {
    let g = &v.geometry;
    let err = |kind: MoveErrorKind| MoveError {
        text: text.to_string(),
        kind,
    };
    let mut squares: Vec<Square> = Vec::new();
    let mut rest = text.trim();
    loop {
        rest = rest.trim_start_matches([',', '-', 'x']);
        let Some((sq, used)) = xboard_square_prefix(g, rest) else {
            break;
        };
        if !g.is_square(sq) {
            return Err(err(MoveErrorKind::OffBoard {
                text: rest[..used].to_string(),
            }));
        }
        // A leg starts where the previous one ended: `e5e6,e6e7`.
        if squares.len() < 2 || squares.last() != Some(&sq) || !text.contains(',') {
            squares.push(sq);
        }
        rest = &rest[used..];
    }
    if squares.len() < 2 {
        return Err(err(MoveErrorKind::Malformed {
            example: example(v),
        }));
    }
    let mut out: String = squares.iter().map(|&s| g.name(s).to_string()).collect();
    out.push_str(rest);
    Ok(out)
}

/// Reads a move in XBoard's text (see [`from_xboard`]) and returns it if it
/// is legal in `pos`, as [`parse_move`] does.
///
/// Errors: as [`from_xboard`] and [`parse_move`], naming the text given;
/// [`MoveErrorKind::NoPass`] for `@@@@` when no pass is legal.
///
/// XBoard's null move `@@@@` is a pass (HaChu writes a Lion pass so and
/// accepts nothing else for one), and `g6g6` a pass of the piece on g6:
/// both are read as the legal pass of [`legal_pass`].
pub fn parse_xboard_move(pos: &mut Position, text: &str) -> Result<Move, MoveError> {
    let err = |kind: MoveErrorKind| MoveError {
        text: text.to_string(),
        kind,
    };
    if text.trim() == "@@@@" {
        return legal_pass(pos, None).ok_or_else(|| err(MoveErrorKind::NoPass));
    }
    let ours = from_xboard(pos.variant(), text)?;
    parse_move(pos, &ours).or_else(|e| {
        let g = &pos.variant().geometry;
        if let Some((sq, used)) = g.parse_square_prefix(&ours)
            && ours[used..] == ours[..used]
            && let Some(m) = legal_pass(pos, Some(sq))
        {
            return Ok(m);
        }
        Err(err(e.kind))
    })
}

/// Reads a move in the SAN XBoard writes in its game files (PGN) and
/// returns it if it is legal in `pos`: `Nf3`, `Ngxe5`, `exd5`, `+Dxe5`
/// (a promoted piece), `P8f+` / `e9=` (shogi promotion taken / declined),
/// `a8=Q`, `O-O`; a Lion's double move as its first leg, then `-` or `x`
/// and the final square (`Lxf4-f5`, `Lg5-f5` for a pass, `Lxf4-f3` for an
/// igui); `--` for a pass (HaChu's null move `@@@@`, as XBoard records it).
/// Squares are XBoard's ([`xboard_square`]). The piece letter only breaks
/// ties between moves with the same squares.
///
/// Errors: [`MoveErrorKind::Malformed`] for text that names no square, or
/// names squares no legal move (or more than one) fits: then
/// [`MoveErrorKind::NotLegal`] as [`parse_move`] gives it;
/// [`MoveErrorKind::NoPass`] for `--` when no pass is legal.
pub fn parse_xboard_san(pos: &mut Position, text: &str) -> Result<Move, MoveError> {
    let v = pos.variant().clone();
    let g = &v.geometry;
    let err = |kind: MoveErrorKind| MoveError {
        text: text.to_string(),
        kind,
    };
    let malformed = || {
        err(MoveErrorKind::Malformed {
            example: example(&v),
        })
    };
    let t = text.trim().trim_end_matches(['#', '!', '?']);
    if t == "--" {
        return legal_pass(pos, None).ok_or_else(|| err(MoveErrorKind::NoPass));
    }
    let legal = pos.legal_moves();
    let castle = match t.trim_end_matches('+') {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(short) = castle {
        let found: Vec<&Move> = legal
            .iter()
            .filter(|m| m.kind == MoveKind::Castle && (g.file(m.to) > g.file(m.from)) == short)
            .collect();
        return match found.as_slice() {
            [m] => Ok(**m),
            _ => Err(malformed()),
        };
    }
    let Some(San {
        promote,
        promoted_piece,
        letters,
        squares,
        file,
        rank,
    }) = read_san(&v, t)
    else {
        return Err(malformed());
    };
    let base = if g.ranks() == 10 { 0 } else { 1 };
    let near = |a: Square, b: Square| {
        let df = (i32::from(g.file(a)) - i32::from(g.file(b))).abs();
        let dr = (i32::from(g.rank(a)) - i32::from(g.rank(b))).abs();
        df.max(dr) == 1
    };
    // Strictly, a one-square SAN is a one-leg move; failing that, any.
    let fits = |m: &Move, strict: bool| {
        let legs_ok = match squares.as_slice() {
            [to] => m.to == *to && (!m.via.is_some() || !strict),
            // A disambiguated origin, or a double move's first leg.
            [a, to] => {
                m.to == *to
                    && ((m.from == *a && !m.via.is_some())
                        || m.via == *a
                        // A double move through an empty square, which
                        // our list holds as one jump (`f5f7` for `Lf6-f7`).
                        || (!strict
                            && !m.via.is_some()
                            && pos.at(*a).is_empty()
                            && near(m.from, *a)
                            && near(*a, m.to)))
            }
            [from, via, to] => m.from == *from && m.via == *via && m.to == *to,
            _ => false,
        };
        let promo_ok = match (&promote, m.promotion()) {
            (None, None) => true,
            (Some(None), Some(_)) => true,
            (Some(Some(letter)), Some(p)) => {
                v.pieces[v.final_form(p) as usize].token.to_lowercase() == *letter
            }
            _ => false,
        };
        legs_ok
            && promo_ok
            && m.kind != MoveKind::Castle
            && file.is_none_or(|f| g.file(m.from) == f)
            && rank.is_none_or(|r| g.rank(m.from) as u32 + base == r)
    };
    let mut found: Vec<Move> = legal.iter().copied().filter(|m| fits(m, true)).collect();
    if found.is_empty() {
        found = legal.iter().copied().filter(|m| fits(m, false)).collect();
    }
    if found.is_empty()
        && let [_, back] = squares.as_slice()
        && pos.at(*back).is_side(pos.side())
        && let Some(m) = legal_pass(pos, Some(*back))
    {
        // A pass through a square our list spells another way: every pass
        // of a piece is the same move.
        return Ok(m);
    }
    if found.len() > 1 && !letters.is_empty() {
        // The piece letter: the piece's token, its promoted form marked `+`.
        let first = letters.chars().next().unwrap_or(' ');
        found.retain(|m| {
            let p = pos.at(m.from);
            let info = &v.pieces[p.kind() as usize];
            let base = match info.demoted {
                Some(d) => &v.pieces[d as usize],
                None => info,
            };
            let named = base.id == letters || base.token.starts_with(first);
            named && info.demoted.is_some() == promoted_piece
        });
    }
    if found.len() > 1 {
        // Without a letter, a pawn's move (XBoard writes pawns bare).
        found.retain(|m| pos.at(m.from).kind() == found_kind(&v, &letters));
    }
    match found.as_slice() {
        [m] => Ok(*m),
        _ => Err(err(MoveErrorKind::NotLegal {
            square: g.name(squares[0]).to_string(),
            legal: legal
                .iter()
                .filter(|m| m.to == squares[squares.len() - 1])
                .map(|m| move_text(&v, *m))
                .collect(),
        })),
    }
}

/// A SAN move taken apart (see [`parse_xboard_san`]).
struct San {
    /// `None`: no promotion; `Some(None)`: shogi's `+`; `Some(Some(x))`:
    /// chess's `=X`, the letter in lower case.
    promote: Option<Option<String>>,
    /// `+` before the piece letter: a promoted piece.
    promoted_piece: bool,
    /// The piece letter(s), empty for a pawn.
    letters: String,
    /// The squares named, in order (XBoard's names read).
    squares: Vec<Square>,
    /// A disambiguating file of the origin (0 for `a`).
    file: Option<u8>,
    /// A disambiguating rank of the origin, as XBoard counts.
    rank: Option<u32>,
}

/// Takes SAN text `t` (no castling, no `--`) apart; `None` when it is not
/// SAN or names a cell that is not a square.
fn read_san(v: &Variant, t: &str) -> Option<San> {
    let g = &v.geometry;
    // The promotion mark: shogi `+` (promote) or `=` (decline); chess `=Q`
    // (a `+` after a chess move is check).
    let mut body = t;
    let mut promote: Option<Option<String>> = None;
    if v.promotion.shogi {
        if let Some(b) = body.strip_suffix('+') {
            body = b;
            promote = Some(None);
        } else if let Some(b) = body.strip_suffix('=') {
            body = b;
        }
    } else {
        body = body.trim_end_matches('+');
        if let Some(i) = body.rfind('=') {
            promote = Some(Some(body[i + 1..].to_lowercase()));
            body = &body[..i];
        }
    }
    let promoted_piece = body.starts_with('+');
    let body = body.trim_start_matches('+');
    let mut letters: String = body
        .chars()
        .take_while(|c| c.is_ascii_uppercase() || *c == '\'' || *c == '!')
        .collect();
    // A rule-book ID longer than the capitals (`Ln`, as `kamil play` and
    // the page label pieces): the whole label.
    if let Some(id) = v
        .pieces
        .iter()
        .map(|p| p.id.as_str())
        .filter(|id| id.len() > letters.len() && body.starts_with(id))
        .max_by_key(|id| id.len())
    {
        letters = id.to_string();
    }
    let mut rest = &body[letters.len()..];
    let (mut squares, mut file, mut rank) = (Vec::new(), None, None);
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix(['x', '-']) {
            rest = r;
        } else if let Some((sq, used)) = xboard_square_prefix(g, rest) {
            squares.push(sq);
            rest = &rest[used..];
        } else if rest.as_bytes()[0].is_ascii_lowercase() {
            file = Some(rest.as_bytes()[0] - b'a');
            rest = &rest[1..];
        } else if rest.as_bytes()[0].is_ascii_digit() {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            rank = digits.parse::<u32>().ok();
            rest = &rest[digits.len()..];
        } else {
            return None;
        }
    }
    if squares.is_empty() || squares.iter().any(|&s| !g.is_square(s)) {
        return None;
    }
    Some(San {
        promote,
        promoted_piece,
        letters,
        squares,
        file,
        rank,
    })
}

/// The piece type a SAN letter names, by token (the pawn for none);
/// `u8::MAX` when no piece has it.
fn found_kind(v: &Variant, letters: &str) -> u8 {
    let want = if letters.is_empty() { "P" } else { letters };
    v.pieces
        .iter()
        .position(|p| p.token == want && p.demoted.is_none())
        .map_or(u8::MAX, |k| k as u8)
}

/// Is `m` a pass: a two-leg move back to its origin that captures nothing
/// (a Lion's pass, rules/chu-shogi.md 5, written `e5f6e5`)?
pub fn is_pass(m: &Move) -> bool {
    m.kind == MoveKind::Normal && m.to == m.from && m.via.is_some() && !m.via_capture
}

/// A legal pass ([`is_pass`]) of the side to move: by the piece on `from`,
/// or by any piece when `from` is `None`. Every pass leaves the same
/// position, so which one does not matter. Returns `None` when no pass is
/// legal.
pub fn legal_pass(pos: &mut Position, from: Option<Square>) -> Option<Move> {
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    moves
        .into_iter()
        .find(|m| is_pass(m) && from.is_none_or(|f| m.from == f))
}

#[cfg(test)]
mod xboard_tests {
    use super::*;
    use std::sync::Arc;

    /// A 10x10 board, where XBoard counts ranks from 0.
    const TEN: &str = r#"
name = "ten"
[board]
files = 10
ranks = 10
[fen]
start = "4k5/10/10/10/10/10/10/10/N9/4K5 w"
[pieces.king]
name = "King"
letter = "K"
betza = "K"
royal = true
[pieces.lion]
name = "Lion"
letter = "N"
betza = "KNADcaKmabK"
"#;

    #[test]
    fn ten_rank_boards_count_from_zero_and_legs_take_commas() {
        let v = Variant::from_toml("ten.toml", TEN, &[]).unwrap();
        let g = &v.geometry;
        assert_eq!(xboard_square(g, g.parse_square("a1").unwrap()), "a0");
        assert_eq!(xboard_square(g, g.parse_square("j10").unwrap()), "j9");
        assert_eq!(to_xboard(&v, "a1a2"), "a0a1");
        assert_eq!(to_xboard(&v, "e5e6e7"), "e4e5,e5e6");
        assert_eq!(from_xboard(&v, "a0a1").unwrap(), "a1a2");
        assert_eq!(from_xboard(&v, "e4e5,e5e6").unwrap(), "e5e6e7");
        assert_eq!(from_xboard(&v, "e4e5,e5e4").unwrap(), "e5e6e5");
        assert!(from_xboard(&v, "k0k1").is_err());
        assert!(from_xboard(&v, "@@@@").is_err());
    }

    #[test]
    fn twelve_rank_boards_keep_two_digit_ranks() {
        let v = Arc::new(Variant::builtin("chu-shogi", &[]).unwrap());
        assert_eq!(to_xboard(&v, "b10c11b12+"), "b10c11,c11b12+");
        assert_eq!(from_xboard(&v, "b10c11,c11b12+").unwrap(), "b10c11b12+");
        assert_eq!(to_xboard(&v, "h4h5"), "h4h5");
        let mut pos = Position::start(v.clone());
        let m = parse_xboard_move(&mut pos, "h4h5").unwrap();
        assert_eq!(xboard_move_text(&v, m), "h4h5");
        let e = parse_xboard_move(&mut pos, "h3h4").unwrap_err();
        assert_eq!(e.text, "h3h4");
    }

    /// Plays `texts` (XBoard's SAN) from the start of `variant`; returns
    /// them in our notation.
    fn san_game(variant: &str, texts: &[&str]) -> Vec<String> {
        let v = Arc::new(Variant::builtin(variant, &[]).unwrap());
        let mut pos = Position::start(v.clone());
        texts
            .iter()
            .map(|t| {
                let m = parse_xboard_san(&mut pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
                pos.make(m);
                move_text(&v, m)
            })
            .collect()
    }

    #[test]
    fn xboard_san_as_xboard_writes_game_files() {
        // Courier: pieces by letter, pawns bare, a capture, check.
        assert_eq!(
            san_game(
                "courier",
                &["Nc3", "b6", "Ra3", "Nj6", "Nb5", "Nh5", "Nxc7+"]
            ),
            ["b1c3", "b7b6", "a1a3", "k8j6", "c3b5", "j6h5", "b5c7"]
        );
        // Chu Shogi: the pawn and the Lion both reach f5: bare is the pawn,
        // `N` the Lion; a Lion's double move (first leg, then `-`), a pass
        // as XBoard's `--` and as `Lion out and back`.
        assert_eq!(san_game("chu-shogi", &["f5", "f8"]), ["f4f5", "f9f8"]);
        // The rule book's ID as `kamil play` labels the Lion (issue 80).
        assert_eq!(san_game("chu-shogi", &["Lnf5", "f8"]), ["f3f5", "f9f8"]);
        let game = san_game(
            "chu-shogi",
            &["Nf5", "f8", "Nf6-f7", "e8", "--", "g8", "Ng7-f7"],
        );
        assert_eq!(game[..4], ["f3f5", "f9f8", "f5f7", "e9e8"]);
        assert_eq!(game[5], "g9g8");
        for pass in [&game[4], &game[6]] {
            assert!(
                pass.len() == 6 && pass.starts_with("f7") && pass.ends_with("f7"),
                "{game:?}"
            );
        }
        // Not a legal move, or not a move at all: errors naming the text.
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let mut pos = Position::start(v);
        assert_eq!(parse_xboard_san(&mut pos, "Nd4").unwrap_err().text, "Nd4");
        assert!(parse_xboard_san(&mut pos, "Q").is_err());
        assert!(parse_xboard_san(&mut pos, "--").is_err());
    }
}
