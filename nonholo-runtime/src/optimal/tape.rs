//! Second derivatives by reverse mode: a [`Scalar`] that records every operation on a
//! tape, and the sweeps that turn one recording into a whole Hessian.
//!
//! A function `y = sum_k w_k F_k(x)` evaluated in [`Var`] leaves a tape of elementary
//! operations `v_i = phi_i(v_a, v_b)`, each with its local partials `phi_a, phi_b` and
//! second partials `phi_aa, phi_ab, phi_bb`. Forward-over-reverse differentiation
//! (Griewank and Walther, *Evaluating Derivatives*, 2nd ed., section 5.4) gives the
//! Hessian's rows along `D` directions in two sweeps over that tape:
//!
//! ```text
//! forward:  tdot_i = phi_a tdot_a + phi_b tdot_b                     (tangents, D each)
//! reverse:  vbar_a += phi_a vbar_i
//!           vbar_dot_a += phi_a vbar_dot_i + vbar_i (phi_aa tdot_a + phi_ab tdot_b)
//!           (and the same for b)                     (adjoints and their tangents)
//! ```
//!
//! starting from `vbar = w` at the outputs; `vbar_dot` at leaf `j` is then row `j` of
//! `d2y/dx2` along the directions. The cost is one recording plus `O(D)` per operation,
//! where hyper-dual numbers cost one whole evaluation per Hessian entry: on the Whipple
//! bicycle's lane change the per-point Hessians take a fraction of the time (see the
//! guide's "Derivatives and the solver").
//!
//! The tape is thread-local and keeps its capacity from one recording to the next, so
//! recordings after the first allocate nothing.

use alloc::vec::Vec;
use core::cell::RefCell;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use crate::Scalar;

/// "No operand": a constant, or the missing second operand of a unary operation.
const NONE: u32 = u32::MAX;

/// One operation: its operands and local first and second partial derivatives.
#[derive(Clone, Copy, Debug)]
struct Entry {
    a: u32,
    b: u32,
    da: f64,
    db: f64,
    daa: f64,
    dab: f64,
    dbb: f64,
}

impl Entry {
    /// Whether every partial is finite (the sweeps' fast path).
    #[inline(always)]
    fn finite(&self) -> bool {
        (self.da + self.db + self.daa + self.dab + self.dbb).is_finite()
    }
}

const LEAF: Entry = Entry {
    a: NONE,
    b: NONE,
    da: 0.0,
    db: 0.0,
    daa: 0.0,
    dab: 0.0,
    dbb: 0.0,
};

std::thread_local! {
    static TAPE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// A value being recorded: its number and its place on the tape ([`NONE`] for a
/// constant, which records nothing).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Var {
    v: f64,
    i: u32,
}

impl PartialEq for Var {
    fn eq(&self, other: &Self) -> bool {
        self.v == other.v
    }
}

#[inline]
fn push(e: Entry) -> u32 {
    TAPE.with(|t| {
        let mut t = t.borrow_mut();
        t.push(e);
        (t.len() - 1) as u32
    })
}

impl Var {
    /// The tape position of a recorded value, `None` for a constant.
    pub fn index(self) -> Option<u32> {
        (self.i != NONE).then_some(self.i)
    }

    /// `phi(self)` with value `v`, `phi' = d`, `phi'' = dd`. Never inlined: a model's
    /// equations hold thousands of operations, and the recording inlined into each would
    /// make its code megabytes long (instruction-cache misses cost more than the calls).
    #[inline(never)]
    fn unary(self, v: f64, d: f64, dd: f64) -> Var {
        if self.i == NONE {
            return Var { v, i: NONE };
        }
        let i = push(Entry {
            a: self.i,
            da: d,
            daa: dd,
            ..LEAF
        });
        Var { v, i }
    }

    /// `phi(self, o)` with value `v`, first partials `(da, db)` and second partials
    /// `(daa, dab, dbb)`. Never inlined, as [`Var::unary`].
    #[inline(never)]
    fn binary(self, o: Var, v: f64, (da, db): (f64, f64), (daa, dab, dbb): (f64, f64, f64)) -> Var {
        match (self.i == NONE, o.i == NONE) {
            (true, true) => Var { v, i: NONE },
            (false, true) => self.unary(v, da, daa),
            (true, false) => o.unary(v, db, dbb),
            (false, false) => {
                let i = push(Entry {
                    a: self.i,
                    b: o.i,
                    da,
                    db,
                    daa,
                    dab,
                    dbb,
                });
                Var { v, i }
            }
        }
    }
}

/// The length of this thread's tape: the operations of the last recording and its leaves.
#[cfg(feature = "parallel")]
pub(crate) fn recorded() -> usize {
    TAPE.with(|t| t.borrow().len())
}

/// Starts a recording on this thread's tape (forgetting the last) with `n` independent
/// variables of values `x`, written to `leaves`: leaf `j` is tape entry `j`.
pub(crate) fn start(x: impl Iterator<Item = f64>, leaves: &mut Vec<Var>) {
    leaves.clear();
    TAPE.with(|t| {
        let mut t = t.borrow_mut();
        t.clear();
        for v in x {
            leaves.push(Var {
                v,
                i: t.len() as u32,
            });
            t.push(LEAF);
        }
    });
}

/// `c x`, but `0` where `x` is `0` whatever `c`: a partial that is infinite where an
/// operand sits at a singular point (`sqrt` at `0`, a contact at rest: `|v|` is
/// `sqrt(v . v)`) multiplies a zero tangent or adjoint where the operand does not vary
/// along that direction, and the product is the derivative of a constant, `0`, not
/// `inf * 0 = NaN`. (A NaN would fail the whole Hessian, and the solver would cut its
/// step.)
#[inline(always)]
fn mul0(c: f64, x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        c * x
    }
}

/// `c x`, or [`mul0`] where a partial is not finite (`SAFE`).
#[inline(always)]
fn mul<const SAFE: bool>(c: f64, x: f64) -> f64 {
    if SAFE {
        mul0(c, x)
    } else {
        c * x
    }
}

/// The forward sweep's step at operation `e`: its tangents from its operands'.
#[inline(always)]
fn forward<const SAFE: bool, const L: usize>(e: &Entry, done: &[[f64; L]]) -> [f64; L] {
    let ta = &done[e.a as usize];
    if e.b == NONE {
        core::array::from_fn(|k| mul::<SAFE>(e.da, ta[k]))
    } else {
        let tb = &done[e.b as usize];
        core::array::from_fn(|k| mul::<SAFE>(e.da, ta[k]) + mul::<SAFE>(e.db, tb[k]))
    }
}

/// The reverse sweep's step at operation `e` with adjoint `y` and its tangents `yd`:
/// what it passes to its operands' adjoints and their tangents (rows of `before`).
#[inline(always)]
fn reverse<const SAFE: bool, const L: usize>(
    e: &Entry,
    y: f64,
    yd: &[f64; L],
    tdot: &[[f64; L]],
    vbar: &mut [f64],
    before: &mut [[f64; L]],
) {
    let a = e.a as usize;
    vbar[a] += mul::<SAFE>(e.da, y);
    let ta = &tdot[a];
    if e.b == NONE {
        let c = mul::<SAFE>(e.daa, y);
        let ad = &mut before[a];
        for k in 0..L {
            ad[k] += mul::<SAFE>(e.da, yd[k]) + mul::<SAFE>(c, ta[k]);
        }
    } else {
        let b = e.b as usize;
        vbar[b] += mul::<SAFE>(e.db, y);
        let tb = &tdot[b];
        let (caa, cab, cbb) = (
            mul::<SAFE>(e.daa, y),
            mul::<SAFE>(e.dab, y),
            mul::<SAFE>(e.dbb, y),
        );
        let ad = &mut before[a];
        for k in 0..L {
            ad[k] += mul::<SAFE>(e.da, yd[k]) + mul::<SAFE>(caa, ta[k]) + mul::<SAFE>(cab, tb[k]);
        }
        let bd = &mut before[b];
        for k in 0..L {
            bd[k] += mul::<SAFE>(e.db, yd[k]) + mul::<SAFE>(cab, ta[k]) + mul::<SAFE>(cbb, tb[k]);
        }
    }
}

/// The most directions one pair of sweeps follows: more take several pairs.
const LANES: usize = 16;

/// The buffers of the sweeps, kept between calls.
#[derive(Default)]
pub(crate) struct Sweeps {
    /// The tangents, a lane count's worth per operation.
    tdot: Vec<f64>,
    vbar: Vec<f64>,
    /// The adjoints' tangents, as `tdot`.
    vbar_dot: Vec<f64>,
    /// The leaves' rows of the Hessian along the directions, `d` per leaf.
    rows: Vec<f64>,
}

impl Sweeps {
    /// The Hessian of `sum_k w_k v_k` over the recording on this thread's tape
    /// (outputs `(tape index, w)`), along the directions: `slot[j]` is leaf `j`'s
    /// direction among `d` (or [`u32::MAX`] for a leaf no direction follows).
    /// Afterwards [`Sweeps::entry`] reads `d2y / dx_j dx_k` for `j` with a slot and
    /// `k`'s slot.
    ///
    /// The directions go through the sweeps as fixed-size arrays (1, 2, 4, 8 or 16
    /// lanes, the unused ones zero), which the compiler unrolls and vectorizes; beyond
    /// 16, in groups of 16 and the rest in the fewest lanes that hold it.
    pub fn hessian(&mut self, outputs: &[(u32, f64)], slot: &[u32], d: usize) {
        self.rows.clear();
        self.rows.resize(slot.len() * d, 0.0);
        let mut first = 0;
        while first < d {
            // the fewest lanes that hold what is left, at most LANES
            first += match d - first {
                1 => self.sweep::<1>(outputs, slot, d, first),
                2 => self.sweep::<2>(outputs, slot, d, first),
                3..=4 => self.sweep::<4>(outputs, slot, d, first),
                5..=8 => self.sweep::<8>(outputs, slot, d, first),
                _ => self.sweep::<LANES>(outputs, slot, d, first),
            };
        }
    }

    /// One forward and one reverse sweep along directions `first..first + L` (those
    /// from `d` on are zero), the leaves' rows copied to `rows`; returns `L`.
    fn sweep<const L: usize>(
        &mut self,
        outputs: &[(u32, f64)],
        slot: &[u32],
        d: usize,
        first: usize,
    ) -> usize {
        TAPE.with(|t| {
            let tape = t.borrow();
            let n = tape.len();
            let leaves = slot.len();
            // the forward sweep writes every operation's tangents: only the leaves' are set
            self.tdot.resize(n * L, 0.0);
            self.tdot[..leaves * L].fill(0.0);
            self.vbar.clear();
            self.vbar.resize(n, 0.0);
            self.vbar_dot.clear();
            self.vbar_dot.resize(n * L, 0.0);
            let (tdot, _) = self.tdot[..n * L].as_chunks_mut::<L>();
            let (vbar_dot, _) = self.vbar_dot[..n * L].as_chunks_mut::<L>();
            for (j, &s) in slot.iter().enumerate() {
                let s = s as usize;
                if s != NONE as usize && (first..first + L).contains(&s) {
                    tdot[j][s - first] = 1.0;
                }
            }
            // forward: the tangents of every operation along the directions
            for (i, e) in tape.iter().enumerate().skip(leaves) {
                let (done, rest) = tdot.split_at_mut(i);
                rest[0] = if e.finite() {
                    forward::<false, L>(e, done)
                } else {
                    forward::<true, L>(e, done)
                };
            }
            for &(i, w) in outputs {
                self.vbar[i as usize] += w;
            }
            // reverse: the adjoints and their tangents
            for i in (leaves..n).rev() {
                let e = &tape[i];
                let y = self.vbar[i];
                let (before, rest) = vbar_dot.split_at_mut(i);
                let yd = &rest[0];
                if y == 0.0 && *yd == [0.0; L] {
                    continue;
                }
                if e.finite() && y.is_finite() {
                    reverse::<false, L>(e, y, yd, tdot, &mut self.vbar, before);
                } else {
                    reverse::<true, L>(e, y, yd, tdot, &mut self.vbar, before);
                }
            }
            let width = L.min(d - first);
            for (row, lanes) in self.rows.chunks_exact_mut(d).zip(vbar_dot.iter()) {
                row[first..first + width].copy_from_slice(&lanes[..width]);
            }
        });
        L
    }

    /// `d2y / dx_j dx_k` after [`Sweeps::hessian`], `k_slot` the slot of `k`.
    pub fn entry(&self, j: usize, k_slot: u32, d: usize) -> f64 {
        self.rows[j * d + k_slot as usize]
    }
}

impl Add for Var {
    type Output = Var;
    #[inline]
    fn add(self, o: Var) -> Var {
        self.binary(o, self.v + o.v, (1.0, 1.0), (0.0, 0.0, 0.0))
    }
}

impl Sub for Var {
    type Output = Var;
    #[inline]
    fn sub(self, o: Var) -> Var {
        self.binary(o, self.v - o.v, (1.0, -1.0), (0.0, 0.0, 0.0))
    }
}

impl Mul for Var {
    type Output = Var;
    #[inline]
    fn mul(self, o: Var) -> Var {
        self.binary(o, self.v * o.v, (o.v, self.v), (0.0, 1.0, 0.0))
    }
}

impl Div for Var {
    type Output = Var;
    #[inline]
    fn div(self, o: Var) -> Var {
        let r = 1.0 / o.v;
        let q = self.v * r;
        // d/da = 1/b, d/db = -a/b^2; d2/dadb = -1/b^2, d2/db2 = 2a/b^3
        self.binary(o, q, (r, -q * r), (0.0, -r * r, 2.0 * q * r * r))
    }
}

impl Neg for Var {
    type Output = Var;
    #[inline]
    fn neg(self) -> Var {
        self.unary(-self.v, -1.0, 0.0)
    }
}

macro_rules! assign {
    ($($tr:ident $f:ident $op:tt),*) => {$(
        impl $tr for Var {
            #[inline]
            fn $f(&mut self, o: Var) {
                *self = *self $op o;
            }
        }
    )*};
}
assign!(AddAssign add_assign +, SubAssign sub_assign -, MulAssign mul_assign *, DivAssign div_assign /);

impl Scalar for Var {
    #[inline]
    fn from_f64(x: f64) -> Self {
        Var { v: x, i: NONE }
    }
    #[inline]
    fn re(self) -> f64 {
        self.v
    }
    #[inline]
    fn sin(self) -> Self {
        let (s, c) = Scalar::sin_cos(self.v);
        self.unary(s, c, -s)
    }
    #[inline]
    fn cos(self) -> Self {
        let (s, c) = Scalar::sin_cos(self.v);
        self.unary(c, -s, -c)
    }
    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = Scalar::sin_cos(self.v);
        (self.unary(s, c, -s), self.unary(c, -s, -c))
    }
    #[inline]
    fn tan(self) -> Self {
        let t = Scalar::tan(self.v);
        let d = 1.0 + t * t;
        self.unary(t, d, 2.0 * t * d)
    }
    #[inline]
    fn asin(self) -> Self {
        let x = self.v;
        let r = 1.0 / (1.0 - x * x);
        let d = r.sqrt();
        self.unary(Scalar::asin(x), d, x * d * r)
    }
    #[inline]
    fn acos(self) -> Self {
        let x = self.v;
        let r = 1.0 / (1.0 - x * x);
        let d = r.sqrt();
        self.unary(Scalar::acos(x), -d, -x * d * r)
    }
    #[inline]
    fn atan(self) -> Self {
        let x = self.v;
        let r = 1.0 / (1.0 + x * x);
        self.unary(Scalar::atan(x), r, -2.0 * x * r * r)
    }
    #[inline]
    fn atan2(self, o: Self) -> Self {
        // atan2(y, x): d/dy = x/r2, d/dx = -y/r2; d2/dy2 = -2xy/r2^2,
        // d2/dydx = (y^2 - x^2)/r2^2, d2/dx2 = 2xy/r2^2
        let (y, x) = (self.v, o.v);
        let r = 1.0 / (x * x + y * y);
        let r2 = r * r;
        self.binary(
            o,
            Scalar::atan2(y, x),
            (x * r, -y * r),
            (-2.0 * x * y * r2, (y * y - x * x) * r2, 2.0 * x * y * r2),
        )
    }
    #[inline]
    fn sinh(self) -> Self {
        let (s, c) = (Scalar::sinh(self.v), Scalar::cosh(self.v));
        self.unary(s, c, s)
    }
    #[inline]
    fn cosh(self) -> Self {
        let (s, c) = (Scalar::sinh(self.v), Scalar::cosh(self.v));
        self.unary(c, s, c)
    }
    #[inline]
    fn tanh(self) -> Self {
        let t = Scalar::tanh(self.v);
        let d = 1.0 - t * t;
        self.unary(t, d, -2.0 * t * d)
    }
    #[inline]
    fn exp(self) -> Self {
        let e = Scalar::exp(self.v);
        self.unary(e, e, e)
    }
    #[inline]
    fn ln(self) -> Self {
        let r = 1.0 / self.v;
        self.unary(Scalar::ln(self.v), r, -r * r)
    }
    #[inline]
    fn sqrt(self) -> Self {
        let s = Scalar::sqrt(self.v);
        let d = 0.5 / s;
        self.unary(s, d, -0.5 * d / self.v)
    }
    #[inline]
    fn abs(self) -> Self {
        let s = self.signum0().v;
        self.unary(self.v * s, s, 0.0)
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        let x = self.v;
        let nf = f64::from(n);
        let (v, d, dd) = match n {
            0 => (1.0, 0.0, 0.0),
            1 => (x, 1.0, 0.0),
            2 => (x * x, 2.0 * x, 2.0),
            _ => {
                let p2 = Scalar::powi(x, n - 2);
                (p2 * x * x, nf * p2 * x, nf * (nf - 1.0) * p2)
            }
        };
        self.unary(v, d, dd)
    }
    #[inline]
    fn powf(self, o: Self) -> Self {
        // x^y carries d/dy where x > 0, as the dual numbers do; elsewhere y is a constant
        let (x, y) = (self.v, o.v);
        let v = Scalar::powf(x, y);
        let dx = y * Scalar::powf(x, y - 1.0);
        let dxx = y * (y - 1.0) * Scalar::powf(x, y - 2.0);
        if x > 0.0 {
            let l = Scalar::ln(x);
            self.binary(
                o,
                v,
                (dx, v * l),
                (dxx, Scalar::powf(x, y - 1.0) * (1.0 + y * l), v * l * l),
            )
        } else {
            self.unary(v, dx, dxx)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_dual::HyperDual64;

    /// A function exercising every operation of [`Scalar`], of three variables.
    fn every_op<S: Scalar>(x: &[S]) -> S {
        let (a, b, c) = (x[0], x[1], x[2]);
        let half = S::from_f64(0.5);
        let (s, co) = (a * b).sin_cos();
        let mut y = s * c + co / (b + S::from_f64(3.0)) - a.tan() * half;
        y += (a * half).asin() + (b * half).acos() * c + (a - c).atan();
        y -= b.atan2(a + c) * a.atan2(S::from_f64(-1.0));
        y *= S::from_f64(1.0) + (c * half).sinh() * (a * b).cosh() * S::from_f64(0.1);
        y += (a * c).tanh() + (b * half).exp() + (c * c + S::from_f64(1.0)).ln();
        y += (a * a + b * b + S::from_f64(0.5)).sqrt() * (a - b).abs();
        y += b.powi(3) * a.powi(-2) + c.powi(2) + a.powi(1) * b.powi(0);
        y += (b * b + S::from_f64(0.2)).powf(a * half)
            + (-(c * c) - S::from_f64(1.0)).powf(S::from_f64(2.0));
        y / (a * a + S::from_f64(1.0)) - (-c) * a.sin() + b.cos()
    }

    #[test]
    fn the_tape_hessian_equals_the_hyper_dual_one_for_every_operation() {
        let x = [0.3, -0.7, 1.1];
        let mut leaves = Vec::new();
        start(x.iter().copied(), &mut leaves);
        let y = every_op(&leaves);
        let mut sweeps = Sweeps::default();
        // directions on leaves 0 and 2 only: rows 0 and 2, columns 0 and 2
        let slot = [0, NONE, 1];
        sweeps.hessian(&[(y.index().unwrap(), 2.0)], &slot, 2);
        let full = [0, 1, 2];
        let mut sweeps_full = Sweeps::default();
        sweeps_full.hessian(&[(y.index().unwrap(), 2.0)], &full, 3);
        for j in 0..3 {
            for k in 0..3 {
                let seed = |i: usize| {
                    let e1 = if i == j { 1.0 } else { 0.0 };
                    let e2 = if i == k { 1.0 } else { 0.0 };
                    HyperDual64::new(x[i], e1, e2, 0.0)
                };
                let hd = every_op(&[seed(0), seed(1), seed(2)]);
                let exact = 2.0 * hd.eps1eps2;
                assert!((hd.re - y.v).abs() <= 1e-15 * hd.re.abs());
                let tape = sweeps_full.entry(j, full[k], 3);
                assert!(
                    (tape - exact).abs() <= 1e-13 * (1.0 + exact.abs()),
                    "({j}, {k}): tape {tape}, hyper-dual {exact}"
                );
                if slot[j] != NONE && slot[k] != NONE {
                    assert_eq!(sweeps.entry(j, slot[k], 2), tape);
                }
            }
        }
    }

    #[test]
    fn more_directions_than_lanes_take_several_sweeps() {
        // 4 lanes, 16, and 16 + 16 + 4
        for n in [3, 11, 2 * LANES + 3] {
            sweeps_along(n);
        }
    }

    /// y = sin(sum c_i x_i) + sum x_i x_(i+1), of `n` variables, each its own direction:
    /// H_ij = -sin(s) c_i c_j + [|i - j| = 1].
    fn sweeps_along(n: usize) {
        let x: Vec<f64> = (0..n).map(|i| 0.1 * i as f64 - 1.0).collect();
        let c: Vec<f64> = (0..n).map(|i| 1.0 / (1.0 + i as f64)).collect();
        let mut leaves = Vec::new();
        start(x.iter().copied(), &mut leaves);
        let mut sum = Var::from_f64(0.0);
        for (l, &ci) in leaves.iter().zip(&c) {
            sum += *l * Var::from_f64(ci);
        }
        let mut y = sum.sin();
        for w in leaves.windows(2) {
            y += w[0] * w[1];
        }
        let slot: Vec<u32> = (0..n as u32).collect();
        let mut sweeps = Sweeps::default();
        sweeps.hessian(&[(y.index().unwrap(), 1.0)], &slot, n);
        let s: f64 = x.iter().zip(&c).map(|(x, c)| x * c).sum();
        for j in 0..n {
            for k in 0..n {
                let band = if j.abs_diff(k) == 1 { 1.0 } else { 0.0 };
                let exact = -s.sin() * c[j] * c[k] + band;
                let tape = sweeps.entry(j, k as u32, n);
                assert!(
                    (tape - exact).abs() < 1e-14,
                    "({j}, {k}): {tape} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn constants_record_nothing_and_a_second_recording_reuses_the_tape() {
        let mut leaves = Vec::new();
        start([2.0].into_iter(), &mut leaves);
        let k = Var::from_f64(3.0) * Var::from_f64(4.0) + Var::from_f64(1.0).sin();
        assert_eq!(k.index(), None);
        let y = leaves[0] * leaves[0] * k;
        assert_eq!(y.index(), Some(2));
        let mut sweeps = Sweeps::default();
        sweeps.hessian(&[(y.index().unwrap(), 1.0)], &[0], 1);
        assert!((sweeps.entry(0, 0, 1) - 2.0 * k.v).abs() < 1e-14);
        start([5.0].into_iter(), &mut leaves);
        let y = leaves[0].powi(3);
        assert_eq!(y.index(), Some(1));
        sweeps.hessian(&[(1, 1.0)], &[0], 1);
        assert_eq!(sweeps.entry(0, 0, 1), 30.0);
    }
}
