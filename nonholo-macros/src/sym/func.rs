//! The engine's functions: one table of names and arities for the DSL ([`Function`]),
//! their values, parities and exact values at exact arguments.

use super::number::Number;

/// Functions of one argument.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Func {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Ln,
    Sqrt,
    Abs,
    /// Derivative of `abs`; 0 at 0.
    Sign,
}

/// Functions of two arguments.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Func2 {
    /// `atan2(y, x)`.
    Atan2,
    /// `powf(base, exponent)` with a non-constant or non-integer exponent.
    Powf,
}

impl Func2 {
    pub fn name(self) -> &'static str {
        match self {
            Func2::Atan2 => "atan2",
            Func2::Powf => "powf",
        }
    }
}

/// A function of the DSL as the engine knows it: the one table of names and arities.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Function {
    Unary(Func),
    Binary(Func2),
    /// `powi(x, n)`: an integer power (`n` a literal).
    Powi,
}

/// Every function name the engine understands, in the order the DSL documents them.
pub const FUNCTION_NAMES: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "ln",
    "sqrt", "abs", "powi", "powf",
];

impl Function {
    pub fn by_name(name: &str) -> Option<Function> {
        Some(match name {
            "atan2" => Function::Binary(Func2::Atan2),
            "powf" => Function::Binary(Func2::Powf),
            "powi" => Function::Powi,
            _ => Function::Unary(
                Func::ALL
                    .into_iter()
                    .find(|f| f.name() == name && *f != Func::Sign)?,
            ),
        })
    }

    /// Number of arguments in the free-function form `f(x, ..)`.
    pub fn arity(self) -> usize {
        match self {
            Function::Unary(_) => 1,
            Function::Binary(_) | Function::Powi => 2,
        }
    }
}

impl Func {
    const ALL: [Func; 14] = [
        Func::Sin,
        Func::Cos,
        Func::Tan,
        Func::Asin,
        Func::Acos,
        Func::Atan,
        Func::Sinh,
        Func::Cosh,
        Func::Tanh,
        Func::Exp,
        Func::Ln,
        Func::Sqrt,
        Func::Abs,
        Func::Sign,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Asin => "asin",
            Func::Acos => "acos",
            Func::Atan => "atan",
            Func::Sinh => "sinh",
            Func::Cosh => "cosh",
            Func::Tanh => "tanh",
            Func::Exp => "exp",
            Func::Ln => "ln",
            Func::Sqrt => "sqrt",
            Func::Abs => "abs",
            Func::Sign => "signum",
        }
    }

    pub fn eval(self, x: f64) -> f64 {
        match self {
            Func::Sin => x.sin(),
            Func::Cos => x.cos(),
            Func::Tan => x.tan(),
            Func::Asin => x.asin(),
            Func::Acos => x.acos(),
            Func::Atan => x.atan(),
            Func::Sinh => x.sinh(),
            Func::Cosh => x.cosh(),
            Func::Tanh => x.tanh(),
            Func::Exp => x.exp(),
            Func::Ln => x.ln(),
            Func::Sqrt => x.sqrt(),
            Func::Abs => x.abs(),
            Func::Sign => {
                if x == 0.0 {
                    0.0
                } else {
                    x.signum()
                }
            }
        }
    }

    pub(super) fn parity(self) -> Parity {
        match self {
            Func::Sin | Func::Tan | Func::Asin | Func::Atan | Func::Sinh | Func::Tanh => {
                Parity::Odd
            }
            Func::Cos | Func::Cosh | Func::Abs => Parity::Even,
            Func::Sign => Parity::Odd,
            _ => Parity::None,
        }
    }
}

pub(super) enum Parity {
    Odd,
    Even,
    None,
}

/// Exact values of functions at exact arguments (only the ones that stay rational).
///
/// A literal that is, as an `f64`, a multiple `k pi / 2` (`|k| <= 8`: `3.141592653589793`,
/// `1.5707963267948966`, ...) stands for that multiple of pi: its sine and cosine are the
/// exact 0 and +-1 (a frame turned half a turn, `B.rotate(x, 3.141592653589793)`, then
/// costs nothing at run time instead of a sine of 1.2e-16 carried through every product).
pub(super) fn exact_func(f: Func, x: Number) -> Option<Number> {
    let zero = x.is_zero();
    if matches!(f, Func::Sin | Func::Cos) && !zero {
        let v = x.to_f64();
        let k = (v / core::f64::consts::FRAC_PI_2).round();
        if k.abs() <= 8.0 && k * core::f64::consts::FRAC_PI_2 == v {
            // k = 4 j + r: sin = (0, 1, 0, -1)[r], cos = (1, 0, -1, 0)[r]
            let r = (k as i64).rem_euclid(4) as usize;
            let table = match f {
                Func::Sin => [0, 1, 0, -1],
                _ => [1, 0, -1, 0],
            };
            return Some(Number::Rat(table[r], 1));
        }
    }
    match f {
        Func::Sin | Func::Tan | Func::Asin | Func::Atan | Func::Sinh | Func::Tanh if zero => {
            Some(Number::ZERO)
        }
        Func::Cos | Func::Cosh | Func::Exp if zero => Some(Number::ONE),
        Func::Ln if x.is_one() => Some(Number::ZERO),
        Func::Acos if x.is_one() => Some(Number::ZERO),
        Func::Sqrt => x.exact_sqrt(),
        Func::Abs => Some(if x.is_negative() { x.neg() } else { x }),
        Func::Sign => Some(if zero {
            Number::ZERO
        } else if x.is_negative() {
            Number::MINUS_ONE
        } else {
            Number::ONE
        }),
        _ => None,
    }
}
