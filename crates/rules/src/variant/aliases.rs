//! Other programs' names for our built-in games, in one table: what a tool
//! set up for Fairy-Stockfish or a shogi program asks for (`shoshogi`,
//! `chushogi`), and the option choices that make our rules theirs; and
//! XBoard's (and HaChu's) names (`sho`, `chu`, `dai`), which only the
//! XBoard dialect speaks. The UCI session reads the first kind in
//! `UCI_Variant`; the XBoard session and the web server's PGN reader read
//! XBoard's ([`from_xboard_name`]); the match runner offers both to
//! engines that list their variants.

/// Another program's name for one of our games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The other program's name (`shoshogi`).
    pub name: &'static str,
    /// Our built-in game (`sho-shogi`).
    pub ours: &'static str,
    /// Option choices `(name, value)` that give that program's rules where
    /// they differ from our defaults; the user's own choices come after
    /// and win.
    pub options: &'static [(&'static str, &'static str)],
    /// Who uses the name.
    pub used_by: &'static str,
    /// XBoard's name for the game (CECP's `variant NAME`), for the XBoard
    /// dialect alone: a UCI session neither lists nor reads it.
    pub xboard: bool,
}

/// The table. Fairy-Stockfish (`variants()` of its 2022+ builds) has two of
/// our games: `courier`, our name too, and `shoshogi`, whose royal safety
/// counts royals before the move (rules/sho-shogi.md 6.1: a Drunk Elephant
/// promoting to Crown Prince does not answer a check there). lishogi and
/// its library shogiops call Chu Shogi `chushogi`; shogi tools write Dai
/// Shogi `daishogi` likewise. XBoard and HaChu call the three shogi games
/// `sho`, `chu` and `dai`; Courier is `courier` there too.
pub const ALIASES: &[Alias] = &[
    Alias {
        name: "shoshogi",
        ours: "sho-shogi",
        options: &[("royal-count", "before-move")],
        used_by: "Fairy-Stockfish",
        xboard: false,
    },
    Alias {
        name: "chushogi",
        ours: "chu-shogi",
        options: &[],
        used_by: "lishogi, shogiops",
        xboard: false,
    },
    Alias {
        name: "daishogi",
        ours: "dai-shogi",
        options: &[],
        used_by: "shogi tools",
        xboard: false,
    },
    Alias {
        name: "chu",
        ours: "chu-shogi",
        options: &[],
        used_by: "XBoard, HaChu",
        xboard: true,
    },
    Alias {
        name: "dai",
        ours: "dai-shogi",
        options: &[],
        used_by: "XBoard, HaChu",
        xboard: true,
    },
    Alias {
        name: "sho",
        ours: "sho-shogi",
        options: &[],
        used_by: "XBoard, HaChu",
        xboard: true,
    },
];

/// The aliases other than XBoard's: the names a UCI or USI session lists
/// and reads.
pub fn program_aliases() -> impl Iterator<Item = &'static Alias> {
    ALIASES.iter().filter(|a| !a.xboard)
}

/// The alias `name` other than XBoard's (exact, case-insensitive), if it is
/// one.
pub fn alias(name: &str) -> Option<&'static Alias> {
    let n = name.trim();
    program_aliases().find(|a| a.name.eq_ignore_ascii_case(n))
}

/// Other programs' names for our game `ours` (XBoard's left out: see
/// [`xboard_name`]), in the table's order.
pub fn names_of(ours: &str) -> impl Iterator<Item = &'static str> + '_ {
    program_aliases()
        .filter(move |a| a.ours == ours)
        .map(|a| a.name)
}

/// The name XBoard uses for our game `ours`: its alias, else `ours`.
pub fn xboard_name(ours: &str) -> &str {
    ALIASES
        .iter()
        .find(|a| a.xboard && a.ours == ours)
        .map_or(ours, |a| a.name)
}

/// Our built-in game for an XBoard variant name (XBoard's, exact, or
/// ours); `None` for a name of neither.
pub fn from_xboard_name(name: &str) -> Option<&'static str> {
    let n = name.trim();
    ALIASES
        .iter()
        .find(|a| a.xboard && a.name == n)
        .map(|a| a.ours)
        .or_else(|| super::BUILTIN.iter().map(|(b, _)| *b).find(|b| *b == n))
}

/// The option choices to load for `name` with the user's `options`
/// (`KEY=VALUE`): for an alias, its choices first (as `KEY=VALUE`), then the
/// user's, which win; for any other name, the user's alone. Returns our
/// game's name (or `name` unchanged) and the options.
pub fn resolve(name: &str, options: &[String]) -> (String, Vec<String>) {
    match alias(name) {
        Some(a) => {
            let mut all: Vec<String> = a.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            all.extend(options.iter().cloned());
            (a.ours.to_string(), all)
        }
        None => (name.to_string(), options.to_vec()),
    }
}

/// [`resolve`] with the options as `(KEY, VALUE)` pairs, as
/// [`crate::Variant::builtin`] takes them (Python, WebAssembly).
pub fn resolve_pairs(name: &str, options: &[(String, String)]) -> (String, Vec<(String, String)>) {
    match alias(name) {
        Some(a) => {
            let mut all: Vec<(String, String)> = a
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            all.extend(options.iter().cloned());
            (a.ours.to_string(), all)
        }
        None => (name.to_string(), options.to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{BUILTIN, Variant};

    #[test]
    fn every_alias_names_a_builtin_game_with_options_it_offers() {
        for a in ALIASES {
            assert!(BUILTIN.iter().any(|(n, _)| *n == a.ours), "{a:?}");
            assert!(!BUILTIN.iter().any(|(n, _)| *n == a.name), "{a:?}");
            let opts: Vec<(String, String)> = a
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let v = Variant::builtin(a.ours, &opts).unwrap();
            for (k, val) in a.options {
                assert_eq!(v.option(k), Some(*val), "{a:?}");
            }
        }
    }

    #[test]
    fn resolving_puts_the_users_options_last() {
        let (ours, opts) = resolve("ShoShogi", &["stalemate=draw".to_string()]);
        assert_eq!(ours, "sho-shogi");
        assert_eq!(opts, ["royal-count=before-move", "stalemate=draw"]);
        let (ours, opts) = resolve("courier", &[]);
        assert_eq!(ours, "courier");
        assert!(opts.is_empty());
        assert_eq!(names_of("sho-shogi").collect::<Vec<_>>(), ["shoshogi"]);
        assert_eq!(names_of("courier").count(), 0);
        // XBoard's names are the XBoard dialect's alone.
        assert_eq!(resolve("chu", &[]).0, "chu");
        // The same with pairs: the alias's choices first, the user's after.
        let user = [("stalemate".to_string(), "loss".to_string())];
        let (ours, opts) = resolve_pairs("ShoShogi", &user);
        let (_, strings) = resolve("ShoShogi", &["stalemate=loss".to_string()]);
        assert_eq!(ours, "sho-shogi");
        let joined: Vec<String> = opts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(joined, strings);
        assert_eq!(opts.last(), Some(&user[0]));
        assert_eq!(
            resolve_pairs("courier", &user),
            ("courier".to_string(), user.to_vec())
        );
        assert!(program_aliases().all(|a| !a.xboard));
    }

    #[test]
    fn xboard_names_both_ways() {
        assert_eq!(xboard_name("chu-shogi"), "chu");
        assert_eq!(xboard_name("courier-modern"), "courier-modern");
        assert_eq!(from_xboard_name("chu"), Some("chu-shogi"));
        assert_eq!(from_xboard_name(" dai "), Some("dai-shogi"));
        assert_eq!(from_xboard_name("chu-shogi"), Some("chu-shogi"));
        assert_eq!(from_xboard_name("normal"), None);
        for a in ALIASES.iter().filter(|a| a.xboard) {
            assert_eq!(from_xboard_name(xboard_name(a.ours)), Some(a.ours));
        }
    }
}
