//! Issue 76: one setting, one engine configuration, whatever the front
//! end sets it through.

use kamil_cli::out::Out;
use kamil_cli::session::{Core, EvalNote};
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::{Engine, EngineConfig, Skill};
use kamil_protocol::loading::{HAND, load_variant};
use kamil_rules::Variant;
use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

/// Output nobody reads.
fn sink() -> Out {
    Arc::new(Mutex::new(Box::new(std::io::sink())))
}

/// What an engine was given: the evaluation's kind (with a variant
/// file's weights, or the network's game and options) and the level.
fn configured(engine: &Engine) -> (String, Skill) {
    let eval = match engine.evaluation() {
        EvalChoice::Builtin => "builtin".to_string(),
        EvalChoice::Hand => "hand".to_string(),
        EvalChoice::HandWeights(w) => format!("hand with weights {w:?}"),
        EvalChoice::Net(n) => format!("net of {} {:?}", n.variant().name, n.variant().chosen),
    };
    (eval, engine.skill())
}

/// The game (its name and options in force) of a core.
fn game(core: &Core) -> (String, Vec<(String, String)>) {
    (core.variant().name.clone(), core.variant().chosen.clone())
}

fn fresh() -> Engine {
    Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    })
}

/// Chu Shogi with an option and strength level 7 set through UCI, XBoard
/// and the server: the same game and the same engine configuration.
#[test]
fn uci_xboard_and_the_server_configure_the_engine_alike() {
    let mut uci = kamil_cli::uci::Session::new(sink());
    for line in [
        "setoption name UCI_Variant value chu-shogi",
        "setoption name VariantOptions value stalemate=draw",
        "setoption name Skill Level value 7",
    ] {
        uci.handle(line);
    }
    let (tx, _rx) = channel();
    let mut xboard = kamil_cli::xboard::Session::new(sink(), tx);
    for line in [
        "variant chu",
        "option chu-shogi stalemate=draw",
        "option Skill Level=7",
    ] {
        xboard.handle(line);
    }
    let opts = [("stalemate".to_string(), "draw".to_string())];
    let v = Arc::new(Variant::builtin("chu-shogi", &opts).unwrap());
    let mut server = kamil_cli::serve::engine_core(&v, 7);
    let mut served = fresh();
    server.apply(&mut served);

    let want = game(&server);
    assert_eq!(want.0, "chu-shogi");
    let draw = ("stalemate".to_string(), "draw".to_string());
    assert!(want.1.contains(&draw), "{want:?}");
    assert_eq!(game(uci.core()), want);
    assert_eq!(game(xboard.core()), want);
    assert_eq!(game(&server), want);
    let by_uci = configured(&uci.engine().lock().unwrap());
    let by_xboard = configured(&xboard.engine().lock().unwrap());
    assert_eq!(by_uci, ("builtin".to_string(), Skill::new(7)));
    assert_eq!(by_xboard, by_uci);
    assert_eq!(configured(&served), by_uci);

    // `Use NNUE` off: the hand-written evaluation in both protocols.
    uci.handle("setoption name Use NNUE value false");
    xboard.handle("option Use NNUE=0");
    let by_uci = configured(&uci.engine().lock().unwrap());
    assert_eq!(by_uci.0, "hand");
    assert_eq!(configured(&xboard.engine().lock().unwrap()), by_uci);
}

/// A variant file with a weights file beside it (`mine.eval.toml`): UCI,
/// `kamil play`'s settings and a new core all search with its weights,
/// with `Use NNUE` on (the file's default) and off (the hand-written
/// evaluation, still with its weights).
#[test]
fn a_variant_files_weights_are_used_by_every_front_end() {
    let dir = std::env::temp_dir().join(format!("kamil-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    std::fs::write(&file, include_str!("../../../variants/courier.toml")).unwrap();
    std::fs::write(dir.join("mine.eval.toml"), "tempo = { mg = 31, eg = 29 }\n").unwrap();
    let path = file.to_str().unwrap();

    let mut uci = kamil_cli::uci::Session::new(sink());
    uci.handle(&format!("setoption name UCI_Variant value {path}"));
    let by_uci = configured(&uci.engine().lock().unwrap());
    assert!(by_uci.0.contains("mg: 31"), "{by_uci:?}");

    let v = load_variant(path, &[]).unwrap();
    let mut play = Core::with_variant(path, v).unwrap();
    let mut engine = fresh();
    play.apply_or_fail(&mut engine).unwrap();
    assert_eq!(configured(&engine), by_uci);
    let mut engine = fresh();
    Core::new(path).unwrap().apply(&mut engine);
    assert_eq!(configured(&engine), by_uci);

    uci.handle("setoption name Use NNUE value false");
    let mut hand = play.clone();
    hand.set_eval_arg(Some(Path::new(HAND)));
    let mut engine = fresh();
    hand.apply_or_fail(&mut engine).unwrap();
    assert_eq!(
        configured(&engine),
        configured(&uci.engine().lock().unwrap())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A network file that does not fit is a note in a protocol (refused when
/// set: the evaluation that was playing plays on) and an error for a
/// terminal command, naming the file once and its cause once (issue 78).
#[test]
fn a_network_that_does_not_fit_is_a_note_or_an_error() {
    let mut core = Core::new("courier").unwrap();
    match core.set_eval_file(Some(PathBuf::from("no-such-net.nnue"))) {
        Some(EvalNote::Refused(p, _)) => assert_eq!(p, PathBuf::from("no-such-net.nnue")),
        other => panic!("{other:?}"),
    }
    assert!(!core.has_eval_file(), "the settings are unchanged");
    let mut engine = fresh();
    assert!(core.apply(&mut engine).is_none());
    assert_eq!(configured(&engine).0, "builtin");
    core.set_eval_arg(Some(Path::new("no-such-net.nnue")));
    let e = core.apply_or_fail(&mut fresh()).unwrap_err();
    let e = format!("{e:#}");
    assert!(
        e.contains("--eval") && e.contains("no-such-net.nnue"),
        "{e}"
    );
    assert_eq!(e.matches("no-such-net.nnue").count(), 1, "{e}");
    assert_eq!(e.matches("No such file").count(), 1, "{e}");
}

/// An alias loads our game with its program's rule options; the level
/// follows `UCI_Elo` on each game's own ladder when strength is limited.
#[test]
fn aliases_and_elo_resolve_in_the_core() {
    let mut core = Core::new("courier").unwrap();
    core.select("shoshogi", vec![]).unwrap();
    assert_eq!(core.game(), "shoshogi");
    assert_eq!(core.variant().name, "sho-shogi");
    assert_eq!(core.variant().option("royal-count"), Some("before-move"));
    assert!(core.select("no-such-game", vec![]).is_err());
    assert_eq!(core.variant().name, "sho-shogi", "kept on an error");
    core.set_limit(true);
    core.set_elo(kamil_engine::skill::elo::elo_range().0);
    assert!(core.strength_per_game());
    assert!(core.skill().weakens());
}
