//! The score of a match, its Elo estimate with a 95% error margin from the
//! trinomial (win, draw, loss) variance, and the log-likelihood ratio of a
//! sequential probability ratio test (the normal approximation used by
//! Fishtest's "GSPRT", logistic Elo) with its `--sprt` parameters.

use crate::lab::engines::config::split_fields;
use anyhow::{Context, Result, bail};

/// Games won, lost and drawn by the first engine, and what results in
/// points (Dynamic Scoring's 56-44) add to or take from those counts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// Won by the first engine (more than half the points).
    pub wins: u32,
    /// Lost by the first engine.
    pub losses: u32,
    /// Drawn.
    pub draws: u32,
    /// Sum over games of (the first engine's points - 1, 0.5 or 0 as the
    /// game was counted): 0 unless results in points were shared out.
    pub shared: f64,
    /// The same for the squares of the points (for the variance).
    pub shared_sq: f64,
}

/// An Elo difference and the half-width of its 95% confidence interval;
/// infinite only when the score is 0% or 100%.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Estimated difference, first engine minus second.
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub margin: f64,
}

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of an expected score.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Wilson's 95% score interval for a score `s` over `n` games: inside
/// (0, 1) for any `s` strictly between them.
fn wilson(s: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (s + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
    (center - half, center + half)
}

/// The expected score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Score {
    /// Counts a game worth `value` (0.0 to 1.0) to the first engine: a win
    /// above 0.5, a loss below, a draw at 0.5, and the share of a points
    /// result (0.56 for 56-44) kept for the score and its variance.
    pub fn record(&mut self, value: f64) {
        let plain = if value > 0.5 {
            self.wins += 1;
            1.0
        } else if value < 0.5 {
            self.losses += 1;
            0.0
        } else {
            self.draws += 1;
            0.5
        };
        self.shared += value - plain;
        self.shared_sq += value * value - plain * plain;
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points per game of the first engine, if any game was played.
    pub fn fraction(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0 + self.shared) / n as f64)
    }

    /// The variance of one game's points around the mean score.
    fn variance(&self, s: f64) -> f64 {
        let n = self.games() as f64;
        let plain = self.wins as f64 * (1.0 - s).powi(2)
            + self.losses as f64 * s.powi(2)
            + self.draws as f64 * (0.5 - s).powi(2);
        // Shared points: sum (x - s)^2 = sum x^2 - 2 s sum x + n s^2, of
        // which the plain counts above give all but the adjustments.
        ((plain + self.shared_sq - 2.0 * s * self.shared) / n).max(0.0)
    }

    /// Elo difference with its 95% margin, if any game was played: the
    /// trinomial normal interval on the score, or where that reaches 0% or
    /// 100% (a lopsided match of few games), Wilson's interval on the score,
    /// which stays inside them; infinite only at 0% or 100% itself.
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.fraction()?;
        let n = self.games() as f64;
        let elo = elo_of_score(s);
        let sd = (self.variance(s) / n).sqrt();
        let (mut lo, mut hi) = (s - Z95 * sd, s + Z95 * sd);
        if (lo <= 0.0 || hi >= 1.0) && s > 0.0 && s < 1.0 {
            (lo, hi) = wilson(s, n);
        }
        let margin = if lo <= 0.0 || hi >= 1.0 {
            f64::INFINITY
        } else {
            (elo_of_score(hi) - elo_of_score(lo)) / 2.0
        };
        Some(EloEstimate { elo, margin })
    }

    /// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), 0
    /// before any game. While every result is the same (no spread, so no
    /// variance to measure), one win and one loss are added to the count,
    /// so that a run of wins still moves the test, gently.
    pub fn llr(&self, p: &SprtParams) -> f64 {
        let Some(s) = self.fraction() else {
            return 0.0;
        };
        if self.variance(s) <= 0.0 {
            let spread = Score {
                wins: self.wins + 1,
                losses: self.losses + 1,
                ..*self
            };
            return spread.llr(p);
        }
        let var = self.variance(s);
        let (s0, s1) = (score_of_elo(p.elo0), score_of_elo(p.elo1));
        self.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
    /// Elo difference of the null hypothesis (logistic Elo).
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

impl SprtParams {
    /// Reads `elo0=0,elo1=10[,alpha=0.05][,beta=0.05]`.
    pub fn parse(text: &str) -> Result<SprtParams> {
        let mut p = SprtParams {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for field in split_fields(text) {
            let (k, v) = field
                .split_once('=')
                .with_context(|| format!("SPRT field `{field}`: expected KEY=VALUE"))?;
            let x: f64 = v
                .trim()
                .parse()
                .with_context(|| format!("SPRT field `{k}`: `{v}` is not a number"))?;
            match k.trim() {
                "elo0" => p.elo0 = x,
                "elo1" => p.elo1 = x,
                "alpha" => p.alpha = x,
                "beta" => p.beta = x,
                other => bail!("SPRT field `{other}`: expected elo0, elo1, alpha or beta"),
            }
        }
        if !p.elo0.is_finite() || !p.elo1.is_finite() {
            bail!("SPRT `{text}`: give elo0 and elo1");
        }
        if p.elo1 <= p.elo0 {
            bail!("SPRT `{text}`: elo1 must be greater than elo0");
        }
        let prob = |x: f64| x > 0.0 && x < 0.5;
        if !prob(p.alpha) || !prob(p.beta) {
            bail!("SPRT `{text}`: alpha and beta must be between 0 and 0.5");
        }
        Ok(p)
    }
}

/// The decision bounds of an SPRT: (lower, upper) on the LLR.
pub fn sprt_bounds(p: &SprtParams) -> (f64, f64) {
    (
        (p.beta / (1.0 - p.alpha)).ln(),
        ((1.0 - p.beta) / p.alpha).ln(),
    )
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Between the bounds: play on.
    Continue,
    /// Below the lower bound: H0 (`elo0`) accepted.
    H0,
    /// Above the upper bound: H1 (`elo1`) accepted.
    H1,
}

/// The SPRT's decision for `score`.
pub fn sprt_state(score: &Score, p: &SprtParams) -> SprtState {
    let llr = score.llr(p);
    let (lo, hi) = sprt_bounds(p);
    if llr >= hi {
        SprtState::H1
    } else if llr <= lo {
        SprtState::H0
    } else {
        SprtState::Continue
    }
}

/// `+34.9 +/- 120.3`, with `inf` where the estimate is unbounded.
pub fn format_elo(e: &EloEstimate) -> String {
    let f = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 { "+inf" } else { "-inf" }.to_string()
        } else {
            // `+ 0.0` turns -0.0 into 0.0.
            format!("{:+.1}", x + 0.0)
        }
    };
    let m = if e.margin.is_infinite() {
        "inf".to_string()
    } else {
        format!("{:.1}", e.margin)
    };
    format!("{} +/- {m}", f(e.elo))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_of_score(0.5), 0.0, 1e-12));
        // 0.75 is 3:1 odds: 400 * log10(3) = 190.85.
        assert!(close(elo_of_score(0.75), 190.848_501_887_864_9, 1e-9));
        assert!(close(elo_of_score(0.25), -190.848_501_887_864_9, 1e-9));
        assert!(close(score_of_elo(190.848_501_887_864_9), 0.75, 1e-12));
        assert!(elo_of_score(1.0).is_infinite());
    }

    #[test]
    fn trinomial_margin_matches_a_hand_computation() {
        // W=10 L=5 D=5: s = 0.625, per-game variance 0.171875,
        // standard error sqrt(0.171875 / 20) = 0.0927025.
        let sc = Score {
            wins: 10,
            losses: 5,
            draws: 5,
            ..Default::default()
        };
        let e = sc.elo().unwrap();
        assert!(close(e.elo, 88.739_499_846_542_5, 1e-6), "{e:?}");
        let sd = (0.171875f64 / 20.0).sqrt();
        let want = (elo_of_score(0.625 + Z95 * sd) - elo_of_score(0.625 - Z95 * sd)) / 2.0;
        assert!(close(e.margin, want, 1e-9));
        // And that number, once and for all: 143.9 Elo.
        assert!(close(e.margin, 143.87, 0.01), "{e:?}");
        assert_eq!(format_elo(&e), "+88.7 +/- 143.9");
    }

    /// Issue 80: the interval is finite for every score short of all wins
    /// or all losses, however few the games (14-2-0 in Chu Shogi gave
    /// `+/- inf`); a match of one result alone stays unbounded.
    #[test]
    fn the_margin_is_finite_short_of_all_wins_or_all_losses() {
        for n in 1..=30u32 {
            for wins in 0..=n {
                for losses in 0..=n - wins {
                    let sc = Score {
                        wins,
                        losses,
                        draws: n - wins - losses,
                        ..Default::default()
                    };
                    let e = sc.elo().unwrap();
                    let lopsided = wins == n || losses == n;
                    assert_eq!(e.margin.is_finite(), !lopsided, "{sc:?}: {e:?}");
                }
            }
        }
        let chu = Score {
            wins: 14,
            losses: 2,
            draws: 0,
            ..Default::default()
        };
        let e = chu.elo().unwrap();
        assert!(close(e.elo, 338.0, 0.1) && e.margin > 100.0, "{e:?}");
        assert!(!format_elo(&e).contains("inf"), "{}", format_elo(&e));
    }

    #[test]
    fn even_scores_and_extremes() {
        let sc = Score {
            wins: 3,
            losses: 3,
            draws: 4,
            ..Default::default()
        };
        let e = sc.elo().unwrap();
        assert!(close(e.elo, 0.0, 1e-12));
        assert!(e.margin > 0.0 && e.margin.is_finite());
        let all = Score {
            wins: 4,
            losses: 0,
            draws: 0,
            ..Default::default()
        };
        let e = all.elo().unwrap();
        assert!(e.elo.is_infinite() && e.margin.is_infinite());
        assert_eq!(format_elo(&e), "+inf +/- inf");
        assert_eq!(Score::default().elo(), None);
    }

    #[test]
    fn sprt_llr_and_bounds() {
        let p = SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt_bounds(&p);
        assert!(close(lo, -2.944_438_979_166_44, 1e-9));
        assert!(close(hi, 2.944_438_979_166_44, 1e-9));
        // W=520 L=480 D=0: s = 0.52, var = 0.2496; s0 = 0.5,
        // s1 = 1/(1+10^(-1/40)) = 0.514387; LLR = 1000 * 0.014387 *
        // (1.04 - 1.014387) / 0.4992 = 0.738.
        let sc = Score {
            wins: 520,
            losses: 480,
            draws: 0,
            ..Default::default()
        };
        let s1 = score_of_elo(10.0);
        let want = 1000.0 * (s1 - 0.5) * (1.04 - 0.5 - s1) / (2.0 * 0.2496);
        assert!(close(sc.llr(&p), want, 1e-9));
        assert!(close(sc.llr(&p), 0.7382, 0.0001), "{}", sc.llr(&p));
        assert_eq!(sprt_state(&sc, &p), SprtState::Continue);
        let strong = Score {
            wins: 700,
            losses: 300,
            draws: 0,
            ..Default::default()
        };
        assert_eq!(sprt_state(&strong, &p), SprtState::H1);
        let weak = Score {
            wins: 300,
            losses: 700,
            draws: 0,
            ..Default::default()
        };
        assert_eq!(sprt_state(&weak, &p), SprtState::H0);
        assert_eq!(Score::default().llr(&p), 0.0);
    }

    #[test]
    fn shared_points_count_their_share() {
        let mut sc = Score::default();
        sc.record(0.56);
        sc.record(0.43);
        sc.record(1.0);
        sc.record(0.5);
        assert_eq!((sc.wins, sc.losses, sc.draws), (2, 1, 1));
        assert!(close(
            sc.fraction().unwrap(),
            (0.56 + 0.43 + 1.0 + 0.5) / 4.0,
            1e-12
        ));
        let s = sc.fraction().unwrap();
        let want = [0.56f64, 0.43, 1.0, 0.5]
            .iter()
            .map(|x| (x - s).powi(2))
            .sum::<f64>()
            / 4.0;
        assert!(close(sc.variance(s), want, 1e-12));
        // Plain results recorded one by one equal the counts.
        let mut plain = Score::default();
        for v in [1.0, 1.0, 0.0, 0.5] {
            plain.record(v);
        }
        assert_eq!(
            plain,
            Score {
                wins: 2,
                losses: 1,
                draws: 1,
                ..Default::default()
            }
        );
    }

    #[test]
    fn sprt_on_results_without_spread() {
        let p = SprtParams {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let wins = |n| Score {
            wins: n,
            losses: 0,
            draws: 0,
            ..Default::default()
        };
        // Counted as n + 1 wins and 1 loss.
        assert_eq!(
            wins(3).llr(&p),
            Score {
                wins: 4,
                losses: 1,
                draws: 0,
                ..Default::default()
            }
            .llr(&p)
        );
        assert!(wins(1).llr(&p) > 0.0);
        assert_eq!(sprt_state(&wins(2), &p), SprtState::Continue);
        assert_eq!(sprt_state(&wins(10), &p), SprtState::H1);
        let draws = Score {
            wins: 0,
            losses: 0,
            draws: 10,
            ..Default::default()
        };
        assert!(draws.llr(&p) < 0.0);
    }

    #[test]
    fn sprt_fields() {
        let p = SprtParams::parse("elo0=0,elo1=10").unwrap();
        assert_eq!((p.elo0, p.elo1, p.alpha, p.beta), (0.0, 10.0, 0.05, 0.05));
        assert!(SprtParams::parse("elo0=10,elo1=0").is_err());
        assert!(SprtParams::parse("elo0=0").is_err());
        assert!(SprtParams::parse("elo0=0,elo1=5,alpha=0.7").is_err());
    }
}
