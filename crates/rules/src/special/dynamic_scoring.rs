//! Savard's Dynamic Scoring (rules/ordinary-variant.md 7, A15-A17): every
//! ending is a split of 100 points, with partial wins for stalemate, a bared
//! King and perpetual check.
//!
//! Hook points: [`crate::outcome::ended_by_rule`] (both Kings bare; a bare
//! King under `ds-bare-auto`), [`crate::outcome::outcome`] (checkmate,
//! stalemate, repetition with perpetual check, N checks in a row, the
//! move-count rule) and [`crate::outcome::claimable`] (the bare-King claim).

use crate::board::Board;
use crate::outcome::kinds::{Outcome, Points, Reason, Scoring};
use crate::piece::Side;

/// The points schedule (A15).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Schedule {
    /// `ds-classic`, the default: the inventor's schedule "without material
    /// advantage", Black's partial wins worth more than White's (7.2).
    Classic,
    /// `ds-simple`: the inventor's simplification.
    Simple,
    /// `ds-tiebreaker`: the schedule of Tiebreaker Chess (no bare King).
    Tiebreaker,
}

/// How the bare-King result comes about (A16).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BareKingRule {
    /// Claimed by the player to move while the opponent's King is bare
    /// (default).
    Claimed,
    /// `ds-bare-auto`: the game ends as soon as a King is bare.
    Auto,
}

/// The compiled `[special.dynamic_scoring]` table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DynamicScoring {
    /// Points schedule.
    pub schedule: Schedule,
    /// Claimed or automatic bare King.
    pub bare_king: BareKingRule,
    /// A17 `ds-perpetual-n`: this many checks in a row by one player are
    /// perpetual check (0: a threefold repetition in which every move of one
    /// player gave check, the default).
    pub perpetual_checks: u32,
}

/// Points of (credited player, other player) for `reason` under
/// `schedule`; `None` where the schedule has no such result (the bare King
/// in Tiebreaker). Section 7.2, White = first player.
fn split(schedule: Schedule, reason: Reason, by: Side) -> Option<(u32, u32)> {
    let white = by == Side::First;
    Some(match (schedule, reason) {
        (_, Reason::Checkmate) => (100, 0),
        (Schedule::Classic, Reason::Stalemate) => {
            if white {
                (60, 40)
            } else {
                (61, 39)
            }
        }
        (_, Reason::Stalemate) => (60, 40),
        (Schedule::Classic, Reason::BareKing) => {
            if white {
                (56, 44)
            } else {
                (59, 41)
            }
        }
        (Schedule::Simple, Reason::BareKing) => (52, 48),
        (Schedule::Tiebreaker, Reason::BareKing) => return None,
        (Schedule::Classic, Reason::PerpetualCheck) => {
            if white {
                (52, 48)
            } else {
                (57, 43)
            }
        }
        (Schedule::Simple, Reason::PerpetualCheck) => {
            if white {
                (50, 50)
            } else {
                (51, 49)
            }
        }
        (Schedule::Tiebreaker, Reason::PerpetualCheck) => {
            if white {
                (51, 49)
            } else {
                (55, 45)
            }
        }
        _ => (50, 50),
    })
}

impl DynamicScoring {
    /// The result for `reason` credited to `by` (`None`: a plain draw,
    /// 50-50); `None` if the schedule has no such result.
    pub fn result(&self, reason: Reason, by: Option<Side>) -> Option<Outcome> {
        let (points, by) = match by {
            Some(s) => {
                let (a, b) = split(self.schedule, reason, s)?;
                let p = if s == Side::First {
                    Points::whole(a, b)
                } else {
                    Points::whole(b, a)
                };
                (p, Some(s))
            }
            None => (Points::whole(50, 50), None),
        };
        Some(Outcome::Points {
            points,
            scoring: Scoring::Shared,
            reason,
            by,
        })
    }

    /// Endings by the material alone: both Kings bare (a draw), and under
    /// `ds-bare-auto` a bare King (7.2 "Bare King").
    pub fn ended_by_rule<B: Board>(&self, pos: &B) -> Option<Outcome> {
        let (a, b) = (
            pos.non_royal_count(Side::First),
            pos.non_royal_count(Side::Second),
        );
        if a == 0 && b == 0 {
            return self.result(Reason::BothBare, None);
        }
        if self.bare_king == BareKingRule::Auto {
            if b == 0 {
                return self.result(Reason::BareKing, Some(Side::First));
            }
            if a == 0 {
                return self.result(Reason::BareKing, Some(Side::Second));
            }
        }
        None
    }

    /// The bare-King result the player to move may claim instead of moving:
    /// the opponent has nothing but royals, the player something more (7.2).
    pub fn claimable<B: Board>(&self, pos: &B) -> Option<Outcome> {
        if self.bare_king != BareKingRule::Claimed {
            return None;
        }
        let me = pos.side();
        (pos.non_royal_count(me.flip()) == 0 && pos.non_royal_count(me) > 0)
            .then(|| self.result(Reason::BareKing, Some(me)))
            .flatten()
    }
}

use crate::variant::schema::{DynamicScoringSpec, ScoringBareKing, ScoringSchedule};

impl DynamicScoring {
    /// Compiles `[special.dynamic_scoring]` (rules/ordinary-variant.md 7,
    /// A15-A17). Every value serde accepts is valid, so it cannot fail and
    /// needs nothing else of the variant.
    pub fn compile(spec: &DynamicScoringSpec) -> DynamicScoring {
        DynamicScoring {
            schedule: match spec.schedule {
                ScoringSchedule::Classic => Schedule::Classic,
                ScoringSchedule::Simple => Schedule::Simple,
                ScoringSchedule::Tiebreaker => Schedule::Tiebreaker,
            },
            bare_king: match spec.bare_king {
                ScoringBareKing::Claimed => BareKingRule::Claimed,
                ScoringBareKing::Auto => BareKingRule::Auto,
            },
            perpetual_checks: spec.perpetual_checks,
        }
    }
}
