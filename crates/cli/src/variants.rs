//! `kamil variants`: the built-in games and their options.

use anyhow::Result;
use kamil_rules::Variant;
use kamil_rules::variant::{BUILTIN, VariantOption};
use std::io::Write;

/// Arguments of `kamil variants`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also print where each option comes from (its source and rule book
    /// section).
    #[arg(long)]
    details: bool,
}

/// Lists every built-in variant with its options and their values.
pub fn run(args: Args) -> Result<()> {
    let mut all = Vec::new();
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name, &[])?;
        all.push(v);
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let list: Vec<serde_json::Value> = all
            .iter()
            .map(|v| {
                serde_json::json!({
                    "name": v.name,
                    "title": v.title,
                    "description": v.description,
                    "board": { "files": v.geometry.files(), "ranks": v.geometry.ranks() },
                    "start_fen": v.start_fen,
                    "options": v.options.iter().map(|o| serde_json::json!({
                        "name": o.name, "label": o.label, "summary": o.summary,
                        "default": o.default, "values": o.values, "value_labels": o.value_labels,
                        "description": o.description,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&list)?)?;
        out.flush()?;
        return Ok(());
    }
    for v in &all {
        writeln!(
            out,
            "{:<16} {} ({}x{})",
            v.name,
            v.title,
            v.geometry.files(),
            v.geometry.ranks()
        )?;
        if !v.description.is_empty() {
            writeln!(out, "                 {}", v.description)?;
        }
        for o in &v.options {
            write_option(&mut out, o, args.details)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// One option as `kamil variants` lists it: the player's label and summary,
/// then how to set it, the values' names where they say more than the
/// values, and with `details` its source.
fn write_option(out: &mut impl Write, o: &VariantOption, details: bool) -> std::io::Result<()> {
    writeln!(out, "  {}: {}", o.label, o.summary)?;
    let values = if o.values.is_empty() {
        "N".to_string()
    } else {
        o.values.join("|")
    };
    writeln!(
        out,
        "      --option {}={}  (default {})",
        o.name, values, o.default
    )?;
    let plain = o.values.iter().zip(&o.value_labels).all(|(v, l)| {
        v == l || matches!((v.as_str(), l.as_str()), ("false", "no") | ("true", "yes"))
    });
    if !plain {
        let named: Vec<String> = o
            .values
            .iter()
            .zip(&o.value_labels)
            .map(|(v, l)| format!("{v}: {l}"))
            .collect();
        writeln!(out, "      {}", named.join("; "))?;
    }
    if details && !o.description.is_empty() && o.description != o.summary {
        writeln!(out, "      details: {}", o.description)?;
    }
    Ok(())
}
