//! A bad choice in a variant file (a value that is none of those a key
//! offers) is reported with the file, the line and the dotted key, whether
//! the file stands alone or extends a built-in variant.

use kamil_rules::variant::{Variant, VariantError};

/// A small variant of its own; `extra` is appended.
fn own(extra: &str) -> String {
    format!(
        r#"name = "mini"
[board]
files = 8
ranks = 8
[fen]
start = "4k3/8/8/8/8/8/8/4K3 w"
[pieces.king]
name = "King"
letter = "K"
betza = "K"
royal = true
{extra}"#
    )
}

fn load(text: &str) -> VariantError {
    Variant::from_toml("mini.toml", text, &[]).expect_err("the file is bad")
}

#[test]
fn a_standalone_file_names_the_key_and_line_of_a_bad_choice() {
    let e = load(&own("[promotion]\nstyle = \"sideways\"\n"));
    assert_eq!(e.key.as_deref(), Some("promotion.style"), "{e}");
    assert_eq!(e.line, Some(13), "{e}");
    assert!(e.what.contains("unknown variant `sideways`"), "{e}");
    assert!(
        e.what.contains("`chess`") && e.what.contains("`shogi`"),
        "{e}"
    );

    let e = load(&own("[rules]\nstalemate = \"maybe\"\n"));
    assert_eq!(e.key.as_deref(), Some("rules.stalemate"), "{e}");
    assert!(e.to_string().contains("key `rules.stalemate`"), "{e}");
}

#[test]
fn a_bad_list_element_is_named_by_its_list() {
    let text = own("").replace("[fen]\n", "[fen]\nfields = [\"castling\", \"nonsense\"]\n");
    let e = load(&text);
    assert_eq!(e.key.as_deref(), Some("fen.fields"), "{e}");
    assert_eq!(e.line, Some(6), "{e}");
    assert!(e.what.contains("unknown variant `nonsense`"), "{e}");
}

#[test]
fn a_file_that_extends_names_the_key_and_line_of_a_bad_choice() {
    let text = "extends = \"chu-shogi\"\nname = \"my-chu\"\n\n[special.lion_trading]\nmode = \"friendly\"\n";
    let e = Variant::from_toml("my-chu.toml", text, &[]).expect_err("the file is bad");
    assert_eq!(e.key.as_deref(), Some("special.lion_trading.mode"), "{e}");
    assert_eq!(e.line, Some(5), "{e}");
    assert!(e.what.contains("unknown variant `friendly`"), "{e}");
    assert!(e.what.contains("`seed`"), "lists the choices: {e}");
}

#[test]
fn the_choices_still_compile_as_before() {
    let v = Variant::builtin("chu-shogi", &[]).unwrap();
    assert!(v.promotion.shogi);
    assert!(v.specials.lion_trading.is_some());
    let v = Variant::builtin("chu-shogi", &[("lion-trading".into(), "off".into())]).unwrap();
    assert!(v.specials.lion_trading.is_none());
    let v = Variant::builtin("courier", &[]).unwrap();
    assert!(!v.promotion.shogi);
}

/// Issue 17: type errors and missing fields in a file that extends another
/// lost the line and the key.
#[test]
fn a_file_that_extends_names_the_key_and_line_of_a_type_error() {
    let load_as =
        |text: &str| Variant::from_toml("mine.toml", text, &[]).expect_err("the file is bad");
    let e = load_as("extends = \"courier\"\nname = \"x\"\n[board]\nfiles = -1\n");
    assert_eq!(e.key.as_deref(), Some("board.files"), "{e}");
    assert_eq!(e.line, Some(4), "{e}");
    assert!(e.what.contains("-1") && e.what.contains("u32"), "{e}");
    let text =
        "extends = \"courier\"\nname = \"y\"\n\n[special.checker]\nduty_first_capture = true\n";
    let e = load_as(text);
    assert_eq!(e.key.as_deref(), Some("special.checker"), "{e}");
    assert_eq!(e.line, Some(4), "{e}");
    assert_eq!(e.what, "missing field `piece`", "{e}");
    assert_eq!(
        e.to_string(),
        "mine.toml:4: key `special.checker`: missing field `piece`"
    );
}
