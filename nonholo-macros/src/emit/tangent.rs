//! Forward-mode derivatives over a [`Program`]: the tangent of every op in the directions
//! of chosen symbols (the state and the inputs), built as more ops of the same program.
//!
//! This is the split primal/tangent form of dual numbers: a dual pass per direction
//! recomputes every value, and every `sin`, division and product of the primal with it;
//! here the values are computed once, each derivative factor (`cos x` for `sin x`, the
//! cofactors of a product, `-1/x^2` for `1/x`) once for all directions, and per direction
//! only what is structurally nonzero: a column's tangent is carried only through the ops
//! that depend on its symbol. The tangent ops are hash-consed with the primal's, so the
//! emitter shares them like any other subexpression. [`block_with_tangents`] writes a
//! block's values and tangents as Rust.

use super::code::{emit_ops, Lowered};
use super::program::{Op, OpId, Program};
use super::render::{Bindings, Num};
use crate::sym::{Func, Func2, Graph, HashMap, Id, Number};
use proc_macro2::TokenStream;
use std::collections::BTreeMap;

/// The tangent of one op: `(column, k, x)` for `k * x` in that column, sorted by column,
/// absent columns zero.
pub type Tangent = Vec<(u32, Number, OpId)>;

/// One operand's share of an op's tangent: `scale * cofactor * d operand` (no cofactor:
/// 1).
type Share = (Number, Option<OpId>, OpId);

impl Program<'_> {
    /// The tangents of `outputs` in the directions `seeds` (a symbol's column), through the
    /// auxiliary symbols the block computes (`defs`: the op of each one's definition;
    /// every other symbol is constant). Iterative, so no depth of the program can
    /// overflow the macro's stack. `None` as soon as the program passes `limit` ops, so
    /// that a model too large for them costs no more than the limit's worth of work.
    pub fn tangents(
        &mut self,
        outputs: &[OpId],
        seeds: &HashMap<u32, u32>,
        defs: &HashMap<u32, OpId>,
        limit: usize,
    ) -> Option<Vec<Tangent>> {
        let mut memo: HashMap<OpId, Tangent> = HashMap::default();
        let operands = |p: &Program, id: OpId| match p.op(id) {
            Op::Sym(s) => defs.get(s).copied().into_iter().collect(),
            _ => p.children(id),
        };
        for root in outputs {
            let mut stack = vec![(*root, false)];
            while let Some((id, ready)) = stack.pop() {
                if memo.contains_key(&id) {
                    continue;
                }
                if !ready {
                    stack.push((id, true));
                    for c in operands(self, id) {
                        if !memo.contains_key(&c) {
                            stack.push((c, false));
                        }
                    }
                    continue;
                }
                let t = self.tangent_of(id, seeds, defs, &memo);
                memo.insert(id, t);
                if self.len() > limit {
                    return None;
                }
            }
        }
        Some(outputs.iter().map(|o| memo[o].clone()).collect())
    }

    /// The tangent of op `id` from its operands' (in `memo`).
    fn tangent_of(
        &mut self,
        id: OpId,
        seeds: &HashMap<u32, u32>,
        defs: &HashMap<u32, OpId>,
        memo: &HashMap<OpId, Tangent>,
    ) -> Tangent {
        let varies = |x: &OpId| !memo[x].is_empty();
        // each operand's share: (scale, cofactor, operand)
        let shares: Vec<Share> = match self.op(id).clone() {
            Op::Num(_) => return Vec::new(),
            Op::Sym(s) => {
                if let Some(col) = seeds.get(&s) {
                    let one = self.intern(Op::Num(Number::ONE));
                    return vec![(*col, Number::ONE, one)];
                }
                return defs.get(&s).map(|d| memo[d].clone()).unwrap_or_default();
            }
            Op::Sum(_, ts) => ts
                .iter()
                .filter(|(_, x)| varies(x))
                .map(|(k, x)| (*k, None, *x))
                .collect(),
            Op::Mul(fs) => {
                let fs = fs.to_vec();
                let vary: Vec<usize> = (0..fs.len()).filter(|i| varies(&fs[*i].0)).collect();
                vary.iter()
                    .map(|i| {
                        // the product with one power of factor i taken out
                        let mut rest = fs.clone();
                        rest[*i].1 -= 1;
                        let cof = self.ops_product(rest);
                        (Number::int(fs[*i].1 as i64), Some(cof), fs[*i].0)
                    })
                    .collect()
            }
            // d(1/x) = -(1/x)^2 dx
            Op::Recip(x) => {
                let sq = self.ops_product(vec![(id, 2)]);
                vec![(Number::MINUS_ONE, Some(sq), x)]
            }
            Op::Fn(f, x) => {
                let Some((k, outer)) = self.outer_derivative(f, x, id) else {
                    return Vec::new();
                };
                vec![(k, Some(outer), x)]
            }
            // d atan2(y, x) = (x dy - y dx) / (x^2 + y^2)
            Op::Fn2(Func2::Atan2, y, x) => {
                let (x2, y2) = (
                    self.ops_product(vec![(x, 2)]),
                    self.ops_product(vec![(y, 2)]),
                );
                let r2 = self.sum(Number::ZERO, vec![(Number::ONE, x2), (Number::ONE, y2)]);
                let inv = self.intern(Op::Recip(r2));
                let (cy, cx) = (
                    self.ops_product(vec![(x, 1), (inv, 1)]),
                    self.ops_product(vec![(y, 1), (inv, 1)]),
                );
                vec![(Number::ONE, Some(cy), y), (Number::MINUS_ONE, Some(cx), x)]
            }
            // d a^b = a^b (ln a db + b/a da)
            Op::Fn2(Func2::Powf, a, b) => {
                let inv_a = self.intern(Op::Recip(a));
                let ln_a = self.intern(Op::Fn(Func::Ln, a));
                let ca = self.ops_product(vec![(id, 1), (b, 1), (inv_a, 1)]);
                let cb = self.ops_product(vec![(id, 1), (ln_a, 1)]);
                vec![(Number::ONE, Some(ca), a), (Number::ONE, Some(cb), b)]
            }
        };
        // column by column: the sum of the shares' terms there
        let mut by_col: BTreeMap<u32, Vec<(Number, OpId)>> = BTreeMap::new();
        for (scale, cof, x) in shares {
            for (col, k, t) in &memo[&x] {
                let term = match cof {
                    Some(c) => self.ops_product(vec![(c, 1), (*t, 1)]),
                    None => *t,
                };
                by_col.entry(*col).or_default().push((scale.mul(*k), term));
            }
        }
        by_col
            .into_iter()
            .filter_map(|(col, terms)| {
                let (k, x) = self.combination(terms)?;
                Some((col, k, x))
            })
            .collect()
    }

    /// `f'(x)` as `(k, op)` for `k * op` (`y` the op `f(x)` itself); `None` where it is
    /// zero.
    fn outer_derivative(&mut self, f: Func, x: OpId, y: OpId) -> Option<(Number, OpId)> {
        let one = Number::ONE;
        Some(match f {
            Func::Sin => (one, self.intern(Op::Fn(Func::Cos, x))),
            Func::Cos => (Number::MINUS_ONE, self.intern(Op::Fn(Func::Sin, x))),
            Func::Tan => {
                let y2 = self.ops_product(vec![(y, 2)]);
                (one, self.sum(one, vec![(one, y2)]))
            }
            Func::Asin | Func::Acos => {
                let x2 = self.ops_product(vec![(x, 2)]);
                let r = self.sum(one, vec![(Number::MINUS_ONE, x2)]);
                let sq = self.intern(Op::Fn(Func::Sqrt, r));
                let k = if f == Func::Acos {
                    Number::MINUS_ONE
                } else {
                    one
                };
                (k, self.intern(Op::Recip(sq)))
            }
            Func::Atan => {
                let x2 = self.ops_product(vec![(x, 2)]);
                let r = self.sum(one, vec![(one, x2)]);
                (one, self.intern(Op::Recip(r)))
            }
            Func::Sinh => (one, self.intern(Op::Fn(Func::Cosh, x))),
            Func::Cosh => (one, self.intern(Op::Fn(Func::Sinh, x))),
            Func::Tanh => {
                let y2 = self.ops_product(vec![(y, 2)]);
                (one, self.sum(one, vec![(Number::MINUS_ONE, y2)]))
            }
            Func::Exp => (one, y),
            Func::Ln => (one, self.intern(Op::Recip(x))),
            Func::Sqrt => (Number::rat(1, 2), self.intern(Op::Recip(y))),
            Func::Abs => (one, self.intern(Op::Fn(Func::Sign, x))),
            Func::Sign => return None,
        })
    }

    /// `prod x^e` over ops: factors sorted and merged, ones and zero powers dropped.
    pub(super) fn ops_product(&mut self, mut fs: Vec<(OpId, i32)>) -> OpId {
        fs.retain(|(x, e)| *e != 0 && !matches!(self.op(*x), Op::Num(n) if n.is_one()));
        fs.sort();
        let mut merged: Vec<(OpId, i32)> = Vec::with_capacity(fs.len());
        for (x, e) in fs {
            match merged.last_mut() {
                Some((y, f)) if *y == x => *f += e,
                _ => merged.push((x, e)),
            }
        }
        match merged.as_slice() {
            [] => self.intern(Op::Num(Number::ONE)),
            [(x, 1)] => *x,
            _ => self.intern(Op::Mul(merged.into_boxed_slice())),
        }
    }

    /// `sum k_i x_i` as `(k, x)` for `k * x`: equal ops merged, the common coefficient of
    /// the terms taken out; `None` when nothing is left.
    fn combination(&mut self, terms: Vec<(Number, OpId)>) -> Option<(Number, OpId)> {
        let mut merged: BTreeMap<OpId, Number> = BTreeMap::new();
        for (k, x) in terms {
            let e = merged.entry(x).or_insert(Number::ZERO);
            *e = e.add(k);
        }
        let ts: Vec<(Number, OpId)> = merged
            .into_iter()
            .filter(|(_, k)| !k.is_zero())
            .map(|(x, k)| (k, x))
            .collect();
        let lead = ts.first()?.0;
        if ts.len() == 1 {
            return Some(ts[0]);
        }
        if ts.iter().all(|(k, _)| *k == lead) {
            let unit = ts.into_iter().map(|(_, x)| (Number::ONE, x)).collect();
            return Some((lead, self.sum(Number::ZERO, unit)));
        }
        Some((Number::ONE, self.sum(Number::ZERO, ts)))
    }
}

/// What a [`block_with_tangents`] computes besides its differentiated outputs.
#[derive(Default)]
pub struct Extra<'a> {
    /// Outputs computed and not differentiated.
    pub values: &'a [Id],
    /// Symbols the block computes from these expressions and holds: their tangents are
    /// zero (`dz/dt` in the residual of [`crate::mechanics::recursive::Recursive`]).
    pub held: &'a [(u32, Id)],
    /// Symbols bound inside a closure of the caller's: the `let`s that read them are
    /// [`WithTangents::inner_lets`].
    pub inner: &'a [u32],
}

/// A block's values and their derivatives ([`block_with_tangents`]).
pub struct WithTangents {
    pub lets: TokenStream,
    /// The `let`s that read [`Extra::inner`]'s symbols, for the caller's inner closure.
    pub inner_lets: TokenStream,
    /// The differentiated outputs', then [`Extra::values`]'.
    pub values: Vec<TokenStream>,
    /// Per output, `(column, derivative)` for every column it depends on, by column.
    pub tangents: Vec<Vec<(usize, TokenStream)>>,
    /// The block's operations without and with the tangents (printed by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub ops: (usize, usize),
}

/// Straight-line code computing `outputs` and their partial derivatives by the symbols
/// `seeds` (column `i` for `seeds[i]`), forward mode over the block's program
/// ([`Program::tangents`]): one block, the derivatives sharing the values' subexpressions,
/// structural zeros absent. `Err` with the operations counted (the values', and all of
/// them when it stopped) once the block passes `limit`: nothing more is derived or
/// written then; `Err((0, 0))` where an auxiliary symbol the caller binds depends on a
/// seed (its tangent is not the block's to compute).
pub fn block_with_tangents(
    g: &Graph,
    (outputs, extra): (&[Id], &Extra),
    seeds: &[u32],
    bind: &Bindings,
    (prefix, num): (&str, Num),
    limit: usize,
) -> Result<WithTangents, (usize, usize)> {
    // an auxiliary symbol the caller computes is a constant to the tangents: if one stands
    // for a function of the seeds, they cannot be had here
    if bind
        .keys()
        .filter_map(|s| g.definition(*s))
        .any(|d| seeds.iter().any(|x| g.depends_on(d, *x)))
    {
        return Err((0, 0));
    }
    let mut all = outputs.to_vec();
    all.extend(extra.values);
    let mut lowered = Lowered::new(g, &all, bind, extra.held);
    let primal = lowered.p.len();
    let defs: HashMap<u32, OpId> = lowered
        .defined
        .iter()
        .copied()
        .zip(lowered.roots.iter().copied())
        .filter(|(s, _)| !lowered.held.contains(s))
        .collect();
    let seeds: HashMap<u32, u32> = seeds
        .iter()
        .enumerate()
        .map(|(i, s)| (*s, i as u32))
        .collect();
    let outs = lowered.outs.clone();
    let Some(tangents) = lowered
        .p
        .tangents(&outs[..outputs.len()], &seeds, &defs, limit)
    else {
        return Err((primal, lowered.p.len()));
    };
    let mut all = outs;
    let mut at = Vec::new();
    for (o, t) in tangents.iter().enumerate() {
        for (col, k, x) in t {
            let op = if k.is_one() {
                *x
            } else {
                lowered.p.sum(Number::ZERO, vec![(*k, *x)])
            };
            at.push((o, *col as usize));
            all.push(op);
        }
    }
    let ops = (primal, lowered.p.len());
    if ops.1 > limit {
        return Err(ops);
    }
    let (lets, inner_lets, mut rendered) =
        emit_ops(&lowered, &all, bind, extra.inner, (prefix, num));
    let mut out = vec![Vec::new(); outputs.len()];
    let n_values = outputs.len() + extra.values.len();
    for ((o, col), e) in at.into_iter().zip(rendered.split_off(n_values)) {
        out[o].push((col, e));
    }
    Ok(WithTangents {
        lets,
        inner_lets,
        values: rendered,
        tangents: out,
        ops,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Graph;

    /// The value of op `id` with symbol `s` at `env(s)`.
    fn value(p: &Program, id: OpId, env: &dyn Fn(u32) -> f64) -> f64 {
        match p.op(id) {
            Op::Num(n) => n.to_f64(),
            Op::Sym(s) => env(*s),
            Op::Sum(c, ts) => ts.iter().fold(c.to_f64(), |acc, (k, x)| {
                acc + k.to_f64() * value(p, *x, env)
            }),
            Op::Mul(fs) => fs
                .iter()
                .fold(1.0, |acc, (x, e)| acc * value(p, *x, env).powi(*e)),
            Op::Recip(x) => 1.0 / value(p, *x, env),
            Op::Fn(f, x) => f.eval(value(p, *x, env)),
            Op::Fn2(Func2::Atan2, y, x) => value(p, *y, env).atan2(value(p, *x, env)),
            Op::Fn2(Func2::Powf, a, b) => value(p, *a, env).powf(value(p, *b, env)),
        }
    }

    /// The tangents of `e` (over `x`, `y`) by the program against the graph's symbolic
    /// derivatives, at (x, y) = (0.7, -0.4); the columns it does not depend on absent.
    fn check(e: &str) {
        let mut g = Graph::new();
        let mut syms = HashMap::default();
        let id = crate::sym::tests::build(&mut g, &mut syms, e);
        let vars: Vec<u32> = ["x", "y"]
            .iter()
            .filter_map(|v| syms.get(*v).copied())
            .collect();
        let mut env = vec![0.0; syms.len()];
        for (name, s) in &syms {
            env[*s as usize] = if name == "x" { 0.7 } else { -0.4 };
        }
        let derivatives: Vec<(u32, f64, bool)> = vars
            .iter()
            .map(|s| {
                let d = g.diff(id, *s);
                (*s, g.eval(d, &env, &mut HashMap::default()), g.is_zero(d))
            })
            .collect();
        let mut p = Program::new(&g, &[id], |_| true);
        let out = p.lower(id);
        let seeds: HashMap<u32, u32> = vars.iter().map(|s| (*s, *s)).collect();
        let t = p
            .tangents(&[out], &seeds, &HashMap::default(), usize::MAX)
            .expect("no limit");
        for (s, want, zero) in derivatives {
            let got = t[0]
                .iter()
                .find(|(c, _, _)| *c == s)
                .map_or(0.0, |(_, k, op)| {
                    k.to_f64() * value(&p, *op, &|v| env[v as usize])
                });
            assert!(
                (got - want).abs() <= 1e-13 * want.abs().max(1.0),
                "{e}: d/d{s}: {got} against {want}"
            );
            assert_eq!(zero, !t[0].iter().any(|(c, _, _)| *c == s), "{e}");
        }
    }

    #[test]
    fn tangents_equal_the_symbolic_derivatives() {
        for e in [
            "x*1 + 0",
            "3*x*x*y - y/x + 2",
            "sin(x + y)*cos(x) - tan(y)",
            "sqrt(x*x + y*y) + atan2(y, x)",
            "exp(x*y)*ln(x) + powf(x, y)",
            "asin(x) + atan(x*y) + tanh(x)*y",
            "abs(y)*powi(x, 3) + 1/(x*x*y)",
            "sin(x)*x",
            "7 + y",
        ] {
            check(e);
        }
    }
}
