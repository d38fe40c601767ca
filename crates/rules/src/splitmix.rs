//! SplitMix64, the one small seeded generator of the workspace: the
//! zobrist keys, seeded networks, the trainer's start and shuffles, random
//! openings. Not for cryptography; chosen for being tiny, fast and the same
//! on every machine, so that a seed names one sequence everywhere.

/// A SplitMix64 generator (Steele, Lea and Flood, 2014): its state is one
/// `u64`, advanced by a constant and mixed.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator of `seed` (its state before the first draw).
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[-a, a)`.
    pub fn symmetric(&mut self, a: f64) -> f64 {
        (2.0 * self.unit() - 1.0) * a
    }

    /// Uniform in `0..n` (by the remainder, so very slightly biased for
    /// huge `n`); 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// Shuffles `xs` in place (Fisher-Yates).
    pub fn shuffle<X>(&mut self, xs: &mut [X]) {
        for i in (1..xs.len()).rev() {
            let j = self.below(i + 1);
            xs.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published first outputs of SplitMix64 from seed 0 (the
    /// reference in Vigna's `splitmix64.c`), so the zobrist keys and
    /// every seeded file stay what they were.
    #[test]
    fn seed_zero_gives_the_reference_sequence() {
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(g.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn draws_stay_in_their_ranges() {
        let mut g = SplitMix64::new(7);
        for n in 1..50 {
            assert!(g.below(n) < n);
            let u = g.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert_eq!(g.below(0), 0);
        let mut xs: Vec<u32> = (0..20).collect();
        g.shuffle(&mut xs);
        xs.sort_unstable();
        assert_eq!(xs, (0..20).collect::<Vec<_>>());
    }
}
