//! `kamil rules VARIANT [--option KEY=VALUE ...]`: the game's rules in
//! words (the rules text beside its variant file), each piece's diagram
//! drawn as text from the rules library's move generation.

use crate::game_args::{is_path, load_variant};
use crate::input;
use anyhow::{Context, Result};
use kamil_rules::rules_text::{self, Part, RulesText, VariantRules};
use kamil_rules::{Reach, reach};
use kamil_rules::{Side, Variant};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `kamil rules`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A built-in variant (`kamil variants` lists them) or a path to a
    /// variant TOML file (its rules are the `.rules.md` file beside it;
    /// without one, what the variant file itself says).
    variant: String,
    /// A variant option, `KEY=VALUE` (a bare `KEY` means `KEY=true`);
    /// repeatable. The diagrams show the pieces as the options make them.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

/// Prints the rules of a variant with its pieces' diagrams.
///
/// A variant file without a rules file beside it gets the rules drawn
/// from the variant file alone ([`render_drawn`]).
///
/// Errors: an unknown variant or option, a rules text that cannot be read,
/// is malformed or does not cover the variant (naming the file and line).
pub fn run(args: Args) -> Result<()> {
    let v = load_variant(&args.variant, &args.options)?;
    let text = if is_path(&args.variant) && !rules_path(&args.variant).exists() {
        render_drawn(&v, &rules_path(&args.variant))
    } else {
        render(&v, &load_rules(&args.variant, &v)?)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The rules file beside a variant file: `path/foo.toml` ->
/// `path/foo.rules.md`.
pub fn rules_path(variant_file: &str) -> PathBuf {
    let stem = variant_file.strip_suffix(".toml").unwrap_or(variant_file);
    PathBuf::from(format!("{stem}.rules.md"))
}

/// The rules of variant `v`, loaded from `name` as [`load_variant`] takes
/// it: a built-in's embedded text, or the `.rules.md` file beside a
/// variant file.
///
/// Errors: no rules file, or one that is malformed or does not cover `v`.
pub fn load_rules(name: &str, v: &Variant) -> Result<VariantRules> {
    if !is_path(name) {
        return Ok(rules_text::builtin(v)?);
    }
    let path = rules_path(name);
    let text = input::read_file(&path, "rules file", input::MAX_FILE)
        .with_context(|| format!("the rules of variant file `{name}`"))?;
    let shown = path.display().to_string();
    Ok(RulesText::parse(&shown, &text)?.for_variant(v)?)
}

/// The rules as terminal text: Markdown as written, each diagram marker
/// replaced by the piece's name, ID, Betza code and its diagram.
pub fn render(v: &Arc<Variant>, rules: &VariantRules) -> String {
    let mut s = String::new();
    for sec in &rules.sections {
        let hashes = "#".repeat(sec.level as usize);
        s.push_str(&format!("{hashes} {}\n\n", sec.title));
        if sec.level == 1 {
            s.push_str(&format!("Variant `{}`. {}\n\n", v.name, options_changed(v)));
        }
        if sec.level == 2 && sec.title == "Options" {
            s.push_str(&options_in_words(v));
        }
        for part in &sec.parts {
            match part {
                Part::Text(t) => {
                    s.push_str(t);
                    s.push_str("\n\n");
                }
                Part::Diagram { key, .. } => {
                    if let Some(kind) = v.piece_by_key(key) {
                        s.push_str(&piece_diagram(v, kind));
                        s.push('\n');
                    }
                }
            }
        }
    }
    s
}

/// The options that differ from their defaults, in the player's words
/// with the key to set each (`Queen instead of Fers: yes
/// (albers-queen=true).`), or that none does.
pub fn options_changed(v: &Variant) -> String {
    let changed: Vec<String> = v
        .options
        .iter()
        .filter_map(|o| {
            let value = v.option(&o.name)?;
            (value != o.default)
                .then(|| format!("{}: {} ({}={value})", o.label, o.value_label(value), o.name))
        })
        .collect();
    match (v.options.is_empty(), changed.is_empty()) {
        (true, _) => "This game has no options.".to_string(),
        (false, true) => "Every option at its default.".to_string(),
        (false, false) => format!("Options changed: {}.", changed.join("; ")),
    }
}

/// Each option as a Markdown list item in the player's words: its label,
/// summary, the value in force and the key that sets it.
pub fn options_in_words(v: &Variant) -> String {
    let mut s = String::new();
    for o in &v.options {
        let value = v.option(&o.name).unwrap_or(&o.default);
        s.push_str(&format!(
            "- {}: {} Now: {} (`--option {}={value}`; default {}).\n",
            o.label,
            o.summary,
            o.value_label(value),
            o.name,
            o.value_label(&o.default),
        ));
    }
    if !s.is_empty() {
        s.push_str("\nIn detail:\n\n");
    }
    s
}

/// The rules of a variant file that has no rules text (`missing`, where
/// it would be): its title and description, board, start position, each
/// piece with its Betza code and diagram, and its options.
pub fn render_drawn(v: &Arc<Variant>, missing: &std::path::Path) -> String {
    let mut s = format!(
        "# {}\n\nVariant `{}`. {}",
        v.title,
        v.name,
        options_changed(v)
    );
    s.push_str(&format!(
        "\n\nNo rules text (`{}` beside the variant file): no prose; \
         what follows is drawn from the variant file alone.\n\n",
        missing.display()
    ));
    if !v.description.is_empty() {
        s.push_str(&format!("{}\n\n", v.description));
    }
    let g = &v.geometry;
    s.push_str(&format!(
        "## Board and setup\n\n{} files, {} ranks; start position `{}`.\n\n## Pieces\n\n",
        g.files(),
        g.ranks(),
        v.start_fen
    ));
    for kind in 0..v.pieces.len() {
        s.push_str(&piece_diagram(v, kind as u8));
        s.push('\n');
    }
    if !v.options.is_empty() {
        s.push_str("## Options\n\n");
        s.push_str(&options_in_words(v));
        for o in &v.options {
            s.push_str(&format!(
                "- `{}` ({}; default {}): {}\n",
                o.name,
                o.values.join(", "),
                o.default,
                o.description
            ));
        }
        s.push('\n');
    }
    s
}

/// One piece's diagram as text: a line naming it, then the board (first
/// player's view, moving up): `*` the piece, `o` a move, `x` a capture
/// only, `.` another square, a blank for a cell that is no square.
pub fn piece_diagram(v: &Arc<Variant>, kind: u8) -> String {
    let info = &v.pieces[kind as usize];
    let mut head = format!("    {} ({}) · Betza {}", info.name, info.id, info.betza);
    if info.royal {
        head.push_str(" · royal");
    }
    if let Some(p) = info.promoted {
        head.push_str(&format!(" · promotes to {}", v.pieces[p as usize].name));
    }
    let r: Reach = reach(v, kind, Side::First);
    let g = &v.geometry;
    let mut s = format!("{head}\n");
    for rank in (0..g.ranks()).rev() {
        s.push_str(&format!("    {:>2} ", rank as u32 + 1));
        for file in 0..g.files() {
            let cell = g.cell(file, rank);
            let c = if !g.is_square(cell) {
                ' '
            } else if cell == r.from {
                '*'
            } else if r.moves.contains(&cell) {
                'o'
            } else if r.captures.contains(&cell) {
                'x'
            } else {
                '.'
            };
            s.push(' ');
            s.push(c);
        }
        s.push('\n');
    }
    s.push_str("       ");
    for file in 0..g.files() {
        s.push(' ');
        s.push(g.file_name(file));
    }
    s.push_str("\n    (* the piece, o where it moves, x where it only captures)\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knight_diagram_marks_its_eight_leaps() {
        let v = load_variant("courier", &[]).unwrap();
        let d = piece_diagram(&v, v.piece_by_key("knight").unwrap());
        assert!(d.starts_with("    Knight (N) · Betza N\n"), "{d}");
        let lines: Vec<&str> = d.lines().collect();
        // The heading, 8 ranks, the file letters, the legend.
        assert_eq!(lines.len(), 11, "{d}");
        let board = lines[1..9].join("\n");
        assert_eq!(board.matches('o').count(), 8, "{d}");
        assert_eq!(board.matches('*').count(), 1, "{d}");
        assert_eq!(board.matches('x').count(), 0, "{d}");
        assert_eq!(
            rules_path("dir/mine.toml"),
            PathBuf::from("dir/mine.rules.md")
        );
    }
}
