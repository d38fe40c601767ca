//! The evaluation files the engine embeds, from the workspace's
//! `variants/` folder (the build script, `build.rs`, writes the tables
//! from the folder itself): each game's hand-written weights and network.
//! The rules crate embeds the variants; what only the engine reads is
//! embedded here.

/// (variant name, TOML text) of the evaluation's weights files beside the
/// variant files (`NAME.eval.toml`), by name; read by
/// [`crate::eval::weights::Params::builtin`].
pub const BUILTIN_WEIGHTS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/weights.rs"));

/// (variant name, bytes) of the networks beside the variant files
/// (`NAME.nnue`, [`crate::nnue::file`]'s format), by name; read by
/// [`crate::nnue::Nnue::builtin`].
pub const BUILTIN_NETS: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/nets.rs"));

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The stems of the files of `variants/` ending in `suffix` (a
    /// `.toml` suffix leaves the weights files out).
    fn files(suffix: &str) -> BTreeSet<String> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| !n.ends_with(".eval.toml") || suffix == ".eval.toml")
            .filter_map(|n| n.strip_suffix(suffix).map(str::to_string))
            .collect()
    }

    #[test]
    fn the_index_lists_every_weights_file_and_network_of_the_variants_folder() {
        let weights: BTreeSet<String> =
            BUILTIN_WEIGHTS.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(weights, files(".eval.toml"));
        let nets: BTreeSet<String> = BUILTIN_NETS.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(nets, files(".nnue"));
        assert!(nets.is_subset(&files(".toml")));
        for (name, bytes) in BUILTIN_NETS {
            let file =
                Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../variants/{name}.nnue"));
            assert_eq!(
                *bytes,
                std::fs::read(file).unwrap().as_slice(),
                "{name}.nnue"
            );
        }
        for (name, text) in BUILTIN_WEIGHTS {
            let file = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("../../variants/{name}.eval.toml"));
            assert_eq!(
                *text,
                std::fs::read_to_string(file).unwrap(),
                "{name}.eval.toml"
            );
        }
    }
}
