//! The net trainer's samples ([`crate::nnue::Sample`]) from a data file's
//! bytes, text ([`crate::text`]) or binary ([`crate::data`]), told apart
//! by the binary format's first bytes, or from a reader of either
//! ([`from_text`], [`from_games`]). A position's target is the side to
//! move's expectation: the game's result, blended with the search's
//! score where the data have one ([`Blend`]).

use crate::data::{self, DataError};
use crate::nnue::Sample;
use crate::text::{self, ReadError, TextError, TextRecord};
use kamil_engine::Evaluator;
use kamil_engine::nnue::features::Features;
use kamil_engine::nnue::network::DEFAULT_SCALE;
use kamil_rules::fen::FenError;
use kamil_rules::{Position, Side, Variant};
use std::sync::Arc;

/// How a position's target is made: `w · σ(SCORE / k) + (1 - w) ·
/// result`, both as the side to move's expectation, `w` being
/// `score_weight` (a position without a score: its result alone).
#[derive(Clone, Copy, Debug)]
pub struct Blend<'a> {
    /// Centipawns per logit.
    pub k: f64,
    /// The weight of a score against the result, 0 to 1.
    pub score_weight: f64,
    /// For a residual net: the hand-written evaluation, whose score of
    /// each position is its sample's offset.
    pub hand: Option<&'a Evaluator>,
}

/// A data file whose samples cannot be read: where, and why.
#[derive(Debug, thiserror::Error)]
pub enum SamplesError {
    /// A text line that does not read, has no result, or cannot be read
    /// from its file.
    #[error(transparent)]
    Text(#[from] ReadError),
    /// A text line whose FEN does not read for the variant.
    #[error("line {line}: bad FEN `{fen}`")]
    TextFen {
        /// The line, from 1.
        line: usize,
        /// The FEN as written.
        fen: String,
        /// Why it does not read.
        source: FenError,
    },
    /// A binary file that does not read (its header or a record, named).
    #[error(transparent)]
    Data(#[from] DataError),
    /// A binary record whose FEN does not read for the variant.
    #[error("record {record} (game {game}): bad FEN `{fen}`")]
    RecordFen {
        /// The record, from 1, counted over the file.
        record: usize,
        /// Its game's index.
        game: u32,
        /// The FEN as written.
        fen: String,
        /// Why it does not read.
        source: FenError,
    },
    /// Bytes that are neither UTF-8 text nor the binary format.
    #[error("neither text nor binary data")]
    Unknown,
}

impl From<TextError> for SamplesError {
    fn from(e: TextError) -> SamplesError {
        SamplesError::Text(e.into())
    }
}

/// The samples of a data file's `bytes` for variant `v`, in file order.
///
/// Errors: a line, record or FEN that does not read ([`SamplesError`],
/// naming the line or the record).
pub fn from_bytes(
    v: &Arc<Variant>,
    features: &Features,
    bytes: &[u8],
    blend: Blend<'_>,
) -> Result<Vec<Sample>, SamplesError> {
    if data::is_binary(bytes) {
        return from_binary(v, features, bytes, blend);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| SamplesError::Unknown)?;
    let records = text::records(text).map(|r| r.map_err(ReadError::from));
    from_text(v, features, records, blend)
}

/// The samples of a text data file's `records` (a
/// [`text::TextReader`]: the file is read a line at a time, never held
/// whole), in file order.
///
/// Errors: a line that does not read or has no result, a FEN that does
/// not read ([`SamplesError`], naming the line).
pub fn from_text(
    v: &Arc<Variant>,
    features: &Features,
    records: impl Iterator<Item = Result<TextRecord, ReadError>>,
    blend: Blend<'_>,
) -> Result<Vec<Sample>, SamplesError> {
    records
        .map(|r| {
            let r = r?;
            let result = r.needs_result()?;
            let pos =
                Position::from_fen(v.clone(), &r.fen).map_err(|source| SamplesError::TextFen {
                    line: r.line,
                    fen: r.fen,
                    source,
                })?;
            Ok(target_sample(features, &pos, result, r.score, blend))
        })
        .collect()
}

fn from_binary(
    v: &Arc<Variant>,
    features: &Features,
    bytes: &[u8],
    blend: Blend<'_>,
) -> Result<Vec<Sample>, SamplesError> {
    from_games(v, features, data::Reader::new(v, bytes), blend)
}

/// The samples of a binary data file's `games` (a [`data::Reader`]: the
/// file is read a game at a time, never held whole), in file order.
///
/// Errors: a game that does not read, a record whose FEN does not
/// ([`SamplesError`], naming the record and its game).
pub fn from_games(
    v: &Arc<Variant>,
    features: &Features,
    games: impl Iterator<Item = Result<data::Game, DataError>>,
    blend: Blend<'_>,
) -> Result<Vec<Sample>, SamplesError> {
    let mut out = Vec::new();
    let mut n = 0;
    for g in games {
        let g = g?;
        for r in &g.records {
            n += 1;
            let pos = Position::from_fen(v.clone(), &r.fen).map_err(|source| {
                SamplesError::RecordFen {
                    record: n,
                    game: g.index,
                    fen: r.fen.clone(),
                    source,
                }
            })?;
            let cp = f64::from(r.score);
            out.push(target_sample(
                features,
                &pos,
                f64::from(r.result),
                Some(cp),
                blend,
            ));
        }
    }
    Ok(out)
}

/// The sample of `pos` from its game's `result` (first player's view, 0
/// to 1) and the search's score `cp` (centipawns, side to move's view),
/// if any.
pub fn target_sample(
    features: &Features,
    pos: &Position,
    result: f64,
    cp: Option<f64>,
    blend: Blend<'_>,
) -> Sample {
    let mut target = if pos.side() == Side::First {
        result
    } else {
        1.0 - result
    };
    if let Some(cp) = cp {
        let p = 1.0 / (1.0 + (-cp / blend.k).exp());
        target = blend.score_weight * p + (1.0 - blend.score_weight) * target;
    }
    let s = Sample::new(features, pos, target as f32);
    match blend.hand {
        Some(hand) => s.with_offset(hand.evaluate(pos) as f32 / DEFAULT_SCALE as f32),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str =
        "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";

    fn setup() -> (Arc<Variant>, Features, Blend<'static>) {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let f = Features::new(&v);
        let b = Blend {
            k: 400.0,
            score_weight: 0.5,
            hand: None,
        };
        (v, f, b)
    }

    /// A bad FEN's reason is the error's cause, said once in its chain.
    #[test]
    fn a_bad_fen_names_its_line_and_its_reason_once() {
        let (v, f, b) = setup();
        let e = from_bytes(&v, &f, b"xxx;1;0\n", b).unwrap_err();
        let mut chain = e.to_string();
        let mut cause = std::error::Error::source(&e);
        while let Some(c) = cause {
            chain.push_str(&format!(": {c}"));
            cause = c.source();
        }
        assert!(chain.starts_with("line 1: bad FEN `xxx`: "), "{chain}");
        let reason = std::error::Error::source(&e).unwrap().to_string();
        assert_eq!(chain.matches(&reason).count(), 1, "{chain}");
    }

    /// The one sample of a one-line text file.
    fn sample(
        v: &Arc<Variant>,
        f: &Features,
        line: &str,
        b: Blend<'_>,
    ) -> Result<Sample, SamplesError> {
        let mut s = from_bytes(v, f, line.as_bytes(), b)?;
        assert_eq!(s.len(), 1, "{line}");
        Ok(s.remove(0))
    }

    #[test]
    fn targets_are_the_side_to_moves_and_blend_a_score() {
        let (v, f, b) = setup();
        let t = |l: &str| sample(&v, &f, l, b).unwrap().target;
        assert_eq!(t(&format!("{START};1")), 1.0);
        let black = START.replace(" w ", " b ");
        assert_eq!(t(&format!("{black};1")), 0.0);
        assert_eq!(t(&format!("{black};0.25")), 0.75);
        // Score 0 is an even expectation: half of 0.5 and half of 1.
        assert_eq!(t(&format!("{START};1;0")), 0.75);
        assert!(t(&format!("{START};0;400")) > 0.36);
    }

    /// `fen` with each rank's cells reversed (files reflected).
    fn mirror_fen(fen: &str) -> String {
        let (board, rest) = fen.split_once(' ').unwrap();
        let mirror_rank = |rank: &str| {
            let mut cells: Vec<String> = Vec::new();
            let mut digits = String::new();
            for c in rank.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    cells.push(std::mem::take(&mut digits));
                }
                cells.push(c.to_string());
            }
            if !digits.is_empty() {
                cells.push(digits);
            }
            cells.reverse();
            cells.concat()
        };
        let ranks: Vec<String> = board.split('/').map(mirror_rank).collect();
        format!("{} {rest}", ranks.join("/"))
    }

    #[test]
    fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
        let (v, f, b) = setup();
        let fens = [
            START.to_string(),
            START.replace(" w ", " b "),
            "r1ebmk1w1enr/1ppppp2ppp1/2n4pf3/p10p/P3BBP4P/7P1N2/1P1PPP2PPP1/RNEBMK1W1E1R b - - 0 7"
                .to_string(),
        ];
        let sorted = |mut x: Vec<u32>| {
            x.sort_unstable();
            x
        };
        for fen in fens {
            let s = sample(&v, &f, &format!("{fen};1;35"), b).unwrap();
            let m = sample(&v, &f, &format!("{};1;35", mirror_fen(&fen)), b).unwrap();
            let image = s.mirrored(&f);
            assert_eq!(sorted(image.us.clone()), sorted(m.us.clone()), "{fen}");
            assert_eq!(sorted(image.them), sorted(m.them), "{fen}");
            assert_eq!(image.target, m.target);
            // The start position is not symmetric: its image differs.
            assert_ne!(sorted(s.us.clone()), sorted(m.us), "{fen}");
            assert_eq!(s.mirrored(&f).mirrored(&f), s);
        }
    }

    #[test]
    fn a_bad_line_is_an_error_that_names_the_line() {
        let (v, f, b) = setup();
        let text = format!("# c\n{START};1\n{START};2\n");
        let e = from_bytes(&v, &f, text.as_bytes(), b).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("line 3") && msg.contains("result `2`"),
            "{msg}"
        );
        for bad in [
            "x;1",
            START,
            &format!("{START};1;x"),
            &format!("{START};1;2;3"),
        ] {
            assert!(from_bytes(&v, &f, bad.as_bytes(), b).is_err(), "{bad}");
        }
        assert!(matches!(
            from_bytes(&v, &f, &[0xff, 0xfe, 0], b),
            Err(SamplesError::Unknown)
        ));
    }

    #[test]
    fn a_binary_file_gives_the_samples_of_its_text_lines() {
        let (v, f, b) = setup();
        let black = START.replace(" w ", " b ");
        let rows = [
            (START, 1.0, 35i16),
            (black.as_str(), 0.5, -120),
            (START, 0.0, 4000),
        ];
        let text: String = rows
            .iter()
            .map(|(fen, r, cp)| format!("{fen};{r};{cp}\n"))
            .collect();
        let game = data::Game {
            index: 0,
            records: rows
                .iter()
                .enumerate()
                .map(|(k, &(fen, result, score))| data::Record {
                    fen: fen.to_string(),
                    score,
                    result,
                    ply: k as u16,
                })
                .collect(),
        };
        let mut bytes = data::Header::new(&v, "test").to_bytes();
        bytes.extend(game.to_bytes().unwrap());
        let from_text = from_bytes(&v, &f, text.as_bytes(), b).unwrap();
        let from_binary = from_bytes(&v, &f, &bytes, b).unwrap();
        assert_eq!(from_text.len(), 3);
        assert_eq!(from_text, from_binary);
        // Cut short, the record is named.
        let e = from_bytes(&v, &f, &bytes[..bytes.len() - 4], b).unwrap_err();
        assert!(e.to_string().contains("record 3"), "{e}");
        // Another variant's data are refused, naming both.
        let sho = Variant::builtin("sho-shogi", &[]).unwrap();
        let e = from_bytes(&v, &f, &data::Header::new(&sho, "test").to_bytes(), b).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("sho-shogi") && e.contains("courier"), "{e}");
    }
}
