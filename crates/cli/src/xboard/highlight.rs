//! Answers to XBoard's `lift SQUARE` (CECP v2, `highlight` feature): a
//! `highlight COLORFEN` marking where the lifted piece may go, so a person
//! can enter moves of games XBoard does not know, Lion double moves
//! included. Colours as HaChu uses them: yellow an empty target, red a
//! capture, cyan the first stop of a two-leg move (the move is not finished
//! there), magenta a shogi promotion square, blue a chess-style promotion
//! square (answered by `choice` on `put`).

use super::ids::XboardIds;
use kamil_rules::{Move, Position, Square};

/// One mark per cell, `None` = unmarked.
type Marks = Vec<Option<char>>;

/// What the user has lifted and put so far while entering one move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    /// The square of the last lift that showed targets (the piece's origin).
    pub lifted: Option<Square>,
    /// The square of the last `put`.
    pub put: Option<Square>,
}

fn legal(pos: &mut Position) -> Vec<Move> {
    pos.legal_moves()
}

fn mark_target(pos: &Position, marks: &mut Marks, m: &Move, to: Square) {
    let i = to.index();
    let colour = if m.promotion().is_some() {
        if pos.variant().promotion.shogi {
            'M'
        } else {
            'B'
        }
    } else if pos.at(to).is_piece() && to != m.from {
        'R'
    } else {
        'Y'
    };
    // A promotion mark outranks a plain one; a cyan leg mark outranks both.
    match marks[i] {
        Some('C') => {}
        Some('M') | Some('B') if colour == 'Y' || colour == 'R' => {}
        _ => marks[i] = Some(colour),
    }
}

/// The `highlight` line for `lift sq`, or `None` when there is nothing to
/// mark (an empty square, the opponent's piece). Lifting the piece again
/// from the cyan square it was put on marks where its second leg may end.
pub fn lift(pos: &mut Position, sq: Square, entry: &mut Entry) -> Option<String> {
    let moves = legal(pos);
    let mut marks: Marks = vec![None; pos.variant().geometry.cells()];
    let mut any = false;
    for m in moves.iter().filter(|m| m.from == sq) {
        any = true;
        if m.via.is_some() {
            marks[m.via.index()] = Some('C');
        } else {
            mark_target(pos, &mut marks, m, m.to);
        }
    }
    if any {
        *entry = Entry {
            lifted: Some(sq),
            put: None,
        };
    } else {
        // The second leg: the piece from `lifted` was put on `sq`.
        let from = entry.lifted.filter(|_| entry.put == Some(sq))?;
        for m in moves.iter().filter(|m| m.from == from && m.via == sq) {
            any = true;
            mark_target(pos, &mut marks, m, m.to);
        }
        if !any {
            return None;
        }
        entry.put = None;
    }
    Some(format!("highlight {}", colour_fen(pos, &marks)))
}

/// The `choice` line for `put sq` on a chess-style promotion square (blue):
/// the letters of the pieces the lifted piece may become there, the usual
/// choice first, by their XBoard IDs (`ids`). `None` elsewhere.
pub fn put(pos: &mut Position, sq: Square, entry: &mut Entry, ids: &XboardIds) -> Option<String> {
    entry.put = Some(sq);
    let from = entry.lifted?;
    let v = pos.variant().clone();
    if v.promotion.shogi {
        return None;
    }
    let mut letters = String::new();
    for m in legal(pos) {
        if m.from == from
            && m.to == sq
            && let Some(t) = m.promotion()
        {
            let token = ids.id(&v.pieces[v.final_form(t) as usize].token.to_uppercase());
            if !letters.contains(&token) {
                letters.push_str(&token);
            }
        }
    }
    (!letters.is_empty()).then(|| format!("choice {letters}"))
}

/// The marks as a colour FEN: ranks from the top, runs of unmarked cells
/// as counts.
fn colour_fen(pos: &Position, marks: &Marks) -> String {
    let g = &pos.variant().geometry;
    let mut rows = Vec::new();
    for r in (0..g.ranks()).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..g.files() {
            match marks[g.cell(f, r).index()] {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamil_rules::Variant;
    use std::sync::Arc;

    fn chu(fen: &str) -> Position {
        let v = Arc::new(Variant::builtin("chu-shogi", &[]).unwrap());
        Position::from_fen(v, fen).unwrap()
    }

    #[test]
    fn a_lion_shows_cyan_first_steps_then_its_second_legs() {
        // Black Lion on f6, a white Pawn on f7 to take on the way.
        let mut pos = chu("6k5/12/12/12/12/5p6/5N6/12/12/12/12/6K5 b");
        let g = &pos.variant().geometry.clone();
        let f6 = g.parse_square("f6").unwrap();
        let f7 = g.parse_square("f7").unwrap();
        let mut e = Entry::default();
        let h = lift(&mut pos, f6, &mut e).unwrap();
        // Two-leg moves start with the Pawn's capture (f7) or a pass (g6,
        // cyan); every other square within two is one move (yellow).
        assert_eq!(
            h,
            "highlight 12/12/12/12/3YYYYY4/3YYCYY4/3YY1CY4/3YYYYY4/3YYYYY4/12/12/12"
        );
        let ids = XboardIds::new(pos.variant());
        assert!(put(&mut pos, f7, &mut e, &ids).is_none());
        let h = lift(&mut pos, f7, &mut e).unwrap();
        // From f7 after taking the Pawn: back to f6 (igui) or on one step.
        assert_eq!(h, "highlight 12/12/12/12/4YYY5/4Y1Y5/4YYY5/12/12/12/12/12");
        // An enemy piece or an empty square shows nothing.
        let e1 = g.parse_square("e1").unwrap();
        assert!(lift(&mut pos, e1, &mut Entry::default()).is_none());
    }
}
