//! Function nodes: constant folding by [`crate::sym::func`]'s values and exact values,
//! parities, and the inverse pairs that cancel.

use super::{Graph, Id, Node};
use crate::sym::func::{exact_func, Func, Func2, Parity};
use crate::sym::number::Number;

/// Function nodes: constant folding, parity, and the inverse pairs that cancel.
impl Graph {
    /// Whether the canonical form of `a` carries a leading minus sign.
    fn is_negative(&self, a: Id) -> bool {
        match self.node(a) {
            Node::Num(n) => n.is_negative(),
            Node::Add(c, ts) => {
                if c.is_zero() {
                    ts.first().is_some_and(|(k, _)| k.is_negative())
                } else {
                    c.is_negative()
                }
            }
            _ => false,
        }
    }

    pub fn func(&mut self, f: Func, a: Id) -> Id {
        if let Some(x) = self.as_number(a) {
            if let Some(v) = exact_func(f, x) {
                return self.num(v);
            }
            if let Number::Float(v) = x {
                return self.num(Number::Float(f.eval(v)));
            }
        }
        match f.parity() {
            Parity::Odd if self.is_negative(a) => {
                let na = self.neg(a);
                let inner = self.func(f, na);
                return self.neg(inner);
            }
            Parity::Even if self.is_negative(a) => {
                let na = self.neg(a);
                return self.func(f, na);
            }
            _ => {}
        }
        match (f, self.node(a).clone()) {
            (Func::Ln, Node::Fn(Func::Exp, x)) => return x,
            (Func::Abs, Node::Fn(Func::Abs, _)) => return a,
            (Func::Abs, Node::Fn(Func::Exp | Func::Sqrt | Func::Cosh, _)) => return a,
            (Func::Sign, Node::Fn(Func::Exp | Func::Cosh, _)) => return self.one(),
            _ => {}
        }
        self.intern(Node::Fn(f, a))
    }

    pub fn func2(&mut self, f: Func2, a: Id, b: Id) -> Id {
        match f {
            Func2::Powf => {
                if let Some(e) = self.as_number(b) {
                    if let Some(n) = e.as_int()
                        && let Ok(n) = i32::try_from(n)
                    {
                        return self.powi(a, n);
                    }
                    if e == Number::rat(1, 2) {
                        return self.func(Func::Sqrt, a);
                    }
                    if e == Number::rat(-1, 2) {
                        let s = self.func(Func::Sqrt, a);
                        return self.powi(s, -1);
                    }
                }
                if let (Some(x), Some(y)) = (self.as_number(a), self.as_number(b)) {
                    return self.num(Number::Float(x.to_f64().powf(y.to_f64())));
                }
            }
            Func2::Atan2 => {
                if let (Some(y), Some(x)) = (self.as_number(a), self.as_number(b)) {
                    if y.is_zero() && !x.is_negative() && !x.is_zero() {
                        return self.zero();
                    }
                    if let (Number::Float(_), _) | (_, Number::Float(_)) = (y, x) {
                        return self.num(Number::Float(y.to_f64().atan2(x.to_f64())));
                    }
                }
            }
        }
        self.intern(Node::Fn2(f, a, b))
    }
}
