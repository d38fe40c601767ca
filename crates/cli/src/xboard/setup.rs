//! What XBoard is told about a game: its name in XBoard, and for a game
//! XBoard does not know, the `setup` line (piece letters, board size, parent
//! variant, start position) and one `piece` line per piece type with its
//! Betza movement, so XBoard can draw the board and check moves (CECP v2,
//! section 9, `setup` and `piece`).

use super::ids::{XboardIds, xboard_id};
use kamil_rules::variant::{BUILTIN, aliases};
use kamil_rules::{Position, Side, Variant};

/// Games XBoard knows itself (board, pieces, start, rules): it needs no
/// `setup` for them as long as the start position is XBoard's.
const NATIVE: &[&str] = &["chu", "courier"];

/// The `feature variants=` list: every built-in game, by XBoard name.
pub fn variant_list() -> String {
    let names: Vec<&str> = BUILTIN
        .iter()
        .map(|(n, _)| aliases::xboard_name(n))
        .collect();
    names.join(",")
}

/// XBoard's piece types as its `-pieceToCharTable` documents them (XBoard
/// 4.9 manual): Pawn, Knight, Bishop, Rook, Queen, then Ferz, Alfil,
/// Archbishop, Chancellor, Wazir, Commoner, Cannon, Nightrider and further
/// fairy pieces; the King comes last in a table. A slot's letter picks the
/// picture XBoard draws.
const SLOTS: &str = "PNBRQFEACWMOHIJGDVLSU";

/// Slots XBoard 4.9 has per side besides the King (its Chu Shogi table,
/// compiled into XBoard, fills this many).
const MAX_SLOTS: usize = 64;

/// The lines to send after `variant NAME` for a game XBoard does not know
/// (or knows with another start position): `setup (TABLE) WxH+0_PARENT FEN`
/// and the `piece` lines, every piece by its XBoard ID (`XboardIds`).
/// Empty for XBoard's own games at their usual start.
///
/// Errors: the game has more piece types than XBoard can draw.
pub fn setup_lines(v: &Variant, pos: &Position) -> Result<Vec<String>, String> {
    let name = aliases::xboard_name(&v.name);
    let ids = XboardIds::new(v);
    let fen = ids.fen_to_xboard(pos);
    if NATIVE.contains(&name) {
        // XBoard knows the game: a different start (an option) is sent as
        // a plain FEN, which XBoard takes when it is not testing legality.
        return Ok(if Some(&v.start_fen) == builtin_start(&v.name).as_ref() {
            Vec::new()
        } else {
            vec![format!("setup {fen}")]
        });
    }
    let table = piece_table(v, &ids)?;
    let parent = parent_variant(v);
    let mut lines = vec![format!(
        "setup ({table}) {}x{}+0_{parent} {fen}",
        v.geometry.files(),
        v.geometry.ranks()
    )];
    lines.extend(piece_lines(v, &ids));
    Ok(lines)
}

/// The start FEN of a built-in game without options.
fn builtin_start(name: &str) -> Option<String> {
    Variant::builtin(name, &[]).ok().map(|v| v.core.start_fen)
}

/// XBoard's parent variant: rules XBoard applies where the `piece` lines
/// say nothing (shogi promotion and Lion moves for the shogi games).
fn parent_variant(v: &Variant) -> &'static str {
    if v.promotion.shogi {
        if v.geometry.files() == 9 && v.geometry.ranks() == 9 {
            "shogi"
        } else {
            "chu"
        }
    } else {
        "fairy"
    }
}

/// A piece's token without the promotion `+`, and whether it had one.
fn base_token(t: &str) -> (&str, bool) {
    match t.strip_prefix('+') {
        Some(b) => (b, true),
        None => (t, false),
    }
}

/// Where XBoard's own tables for the parent variant put each letter (its
/// Shogi table, or the documented order for the others): a letter's slot
/// picks the picture XBoard draws for it.
fn home_slots(parent: &str) -> &'static str {
    match parent {
        "shogi" => "PNBRLSE..G",
        _ => SLOTS,
    }
}

/// In XBoard's Shogi tables a promoted piece sits this many slots after
/// its unpromoted form.
const PROMOTED_OFFSET: usize = 11;

/// XBoard's piece-to-char table for the game, white pieces then black: each
/// unpromoted piece in the slot of its letter when that slot is free (so
/// XBoard draws a Knight for `N`), else in a free slot; each promoted piece
/// as `^X` (promoted form of `X`), in the Shogi games eleven slots after
/// `X` as XBoard's own tables have it; the royal `K` last. Pieces appear
/// by their XBoard IDs (`ids`).
///
/// Errors: more piece types than XBoard has slots, or a piece without an ID.
pub fn piece_table(v: &Variant, ids: &XboardIds) -> Result<String, String> {
    let home = home_slots(parent_variant(v));
    let mut slots: Vec<Option<String>> = vec![None; MAX_SLOTS];
    let mut king = None;
    let mut later = Vec::new();
    let mut promoted_forms = Vec::new();
    for p in &v.pieces {
        let id = ids.id(&p.token);
        if !xboard_id(&id) {
            return Err(format!(
                "{}: no free XBoard piece ID for `{}`",
                v.name, p.token
            ));
        }
        let (base, promoted) = base_token(&id);
        if p.royal && !promoted && base == "K" {
            king = Some(base.to_string());
        } else if promoted {
            promoted_forms.push(base.to_string());
        } else {
            match home
                .find(base)
                .filter(|&i| base.len() == 1 && slots[i].is_none())
            {
                Some(i) => slots[i] = Some(base.to_string()),
                None => later.push(base.to_string()),
            }
        }
    }
    let free = |slots: &[Option<String>]| {
        // After the documented slots first, so letters keep their pictures.
        (home.len().max(SLOTS.len())..MAX_SLOTS)
            .chain(0..SLOTS.len())
            .find(|&i| slots[i].is_none())
            .ok_or_else(|| {
                format!(
                    "{} has more piece types than XBoard can draw ({MAX_SLOTS})",
                    v.name
                )
            })
    };
    for base in later {
        let i = free(&slots)?;
        slots[i] = Some(base);
    }
    for base in promoted_forms {
        let after = slots
            .iter()
            .position(|s| s.as_deref() == Some(base.as_str()))
            .map(|i| i + PROMOTED_OFFSET)
            .filter(|&i| v.promotion.shogi && i < MAX_SLOTS && slots[i].is_none());
        let i = match after {
            Some(i) => i,
            None => free(&slots)?,
        };
        slots[i] = Some(format!("^{base}"));
    }
    let used = slots.iter().rposition(|s| s.is_some()).map_or(0, |i| i + 1);
    let mut white = String::new();
    for s in &slots[..used] {
        white.push_str(s.as_deref().unwrap_or("."));
    }
    white.push_str(king.as_deref().unwrap_or("K"));
    let black = white.to_ascii_lowercase();
    Ok(format!("{white}{black}"))
}

/// One `piece ID& BETZA` line per piece type (`&`: both colours), by its
/// XBoard ID (`ids`), the promoted forms as `+ID&`.
pub fn piece_lines(v: &Variant, ids: &XboardIds) -> Vec<String> {
    v.pieces
        .iter()
        .map(|p| format!("piece {}& {}", ids.id(&p.token), p.betza))
        .collect()
}

/// XBoard's colour name of a side: the first player is White in XBoard.
pub fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "White",
        Side::Second => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn builtin(name: &str) -> Arc<Variant> {
        Arc::new(Variant::builtin(name, &[]).unwrap())
    }

    #[test]
    fn names_both_ways() {
        assert_eq!(aliases::xboard_name("chu-shogi"), "chu");
        assert_eq!(aliases::xboard_name("courier-modern"), "courier-modern");
        assert_eq!(aliases::from_xboard_name("chu"), Some("chu-shogi"));
        assert_eq!(aliases::from_xboard_name("chu-shogi"), Some("chu-shogi"));
        assert_eq!(aliases::from_xboard_name("normal"), None);
        let list = variant_list();
        assert!(list.split(',').any(|n| n == "dai"), "{list}");
        assert_eq!(list.split(',').count(), BUILTIN.len());
    }

    #[test]
    fn native_games_need_no_setup() {
        for name in ["chu-shogi", "courier"] {
            let v = builtin(name);
            let pos = Position::start(v.clone());
            assert!(setup_lines(&v, &pos).unwrap().is_empty(), "{name}");
        }
    }

    #[test]
    fn sho_shogi_setup_uses_the_shogi_parent_and_xboard_side_letter() {
        let v = builtin("sho-shogi");
        let pos = Position::start(v.clone());
        let lines = setup_lines(&v, &pos).unwrap();
        assert!(
            lines[0].starts_with("setup (PNBR") && lines[0].contains(") 9x9+0_shogi "),
            "{}",
            lines[0]
        );
        assert!(
            lines[0].ends_with(
                "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - - 0 1"
            ),
            "{}",
            lines[0]
        );
        assert!(lines.contains(&"piece E& FfsW".to_string()), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("piece +P& ")),
            "{lines:?}"
        );
    }

    #[test]
    fn tables_put_letters_in_their_slots_and_promotions_as_carets() {
        let v = builtin("sho-shogi");
        let t = piece_table(&v, &XboardIds::new(&v)).unwrap();
        let (white, black) = t.split_at(t.len() / 2);
        assert_eq!(black, white.to_ascii_lowercase());
        // XBoard's own Sho table: PNBRLSE..G, promoted forms 11 slots on.
        assert!(white.starts_with("PNBRLSE..G.^P^N^B^R^L^S^E"), "{white}");
        assert!(white.ends_with('K'), "{white}");
        for p in ["^P", "^S", "^N", "^L", "^B", "^R", "^E"] {
            assert!(white.contains(p), "{p} in {white}");
        }
        // Dai Shogi: dressed letters and more types than the documented slots.
        let dai = builtin("dai-shogi");
        let t = piece_table(&dai, &XboardIds::new(&dai)).unwrap();
        assert!(t.contains("L!") && t.contains("^C'"), "{t}");
    }
}
