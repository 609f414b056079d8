//! Checked `u128` arithmetic and binomial coefficients.

use super::CountError;
use std::ops::{Add, AddAssign, Mul, SubAssign};

/// Binomial coefficients up to 64 choose k, all of which fit in u128.
pub(super) static BINOMIAL: [[u128; 65]; 65] = {
    let mut t = [[0u128; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// A layer's column of keys or forward counts, on `u64` where its values
/// fit: the layers are most of the count's memory, and on small states
/// touching fresh memory (page faults) is much of the whole process's time.
pub(super) enum Column {
    Narrow(Vec<u64>),
    Wide(Vec<u128>),
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::Narrow(v) => v.len(),
            Column::Wide(v) => v.len(),
        }
    }

    /// Value `i`, widened.
    #[inline]
    pub fn get(&self, i: usize) -> u128 {
        match self {
            Column::Narrow(v) => u128::from(v[i]),
            Column::Wide(v) => v[i],
        }
    }

    /// Every value in order, widened.
    pub fn iter(&self) -> impl Iterator<Item = u128> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// The two widths a [`Column`] stores.
pub(super) trait Stored: Sized {
    /// A column of this width.
    fn store(values: Vec<Self>) -> Column;
    /// A column stored at this width: the layer a forward pass extends
    /// holds its keys and counts at the pass's widths.
    fn stored(column: &Column) -> &[Self];
}

impl Stored for u64 {
    fn store(values: Vec<u64>) -> Column {
        Column::Narrow(values)
    }
    fn stored(column: &Column) -> &[u64] {
        match column {
            Column::Narrow(v) => v,
            Column::Wide(_) => unreachable!("the layer a pass extends is at its widths"),
        }
    }
}

impl Stored for u128 {
    fn store(values: Vec<u128>) -> Column {
        Column::Wide(values)
    }
    fn stored(column: &Column) -> &[u128] {
        match column {
            Column::Wide(v) => v,
            Column::Narrow(_) => unreachable!("the layer a pass extends is at its widths"),
        }
    }
}

/// The word a pass counts in where the count allows it (`u64` where the
/// scaled total, and so every number of the pass, fits; else `u128`), and
/// the word of the backward counts it reads.
pub(super) trait Word:
    Copy + Default + Eq + Add<Output = Self> + AddAssign + SubAssign + Mul<Output = Self> + Stored
{
    const ZERO: Self;
    /// `x`, which fits (the caller chose the word for that).
    fn of(x: u128) -> Self;
    /// `x`, or an overflow error where it does not fit.
    fn checked_of(x: u128) -> Result<Self, CountError>;
    /// The value as a `u128`.
    fn wide(self) -> u128;
    /// `self + b`, or an overflow error.
    fn add_checked(self, b: Self) -> Result<Self, CountError>;
    /// The product, or [`CountError::Overflow`] if it does not fit.
    fn mul_checked(self, b: Self) -> Result<Self, CountError>;
    /// Whether every value of `column` fits on this word (on `u128`, every
    /// column's do).
    fn holds(column: &Column) -> bool;
}

impl Word for u64 {
    const ZERO: u64 = 0;
    fn of(x: u128) -> u64 {
        debug_assert!(x <= u128::from(u64::MAX));
        x as u64
    }
    #[inline]
    fn checked_of(x: u128) -> Result<u64, CountError> {
        u64::try_from(x).map_err(|_| CountError::Overflow)
    }
    fn wide(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    fn add_checked(self, b: u64) -> Result<u64, CountError> {
        self.checked_add(b).ok_or(CountError::Overflow)
    }
    #[inline]
    fn mul_checked(self, b: u64) -> Result<u64, CountError> {
        self.checked_mul(b).ok_or(CountError::Overflow)
    }
    fn holds(column: &Column) -> bool {
        matches!(column, Column::Narrow(_))
    }
}

impl Word for u128 {
    const ZERO: u128 = 0;
    fn of(x: u128) -> u128 {
        x
    }
    #[inline]
    fn checked_of(x: u128) -> Result<u128, CountError> {
        Ok(x)
    }
    fn wide(self) -> u128 {
        self
    }
    #[inline]
    fn add_checked(self, b: u128) -> Result<u128, CountError> {
        add(self, b)
    }
    #[inline]
    fn mul_checked(self, b: u128) -> Result<u128, CountError> {
        mul(self, b)
    }
    fn holds(_: &Column) -> bool {
        true
    }
}

#[inline]
pub(super) fn add(a: u128, b: u128) -> Result<u128, CountError> {
    a.checked_add(b).ok_or(CountError::Overflow)
}

#[inline]
pub(super) fn mul(a: u128, b: u128) -> Result<u128, CountError> {
    // Most factors fit in 64 bits, and then so does their product in 128:
    // one widening multiply instead of the full overflow check.
    if (a | b) >> 64 == 0 {
        return Ok(u128::from(a as u64) * u128::from(b as u64));
    }
    a.checked_mul(b).ok_or(CountError::Overflow)
}

/// `m! / prod(parts!)` where `m = sum(parts)`.
pub(super) fn multinomial(parts: &[u8]) -> Result<u128, CountError> {
    let mut left: usize = parts.iter().map(|&x| x as usize).sum();
    let mut acc = 1u128;
    for &k in parts {
        acc = mul(acc, BINOMIAL[left][k as usize])?;
        left -= k as usize;
    }
    Ok(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_right() {
        assert_eq!(BINOMIAL[5][2], 10);
        assert_eq!(BINOMIAL[64][32], 1_832_624_140_942_590_534);
        assert_eq!(multinomial(&[2, 1, 1]).unwrap(), 12);
        assert_eq!(multinomial(&[]).unwrap(), 1);
        assert_eq!(mul(u128::MAX, 2), Err(CountError::Overflow));
    }
}
