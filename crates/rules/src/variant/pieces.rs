//! Compiling `[pieces]`: piece types, their FEN tokens, their Betza
//! movement per side, the squares of their initial moves, the squares they
//! could never leave, and values where the file gives none.

use super::context::Context;
use super::error::{VariantError, err};
use super::schema::{PieceSpec, VariantFile};
use crate::betza::{self, Path};
use crate::fen;
use crate::geometry::Geometry;
use crate::piece::{Moveset, Piece, PieceInfo, PieceType, Side};

/// The piece types as read from the file, before the board is known.
pub(super) struct Pieces {
    /// The file's tables, in file order (waiting pawns of a delayed
    /// promotion included).
    pub specs: Vec<PieceSpec>,
    /// The checked piece types, same order.
    pub infos: Vec<PieceInfo>,
    /// Each type's Betza movement, parsed.
    pub paths: Vec<Vec<Path>>,
    /// FEN tokens, longest first: (text, piece).
    pub tokens: Vec<(String, Piece)>,
}

/// Reads and checks `[pieces]` (after Albers' delayed promotion, if any,
/// added its waiting pawns).
///
/// Errors: no pieces or more than 126, a bad table or Betza string, a piece
/// key that names no piece, a bad letter, a promoted form that is promoted
/// twice or has a letter, a token used twice.
pub(super) fn read(file: &str, text: &str, spec: &VariantFile) -> Result<Pieces, VariantError> {
    let e = |key: &str, what: String| err(file, Some(key), text, what);
    let mut table = spec.pieces.clone();
    if let Some(d) = &spec.special.delayed_promotion {
        delay_promotions(&mut table, d.turns).map_err(|w| e("special.delayed_promotion", w))?;
    }
    let mut keys = Vec::new();
    let mut specs: Vec<PieceSpec> = Vec::new();
    for (k, v) in &table {
        let s: PieceSpec = v
            .clone()
            .try_into()
            .map_err(|er: toml::de::Error| e(&format!("pieces.{k}"), er.message().trim().into()))?;
        keys.push(k.clone());
        specs.push(s);
    }
    if specs.is_empty() {
        return Err(e("pieces", "a variant needs at least one piece".into()));
    }
    if specs.len() > 126 {
        return Err(e("pieces", "at most 126 piece types".into()));
    }
    let mut infos = Vec::new();
    let mut paths = Vec::new();
    for (key, s) in keys.iter().zip(&specs) {
        let p =
            betza::parse(&s.betza).map_err(|b| e(&format!("pieces.{key}.betza"), b.to_string()))?;
        paths.push(p);
        infos.push(info(key, s, &keys).map_err(|(k, w)| e(&k, w))?);
    }
    link_promoted_forms(&mut infos).map_err(|(k, w)| e(&k, w))?;
    let tokens = tokens(&infos).map_err(|(k, w)| e(&k, w))?;
    Ok(Pieces {
        specs,
        infos,
        paths,
        tokens,
    })
}

/// One piece type from its table (`keys`: every piece key, in order);
/// errors are (key, what). Promoted forms get their token later.
fn info(key: &str, s: &PieceSpec, keys: &[String]) -> Result<PieceInfo, (String, String)> {
    let index = |field: &str, t: &str| {
        keys.iter()
            .position(|x| x == t)
            .map(|i| i as PieceType)
            .ok_or_else(|| (format!("pieces.{key}.{field}"), format!("no piece `{t}`")))
    };
    let promotes_to = s
        .promotes_to
        .iter()
        .map(|t| index("promotes_to", t))
        .collect::<Result<_, _>>()?;
    let promoted = s
        .promoted
        .as_deref()
        .map(|t| index("promoted", t))
        .transpose()?;
    if let Some(l) = &s.letter
        && (l.is_empty()
            || l.starts_with('+')
            || l.chars().next().is_some_and(|c| !c.is_ascii_uppercase()))
    {
        return Err((
            format!("pieces.{key}.letter"),
            format!("`{l}` must start with an upper-case letter"),
        ));
    }
    if let Some(v) = s.value
        && !(0..=crate::piece::MAX_VALUE).contains(&v)
    {
        return Err((
            format!("pieces.{key}.value"),
            format!(
                "{v} is out of range: a value is 0 to {} centipawns",
                crate::piece::MAX_VALUE
            ),
        ));
    }
    let ripens_to = s
        .ripens_to
        .as_deref()
        .map(|t| index("ripens_to", t))
        .transpose()?;
    Ok(PieceInfo {
        key: key.to_string(),
        name: s.name.clone(),
        id: s
            .id
            .clone()
            .or_else(|| s.letter.clone())
            .unwrap_or_default(),
        kanji: s.kanji.clone().unwrap_or_default(),
        token: s.letter.clone().unwrap_or_default(),
        betza: s.betza.clone(),
        royal: s.royal,
        value: s.value.unwrap_or(0),
        promotes_to,
        promoted,
        demoted: None,
        pawn: s.pawn,
        immune: s.immune,
        ripens_to,
        description: s.description.clone(),
    })
}

/// Links each shogi-style promoted form to its base piece and gives it the
/// token `+` and the base's letter (and the same ID, when it has none);
/// errors are (key, what).
fn link_promoted_forms(infos: &mut [PieceInfo]) -> Result<(), (String, String)> {
    for i in 0..infos.len() {
        if let Some(p) = infos[i].promoted {
            if infos[p as usize].demoted.is_some() || infos[p as usize].promoted.is_some() {
                return Err((
                    format!("pieces.{}.promoted", infos[i].key),
                    format!(
                        "`{}` is already a promoted form or promotes itself",
                        infos[p as usize].key
                    ),
                ));
            }
            infos[p as usize].demoted = Some(i as PieceType);
        }
    }
    for i in 0..infos.len() {
        if let Some(d) = infos[i].demoted {
            if !infos[i].token.is_empty() {
                return Err((
                    format!("pieces.{}.letter", infos[i].key),
                    "a promoted form is written `+` and its base piece's letter; give it no letter"
                        .into(),
                ));
            }
            infos[i].token = format!("+{}", infos[d as usize].token);
            if infos[i].id.is_empty() {
                infos[i].id = format!("+{}", infos[d as usize].id);
            }
        } else if infos[i].token.is_empty() {
            return Err((
                format!("pieces.{}", infos[i].key),
                "needs a `letter` (only promoted forms go without)".into(),
            ));
        }
    }
    Ok(())
}

/// Every piece's FEN token (upper case for the first player), longest
/// first so that reading tries `+P` before `P`; errors are (key, what).
fn tokens(infos: &[PieceInfo]) -> Result<Vec<(String, Piece)>, (String, String)> {
    let mut tokens: Vec<(String, Piece)> = Vec::new();
    for (i, p) in infos.iter().enumerate() {
        for side in Side::BOTH {
            let t = if side == Side::First {
                p.token.clone()
            } else {
                p.token.to_lowercase()
            };
            if tokens.iter().any(|(x, _)| *x == t) {
                return Err((
                    format!("pieces.{}.letter", p.key),
                    format!("token `{t}` is used twice"),
                ));
            }
            tokens.push((t, Piece::new(i as PieceType, side)));
        }
    }
    tokens.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
    Ok(tokens)
}

/// The longest single leap of any piece, in files or ranks (at least 1):
/// how wide the board's guard band must be.
pub(super) fn reach(paths: &[Vec<Path>]) -> u8 {
    paths
        .iter()
        .flatten()
        .flat_map(|p| p.legs.iter())
        .map(|l| l.vector.0.abs().max(l.vector.1.abs()) as u8)
        .max()
        .unwrap_or(1)
}

/// Compiles each type's Betza paths for both sides on the board.
///
/// Errors: movement this board cannot hold (a lame leap that is not
/// straight, a hop on a leaper), at `pieces.KEY.betza`.
pub(super) fn movesets(
    file: &str,
    text: &str,
    pieces: &Pieces,
    geometry: &Geometry,
) -> Result<Vec<[Moveset; 2]>, VariantError> {
    pieces
        .paths
        .iter()
        .zip(&pieces.infos)
        .map(|(p, info)| {
            let e = |w| err(file, Some(&format!("pieces.{}.betza", info.key)), text, w);
            Ok([
                Moveset::compile(p, Side::First, geometry).map_err(e)?,
                Moveset::compile(p, Side::Second, geometry).map_err(e)?,
            ])
        })
        .collect()
}

/// Per type and side, per compact square: may the piece make its initial
/// (`i`) moves from here? Where it stands in the start position, unless its
/// table lists `initial_squares` (the second player's then their point
/// reflections, unless `initial_squares_second`).
///
/// Errors: a start position that cannot be read, a name that is no square.
pub(super) fn initial_squares(
    ctx: &Context,
    specs: &[PieceSpec],
    tokens: &[(String, Piece)],
    start_fen: &str,
) -> Result<Vec<[Vec<bool>; 2]>, VariantError> {
    let geo = ctx.geometry;
    let board_text = start_fen.split_whitespace().next().unwrap_or("");
    let placement = fen::parse_board(geo, tokens, board_text)
        .map_err(|f| ctx.err("fen.start", f.to_string()))?;
    let n = geo.compact_len();
    let mut initial = vec![[vec![false; n], vec![false; n]]; ctx.pieces.len()];
    for (sq, pc) in &placement {
        initial[pc.kind() as usize][pc.side().index()][geo.compact(*sq)] = true;
    }
    for ((s, info), init) in specs.iter().zip(ctx.pieces).zip(&mut initial) {
        if let Some(list) = &s.initial_squares {
            *init = [vec![false; n], vec![false; n]];
            let key = format!("pieces.{}.initial_squares", info.key);
            for name in list {
                let q = ctx.square(&key, name)?;
                init[0][geo.compact(q)] = true;
                if let Some(m) = geo.reflect(q)
                    && s.initial_squares_second.is_none()
                {
                    init[1][geo.compact(m)] = true;
                }
            }
        }
        if let Some(list) = &s.initial_squares_second {
            init[1] = vec![false; n];
            let key = format!("pieces.{}.initial_squares_second", info.key);
            for name in list {
                init[1][geo.compact(ctx.square(&key, name)?)] = true;
            }
        }
    }
    Ok(initial)
}

/// Per type and side: squares from which the piece has no move at all on an
/// otherwise empty board (a Pawn on the last rank, a Knight on the last two).
pub(super) fn dead_squares(geo: &Geometry, movesets: &[[Moveset; 2]]) -> Vec<[Vec<bool>; 2]> {
    let n = geo.compact_len();
    movesets
        .iter()
        .map(|ms| {
            let mut out = [vec![false; n], vec![false; n]];
            for side in Side::BOTH {
                let m = &ms[side.index()];
                for s in geo.squares() {
                    let ok = |off: i16| geo.is_square(s.shift(off));
                    let alive = m.leaps.iter().any(|l| ok(l.off))
                        || m.rides.iter().any(|r| ok(r.off))
                        || m.hops.iter().any(|h| ok(h.0.off))
                        || m.multi.iter().any(|p| ok(p.0[0].off));
                    out[side.index()][geo.compact(s)] = !alive;
                }
            }
            out
        })
        .collect()
}

/// Gives each non-royal type whose table states no value an estimate from
/// its mobility on the empty board.
pub(super) fn estimate_values(
    infos: &mut [PieceInfo],
    specs: &[PieceSpec],
    geo: &Geometry,
    movesets: &[[Moveset; 2]],
) {
    for ((info, s), ms) in infos.iter_mut().zip(specs).zip(movesets) {
        if info.value == 0 && !info.royal && s.value.is_none() {
            info.value = estimate_value(geo, &ms[0]);
        }
    }
}

/// A rough value in centipawns from average mobility on an empty board.
fn estimate_value(geo: &Geometry, m: &Moveset) -> i32 {
    let mut total = 0usize;
    let mut count = 0usize;
    for s in geo.squares() {
        count += 1;
        total += m
            .leaps
            .iter()
            .filter(|l| geo.is_square(s.shift(l.off)))
            .count();
        for r in m.rides.iter().chain(m.hops.iter().map(|h| &h.0)) {
            let mut t = s.shift(r.off);
            let mut k = 0;
            while geo.is_square(t) && k < r.max {
                total += 1;
                k += 1;
                t = t.shift(r.off);
            }
        }
        total += m.multi.len() / 2;
    }
    if count == 0 {
        return 100;
    }
    (35 * total / count).max(50) as i32
}

/// Albers' delayed promotion: each promotion choice of a pawn becomes a chain
/// of `turns` immobile waiting pieces (`Q^^`, `Q^`) that ripen into the
/// chosen piece one owner's turn at a time.
fn delay_promotions(pieces: &mut toml::Table, turns: u32) -> Result<(), String> {
    if !(1..=4).contains(&turns) {
        return Err("turns must be 1 to 4".into());
    }
    let pawns: Vec<String> = pieces
        .iter()
        .filter(|(_, v)| v.get("pawn").and_then(|p| p.as_bool()) == Some(true))
        .map(|(k, _)| k.clone())
        .collect();
    for pawn in pawns {
        let targets: Vec<String> = pieces[&pawn]
            .get("promotes_to")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let mut waiting = Vec::new();
        for t in &targets {
            let target = pieces.get(t).ok_or_else(|| format!("no piece `{t}`"))?;
            let letter = target.get("letter").and_then(|l| l.as_str()).unwrap_or("");
            let name = target.get("name").and_then(|l| l.as_str()).unwrap_or(t);
            let chain = waiting_pawns(t, letter, name, turns);
            for (k, w) in chain {
                pieces.insert(k, toml::Value::Table(w));
            }
            waiting.push(toml::Value::String(format!("{t}-waiting-{turns}")));
        }
        if let Some(toml::Value::Table(p)) = pieces.get_mut(&pawn) {
            p.insert("promotes_to".into(), toml::Value::Array(waiting));
        }
    }
    Ok(())
}

/// The tables of the `turns` waiting pawns that end as the piece keyed
/// `target` (letter `letter`, named `name`): (key, table), the one that
/// ripens into the piece first.
fn waiting_pawns(target: &str, letter: &str, name: &str, turns: u32) -> Vec<(String, toml::Table)> {
    (1..=turns)
        .map(|k| {
            let mut w = toml::Table::new();
            w.insert(
                "name".into(),
                format!("Pawn becoming {name} ({k} turns)").into(),
            );
            w.insert(
                "letter".into(),
                format!("{letter}{}", "^".repeat(k as usize)).into(),
            );
            w.insert("betza".into(), "".into());
            w.insert("value".into(), toml::Value::Integer(100));
            let next = if k == 1 {
                target.to_string()
            } else {
                format!("{target}-waiting-{}", k - 1)
            };
            w.insert("ripens_to".into(), next.into());
            w.insert(
                "description".into(),
                format!("A Pawn on the last rank; it becomes a {name} after {k} more turns of its owner.").into(),
            );
            (format!("{target}-waiting-{k}"), w)
        })
        .collect()
}
