//! The rules texts beside the variant files (`variants/*.rules.md`): every
//! built-in variant has one that parses and covers it (a diagram marker
//! for every piece type, every option and its values named), with its
//! default options and with each value of each option; and malformed or
//! incomplete texts are errors naming the file and line.

use kamil_rules::Variant;
use kamil_rules::rules_text::{self, BUILTIN_RULES, Part, REQUIRED_SECTIONS, RulesText};
use kamil_rules::variant::BUILTIN;

#[test]
fn every_builtin_variant_has_rules_that_cover_its_pieces_and_options() {
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name, &[]).unwrap();
        let rules = rules_text::builtin(&v).unwrap_or_else(|e| panic!("{name}: {e}"));
        for want in REQUIRED_SECTIONS {
            assert!(
                rules
                    .sections
                    .iter()
                    .any(|s| s.level == 2 && s.title == want),
                "{name}: no `## {want}`"
            );
        }
        let diagrams: Vec<&str> = rules
            .sections
            .iter()
            .flat_map(|s| &s.parts)
            .filter_map(|p| match p {
                Part::Diagram { key, .. } => Some(key.as_str()),
                Part::Text(_) => None,
            })
            .collect();
        assert_eq!(
            diagrams.len(),
            v.pieces.len(),
            "{name}: one diagram per piece"
        );
        for p in &v.pieces {
            assert!(diagrams.contains(&p.key.as_str()), "{name}: {}", p.key);
        }
        // Each option's values, one at a time: the pieces an option brings
        // are covered too.
        for o in &v.options {
            for val in &o.values {
                let opts = [(o.name.clone(), val.clone())];
                let w = Variant::builtin(name, &opts).unwrap();
                rules_text::builtin(&w).unwrap_or_else(|e| panic!("{name} {}={val}: {e}", o.name));
            }
        }
    }
    assert_eq!(BUILTIN_RULES.len(), BUILTIN.len());
}

#[test]
fn a_shared_file_keeps_only_the_sections_of_the_variant() {
    let modern = Variant::builtin("courier-modern", &[]).unwrap();
    let historic = Variant::builtin("courier", &[]).unwrap();
    let titles = |v: &Variant| -> Vec<String> {
        rules_text::builtin(v)
            .unwrap()
            .sections
            .iter()
            .map(|s| s.title.clone())
            .collect()
    };
    assert!(
        titles(&modern)
            .iter()
            .any(|t| t == "Only in courier-modern: its options")
    );
    assert!(!titles(&historic).iter().any(|t| t.starts_with("Only in")));
}

const GOOD: &str = "# T\n\n## Board and setup\n\nA board.\n\n## Pieces\n\n### King\n\n[diagram: king]\n\nSteps.\n\n## Promotion\n\n## Special rules\n\n## End of the game\n\n## Options\n\n## Sources\n";

#[test]
fn structure_errors_name_the_file_and_line() {
    let ok = RulesText::parse("t.rules.md", GOOD).unwrap();
    assert_eq!(ok.title, "T");
    let pieces = ok.sections.iter().find(|s| s.title == "King").unwrap();
    assert_eq!(pieces.line, 9);
    assert_eq!(
        pieces.parts[0],
        Part::Diagram {
            key: "king".into(),
            line: 11
        }
    );
    let cases: &[(&str, &str)] = &[
        (
            &GOOD.replace("# T\n", "Intro.\n\n# T\n"),
            "t.rules.md:1: text before the `#` title",
        ),
        (
            &GOOD.replace("## Sources\n", "## Sources\n\n# Again\n"),
            "t.rules.md:25: a second `#` title",
        ),
        (
            &GOOD.replace("## Promotion\n", ""),
            "t.rules.md: no `## Promotion` section",
        ),
        (
            &GOOD.replace("## Sources\n", "## Sources\n\n## Pieces\n"),
            "t.rules.md:25: a second `## Pieces` section",
        ),
        (
            &GOOD.replace("A board.", "[diagram: king]"),
            "t.rules.md:5: the diagram of `king` stands outside `## Pieces` and `Only in` sections",
        ),
        (
            &GOOD.replace("### King", "#### King"),
            "t.rules.md:9: headings go down to `###` only",
        ),
    ];
    for (text, want) in cases {
        let e = RulesText::parse("t.rules.md", text).unwrap_err();
        assert_eq!(e.to_string(), *want);
    }
}

#[test]
fn a_text_that_misses_a_piece_or_an_option_does_not_cover_the_variant() {
    let v = Variant::builtin("courier", &[]).unwrap();
    let e = RulesText::parse("c.rules.md", GOOD)
        .unwrap()
        .for_variant(&v)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "c.rules.md: no `[diagram: fers]` for the Fers of variant `courier`"
    );
    let stranger = GOOD.replace("Steps.", "Steps.\n\n[diagram: lion]");
    let e = RulesText::parse("c.rules.md", &stranger)
        .unwrap()
        .for_variant(&v)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "c.rules.md:15: `lion` is no piece of variant `courier`"
    );
    // Every piece covered, the option's name only: its values are missing.
    let mut all = GOOD.to_string();
    for p in &v.pieces[1..] {
        all = all.replace("Steps.", &format!("Steps.\n\n[diagram: {}]", p.key));
    }
    let named = all.replace(
        "## Options\n",
        "## Options\n\n- `courier-opening`: `applied`.\n",
    );
    let e = RulesText::parse("c.rules.md", &named)
        .unwrap()
        .for_variant(&v)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("value `explicit` of option `courier-opening`"),
        "{e}"
    );
    let full = named.replace("`applied`.", "`applied` or `courier-opening=explicit`.");
    RulesText::parse("c.rules.md", &full)
        .unwrap()
        .for_variant(&v)
        .unwrap();
    let e = RulesText::parse("c.rules.md", &all)
        .unwrap()
        .for_variant(&v)
        .unwrap_err();
    assert!(e.to_string().contains("option `courier-opening`"), "{e}");
}
