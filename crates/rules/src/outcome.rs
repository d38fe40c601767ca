//! Game end: checkmate, stalemate, bare king, extinction of royals,
//! repetition with perpetual check, move-count rules; each as its rule book says.

use crate::movegen::{in_check, legal_moves};
use crate::piece::Side;
use crate::position::Position;
use crate::variant::{BareKing, Verdict};
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
}

/// The result of a finished game.
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
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Side::First,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Side::Second,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }

    /// The reason.
    pub fn reason(&self) -> Reason {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => *reason,
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
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.score(), self.reason())
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
/// royals, and the bare-king rules. Perft, like Fairy-Stockfish, generates
/// no moves in such a position.
pub fn ended_by_rule(pos: &Position) -> Option<Outcome> {
    let v = pos.variant();
    let s = pos.side();
    let o = s.flip();
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
    }
}

/// The outcome of the game at this position, if it has ended: rule endings,
/// repetition, move-count rules, then checkmate and stalemate.
pub fn outcome(pos: &mut Position) -> Option<Outcome> {
    if let Some(o) = ended_by_rule(pos) {
        return Some(o);
    }
    let v = pos.variant().clone();
    if v.rules.repetition > 0
        && let Some(o) = repetition(pos, v.rules.repetition, v.rules.perpetual_check_loses)
    {
        return Some(o);
    }
    if v.rules.move_rule > 0 && pos.halfmove() >= v.rules.move_rule {
        return Some(Outcome::Draw {
            reason: Reason::MoveRule,
        });
    }
    if v.rules.max_plies > 0 && pos.depth() as u32 >= v.rules.max_plies {
        return Some(Outcome::Draw {
            reason: Reason::MaxPlies,
        });
    }
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    if moves.is_empty() {
        let s = pos.side();
        if v.rules.royal_safety && pos.royals(s).len() == 1 && in_check(pos, s) {
            return Some(Outcome::Win {
                winner: s.flip(),
                reason: Reason::Checkmate,
            });
        }
        return Some(verdict(s, v.rules.stalemate, Reason::Stalemate));
    }
    None
}

/// N-fold repetition of the current position (same side to move). With
/// `perpetual`, a player all of whose moves since the first occurrence left
/// an enemy royal attacked loses.
fn repetition(pos: &mut Position, n: u32, perpetual: bool) -> Option<Outcome> {
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
        return Some(Outcome::Draw {
            reason: Reason::Repetition,
        });
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
    match (culprit(Side::First), culprit(Side::Second)) {
        (true, false) => Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::PerpetualCheck,
        }),
        (false, true) => Some(Outcome::Win {
            winner: Side::First,
            reason: Reason::PerpetualCheck,
        }),
        _ => Some(Outcome::Draw {
            reason: Reason::Repetition,
        }),
    }
}
