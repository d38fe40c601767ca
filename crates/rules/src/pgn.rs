//! Game records as PGN text, with a `Variant` tag and, when the game did not
//! begin at the variant's start, `SetUp` and `FEN` tags. Moves are written
//! in kamil's coordinate notation ([`crate::notation::move_text`]).
//! [`read`] takes such a record apart again: tags and move texts, which the
//! caller checks against a variant with [`crate::notation::parse_move`].

use crate::moves::Move;
use crate::notation::move_text;
use crate::outcome::{Outcome, Scoring};
use crate::piece::Side;
use crate::position::Position;

/// A game to write: where it began, the moves, the result and extra tags.
#[derive(Clone, Debug)]
pub struct GameRecord<'a> {
    /// The position the game began from (its variant names the game).
    pub start: &'a Position,
    /// The moves played from `start`, in order.
    pub moves: &'a [Move],
    /// Tags other than `Variant`, `SetUp`, `FEN` and `Result`, in order
    /// (`Event`, `White`, `Black`...). The seven-tag roster is completed
    /// with `?` for any missing.
    pub tags: &'a [(String, String)],
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// Why the game ended, as a comment after the last move (`checkmate`,
    /// `illegal move e2e5 by fairymax`), if known.
    pub termination: Option<&'a str>,
}

/// Escapes a tag value: PGN tag strings quote `"` and `\` with a backslash.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Comments cannot contain `}`; `{` goes too, for symmetry.
fn comment(s: &str) -> String {
    s.replace('{', "(").replace('}', ")")
}

/// Tags that record a result in points, to add to [`GameRecord::tags`]:
/// `DynamicScore` (`56-44`) for shared points, as rules/ordinary-variant.md
/// 7.3 asks, or `Points` (`7-6.5`) for points that decide the game, then
/// `Termination` with the reason (`bare king`). Empty for other results.
pub fn outcome_tags(o: &Outcome) -> Vec<(String, String)> {
    let Outcome::Points {
        points,
        scoring,
        reason,
        ..
    } = o
    else {
        return Vec::new();
    };
    let name = match scoring {
        Scoring::Shared => "DynamicScore",
        Scoring::Decisive => "Points",
    };
    vec![
        (name.to_string(), points.to_string()),
        ("Termination".to_string(), reason.to_string()),
    ]
}

/// What a reviewer adds after one move: a NAG (`$2` for `?`, `$4` for
/// `??`, `$6` for `?!`, ...) and a comment (`{+0.35/12}`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Numeric annotation glyph, written `$N` after the move.
    pub nag: Option<u8>,
    /// Comment after the move (and its NAG); `{` and `}` in it become `(`
    /// and `)`.
    pub comment: Option<String>,
}

/// The PGN text of `game`, ending with a blank line.
pub fn write(game: &GameRecord) -> String {
    write_annotated(game, &[])
}

/// The PGN text of `game` with `notes[i]` after its move `i` (0-based;
/// moves beyond `notes` get none), ending with a blank line. After a
/// comment, the second player's move is numbered again (`12...`).
pub fn write_annotated(game: &GameRecord, notes: &[Annotation]) -> String {
    let v = game.start.variant();
    let mut out = String::new();
    let roster = ["Event", "Site", "Date", "Round", "White", "Black"];
    for name in roster {
        let value = game
            .tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or("?");
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push_str(&format!("[Result \"{}\"]\n", escape(game.result)));
    out.push_str(&format!("[Variant \"{}\"]\n", escape(&v.name)));
    let non_default: Vec<String> = v
        .chosen
        .iter()
        .filter(|(k, val)| v.options.iter().any(|o| &o.name == k && &o.default != val))
        .map(|(k, val)| format!("{k}={val}"))
        .collect();
    if !non_default.is_empty() {
        out.push_str(&format!(
            "[VariantOptions \"{}\"]\n",
            escape(&non_default.join(" "))
        ));
    }
    let fen = game.start.fen();
    let start_fen = Position::start(v.clone()).fen();
    if fen != start_fen || game.start.depth() > 0 {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", escape(&fen)));
    }
    for (k, val) in game.tags {
        if roster.contains(&k.as_str())
            || ["Result", "Variant", "VariantOptions", "SetUp", "FEN"].contains(&k.as_str())
        {
            continue;
        }
        out.push_str(&format!("[{k} \"{}\"]\n", escape(val)));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut number = game.start.fullmove().max(1);
    let mut side = game.start.side();
    if side == Side::Second && !game.moves.is_empty() {
        tokens.push(format!("{number}..."));
    }
    let mut after_comment = false;
    for (i, &m) in game.moves.iter().enumerate() {
        if side == Side::First {
            tokens.push(format!("{number}."));
        } else if after_comment {
            tokens.push(format!("{number}..."));
        }
        tokens.push(move_text(v, m));
        after_comment = false;
        if let Some(note) = notes.get(i) {
            if let Some(n) = note.nag {
                tokens.push(format!("${n}"));
            }
            if let Some(c) = &note.comment {
                tokens.push(format!("{{{}}}", comment(c)));
                after_comment = true;
            }
        }
        if side == Side::Second {
            number += 1;
        }
        side = side.flip();
    }
    if let Some(t) = game.termination {
        tokens.push(format!("{{{}}}", comment(t)));
    }
    tokens.push(game.result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A game record read from PGN text: its tags and its moves as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in the order given, `(name, value)`, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The main line's move texts, in order (numbers, comments, variations,
    /// NAGs and `!`/`?` marks removed).
    pub moves: Vec<String>,
    /// The game-termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), if given.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// PGN text that could not be read: the line and what is wrong there.
///
/// Displayed as `PGN line N: ` and then the kind's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("PGN line {line}: {kind}")]
pub struct PgnError {
    /// 1-based line of the problem.
    pub line: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl PgnError {
    /// What is wrong, as the text after the line number.
    pub fn what(&self) -> String {
        self.kind.to_string()
    }
}

/// What is wrong with PGN text. Move texts are not checked by [`read`]: an
/// illegal move shows up as a [`crate::notation::MoveError`] when the caller
/// plays the moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A tag pair whose line does not end in `]`.
    #[error("tag pair without a closing `]`")]
    UnclosedTag,
    /// A tag pair with a name only.
    #[error("tag pair without a value")]
    NoTagValue,
    /// A tag value not in double quotes (or a quote never closed).
    #[error("tag `{tag}`: value not in quotes")]
    UnquotedValue {
        /// The tag's name.
        tag: String,
    },
    /// A `{` comment without its `}`.
    #[error("comment `{{` never closed")]
    UnclosedComment,
    /// A `(` variation without its `)`.
    #[error("variation `(` never closed")]
    UnclosedVariation,
    /// Text with neither tags nor moves nor a result.
    #[error("no tags and no moves")]
    Empty,
}

/// Reads the first game of PGN `text`: tag pairs, then movetext up to the
/// termination marker or the next tag section. The moves are not checked
/// against any rules here. A leading byte-order mark is skipped.
///
/// Errors: a malformed tag pair, an unclosed comment, variation or tag
/// string, or text with neither tags nor moves; see [`PgnErrorKind`].
pub fn read(text: &str) -> Result<PgnGame, PgnError> {
    // Windows editors start a file with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut game = PgnGame::default();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut line = 1;
    let err = |line: usize, kind: PgnErrorKind| PgnError { line, kind };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '[' => {
                if !game.moves.is_empty() || game.result.is_some() {
                    break; // the next game's tags
                }
                let start_line = line;
                let end = (i..chars.len())
                    .find(|&j| chars[j] == '\n')
                    .unwrap_or(chars.len());
                let pair: String = chars[i + 1..end].iter().collect();
                let pair = pair.trim_end();
                let Some(body) = pair.strip_suffix(']') else {
                    return Err(err(start_line, PgnErrorKind::UnclosedTag));
                };
                let (name, value) = body
                    .trim()
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| err(start_line, PgnErrorKind::NoTagValue))?;
                let value = value.trim();
                let Some(quoted) = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .filter(|_| value.len() >= 2)
                else {
                    let tag = name.to_string();
                    return Err(err(start_line, PgnErrorKind::UnquotedValue { tag }));
                };
                let mut v = String::new();
                let mut esc = false;
                for ch in quoted.chars() {
                    if esc || ch != '\\' {
                        v.push(ch);
                        esc = false;
                    } else {
                        esc = true;
                    }
                }
                game.tags.push((name.to_string(), v));
                i = end;
            }
            '{' => {
                let start_line = line;
                let Some(end) = (i..chars.len()).find(|&j| chars[j] == '}') else {
                    return Err(err(start_line, PgnErrorKind::UnclosedComment));
                };
                line += chars[i..end].iter().filter(|&&c| c == '\n').count();
                i = end + 1;
            }
            ';' | '%' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '(' => {
                let start_line = line;
                let mut depth = 0;
                loop {
                    let Some(&ch) = chars.get(i) else {
                        return Err(err(start_line, PgnErrorKind::UnclosedVariation));
                    };
                    match ch {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        '\n' => line += 1,
                        '{' => {
                            let Some(end) = (i..chars.len()).find(|&j| chars[j] == '}') else {
                                return Err(err(start_line, PgnErrorKind::UnclosedComment));
                            };
                            line += chars[i..end].iter().filter(|&&c| c == '\n').count();
                            i = end;
                        }
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                let start = i;
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && !matches!(chars[i], '{' | '(' | ')' | '[' | ';')
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                if word == ")" || i == start {
                    i += 1;
                    continue;
                }
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word.as_str()) {
                    game.result = Some(word);
                    continue;
                }
                if word.starts_with('$') {
                    continue;
                }
                // `12.`, `12...`, or a number glued to its move (`12.e4`).
                let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
                let rest = if rest.len() < word.len() && rest.starts_with('.') {
                    rest.trim_start_matches('.')
                } else {
                    word.as_str()
                };
                let mv = rest.trim_end_matches(['!', '?', '#']);
                if !mv.is_empty() {
                    game.moves.push(mv.to_string());
                }
            }
        }
    }
    if game.tags.is_empty() && game.moves.is_empty() && game.result.is_none() {
        return Err(err(1, PgnErrorKind::Empty));
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::variant::Variant;
    use std::sync::Arc;

    fn first_moves(pos: &mut Position, n: usize) -> Vec<Move> {
        let mut played = Vec::new();
        for _ in 0..n {
            let mut ms = Vec::new();
            legal_moves(pos, &mut ms);
            ms.sort_by_key(|m| (m.from, m.to));
            pos.make(ms[0]);
            played.push(ms[0]);
        }
        played
    }

    #[test]
    fn start_game_has_variant_tag_and_no_fen() {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let start = Position::start(v.clone());
        let mut pos = start.clone();
        let moves = first_moves(&mut pos, 3);
        let tags = vec![("White".to_string(), "kamil \"x\"".to_string())];
        let text = write(&GameRecord {
            start: &start,
            moves: &moves,
            tags: &tags,
            result: "*",
            termination: Some("stopped {by user}"),
        });
        assert!(text.contains("[Variant \"courier\"]\n"), "{text}");
        assert!(text.contains("[White \"kamil \\\"x\\\"\"]\n"), "{text}");
        assert!(text.contains("[Black \"?\"]\n"));
        assert!(!text.contains("[FEN"));
        let first = move_text(&v, moves[0]);
        assert!(text.contains(&format!("1. {first} ")), "{text}");
        assert!(text.contains("{stopped (by user)} *"), "{text}");
    }

    #[test]
    fn annotations_follow_their_moves_and_read_back_as_the_same_moves() {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let start = Position::start(v.clone());
        let mut pos = start.clone();
        let moves = first_moves(&mut pos, 3);
        let notes = vec![
            Annotation::default(),
            Annotation {
                nag: Some(4),
                comment: Some("-3.10/5 {blunder}".into()),
            },
        ];
        let text = write_annotated(
            &GameRecord {
                start: &start,
                moves: &moves,
                tags: &[],
                result: "*",
                termination: None,
            },
            &notes,
        );
        let [a, b, c] = [0, 1, 2].map(|i| move_text(&v, moves[i]));
        let want = format!("1. {a} {b} $4 {{-3.10/5 (blunder)}} 2. {c} *");
        assert!(text.contains(&want), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.moves, vec![a, b, c]);
        // A comment before the second player's move numbers it again.
        let notes = vec![Annotation {
            nag: None,
            comment: Some("+0.20/4".into()),
        }];
        let text = write_annotated(
            &GameRecord {
                start: &start,
                moves: &moves[..2],
                tags: &[],
                result: "*",
                termination: None,
            },
            &notes,
        );
        let b = move_text(&v, moves[1]);
        assert!(text.contains(&format!("{{+0.20/4}} 1... {b} *")), "{text}");
    }

    #[test]
    fn points_results_carry_their_score() {
        use crate::outcome::{Points, Reason};
        let o = Outcome::Points {
            points: Points::whole(56, 44),
            scoring: Scoring::Shared,
            reason: Reason::BareKing,
            by: Some(Side::First),
        };
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let start = Position::start(v);
        let text = write(&GameRecord {
            start: &start,
            moves: &[],
            tags: &outcome_tags(&o),
            result: o.score(),
            termination: None,
        });
        assert!(text.contains("[Result \"1-0\"]"), "{text}");
        assert!(text.contains("[DynamicScore \"56-44\"]"), "{text}");
        assert!(text.contains("[Termination \"bare king\"]"), "{text}");
        let d = Outcome::Points {
            points: Points {
                first: 14,
                second: 13,
            },
            scoring: Scoring::Decisive,
            reason: Reason::MoveRule,
            by: None,
        };
        assert_eq!(outcome_tags(&d)[0], ("Points".into(), "7-6.5".into()));
        assert!(
            outcome_tags(&Outcome::Draw {
                reason: Reason::Repetition
            })
            .is_empty()
        );
    }

    #[test]
    fn a_game_from_a_later_position_carries_its_fen() {
        let v = Arc::new(Variant::builtin("sho-shogi", &[]).unwrap());
        let mut pos = Position::start(v);
        first_moves(&mut pos, 1);
        let fen = pos.fen();
        let start = Position::from_fen(pos.variant().clone(), &fen).unwrap();
        let text = write(&GameRecord {
            start: &start,
            moves: &[],
            tags: &[],
            result: "1/2-1/2",
            termination: None,
        });
        assert!(text.contains("[SetUp \"1\"]"), "{text}");
        assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    }

    #[test]
    fn read_gives_back_what_write_wrote() {
        let v = Arc::new(Variant::builtin("chu-shogi", &[]).unwrap());
        let start = Position::start(v.clone());
        let mut pos = start.clone();
        let moves = first_moves(&mut pos, 5);
        let tags = vec![("White".to_string(), "a \"quoted\" name".to_string())];
        let text = write(&GameRecord {
            start: &start,
            moves: &moves,
            tags: &tags,
            result: "*",
            termination: Some("stopped"),
        });
        let game = read(&text).unwrap();
        assert_eq!(game.tag("Variant"), Some("chu-shogi"));
        assert_eq!(game.tag("White"), Some("a \"quoted\" name"));
        let texts: Vec<String> = moves.iter().map(|m| move_text(&v, *m)).collect();
        assert_eq!(game.moves, texts);
        assert_eq!(game.result.as_deref(), Some("*"));
    }

    #[test]
    fn read_skips_comments_variations_numbers_and_marks() {
        let text = "[Event \"x\"]\n\n1. e2e4! {best (really)} e7e5 (1... d7d5 {x} 2. e4d5) \
                    2.g1f3 $1 ; a remark\n b8c6?! 3... c6d4 1-0\n\n[Event \"next\"]\n1. a2a3 *";
        let game = read(text).unwrap();
        assert_eq!(game.moves, ["e2e4", "e7e5", "g1f3", "b8c6", "c6d4"]);
        assert_eq!(game.result.as_deref(), Some("1-0"));
        assert_eq!(game.tags.len(), 1);
    }

    #[test]
    fn read_names_the_line_of_a_problem() {
        let e = read("[Event \"x\"]\n\n1. e2e4 {open").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = read("[Event x]\n").unwrap_err();
        let tag = "Event".to_string();
        assert_eq!(e.kind, PgnErrorKind::UnquotedValue { tag }, "{e}");
        assert!(read("  \n ").is_err());
        // Shogi promotion marks stay on the move.
        assert_eq!(read("1. c7c8+ *").unwrap().moves, ["c7c8+"]);
    }
}
