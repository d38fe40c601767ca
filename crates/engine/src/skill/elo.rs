//! The Elo scale of the strength levels (issue 48): each game's measured
//! ladder, and the options every front end shares (`Skill Level`, or
//! `UCI_LimitStrength` with `UCI_Elo`, Stockfish's names), turned into one
//! [`Skill`].
//!
//! No rating list plays these games, so the scale has no outside anchor:
//! level 0 is [`ELO_FLOOR`] in every game, and each game's other levels
//! sit where `kamil match` put them against their neighbours (the
//! matches, their commands and margins are in
//! `docs/log/2026-12-04-strength-levels-calibration.md`). An Elo is
//! comparable within one game, not across games.

use super::Skill;
use kamil_rules::Variant;

/// Level 0's Elo in every game: the scale's anchor.
pub const ELO_FLOOR: i32 = 1000;

/// One game's measured ladder.
#[derive(Debug)]
pub struct Ladder {
    /// The built-in game (`Variant::name`).
    pub game: &'static str,
    /// Measured levels and their Elo, by level, starting at level 0 with
    /// [`ELO_FLOOR`] and ending at the strongest limited level
    /// ([`Skill::FULL`] - 1); Elo never falls as the level rises (a
    /// measured step below zero, noise, is pooled with its neighbour).
    /// The full engine has no place on the scale: its strength depends on
    /// the clock, a level's does not ([`Skill::nodes`]).
    pub points: &'static [(u8, i32)],
}

/// The ladders measured so far; the first one stands in for a game
/// without its own ([`ladder`]). Numbers from
/// `docs/log/2026-12-04-strength-levels-calibration.md`.
pub const LADDERS: &[Ladder] = &[
    Ladder {
        game: "courier",
        points: &[
            (0, ELO_FLOOR),
            (1, 1269),
            (2, 1539),
            (4, 1707),
            (7, 1815),
            (10, 1885),
            (14, 2054),
            (19, 2435),
        ],
    },
    Ladder {
        game: "chu-shogi",
        points: &[
            (0, ELO_FLOOR),
            (1, 1215),
            (2, 1342),
            (4, 1342),
            (7, 1412),
            (10, 1627),
            (14, 1818),
            (19, 2156),
        ],
    },
    Ladder {
        game: "tamerlane",
        points: &[
            (0, ELO_FLOOR),
            (1, 1636),
            (2, 1974),
            (4, 2111),
            (7, 2506),
            (10, 2696),
            (14, 3034),
            (19, 3289),
        ],
    },
];

/// The ladder for `variant`: its own, else that of the nearest built-in
/// game it extends, else the first ladder's (Courier's).
pub fn ladder(variant: &Variant) -> &'static Ladder {
    std::iter::once(&variant.name)
        .chain(&variant.bases)
        .find_map(|n| LADDERS.iter().find(|l| l.game == n))
        .unwrap_or(&LADDERS[0])
}

/// The Elo range `UCI_Elo` offers, over every game: [`ELO_FLOOR`] to the
/// highest Elo of level 19.
pub fn elo_range() -> (i32, i32) {
    let top = LADDERS
        .iter()
        .map(|l| l.elo(Skill::FULL - 1))
        .max()
        .unwrap_or(ELO_FLOOR);
    (ELO_FLOOR, top)
}

impl Ladder {
    /// The Elo of `level` (0 to [`Skill::FULL`] - 1), read off the
    /// measured points by straight lines between them.
    pub fn elo(&self, level: u8) -> i32 {
        let level = level.min(Skill::FULL - 1);
        let mut below = self.points[0];
        for &(l, e) in self.points {
            if l == level {
                return e;
            }
            if l > level {
                let (l0, e0) = below;
                let span = i32::from(l - l0);
                return e0 + (e - e0) * i32::from(level - l0) / span;
            }
            below = (l, e);
        }
        below.1
    }

    /// This game's `UCI_Elo` range: [`ELO_FLOOR`] (level 0) to the Elo of
    /// the strongest limited level.
    pub fn range(&self) -> (i32, i32) {
        (ELO_FLOOR, self.elo(Skill::FULL - 1))
    }

    /// The level below full strength whose Elo is nearest `elo` (the
    /// weaker one on a tie): what `UCI_LimitStrength` plays at.
    pub fn level(&self, elo: i32) -> Skill {
        let best = (0..Skill::FULL)
            .min_by_key(|&l| (self.elo(l) - elo).abs())
            .unwrap_or(0);
        Skill::new(best)
    }
}

/// What a front end's strength options ask for. `Skill Level` sets
/// `level`; `UCI_LimitStrength` sets `limit`, and then `UCI_Elo` (`elo`)
/// decides, mapped on the game's ladder, as in Stockfish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `Skill Level`, 0 to [`Skill::FULL`].
    pub level: u8,
    /// `UCI_LimitStrength`: play at `elo` rather than at `level`.
    pub limit: bool,
    /// `UCI_Elo`, on the scale of this module.
    pub elo: i32,
}

impl Default for Strength {
    /// Full strength; `UCI_Elo` at the top of its range.
    fn default() -> Strength {
        Strength {
            level: Skill::FULL,
            limit: false,
            elo: elo_range().1,
        }
    }
}

impl Strength {
    /// The level to play `variant` at.
    pub fn skill(&self, variant: &Variant) -> Skill {
        if self.limit {
            ladder(variant).level(self.elo)
        } else {
            Skill::new(self.level)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(name: &str) -> Variant {
        Variant::builtin(name, &[]).unwrap()
    }

    #[test]
    fn every_ladder_starts_at_the_floor_rises_and_ends_at_full() {
        for l in LADDERS {
            assert_eq!(l.points.first(), Some(&(0, ELO_FLOOR)), "{}", l.game);
            assert_eq!(l.points.last().map(|p| p.0), Some(Skill::FULL - 1));
            for w in l.points.windows(2) {
                assert!(w[0].0 < w[1].0 && w[0].1 <= w[1].1, "{}: {w:?}", l.game);
            }
            assert!(Variant::builtin(l.game, &[]).is_ok(), "{}", l.game);
        }
    }

    #[test]
    fn an_elo_maps_back_to_its_level() {
        for l in LADDERS {
            for level in 0..Skill::FULL {
                let back = l.level(l.elo(level)).level();
                // Interpolated levels may share an Elo with a neighbour.
                assert_eq!(l.elo(back), l.elo(level), "{} level {level}", l.game);
            }
            assert_eq!(l.level(0).level(), 0);
            assert_eq!(l.level(i32::MAX).level(), Skill::FULL - 1);
        }
    }

    #[test]
    fn interpolation_lies_between_the_measured_points() {
        let l = &LADDERS[0];
        for w in l.points.windows(2) {
            for level in w[0].0..=w[1].0 {
                let e = l.elo(level);
                assert!(w[0].1 <= e && e <= w[1].1, "level {level}: {e}");
            }
        }
    }

    #[test]
    fn a_game_without_a_ladder_uses_its_base_or_the_first() {
        assert_eq!(ladder(&variant("chu-shogi")).game, "chu-shogi");
        assert_eq!(ladder(&variant("sho-shogi")).game, LADDERS[0].game);
        let mut v = variant("sho-shogi");
        v.bases = vec!["tamerlane".into()];
        assert_eq!(ladder(&v).game, "tamerlane");
    }

    #[test]
    fn limit_strength_overrides_the_level() {
        let v = variant("courier");
        let s = Strength {
            level: 5,
            limit: false,
            elo: ELO_FLOOR,
        };
        assert_eq!(s.skill(&v).level(), 5);
        let s = Strength { limit: true, ..s };
        assert_eq!(s.skill(&v).level(), 0);
        assert!(!Strength::default().skill(&v).weakens());
        let top = Strength {
            limit: true,
            ..Strength::default()
        };
        assert!(top.skill(&v).weakens());
    }
}
