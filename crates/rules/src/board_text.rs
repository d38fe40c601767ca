//! A position drawn as text, as `kamil play` and Python's `print` show it: file letters above and below,
//! rank numbers on both sides, holes, the last move marked.
//!
//! Each cell is as wide as the longest piece label of the variant plus one
//! marker column on each side. Chess games label pieces with their FEN
//! letters, shogi games with the rule book's IDs; the first player's labels
//! are upper case and the second player's lower case (or, when the IDs
//! themselves mix cases, the second player's carry a `v` prefix). The
//! squares of the last move are bracketed, `[P]`; an empty square is `.`,
//! an empty citadel `+`, a cell that is not a square `#`.

use crate::touched_squares;
use crate::{Move, Piece, Position, Side, Square, Variant};

/// How the second player's pieces are told apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SideMark {
    /// Upper case for the first player, lower case for the second.
    Case,
    /// The label as is for the first player, `v` + label for the second.
    VPrefix,
}

/// Drawing options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Use ANSI colours (only for a terminal that wants them).
    pub color: bool,
    /// Draw from the second player's side: rank 1 at the top, the last
    /// file on the left.
    pub flipped: bool,
}

const RESET: &str = "\x1b[0m";
const FIRST_COLOR: &str = "\x1b[1m";
const SECOND_COLOR: &str = "\x1b[1;31m";
const MARK_COLOR: &str = "\x1b[33m";
const HOLE_COLOR: &str = "\x1b[2m";

/// The label of a piece type for the first player: the rule book's ID in
/// shogi games, the FEN token otherwise.
fn base_label(v: &Variant, kind: usize) -> &str {
    let p = &v.pieces[kind];
    if v.promotion.shogi && !p.id.is_empty() {
        &p.id
    } else {
        &p.token
    }
}

fn side_mark(v: &Variant) -> SideMark {
    let labels: Vec<&str> = (0..v.pieces.len()).map(|k| base_label(v, k)).collect();
    let case_works = labels
        .iter()
        .all(|l| l.chars().any(|c| c.is_uppercase()) && !l.chars().any(|c| c.is_lowercase()));
    if case_works {
        SideMark::Case
    } else {
        SideMark::VPrefix
    }
}

/// The text shown for a piece on the board (`P`, `de`, `+R`, `vDE`).
pub fn piece_label(v: &Variant, p: Piece) -> String {
    let base = base_label(v, p.kind() as usize);
    match (p.side(), side_mark(v)) {
        (Side::First, _) => base.to_string(),
        (Side::Second, SideMark::Case) => base.to_lowercase(),
        (Side::Second, SideMark::VPrefix) => format!("v{base}"),
    }
}

/// Width of the widest label (at least 1).
fn label_width(v: &Variant) -> usize {
    let extra = usize::from(side_mark(v) == SideMark::VPrefix);
    (0..v.pieces.len())
        .map(|k| base_label(v, k).chars().count() + extra)
        .max()
        .unwrap_or(1)
        .max(1)
}

/// Draws `pos` with `last` (normally the last move made) marked. Ranks
/// run from the top (highest) down, so the first player sits at the
/// bottom, unless `style.flipped`. The result ends with a newline; without
/// colour it is plain ASCII whenever the labels are.
pub fn render(pos: &Position, last: Option<Move>, style: Style) -> String {
    let v = pos.variant();
    let g = &v.geometry;
    let w = label_width(v);
    let marked: Vec<Square> = last.map(|m| touched_squares(v, m)).unwrap_or_default();
    let paint = |text: String, code: &str| {
        if style.color {
            format!("{code}{text}{RESET}")
        } else {
            text
        }
    };
    let file_order: Vec<u8> = if style.flipped {
        (0..g.files()).rev().collect()
    } else {
        (0..g.files()).collect()
    };
    let rank_order: Vec<u8> = if style.flipped {
        (0..g.ranks()).collect()
    } else {
        (0..g.ranks()).rev().collect()
    };
    let mut files = String::from("   ");
    for &f in &file_order {
        files.push_str(&format!(" {:>w$} ", g.file_name(f)));
    }
    let files = files.trim_end().to_string();
    let mut out = String::new();
    out.push_str(&files);
    out.push('\n');
    for &r in &rank_order {
        out.push_str(&format!("{:>2} ", r + 1));
        for &f in &file_order {
            let sq = g.cell(f, r);
            if !g.is_square(sq) {
                out.push_str(&paint(format!(" {:>w$} ", "#".repeat(w)), HOLE_COLOR));
                continue;
            }
            let p = pos.at(sq);
            let label = if p.is_piece() {
                let text = format!("{:>w$}", piece_label(v, p));
                let code = if p.side() == Side::First {
                    FIRST_COLOR
                } else {
                    SECOND_COLOR
                };
                paint(text, code)
            } else if v.specials.is_citadel(sq) {
                format!("{:>w$}", "+")
            } else {
                format!("{:>w$}", ".")
            };
            if marked.contains(&sq) {
                out.push_str(&paint("[".into(), MARK_COLOR));
                out.push_str(&label);
                out.push_str(&paint("]".into(), MARK_COLOR));
            } else {
                out.push(' ');
                out.push_str(&label);
                out.push(' ');
            }
        }
        out.push_str(&format!(" {}\n", r + 1));
    }
    out.push_str(&files);
    out.push('\n');
    out
}

/// The names of the two players in this variant's tradition: White and
/// Black in the chess games; Black (Sente) and White (Gote) in the shogi
/// games, where Black moves first.
pub fn side_name(v: &Variant, side: Side) -> &'static str {
    match (v.promotion.shogi, side) {
        (false, Side::First) => "White",
        (false, Side::Second) => "Black",
        (true, Side::First) => "Black (Sente)",
        (true, Side::Second) => "White (Gote)",
    }
}

/// How the pieces of `side` are told apart on the board, as a phrase that
/// follows "pieces": `in upper case`, `in lower case`, `unmarked`,
/// `marked with a v`.
pub fn side_marking(v: &Variant, side: Side) -> &'static str {
    match (side_mark(v), side) {
        (SideMark::Case, Side::First) => "in upper case",
        (SideMark::Case, Side::Second) => "in lower case",
        (SideMark::VPrefix, Side::First) => "unmarked",
        (SideMark::VPrefix, Side::Second) => "marked with a v",
    }
}

/// A few lines explaining the board: how the sides are told apart, what
/// the marks mean, and the pieces' labels and names.
pub fn legend(v: &Variant) -> String {
    let first = side_name(v, Side::First);
    let second = side_name(v, Side::Second);
    let mut out = format!(
        "Pieces {}: {first}, who moves first; pieces {}: {second}.\n",
        side_marking(v, Side::First),
        side_marking(v, Side::Second)
    );
    out.push_str("[ ] the last move's squares; . an empty square; # not a square.\n");
    let citadels = v.specials.citadel_squares();
    if !citadels.is_empty() {
        let list: Vec<String> = citadels
            .iter()
            .map(|&(sq, owner)| format!("{} ({}'s)", v.geometry.name(sq), side_name(v, owner)))
            .collect();
        out.push_str(&format!("+ an empty citadel: {}.\n", list.join(", ")));
    }
    let mut names = Vec::new();
    for (k, p) in v.pieces.iter().enumerate() {
        let label = base_label(v, k);
        let entry = format!("{label} {}", p.name);
        if !names.contains(&entry) {
            names.push(entry);
        }
    }
    let mut line = String::from("Labels:");
    for n in names {
        if line.len() + 2 + n.len() > 78 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("       ");
        }
        line.push_str("  ");
        line.push_str(&n);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use std::sync::Arc;

    fn start(name: &str) -> Position {
        Position::start(Arc::new(Variant::builtin(name, &[]).unwrap()))
    }

    fn lines(s: &str) -> Vec<&str> {
        s.lines().collect()
    }

    /// Every row is as wide as the file header says: cells line up.
    fn assert_aligned(board: &str, files: usize, cell: usize) {
        let ls = lines(board);
        let header = ls[0];
        for row in &ls[1..ls.len() - 1] {
            // "NN " + files * cell + " NN"
            let body = &row[3..3 + files * cell];
            assert_eq!(body.len(), files * cell, "row {row:?}");
            assert!(row.len() >= 3 + files * cell + 2, "row {row:?}");
        }
        // Each file letter sits above the last column of its label.
        for f in 0..files {
            let col = 3 + f * cell + cell - 2;
            let c = header.as_bytes()[col] as char;
            assert_eq!(c, (b'a' + f as u8) as char, "header {header:?}");
        }
    }

    #[test]
    fn courier_board_has_twelve_files_and_eight_ranks() {
        let pos = start("courier");
        let b = render(&pos, None, Style::default());
        let ls = lines(&b);
        assert_eq!(ls.len(), 10, "{b}");
        assert_eq!(ls[0], "    a  b  c  d  e  f  g  h  i  j  k  l");
        assert_eq!(ls[0], ls[9]);
        assert_eq!(ls[1], " 8  r  n  e  b  m  k  .  w  b  e  n  r  8", "{b}");
        assert_eq!(ls[8], " 1  R  N  E  B  M  K  .  W  B  E  N  R  1", "{b}");
        assert!(ls[3].contains(" f "), "{b}");
        assert_aligned(&b, 12, 3);
    }

    #[test]
    fn chess_eight_by_eight_with_last_move_bracketed() {
        let toml = r#"
extends = "courier"
name = "eight"
[board]
files = 8
ranks = 8
[fen]
start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
[pieces.queen]
name = "Queen"
letter = "Q"
betza = "Q"
"#;
        let v = Arc::new(Variant::from_toml("eight.toml", toml, &[]).unwrap());
        let mut pos = Position::start(v);
        let m = parse_move(&mut pos, "e2e3").unwrap();
        pos.make(m);
        let b = render(&pos, pos.last_move(), Style::default());
        let ls = lines(&b);
        assert_eq!(ls[0], "    a  b  c  d  e  f  g  h");
        assert_eq!(ls[1], " 8  r  n  b  q  k  b  n  r  8", "{b}");
        assert_eq!(ls[5], " 4  .  .  .  .  .  .  .  .  4", "{b}");
        assert_eq!(ls[6], " 3  .  .  .  . [P] .  .  .  3", "{b}");
        assert_eq!(ls[7], " 2  P  P  P  P [.] P  P  P  2", "{b}");
        assert_aligned(&b, 8, 3);
        // Without a last move there are no brackets.
        assert!(!render(&pos, None, Style::default()).contains('['));
    }

    #[test]
    fn sho_shogi_shows_ids_and_promoted_forms() {
        let v = Arc::new(Variant::builtin("sho-shogi", &[]).unwrap());
        let fen = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2+R1/LNSGKGSNL b";
        let pos = Position::from_fen(v, fen).unwrap();
        let b = render(&pos, None, Style::default());
        let ls = lines(&b);
        assert_eq!(ls.len(), 11, "{b}");
        assert_eq!(ls[0], "     a   b   c   d   e   f   g   h   i", "{b}");
        assert_eq!(ls[1], " 9   l   n   s   g   k   g   s   n   l  9", "{b}");
        assert_eq!(ls[2], " 8   .   r   .   .  de   .   .   b   .  8", "{b}");
        // The promoted Rook is the Dragon King, ID `DK`.
        assert_eq!(ls[8], " 2   .   B   .   .  DE   .   .  DK   .  2", "{b}");
        assert_aligned(&b, 9, 4);
        let leg = legend(pos.variant());
        assert!(leg.contains("DE Drunk Elephant"), "{leg}");
        assert!(leg.contains("Black (Sente)"), "{leg}");
    }

    #[test]
    fn sixteen_by_sixteen_with_holes_and_mixed_case_ids() {
        let toml = r#"
name = "big"
[board]
files = 16
ranks = 16
holes = ["a1", "p16", "h8"]
[fen]
start = "14k*/16/16/16/16/16/16/16/7*8/16/16/16/16/16/16/*K+G13 w"
[pieces.king]
name = "King"
id = "Kg"
letter = "K"
betza = "K"
royal = true
[pieces.gold]
name = "Gold"
id = "G"
letter = "G"
betza = "WfF"
promoted = "silver"
[pieces.silver]
name = "Promoted Gold"
betza = "FfW"
[promotion]
zone = 3
style = "shogi"
"#;
        let v = Arc::new(Variant::from_toml("big.toml", toml, &[]).unwrap());
        let mut pos = Position::start(v);
        let m = parse_move(&mut pos, "b1b2").unwrap();
        pos.make(m);
        let b = render(&pos, pos.last_move(), Style::default());
        let ls = lines(&b);
        assert_eq!(ls.len(), 18, "{b}");
        // `Kg` mixes cases, so the second player's pieces get a `v`: the
        // widest label is `vKg`, three columns, five per cell.
        assert!(ls[0].starts_with("      a    b    c"), "{b}");
        assert!(ls[0].ends_with("o    p"), "{b}");
        assert!(ls[1].starts_with("16 "), "{b}");
        assert!(ls[1].ends_with(" ###  16"), "{b}");
        assert!(ls[1].contains(" vKg "), "{b}");
        assert!(ls[9].contains(" ### "), "rank 8 has a hole at h8:\n{b}");
        assert_eq!(ls[9].matches('#').count(), 3, "{b}");
        assert!(ls[16].starts_with(" 1  ### [  .]  +G "), "{b}");
        assert!(ls[15].starts_with(" 2    . [ Kg] "), "{b}");
        assert_aligned(&b, 16, 5);
        assert!(
            legend(pos.variant()).contains("pieces marked with a v: White (Gote)"),
            "{}",
            legend(pos.variant())
        );
    }

    #[test]
    fn flipped_board_puts_the_second_player_at_the_bottom() {
        let pos = start("courier");
        let b = render(
            &pos,
            None,
            Style {
                flipped: true,
                ..Style::default()
            },
        );
        let ls = lines(&b);
        assert_eq!(ls[0], "    l  k  j  i  h  g  f  e  d  c  b  a", "{b}");
        assert_eq!(ls[1], " 1  R  N  E  B  W  .  K  M  B  E  N  R  1", "{b}");
        assert_eq!(ls[8], " 8  r  n  e  b  w  .  k  m  b  e  n  r  8", "{b}");
    }

    #[test]
    fn colour_only_when_asked() {
        let pos = start("courier");
        assert!(!render(&pos, None, Style::default()).contains('\x1b'));
        let c = render(
            &pos,
            None,
            Style {
                color: true,
                ..Style::default()
            },
        );
        assert!(c.contains(SECOND_COLOR) && c.contains(RESET));
    }

    #[test]
    fn tamerlane_board_shows_the_citadels_in_place() {
        let mut pos = start("tamerlane");
        let b = render(&pos, None, Style::default());
        let ls = lines(&b);
        assert_eq!(ls.len(), 12, "{b}");
        assert_eq!(
            ls[0], "     z   a   b   c   d   e   f   g   h   i   j   k   l",
            "{b}"
        );
        // z9 (Black's citadel) left of a9, l2 (White's) right of k2; the
        // other cells of columns z and l are no squares.
        assert_eq!(
            ls[2], " 9   +   r   n   t   g   w   k   f   g   t   n   r  ##  9",
            "{b}"
        );
        assert_eq!(
            ls[9], " 2  ##   R   N   T   G   F   K   W   G   T   N   R   +  2",
            "{b}"
        );
        assert!(
            ls[1].starts_with("10  ##") && ls[1].ends_with("##  10"),
            "{b}"
        );
        assert!(legend(pos.variant()).contains("+ an empty citadel: l2 (White's), z9 (Black's)."));
        // A King in the opponent's citadel is drawn there.
        let fen = "*K10*/12*/*11*/*11*/*11*/*11*/*11*/*11*/*12/*10k* w Kk 0 1";
        pos = Position::from_fen(pos.variant().clone(), fen).unwrap();
        let m = parse_move(&mut pos, "a10z9").unwrap();
        pos.make(m);
        let b = render(&pos, Some(m), Style::default());
        assert!(lines(&b)[2].starts_with(" 9 [ K]"), "{b}");
    }
}
