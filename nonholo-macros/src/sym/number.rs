//! Exact rational coefficients, with a floating-point fallback for literals and
//! results that do not fit in `i128`.

use std::hash::{Hash, Hasher};

/// A numeric constant: an exact rational `num/den` (reduced, `den > 0`), or an inexact float.
#[derive(Clone, Copy, Debug)]
pub enum Number {
    /// Exact rational.
    Rat(i128, i128),
    /// Inexact value (a literal or result outside `i128`).
    Float(f64),
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Number::Rat(a, b), Number::Rat(c, d)) => a == c && b == d,
            (Number::Float(a), Number::Float(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}
impl Eq for Number {}
impl Hash for Number {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match self {
            Number::Rat(a, b) => {
                0u8.hash(h);
                a.hash(h);
                b.hash(h);
            }
            Number::Float(x) => {
                1u8.hash(h);
                x.to_bits().hash(h);
            }
        }
    }
}

/// `gcd(|a|, |b|)`; in `u64` (binary, no 128-bit division) when both fit, as nearly all do.
fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    if let (Ok(x), Ok(y)) = (u64::try_from(a), u64::try_from(b)) {
        return gcd_u64(x, y) as i128;
    }
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a as i128
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Number {
    pub const ZERO: Number = Number::Rat(0, 1);
    pub const ONE: Number = Number::Rat(1, 1);
    pub const MINUS_ONE: Number = Number::Rat(-1, 1);

    pub fn int(i: i64) -> Number {
        Number::Rat(i as i128, 1)
    }

    /// `n/d` reduced; a zero denominator gives an infinite/NaN float.
    pub fn rat(n: i128, d: i128) -> Number {
        if d == 0 {
            return Number::Float(n as f64 / 0.0);
        }
        let g = gcd(n, d);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            match (n.checked_neg(), d.checked_neg()) {
                (Some(a), Some(b)) => {
                    n = a;
                    d = b;
                }
                _ => return Number::Float(n as f64 / d as f64),
            }
        }
        Number::Rat(n, d)
    }

    /// Parse a Rust float/int literal's digits (`9.81`, `1e-3`, `2`) exactly when possible.
    pub fn parse_decimal(text: &str) -> Option<Number> {
        let text: String = text.chars().filter(|c| *c != '_').collect();
        let text = text
            .trim_end_matches("f64")
            .trim_end_matches("f32")
            .trim_end_matches("i32")
            .trim_end_matches("i64")
            .trim_end_matches("u32")
            .trim_end_matches("usize");
        let (mantissa, exp) = match text.find(['e', 'E']) {
            Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
            None => (text, 0),
        };
        let (int_part, frac_part) = match mantissa.find('.') {
            Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
            None => (mantissa, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        if !int_part
            .chars()
            .chain(frac_part.chars())
            .all(|c| c.is_ascii_digit())
        {
            return None;
        }
        let exact = || -> Option<Number> {
            let digits = format!("{int_part}{frac_part}");
            let mut num: i128 = if digits.is_empty() {
                0
            } else {
                digits.parse().ok()?
            };
            let mut scale = exp - frac_part.len() as i32;
            let mut den: i128 = 1;
            while scale > 0 {
                num = num.checked_mul(10)?;
                scale -= 1;
            }
            while scale < 0 {
                den = den.checked_mul(10)?;
                scale += 1;
            }
            Some(Number::rat(num, den))
        };
        exact().or_else(|| text.parse::<f64>().ok().map(Number::Float))
    }

    pub fn to_f64(self) -> f64 {
        match self {
            Number::Rat(n, d) => n as f64 / d as f64,
            Number::Float(x) => x,
        }
    }

    pub fn is_zero(self) -> bool {
        match self {
            Number::Rat(n, _) => n == 0,
            Number::Float(x) => x == 0.0,
        }
    }

    pub fn is_one(self) -> bool {
        self == Number::ONE
    }

    pub fn is_negative(self) -> bool {
        match self {
            Number::Rat(n, _) => n < 0,
            Number::Float(x) => x < 0.0,
        }
    }

    /// The integer value, if this is an exact integer.
    pub fn as_int(self) -> Option<i128> {
        match self {
            Number::Rat(n, 1) => Some(n),
            _ => None,
        }
    }

    pub fn add(self, o: Number) -> Number {
        match (self, o) {
            (Number::Rat(a, 1), Number::Rat(c, 1)) => match a.checked_add(c) {
                Some(n) => Number::Rat(n, 1),
                None => Number::Float(self.to_f64() + o.to_f64()),
            },
            (Number::Rat(a, b), Number::Rat(c, d)) => {
                let exact = || -> Option<Number> {
                    let g = gcd(b, d);
                    let l = (b / g).checked_mul(d)?;
                    let x = a.checked_mul(l / b)?.checked_add(c.checked_mul(l / d)?)?;
                    Some(Number::rat(x, l))
                };
                exact().unwrap_or(Number::Float(self.to_f64() + o.to_f64()))
            }
            _ => Number::Float(self.to_f64() + o.to_f64()),
        }
    }

    pub fn neg(self) -> Number {
        match self {
            Number::Rat(a, b) => match a.checked_neg() {
                Some(n) => Number::Rat(n, b),
                None => Number::Float(-self.to_f64()),
            },
            Number::Float(x) => Number::Float(-x),
        }
    }

    pub fn mul(self, o: Number) -> Number {
        match (self, o) {
            (Number::Rat(a, 1), Number::Rat(c, 1)) => match a.checked_mul(c) {
                Some(n) => Number::Rat(n, 1),
                None => Number::Float(self.to_f64() * o.to_f64()),
            },
            (Number::Rat(a, b), Number::Rat(c, d)) => {
                // both reduced with positive denominators, so after the cross reduction
                // `n/m` is reduced too
                let exact = || -> Option<Number> {
                    let g1 = gcd(a, d).max(1);
                    let g2 = gcd(c, b).max(1);
                    let n = (a / g1).checked_mul(c / g2)?;
                    let m = (b / g2).checked_mul(d / g1)?;
                    Some(Number::Rat(n, m))
                };
                exact().unwrap_or(Number::Float(self.to_f64() * o.to_f64()))
            }
            _ => Number::Float(self.to_f64() * o.to_f64()),
        }
    }

    pub fn recip(self) -> Number {
        match self {
            Number::Rat(a, b) => Number::rat(b, a),
            Number::Float(x) => Number::Float(1.0 / x),
        }
    }

    pub fn powi(self, e: i32) -> Number {
        let mut base = if e < 0 { self.recip() } else { self };
        let mut e = e.unsigned_abs();
        let mut acc = Number::ONE;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(base);
            }
            base = base.mul(base);
            e >>= 1;
        }
        acc
    }

    /// The exact square root of a rational perfect square.
    pub fn exact_sqrt(self) -> Option<Number> {
        fn isqrt(n: i128) -> Option<i128> {
            if n < 0 {
                return None;
            }
            let r = (n as f64).sqrt() as i128;
            (r.saturating_sub(1)..=r + 1).find(|k| k.checked_mul(*k) == Some(n))
        }
        match self {
            Number::Rat(n, d) => Some(Number::Rat(isqrt(n)?, isqrt(d)?)),
            Number::Float(_) => None,
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Rat(n, 1) => write!(f, "{n}"),
            Number::Rat(n, d) => write!(f, "{n}/{d}"),
            Number::Float(x) => write!(f, "{x:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_literals_are_exact() {
        assert_eq!(Number::parse_decimal("9.81"), Some(Number::Rat(981, 100)));
        assert_eq!(Number::parse_decimal("0.5"), Some(Number::Rat(1, 2)));
        assert_eq!(Number::parse_decimal("2"), Some(Number::Rat(2, 1)));
        assert_eq!(Number::parse_decimal("1e-3"), Some(Number::Rat(1, 1000)));
        assert_eq!(
            Number::parse_decimal("1_000.0f64"),
            Some(Number::Rat(1000, 1))
        );
        assert!(matches!(
            Number::parse_decimal("1e-300"),
            Some(Number::Float(_))
        ));
    }

    #[test]
    fn binary_gcd_equals_euclid() {
        let euclid = |mut a: i128, mut b: i128| {
            (a, b) = (a.abs(), b.abs());
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..10_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (a, b) = ((x >> 40) as i128 - (1 << 23), (x & 0xff_ffff) as i128 * 6);
            assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
            assert_eq!(gcd(a << 70, b << 70), euclid(a << 70, b << 70));
        }
        assert_eq!(gcd(0, 0), 0);
        assert_eq!(gcd(-12, 0), 12);
    }

    #[test]
    fn arithmetic_reduces() {
        let a = Number::rat(1, 3).add(Number::rat(1, 6));
        assert_eq!(a, Number::Rat(1, 2));
        assert_eq!(Number::rat(2, -4), Number::Rat(-1, 2));
        assert_eq!(Number::rat(2, 3).powi(-2), Number::Rat(9, 4));
        assert_eq!(Number::rat(9, 4).exact_sqrt(), Some(Number::Rat(3, 2)));
        assert_eq!(
            Number::rat(-3, 4).mul(Number::rat(8, 9)),
            Number::Rat(-2, 3)
        );
        assert_eq!(Number::rat(0, 4).mul(Number::rat(8, 9)), Number::ZERO);
        assert_eq!(Number::int(6).mul(Number::int(-7)), Number::int(-42));
        assert_eq!(Number::int(6).add(Number::int(-7)), Number::MINUS_ONE);
        assert!(matches!(
            Number::Rat(i128::MAX, 1).mul(Number::int(3)),
            Number::Float(_)
        ));
    }
}
