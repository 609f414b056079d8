//! Checked `u128` arithmetic and binomial coefficients.

use super::CountError;

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
