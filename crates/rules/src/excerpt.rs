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
}
