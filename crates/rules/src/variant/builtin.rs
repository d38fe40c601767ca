//! The built-in variants, embedded from the workspace's `variants/` folder.
//! The build script (`build.rs`) writes the tables from the folder itself,
//! in the order of `variants/order.txt`: adding a game is adding its files
//! there.

/// (name, TOML text) of every built-in variant, in listing order.
pub const BUILTIN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/variants.rs"));

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The stems of the files of `variants/` ending in `suffix`.
    fn files(suffix: &str) -> BTreeSet<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| !n.ends_with(".eval.toml") || suffix == ".eval.toml")
            .filter_map(|n| n.strip_suffix(suffix).map(str::to_string))
            .collect()
    }

    #[test]
    fn the_index_lists_every_file_of_the_variants_folder() {
        let names = |t: &[(&str, &str)]| t.iter().map(|(n, _)| n.to_string()).collect();
        let variants: BTreeSet<String> = names(BUILTIN);
        assert_eq!(variants.len(), BUILTIN.len(), "a variant listed twice");
        assert_eq!(variants, files(".toml"));
        let rules: BTreeSet<String> = crate::rules_text::BUILTIN_RULES
            .iter()
            .map(|(_, f)| f.trim_end_matches(".rules.md").to_string())
            .collect();
        assert_eq!(rules, files(".rules.md"));
        // Listing order is order.txt's: the first is the protocols' default.
        assert_eq!(BUILTIN[0].0, "courier");
    }
}
