//! What the engine, the generator and the front ends need to know about a
//! variant, derived once when it loads: the one labelled place where the
//! families' presence turns into properties (as Fairy-Stockfish's
//! `Variant::conclude` does). Callers ask these, never a family.

use super::Specials;
use crate::piece::Side;
use crate::variant::core::Core;

/// Properties of a variant that follow from its rules and families.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// A pass (null move) is a sound test in search: no piece ripens with
    /// its owner's moves (Albers) and no compulsory turn is pending
    /// (Courier's opening).
    pub null_move_sound: bool,
    /// Legal moves must be generated as whole lists (a filter on the whole
    /// list decides, such as the Checker's compulsory capture,
    /// rules/ordinary-variant.md 5.4): a search cannot try pseudo-legal
    /// moves one by one.
    pub whole_legal_lists: bool,
    /// Some moves exist only when no other move is legal (Tamerlane's King
    /// swap, rules/tamerlane.md 5.4).
    pub has_fallback: bool,
    /// Captures come in many versions that differ only in the piece they
    /// upgrade (Frolov's capture promotion, rules/frolov-10x10.md 5.5): a
    /// quiescence search looks at the best version only, and only at
    /// captures and promotions.
    pub upgrade_choices: bool,
    /// Endings that draw in most games are scored on points (Frolov's
    /// material count, rules/frolov-10x10.md 7.1).
    pub draws_score_points: bool,
    /// A repetition in which one side checked on every move scores other
    /// than a draw (perpetual check loses, or Dynamic Scoring credits it).
    pub perpetual_counts: bool,
    /// A family forbids some moves beyond royal safety (Lion trading, the
    /// pawn of pawns' relocation, repetition): moves must be judged by
    /// make even where the check rule alone would not need it.
    pub bans_moves: bool,
    /// Per side to move: the pin shortcut of the legality test is sound
    /// (the opponent attacks by leaps, slides and walkable multi-leg paths
    /// only, and no move changes a piece elsewhere on the board).
    pub pin_shortcut: [bool; 2],
    /// Some family must see some moves made to judge them
    /// ([`crate::special::Specials::needs_trial`]: Lion captures under the
    /// trading rules, relocations of the pawn of pawns, Bodyguard moves).
    pub family_trials: bool,
    /// Some family keeps state of its own in the position's hash (Chu's
    /// counter-strike, rules/chu-shogi.md 6.4 LT3).
    pub keeps_state: bool,
    /// Some rule filters or rewrites a piece's generated moves (immune
    /// pieces, citadels, the pawn of pawns): one test per piece in
    /// generation.
    pub restricts: bool,
}

impl Capabilities {
    /// Derives the capabilities of the generic rules `core` with the
    /// families `specials`.
    pub fn conclude(core: &Core, specials: &Specials) -> Capabilities {
        let changes_elsewhere = core.ripening
            || specials.capture_promotion.is_some()
            || specials.hostile_promotion.is_some()
            || specials.checker.is_some();
        let pin_shortcut = |side: Side| {
            // The opponent's attack table.
            let t = &core.attacks[side.flip().index()];
            core.rules.royal_safety
                && t.complex == 0
                && t.hops.is_empty()
                && t.bents.is_empty()
                && !changes_elsewhere
        };
        Capabilities {
            null_move_sound: !core.ripening && specials.compulsory_opening.is_none(),
            whole_legal_lists: specials.checker.is_some(),
            has_fallback: specials.king_swap.is_some(),
            upgrade_choices: specials.capture_promotion.is_some(),
            draws_score_points: specials.material_points.is_some(),
            perpetual_counts: core.rules.perpetual_check_loses || specials.repetition_perpetual(),
            bans_moves: specials.lion_trading.is_some()
                || specials.pawn_of_pawns.is_some()
                || core.rules.repetition_forbidden,
            pin_shortcut: [pin_shortcut(Side::First), pin_shortcut(Side::Second)],
            family_trials: specials.lion_trading.is_some()
                || specials.pawn_of_pawns.is_some()
                || specials.bodyguard.is_some(),
            keeps_state: specials.lion_trading.is_some(),
            restricts: core.immune != 0 || specials.restrict_moves(),
        }
    }
}
