//! Differentiation, substitution, numeric evaluation and printing over the [`Graph`].

use super::func::{Func, Func2};
use super::graph::{Graph, Id, Node};
use super::number::Number;
use super::HashMap;

impl Graph {
    /// The partial derivative `d e / d s` (memoized per (node, symbol)).
    pub fn diff(&mut self, e: Id, s: u32) -> Id {
        if !self.depends_on(e, s) {
            return self.zero();
        }
        if let Some(d) = self.diff_memo_get(e, s) {
            return d;
        }
        let order = self.postorder(e, |g, id| {
            g.depends_on(id, s) && g.diff_memo_get(id, s).is_none()
        });
        let mut d = self.zero();
        for id in order {
            d = self.diff_node(id, s);
        }
        d
    }

    /// `d e / d s` for one node whose operands' derivatives are memoized.
    fn diff_node(&mut self, e: Id, s: u32) -> Id {
        let d = match self.node(e).clone() {
            Node::Num(_) => self.zero(),
            Node::Sym(x) => {
                if x == s {
                    self.one()
                } else if let Some(def) = self.definition(x) {
                    // chain rule through the atom: its derivative is an atom too, so
                    // derivatives of a chain of atoms stay as compact as the chain
                    let d = self.diff(def, s);
                    let name = format!("d{}/d{}", self.symbol_name(x), self.symbol_name(s));
                    self.define_if_large(&name, d, 8)
                } else {
                    self.zero()
                }
            }
            Node::Add(_, ts) => {
                let mut parts = Vec::with_capacity(ts.len());
                for (k, t) in ts.iter() {
                    let dt = self.diff(*t, s);
                    parts.push(self.scale(*k, dt));
                }
                self.add_all(&parts)
            }
            Node::Mul(fs) => {
                let mut parts = Vec::with_capacity(fs.len());
                for (i, (b, ex)) in fs.iter().enumerate() {
                    if !self.depends_on(*b, s) {
                        continue;
                    }
                    let db = self.diff(*b, s);
                    let mut factors = Vec::with_capacity(fs.len() + 1);
                    for (j, (b2, e2)) in fs.iter().enumerate() {
                        let p = if i == j {
                            self.powi(*b2, ex - 1)
                        } else {
                            self.powi(*b2, *e2)
                        };
                        factors.push(p);
                    }
                    factors.push(db);
                    let prod = self.mul_all(&factors);
                    parts.push(self.scale(Number::int(*ex as i64), prod));
                }
                self.add_all(&parts)
            }
            Node::Fn(f, u) => {
                let du = self.diff(u, s);
                let outer = self.func_derivative(f, u);
                self.mul(outer, du)
            }
            Node::Fn2(Func2::Atan2, y, x) => {
                // d atan2(y, x) = (x dy - y dx) / (x^2 + y^2)
                let dy = self.diff(y, s);
                let dx = self.diff(x, s);
                let a = self.mul(x, dy);
                let b = self.mul(y, dx);
                let num = self.sub(a, b);
                let x2 = self.powi(x, 2);
                let y2 = self.powi(y, 2);
                let den = self.add(x2, y2);
                self.div(num, den)
            }
            Node::Fn2(Func2::Powf, a, b) => {
                // d a^b = a^b (b' ln a + b a' / a)
                let da = self.diff(a, s);
                let db = self.diff(b, s);
                let ln_a = self.func(Func::Ln, a);
                let t1 = self.mul(db, ln_a);
                let ba = self.mul(b, da);
                let t2 = self.div(ba, a);
                let inner = self.add(t1, t2);
                self.mul(e, inner)
            }
        };
        self.diff_memo_put(e, s, d);
        d
    }

    /// `f'(u)` for the chain rule.
    fn func_derivative(&mut self, f: Func, u: Id) -> Id {
        match f {
            Func::Sin => self.func(Func::Cos, u),
            Func::Cos => {
                let s = self.func(Func::Sin, u);
                self.neg(s)
            }
            Func::Tan => {
                let t = self.func(Func::Tan, u);
                let t2 = self.powi(t, 2);
                let one = self.one();
                self.add(one, t2)
            }
            Func::Asin | Func::Acos => {
                let u2 = self.powi(u, 2);
                let one = self.one();
                let r = self.sub(one, u2);
                let sq = self.func(Func::Sqrt, r);
                let inv = self.powi(sq, -1);
                if f == Func::Acos {
                    self.neg(inv)
                } else {
                    inv
                }
            }
            Func::Atan => {
                let u2 = self.powi(u, 2);
                let one = self.one();
                let r = self.add(one, u2);
                self.powi(r, -1)
            }
            Func::Sinh => self.func(Func::Cosh, u),
            Func::Cosh => self.func(Func::Sinh, u),
            Func::Tanh => {
                let t = self.func(Func::Tanh, u);
                let t2 = self.powi(t, 2);
                let one = self.one();
                self.sub(one, t2)
            }
            Func::Exp => self.func(Func::Exp, u),
            Func::Ln => self.powi(u, -1),
            Func::Sqrt => {
                let sq = self.func(Func::Sqrt, u);
                let inv = self.powi(sq, -1);
                self.scale(Number::rat(1, 2), inv)
            }
            Func::Abs => self.func(Func::Sign, u),
            Func::Sign => self.zero(),
        }
    }

    /// Replace symbols by expressions (simultaneously), re-canonicalizing on the way up.
    pub fn subst(&mut self, e: Id, map: &HashMap<u32, Id>) -> Id {
        let mut memo = HashMap::default();
        let keys: Vec<u32> = map.keys().copied().collect();
        self.subst_rec(e, map, &keys, &mut memo)
    }

    /// Substitute into many expressions sharing one memo.
    pub fn subst_many(&mut self, es: &[Id], map: &HashMap<u32, Id>) -> Vec<Id> {
        let mut memo = HashMap::default();
        let keys: Vec<u32> = map.keys().copied().collect();
        es.iter()
            .map(|e| self.subst_rec(*e, map, &keys, &mut memo))
            .collect()
    }

    fn subst_rec(
        &mut self,
        e: Id,
        map: &HashMap<u32, Id>,
        keys: &[u32],
        memo: &mut HashMap<Id, Id>,
    ) -> Id {
        if !self.depends_on_any(e, keys) {
            return e;
        }
        if let Some(r) = memo.get(&e) {
            return *r;
        }
        let order = self.postorder(e, |g, id| {
            g.depends_on_any(id, keys) && !memo.contains_key(&id)
        });
        let mut r = e;
        for id in order {
            r = self.subst_node(id, map, keys, memo);
        }
        r
    }

    /// [`subst`](Self::subst) of one node whose operands are in `memo`.
    fn subst_node(
        &mut self,
        e: Id,
        map: &HashMap<u32, Id>,
        keys: &[u32],
        memo: &mut HashMap<Id, Id>,
    ) -> Id {
        let r = match self.node(e).clone() {
            Node::Num(_) => e,
            Node::Sym(s) => match (map.get(&s), self.definition(s)) {
                (Some(v), _) => *v,
                (None, Some(def)) => {
                    // the substituted definition is an atom again: substituting into a
                    // chain of atoms keeps the chain instead of inlining (and expanding) it
                    let r = self.subst_rec(def, map, keys, memo);
                    let name = format!("{}'", self.symbol_name(s));
                    self.define_if_large(&name, r, 8)
                }
                (None, None) => e,
            },
            Node::Add(c, ts) => {
                let mut parts = Vec::with_capacity(ts.len() + 1);
                parts.push(self.num(c));
                for (k, t) in ts.iter() {
                    let nt = self.subst_rec(*t, map, keys, memo);
                    parts.push(self.scale(*k, nt));
                }
                self.add_all(&parts)
            }
            Node::Mul(fs) => {
                let mut parts = Vec::with_capacity(fs.len());
                for (b, ex) in fs.iter() {
                    let nb = self.subst_rec(*b, map, keys, memo);
                    parts.push(self.powi(nb, *ex));
                }
                self.mul_all(&parts)
            }
            Node::Fn(f, u) => {
                let nu = self.subst_rec(u, map, keys, memo);
                self.func(f, nu)
            }
            Node::Fn2(f, a, b) => {
                let na = self.subst_rec(a, map, keys, memo);
                let nb = self.subst_rec(b, map, keys, memo);
                self.func2(f, na, nb)
            }
        };
        memo.insert(e, r);
        r
    }

    /// Evaluate numerically with symbol values `env[s]`.
    pub fn eval(&self, e: Id, env: &[f64], memo: &mut HashMap<Id, f64>) -> f64 {
        if let Some(v) = memo.get(&e) {
            return *v;
        }
        let mut v = f64::NAN;
        for id in self.postorder(e, |_, id| !memo.contains_key(&id)) {
            v = self.eval_node(id, env, memo);
        }
        v
    }

    /// [`eval`](Self::eval) of one node whose operands are in `memo`.
    fn eval_node(&self, e: Id, env: &[f64], memo: &mut HashMap<Id, f64>) -> f64 {
        let v = match self.node(e) {
            Node::Num(n) => n.to_f64(),
            Node::Sym(s) => match self.definition(*s) {
                Some(def) => self.eval(def, env, memo),
                None => env.get(*s as usize).copied().unwrap_or(f64::NAN),
            },
            Node::Add(c, ts) => {
                let mut acc = c.to_f64();
                for (k, t) in ts.iter() {
                    acc += k.to_f64() * self.eval(*t, env, memo);
                }
                acc
            }
            Node::Mul(fs) => {
                let mut acc = 1.0;
                for (b, ex) in fs.iter() {
                    acc *= self.eval(*b, env, memo).powi(*ex);
                }
                acc
            }
            Node::Fn(f, u) => f.eval(self.eval(*u, env, memo)),
            Node::Fn2(Func2::Atan2, y, x) => {
                self.eval(*y, env, memo).atan2(self.eval(*x, env, memo))
            }
            Node::Fn2(Func2::Powf, a, b) => self.eval(*a, env, memo).powf(self.eval(*b, env, memo)),
        };
        memo.insert(e, v);
        v
    }

    /// Sum of the absolute values of a sum's terms: the scale against which a value
    /// close to zero is judged to be round-off.
    pub fn eval_scale(&self, e: Id, env: &[f64], memo: &mut HashMap<Id, f64>) -> f64 {
        match self.node(e) {
            Node::Add(c, ts) => {
                let mut acc = c.to_f64().abs();
                for (k, t) in ts.iter() {
                    acc += (k.to_f64() * self.eval(*t, env, memo)).abs();
                }
                acc
            }
            _ => self.eval(e, env, memo).abs(),
        }
    }

    /// Readable text, Rust-like (`x.powi(2)` written `x^2` for people).
    pub fn display(&self, e: Id) -> String {
        let mut s = String::new();
        self.fmt_rec(e, 0, &mut s);
        s
    }

    // prec: 0 top/sum, 1 product, 2 power base/unary
    fn fmt_rec(&self, e: Id, prec: u8, out: &mut String) {
        match self.node(e) {
            Node::Num(n) => {
                let neg = n.is_negative();
                let frac = matches!(n, Number::Rat(_, d) if *d != 1);
                let paren = (neg || frac) && prec > 0;
                if paren {
                    out.push('(');
                }
                out.push_str(&n.to_string());
                if paren {
                    out.push(')');
                }
            }
            Node::Sym(s) => out.push_str(self.symbol_name(*s)),
            Node::Add(c, ts) => {
                let single = c.is_zero() && ts.len() == 1;
                let paren = if single { prec >= 2 } else { prec >= 1 };
                if paren {
                    out.push('(');
                }
                let mut first = true;
                for (k, t) in ts.iter() {
                    let neg = k.is_negative();
                    let ak = if neg { k.neg() } else { *k };
                    if first {
                        if neg {
                            out.push('-');
                        }
                    } else {
                        out.push_str(if neg { " - " } else { " + " });
                    }
                    first = false;
                    let no_numerator =
                        matches!(self.node(*t), Node::Mul(fs) if fs.iter().all(|(_, e)| *e < 0));
                    if !ak.is_one() {
                        out.push_str(&ak.to_string());
                        if !no_numerator {
                            out.push('*');
                        }
                    }
                    if no_numerator && !ak.is_one() {
                        let mut inner = String::new();
                        self.fmt_rec(*t, 1, &mut inner);
                        out.push_str(inner.trim_start_matches('1'));
                    } else {
                        self.fmt_rec(*t, 1, out);
                    }
                }
                if !c.is_zero() {
                    let neg = c.is_negative();
                    out.push_str(if neg { " - " } else { " + " });
                    out.push_str(&(if neg { c.neg() } else { *c }).to_string());
                }
                if paren {
                    out.push(')');
                }
            }
            Node::Mul(fs) => {
                let num: Vec<_> = fs.iter().filter(|(_, e)| *e > 0).collect();
                let den: Vec<_> = fs.iter().filter(|(_, e)| *e < 0).collect();
                let paren = prec >= 2;
                if paren {
                    out.push('(');
                }
                if num.is_empty() {
                    out.push('1');
                }
                for (i, (b, ex)) in num.iter().enumerate() {
                    if i > 0 {
                        out.push('*');
                    }
                    self.fmt_pow(*b, *ex, out);
                }
                if !den.is_empty() {
                    out.push('/');
                    if den.len() > 1 {
                        out.push('(');
                    }
                    for (i, (b, ex)) in den.iter().enumerate() {
                        if i > 0 {
                            out.push('*');
                        }
                        self.fmt_pow(*b, -ex, out);
                    }
                    if den.len() > 1 {
                        out.push(')');
                    }
                }
                if paren {
                    out.push(')');
                }
            }
            Node::Fn(f, u) => {
                out.push_str(f.name());
                out.push('(');
                self.fmt_rec(*u, 0, out);
                out.push(')');
            }
            Node::Fn2(f, a, b) => {
                out.push_str(match f {
                    Func2::Atan2 => "atan2(",
                    Func2::Powf => "powf(",
                });
                self.fmt_rec(*a, 0, out);
                out.push_str(", ");
                self.fmt_rec(*b, 0, out);
                out.push(')');
            }
        }
    }

    fn fmt_pow(&self, b: Id, ex: i32, out: &mut String) {
        if ex == 1 {
            self.fmt_rec(b, 2, out);
        } else {
            self.fmt_rec(b, 2, out);
            out.push('^');
            out.push_str(&ex.to_string());
        }
    }
}

impl Graph {
    /// The directional derivative `sum_k d e / d x_k * dir_k` for the symbols `x_k` of
    /// `dirs` (exact forward-mode differentiation, symbolically). The derivative of an
    /// auxiliary atom is itself an atom (memoized), so the result stays as compact as `e`.
    pub fn directional(
        &mut self,
        e: Id,
        dirs: &HashMap<u32, Id>,
        memo: &mut HashMap<Id, Id>,
    ) -> Id {
        if let Some(d) = memo.get(&e) {
            return *d;
        }
        let keys: Vec<u32> = dirs.keys().copied().collect();
        if !self.depends_on_any(e, &keys) {
            return self.zero();
        }
        let order = self.postorder(e, |g, id| {
            g.depends_on_any(id, &keys) && !memo.contains_key(&id)
        });
        let mut d = self.zero();
        for id in order {
            d = self.directional_node(id, dirs, &keys, memo);
        }
        d
    }

    /// [`directional`](Self::directional) of one node whose operands are in `memo`.
    fn directional_node(
        &mut self,
        e: Id,
        dirs: &HashMap<u32, Id>,
        keys: &[u32],
        memo: &mut HashMap<Id, Id>,
    ) -> Id {
        let d = match self.node(e).clone() {
            Node::Num(_) => self.zero(),
            Node::Sym(s) => {
                if let Some(v) = dirs.get(&s) {
                    *v
                } else if let Some(def) = self.definition(s) {
                    let dd = self.directional(def, dirs, memo);
                    let name = format!("d{}", self.symbol_name(s));
                    self.define_if_large(&name, dd, 8)
                } else {
                    self.zero()
                }
            }
            Node::Add(_, ts) => {
                let mut parts = Vec::with_capacity(ts.len());
                for (k, t) in ts.iter() {
                    let dt = self.directional(*t, dirs, memo);
                    parts.push(self.scale(*k, dt));
                }
                self.add_all(&parts)
            }
            Node::Mul(fs) => {
                let mut parts = Vec::with_capacity(fs.len());
                for (i, (b, ex)) in fs.iter().enumerate() {
                    if !self.depends_on_any(*b, keys) {
                        continue;
                    }
                    let db = self.directional(*b, dirs, memo);
                    let mut factors = Vec::with_capacity(fs.len() + 1);
                    for (j, (b2, e2)) in fs.iter().enumerate() {
                        factors.push(if i == j {
                            self.powi(*b2, ex - 1)
                        } else {
                            self.powi(*b2, *e2)
                        });
                    }
                    factors.push(db);
                    let prod = self.mul_all(&factors);
                    parts.push(self.scale(Number::int(*ex as i64), prod));
                }
                self.add_all(&parts)
            }
            Node::Fn(f, u) => {
                let du = self.directional(u, dirs, memo);
                let outer = self.func_derivative_pub(f, u);
                self.mul(outer, du)
            }
            Node::Fn2(Func2::Atan2, y, x) => {
                let dy = self.directional(y, dirs, memo);
                let dx = self.directional(x, dirs, memo);
                let a = self.mul(x, dy);
                let b = self.mul(y, dx);
                let num = self.sub(a, b);
                let x2 = self.powi(x, 2);
                let y2 = self.powi(y, 2);
                let den = self.add(x2, y2);
                self.div(num, den)
            }
            Node::Fn2(Func2::Powf, a, b) => {
                let da = self.directional(a, dirs, memo);
                let db = self.directional(b, dirs, memo);
                let ln_a = self.func(Func::Ln, a);
                let t1 = self.mul(db, ln_a);
                let ba = self.mul(b, da);
                let t2 = self.div(ba, a);
                let inner = self.add(t1, t2);
                self.mul(e, inner)
            }
        };
        memo.insert(e, d);
        d
    }

    fn func_derivative_pub(&mut self, f: Func, u: Id) -> Id {
        self.func_derivative(f, u)
    }
}
