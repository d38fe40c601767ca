//! From TOML text to a checked [`Variant`]: merging `extends` and options,
//! reading the schema, compiling Betza, building tables.

use super::attacks;
use super::context::Context;
use super::error::{err, from_schema, toml_error};
use super::schema::{OptionSpec, PieceSpec, VariantFile};
use super::tables::{
    BareKing, CastleRule, FenField, FenRules, Promotion, PromotionWhen, Rules, VariantOption,
    Verdict,
};
use super::{Core, Variant, VariantError};
use crate::betza;
use crate::fen;
use crate::geometry::{Geometry, Square};
use crate::piece::{Moveset, Piece, PieceInfo, PieceType, Side};
use crate::special::Specials;
use crate::zobrist::Zobrist;

/// Merges `patch` over `base`: tables key by key, anything else replaced.
fn merge(base: &mut toml::Table, patch: &toml::Table) {
    for (k, v) in patch {
        match (base.get_mut(k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(p)) => merge(b, p),
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Reads a file into a table with its `extends` chain resolved.
fn resolve(file: &str, text: &str, depth: u32) -> Result<toml::Table, VariantError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
    let Some(ext) = table.get("extends") else {
        // Check the schema here, where errors still have line numbers.
        from_schema::<VariantFile, _>(file, text, toml::Deserializer::new(text))?;
        return Ok(table);
    };
    let Some(name) = ext.as_str().map(str::to_string) else {
        return Err(err(
            file,
            Some("extends"),
            text,
            "must be the name of a built-in variant",
        ));
    };
    if depth > 8 {
        return Err(err(
            file,
            Some("extends"),
            text,
            "`extends` chain is too long",
        ));
    }
    let Some((_, base_text)) = super::BUILTIN.iter().find(|(n, _)| *n == name) else {
        return Err(err(
            file,
            Some("extends"),
            text,
            format!("no built-in variant `{name}`"),
        ));
    };
    let mut base = resolve(&format!("variants/{name}.toml"), base_text, depth + 1)?;
    // Options belong to the file that states them, unless it inherits them by name.
    let base_options = base.remove("options");
    let mut table = table;
    if let Some(keep) = table.remove("inherit_options") {
        let kept = inherit_options(file, text, &name, &keep, base_options.as_ref(), &table)?;
        table.insert("options".into(), toml::Value::Table(kept));
    }
    // The base's name stays unless this file sets its own.
    merge(&mut base, &table);
    base.remove("extends");
    Ok(base)
}

/// The options of a file that `extends` the built-in `base`: those of the
/// base's options (`base_options`) it names in `inherit_options` (`keep`),
/// then its own (in `table`), which replace inherited ones of the same name.
///
/// Errors: `keep` is not a list of names, or names an option the base has
/// not.
fn inherit_options(
    file: &str,
    text: &str,
    base: &str,
    keep: &toml::Value,
    base_options: Option<&toml::Value>,
    table: &toml::Table,
) -> Result<toml::Table, VariantError> {
    let bad = |what: String| err(file, Some("inherit_options"), text, what);
    let Some(names) = keep.as_array() else {
        return Err(bad("must be a list of option names".into()));
    };
    let base_options = base_options
        .and_then(toml::Value::as_table)
        .cloned()
        .unwrap_or_default();
    let mut kept = toml::Table::new();
    for n in names {
        let Some(n) = n.as_str() else {
            return Err(bad("must be a list of option names".into()));
        };
        let Some(o) = base_options.get(n) else {
            return Err(bad(format!("`{base}` has no option `{n}`")));
        };
        kept.insert(n.to_string(), o.clone());
    }
    if let Some(own) = table.get("options").and_then(toml::Value::as_table) {
        for (k, v) in own {
            kept.insert(k.clone(), v.clone());
        }
    }
    Ok(kept)
}

/// Loads the variant file `file` (TOML `text`) with the option `choices`
/// (name, value) in force: its `extends` chain, its options, its schema,
/// then [`build`].
///
/// Errors: the first found, with file, line and key where known.
pub(super) fn load(
    file: &str,
    text: &str,
    choices: &[(String, String)],
) -> Result<Variant, VariantError> {
    let mut table = resolve(file, text, 0)?;
    let (options, chosen) = apply_options(file, text, &mut table, choices)?;
    let spec: VariantFile = from_schema(file, text, toml::Value::Table(table))?;
    build(file, text, spec, options, chosen)
}

/// The options offered and the values in force.
type OptionsInForce = (Vec<VariantOption>, Vec<(String, String)>);

/// Reads `options` of the merged `table` and applies `choices` (the last
/// of a name wins) and the defaults of the options not chosen.
///
/// Errors: a choice of an option the variant has not, a bad option table,
/// a value the option has not.
fn apply_options(
    file: &str,
    text: &str,
    table: &mut toml::Table,
    choices: &[(String, String)],
) -> Result<OptionsInForce, VariantError> {
    let specs: std::collections::BTreeMap<String, OptionSpec> = match table.get("options") {
        Some(v) => v.clone().try_into().map_err(|e: toml::de::Error| {
            err(file, Some("options"), text, e.message().trim().to_string())
        })?,
        None => Default::default(),
    };
    let options: Vec<VariantOption> = specs
        .iter()
        .map(|(name, s)| VariantOption {
            name: name.clone(),
            description: s.description.clone(),
            default: s.default.clone(),
            values: s.values.keys().cloned().collect(),
        })
        .collect();
    for (name, _) in choices {
        if !specs.contains_key(name) {
            let known: Vec<&str> = specs.keys().map(String::as_str).collect();
            return Err(VariantError {
                file: file.to_string(),
                line: None,
                key: Some(format!("options.{name}")),
                what: if known.is_empty() {
                    format!("unknown option `{name}`: this variant has no options")
                } else {
                    format!("unknown option `{name}`; options: {}", known.join(", "))
                },
            });
        }
    }
    let mut chosen = Vec::new();
    for (name, s) in &specs {
        let value = choices
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| s.default.clone());
        apply_option(table, name, s, &value).map_err(|what| VariantError {
            file: file.to_string(),
            line: None,
            key: Some(format!("options.{name}")),
            what,
        })?;
        chosen.push((name.clone(), value));
    }
    Ok((options, chosen))
}

/// Applies `value` of the option `name` (`s`) to `table`: writes the number
/// to its `param` key, or merges the value's patch.
///
/// Errors (what is wrong): a numeric option given no whole number or a
/// negative one, a value the option has not.
fn apply_option(
    table: &mut toml::Table,
    name: &str,
    s: &OptionSpec,
    value: &str,
) -> Result<(), String> {
    if let Some(param) = &s.param {
        let n: i64 = value
            .parse()
            .map_err(|_| format!("option `{name}` takes a whole number, not `{value}`"))?;
        if n < 0 {
            return Err(format!("option `{name}` must not be negative"));
        }
        set_dotted(table, param, toml::Value::Integer(n));
    } else {
        let Some(patch) = s.values.get(value) else {
            let vals: Vec<&str> = s.values.keys().map(String::as_str).collect();
            return Err(format!(
                "option `{name}` has no value `{value}`; values: {}",
                vals.join(", ")
            ));
        };
        merge(table, patch);
    }
    Ok(())
}

/// Sets the dotted `key` of `table` to `value`, making the tables on the
/// way (and replacing any non-table there).
fn set_dotted(table: &mut toml::Table, key: &str, value: toml::Value) {
    let mut parts: Vec<&str> = key.split('.').collect();
    let last = parts.pop().unwrap_or(key);
    let mut t = table;
    for p in parts {
        let entry = t
            .entry(p.to_string())
            .or_insert_with(|| toml::Value::Table(Default::default()));
        if !entry.is_table() {
            *entry = toml::Value::Table(Default::default());
        }
        t = entry.as_table_mut().expect("just made a table");
    }
    t.insert(last.to_string(), value);
}

fn build(
    file: &str,
    text: &str,
    spec: VariantFile,
    options: Vec<VariantOption>,
    chosen: Vec<(String, String)>,
) -> Result<Variant, VariantError> {
    let e = |key: &str, what: String| err(file, Some(key), text, what);
    // Pieces, in file order.
    let mut keys = Vec::new();
    let mut specs: Vec<PieceSpec> = Vec::new();
    let mut pieces = spec.pieces.clone();
    if let Some(turns) = spec.special.delayed_promotion.as_ref().map(|d| d.turns) {
        delay_promotions(&mut pieces, turns).map_err(|w| e("special.delayed_promotion", w))?;
    }
    for (k, v) in &pieces {
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
    let index = |k: &str| keys.iter().position(|x| x == k).map(|i| i as PieceType);
    let mut infos: Vec<PieceInfo> = Vec::new();
    let mut paths = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let key = &keys[i];
        let p =
            betza::parse(&s.betza).map_err(|b| e(&format!("pieces.{key}.betza"), b.to_string()))?;
        paths.push(p);
        let mut promotes_to = Vec::new();
        for t in &s.promotes_to {
            promotes_to.push(index(t).ok_or_else(|| {
                e(
                    &format!("pieces.{key}.promotes_to"),
                    format!("no piece `{t}`"),
                )
            })?);
        }
        let promoted =
            match &s.promoted {
                Some(t) => Some(index(t).ok_or_else(|| {
                    e(&format!("pieces.{key}.promoted"), format!("no piece `{t}`"))
                })?),
                None => None,
            };
        if let Some(l) = &s.letter
            && (l.is_empty()
                || l.starts_with('+')
                || l.chars().next().is_some_and(|c| !c.is_ascii_uppercase()))
        {
            return Err(e(
                &format!("pieces.{key}.letter"),
                format!("`{l}` must start with an upper-case letter"),
            ));
        }
        infos.push(PieceInfo {
            key: key.clone(),
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
            ripens_to: match &s.ripens_to {
                Some(t) => Some(index(t).ok_or_else(|| {
                    e(
                        &format!("pieces.{key}.ripens_to"),
                        format!("no piece `{t}`"),
                    )
                })?),
                None => None,
            },
            description: s.description.clone(),
        });
    }
    for i in 0..infos.len() {
        if let Some(p) = infos[i].promoted {
            if infos[p as usize].demoted.is_some() || infos[p as usize].promoted.is_some() {
                return Err(e(
                    &format!("pieces.{}.promoted", infos[i].key),
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
                return Err(e(
                    &format!("pieces.{}.letter", infos[i].key),
                    "a promoted form is written `+` and its base piece's letter; give it no letter"
                        .into(),
                ));
            }
            let base = infos[d as usize].token.clone();
            infos[i].token = format!("+{base}");
            if infos[i].id.is_empty() {
                infos[i].id = format!("+{}", infos[d as usize].id);
            }
        } else if infos[i].token.is_empty() {
            return Err(e(
                &format!("pieces.{}", infos[i].key),
                "needs a `letter` (only promoted forms go without)".into(),
            ));
        }
    }
    let mut tokens: Vec<(String, Piece)> = Vec::new();
    for (i, p) in infos.iter().enumerate() {
        for side in Side::BOTH {
            let t = if side == Side::First {
                p.token.clone()
            } else {
                p.token.to_lowercase()
            };
            if tokens.iter().any(|(x, _)| *x == t) {
                return Err(e(
                    &format!("pieces.{}.letter", p.key),
                    format!("token `{t}` is used twice"),
                ));
            }
            tokens.push((t, Piece::new(i as PieceType, side)));
        }
    }
    tokens.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));

    // Geometry: the guard band covers the longest single leap.
    let reach = paths
        .iter()
        .flat_map(|ps| ps.iter())
        .flat_map(|p| p.legs.iter())
        .map(|l| l.vector.0.abs().max(l.vector.1.abs()) as u8)
        .max()
        .unwrap_or(1);
    let geometry = Geometry::new(
        spec.board.files,
        spec.board.ranks,
        reach.max(2),
        &spec.board.holes,
        spec.board.file_names.as_deref(),
    )
    .map_err(|g| e("board", g.to_string()))?;
    if geometry.squares().next().is_none() {
        return Err(e("board.holes", "the board has no squares left".into()));
    }
    let sq = |key: &str, name: &str| {
        geometry
            .parse_square(name)
            .ok_or_else(|| e(key, format!("`{name}` is not a square of this board")))
    };

    let mut movesets = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        let key = format!("pieces.{}.betza", keys[i]);
        let a = Moveset::compile(p, Side::First, &geometry).map_err(|w| e(&key, w))?;
        let b = Moveset::compile(p, Side::Second, &geometry).map_err(|w| e(&key, w))?;
        movesets.push([a, b]);
    }

    // Start position placement, for initial squares.
    let board_text = spec.fen.start.split_whitespace().next().unwrap_or("");
    let placement = fen::parse_board(&geometry, &tokens, board_text)
        .map_err(|f| e("fen.start", f.to_string()))?;
    let n = geometry.compact_len();
    let mut initial = vec![[vec![false; n], vec![false; n]]; infos.len()];
    for (sqr, pc) in &placement {
        initial[pc.kind() as usize][pc.side().index()][geometry.compact(*sqr)] = true;
    }
    for (i, s) in specs.iter().enumerate() {
        if let Some(list) = &s.initial_squares {
            initial[i] = [vec![false; n], vec![false; n]];
            for name in list {
                let q = sq(&format!("pieces.{}.initial_squares", keys[i]), name)?;
                let (f, r) = (geometry.file(q) as i32, geometry.rank(q) as i32);
                initial[i][0][geometry.compact(q)] = true;
                if let Some(m) = geometry.square(
                    geometry.files() as i32 - 1 - f,
                    geometry.ranks() as i32 - 1 - r,
                ) && s.initial_squares_second.is_none()
                {
                    initial[i][1][geometry.compact(m)] = true;
                }
            }
        }
        if let Some(list) = &s.initial_squares_second {
            initial[i][1] = vec![false; n];
            for name in list {
                let q = sq(&format!("pieces.{}.initial_squares_second", keys[i]), name)?;
                initial[i][1][geometry.compact(q)] = true;
            }
        }
    }
    let dead = dead_squares(&geometry, &movesets);

    // Promotion.
    let pr = &spec.promotion;
    let shogi = match pr.style.as_deref() {
        None | Some("chess") => false,
        Some("shogi") => true,
        Some(o) => {
            return Err(e(
                "promotion.style",
                format!("`{o}`: expected `chess` or `shogi`"),
            ));
        }
    };
    let when = match pr.when.as_deref() {
        None | Some("start-or-end") => PromotionWhen::StartOrEnd,
        Some("end") => PromotionWhen::End,
        Some("chu") => PromotionWhen::Chu,
        Some(o) => {
            return Err(e(
                "promotion.when",
                format!("`{o}`: expected `start-or-end`, `end` or `chu`"),
            ));
        }
    };
    if pr.zone > geometry.ranks() as u32 {
        return Err(e("promotion.zone", "deeper than the board".into()));
    }
    let mut relief = vec![false; infos.len()];
    for r in &pr.relief {
        let i = index(r).ok_or_else(|| e("promotion.relief", format!("no piece `{r}`")))?;
        relief[i as usize] = true;
    }
    let promotion = Promotion {
        zone: pr.zone as u8,
        shogi,
        when,
        forced_if_dead: pr.forced_if_dead,
        relief,
        silent: pr.silent,
    };

    // Rules.
    let r = &spec.rules;
    let royal_safety = match r.check.as_deref() {
        None | Some("royal-safety") => true,
        Some("none") => false,
        Some(o) => {
            return Err(e(
                "rules.check",
                format!("`{o}`: expected `royal-safety` or `none`"),
            ));
        }
    };
    let verdict = |key: &str, v: Option<&str>, default: Verdict| match v {
        None => Ok(default),
        Some("loss") => Ok(Verdict::Loss),
        Some("draw") => Ok(Verdict::Draw),
        Some("win") => Ok(Verdict::Win),
        Some(o) => Err(e(key, format!("`{o}`: expected `loss`, `draw` or `win`"))),
    };
    let stalemate = verdict("rules.stalemate", r.stalemate.as_deref(), Verdict::Draw)?;
    let bare_king = match r.bare_king.as_deref() {
        None | Some("none") => BareKing::None,
        Some("shatranj") => BareKing::Shatranj,
        Some("draw") => BareKing::Draw,
        Some("shogi") => BareKing::Shogi,
        Some(o) => {
            return Err(e(
                "rules.bare_king",
                format!("`{o}`: expected `none`, `shatranj`, `draw` or `shogi`"),
            ));
        }
    };
    let mut bare_king_uncounted = vec![false; infos.len()];
    for k in &r.bare_king_uncounted {
        let i =
            index(k).ok_or_else(|| e("rules.bare_king_uncounted", format!("no piece `{k}`")))?;
        bare_king_uncounted[i as usize] = true;
    }
    let castling = match &r.castling {
        Some(c) if c.enabled => {
            let k1 = sq("rules.castling.king", &c.king)?;
            let mirror = |s: Square| {
                geometry
                    .square(
                        geometry.file(s) as i32,
                        geometry.ranks() as i32 - 1 - geometry.rank(s) as i32,
                    )
                    .ok_or_else(|| e("rules.castling", "the mirror square does not exist".into()))
            };
            let k2 = match &c.king_second {
                Some(n) => sq("rules.castling.king_second", n)?,
                None => mirror(k1)?,
            };
            let r1 = [
                sq("rules.castling.rooks", &c.rooks[0])?,
                sq("rules.castling.rooks", &c.rooks[1])?,
            ];
            let r2 = match &c.rooks_second {
                Some(rs) => [
                    sq("rules.castling.rooks_second", &rs[0])?,
                    sq("rules.castling.rooks_second", &rs[1])?,
                ],
                None => [mirror(r1[0])?, mirror(r1[1])?],
            };
            if c.distances.is_empty() || c.distances.iter().any(|&d| !(1..=8).contains(&d)) {
                return Err(e(
                    "rules.castling.distances",
                    "give distances from 1 to 8".into(),
                ));
            }
            // Every castling move must land King and Rook on squares.
            for (k, rooks) in [(k1, r1), (k2, r2)] {
                for rook in rooks {
                    let (kf, rf, rank) = (
                        geometry.file(k) as i32,
                        geometry.file(rook) as i32,
                        geometry.rank(k) as i32,
                    );
                    if geometry.rank(rook) as i32 != rank || kf == rf {
                        return Err(e(
                            "rules.castling.rooks",
                            "each Rook must stand on its King's rank".into(),
                        ));
                    }
                    let dir = if rf > kf { 1 } else { -1 };
                    for &d in &c.distances {
                        let kt = kf + dir * d as i32;
                        if (rf - kt) * dir <= 0 {
                            continue;
                        }
                        if geometry.square(kt, rank).is_none()
                            || geometry.square(kt - dir, rank).is_none()
                        {
                            return Err(e(
                                "rules.castling.distances",
                                format!("castling by {d} would leave the board"),
                            ));
                        }
                    }
                }
            }
            Some(CastleRule {
                king: [k1, k2],
                rooks: [r1, r2],
                distances: c.distances.iter().map(|&d| d as u8).collect(),
            })
        }
        _ => None,
    };
    let royals_counted_before_move = match r.royal_count.as_deref() {
        None | Some("after-move") => false,
        Some("before-move") => true,
        Some(o) => {
            return Err(e(
                "rules.royal_count",
                format!("`{o}`: expected `after-move` or `before-move`"),
            ));
        }
    };
    let rules = Rules {
        royal_safety,
        royals_counted_before_move,
        stalemate,
        bare_king,
        bare_king_uncounted,
        repetition: r.repetition,
        perpetual_check_loses: r.perpetual_check_loses,
        repetition_forbidden: r.repetition_forbidden,
        move_rule: r.move_rule,
        max_plies: r.max_plies,
        en_passant: r.en_passant,
        castling,
        insufficient_material: {
            let mut m = 0u128;
            for k in &r.insufficient_material {
                let i = index(k)
                    .ok_or_else(|| e("rules.insufficient_material", format!("no piece `{k}`")))?;
                m |= 1u128 << i;
            }
            m
        },
    };

    // FEN conventions.
    let mut fields = Vec::new();
    for f in &spec.fen.fields {
        fields.push(match f.as_str() {
            "castling" => FenField::Castling,
            "ep" => FenField::EnPassant,
            "halfmove" => FenField::Halfmove,
            "fullmove" => FenField::Fullmove,
            "swap" => FenField::Swap,
            "frozen" => FenField::Frozen,
            o => {
                return Err(e(
                    "fen.fields",
                    format!(
                        "`{o}`: expected `castling`, `ep`, `frozen`, `halfmove`, `fullmove` or `swap`"
                    ),
                ));
            }
        });
    }
    let fen_rules = FenRules {
        side_letters: spec.fen.side_letters.clone(),
        xboard_side_letters: spec.fen.xboard_side_letters.clone(),
        fields,
    };

    // The special-rule families compile their own tables.
    let delayed_promotion = spec.special.delayed_promotion.as_ref().map(|d| d.turns);
    let ctx = Context {
        file,
        text,
        geometry: &geometry,
        pieces: &infos,
        movesets: &movesets,
        fen: &fen_rules,
    };
    let specials = Specials::compile(&spec.special, &ctx)?;
    let immune = ctx.types_where(|p| p.immune);
    let restricts = immune != 0 || specials.restrict_moves();

    // Values: the file's, or an estimate from mobility on an empty board.
    for (i, info) in infos.iter_mut().enumerate() {
        if info.value == 0 && !info.royal && specs[i].value.is_none() {
            info.value = estimate_value(&geometry, &movesets[i][0]);
        }
    }

    let zobrist = Zobrist::new(&geometry, infos.len());
    let attacks = attacks::attack_tables(&movesets);
    let any_promotion = infos
        .iter()
        .any(|p| !p.promotes_to.is_empty() || p.promoted.is_some());
    let ripening = infos.iter().any(|p| p.ripens_to.is_some());
    let has_royals = infos.iter().any(|p| p.royal);
    let core = Core {
        geometry,
        pieces: infos,
        movesets,
        initial,
        dead,
        start_fen: spec.fen.start.clone(),
        fen: fen_rules,
        promotion,
        rules,
        delayed_promotion,
        immune,
        restricts,
        zobrist,
        attacks,
        any_promotion,
        ripening,
        has_royals,
        tokens,
    };
    let variant = Variant {
        name: spec.name.clone(),
        title: spec.title.clone(),
        description: spec.description.clone(),
        rules_source: spec.rules_source.clone(),
        options,
        chosen,
        core,
        specials,
    };
    // The start position must be a position.
    crate::position::Position::from_fen(std::sync::Arc::new(variant.clone()), &variant.start_fen)
        .map_err(|f| e("fen.start", f.to_string()))?;
    Ok(variant)
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
            let letter = target
                .get("letter")
                .and_then(|l| l.as_str())
                .unwrap_or("")
                .to_string();
            let name = target
                .get("name")
                .and_then(|l| l.as_str())
                .unwrap_or(t)
                .to_string();
            for k in 1..=turns {
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
                    t.clone()
                } else {
                    format!("{t}-waiting-{}", k - 1)
                };
                w.insert("ripens_to".into(), next.into());
                w.insert(
                    "description".into(),
                    format!("A Pawn on the last rank; it becomes a {name} after {k} more turns of its owner.").into(),
                );
                pieces.insert(format!("{t}-waiting-{k}"), toml::Value::Table(w));
            }
            waiting.push(toml::Value::String(format!("{t}-waiting-{turns}")));
        }
        if let Some(toml::Value::Table(p)) = pieces.get_mut(&pawn) {
            p.insert("promotes_to".into(), toml::Value::Array(waiting));
        }
    }
    Ok(())
}

/// Per type and side: squares from which the piece has no move at all on an
/// otherwise empty board (a Pawn on the last rank, a Knight on the last two).
fn dead_squares(geo: &Geometry, movesets: &[[Moveset; 2]]) -> Vec<[Vec<bool>; 2]> {
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
