//! The xorshift generator the unit tests draw random games and texts from:
//! reproducible, and no dependency for it.

/// Successive xorshift64 values (shifts 13, 7, 17) from `seed`, which must
/// not be 0.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
