//! User text as error messages show it: whole when it is short, else its
//! start and its length, so that no message repeats a huge input (a 100 KB
//! FEN pasted by mistake) in full.

use std::borrow::Cow;

/// Longest text shown whole, in characters.
pub const WHOLE: usize = 80;

/// Characters of a longer text that its excerpt keeps.
pub const KEPT: usize = 60;

/// `text` whole if it has at most `WHOLE` characters, else its first
/// `KEPT` characters, `…` and its length:
/// `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 xxxx… (100000 characters)`.
pub fn excerpt(text: &str) -> Cow<'_, str> {
    // Bytes are at least characters: most texts stop here.
    if text.len() <= WHOLE {
        return Cow::Borrowed(text);
    }
    let n = text.chars().count();
    if n <= WHOLE {
        return Cow::Borrowed(text);
    }
    let head: String = text.chars().take(KEPT).collect();
    Cow::Owned(format!("{head}… ({n} characters)"))
}

/// `e` and each of its causes, joined by `: ` (as anyhow's `{:#}`), for a
/// front end that reports a library error as one line (Python, the
/// session core's notes).
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_are_whole_and_long_ones_cut() {
        assert_eq!(excerpt("e2e4"), "e2e4");
        let edge = "é".repeat(WHOLE);
        assert_eq!(excerpt(&edge), edge);
        let long = "ab".repeat(50_000);
        let e = excerpt(&long);
        assert!(e.starts_with(&long[..KEPT]), "{e}");
        assert!(e.ends_with("… (100000 characters)"), "{e}");
        assert!(e.chars().count() < WHOLE + 25, "{e}");
        assert!(excerpt(&"ü".repeat(1000)).ends_with("(1000 characters)"));
    }

    #[test]
    fn an_error_chain_says_each_cause_once_in_order() {
        #[derive(Debug)]
        struct E(&'static str, Option<Box<E>>);
        impl std::fmt::Display for E {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.0)
            }
        }
        impl std::error::Error for E {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                self.1.as_deref().map(|e| e as _)
            }
        }
        let e = E(
            "net file `x`",
            Some(Box::new(E("the file is damaged", None))),
        );
        assert_eq!(super::error_chain(&e), "net file `x`: the file is damaged");
        assert_eq!(super::error_chain(&E("alone", None)), "alone");
    }
}
