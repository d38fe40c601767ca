//! Every option of every built-in game speaks the player's language
//! (issue 80): a label and a one-line summary in plain words, and a name
//! for each value, while the key, the source and the rule book section
//! stay in the description (the details).

use kamil_rules::variant::{BUILTIN, Variant};

/// Whether `text` cites a source the way the descriptions do: a seed, a
/// rule book section `(6.4`, an ambiguity `A5`, a backticked key.
fn jargon(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    if lower.contains("seed") {
        return Some("a seed");
    }
    if text.contains('`') {
        return Some("a backticked key");
    }
    let b = text.as_bytes();
    for i in 0..b.len() {
        let next_digit = b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if b[i] == b'(' && next_digit {
            return Some("a section number");
        }
        let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if word_start && b[i] == b'A' && next_digit {
            return Some("an ambiguity number");
        }
    }
    None
}

#[test]
fn every_built_in_option_has_a_label_a_summary_and_value_names_in_plain_words() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name, &[]).expect("a built-in game");
        let keys: Vec<&str> = v.options.iter().map(|o| o.name.as_str()).collect();
        for o in &v.options {
            checked += 1;
            let at = format!("{name}: option {}", o.name);
            if o.label == o.name {
                bad.push(format!("{at}: no label"));
            }
            if o.summary == o.description || o.summary.is_empty() {
                bad.push(format!("{at}: no summary"));
            }
            for (what, text) in [("label", &o.label), ("summary", &o.summary)] {
                if let Some(j) = jargon(text) {
                    bad.push(format!("{at}: the {what} has {j}: {text}"));
                }
                if let Some(k) = keys
                    .iter()
                    .find(|k| k.contains(['-', '.']) && text.contains(*k))
                {
                    bad.push(format!("{at}: the {what} names the key {k}"));
                }
            }
            assert_eq!(o.values.len(), o.value_labels.len(), "{at}");
            for (value, label) in o.values.iter().zip(&o.value_labels) {
                if label.is_empty() || jargon(label).is_some() {
                    bad.push(format!("{at}: value {value} is shown as `{label}`"));
                }
                if value == "seed" && label == value {
                    bad.push(format!("{at}: value {value} has no label"));
                }
            }
        }
    }
    assert!(checked > 60, "only {checked} options found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The check above can fail: each kind of jargon is seen.
#[test]
fn the_jargon_check_finds_seeds_sections_ambiguities_and_keys() {
    assert_eq!(jargon("Seed 000's arrangement"), Some("a seed"));
    assert_eq!(jargon("Result (6.5, A12)."), Some("a section number"));
    assert_eq!(jargon("HaChu (A11)."), Some("an ambiguity number"));
    assert_eq!(jargon("as in A11."), Some("an ambiguity number"));
    assert_eq!(jargon("`fourfold` or not"), Some("a backticked key"));
    assert_eq!(jargon("A King on e10 (the 2020 array)."), None);
}

/// A user's variant file may leave labels out (the key and the description
/// stand in), and a label for a value the option has not is an error
/// naming it.
#[test]
fn labels_are_optional_and_a_label_for_no_value_is_refused() {
    let file = |labels: &str| {
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
[options.draw-rule]
description = "Whether stalemate draws (A1)."
default = "false"
{labels}
[options.draw-rule.values.false]
[options.draw-rule.values.true]
rules.stalemate = "draw"
"#
        )
    };
    let v = Variant::from_toml("mini.toml", &file(""), &[]).expect("no labels is fine");
    let o = &v.options[0];
    assert_eq!(o.label, "draw-rule");
    assert_eq!(o.summary, "Whether stalemate draws (A1).");
    assert_eq!(o.value_labels, ["no", "yes"]);
    assert_eq!(o.value_label("true"), "yes");

    let v = Variant::from_toml(
        "mini.toml",
        &file("label = \"Stalemate draws\"\nlabels = { true = \"it draws\" }"),
        &[],
    )
    .expect("labels");
    assert_eq!(v.options[0].label, "Stalemate draws");
    assert_eq!(v.options[0].value_labels, ["no", "it draws"]);

    let e = Variant::from_toml("mini.toml", &file("labels = { maybe = \"?\" }"), &[])
        .expect_err("no value maybe");
    assert_eq!(
        e.key.as_deref(),
        Some("options.draw-rule.labels.maybe"),
        "{e}"
    );
    assert!(
        e.to_string().contains("not a value of option `draw-rule`"),
        "{e}"
    );
}
