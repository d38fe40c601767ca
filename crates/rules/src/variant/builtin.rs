//! The built-in variants, embedded from the workspace's `variants/` folder.

/// (name, TOML text) of every built-in variant, in listing order.
pub const BUILTIN: &[(&str, &str)] = &[
    ("courier", include_str!("../../../../variants/courier.toml")),
    (
        "courier-modern",
        include_str!("../../../../variants/courier-modern.toml"),
    ),
    (
        "courier-albers",
        include_str!("../../../../variants/courier-albers.toml"),
    ),
    (
        "sho-shogi",
        include_str!("../../../../variants/sho-shogi.toml"),
    ),
    (
        "chu-shogi",
        include_str!("../../../../variants/chu-shogi.toml"),
    ),
    (
        "dai-shogi",
        include_str!("../../../../variants/dai-shogi.toml"),
    ),
    (
        "hiashatar",
        include_str!("../../../../variants/hiashatar.toml"),
    ),
    (
        "alfonso-great-chess",
        include_str!("../../../../variants/alfonso-great-chess.toml"),
    ),
    (
        "frolov-10x10",
        include_str!("../../../../variants/frolov-10x10.toml"),
    ),
];
