//! The evaluation's weights as data: what each term is worth, per variant.
//!
//! A weights file `NAME.eval.toml` lies beside a variant file `NAME.toml`
//! (the built-in ones in the workspace's `variants/` folder). Every key is
//! optional: a term the file does not give keeps its default, which may
//! depend on the variant (piece values come from the variant file, royal
//! safety counts in the end game too where royals are captured rather than
//! mated). A term is a pair `{ mg = .., eg = .. }`: its middle-game and
//! end-game weight, tapered by the game phase. Units: centipawns per unit
//! of the term's feature, except the terms marked *percent*, which scale a
//! shape computed from the variant file (100 = the shape as it stands).
//!
//! ```toml
//! tempo = { mg = 12, eg = 12 }
//! shelter = { mg = 8, eg = 0 }
//! [piece_value]
//! knight = { mg = 300, eg = 320 }
//! ```
//!
//! [`Weights`] is the file as read; [`Params`] the weights resolved for one
//! variant, one flat list of pairs in a fixed order (what the tuner
//! changes).

use crate::values::base_value;
use kamil_rules::Variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The promotions of `variant` whose value `kamil tune` keeps at least
/// that of the piece promoting, as `(from, to)` piece types: chess-style
/// choices (`promotes_to`) and shogi-style promoted forms (`promoted`),
/// but not a promotion that hands the new piece to the opponent (Frolov's
/// hostile generals, rules/frolov-10x10.md 5.3) nor one to a royal (the
/// shogi games' Crown Prince: a second royal is worth what it guards, not
/// a value a trade weighs).
pub fn promotion_floors(variant: &Variant) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (from, info) in variant.pieces.iter().enumerate() {
        let targets = info.promotes_to.iter().chain(info.promoted.iter());
        for &to in targets {
            let royal = variant.pieces.get(usize::from(to)).is_none_or(|p| p.royal);
            if !royal && !variant.specials.is_hostile_promotion(to) && usize::from(to) != from {
                out.push((from, usize::from(to)));
            }
        }
    }
    out
}

/// Largest weight magnitude of a term other than a piece value, centipawns
/// per unit (or percent for the percent terms).
pub const MAX_WEIGHT: i32 = 10_000;

/// Largest piece value, centipawns (as the variant file allows).
const MAX_PIECE_VALUE: i32 = kamil_rules::piece::MAX_VALUE;

/// The built-in weights files, by variant name (`Variant.name`). A variant
/// without one uses the defaults.
const BUILTIN: &[(&str, &str)] = crate::builtin::BUILTIN_WEIGHTS;

/// A middle-game and an end-game weight, centipawns per unit of a feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    /// Weight while the board is full (game phase 1).
    pub mg: i32,
    /// Weight once the pieces are gone (game phase 0).
    pub eg: i32,
}

impl Pair {
    /// A pair from its middle-game and end-game weights.
    pub const fn new(mg: i32, eg: i32) -> Pair {
        Pair { mg, eg }
    }
}

/// What went wrong reading or resolving a weights file.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum WeightsError {
    /// Not TOML, or a key or value of the wrong kind (the message names the
    /// line and key; unknown keys are errors).
    #[error("{0}")]
    Toml(String),
    /// A weight outside its range.
    #[error("`{key}` = {value} is out of range ({min} to {max})")]
    OutOfRange {
        /// The key, e.g. `tempo.mg` or `piece_value.knight.eg`.
        key: String,
        /// The value given.
        value: i64,
        /// Least value allowed.
        min: i64,
        /// Greatest value allowed.
        max: i64,
    },
    /// A per-piece section names a piece the variant does not have.
    #[error("`{section}.{piece}`: the variant `{variant}` has no piece `{piece}`")]
    UnknownPiece {
        /// The section: `piece_value`, `mobility`, `royal_attacker`,
        /// `advance` or `centre`.
        section: &'static str,
        /// The piece key given.
        piece: String,
        /// The variant's name.
        variant: String,
    },
    /// The variant a weights file is inherited from is not built in.
    #[error("the variant `{variant}` extends `{base}`, which is not a built-in variant")]
    UnknownBase {
        /// The name given as the base.
        base: String,
        /// The extending variant's name.
        variant: String,
    },
    /// A list of weights of the wrong length for the variant.
    #[error("{given} weights given, the variant `{variant}` has {expected}")]
    Length {
        /// Number given.
        given: usize,
        /// Number the variant's terms need.
        expected: usize,
        /// The variant's name.
        variant: String,
    },
}

macro_rules! terms {
    ($( $(#[doc = $doc:literal])* $field:ident => $variant:ident; )*) => {
        /// A term of the evaluation with one weight pair, the same for
        /// every piece.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Term {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Term {
            /// Every term, in the order of [`Params`].
            pub const ALL: &'static [Term] = &[$(Term::$variant,)*];

            /// The term's key in a weights file.
            pub fn name(self) -> &'static str {
                match self {
                    $(Term::$variant => stringify!($field),)*
                }
            }
        }

        /// A weights file as read: each term optional (absent = default).
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Weights {
            $(
                $(#[doc = $doc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<Pair>,
            )*
            /// Material lead (centipawns) from which the stronger side hunts
            /// the weaker side's sole royal (not tuned: a threshold).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub mop_up_lead: Option<i32>,
            /// Value of a piece type by phase, centipawns, keyed by the
            /// variant file's piece key (default: the file's `value`).
            #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
            pub piece_value: BTreeMap<String, Pair>,
            /// Per piece type: bonus per square it reaches (empty or enemy)
            /// beyond its empty-board average (default 0).
            #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
            pub mobility: BTreeMap<String, Pair>,
            /// Per attacking piece type: bonus for the side whose sole royal
            /// has such an enemy within two steps (default 0; a penalty is
            /// negative).
            #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
            pub royal_attacker: BTreeMap<String, Pair>,
            /// Per piece type: bonus per rank it stands from its side's
            /// home rank (default 0).
            #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
            pub advance: BTreeMap<String, Pair>,
            /// Per piece type: bonus per half-step (file and rank counted
            /// alike) it stands from the board's edges toward its centre
            /// (default 0).
            #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
            pub centre: BTreeMap<String, Pair>,
        }

        impl Weights {
            /// The pair this file gives for `term`, if any.
            pub fn term(&self, term: Term) -> Option<Pair> {
                match term {
                    $(Term::$variant => self.$field,)*
                }
            }

            /// Sets the pair of `term`.
            pub fn set_term(&mut self, term: Term, pair: Pair) {
                match term {
                    $(Term::$variant => self.$field = Some(pair),)*
                }
            }
        }
    };
}

terms! {
    /// Bonus for the side to move.
    tempo => Tempo;
    /// Per friendly piece next to a sole royal.
    shelter => Shelter;
    /// Per enemy piece (not royal) within two steps of a sole royal.
    attacker_near => AttackerNear;
    /// Per rank (at most three) a royal stands from its home rank.
    royal_advance => RoyalAdvance;
    /// Per step a royal stands from the centre.
    royal_centre => RoyalCentre;
    /// Per square a slider reaches beyond its empty-board average.
    slider_mobility => SliderMobility;
    /// To the hunter, per step the hunted sole royal stands from the centre.
    mop_up_edge => MopUpEdge;
    /// To the hunter, per step its royal stands nearer the hunted one
    /// (games with a check rule).
    mop_up_close => MopUpClose;
    /// Percent: a piece's empty-board mobility from its square against its
    /// average, times its value, divided by six.
    centralisation => Centralisation;
    /// Percent: in a shogi promotion zone, 45% of the piece's best
    /// promotion gain.
    promotion_zone => PromotionZone;
    /// Percent: nearing the promotion zone (or the last rank), a share of
    /// the best promotion gain that grows as the distance shrinks.
    promotion_approach => PromotionApproach;
    /// Per rank a pawn that cannot promote has advanced.
    pawn_advance => PawnAdvance;
    /// Per pawn with no enemy pawn ahead on its own or a neighbouring file.
    passed_pawn => PassedPawn;
    /// Per pawn with no friendly pawn on a neighbouring file.
    isolated_pawn => IsolatedPawn;
    /// Per pawn beyond the first on a file.
    doubled_pawn => DoubledPawn;
    /// Per pawn with a friendly pawn beside it (each pair once).
    pawn_phalanx => PawnPhalanx;
    /// Per piece (not royal) standing in the enemy's promotion zone, in
    /// games with shogi promotion.
    zone_pressure => ZonePressure;
    /// Per piece (neither pawn nor royal) an enemy pawn attacks, per 100
    /// centipawns of the piece's value in the variant file (rounded down).
    pawn_threat => PawnThreat;
    /// Per square of a side's space area (the central half of the files,
    /// its second rank to the last of its half) that holds none of its
    /// pawns and no enemy pawn attacks; a square up to three behind a
    /// friendly pawn on its file counts twice (`eval/space.rs`).
    space => Space;
    /// Per piece that rides its file (a Rook) on a file with an enemy pawn
    /// but none of its side's (`eval/files.rs`).
    half_open_file => HalfOpenFile;
    /// Per piece that rides its file on a file with no pawn at all.
    open_file => OpenFile;
    /// Per piece (neither pawn nor royal) that an enemy piece worth less
    /// attacks (by a leap or ride that captures; each piece once), per 100
    /// centipawns of its value in the variant file (rounded down).
    /// Computed with the per-type mobility, so switching it on costs what
    /// mobility costs.
    piece_threat => PieceThreat;
}

impl Weights {
    /// Reads a weights file from TOML text, checking every value's range.
    ///
    /// Errors: TOML syntax, an unknown key or a value of the wrong type
    /// (the message names the line and key), a value out of range.
    pub fn from_toml(text: &str) -> Result<Weights, WeightsError> {
        let w: Weights = toml::from_str(text).map_err(|e| WeightsError::Toml(e.to_string()))?;
        w.check()?;
        Ok(w)
    }

    /// The file as TOML text (what [`Weights::from_toml`] reads back).
    pub fn to_toml(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        toml::to_string(self).unwrap_or_default()
    }

    /// The built-in weights of a variant by name, if it has a file; an
    /// invalid built-in file (a test checks there is none) counts as none.
    pub fn builtin(name: &str) -> Option<Weights> {
        let (_, text) = BUILTIN.iter().find(|(n, _)| *n == name)?;
        Weights::from_toml(text).ok()
    }

    /// The names of the variants with a built-in weights file.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(n, _)| *n)
    }

    /// Checks each value's range. Errors: the first one out of range.
    fn check(&self) -> Result<(), WeightsError> {
        for &t in Term::ALL {
            if let Some(p) = self.term(t) {
                check_pair(t.name(), p, MAX_WEIGHT)?;
            }
        }
        if let Some(lead) = self.mop_up_lead {
            check_value("mop_up_lead", lead, 0, MAX_PIECE_VALUE)?;
        }
        for (section, map) in self.piece_sections() {
            // Piece values are bounded as values, the other sections as weights.
            let max = if section == "piece_value" {
                MAX_PIECE_VALUE
            } else {
                MAX_WEIGHT
            };
            for (k, p) in map {
                check_pair(&format!("{section}.{k}"), *p, max)?;
            }
        }
        Ok(())
    }
}

fn check_pair(key: &str, p: Pair, max: i32) -> Result<(), WeightsError> {
    check_value(&format!("{key}.mg"), p.mg, -max, max)?;
    check_value(&format!("{key}.eg"), p.eg, -max, max)
}

fn check_value(key: &str, value: i32, min: i32, max: i32) -> Result<(), WeightsError> {
    if value < min || value > max {
        return Err(WeightsError::OutOfRange {
            key: key.to_string(),
            value: value.into(),
            min: min.into(),
            max: max.into(),
        });
    }
    Ok(())
}

/// The weights resolved for one variant: every term's pair, in a fixed
/// order (the [`Term`]s, then per piece type its value, mobility, royal
/// attacker, advance and centre weights), and the settings that are not
/// tuned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Every weight pair, in the order of [`Params::names`].
    pub pairs: Vec<Pair>,
    /// Material lead from which the mop-up terms apply, centipawns.
    pub mop_up_lead: i32,
    /// Number of piece types of the variant.
    types: usize,
}

/// The per-piece sections of a weights file, in the order of
/// [`Params::pairs`].
pub const PIECE_SECTIONS: [&str; 5] = [
    "piece_value",
    "mobility",
    "royal_attacker",
    "advance",
    "centre",
];

impl Weights {
    /// The per-piece sections with their names, in [`PIECE_SECTIONS`]'s
    /// order.
    fn piece_sections(&self) -> [(&'static str, &BTreeMap<String, Pair>); 5] {
        [
            (PIECE_SECTIONS[0], &self.piece_value),
            (PIECE_SECTIONS[1], &self.mobility),
            (PIECE_SECTIONS[2], &self.royal_attacker),
            (PIECE_SECTIONS[3], &self.advance),
            (PIECE_SECTIONS[4], &self.centre),
        ]
    }

    /// The per-piece sections, in [`PIECE_SECTIONS`]'s order, to change.
    fn piece_sections_mut(&mut self) -> [&mut BTreeMap<String, Pair>; 5] {
        [
            &mut self.piece_value,
            &mut self.mobility,
            &mut self.royal_attacker,
            &mut self.advance,
            &mut self.centre,
        ]
    }
}

impl Params {
    /// The default weights for `variant`: today's hand-set terms, piece
    /// values from the variant file, new terms at 0.
    pub fn defaults(variant: &Variant) -> Params {
        let capture_royal = !variant.rules.royal_safety;
        // Where royals are captured rather than mated (Chu, Dai Shogi) a
        // royal is lost by being attacked at all and long-range pieces
        // outlive the middle game: its safety counts in the end game too.
        let royal_eg = |mg: i32| if capture_royal { mg } else { 0 };
        let mut pairs: Vec<Pair> = Term::ALL
            .iter()
            .map(|t| match t {
                Term::Tempo => Pair::new(12, 12),
                Term::Shelter => Pair::new(8, royal_eg(8)),
                Term::AttackerNear => Pair::new(-10, royal_eg(-10)),
                Term::RoyalAdvance => Pair::new(-14, royal_eg(-14)),
                Term::RoyalCentre => Pair::new(0, if capture_royal { 0 } else { -6 }),
                Term::SliderMobility => Pair::new(4, 3),
                Term::MopUpEdge => Pair::new(0, 12),
                Term::MopUpClose => Pair::new(0, 5),
                Term::Centralisation => Pair::new(100, 50),
                Term::PromotionZone => Pair::new(50, 100),
                Term::PromotionApproach => Pair::new(50, 100),
                Term::PawnAdvance => Pair::new(3, 6),
                Term::PassedPawn
                | Term::IsolatedPawn
                | Term::DoubledPawn
                | Term::PawnPhalanx
                | Term::ZonePressure => Pair::default(),
                Term::PawnThreat => Pair::new(-10, -10),
                Term::Space | Term::HalfOpenFile | Term::OpenFile | Term::PieceThreat => {
                    Pair::default()
                }
            })
            .collect();
        let types = variant.pieces.len();
        pairs.extend(variant.pieces.iter().map(|p| {
            let v = base_value(p.royal, p.value);
            Pair::new(v, v)
        }));
        pairs.extend(std::iter::repeat_n(
            Pair::default(),
            (PIECE_SECTIONS.len() - 1) * types,
        ));
        Params {
            pairs,
            mop_up_lead: 250,
            types,
        }
    }

    /// The weights of `file` over the defaults for `variant`.
    ///
    /// Errors: a per-piece section names a piece the variant lacks.
    pub fn resolve(variant: &Variant, file: &Weights) -> Result<Params, WeightsError> {
        let mut p = Params::defaults(variant);
        for (i, &t) in Term::ALL.iter().enumerate() {
            if let Some(pair) = file.term(t) {
                p.pairs[i] = pair;
            }
        }
        if let Some(lead) = file.mop_up_lead {
            p.mop_up_lead = lead;
        }
        for (s, (section, map)) in file.piece_sections().into_iter().enumerate() {
            for (key, pair) in map {
                let Some(t) = variant.pieces.iter().position(|p| p.key == *key) else {
                    return Err(WeightsError::UnknownPiece {
                        section,
                        piece: key.clone(),
                        variant: variant.name.clone(),
                    });
                };
                let i = Term::ALL.len() + s * p.types + t;
                p.pairs[i] = *pair;
            }
        }
        Ok(p)
    }

    /// The weights for `variant`: its built-in file if it has one (by
    /// name), else that of the nearest variant it `extends` (as
    /// [`Params::inherit`] takes it), else the defaults.
    pub fn builtin(variant: &Variant) -> Params {
        // A file that extends a game without naming itself keeps the
        // game's name, not its pieces: it inherits like any other.
        let own_name = !variant.bases.contains(&variant.name);
        if let Some(p) = Weights::builtin(&variant.name)
            .filter(|_| own_name)
            .and_then(|w| Params::resolve(variant, &w).ok())
        {
            return p;
        }
        for base in &variant.bases {
            if let Some(w) = Weights::builtin(base) {
                return Params::inherit(variant, base, &w)
                    .unwrap_or_else(|_| Params::defaults(variant));
            }
        }
        Params::defaults(variant)
    }

    /// The weights file `file` of the built-in variant `base`, applied to
    /// `variant`, which extends it: the terms as they are, and the
    /// per-piece weights only of the pieces that are the base's own (same
    /// key, movement and value in the variant file), so a piece the variant
    /// adds, moves anew or values anew keeps its defaults.
    ///
    /// Errors: `base` is not a built-in variant.
    pub fn inherit(variant: &Variant, base: &str, file: &Weights) -> Result<Params, WeightsError> {
        let base = Variant::builtin(base, &[]).map_err(|_| WeightsError::UnknownBase {
            base: base.to_string(),
            variant: variant.name.clone(),
        })?;
        let same = |key: &str| {
            let own = variant.pieces.iter().find(|p| p.key == key);
            let theirs = base.pieces.iter().find(|p| p.key == key);
            own.zip(theirs)
                .is_some_and(|(a, b)| a.betza == b.betza && a.value == b.value)
        };
        let mut file = file.clone();
        for map in file.piece_sections_mut() {
            map.retain(|key, _| same(key));
        }
        Params::resolve(variant, &file)
    }

    /// Replaces the weight pairs (in the order of [`Params::names`]),
    /// clamping each to its range.
    ///
    /// Errors: `pairs` has the wrong length for the variant.
    pub fn with_pairs(&self, variant: &Variant, pairs: &[Pair]) -> Result<Params, WeightsError> {
        if pairs.len() != self.pairs.len() {
            return Err(WeightsError::Length {
                given: pairs.len(),
                expected: self.pairs.len(),
                variant: variant.name.clone(),
            });
        }
        let mut p = self.clone();
        for (i, (dst, src)) in p.pairs.iter_mut().zip(pairs).enumerate() {
            let max = if self.is_piece_value(i) {
                MAX_PIECE_VALUE
            } else {
                MAX_WEIGHT
            };
            *dst = Pair::new(src.mg.clamp(-max, max), src.eg.clamp(-max, max));
        }
        Ok(p)
    }

    /// Is index `i` of [`Params::pairs`] a piece value?
    pub fn is_piece_value(&self, i: usize) -> bool {
        (Term::ALL.len()..Term::ALL.len() + self.types).contains(&i)
    }

    /// The name of each pair, as a weights file keys it: `tempo`,
    /// `piece_value.knight`, `mobility.rook`, `royal_attacker.queen`,
    /// `advance.pawn`, `centre.knight`.
    pub fn names(variant: &Variant) -> Vec<String> {
        let mut out: Vec<String> = Term::ALL.iter().map(|t| t.name().to_string()).collect();
        for section in PIECE_SECTIONS {
            out.extend(
                variant
                    .pieces
                    .iter()
                    .map(|p| format!("{section}.{}", p.key)),
            );
        }
        out
    }

    /// Every weight written out as a weights file for `variant`.
    pub fn to_weights(&self, variant: &Variant) -> Weights {
        let mut w = Weights::default();
        for (i, &t) in Term::ALL.iter().enumerate() {
            w.set_term(t, self.pairs[i]);
        }
        w.mop_up_lead = Some(self.mop_up_lead);
        let n = Term::ALL.len();
        for (s, map) in w.piece_sections_mut().into_iter().enumerate() {
            for (t, info) in variant.pieces.iter().enumerate() {
                map.insert(info.key.clone(), self.pairs[n + s * self.types + t]);
            }
        }
        w
    }

    /// The pair of a [`Term`].
    #[inline(always)]
    pub fn term(&self, t: Term) -> Pair {
        self.pairs[t as usize]
    }

    /// Index in [`Params::pairs`] of piece type `t`'s value.
    #[inline(always)]
    pub fn piece_value_index(&self, t: usize) -> usize {
        Term::ALL.len() + t
    }

    /// Index in [`Params::pairs`] of piece type `t`'s mobility weight.
    #[inline(always)]
    pub fn mobility_index(&self, t: usize) -> usize {
        Term::ALL.len() + self.types + t
    }

    /// Index in [`Params::pairs`] of piece type `t`'s weight as an attacker
    /// near a royal.
    #[inline(always)]
    pub fn royal_attacker_index(&self, t: usize) -> usize {
        Term::ALL.len() + 2 * self.types + t
    }

    /// Index in [`Params::pairs`] of piece type `t`'s weight per rank of
    /// advance.
    #[inline(always)]
    pub fn advance_index(&self, t: usize) -> usize {
        Term::ALL.len() + 3 * self.types + t
    }

    /// Index in [`Params::pairs`] of piece type `t`'s weight per half-step
    /// toward the centre.
    #[inline(always)]
    pub fn centre_index(&self, t: usize) -> usize {
        Term::ALL.len() + 4 * self.types + t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(name: &str) -> Variant {
        Variant::builtin(name, &[]).unwrap()
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        let v = variant("courier");
        let w = Weights::from_toml("").unwrap();
        assert_eq!(Params::resolve(&v, &w).unwrap(), Params::defaults(&v));
    }

    #[test]
    fn every_builtin_file_reads_and_fits_its_variant() {
        for name in Weights::builtin_names() {
            let (_, text) = BUILTIN.iter().find(|(n, _)| *n == name).unwrap();
            let w = Weights::from_toml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            Params::resolve(&variant(name), &w).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn every_weights_file_beside_the_variants_is_built_in() {
        // A file in variants/ that is not in BUILTIN would be silently
        // ignored by the engine.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if let Some(variant) = name.strip_suffix(".eval.toml") {
                files += 1;
                assert!(
                    Weights::builtin_names().any(|n| n == variant),
                    "variants/{name} is not in BUILTIN"
                );
            }
        }
        assert_eq!(files, Weights::builtin_names().count());
    }

    #[test]
    fn a_variant_inherits_the_weights_of_the_one_it_extends() {
        let base = variant("tamerlane");
        let tuned = Params::builtin(&base);
        let g1 = variant("tamerlane-greenwood-1");
        assert_eq!(g1.bases, ["tamerlane"]);
        let p = Params::builtin(&g1);
        let value = |p: &Params, v: &Variant, key: &str| {
            p.pairs[p.piece_value_index(v.piece_by_key(key).unwrap() as usize)]
        };
        // The Rook is Tamerlane's own: its tuned value, not the file's.
        assert_eq!(value(&p, &g1, "rook"), value(&tuned, &base, "rook"));
        assert_ne!(
            value(&p, &g1, "rook"),
            value(&Params::defaults(&g1), &g1, "rook")
        );
        // The Guard is Greenwood's: its file value.
        assert_eq!(
            value(&p, &g1, "guard"),
            value(&Params::defaults(&g1), &g1, "guard")
        );
        assert_eq!(p.term(Term::Tempo), tuned.term(Term::Tempo));
    }

    #[test]
    fn every_variant_that_extends_a_tuned_game_inherits_without_error() {
        let mut inheriting = 0;
        for (name, _) in kamil_rules::variant::BUILTIN {
            let v = variant(name);
            if let Some((base, w)) = v.bases.iter().find_map(|b| Some((b, Weights::builtin(b)?))) {
                inheriting += 1;
                Params::inherit(&v, base, &w).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
        // Courier's two variants and the five Greenwood Tamerlanes.
        assert_eq!(inheriting, 7);
    }

    #[test]
    fn every_builtin_game_plays_on_weights_of_its_own() {
        // Issue 13: every built-in game (a variant that extends none) has
        // fitted weights; none is left on the defaults. Its variants
        // inherit (tested above).
        let mut games = 0;
        for (name, _) in kamil_rules::variant::BUILTIN {
            let v = variant(name);
            if v.bases.is_empty() {
                games += 1;
                assert!(Weights::builtin(name).is_some(), "{name} has no file");
                assert_ne!(Params::builtin(&v), Params::defaults(&v), "{name}");
            }
        }
        assert_eq!(games, 9);
    }

    #[test]
    fn a_piece_valued_anew_keeps_its_own_value() {
        let text = "extends = \"tamerlane\"\nname = \"t2\"\n[pieces.rook]\nvalue = 555\n";
        let v = Variant::from_toml("t2.toml", text, &[]).unwrap();
        let p = Params::builtin(&v);
        let rook = v.piece_by_key("rook").unwrap() as usize;
        assert_eq!(p.pairs[p.piece_value_index(rook)], Pair::new(555, 555));
        let base = variant("tamerlane");
        let knight = |v: &Variant| v.piece_by_key("knight").unwrap() as usize;
        let tuned = Params::builtin(&base);
        assert_eq!(
            p.pairs[p.piece_value_index(knight(&v))],
            tuned.pairs[tuned.piece_value_index(knight(&base))]
        );
    }

    #[test]
    fn a_file_that_keeps_its_bases_name_still_keeps_its_own_values() {
        let text = "extends = \"tamerlane\"\n[pieces.rook]\nvalue = 555\n";
        let v = Variant::from_toml("t3.toml", text, &[]).unwrap();
        assert_eq!(v.name, "tamerlane");
        let p = Params::builtin(&v);
        let rook = v.piece_by_key("rook").unwrap() as usize;
        assert_eq!(p.pairs[p.piece_value_index(rook)], Pair::new(555, 555));
    }

    #[test]
    fn a_variant_that_extends_none_has_no_bases() {
        assert!(variant("courier").bases.is_empty());
        assert_eq!(variant("courier-modern").bases, ["courier"]);
    }

    #[test]
    fn a_file_overrides_only_what_it_names() {
        let v = variant("courier");
        let w = Weights::from_toml(
            "tempo = { mg = 20, eg = 7 }\n[piece_value]\nknight = { mg = 280, eg = 310 }\n",
        )
        .unwrap();
        let p = Params::resolve(&v, &w).unwrap();
        let d = Params::defaults(&v);
        assert_eq!(p.term(Term::Tempo), Pair::new(20, 7));
        assert_eq!(p.term(Term::Shelter), d.term(Term::Shelter));
        let n = v.piece_by_key("knight").unwrap() as usize;
        assert_eq!(p.pairs[p.piece_value_index(n)], Pair::new(280, 310));
    }

    #[test]
    fn advance_and_centre_are_read_per_piece_and_written_back() {
        let v = variant("courier");
        let w = Weights::from_toml(
            "[advance]\npawn = { mg = 3, eg = 9 }\n[centre]\nknight = { mg = 4, eg = -2 }\n",
        )
        .unwrap();
        let p = Params::resolve(&v, &w).unwrap();
        let pawn = v.piece_by_key("pawn").unwrap() as usize;
        let knight = v.piece_by_key("knight").unwrap() as usize;
        assert_eq!(p.pairs[p.advance_index(pawn)], Pair::new(3, 9));
        assert_eq!(p.pairs[p.centre_index(knight)], Pair::new(4, -2));
        assert_eq!(p.pairs[p.advance_index(knight)], Pair::default());
        let names = Params::names(&v);
        assert_eq!(names[p.advance_index(pawn)], "advance.pawn");
        assert_eq!(names[p.centre_index(knight)], "centre.knight");
        assert_eq!(names.len(), p.pairs.len());
        let back = Params::resolve(&v, &p.to_weights(&v)).unwrap();
        assert_eq!(back, p);
        let w = Weights::from_toml("[centre]\ndragon = { mg = 1, eg = 1 }").unwrap();
        let e = Params::resolve(&v, &w).unwrap_err();
        assert!(e.to_string().contains("centre.dragon"), "{e}");
        let e = Weights::from_toml("[advance]\npawn = { mg = 1, eg = 99999 }").unwrap_err();
        assert!(e.to_string().contains("advance.pawn.eg"), "{e}");
    }

    #[test]
    fn bad_files_are_errors_naming_the_key() {
        let e = Weights::from_toml("tempo = { mg = 20, eg = 99999 }").unwrap_err();
        assert!(e.to_string().contains("tempo.eg"), "{e}");
        let e = Weights::from_toml("tempoo = { mg = 1, eg = 1 }").unwrap_err();
        assert!(e.to_string().contains("tempoo"), "{e}");
        let e = Weights::from_toml("tempo = { mg = 1 }").unwrap_err();
        assert!(e.to_string().contains("eg"), "{e}");
        let e = Weights::from_toml("\n\ntempo = 3").unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        let w = Weights::from_toml("[mobility]\ndragon = { mg = 1, eg = 1 }").unwrap();
        let e = Params::resolve(&variant("courier"), &w).unwrap_err();
        assert!(e.to_string().contains("mobility.dragon"), "{e}");
    }

    #[test]
    fn piece_values_are_bounded_as_values_and_other_sections_as_weights() {
        let big = MAX_WEIGHT + 1;
        assert!(MAX_PIECE_VALUE > big);
        let value = format!("[piece_value]\nrook = {{ mg = {big}, eg = {big} }}");
        assert!(Weights::from_toml(&value).is_ok());
        for section in PIECE_SECTIONS.iter().filter(|&&s| s != "piece_value") {
            let text = format!("[{section}]\nrook = {{ mg = {big}, eg = 0 }}");
            let e = Weights::from_toml(&text).unwrap_err();
            assert!(e.to_string().contains(&format!("{section}.rook.mg")), "{e}");
        }
    }

    #[test]
    fn written_weights_read_back_the_same() {
        let v = variant("sho-shogi");
        let p = Params::defaults(&v);
        let text = p.to_weights(&v).to_toml();
        let back = Params::resolve(&v, &Weights::from_toml(&text).unwrap()).unwrap();
        assert_eq!(back, p);
        assert_eq!(Params::names(&v).len(), p.pairs.len());
    }
}
