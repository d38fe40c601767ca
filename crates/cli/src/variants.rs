//! `kamil variants`: the built-in games and their options.

use anyhow::Result;
use kamil_rules::Variant;
use kamil_rules::variant::BUILTIN;
use std::io::Write;

/// Arguments of `kamil variants`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
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
                        "name": o.name, "default": o.default, "values": o.values, "description": o.description,
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
            let values = if o.values.is_empty() {
                "N".to_string()
            } else {
                o.values.join("|")
            };
            writeln!(
                out,
                "  --option {}={}  (default {})",
                o.name, values, o.default
            )?;
            if !o.description.is_empty() {
                writeln!(out, "      {}", o.description)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
