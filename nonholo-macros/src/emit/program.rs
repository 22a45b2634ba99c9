//! The straight-line program a block of outputs becomes before it is written as Rust.
//!
//! The graph keeps sums flat (a sum of monomials is the canonical form the algebra needs),
//! but code wants them factored: `a*x*y + a*x*z + b` costs five multiplications flat and
//! two as `a*x*(y + z) + b`. Factoring is greedy multivariate Horner (the base shared by
//! most terms is pulled out, recursively). Every factored piece is an [`Op`] in a
//! hash-consed arena, memoized by its set of terms, so a sub-polynomial that turns up
//! inside many sums (a determinant's cofactor, `G_k`'s numerator in Talamucci's unicycle)
//! is one op, computed once: sharing is decided after factoring, over the whole block.
//! A denominator used by two or more quotients becomes one reciprocal.

use crate::sym::HashMap;
use crate::sym::{Func, Func2, Graph, Id, Node, Number};

/// The latency of an addition or a multiplication, in cycles ([`Program::ready_times`]).
pub const FLOP: u32 = 4;
/// The latency of a division, in cycles.
pub const DIV: u32 = 14;
/// The latency of an elementary function (a call), in cycles.
const CALL: u32 = 40;

/// When a term `k x` of a sum is ready, `x` being ready at `ready`: a coefficient other
/// than +-1 is one more multiplication.
pub fn term_ready(ready: u32, k: &Number) -> u32 {
    if k.is_one() || k.neg().is_one() {
        ready
    } else {
        ready + FLOP
    }
}

/// When a factor `x^e` (`e >= 1`) of a product is ready, `x` being ready at `ready`.
pub fn factor_ready(ready: u32, e: i32) -> u32 {
    ready + FLOP * (e.unsigned_abs() - 1)
}

/// Operands `(ready, x)` combined two at a time by `combine`, the two ready earliest first
/// (ties in the given order, so the result is deterministic): the latest operand costs one
/// operation after it is ready, and operands ready together form a balanced tree, not a
/// chain. The combined value and when it is ready; `None` for no operands.
pub fn earliest_first<T>(
    xs: Vec<(u32, T)>,
    mut combine: impl FnMut(T, T) -> T,
) -> Option<(u32, T)> {
    let mut pending: std::collections::BTreeMap<(u32, usize), T> = xs
        .into_iter()
        .enumerate()
        .map(|(i, (r, x))| ((r, i), x))
        .collect();
    let mut seq = pending.len();
    loop {
        let ((ra, _), a) = pending.pop_first()?;
        let Some(((rb, _), b)) = pending.pop_first() else {
            return Some((ra, a));
        };
        pending.insert((ra.max(rb) + FLOP, seq), combine(a, b));
        seq += 1;
    }
}

/// Index of an [`Op`] in a [`Program`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct OpId(pub u32);

/// One operation of the program.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    Num(Number),
    /// A symbol of the graph, read through the block's bindings.
    Sym(u32),
    /// `c + sum k_i x_i`, terms in the factoring's (deterministic) order.
    Sum(Number, Box<[(Number, OpId)]>),
    /// `prod x_i^e_i`, `e_i >= 1`; a factor may be a [`Op::Recip`] (a quotient).
    Mul(Box<[(OpId, i32)]>),
    /// `1 / x`.
    Recip(OpId),
    Fn(Func, OpId),
    Fn2(Func2, OpId, OpId),
}

/// A term `k * prod b^e` of a graph sum, the bases being graph nodes.
type Term = (Number, Vec<(Id, i32)>);

/// Hash-consed ops built from the nodes of one graph.
pub struct Program<'g> {
    pub g: &'g Graph,
    ops: Vec<Op>,
    memo: HashMap<Op, OpId>,
    of_node: HashMap<Id, OpId>,
    of_product: HashMap<Vec<(Id, i32)>, OpId>,
    of_terms: HashMap<Vec<Term>, Vec<(Number, OpId)>>,
    /// The sines and cosines the block computes, by (function, argument).
    trig: HashMap<(Func, Id), Id>,
}

impl<'g> Program<'g> {
    /// A program for the nodes under `roots`, through the definitions of the auxiliary
    /// symbols it computes itself (those `bound` are computed elsewhere).
    pub fn new(g: &'g Graph, roots: &[Id], bound: impl Fn(u32) -> bool) -> Self {
        let mut trig = HashMap::default();
        let mut stack = roots.to_vec();
        let mut seen = crate::sym::HashSet::default();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            match g.node(id) {
                Node::Sym(s) if !bound(*s) => stack.extend(g.definition(*s)),
                Node::Fn(f @ (Func::Sin | Func::Cos), a) => {
                    trig.insert((*f, *a), id);
                }
                _ => {}
            }
            stack.extend(g.children(id));
        }
        Program {
            g,
            ops: Vec::new(),
            memo: HashMap::default(),
            of_node: HashMap::default(),
            of_product: HashMap::default(),
            of_terms: HashMap::default(),
            trig,
        }
    }

    /// The op equal to `op`, if the program has one.
    pub fn find(&self, op: &Op) -> Option<OpId> {
        self.memo.get(op).copied()
    }

    /// The number of ops.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    pub fn op(&self, id: OpId) -> &Op {
        &self.ops[id.0 as usize]
    }

    pub(super) fn intern(&mut self, op: Op) -> OpId {
        if let Some(id) = self.memo.get(&op) {
            return *id;
        }
        let id = OpId(self.ops.len() as u32);
        self.ops.push(op.clone());
        self.memo.insert(op, id);
        id
    }

    /// The operands of `id`.
    pub fn children(&self, id: OpId) -> Vec<OpId> {
        match self.op(id) {
            Op::Num(_) | Op::Sym(_) => vec![],
            Op::Sum(_, ts) => ts.iter().map(|(_, x)| *x).collect(),
            Op::Mul(fs) => fs.iter().map(|(x, _)| *x).collect(),
            Op::Recip(x) | Op::Fn(_, x) => vec![*x],
            Op::Fn2(_, a, b) => vec![*a, *b],
        }
    }

    /// An estimate of when each op's value is ready, in cycles from the block's inputs
    /// (an addition or multiplication [`FLOP`], a division 14, an elementary function 40),
    /// with sums and products combined by [`earliest_first`], as the emitter writes them.
    /// Ops are interned after their operands, so one pass in order suffices.
    pub fn ready_times(&self) -> Vec<u32> {
        let mut ready: Vec<u32> = Vec::with_capacity(self.ops.len());
        let chain = |xs: Vec<u32>| -> u32 {
            earliest_first(xs.into_iter().map(|r| (r, ())).collect(), |_, _| ())
                .map_or(0, |(r, _)| r)
        };
        for op in &self.ops {
            let r = match op {
                Op::Num(_) => 0,
                // an atom computed in the block is ready when its definition is
                Op::Sym(s) => self
                    .g
                    .definition(*s)
                    .and_then(|d| self.of_node.get(&d))
                    .and_then(|o| ready.get(o.0 as usize).copied())
                    .unwrap_or(0),
                Op::Sum(_, ts) => chain(
                    ts.iter()
                        .map(|(k, x)| term_ready(ready[x.0 as usize], k))
                        .collect(),
                ),
                Op::Mul(fs) => {
                    let (mut num, mut den) = (Vec::new(), Vec::new());
                    for (x, e) in fs.iter() {
                        match &self.ops[x.0 as usize] {
                            Op::Recip(d) if *e == 1 => den.push(ready[d.0 as usize]),
                            _ => num.push(factor_ready(ready[x.0 as usize], *e)),
                        }
                    }
                    if den.is_empty() {
                        chain(num)
                    } else {
                        chain(num).max(chain(den)) + DIV
                    }
                }
                Op::Recip(x) => ready[x.0 as usize] + DIV,
                Op::Fn(_, x) => ready[x.0 as usize] + CALL,
                Op::Fn2(_, a, b) => ready[a.0 as usize].max(ready[b.0 as usize]) + CALL,
            };
            ready.push(r);
        }
        ready
    }

    /// The op computing graph node `id`.
    pub fn lower(&mut self, id: Id) -> OpId {
        if let Some(op) = self.of_node.get(&id) {
            return *op;
        }
        let op = match self.g.node(id).clone() {
            Node::Num(n) => self.intern(Op::Num(n)),
            Node::Sym(s) => self.intern(Op::Sym(s)),
            Node::Add(c, ts) => {
                let terms: Vec<Term> = ts.iter().map(|(k, t)| (*k, self.factors_of(*t))).collect();
                let ts = self.factored(terms);
                self.sum(c, ts)
            }
            Node::Mul(fs) => self.product(fs.to_vec()),
            Node::Fn(f, a) => match self.trig_of_sum(f, a) {
                Some(op) => op,
                None => {
                    let a = self.lower(a);
                    self.intern(Op::Fn(f, a))
                }
            },
            Node::Fn2(f, a, b) => {
                let a = self.lower(a);
                let b = self.lower(b);
                self.intern(Op::Fn2(f, a, b))
            }
        };
        self.of_node.insert(id, op);
        op
    }

    /// `sin(a ± b)` and `cos(a ± b)` by the addition theorems when the block computes
    /// the sines and cosines of `a` and `b` anyway: four multiplications instead of a
    /// call (Talamucci's `sin(theta + theta1)`).
    fn trig_of_sum(&mut self, f: Func, arg: Id) -> Option<OpId> {
        if !matches!(f, Func::Sin | Func::Cos) {
            return None;
        }
        let Node::Add(c, ts) = self.g.node(arg) else {
            return None;
        };
        let [(k1, t1), (k2, t2)] = ts.as_ref() else {
            return None;
        };
        let unit = |k: &Number| k.is_one() || *k == Number::MINUS_ONE;
        if !c.is_zero() || !unit(k1) || !unit(k2) {
            return None;
        }
        let (k1, k2, t1, t2) = (*k1, *k2, *t1, *t2);
        let s1 = *self.trig.get(&(Func::Sin, t1))?;
        let c1 = *self.trig.get(&(Func::Cos, t1))?;
        let s2 = *self.trig.get(&(Func::Sin, t2))?;
        let c2 = *self.trig.get(&(Func::Cos, t2))?;
        let (s1, c1, s2, c2) = (
            self.lower(s1),
            self.lower(c1),
            self.lower(s2),
            self.lower(c2),
        );
        let mut times = |a: OpId, b: OpId| {
            let mut fs = vec![(a, 1), (b, 1)];
            fs.sort();
            self.intern(Op::Mul(fs.into_boxed_slice()))
        };
        // sin(k1 a) = k1 sin a, cos(k1 a) = cos a for k1 = +-1
        let terms = if f == Func::Sin {
            vec![(k1, times(s1, c2)), (k2, times(c1, s2))]
        } else {
            vec![
                (Number::ONE, times(c1, c2)),
                (k1.mul(k2).neg(), times(s1, s2)),
            ]
        };
        Some(self.sum(Number::ZERO, terms))
    }

    fn factors_of(&self, t: Id) -> Vec<(Id, i32)> {
        match self.g.node(t) {
            Node::Mul(fs) => fs.to_vec(),
            _ => vec![(t, 1)],
        }
    }

    /// `c + sum k_i x_i` as one op (a lone unit term is the term itself).
    pub(super) fn sum(&mut self, c: Number, ts: Vec<(Number, OpId)>) -> OpId {
        if ts.is_empty() {
            return self.intern(Op::Num(c));
        }
        if c.is_zero() && ts.len() == 1 && ts[0].0.is_one() {
            return ts[0].1;
        }
        self.intern(Op::Sum(c, ts.into_boxed_slice()))
    }

    /// `prod b^e` over graph bases (sorted by id, as in the graph's products); negative
    /// powers become one reciprocal of their product.
    fn product(&mut self, fs: Vec<(Id, i32)>) -> OpId {
        if let Some(op) = self.of_product.get(&fs) {
            return *op;
        }
        let mut num: Vec<(OpId, i32)> = Vec::new();
        let mut den: Vec<(OpId, i32)> = Vec::new();
        for (b, e) in &fs {
            let x = self.lower(*b);
            if *e > 0 {
                num.push((x, *e));
            } else {
                den.push((x, -*e));
            }
        }
        if !den.is_empty() {
            let r = self.recip(den);
            num.push((r, 1));
        }
        let op = self.mul(num);
        self.of_product.insert(fs, op);
        op
    }

    /// `1 / prod x^e`: from reciprocals the program already has where every factor has one
    /// (`1/(a^2 b)` as `(1/a)^2 (1/b)`: multiplications instead of another division),
    /// else one reciprocal of the product.
    fn recip(&mut self, den: Vec<(OpId, i32)>) -> OpId {
        let known: Option<Vec<(OpId, i32)>> = den
            .iter()
            .map(|(x, e)| self.find(&Op::Recip(*x)).map(|r| (r, *e)))
            .collect();
        match known {
            Some(mut fs) if !(den.len() == 1 && den[0].1 == 1) => {
                fs.sort();
                self.mul(fs)
            }
            _ => {
                let d = self.mul(den);
                self.intern(Op::Recip(d))
            }
        }
    }

    fn mul(&mut self, fs: Vec<(OpId, i32)>) -> OpId {
        match fs.as_slice() {
            [] => self.intern(Op::Num(Number::ONE)),
            [(x, 1)] => *x,
            _ => self.intern(Op::Mul(fs.into_boxed_slice())),
        }
    }

    /// The terms of a sum, common factors pulled out greedily, as (coefficient, op) pairs:
    /// the base shared by most terms is factored out of them, recursively (ties to the
    /// smaller node id, so the output is deterministic). Memoized by the set of terms, so
    /// equal sub-polynomials of different sums are one op.
    fn factored(&mut self, mut terms: Vec<Term>) -> Vec<(Number, OpId)> {
        terms.sort_by(|a, b| a.1.cmp(&b.1));
        if let Some(ts) = self.of_terms.get(&terms) {
            return ts.clone();
        }
        let key = terms.clone();
        let out = self.factor_greedy(terms);
        self.of_terms.insert(key, out.clone());
        out
    }

    /// [`Program::factored`]'s steps: group the terms holding the most common base, then
    /// go on with the rest. The counts are kept across the steps (a step takes its group's
    /// factors out of them), so a sum of `T` terms of `F` factors costs `O(T F)` plus a
    /// scan of the bases per step, not a recount (`O(T^2 F)` over a long sum: a large
    /// model's forcing and power-balance sums have hundreds of terms).
    fn factor_greedy(&mut self, mut terms: Vec<Term>) -> Vec<(Number, OpId)> {
        let mut count: HashMap<(Id, bool), usize> = HashMap::default();
        for (_, fs) in &terms {
            for (b, e) in fs {
                *count.entry((*b, *e > 0)).or_insert(0) += 1;
            }
        }
        let mut out = Vec::new();
        loop {
            let best = count
                .iter()
                .filter(|(_, n)| **n >= 2)
                .max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(x.0)))
                .map(|(key, _)| *key);
            let Some((base, positive)) = best else {
                for (k, fs) in terms {
                    let x = self.product(fs);
                    out.push((k, x));
                }
                return out;
            };
            let holds = |fs: &[(Id, i32)]| {
                fs.iter()
                    .position(|(b, x)| *b == base && (*x > 0) == positive)
            };
            let e = terms
                .iter()
                .filter_map(|(_, fs)| holds(fs).map(|i| fs[i].1.abs()))
                .min()
                .unwrap_or(1);
            let mut with = Vec::new();
            let mut without = Vec::new();
            for (k, mut fs) in terms {
                match holds(&fs) {
                    Some(i) => {
                        for (b, x) in &fs {
                            let key = (*b, *x > 0);
                            if let Some(n) = count.get_mut(&key) {
                                *n -= 1;
                                if *n == 0 {
                                    count.remove(&key);
                                }
                            }
                        }
                        fs[i].1 -= if positive { e } else { -e };
                        if fs[i].1 == 0 {
                            fs.remove(i);
                        }
                        with.push((k, fs));
                    }
                    None => without.push((k, fs)),
                }
            }
            // `with` as k * (inner), inner's coefficients scaled to +-1 where they are all
            // of one magnitude, so that `2a - 2b` and `b - a` share `a - b`
            let (k, inner) = self.content(with);
            let b = self.lower(base);
            let b = if positive {
                self.mul(vec![(b, e)])
            } else {
                self.recip(vec![(b, e)])
            };
            let grouped = if matches!(self.op(inner), Op::Num(n) if n.is_one()) {
                b
            } else if b == inner {
                self.intern(Op::Mul(vec![(b, 2)].into_boxed_slice()))
            } else {
                let mut fs = vec![(b, 1), (inner, 1)];
                fs.sort();
                self.intern(Op::Mul(fs.into_boxed_slice()))
            };
            out.push((k, grouped));
            if without.is_empty() {
                return out;
            }
            terms = without;
        }
    }

    /// `sum k_i t_i = k * op`, `op` the factored sum with its content taken out.
    fn content(&mut self, with: Vec<Term>) -> (Number, OpId) {
        let (mut constant, mut rest) = (Number::ZERO, Vec::new());
        for (k, fs) in with {
            if fs.is_empty() {
                constant = constant.add(k);
            } else {
                rest.push((k, fs));
            }
        }
        let lead = rest.first().map(|(k, _)| *k).unwrap_or(constant);
        let all_one_size = rest.iter().all(|(k, _)| *k == lead || *k == lead.neg())
            && (constant.is_zero() || constant == lead || constant == lead.neg());
        let scale = if all_one_size && !lead.is_zero() {
            lead
        } else if lead.is_negative() {
            Number::MINUS_ONE
        } else {
            Number::ONE
        };
        let inv = scale.recip();
        let rest: Vec<Term> = rest.into_iter().map(|(k, fs)| (k.mul(inv), fs)).collect();
        let ts = if rest.is_empty() {
            Vec::new()
        } else {
            self.factored(rest)
        };
        let op = self.sum(constant.mul(inv), ts);
        (scale, op)
    }
}
