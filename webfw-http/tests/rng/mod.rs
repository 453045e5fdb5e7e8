//! Reproducible pseudo-random cases for the differential tests, without a
//! dependency. Each test crate uses the parts it needs.
#![allow(dead_code)]

/// xorshift64*.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Below 2^k for a random k < `bits`: small values as often as large.
    pub fn scaled(&mut self, bits: usize) -> usize {
        let k = self.below(bits);
        self.below(1 << k)
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}
