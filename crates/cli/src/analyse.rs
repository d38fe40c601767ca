//! `kamil analyse GAME.pgn [--movetime MS] [-o FILE]`: reviews the first
//! game of a PGN file (see [`crate::review`]) and writes it back with an
//! evaluation comment after every move (`{+0.35/12}`, for the first
//! player), and for an inaccuracy, mistake or blunder its NAG (`$6`, `$2`,
//! `$4`), its loss and the engine's better move. Progress goes to
//! standard error.

use crate::game_args::{load_variant, read_position};
use crate::input;
use crate::review::{self, Judgement};
use crate::session::Core;
use anyhow::{Context, Result, bail};
use kamil_engine::{Engine, EngineConfig};
use kamil_rules::excerpt;
use kamil_rules::pgn::{self, GameRecord};
use kamil_rules::variant::aliases::{self, from_xboard_name};
use kamil_rules::{Move, Position, Side};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Arguments of `kamil analyse`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game, as PGN (kamil's, XBoard's or HaChu's move texts), with a
    /// `Variant` tag (and `VariantOptions`, `FEN` when needed); its first
    /// game is reviewed. `-`: standard input.
    pub game: PathBuf,
    /// Engine time for each position, ms.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: u64,
    /// Write the annotated PGN here instead of standard output (created,
    /// or emptied, before the first search).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Hash table, MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Evaluate with this network file (`kamil train-net`'s `.nnue`) for
    /// the game's variant, or `hand` for the hand-written evaluation,
    /// instead of the default (the game's built-in network where it has
    /// one).
    #[arg(long, value_name = "FILE|hand")]
    pub eval: Option<PathBuf>,
    /// The game's variant where the PGN has no `Variant` tag (a built-in
    /// name, another program's, or a variant file); a tag wins.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
}

/// A game read from PGN: where it starts, its moves, tags and result.
pub struct PgnGame {
    /// The position the game starts from.
    pub start: Position,
    /// The moves, legal in turn.
    pub moves: Vec<Move>,
    /// The tags as read.
    pub tags: Vec<(String, String)>,
    /// The result marker (`*` if none).
    pub result: String,
}

/// Reads the first game of PGN `text`: variant from its `Variant` tag
/// (or `default_variant`), options from `VariantOptions`, start from `FEN`,
/// and moves in kamil's or XBoard's notation.
///
/// Errors: unreadable PGN, no variant, an unknown variant or option, a bad
/// FEN or SFEN, or a move that is not legal (named with its number).
pub fn read_game(text: &str, default_variant: Option<&str>) -> Result<PgnGame> {
    let game = pgn::read(text)?;
    // XBoard's and HaChu's names too (`chu` for `chu-shogi`).
    let tag = game
        .tag("Variant")
        .map(|t| from_xboard_name(t).unwrap_or(t));
    let Some(name) = tag.or(default_variant) else {
        bail!(
            "the game has no Variant tag: say which game it is ([Variant \"courier\"], or --variant courier)"
        );
    };
    let options: Vec<String> = game
        .tag("VariantOptions")
        .map(|o| o.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    // Other programs' names too (`chushogi`), with their rule options.
    let (name, options) = aliases::resolve(name, &options);
    let v = load_variant(&name, &options)?;
    let start = match game.tag("FEN") {
        // A shogi game's FEN tag may hold an SFEN, as shogi tools write it.
        Some(f) => read_position(v, f)?,
        None => Position::start(v),
    };
    let mut pos = start.clone();
    let moves = review::parse_moves(&mut pos, &game.moves)?;
    Ok(PgnGame {
        start,
        moves,
        result: game.result.clone().unwrap_or_else(|| "*".into()),
        tags: game.tags,
    })
}

/// Runs `kamil analyse`.
///
/// Errors: the file cannot be read or is not a game (see [`read_game`]),
/// the network file (`--eval`) cannot be used for the game's variant, the
/// output file cannot be created (found before any search), the hash
/// table cannot be allocated, the output cannot be written.
pub fn run(args: Args) -> Result<()> {
    let (text, shown) = if args.game.as_os_str() == "-" {
        (
            input::read_stdin("game", input::MAX_FILE)?,
            "standard input".to_string(),
        )
    } else {
        let text = input::read_file(&args.game, "game", input::MAX_FILE)?;
        (text, format!("{}", args.game.display()))
    };
    let game = read_game(&text, args.variant.as_deref()).with_context(|| shown.clone())?;
    if [Side::First, Side::Second]
        .iter()
        .all(|&s| game.start.pieces(s).is_empty())
    {
        bail!(
            "{shown}: the game's position has no pieces at all (FEN `{}`): nothing to review",
            excerpt(&game.start.fen())
        );
    }
    let v = game.start.variant();
    let mut core = Core::with_variant(&v.name, v.clone())?;
    core.set_eval_arg(args.eval.as_deref());
    // Found now, not after minutes of review.
    core.checked_evaluation()?;
    let output = match &args.output {
        Some(path) => Some(
            std::fs::File::create(path)
                .with_context(|| format!("creating the output file `{}`", path.display()))?,
        ),
        None => None,
    };
    let mut engine = Engine::try_new(EngineConfig {
        hash_mb: args.hash as usize,
        ..EngineConfig::default()
    })
    .context("--hash")?;
    core.apply_or_fail(&mut engine)?;
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(game.moves.len() as u64 + 1),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} positions, eta {eta} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let cancel = AtomicBool::new(false);
    let r = review::review(
        &mut engine,
        &game.start,
        &game.moves,
        args.movetime,
        &cancel,
        &mut |e| {
            bar.set_message(review::score_text(e.score, e.side));
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    let count = |j: Judgement| r.moves.iter().filter(|m| m.judgement == Some(j)).count();
    eprintln!(
        "kamil analyse: {} moves, {} ms a position; inaccuracies {}, mistakes {}, blunders {}",
        game.moves.len(),
        args.movetime,
        count(Judgement::Inaccuracy),
        count(Judgement::Mistake),
        count(Judgement::Blunder),
    );
    let notes = review::annotations(&game.start, &game.moves, &r);
    let mut tags = game.tags.clone();
    tags.retain(|(k, _)| k != "Annotator");
    tags.push((
        "Annotator".into(),
        format!("kamil analyse, {} ms a position", args.movetime),
    ));
    let out = pgn::write_annotated(
        &GameRecord {
            start: &game.start,
            moves: &game.moves,
            tags: &tags,
            result: &game.result,
            termination: None,
        },
        &notes,
    );
    match (output, &args.output) {
        (Some(mut file), Some(path)) => file
            .write_all(out.as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("writing `{}`", path.display()))?,
        _ => {
            let mut o = std::io::stdout().lock();
            o.write_all(out.as_bytes())?;
            o.flush()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_tag_may_hold_an_sfen_in_the_shogi_games() {
        let start = Position::start(load_variant("chu-shogi", &[]).unwrap());
        let sfen = start.sfen().expect("Chu Shogi has an SFEN");
        let pgn = format!("[Variant \"chu-shogi\"]\n[FEN \"{sfen}\"]\n\n*\n");
        let game = read_game(&pgn, None).unwrap();
        assert_eq!(game.start.fen(), start.fen());
        let bad = "[Variant \"chu-shogi\"]\n[FEN \"lfcsgekgscfl/12 b - 1\"]\n\n*\n";
        let Err(e) = read_game(bad, None) else {
            panic!("a bad SFEN was read");
        };
        let e = format!("{e:#}");
        assert!(e.contains("bad SFEN"), "{e}");
    }
}
