//! Variables and literals, numbered the DIMACS way.
//!
//! A [`Var`] is a positive number `1..=Var::MAX`, exactly as in a DIMACS file.
//! A [`Lit`] is a variable or its negation, stored as the signed DIMACS number
//! (`3` is the variable 3, `-3` its negation).

use std::fmt;
use std::num::NonZeroU32;
use std::ops::Not;

/// A propositional variable, numbered from 1 as in DIMACS.
///
/// # Examples
///
/// ```
/// use sleuth_logic::Var;
/// let v = Var::new(3).expect("3 is a valid variable");
/// assert_eq!(v.get(), 3);
/// assert_eq!(v.index(), 2);
/// assert!(Var::new(0).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var(NonZeroU32);

impl Var {
    /// The largest variable number: literals are stored as `i32`.
    pub const MAX: u32 = i32::MAX as u32;

    /// The variable numbered `n`, or `None` when `n` is 0 or above [`Var::MAX`].
    pub fn new(n: u32) -> Option<Var> {
        if n > Var::MAX {
            return None;
        }
        NonZeroU32::new(n).map(Var)
    }

    /// The variable whose zero-based array index is `index` (so `from_index(0)` is
    /// variable 1).
    ///
    /// # Panics
    ///
    /// Panics if `index + 1` exceeds [`Var::MAX`].
    pub fn from_index(index: usize) -> Var {
        u32::try_from(index + 1).ok().and_then(Var::new).expect("variable index out of range")
    }

    /// The DIMACS number of this variable (1-based).
    pub fn get(self) -> u32 {
        self.0.get()
    }

    /// The zero-based index, for per-variable tables.
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    /// The positive literal of this variable.
    pub fn positive(self) -> Lit {
        Lit(self.0.get() as i32)
    }

    /// The negative literal of this variable.
    pub fn negative(self) -> Lit {
        Lit(-(self.0.get() as i32))
    }

    /// The literal of this variable with the given polarity (`true` for positive).
    pub fn lit(self, positive: bool) -> Lit {
        if positive {
            self.positive()
        } else {
            self.negative()
        }
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.get())
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

/// A literal: a variable or its negation, stored as a signed DIMACS number.
///
/// # Examples
///
/// ```
/// use sleuth_logic::Lit;
/// let l = Lit::from_dimacs(-2).expect("nonzero");
/// assert!(l.is_negative());
/// assert_eq!(l.var().get(), 2);
/// assert_eq!((!l).to_dimacs(), 2);
/// assert!(Lit::from_dimacs(0).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit(i32);

impl Lit {
    /// The literal with DIMACS number `n`, or `None` for 0 and `i32::MIN`.
    pub fn from_dimacs(n: i32) -> Option<Lit> {
        if n == 0 || n == i32::MIN {
            None
        } else {
            Some(Lit(n))
        }
    }

    /// The signed DIMACS number of this literal.
    pub fn to_dimacs(self) -> i32 {
        self.0
    }

    /// The variable of this literal.
    pub fn var(self) -> Var {
        Var(NonZeroU32::new(self.0.unsigned_abs()).expect("literals are nonzero"))
    }

    /// True for a negated variable.
    pub fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// True for a plain (unnegated) variable.
    pub fn is_positive(self) -> bool {
        self.0 > 0
    }

    /// A dense index for per-literal tables: `2 * var.index()` for the positive
    /// literal and one more for the negative one.
    pub fn code(self) -> usize {
        self.var().index() * 2 + usize::from(self.is_negative())
    }

    /// The literal with the given [`Lit::code`].
    ///
    /// # Panics
    ///
    /// Panics if the code is out of range for a variable.
    pub fn from_code(code: usize) -> Lit {
        Var::from_index(code / 2).lit(code % 2 == 0)
    }

    /// The value of this literal when its variable has value `value`.
    pub fn apply(self, value: bool) -> bool {
        value != self.is_negative()
    }
}

impl Not for Lit {
    type Output = Lit;

    fn not(self) -> Lit {
        Lit(-self.0)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for n in [1, -1, 2, -2, 77, -77] {
            let l = Lit::from_dimacs(n).unwrap();
            assert_eq!(Lit::from_code(l.code()), l);
            assert_eq!((!l).code() ^ 1, l.code());
        }
    }

    #[test]
    fn var_bounds() {
        assert!(Var::new(0).is_none());
        assert!(Var::new(Var::MAX).is_some());
        assert!(Var::new(Var::MAX + 1).is_none());
        assert!(Lit::from_dimacs(i32::MIN).is_none());
        assert_eq!(Var::new(Var::MAX).unwrap().negative().to_dimacs(), -i32::MAX);
    }

    #[test]
    fn apply_polarity() {
        let v = Var::new(5).unwrap();
        assert!(v.positive().apply(true));
        assert!(!v.positive().apply(false));
        assert!(v.negative().apply(false));
        assert!(!v.negative().apply(true));
    }
}
