//! `kamil.Position`: a position of any variant, changed by `push` / `pop`,
//! asked for its legal moves, check, outcome, perft, board and FEN; and
//! `kamil.Outcome`, the result of a finished game.

use crate::errors::{any_move_error, position_error};
use crate::variants::{self, Options, Source};
use kamil_rules::board_text::{self, Style};
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::movegen::in_check;
use kamil_rules::notation::move_text;
use kamil_rules::outcome::{Outcome, checkmate, ended_by_rule, stalemate};
use kamil_rules::perft::perft;
use kamil_rules::{Move, Piece, Position, Variant};
use kamil_rules::{sfen, usi};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::Arc;

/// The result of a finished game (`Position.outcome()`).
#[pyclass(module = "kamil", name = "Outcome", frozen)]
#[derive(Clone, Debug)]
pub struct PyOutcome {
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"` (a points result: who has more).
    #[pyo3(get)]
    pub result: String,
    /// The winner: 0 (the first player), 1 (the second), or None for a
    /// draw or level points.
    #[pyo3(get)]
    pub winner: Option<u8>,
    /// Why the game ended: `"checkmate"`, `"stalemate"`, `"royals
    /// captured"`, `"bare king"`, `"repetition"`, `"move-count rule"`, ...
    #[pyo3(get)]
    pub reason: String,
    /// For a game scored in points, the two players' points (first,
    /// second) as floats (halves possible); None otherwise.
    #[pyo3(get)]
    pub points: Option<(f64, f64)>,
    /// The whole result as the command line writes it (`1-0 checkmate`).
    #[pyo3(get)]
    pub text: String,
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        format!("<kamil.Outcome {}>", self.text)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyOutcome>()
            .is_ok_and(|o| o.get().text == self.text)
    }
}

impl PyOutcome {
    /// The Python form of a rules-library outcome.
    pub fn of(o: &Outcome) -> PyOutcome {
        PyOutcome {
            result: o.score().to_string(),
            winner: o.winner().map(|s| s.index() as u8),
            reason: o.reason().to_string(),
            points: o
                .points()
                .map(|p| (p.first as f64 / 2.0, p.second as f64 / 2.0)),
            text: o.to_string(),
        }
    }
}

/// A position of a variant: board, side to move, rule state and the moves
/// pushed since it was set up (for `pop` and the repetition rules).
///
/// `Position(variant, fen=None, options=None)`: `variant` is a built-in
/// name (`kamil.variants()`) or a variant file's path (str ending in
/// `.toml` or holding `/`, or an `os.PathLike`); `fen` a FEN of that game
/// (None: the start position), in the shogi games also an SFEN; `options`
/// a dict of the variant's options (`{"albers-castling": True}`).
///
/// Errors: `VariantError` (unknown variant, bad option, unreadable or
/// invalid file), `FenError` (a FEN the game cannot read), `TypeError`.
#[pyclass(module = "kamil", name = "Position")]
#[derive(Clone)]
pub struct PyPosition {
    /// The position.
    pub pos: Position,
    source: Source,
    options: Options,
    start_fen: String,
}

impl PyPosition {
    /// A position of `source` with `options` from `fen` (None: the start).
    pub fn build(source: Source, options: Options, fen: Option<&str>) -> PyResult<PyPosition> {
        let v = variants::load(&source, &options)?;
        let pos = match fen {
            Some(f) => sfen::read_position(v, f).map_err(|e| position_error(f, &e))?,
            None => Position::start(v),
        };
        // An SFEN is kept as such: it holds what a FEN does not (Chu's
        // counter-strike square, the move number), and pickling replays it.
        let start_fen = match fen {
            Some(f) if sfen::looks_like_sfen(pos.variant(), f) => pos.sfen().unwrap_or(pos.fen()),
            _ => pos.fen(),
        };
        Ok(PyPosition {
            pos,
            source,
            options,
            start_fen,
        })
    }

    /// The variant.
    pub fn variant(&self) -> &Arc<Variant> {
        self.pos.variant()
    }

    /// `text` read as a legal move of the position: kamil's notation, and
    /// in the shogi games also USI (`7g7f`), as pyffish reads UCI's.
    ///
    /// Errors: `MoveError` (malformed, no piece, not legal).
    pub fn parse(&mut self, text: &str) -> PyResult<Move> {
        read_move(&mut self.pos, text, Accept::Only(Notation::Kamil))
            .map(|(m, _)| m)
            .map_err(|e| any_move_error(&e))
    }

    /// Plays `text`, which must be legal.
    ///
    /// Errors: `MoveError`.
    pub fn push_text(&mut self, text: &str) -> PyResult<()> {
        let m = self.parse(text)?;
        self.pos.make(m);
        Ok(())
    }
}

/// A piece's token, upper case for the first player.
fn token(v: &Variant, p: Piece) -> String {
    v.token(p)
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (variant, fen=None, options=None))]
    fn new(
        variant: &Bound<'_, PyAny>,
        fen: Option<&str>,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPosition> {
        let source = variants::source_of(variant)?;
        let options = variants::options_of(options)?;
        PyPosition::build(source, options, fen)
    }

    /// The variant's name (`"courier"`; a file's own `name`).
    #[getter]
    fn variant_name(&self) -> String {
        self.variant().name.clone()
    }

    /// The options chosen, as a dict of option names to value texts.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.options {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// Files (columns) of the board.
    #[getter]
    fn files(&self) -> u8 {
        self.variant().geometry.files()
    }

    /// Ranks (rows) of the board.
    #[getter]
    fn ranks(&self) -> u8 {
        self.variant().geometry.ranks()
    }

    /// The piece types' FEN tokens (the first player's form), index =
    /// piece type number (as in `kamil.arrays`' planes and move
    /// encodings).
    #[getter]
    fn piece_types(&self) -> Vec<String> {
        self.variant()
            .pieces
            .iter()
            .map(|p| p.token.clone())
            .collect()
    }

    /// The side to move: 0 for the first player (upper-case pieces), 1 for
    /// the second.
    #[getter]
    fn turn(&self) -> u8 {
        self.pos.side().index() as u8
    }

    /// The FEN the position was set up from (before the moves pushed); the
    /// SFEN, as kamil writes it, when it was set up from one.
    #[getter]
    fn start_fen(&self) -> String {
        self.start_fen.clone()
    }

    /// The moves pushed since the position was set up, oldest first, in
    /// kamil's notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        let v = self.variant();
        self.pos.moves_played().map(|m| move_text(v, m)).collect()
    }

    /// The position's Zobrist hash (an int below 2**64): equal positions
    /// (board, side, rule state) have equal keys.
    #[getter]
    fn key(&self) -> u64 {
        self.pos.hash()
    }

    /// The position's FEN.
    fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The legal moves, in kamil's notation (`a1a2`, `b10c12`, `e3e4+`,
    /// `f5g6f7` for a two-step move), or with `usi=True` in USI (`7g7f`,
    /// `8c7b6a`; the shogi games only), in generation order (sort them to
    /// compare with `kamil moves`). Empty once the game has ended by a rule
    /// of the board (royals captured, bare king, ...); after mate,
    /// stalemate or repetition ask `outcome()` first.
    ///
    /// Errors: `ValueError` for `usi=True` in a game without USI.
    #[pyo3(signature = (usi = false))]
    fn legal_moves(&mut self, usi: bool) -> PyResult<Vec<String>> {
        if usi && !sfen::has_sfen(self.pos.variant()) {
            return Err(PyValueError::new_err(format!(
                "{} has no USI move text (the shogi games have)",
                self.pos.variant().name
            )));
        }
        let moves = self.pos.legal_moves();
        let v = self.pos.variant();
        let text = if usi { usi::move_text } else { move_text };
        Ok(moves.iter().map(|&m| text(v, m)).collect())
    }

    /// The position's SFEN (`... b - 1`; Chu Shogi's third field is the
    /// square of the last Lion capture), or None in a game without SFEN
    /// (only Sho, Chu and Dai Shogi have one).
    fn sfen(&self) -> Option<String> {
        self.pos.sfen()
    }

    /// The number of legal moves (faster than `len(legal_moves())`).
    fn count_legal(&mut self) -> u64 {
        self.pos.count_legal()
    }

    /// Is `move` (text, kamil's, Fairy-Stockfish's or XBoard's form) legal
    /// here? False for text that is not a move; never raises for text.
    fn is_legal(&mut self, r#move: &str) -> bool {
        self.parse(r#move).is_ok()
    }

    /// Plays `move` (text, as `is_legal` takes it).
    ///
    /// Errors: `MoveError` when it is malformed or not legal (the message
    /// lists the legal moves of the piece); the position is unchanged.
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        self.push_text(r#move)
    }

    /// Takes back the last move pushed and returns its text.
    ///
    /// Errors: `IndexError` when no move was pushed since the position was
    /// set up.
    fn pop(&mut self) -> PyResult<String> {
        let Some(m) = self.pos.last_move() else {
            return Err(PyIndexError::new_err(
                "pop from a position with no moves pushed",
            ));
        };
        self.pos.unmake();
        Ok(move_text(self.pos.variant(), m))
    }

    /// The result if the game has ended here (mate, stalemate, royals
    /// captured, bare king, repetition, move-count rule, points...), else
    /// None.
    fn outcome(&mut self) -> Option<PyOutcome> {
        self.pos.outcome().map(|o| PyOutcome::of(&o))
    }

    /// The result if the game has ended by a rule of the board alone
    /// (royals captured, bare king, citadel entered, ...: the endings
    /// after which no move is legal), else None. Mate, stalemate and
    /// repetition are not among them: see `outcome()`.
    fn rule_outcome(&self) -> Option<PyOutcome> {
        ended_by_rule(&self.pos).map(|o| PyOutcome::of(&o))
    }

    /// The result the variant gives when the side to move has no legal
    /// move: its checkmate result when its only royal is in check (in a
    /// variant with royal safety), its stalemate result otherwise (for
    /// `kamil.pyffish.game_result`).
    #[pyo3(name = "_no_move_outcome")]
    fn no_move_outcome(&self) -> PyOutcome {
        let v = self.pos.variant();
        let side = self.pos.side();
        let o = if v.rules.royal_safety
            && self.pos.royals(side).len() == 1
            && in_check(&self.pos, side)
        {
            checkmate(v, side)
        } else {
            stalemate(v, side)
        };
        PyOutcome::of(&o)
    }

    /// Is a royal piece of the side to move attacked?
    fn is_check(&self) -> bool {
        in_check(&self.pos, self.pos.side())
    }

    /// The number of leaves of the legal move tree `depth` plies deep
    /// (`kamil perft`). Runs without the GIL.
    fn perft(&mut self, py: Python<'_>, depth: u32) -> u64 {
        let pos = &mut self.pos;
        py.detach(move || perft(pos, depth))
    }

    /// The pieces on the board: a dict of square names (`"a1"`, `"b10"`)
    /// to piece tokens (upper case: the first player's; `"+P"` for a
    /// promoted piece), from the top rank down, files left to right; empty
    /// squares are left out.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let v = self.variant();
        let g = &v.geometry;
        let d = PyDict::new(py);
        for rank in (0..g.ranks()).rev() {
            for file in 0..g.files() {
                let Some(sq) = g.square(i32::from(file), i32::from(rank)) else {
                    continue;
                };
                let p = self.pos.at(sq);
                if p.is_piece() {
                    d.set_item(g.name(sq).to_string(), token(v, p))?;
                }
            }
        }
        Ok(d)
    }

    /// What `move` (legal text) does: a dict with `"move"` (its text in
    /// kamil's notation), `"piece"` (the mover's token), `"from"` (origin),
    /// `"to"` (the square it ends on), `"captured"` (a list of `(square,
    /// token)` of every piece it removes, in the order removed),
    /// `"promotion"` (the token it promotes to, or None) and `"kind"`
    /// (`"normal"`, `"castle"`, `"en-passant"`, `"checker"`, ...).
    ///
    /// Errors: `MoveError`, as `push`.
    fn move_effects<'py>(&mut self, py: Python<'py>, r#move: &str) -> PyResult<Bound<'py, PyDict>> {
        let m = self.parse(r#move)?;
        let v = self.pos.variant().clone();
        let g = &v.geometry;
        let mover = self.pos.at(m.from);
        let mut captured: Vec<(String, String)> = Vec::new();
        self.pos.for_each_capture(m, |sq, p| {
            captured.push((g.name(sq).to_string(), token(&v, p)));
        });
        let d = PyDict::new(py);
        d.set_item("move", move_text(&v, m))?;
        d.set_item("piece", mover.is_piece().then(|| token(&v, mover)))?;
        d.set_item("from", g.name(m.from).to_string())?;
        d.set_item("to", g.name(m.to).to_string())?;
        d.set_item("captured", captured)?;
        d.set_item(
            "promotion",
            m.promotion()
                .map(|t| token(&v, Piece::new(t, mover.side()))),
        )?;
        d.set_item("kind", m.kind.name())?;
        Ok(d)
    }

    /// A copy (board, rule state and the moves pushed, so `pop` works on
    /// it too).
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    /// Pickling: the variant's source (name, or a file's path and text),
    /// options, the FEN set up from and the moves pushed.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        let restore = py.import("kamil._kamil")?.getattr("_restore_position")?;
        let (kind, name, text) = match &this.source {
            Source::Builtin(n) => ("builtin", n.clone(), None),
            Source::File { path, text } => ("file", path.clone(), Some(text.clone())),
        };
        let args = (
            kind,
            name,
            text,
            this.options.clone(),
            this.start_fen.clone(),
            this.moves(),
        );
        PyTuple::new(py, [restore.into_any(), args.into_pyobject(py)?.into_any()])
    }

    /// The number of moves pushed since the position was set up (what
    /// `pop` can take back).
    #[getter]
    fn ply(&self) -> usize {
        self.pos.depth()
    }

    /// `Position('chu-shogi', fen='...')`: the game and the position, on
    /// one line.
    fn __repr__(&self) -> String {
        format!(
            "Position('{}', fen='{}')",
            self.variant().name,
            self.pos.fen()
        )
    }

    /// The board as `kamil play` draws it (file letters above and below,
    /// rank numbers on both sides, the last move's squares in brackets),
    /// its legend (how the sides are told apart, the pieces' labels and
    /// names), then who moves and the FEN.
    fn __str__(&self) -> String {
        let v = self.variant();
        let board = board_text::render(&self.pos, self.pos.last_move(), Style::default());
        let legend = board_text::legend(v);
        let side = board_text::side_name(v, self.pos.side());
        format!("{board}{legend}{side} to move: {}", self.pos.fen())
    }
}

/// Rebuilds a pickled `Position` (the inverse of `Position.__reduce__`):
/// the source kind (`"builtin"` or `"file"`), the name or path, the file's
/// text, the options, the FEN and the moves to push.
///
/// Errors: those of `Position` and `push`; `ValueError` for another kind.
#[pyfunction]
#[pyo3(name = "_restore_position")]
pub fn restore_position(
    kind: &str,
    name: String,
    text: Option<String>,
    options: Options,
    fen: &str,
    moves: Vec<String>,
) -> PyResult<PyPosition> {
    let source = match (kind, text) {
        ("builtin", _) => Source::Builtin(name),
        ("file", Some(text)) => Source::File { path: name, text },
        _ => return Err(PyValueError::new_err("not a pickled kamil.Position")),
    };
    let mut p = PyPosition::build(source, options, Some(fen))?;
    for m in &moves {
        p.push_text(m)?;
    }
    Ok(p)
}
