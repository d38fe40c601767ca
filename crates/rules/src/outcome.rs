//! Game end: checkmate, stalemate, bare king, extinction of royals,
//! repetition with perpetual check, move-count rules; each as its rule book says.

use crate::geometry::Square;
use crate::movegen::{in_check, is_attacked, legal_moves};
use crate::piece::Side;
use crate::position::Position;
use crate::special::{capture_promotion, citadel_win, material_points};
use crate::variant::{BareKing, Variant, Verdict};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reason {
    /// No legal move and the only royal attacked.
    Checkmate,
    /// No legal move, not in check.
    Stalemate,
    /// A side has lost every royal piece.
    RoyalsCaptured,
    /// A side was left with royals only (bare king rule).
    BareKing,
    /// Both sides have royals only.
    BothBare,
    /// The same position occurred the n-th time.
    Repetition,
    /// Repetition in which one side gave check on every move.
    PerpetualCheck,
    /// Too many plies without capture or pawn move.
    MoveRule,
    /// The game-length limit was reached.
    MaxPlies,
    /// Neither side can mate (King and one minor piece against a King).
    InsufficientMaterial,
    /// A player was left with special pieces only (rules/frolov-10x10.md 5.5).
    OnlySpecial,
    /// A King entered the opponent's citadel (rules/tamerlane.md 5.5;
    /// rules/frolov-10x10.md B15).
    Citadel,
}

/// Points scored by the two players, in **half-points** (so Frolov's
/// material count 7 - 6.5 is `14, 13` and Dynamic Scoring's 56 - 44 is
/// `112, 88`): every game kamil knows counts in whole or half points.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Points {
    /// The first player's half-points.
    pub first: u32,
    /// The second player's half-points.
    pub second: u32,
}

impl Points {
    /// Points from whole numbers: `Points::whole(56, 44)` is 56 - 44.
    pub const fn whole(first: u32, second: u32) -> Points {
        Points {
            first: 2 * first,
            second: 2 * second,
        }
    }

    /// `side`'s half-points.
    pub const fn of(&self, side: Side) -> u32 {
        match side {
            Side::First => self.first,
            Side::Second => self.second,
        }
    }

    /// The player with more points, `None` when they are level.
    pub fn leader(&self) -> Option<Side> {
        match self.first.cmp(&self.second) {
            std::cmp::Ordering::Greater => Some(Side::First),
            std::cmp::Ordering::Less => Some(Side::Second),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// Writes half-points as points: 13 is `6.5`, 112 is `56`.
fn half_points(f: &mut fmt::Formatter<'_>, h: u32) -> fmt::Result {
    if h.is_multiple_of(2) {
        write!(f, "{}", h / 2)
    } else {
        write!(f, "{}.5", h / 2)
    }
}

impl fmt::Display for Points {
    /// `56-44`, `7-6.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        half_points(f, self.first)?;
        f.write_str("-")?;
        half_points(f, self.second)
    }
}

/// How a result in points counts as a game score.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Scoring {
    /// The points are the game's score, shared out: 56 - 44 is worth 0.56
    /// of a game to the first player (Dynamic Scoring,
    /// rules/ordinary-variant.md 7).
    Shared,
    /// The points only decide the game: whoever has more wins all of it,
    /// level points are a draw (Frolov's material count,
    /// rules/frolov-10x10.md 7.1).
    Decisive,
}

/// The result of a finished game.
///
/// Games scored win / draw / loss end in [`Outcome::Win`] or
/// [`Outcome::Draw`]; games scored in points end in [`Outcome::Points`]
/// (the Ordinary Variant's Dynamic Scoring gives every ending, checkmate
/// included, as points). Consumers should ask [`Outcome::winner`],
/// [`Outcome::value`], [`Outcome::score`] and [`Outcome::points`] rather
/// than match the variants, so that every kind of result reads the same.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// `winner` won.
    Win {
        /// Who won.
        winner: Side,
        /// Why.
        reason: Reason,
    },
    /// Drawn.
    Draw {
        /// Why.
        reason: Reason,
    },
    /// Ended with points for each player (Dynamic Scoring, a material
    /// count).
    Points {
        /// Each player's points.
        points: Points,
        /// Whether the points are shared out or only decide the winner.
        scoring: Scoring,
        /// What ended the game.
        reason: Reason,
        /// The player the reason is credited to: who checkmated,
        /// stalemated, bared the opponent's King or gave perpetual check;
        /// `None` when it belongs to neither (a draw by the move-count rule).
        by: Option<Side>,
    },
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`: the PGN result. A points result is `1-0`
    /// when the first player has more points (rules/ordinary-variant.md 7.3:
    /// 56 - 44 is `1-0`).
    pub fn score(&self) -> &'static str {
        match self.winner() {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The winner: for a points result the player with more points; `None`
    /// for a draw or level points.
    pub fn winner(&self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
            Outcome::Points { points, .. } => points.leader(),
        }
    }

    /// What the game is worth to `side`, from 0.0 (lost) to 1.0 (won):
    /// 0.5 for a draw, the share of the points under [`Scoring::Shared`]
    /// (0.56 for 56 - 44).
    pub fn value(&self, side: Side) -> f64 {
        if let Outcome::Points {
            points,
            scoring: Scoring::Shared,
            ..
        } = self
        {
            let total = points.first + points.second;
            return if total == 0 {
                0.5
            } else {
                points.of(side) as f64 / total as f64
            };
        }
        match self.winner() {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// The points, for a result in points.
    pub fn points(&self) -> Option<Points> {
        match self {
            Outcome::Points { points, .. } => Some(*points),
            _ => None,
        }
    }

    /// The reason.
    pub fn reason(&self) -> Reason {
        match self {
            Outcome::Win { reason, .. }
            | Outcome::Draw { reason }
            | Outcome::Points { reason, .. } => *reason,
        }
    }

    /// The player the ending is credited to: the winner, or for a points
    /// result who earned the reason (see [`Outcome::Points`]).
    pub fn credited(&self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
            Outcome::Points { by, .. } => *by,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::RoyalsCaptured => "royals captured",
            Reason::BareKing => "bare king",
            Reason::BothBare => "both kings bare",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual check",
            Reason::MoveRule => "move-count rule",
            Reason::MaxPlies => "game-length limit",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::OnlySpecial => "only-special",
            Reason::Citadel => "citadel entered",
        })
    }
}

impl fmt::Display for Outcome {
    /// `1-0 checkmate`, `1/2-1/2 repetition`; points results: shared
    /// `56-44 bare king (first player)`, decisive `1-0 points 7-6.5
    /// (move-count rule)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Points {
                points,
                scoring: Scoring::Shared,
                reason,
                by,
            } => {
                write!(f, "{points} {reason}")?;
                match by {
                    Some(Side::First) => f.write_str(" (first player)"),
                    Some(Side::Second) => f.write_str(" (second player)"),
                    None => Ok(()),
                }
            }
            Outcome::Points {
                points,
                scoring: Scoring::Decisive,
                reason,
                ..
            } => write!(f, "{} points {points} ({reason})", self.score()),
            _ => write!(f, "{} {}", self.score(), self.reason()),
        }
    }
}

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
    if let Some(c) = &v.citadels
        && let Some(end) = c.ended(pos)
    {
        return Some(end);
    }
    if let Some(cp) = &v.capture_promotion
        && let Some(out) = capture_promotion::ended(cp, pos)
    {
        return Some(out);
    }
    if let Some(cw) = &v.citadel_win
        && let Some(out) = citadel_win::ended(cw, pos)
    {
        return Some(out);
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
    if let Some(ds) = &v.dynamic_scoring {
        return ds.ended_by_rule(pos);
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
    let ds = v.dynamic_scoring;
    let draw = |pos: &Position, reason: Reason| match &ds {
        Some(d) => d.result(reason, None),
        None => Some(draw_or_points(pos, reason)),
    };
    if let Some(d) = &ds
        && d.perpetual_checks > 0
        && let Some(checker) = checks_in_a_row(pos, d.perpetual_checks)
    {
        return Some(perpetual_check(&v, checker));
    }
    if v.rules.repetition > 0 {
        let perpetual =
            v.rules.perpetual_check_loses || ds.is_some_and(|d| d.perpetual_checks == 0);
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
    v.dynamic_scoring
        .and_then(|d| d.result(Reason::Checkmate, Some(mated.flip())))
        .unwrap_or(Outcome::Win {
            winner: mated.flip(),
            reason: Reason::Checkmate,
        })
}

/// The result when `stalemated`, to move, has no legal move and is not in
/// check: the variant's verdict, or Dynamic Scoring's partial win for the
/// other player (rules/ordinary-variant.md 7.2).
pub fn stalemate(v: &Variant, stalemated: Side) -> Outcome {
    v.dynamic_scoring
        .and_then(|d| d.result(Reason::Stalemate, Some(stalemated.flip())))
        .unwrap_or_else(|| verdict(stalemated, v.rules.stalemate, Reason::Stalemate))
}

/// The result when `checker` has given perpetual check: a loss where
/// perpetual check loses, Dynamic Scoring's partial win where it scores.
pub fn perpetual_check(v: &Variant, checker: Side) -> Outcome {
    match v
        .dynamic_scoring
        .and_then(|d| d.result(Reason::PerpetualCheck, Some(checker)))
    {
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
    pos.variant().dynamic_scoring?.claimable(pos)
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
    match &pos.variant().material_points {
        Some(mp) => material_points::decide(mp, pos, reason),
        None => Outcome::Draw { reason },
    }
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
