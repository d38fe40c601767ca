//! From TOML text to a checked [`Variant`]: merging `extends` and options,
//! reading the schema, then compiling it step by step (pieces, board,
//! movement, promotion, game rules, FEN conventions, the special-rule
//! families, attack tables) and checking the start position.

use super::context::Context;
use super::error::{err, from_schema, toml_error};
use super::schema::{BoardSpec, OptionSpec, VariantFile};
use super::tables::VariantOption;
use super::{BUILTIN, Core, Variant, VariantError};
use super::{attacks, pieces, rules};
use crate::geometry::Geometry;
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

/// Reads a file into a table with its `extends` chain resolved; with it
/// the names of the built-in variants it extends, nearest first.
fn resolve(file: &str, text: &str, depth: u32) -> Result<(toml::Table, Vec<String>), VariantError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
    let Some(ext) = table.get("extends") else {
        // Check the schema here, where errors still have line numbers.
        from_schema::<VariantFile, _>(file, text, toml::Deserializer::new(text))?;
        return Ok((table, Vec::new()));
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
    let Some((_, base_text)) = BUILTIN.iter().find(|(n, _)| *n == name) else {
        return Err(err(
            file,
            Some("extends"),
            text,
            format!("no built-in variant `{name}`"),
        ));
    };
    let (mut base, mut bases) = resolve(&format!("variants/{name}.toml"), base_text, depth + 1)?;
    bases.insert(0, name.clone());
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
    Ok((base, bases))
}

impl Variant {
    /// Loads a built-in variant by name (`courier`, `sho-shogi`...) with
    /// option choices `(name, value)`.
    ///
    /// # Errors
    ///
    /// An unknown name (the message lists the built-in ones), an unknown
    /// option or value.
    ///
    /// # Examples
    ///
    /// ```
    /// use kamil_rules::Variant;
    /// let chu = Variant::builtin("chu-shogi", &[]).unwrap();
    /// assert_eq!((chu.geometry.files(), chu.geometry.ranks()), (12, 12));
    /// let draw = [("stalemate".to_string(), "draw".to_string())];
    /// assert_eq!(Variant::builtin("chu-shogi", &draw).unwrap().option("stalemate"), Some("draw"));
    /// assert!(Variant::builtin("chess", &[]).is_err());
    /// ```
    pub fn builtin(name: &str, options: &[(String, String)]) -> Result<Variant, VariantError> {
        let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
            return Err(VariantError {
                file: name.to_string(),
                line: None,
                key: None,
                what: format!("no such variant; built-in variants: {}", names.join(", ")),
            });
        };
        load(&format!("variants/{name}.toml"), text, options)
    }

    /// Loads a variant from TOML text; `file` names it in errors. `extends`
    /// may name a built-in variant.
    ///
    /// # Errors
    ///
    /// TOML syntax, unknown or missing keys, bad values (with the line and
    /// key), bad Betza, an unknown piece, an impossible start FEN.
    ///
    /// # Examples
    ///
    /// ```
    /// use kamil_rules::Variant;
    /// let mine = Variant::from_toml("mine.toml", "extends = \"courier\"\n", &[]).unwrap();
    /// assert_eq!(mine.name, "courier");
    /// let e = Variant::from_toml("bad.toml", "extends = \"no-such\"\n", &[]).unwrap_err();
    /// assert!(e.to_string().contains("no-such"));
    /// ```
    pub fn from_toml(
        file: &str,
        text: &str,
        options: &[(String, String)],
    ) -> Result<Variant, VariantError> {
        load(file, text, options)
    }
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
    let (mut table, bases) = resolve(file, text, 0)?;
    let (options, chosen) = apply_options(file, text, &mut table, choices)?;
    let spec: VariantFile = from_schema(file, text, toml::Value::Table(table))?;
    build(file, text, spec, options, chosen, bases)
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
    let mut options: Vec<VariantOption> = Vec::with_capacity(specs.len());
    for (name, s) in &specs {
        if let Some(unknown) = s.labels.keys().find(|v| !s.values.contains_key(*v)) {
            return Err(VariantError {
                file: file.to_string(),
                line: None,
                key: Some(format!("options.{name}.labels.{unknown}")),
                what: format!("a label for `{unknown}`, which is not a value of option `{name}`"),
            });
        }
        options.push(VariantOption {
            name: name.clone(),
            label: if s.label.is_empty() {
                name.clone()
            } else {
                s.label.clone()
            },
            summary: if s.summary.is_empty() {
                s.description.clone()
            } else {
                s.summary.clone()
            },
            description: s.description.clone(),
            default: s.default.clone(),
            values: s.values.keys().cloned().collect(),
            value_labels: s
                .values
                .keys()
                .map(|v| match (s.labels.get(v), v.as_str()) {
                    (Some(l), _) => l.clone(),
                    (None, "false") => "no".to_string(),
                    (None, "true") => "yes".to_string(),
                    (None, v) => v.to_string(),
                })
                .collect(),
        });
    }
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

/// Compiles the merged file `spec` into a variant offering `options`, with
/// `chosen` in force, extending the built-in `bases` (nearest first).
///
/// Errors: the first step's error, naming the key; a start position that
/// is no position.
fn build(
    file: &str,
    text: &str,
    spec: VariantFile,
    options: Vec<VariantOption>,
    chosen: Vec<(String, String)>,
    bases: Vec<String>,
) -> Result<Variant, VariantError> {
    let mut types = pieces::read(file, text, &spec)?;
    let geometry = geometry(file, text, &spec.board, pieces::reach(&types.paths))?;
    let movesets = pieces::movesets(file, text, &types, &geometry)?;
    let fen = rules::fen_rules(&spec.fen);
    let ctx = Context {
        file,
        text,
        geometry: &geometry,
        pieces: &types.infos,
        movesets: &movesets,
        fen: &fen,
    };
    let initial = pieces::initial_squares(&ctx, &types.specs, &types.tokens, &spec.fen.start)?;
    let promotion = rules::promotion(&spec.promotion, &ctx)?;
    let rules = rules::rules(&spec.rules, &ctx)?;
    let specials = Specials::compile(&spec.special, &ctx)?;
    let immune = ctx.types_where(|p| p.immune);
    pieces::estimate_values(&mut types.infos, &types.specs, &geometry, &movesets);
    let infos = types.infos;
    let core = Core {
        dead: pieces::dead_squares(&geometry, &movesets),
        zobrist: Zobrist::new(&geometry, infos.len()),
        attacks: attacks::attack_tables(&movesets, &geometry),
        any_promotion: (infos.iter()).any(|p| !p.promotes_to.is_empty() || p.promoted.is_some()),
        ripening: infos.iter().any(|p| p.ripens_to.is_some()),
        has_royals: infos.iter().any(|p| p.royal),
        geometry,
        pieces: infos,
        movesets,
        initial,
        start_fen: spec.fen.start.clone(),
        fen,
        promotion,
        rules,
        delayed_promotion: spec.special.delayed_promotion.as_ref().map(|d| d.turns),
        immune,
        tokens: types.tokens,
    };
    let variant = Variant {
        name: spec.name,
        title: spec.title,
        description: spec.description,
        rules_source: spec.rules_source,
        options,
        chosen,
        bases,
        caps: super::Capabilities::conclude(&core, &specials),
        core,
        specials,
    };
    // The start position must be a position.
    crate::position::Position::from_fen(std::sync::Arc::new(variant.clone()), &variant.start_fen)
        .map_err(|f| err(file, Some("fen.start"), text, f.to_string()))?;
    Ok(variant)
}

/// The board of `[board]`, its guard band as wide as the longest single
/// leap `reach` (at least 2).
///
/// Errors: a board the geometry cannot hold, holes that leave no square.
fn geometry(
    file: &str,
    text: &str,
    board: &BoardSpec,
    reach: u8,
) -> Result<Geometry, VariantError> {
    let geometry = Geometry::new(
        board.files,
        board.ranks,
        reach.max(2),
        &board.holes,
        board.file_names.as_deref(),
    )
    .map_err(|g| err(file, Some("board"), text, g.to_string()))?;
    if geometry.squares().next().is_none() {
        return Err(err(
            file,
            Some("board.holes"),
            text,
            "the board has no squares left",
        ));
    }
    Ok(geometry)
}
