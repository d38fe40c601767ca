//! Game end: checkmate, stalemate, bare king, extinction of royals,
//! repetition with perpetual check, move-count rules; each as its rule book says.

use crate::geometry::Square;
use crate::movegen::{in_check, is_attacked, legal_moves};
use crate::piece::Side;
use crate::position::Position;
use crate::variant::{BareKing, Variant, Verdict};

pub mod kinds;
pub use kinds::{Outcome, Points, Reason, Scoring};

fn verdict(side: Side, v: Verdict, reason: Reason) -> Outcome {
    match v {
        Verdict::Loss => Outcome::Win {
            winner: side.flip(),
            reason,
        },
        Verdict::Win => Outcome::Win {
            winner: side,
            reason,
        },
        Verdict::Draw => Outcome::Draw { reason },
    }
}

/// Endings decided by the material on the board alone: a side without
/// royals, and the bare-king rules; and those of special modules decided by
/// the last move (Frolov's only-special and citadel wins). Perft, like
/// Fairy-Stockfish, generates no moves in such a position.
pub fn ended_by_rule(pos: &Position) -> Option<Outcome> {
    let v = pos.variant();
    let s = pos.side();
    let o = s.flip();
    if let Some(end) = v.specials.ended_first(pos) {
        return Some(end);
    }
    if v.has_royals {
        if pos.royals(s).is_empty() {
            return Some(Outcome::Win {
                winner: o,
                reason: Reason::RoyalsCaptured,
            });
        }
        if pos.royals(o).is_empty() {
            return Some(Outcome::Win {
                winner: s,
                reason: Reason::RoyalsCaptured,
            });
        }
    }
    if let Some(end) = v.specials.bare_king_ending(pos) {
        return end;
    }
    let (ns, no) = (pos.non_royal_count(s), pos.non_royal_count(o));
    match v.rules.bare_king {
        BareKing::None => None,
        BareKing::Draw => (ns == 0 || no == 0).then_some(Outcome::Draw {
            reason: Reason::BareKing,
        }),
        BareKing::Shatranj => {
            if ns == 0 && no == 0 {
                Some(Outcome::Draw {
                    reason: Reason::BothBare,
                })
            } else if no == 0 {
                // The opponent was bared and its reply did not bare us back.
                Some(Outcome::Win {
                    winner: s,
                    reason: Reason::BareKing,
                })
            } else if ns == 0 && no >= 2 {
                // No single reply can bare two pieces: lost at once.
                Some(Outcome::Win {
                    winner: o,
                    reason: Reason::BareKing,
                })
            } else {
                None
            }
        }
        BareKing::Shogi => shogi_bare_king(pos),
    }
}

/// Pieces of `side` other than royals that can still move somewhere (not
/// dead: rules/chu-shogi.md 6.5) and, with `counted`, that are not of an
/// uncounted type. Gives up, returning `limit`, once it reaches `limit`.
fn live_pieces(pos: &Position, side: Side, counted: bool, limit: usize) -> (usize, Square) {
    let v = pos.variant();
    let mut n = 0;
    let mut last = Square::NONE;
    for &sq in pos.pieces(side) {
        let p = pos.at(sq);
        let k = p.kind() as usize;
        if v.pieces[k].royal
            || v.dead[k][side.index()][v.geometry.compact(sq)]
            || (counted && v.rules.bare_king_uncounted[k])
        {
            continue;
        }
        n += 1;
        last = sq;
        if n >= limit {
            break;
        }
    }
    (n, last)
}

/// [`BareKing::Shogi`]: rules/chu-shogi.md 6.5, dai-shogi.md 6.4.
fn shogi_bare_king(pos: &Position) -> Option<Outcome> {
    let g = &pos.variant().geometry;
    let bare = |side: Side| {
        // More pieces than a rank can hold dead ones: not bare, at a glance.
        pos.royals(side).len() == 1
            && pos.non_royal_count(side) <= 2 * g.files() as usize
            && live_pieces(pos, side, false, 1).0 == 0
    };
    let s = pos.side();
    let (bs, bo) = (bare(s), bare(s.flip()));
    if bs && bo {
        return Some(Outcome::Draw {
            reason: Reason::BothBare,
        });
    }
    for (x, to_move) in [(s, true), (s.flip(), false)] {
        if !(if to_move { bs } else { bo }) {
            continue;
        }
        let y = x.flip();
        let (n, last) = live_pieces(pos, y, true, 2);
        if pos.royals(y).is_empty() || n == 0 {
            continue;
        }
        // The lone royal to move can still take the last counted piece, or
        // the opponent's only royal (which wins outright, 6.5).
        let rescue = to_move
            && ((n == 1 && is_attacked(pos, last, x))
                || (pos.royals(y).len() == 1 && is_attacked(pos, pos.royals(y)[0], x)));
        if !rescue {
            return Some(Outcome::Win {
                winner: y,
                reason: Reason::BareKing,
            });
        }
    }
    None
}

/// The outcome of the game at this position, if it has ended: rule endings,
/// repetition, move-count rules, then checkmate and stalemate. Under
/// Dynamic Scoring every ending is given in points
/// ([`crate::special::dynamic_scoring`]).
pub fn outcome(pos: &mut Position) -> Option<Outcome> {
    if let Some(o) = ended_by_rule(pos) {
        return Some(o);
    }
    let v = pos.variant().clone();
    let sp = &v.specials;
    let draw = |pos: &Position, reason: Reason| {
        if sp.scores_every_ending() {
            sp.scored(reason, None)
        } else {
            Some(draw_or_points(pos, reason))
        }
    };
    let n = sp.perpetual_checks();
    if n > 0
        && let Some(checker) = checks_in_a_row(pos, n)
    {
        return Some(perpetual_check(&v, checker));
    }
    if v.rules.repetition > 0 {
        let perpetual = v.caps.perpetual_counts;
        match repetition(pos, v.rules.repetition, perpetual) {
            Some(Some(checker)) => return Some(perpetual_check(&v, checker)),
            Some(None) => return draw(pos, Reason::Repetition),
            None => {}
        }
    }
    if v.rules.move_rule > 0 && pos.halfmove() >= v.rules.move_rule {
        return draw(pos, Reason::MoveRule);
    }
    if v.rules.max_plies > 0 && pos.depth() as u32 >= v.rules.max_plies {
        return draw(pos, Reason::MaxPlies);
    }
    if v.rules.insufficient_material != 0 && insufficient_material(pos) {
        return draw(pos, Reason::InsufficientMaterial);
    }
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    if moves.is_empty() {
        let s = pos.side();
        if v.rules.royal_safety && pos.royals(s).len() == 1 && in_check(pos, s) {
            return Some(checkmate(&v, s));
        }
        return Some(stalemate(&v, s));
    }
    None
}

/// King against King, or King and one piece of a type in
/// `rules.insufficient_material` against a lone King (Alfonso's Great
/// Chess, rules/alfonso-great-chess.md section 7: K+B or K+N against K).
fn insufficient_material(pos: &Position) -> bool {
    let v = pos.variant();
    let mut extra = None;
    for side in Side::BOTH {
        for &sq in pos.pieces(side) {
            let p = pos.at(sq);
            if v.pieces[p.kind() as usize].royal {
                continue;
            }
            if extra.is_some() {
                return false;
            }
            extra = Some(p);
        }
    }
    extra.is_none_or(|p| v.rules.insufficient_material & (1u128 << p.kind()) != 0)
}

/// The result when `mated` is checkmated.
pub fn checkmate(v: &Variant, mated: Side) -> Outcome {
    v.specials
        .scored(Reason::Checkmate, Some(mated.flip()))
        .unwrap_or(Outcome::Win {
            winner: mated.flip(),
            reason: Reason::Checkmate,
        })
}

/// The result when `stalemated`, to move, has no legal move and is not in
/// check: the variant's verdict, or Dynamic Scoring's partial win for the
/// other player (rules/ordinary-variant.md 7.2).
pub fn stalemate(v: &Variant, stalemated: Side) -> Outcome {
    v.specials
        .scored(Reason::Stalemate, Some(stalemated.flip()))
        .unwrap_or_else(|| verdict(stalemated, v.rules.stalemate, Reason::Stalemate))
}

/// The result when `checker` has given perpetual check: a loss where
/// perpetual check loses, Dynamic Scoring's partial win where it scores.
pub fn perpetual_check(v: &Variant, checker: Side) -> Outcome {
    match v.specials.scored(Reason::PerpetualCheck, Some(checker)) {
        Some(o) => o,
        None if v.rules.perpetual_check_loses => Outcome::Win {
            winner: checker.flip(),
            reason: Reason::PerpetualCheck,
        },
        None => Outcome::Draw {
            reason: Reason::Repetition,
        },
    }
}

/// A result the player to move may claim instead of moving (Dynamic
/// Scoring's bare King, rules/ordinary-variant.md 7.2, A16), if any.
pub fn claimable(pos: &Position) -> Option<Outcome> {
    pos.variant().specials.claimable(pos)
}

/// Has the player who just moved given check with each of its last `n`
/// moves (A17 `ds-perpetual-n`)? Returns that player.
fn checks_in_a_row(pos: &mut Position, n: u32) -> Option<Side> {
    let checker = pos.side().flip();
    let mut undone = Vec::new();
    let mut ok = true;
    for i in 0..n {
        if i > 0 {
            // Back to the position after the checker's previous move.
            for _ in 0..2 {
                match pos.moves_played().last() {
                    Some(m) => {
                        undone.push(m);
                        pos.unmake();
                    }
                    None => ok = false,
                }
            }
        }
        if !ok || pos.depth() == 0 || !in_check(pos, checker.flip()) {
            ok = false;
            break;
        }
    }
    for m in undone.into_iter().rev() {
        pos.make(m);
    }
    ok.then_some(checker)
}

/// An ending that is a draw in most games (repetition, the move-count rule,
/// the game-length limit, an adjudication): a draw, or where the variant
/// decides such endings by a material count, a points result
/// (rules/frolov-10x10.md 7.1).
pub fn draw_or_points(pos: &Position, reason: Reason) -> Outcome {
    pos.variant()
        .specials
        .draw_by_points(pos, reason)
        .unwrap_or(Outcome::Draw { reason })
}

/// N-fold repetition of the current position (same side to move):
/// `Some(None)` for a repetition, `Some(Some(side))` when, with `perpetual`,
/// all of `side`'s moves since the first occurrence left an enemy royal
/// attacked (and not all of the other's).
fn repetition(pos: &mut Position, n: u32, perpetual: bool) -> Option<Option<Side>> {
    let h = pos.history();
    let last = h.len() - 1;
    let now = h[last];
    let mut seen = 0;
    let mut first = last;
    let mut i = last as isize;
    while i >= 0 {
        if h[i as usize] == now {
            seen += 1;
            first = i as usize;
        }
        i -= 2;
    }
    if seen < n {
        return None;
    }
    // Positions first..=last were reached from the FEN by `depth` moves.
    let base = h.len() - 1 - pos.depth();
    if !perpetual || first < base {
        return Some(None);
    }
    let back = last - first;
    let mut checks = [true, true];
    let mut moved = [false, false];
    let mut undone = Vec::new();
    for _ in 0..back {
        let s = pos.side();
        let mover = s.flip();
        moved[mover.index()] = true;
        if !in_check(pos, s) {
            checks[mover.index()] = false;
        }
        let m = pos.moves_played().last().expect("history covers the cycle");
        undone.push(m);
        pos.unmake();
    }
    for m in undone.into_iter().rev() {
        pos.make(m);
    }
    let culprit = |s: Side| moved[s.index()] && checks[s.index()];
    Some(match (culprit(Side::First), culprit(Side::Second)) {
        (true, false) => Some(Side::First),
        (false, true) => Some(Side::Second),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(first: u32, second: u32, reason: Reason, by: Option<Side>) -> Outcome {
        Outcome::Points {
            points: Points::whole(first, second),
            scoring: Scoring::Shared,
            reason,
            by,
        }
    }

    #[test]
    fn shared_points_are_worth_their_share() {
        let o = shared(56, 44, Reason::BareKing, Some(Side::First));
        assert_eq!(o.score(), "1-0");
        assert_eq!(o.winner(), Some(Side::First));
        assert!((o.value(Side::First) - 0.56).abs() < 1e-12);
        assert!((o.value(Side::Second) - 0.44).abs() < 1e-12);
        assert_eq!(o.to_string(), "56-44 bare king (first player)");
        let even = shared(50, 50, Reason::PerpetualCheck, Some(Side::First));
        assert_eq!((even.score(), even.winner()), ("1/2-1/2", None));
        assert_eq!(even.credited(), Some(Side::First));
        let lost = shared(43, 57, Reason::PerpetualCheck, Some(Side::Second));
        assert_eq!(lost.score(), "0-1");
    }

    #[test]
    fn decisive_points_decide_the_whole_game() {
        let o = Outcome::Points {
            points: Points {
                first: 14,
                second: 13,
            },
            scoring: Scoring::Decisive,
            reason: Reason::MoveRule,
            by: None,
        };
        assert_eq!(o.value(Side::First), 1.0);
        assert_eq!(o.value(Side::Second), 0.0);
        assert_eq!(o.to_string(), "1-0 points 7-6.5 (move-count rule)");
        let w = Outcome::Win {
            winner: Side::Second,
            reason: Reason::Checkmate,
        };
        assert_eq!((w.value(Side::Second), w.points()), (1.0, None));
        assert_eq!(w.to_string(), "0-1 checkmate");
    }
}
