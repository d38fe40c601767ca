//! The compact game chunk (format version 3, issue 77): a game as its
//! start position, its moves and the scores of its kept positions, as
//! Stockfish's binpack stores games, a few bytes a position instead of a
//! FEN each. Its fields, little-endian:
//!
//! byte `C`; game index u32; result f32 (the first player's, 0 to 1);
//! start FEN (u16 length, UTF-8); plies u32; kept u32 (positions with a
//! score); payload length u32; the payload; checksum u64 (FNV-1a of the
//! chunk's bytes before it, from the `C`).
//!
//! The payload is one entry per ply: a LEB128 number `index * 2 + k`,
//! where `index` is the move's place among the position's legal moves in
//! [`canonical`] order and `k` is 1 when the position before the move is
//! kept; a kept position's score follows, zigzag LEB128 (centipawns, side
//! to move's view). A position is read back by replaying the moves from
//! the start, so the reader gives the same [`Record`]s (FEN, score,
//! result, ply) as a game chunk of the same game would.

use super::{Bad, Cursor, DataError, Game, Record, Where};
use kamil_engine::fingerprint::fnv1a;
use kamil_rules::{Move, Position, Variant};
use std::sync::Arc;

/// The first byte of a compact game chunk.
pub const COMPACT_TAG: u8 = b'C';

/// One ply of a game to store: the move and, for a kept position (the one
/// before the move), its score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The score of the position before it, if kept (centipawns, side to
    /// move's view).
    pub kept_score: Option<i16>,
}

/// A whole game, as the compact chunk stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveGame {
    /// The game's index in its run (from 0).
    pub index: u32,
    /// What the game was worth to the first player, 0 to 1.
    pub result: f32,
    /// The start position's FEN.
    pub start: String,
    /// Every ply, in order.
    pub plies: Vec<Ply>,
}

/// A move's order key: the same move sorts to the same place however the
/// legal moves were generated (their generation order may differ after
/// moves are made and taken back).
fn key(m: &Move) -> [u16; 9] {
    [
        m.from.0,
        m.to.0,
        m.via.0,
        u16::from(m.promo),
        m.kind as u16,
        u16::from(m.via_capture),
        m.extra.0,
        m.aux.0,
        u16::from(m.ep_mark),
    ]
}

/// `pos`'s legal moves in the compact chunk's order (sorted by each move's squares, promotion and kind),
/// in place of what `out` held.
pub fn canonical(pos: &mut Position, out: &mut Vec<Move>) {
    out.clear();
    pos.legal_moves_into(out);
    out.sort_unstable_by_key(key);
}

fn put_leb(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn zigzag(s: i16) -> u64 {
    ((i32::from(s) << 1) ^ (i32::from(s) >> 31)) as u32 as u64
}

fn unzigzag(n: u64) -> Option<i16> {
    let n = u32::try_from(n).ok()?;
    i16::try_from(((n >> 1) as i32) ^ -((n & 1) as i32)).ok()
}

impl MoveGame {
    /// The chunk's bytes, replaying the game in `v` to find each move's
    /// place.
    ///
    /// Errors: the start FEN does not read or a move is not legal where it
    /// is played ([`DataError::Unplayable`], naming the game and the ply),
    /// or the FEN is over 65535 bytes ([`DataError::TooLong`]).
    pub fn to_bytes(&self, v: &Arc<Variant>) -> Result<Vec<u8>, DataError> {
        if self.start.len() > usize::from(u16::MAX) {
            return Err(DataError::TooLong(self.start.len()));
        }
        let bad = |_ply: usize, what: String| DataError::Unplayable {
            game: self.index,
            what,
        };
        let mut pos = Position::from_fen(v.clone(), &self.start)
            .map_err(|e| bad(0, format!("the start FEN does not read: {e}")))?;
        let mut payload = Vec::with_capacity(self.plies.len() * 3);
        let mut legal = Vec::new();
        for (i, p) in self.plies.iter().enumerate() {
            canonical(&mut pos, &mut legal);
            let Ok(place) = legal.binary_search_by_key(&key(&p.mv), key) else {
                return Err(bad(i, format!("the move of ply {i} is not legal there")));
            };
            put_leb(
                &mut payload,
                (place as u64) << 1 | u64::from(p.kept_score.is_some()),
            );
            if let Some(s) = p.kept_score {
                put_leb(&mut payload, zigzag(s));
            }
            pos.make(p.mv);
        }
        let kept = self.plies.iter().filter(|p| p.kept_score.is_some()).count();
        let mut out = Vec::with_capacity(32 + self.start.len() + payload.len());
        out.push(COMPACT_TAG);
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.result.to_le_bytes());
        super::put_text(&mut out, &self.start);
        out.extend_from_slice(&(self.plies.len() as u32).to_le_bytes());
        out.extend_from_slice(&(kept as u32).to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&payload);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(out)
    }
}

/// Reads a compact chunk's payload byte by byte.
struct Payload<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Payload<'_> {
    fn leb(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at)?;
            self.at += 1;
            n |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(n);
            }
        }
        None
    }
}

/// Reads a compact chunk of variant `v` into the records of its kept
/// positions, keeping `at` on the record being read. The checksum is
/// checked before the moves are replayed.
pub(super) fn read(r: &mut Cursor, at: &mut Where, v: &Arc<Variant>) -> Result<Game, Bad> {
    let start = r.at;
    r.at += 1;
    let index = u32::from_le_bytes(r.array("a game's index")?);
    at.game = index;
    let result = f32::from_le_bytes(r.array("a game's result")?);
    let fen = r.text("a game's start FEN")?;
    let plies = u32::from_le_bytes(r.array("a game's ply count")?);
    let kept = u32::from_le_bytes(r.array("a game's kept count")?);
    let n = u32::from_le_bytes(r.array("a game's payload length")?) as usize;
    let payload = r.take(n, "a game's moves")?;
    r.checksum(start)?;
    if !(0.0..=1.0).contains(&result) {
        return Err(Bad::Field(format!("result {result} is not from 0 to 1")));
    }
    let mut pos = Position::from_fen(v.clone(), &fen)
        .map_err(|e| Bad::Field(format!("the start FEN does not read: {e}")))?;
    let mut p = Payload {
        bytes: payload,
        at: 0,
    };
    let mut records = Vec::with_capacity((kept as usize).min(4096));
    let mut legal = Vec::new();
    for ply in 0..plies {
        let field = |what: &str| Bad::Field(format!("ply {ply}: {what}"));
        let entry = p.leb().ok_or_else(|| field("the moves end early"))?;
        if entry & 1 == 1 {
            at.record += 1;
            let score = p.leb().and_then(unzigzag);
            let score = score.ok_or_else(|| field("a score that does not read"))?;
            records.push(Record {
                fen: pos.fen(),
                score,
                result,
                ply: ply.min(u32::from(u16::MAX)) as u16,
            });
        }
        canonical(&mut pos, &mut legal);
        let place = usize::try_from(entry >> 1).unwrap_or(usize::MAX);
        let Some(&mv) = legal.get(place) else {
            return Err(field(&format!(
                "move {place} of {} legal moves",
                legal.len()
            )));
        };
        pos.make(mv);
    }
    if p.at != payload.len() || records.len() != kept as usize {
        return Err(Bad::Field(format!(
            "{} kept positions and {} bytes of moves read, the chunk says {kept} and {n}",
            records.len(),
            p.at
        )));
    }
    Ok(Game { index, records })
}

#[cfg(test)]
mod tests {
    use super::super::{Header, Reader, read};
    use super::*;
    use kamil_rules::outcome::outcome;
    use kamil_rules::variant::BUILTIN;

    /// A small seeded generator (xorshift64).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// A seeded random game of `v` (up to `plies` plies or its end), with
    /// about half its positions kept at random scores; and the records a
    /// game chunk of it would hold.
    fn random_game(v: &Arc<Variant>, index: u32, plies: usize, seed: u64) -> (MoveGame, Game) {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut pos = Position::start(v.clone());
        let start = pos.fen();
        let result = [0.0, 0.5, 1.0][rng.below(3)];
        let (mut out, mut records) = (Vec::new(), Vec::new());
        for ply in 0..plies {
            if outcome(&mut pos).is_some() {
                break;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let kept_score = (rng.below(2) == 0).then(|| {
                let s = [i16::MIN, -4000, -1, 0, 1, 37, 4000, i16::MAX][rng.below(8)];
                s.wrapping_add(rng.below(3) as i16)
            });
            if let Some(score) = kept_score {
                records.push(Record {
                    fen: pos.fen(),
                    score,
                    result,
                    ply: ply as u16,
                });
            }
            out.push(Ply { mv, kept_score });
            pos.make(mv);
        }
        let g = MoveGame {
            index,
            result,
            start,
            plies: out,
        };
        (g, Game { index, records })
    }

    fn file(v: &Arc<Variant>, games: &[MoveGame]) -> Vec<u8> {
        let mut out = Header::new(v, "test").to_bytes();
        for g in games {
            out.extend(g.to_bytes(v).unwrap());
        }
        out
    }

    /// Every position of seeded random games, in every built-in game, reads
    /// back as the game chunk's record would: the same FEN, score, result
    /// and ply; and a compact position costs a few bytes.
    #[test]
    fn every_builtin_games_positions_round_trip() {
        for (i, (name, _)) in BUILTIN.iter().enumerate() {
            let v = Arc::new(Variant::builtin(name, &[]).unwrap());
            let (mut games, mut want) = (Vec::new(), Vec::new());
            for k in 0..3u32 {
                let (g, records) = random_game(&v, k, 80, (i as u64) << 8 | u64::from(k));
                games.push(g);
                want.push(records);
            }
            let bytes = file(&v, &games);
            assert_eq!(read(&v, &bytes).unwrap(), want, "{name}");
            let positions: usize = games.iter().map(|g| g.plies.len()).sum();
            let header = Header::new(&v, "test").to_bytes().len();
            let per_ply = (bytes.len() - header) as f64 / positions as f64;
            assert!(per_ply < 6.0, "{name}: {per_ply:.1} bytes a ply");
            // Read a few bytes at a time, chunk by chunk: the same.
            struct Trickle<'a>(&'a [u8]);
            impl std::io::Read for Trickle<'_> {
                fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                    let n = buf.len().min(self.0.len()).min(7);
                    buf[..n].copy_from_slice(&self.0[..n]);
                    self.0 = &self.0[n..];
                    Ok(n)
                }
            }
            let streamed: Vec<Game> = Reader::new(&v, Trickle(&bytes))
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(streamed, want, "{name}");
        }
    }

    /// A flipped byte is a damaged chunk naming the game and its byte; a
    /// cut file names where it ends; a move's place beyond the legal moves
    /// (with a right checksum) names the ply; a move that is not legal is
    /// not written.
    #[test]
    fn damage_cuts_and_bad_moves_are_named() {
        let v = Arc::new(Variant::builtin("chu-shogi", &[]).unwrap());
        let games: Vec<MoveGame> = (0..2)
            .map(|k| random_game(&v, k + 7, 40, 99 + u64::from(k)).0)
            .collect();
        let bytes = file(&v, &games);
        let header = Header::new(&v, "test").to_bytes().len();
        let second = header + games[0].to_bytes(&v).unwrap().len();
        let mut bad = bytes.clone();
        bad[second + 30] ^= 0x10;
        match read(&v, &bad).unwrap_err() {
            DataError::Damaged { chunk, offset, .. } => {
                assert_eq!((chunk.as_str(), offset), ("game 8", second));
            }
            e => panic!("{e}"),
        }
        let e = read(&v, &bytes[..bytes.len() - 5]).unwrap_err().to_string();
        assert!(
            e.contains("game 8") && e.contains("the file ends inside"),
            "{e}"
        );
        // The first game's first move made the last of the legal moves
        // plus one, the checksum made again.
        let mut chunk = games[0].to_bytes(&v).unwrap();
        let payload_at = 1 + 4 + 4 + 2 + games[0].start.len() + 12;
        chunk[payload_at] = 0x7e | (chunk[payload_at] & 1);
        let n = chunk.len() - 8;
        let sum = fnv1a(&chunk[..n]);
        chunk[n..].copy_from_slice(&sum.to_le_bytes());
        let mut forged = Header::new(&v, "test").to_bytes();
        forged.extend(chunk);
        let e = read(&v, &forged).unwrap_err().to_string();
        assert!(
            e.contains("game 7") && e.contains("ply 0: move 63 of"),
            "{e}"
        );
        // Writing a move that is not legal where it is played.
        let mut wrong = games[0].clone();
        wrong.plies.swap(0, 1);
        let e = wrong.to_bytes(&v).unwrap_err().to_string();
        assert!(e.starts_with("game 7: the move of ply 0"), "{e}");
    }

    /// The order is the legal moves' own, whatever `out` held and however
    /// the moves were generated.
    #[test]
    fn the_canonical_order_is_the_legal_moves_sorted() {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let (g, _) = random_game(&v, 0, 30, 5);
        let mut pos = Position::from_fen(v.clone(), &g.start).unwrap();
        let mut out = Vec::new();
        for p in &g.plies {
            canonical(&mut pos, &mut out);
            let mut want = pos.legal_moves();
            assert_eq!(out.len(), want.len());
            want.sort_unstable_by_key(key);
            assert_eq!(out, want);
            pos.make(p.mv);
        }
    }

    #[test]
    fn numbers_round_trip() {
        for s in [i16::MIN, -4000, -1, 0, 1, 4000, i16::MAX] {
            assert_eq!(unzigzag(zigzag(s)), Some(s));
        }
        for n in [0u64, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            put_leb(&mut out, n);
            let mut p = Payload { bytes: &out, at: 0 };
            assert_eq!(p.leb(), Some(n));
            assert_eq!(p.at, out.len());
        }
        assert_eq!(unzigzag(u64::from(u32::MAX)), None, "out of i16");
    }
}
