//! XBoard's piece IDs for kamil's piece tokens, and FENs both ways.
//!
//! XBoard writes a piece as one letter, maybe dressed with `'` or `!`, maybe
//! promoted (`+`). Tokens it cannot write (Tamerlane's pawns `PR`, `PN`, ...
//! and the pawn of pawns' stages, rules/tamerlane.md 3 and 5.2) get an unused
//! ID for the game (an alias); every FEN, piece letter and promotion suffix
//! kamil exchanges with XBoard goes through [`XboardIds`].

use kamil_rules::variant::FenField;
use kamil_rules::{Move, Position, Variant};
use std::collections::BTreeSet;

/// Can XBoard write this token? A letter, maybe dressed with `'` or `!`,
/// maybe promoted (`+`).
pub fn xboard_id(token: &str) -> bool {
    let t = token.strip_prefix('+').unwrap_or(token);
    let b = t.as_bytes();
    match b {
        [c] => c.is_ascii_alphabetic(),
        [c, d] => c.is_ascii_alphabetic() && (*d == b'\'' || *d == b'!'),
        _ => false,
    }
}

/// The piece IDs of one game: kamil token (first player's form, without the
/// promotion `+`) and XBoard ID, one pair per aliased token.
#[derive(Clone, Debug, Default)]
pub struct XboardIds {
    /// (kamil token, XBoard ID), both upper case as the first player's.
    aliases: Vec<(String, String)>,
    /// Every XBoard ID of the game with its kamil token, both cases, longest
    /// ID first (so `R'` is read before `R`).
    reading: Vec<(String, String)>,
}

/// The dressings XBoard allows on a letter, in the order aliases use them.
const DRESS: [&str; 3] = ["", "'", "!"];

impl XboardIds {
    /// The IDs for `v`: each token XBoard cannot write gets the first free
    /// ID among its own letters (last first: `PR` tries `R`, `R'`, `R!`,
    /// then `P`, `P'`, `P!`), else among all letters (`A`..`Z`, then dressed
    /// with `'`, then with `!`). Deterministic: pieces in the variant's
    /// order. A token left without an ID (more than 78 types) keeps its own
    /// text; [`crate::xboard::setup::piece_table`] reports it.
    pub fn new(v: &Variant) -> XboardIds {
        let base = |t: &str| t.strip_prefix('+').unwrap_or(t).to_ascii_uppercase();
        let mut used: BTreeSet<String> = v
            .pieces
            .iter()
            .filter(|p| xboard_id(&p.token))
            .map(|p| base(&p.token))
            .collect();
        let mut aliases: Vec<(String, String)> = Vec::new();
        for p in &v.pieces {
            let b = base(&p.token);
            if xboard_id(&p.token) || aliases.iter().any(|(t, _)| *t == b) {
                continue;
            }
            let own: Vec<char> = b
                .chars()
                .rev()
                .filter(|c| c.is_ascii_alphabetic())
                .collect();
            let related = own
                .iter()
                .flat_map(|c| DRESS.iter().map(move |d| format!("{c}{d}")));
            let any = DRESS
                .iter()
                .flat_map(|d| ('A'..='Z').map(move |c| format!("{c}{d}")));
            if let Some(id) = related.chain(any).find(|id| !used.contains(id)) {
                used.insert(id.clone());
                aliases.push((b, id));
            }
        }
        let mut reading: Vec<(String, String)> = Vec::new();
        for p in &v.pieces {
            let (promoted, b) = match p.token.strip_prefix('+') {
                Some(b) => ("+", b),
                None => ("", p.token.as_str()),
            };
            let id = aliases
                .iter()
                .find(|(t, _)| t.eq_ignore_ascii_case(b))
                .map_or(b.to_ascii_uppercase(), |(_, id)| id.clone());
            let upper = (format!("{promoted}{id}"), p.token.clone());
            let lower = (upper.0.to_ascii_lowercase(), upper.1.to_lowercase());
            for pair in [upper, lower] {
                if !reading.contains(&pair) {
                    reading.push(pair);
                }
            }
        }
        reading.sort_by_key(|(id, _)| std::cmp::Reverse(id.len()));
        XboardIds { aliases, reading }
    }

    /// XBoard's ID for a kamil token of either side (`PR` -> `R'`, `pr` ->
    /// `r'`, `+PR` -> `+R'`); a token XBoard can write is returned as it is.
    pub fn id(&self, token: &str) -> String {
        let (promoted, b) = match token.strip_prefix('+') {
            Some(b) => ("+", b),
            None => ("", token),
        };
        let Some((_, id)) = self.aliases.iter().find(|(t, _)| t.eq_ignore_ascii_case(b)) else {
            return token.to_string();
        };
        let lower = b.starts_with(|c: char| c.is_ascii_lowercase());
        let id = if lower {
            id.to_ascii_lowercase()
        } else {
            id.clone()
        };
        format!("{promoted}{id}")
    }

    /// The kamil token for an XBoard ID of either side (`r'` -> `pr`); an ID
    /// that is no alias is returned as it is.
    pub fn token(&self, id: &str) -> String {
        self.reading
            .iter()
            .find(|(x, _)| x == id)
            .map_or_else(|| id.to_string(), |(_, t)| t.clone())
    }

    /// An XBoard board field in kamil's tokens: each ID (longest match) is
    /// replaced by its token; anything else (digits, `*`, `/`, text naming
    /// no piece) is kept, for [`Position::from_fen`] to judge.
    pub fn board_from_xboard(&self, board: &str) -> String {
        let mut out = String::new();
        let mut rest = board;
        while let Some(c) = rest.chars().next() {
            match self
                .reading
                .iter()
                .find(|(id, _)| rest.starts_with(id.as_str()))
            {
                Some((id, token)) => {
                    out.push_str(token);
                    rest = &rest[id.len()..];
                }
                None => {
                    out.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        out
    }

    /// The position as XBoard writes a FEN: XBoard's IDs, XBoard's side
    /// letter (`w` for the first player), then XBoard's fields `castling ep
    /// halfmove fullmove`. Tamerlane's King-swap rights (rules/tamerlane.md
    /// 2) stand in the castling field; fields XBoard has no place for
    /// (Frolov's frozen piece) are left out; a game without fields gets
    /// `- - 0 1`.
    pub fn fen_to_xboard(&self, pos: &Position) -> String {
        let v = pos.variant();
        let board =
            kamil_rules::fen::write_board(&v.geometry, |p| self.id(&v.token(p)), |sq| pos.at(sq));
        let letters = v
            .fen
            .xboard_side_letters
            .clone()
            .unwrap_or_else(|| v.fen.side_letters.clone());
        let side = &letters[pos.side().index()];
        let fen = pos.fen();
        let ours: Vec<&str> = fen.split_whitespace().skip(2).collect();
        let field = |want: &[FenField], default: &'static str| {
            v.fen
                .fields
                .iter()
                .position(|f| want.contains(f))
                .and_then(|i| ours.get(i).copied())
                .unwrap_or(default)
        };
        let castling = field(&[FenField::Castling, FenField::Swap], "-");
        let ep = field(&[FenField::EnPassant], "-");
        let halfmove = field(&[FenField::Halfmove], "0");
        let fullmove = field(&[FenField::Fullmove], "1");
        format!("{board} {side} {castling} {ep} {halfmove} {fullmove}")
    }

    /// A FEN from XBoard (`setboard`) in kamil's convention: IDs become
    /// tokens; when it has XBoard's six fields and the game's fields differ
    /// from XBoard's, the side letter and fields are put in the game's
    /// order (King-swap rights read from the castling field, a frozen piece
    /// `-`). A FEN with exactly the game's own fields, when those are not
    /// six, is kamil's own (as `kamil match` sends it) and kept unchanged.
    pub fn fen_from_xboard(&self, v: &Variant, fen: &str) -> String {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let Some(board) = fields.first() else {
            return String::new();
        };
        let own = 2 + v.fen.fields.len();
        if !v.fen.fields.is_empty() && own != 6 && fields.len() == own {
            return fields.join(" ");
        }
        let board = self.board_from_xboard(board);
        let xboard_layout = [
            FenField::Castling,
            FenField::EnPassant,
            FenField::Halfmove,
            FenField::Fullmove,
        ];
        if fields.len() != 6 || v.fen.fields.is_empty() || v.fen.fields == xboard_layout {
            let mut out = vec![board.as_str()];
            out.extend(&fields[1..]);
            return out.join(" ");
        }
        let letters = ["w", "b"];
        let side = letters
            .iter()
            .position(|l| *l == fields[1])
            .map_or(fields[1], |i| v.fen.side_letters[i].as_str());
        let mut out = vec![board.clone(), side.to_string()];
        for f in &v.fen.fields {
            out.push(match f {
                FenField::Castling => fields[2].to_string(),
                FenField::EnPassant => fields[3].to_string(),
                FenField::Halfmove => fields[4].to_string(),
                FenField::Fullmove => fields[5].to_string(),
                FenField::Frozen => "-".to_string(),
                FenField::Swap => swap_rights(fields[2]),
            });
        }
        out.join(" ")
    }

    /// A move's text for XBoard ([`kamil_rules::notation::xboard_move_text`])
    /// with a promotion suffix naming an aliased piece written as its ID.
    pub fn move_text(&self, v: &Variant, m: Move) -> String {
        let text = kamil_rules::notation::xboard_move_text(v, m);
        if let Some(t) = m.promotion()
            && !v.promotion.shogi
            && !v.promotion.silent
        {
            let token = v.pieces[v.final_form(t) as usize].token.to_lowercase();
            let id = self.id(&token);
            if id != token
                && let Some(head) = text.strip_suffix(&token)
            {
                return format!("{head}{id}");
            }
        }
        text
    }

    /// A move's text from XBoard with a promotion suffix that is an alias
    /// (`a9a10x`) written as kamil's token (`a9a10px`), in a game whose
    /// promotions are written with a piece letter; other text is kept.
    pub fn move_from_xboard(&self, v: &Variant, text: &str) -> String {
        let t = text.trim();
        if v.promotion.shogi || v.promotion.silent {
            return t.to_string();
        }
        for (token, id) in &self.aliases {
            for (id, token) in [
                (id.to_ascii_lowercase(), token.to_lowercase()),
                (id.clone(), token.to_lowercase()),
            ] {
                if let Some(head) = t.strip_suffix(&id)
                    && head.ends_with(|c: char| c.is_ascii_digit())
                {
                    return format!("{head}{token}");
                }
            }
        }
        t.to_string()
    }
}

/// King-swap rights (rules/tamerlane.md 2) from XBoard's castling field: a
/// right for the first player if any upper-case letter stands there (XBoard
/// may write `KQkq` or file letters), for the second if any lower-case one.
fn swap_rights(castling: &str) -> String {
    let mut s = String::new();
    if castling.chars().any(|c| c.is_ascii_uppercase()) {
        s.push('K');
    }
    if castling.chars().any(|c| c.is_ascii_lowercase()) {
        s.push('k');
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn builtin(name: &str) -> Arc<Variant> {
        Arc::new(Variant::builtin(name, &[]).unwrap())
    }

    #[test]
    fn tamerlane_aliases_are_writable_unused_and_deterministic() {
        for name in [
            "tamerlane",
            "tamerlane-greenwood-1",
            "tamerlane-greenwood-3",
        ] {
            let v = builtin(name);
            let ids = XboardIds::new(&v);
            let unwritable: Vec<&str> = v
                .pieces
                .iter()
                .map(|p| p.token.as_str())
                .filter(|t| !xboard_id(t))
                .collect();
            assert_eq!(ids.aliases.len(), unwritable.len(), "{name}");
            let mut seen = BTreeSet::new();
            for p in &v.pieces {
                let id = ids.id(&p.token);
                assert!(xboard_id(&id), "{name}: {} -> {id}", p.token);
                assert!(seen.insert(id.clone()), "{name}: {id} twice");
                assert_eq!(ids.token(&id), p.token, "{name}");
                let low = ids.id(&p.token.to_lowercase());
                assert_eq!(low, id.to_ascii_lowercase(), "{name}");
                assert_eq!(ids.token(&low), p.token.to_lowercase(), "{name}");
            }
            // The same game gives the same IDs.
            assert_eq!(XboardIds::new(&builtin(name)).aliases, ids.aliases);
        }
        let ids = XboardIds::new(&builtin("tamerlane"));
        // A letter of the piece's own first: the Rook's letter dressed, the
        // free `P` for the pawn of pawns, plain letters for its stages.
        for (token, id) in [
            ("PR", "R'"),
            ("PK", "K'"),
            ("PP", "P"),
            ("PX", "X"),
            ("PY", "Y"),
            ("PV", "V"),
            ("PZ", "Z"),
        ] {
            assert_eq!(ids.id(token), id, "{token}");
        }
        // Games whose tokens XBoard writes need no alias.
        for name in ["chu-shogi", "dai-shogi", "courier", "sho-shogi"] {
            assert!(XboardIds::new(&builtin(name)).aliases.is_empty(), "{name}");
        }
    }

    #[test]
    fn fens_go_to_xboard_and_back_unchanged() {
        let v = builtin("tamerlane");
        let ids = XboardIds::new(&v);
        let start = Position::start(v.clone());
        let x = ids.fen_to_xboard(&start);
        assert_eq!(
            x,
            "*e1c1d1d1c1e*/1rntgwkfgtnr*/*r'n't'g'w'k'f'e'c'd'p*/*11*/*11*/*11*/*11*/\
             *PD'C'E'F'K'W'G'T'N'R'*/*RNTGFKWGTNR1/*E1C1D1D1C1E* w Kk - 0 1"
        );
        assert_eq!(ids.fen_from_xboard(&v, &x), start.fen());
        // The pawn of pawns parked and relocated, a swap right used.
        let fen = "*ePXc1d1d1c1e*/1rntgwkfgtnr*/*prpnptpg1pkpfpepcpdpp*/*11*/*11*/*4PY6*/\
                   *11*/*1PDPCPEPFPKPWPGPTPNPR*/*RNTGFKWGTNR1/*E1C1D1D1C1E* b k 3 12";
        let pos = Position::from_fen(v.clone(), fen).unwrap();
        let x = ids.fen_to_xboard(&pos);
        assert!(
            x.contains("X") && x.contains("Y") && x.ends_with(" b k - 3 12"),
            "{x}"
        );
        assert_eq!(ids.fen_from_xboard(&v, &x), pos.fen());
        // XBoard's own castling letters stand for both swap rights.
        let back = ids.fen_from_xboard(&v, &x.replace(" k - ", " KQkq - "));
        assert!(back.ends_with(" b Kk 3 12"), "{back}");
        // kamil's own FEN is read as it is.
        assert_eq!(ids.fen_from_xboard(&v, fen), pos.fen());
    }

    #[test]
    fn every_game_has_writable_distinct_ids() {
        for (name, _) in kamil_rules::variant::BUILTIN {
            let v = builtin(name);
            let ids = XboardIds::new(&v);
            let mut seen = BTreeSet::new();
            for p in &v.pieces {
                let id = ids.id(&p.token);
                assert!(xboard_id(&id), "{name}: {} -> {id}", p.token);
                assert!(seen.insert(id.clone()), "{name}: {id} twice");
            }
        }
    }

    #[test]
    fn promotion_suffixes_use_the_ids() {
        // Tamerlane's promotions are silent (rules/tamerlane.md 5.1): text
        // is kept. Written out, the pawn of pawns' parking is `x` for XBoard.
        let silent = builtin("tamerlane");
        let ids = XboardIds::new(&silent);
        assert_eq!(ids.move_from_xboard(&silent, "a9a10x"), "a9a10x");
        let mut v = (*silent).clone();
        v.core.promotion.silent = false;
        let v = Arc::new(v);
        assert_eq!(ids.move_from_xboard(&v, "a9a10x"), "a9a10px");
        assert_eq!(ids.move_from_xboard(&v, "a9a10X"), "a9a10px");
        assert_eq!(ids.move_from_xboard(&v, "a9a10r"), "a9a10r");
        assert_eq!(ids.move_from_xboard(&v, "a9a10"), "a9a10");
        // The first player's pawn of pawns on b9, b10 empty: its step there.
        let fen = "*e1c1d1d1c1e*/1rPPtgwkfgtnr*/*prpnptpgpwpkpfpepcpdpp*/*11*/*11*/*11*/\
                   *11*/*1PDPCPEPFPKPWPGPTPNPR*/*RNTGFKWGTNR1/*E1C1D1D1C1E* w Kk 0 1";
        let mut pos = Position::from_fen(v.clone(), fen).unwrap();
        let g = &v.geometry;
        let (b9, b10) = (
            g.parse_square("b9").unwrap(),
            g.parse_square("b10").unwrap(),
        );
        let moves = pos.legal_moves();
        let m = moves
            .iter()
            .find(|m| m.from == b9 && m.to == b10 && m.promotion().is_some())
            .expect("the pawn of pawns parks on b10");
        let text = ids.move_text(&v, *m);
        // XBoard names the files from the hole column `z` (`a`) and ranks from 0.
        assert_eq!(text, "c8c9x");
        let back = ids.move_from_xboard(&v, &text);
        let again = kamil_rules::notation::parse_xboard_move(&mut pos, &back).unwrap();
        assert_eq!(again, *m);
    }
}
