//! The result of a game: who won or how the points fell, and why.

use crate::piece::Side;
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
