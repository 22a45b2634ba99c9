//! The dynamics with some contacts sliding (`design/contact_forces.md`, 6.1–6.4): the
//! released model on `[q, dot(q)]` with every row but the rolling rows of the sliding
//! contacts, and Coulomb friction `-mu N s` at each sliding contact, `s` the direction of
//! its slip velocity:
//!
//! ```text
//! A qdd - C_a^T lambda + sum_s mu N_s J_s^T s_s = L,     C_a qdd = -drift_a
//! ```
//!
//! `N_s` is the multiplier of the contact's height row (`N = -lambda_h`), or, for a contact
//! the coordinates hold on the plane, an unknown of the Newton–Euler balance of the whole
//! system, `d[P, L]/dt - [F, M]_applied = sum_c [f_c, (p_c - p_0) x f_c]`, in least squares
//! (its normal equations are rows of the same linear system). All of it is one dense
//! system, solved by LU with partial pivoting; a singular one is Painlevé's paradox.

// components of 3-vectors by index read as the maths does
#![allow(clippy::needless_range_loop)]

use alloc::vec;
use alloc::vec::Vec;

use crate::__private::{
    flat_contact, flat_contact_error, ContactRows, Released, ReleasedSpec, PER_CONTACT,
};
use crate::{ContactLoad, Error};

fn at(x: &[f64], i: usize) -> [f64; 3] {
    [x[i], x[i + 1], x[i + 2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn norm(a: [f64; 3]) -> f64 {
    libm::sqrt(dot(a, a))
}

/// Below this speed (times `1 + |dot(q)|`) a slip velocity has no direction of its own:
/// a sliding contact keeps the direction it started with.
const STILL: f64 = 1e-9;

/// The slip speed below which a slip's own direction is round-off's (a slip that starts
/// from rest grows from zero acceleration): relative to the largest velocity.
pub(super) fn still_speed(qd: &[f64]) -> f64 {
    1e-6 * (1.0 + qd.iter().fold(0.0f64, |a, x| a.max(x.abs())))
}

/// The solver of the sliding dynamics for one model, with its scratch (allocated once).
pub(super) struct Sliding<'m> {
    model: &'m dyn Released,
    spec: &'static ReleasedSpec,
    /// Offsets into `terms`: L, C, drift, rows, applied, geometry.
    off: [usize; 6],
    /// Offset of each row's `e` in `terms` (contact rows only).
    row_e: Vec<Option<usize>>,
    /// The contact that lists each row.
    row_contact: Vec<Option<usize>>,
    terms: Vec<f64>,
    /// Per contact, its tangential rows (its own, and the lateral row it shares).
    tangent: Vec<([usize; 2], usize)>,
    /// Per row: a tangential row of some contact; one of a rolling contact.
    tangential: Vec<bool>,
    rolling_owner: Vec<bool>,
    /// Per row: its unknown (`usize::MAX` when switched off).
    col: Vec<usize>,
    /// Per contact: its unknown `N` when the balance is solved with the rest.
    n_col: Vec<usize>,
    anchored: Vec<usize>,
    /// The system and its right-hand side, the pivots.
    m: Vec<f64>,
    b: Vec<f64>,
    perm: Vec<usize>,
    /// The balance: coefficients (`nb x n`), right-hand side.
    bal: Vec<f64>,
    w0: [f64; 6],
    unit: Vec<f64>,
    zeros: Vec<f64>,
    /// Per contact: the generalized force of a unit force along its sliding direction.
    g_fric: Vec<f64>,
    /// Results: the accelerations, the loads, each contact's slip velocity and each
    /// sliding contact's direction.
    pub(super) qdd: Vec<f64>,
    pub(super) lambda: Vec<f64>,
    pub(super) loads: Vec<ContactLoad>,
    pub(super) slip: Vec<[f64; 3]>,
    pub(super) dir: Vec<[f64; 3]>,
    /// Whether [`solve`](Self::solve) leaves the sliding contacts' friction out (to tell a
    /// lift-off from Painlevé's paradox: [`frictionless_normal`](Self::frictionless_normal)).
    frictionless: bool,
}

/// The rate (1/s) at which a sliding phase pulls the rows that stay on (the rolling
/// contacts' rows, the sliding contacts' heights) back to zero: Baumgarte's stabilization
/// `C qdd = -drift - DRIFT_RATE (C dot(q) + c)`, with no position term (a contact whose
/// height its coordinates fix cannot drift off the ground; a solved height drifts only by
/// the integral of its velocity row). Slow beside any step a run takes, so the phase's
/// dynamics is unchanged on the rows and not made stiff.
pub(super) const DRIFT_RATE: f64 = 5.0;

impl<'m> Sliding<'m> {
    pub(super) fn new(model: &'m dyn Released) -> Self {
        let spec = model.spec();
        let (nq, nc, k) = (spec.nq, spec.nc, spec.contacts.len());
        let l = nq * nq;
        let c = l + nq;
        let drift = c + nc * nq;
        let rows = drift + nc;
        let applied = rows + nc;
        let geometry = applied + spec.nb;
        let mut row_e = vec![None; nc];
        let mut row_contact = vec![None; nc];
        let mut e_at = geometry + PER_CONTACT * k;
        for (ci, cr) in spec.contacts.iter().enumerate() {
            for &r in cr.rows {
                row_e[r] = Some(e_at);
                row_contact[r] = Some(ci);
                e_at += 3;
            }
        }
        let n_max = nq + nc + k;
        Sliding {
            model,
            spec,
            off: [l, c, drift, rows, applied, geometry],
            row_e,
            row_contact,
            terms: vec![0.0; spec.len],
            tangent: vec![([0, 0], 0); k],
            tangential: vec![false; nc],
            rolling_owner: vec![false; nc],
            col: vec![usize::MAX; nc],
            n_col: vec![usize::MAX; k],
            anchored: Vec::with_capacity(k),
            m: vec![0.0; n_max * n_max],
            b: vec![0.0; n_max],
            perm: vec![0; n_max],
            bal: vec![0.0; 6 * n_max],
            w0: [0.0; 6],
            unit: vec![0.0; nq],
            zeros: vec![0.0; nq],
            g_fric: vec![0.0; k * nq],
            qdd: vec![0.0; nq],
            lambda: vec![0.0; nc],
            loads: vec![ContactLoad::ZERO; k],
            slip: vec![[0.0; 3]; k],
            dir: vec![[0.0; 3]; k],
            frictionless: false,
        }
    }

    /// The normal force of contact `c` that sliding would need at `(t, q, dot(q))` without
    /// friction. Where sliding with friction needs a pull (`N < 0`), the contact lifts off
    /// only if the body would leave the ground without friction too (this is negative);
    /// where it is positive, the gap's acceleration turns against the normal force as
    /// friction couples them, and neither sliding nor lifting off is consistent: Painlevé's
    /// paradox.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn frictionless_normal(
        &mut self,
        t: f64,
        (q, qd, u): (&[f64], &[f64], &[f64]),
        sliding: &[bool],
        start: (&[[f64; 3]], &[bool]),
        c: usize,
    ) -> Result<f64, Error> {
        self.frictionless = true;
        let r = self.solve(t, q, qd, u, sliding, start);
        self.frictionless = false;
        r.map(|()| self.loads[c].normal)
    }

    pub(super) fn spec(&self) -> &'static ReleasedSpec {
        self.spec
    }

    /// `v`'s part along the rows contact `c` frees in the last solution (its tangential rows
    /// switched off): the directions it can slip in.
    pub(super) fn free_part(&self, c: usize, v: [f64; 3]) -> [f64; 3] {
        let (rows, n) = self.tangent[c];
        let free: Vec<usize> = rows[..n]
            .iter()
            .copied()
            .filter(|&r| self.col[r] == usize::MAX)
            .collect();
        match free[..] {
            [r] => {
                let e = self.e(r);
                let a = dot(e, v) / dot(e, e);
                [a * e[0], a * e[1], a * e[2]]
            }
            [_, _] => self.in_rows(c, v).map_or([0.0; 3], |(_, p)| p),
            _ => [0.0; 3],
        }
    }

    /// The acceleration of contact `c`'s slip in the last solution: the tangent vector whose
    /// components along its rows' `e` are the rows' rates `C qdd + drift`.
    pub(super) fn slip_acceleration(&self, c: usize) -> [f64; 3] {
        let nq = self.spec.nq;
        let (rows, n) = self.tangent[c];
        let mut rate = [0.0; 2];
        for (k, &r) in rows[..n].iter().enumerate() {
            let cr = &self.terms[self.off[1] + r * nq..self.off[1] + (r + 1) * nq];
            let cq: f64 = cr.iter().zip(&self.qdd).map(|(a, b)| a * b).sum();
            rate[k] = cq + self.terms[self.off[2] + r];
        }
        self.tangent_of(c, rate).map_or([0.0; 3], |(_, a)| a)
    }

    /// Contact `c`'s `up` in the last solution.
    pub(super) fn up(&self, c: usize) -> [f64; 3] {
        self.geo(c, 3)
    }

    fn geo(&self, c: usize, i: usize) -> [f64; 3] {
        at(&self.terms, self.off[5] + PER_CONTACT * c + i)
    }

    fn mu(&self, c: usize) -> f64 {
        self.terms[self.off[5] + PER_CONTACT * c + 9]
    }

    fn e(&self, r: usize) -> [f64; 3] {
        self.row_e[r].map_or([0.0; 3], |i| at(&self.terms, i))
    }

    /// The lateral row of contact `j` (its tangential row most nearly along its axle).
    fn lateral_row(&self, j: usize) -> Option<usize> {
        let cr: &ContactRows = &self.spec.contacts[j];
        let axle = self.geo(j, 6);
        let tangent = cr.rows.len() - usize::from(cr.height);
        cr.rows[..tangent]
            .iter()
            .map(|&r| {
                let e = self.e(r);
                (libm::fabs(dot(e, axle)) / norm(e).max(f64::MIN_POSITIVE), r)
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, r)| r)
    }

    /// The solution `a` of `E^T E a = E^T v` for the tangential rows of contact `c`
    /// (`E = [e_r]`), and `E a`, `v`'s part in the tangent plane; `None` when the rows'
    /// directions are dependent.
    fn in_rows(&self, c: usize, v: [f64; 3]) -> Option<([f64; 2], [f64; 3])> {
        let (rows, _) = self.tangent[c];
        self.tangent_of(c, [dot(self.e(rows[0]), v), dot(self.e(rows[1]), v)])
    }

    /// `a = (E^T E)^-1 b` for the tangential rows of contact `c` (`E = [e_r]`), and the
    /// tangent vector `E a`, whose components along the rows' `e` are `b`; `None` when the
    /// rows' directions are dependent.
    fn tangent_of(&self, c: usize, b: [f64; 2]) -> Option<([f64; 2], [f64; 3])> {
        let (rows, n) = self.tangent[c];
        let (e0, e1) = (self.e(rows[0]), self.e(rows[1]));
        if n == 1 {
            let d = dot(e0, e0);
            let a = b[0] / d;
            return (d > 0.0).then_some(([a, 0.0], [a * e0[0], a * e0[1], a * e0[2]]));
        }
        let (g00, g01, g11) = (dot(e0, e0), dot(e0, e1), dot(e1, e1));
        let det = g00 * g11 - g01 * g01;
        if det <= 1e-14 * g00 * g11 {
            return None;
        }
        let a = [
            (g11 * b[0] - g01 * b[1]) / det,
            (g00 * b[1] - g01 * b[0]) / det,
        ];
        Some((a, core::array::from_fn(|i| a[0] * e0[i] + a[1] * e1[i])))
    }

    /// The slip velocity of contact `c`: the tangent vector whose components along its
    /// rows' `e` are the rows' values.
    fn slip_velocity(&self, c: usize) -> Option<[f64; 3]> {
        let (rows, _) = self.tangent[c];
        let rho = |r: usize| self.terms[self.off[3] + r];
        self.tangent_of(c, [rho(rows[0]), rho(rows[1])])
            .map(|(_, v)| v)
    }

    /// The dynamics at `(t, q, dot(q))` with the contacts `sliding` (each against its slip
    /// velocity on the side of `start[c]` once `armed[c]`, against `start[c]` before:
    /// [`loads::friction_direction`]): `qdd`, `lambda`, the loads and the slip velocities.
    #[allow(clippy::too_many_lines)]
    pub(super) fn solve(
        &mut self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        u: &[f64],
        sliding: &[bool],
        (start, armed): (&[[f64; 3]], &[bool]),
    ) -> Result<(), Error> {
        let spec = self.spec;
        let (nq, nc, k) = (spec.nq, spec.nc, spec.contacts.len());
        let state = || crate::__private::concat(q, qd);
        let ma = self.prepare(t, q, qd, u, sliding)?;
        // slip velocities, the sliding directions and their generalized forces
        let scale = STILL * (1.0 + qd.iter().fold(0.0f64, |a, v| a.max(libm::fabs(*v))));
        for c in 0..k {
            let v = self.slip_velocity(c).ok_or(Error::NotAvailable {
                what: "the slip velocity (the contact's rows are dependent)",
            })?;
            self.slip[c] = v;
            if !sliding[c] {
                continue;
            }
            let s = loads::friction_direction(v, start[c], armed[c], scale);
            self.dir[c] = s;
            let (a, _) = self.in_rows(c, s).ok_or(Error::NotAvailable {
                what: "the friction force (the contact's rows are dependent)",
            })?;
            let (rows, n) = self.tangent[c];
            for i in 0..nq {
                let mut g = 0.0;
                for (ai, &r) in a.iter().zip(&rows[..n]) {
                    g += ai * self.terms[self.off[1] + r * nq + i];
                }
                self.g_fric[c * nq + i] = g;
            }
        }
        // anchored normals: unknowns when a sliding contact needs one
        self.anchored.clear();
        self.anchored
            .extend((0..k).filter(|&c| !spec.contacts[c].height));
        let with_balance = (0..k).any(|c| sliding[c] && !spec.contacts[c].height);
        let ka = if with_balance { self.anchored.len() } else { 0 };
        self.n_col.fill(usize::MAX);
        if with_balance {
            for (i, &c) in self.anchored.iter().enumerate() {
                self.n_col[c] = nq + ma + i;
            }
        }
        let n = nq + ma + ka;
        let friction = !self.frictionless;
        let (solved, balanced) = self.assemble_and_solve(t, (q, qd, u), sliding, (n, ma), friction);
        balanced?;
        if !solved {
            // Painlevé only if friction is what leaves no solution: without it, a pose
            // whose rows are singular (a disk flat on the ground) is its own error
            let (frictionless, _) = self.assemble_and_solve(t, (q, qd, u), sliding, (n, ma), false);
            let contact = (0..k)
                .find(|&c| sliding[c])
                .map_or(spec.names[0], |c| spec.names[c]);
            if frictionless {
                return Err(Error::Painleve {
                    contact,
                    t,
                    state: state(),
                });
            }
            return Err(self.singular_pose(t, sliding, state()));
        }
        self.qdd.copy_from_slice(&self.b[..nq]);
        for r in 0..nc {
            self.lambda[r] = if self.col[r] == usize::MAX {
                0.0
            } else {
                self.b[self.col[r]]
            };
        }
        self.place(t, q, qd, u, sliding, with_balance)
    }

    /// `[qdd, lambda, N]` from the released model with the rows that stay on, the
    /// sliding contacts' friction (when `friction`) and the anchored normals' balance
    /// (`n` unknowns, `ma` rows on): whether the system could be solved, and the balance's
    /// own result. The solution is left in `self.b`.
    fn assemble_and_solve(
        &mut self,
        t: f64,
        (q, qd, u): (&[f64], &[f64], &[f64]),
        sliding: &[bool],
        (n, ma): (usize, usize),
        friction: bool,
    ) -> (bool, Result<(), Error>) {
        let spec = self.spec;
        let (nq, nc, k) = (spec.nq, spec.nc, spec.contacts.len());
        let with_balance = n > nq + ma;
        let (mut m_all, mut b_all) = (core::mem::take(&mut self.m), core::mem::take(&mut self.b));
        let (m, b) = (&mut m_all[..n * n], &mut b_all[..n]);
        m.fill(0.0);
        for i in 0..nq {
            m[i * n..i * n + nq].copy_from_slice(&self.terms[i * nq..(i + 1) * nq]);
            b[i] = self.terms[self.off[0] + i];
        }
        for r in 0..nc {
            let a = self.col[r];
            if a == usize::MAX {
                continue;
            }
            for i in 0..nq {
                let c = self.terms[self.off[1] + r * nq + i];
                m[i * n + a] = -c;
                m[a * n + i] = c;
            }
            // Baumgarte's term: a row that stays on is held at `d/dt row = -DRIFT_RATE row`,
            // so what the integration lets it drift decays instead of accumulating
            b[a] = -self.terms[self.off[2] + r] - DRIFT_RATE * self.terms[self.off[3] + r];
        }
        // friction: + mu N_s g_s, N_s = -lambda_h or the balance's unknown
        for c in (0..k).filter(|&c| friction && sliding[c]) {
            let mu = self.mu(c);
            let cr = &spec.contacts[c];
            let (column, sign) = if cr.height {
                (self.col[cr.rows[cr.rows.len() - 1]], -1.0)
            } else {
                (self.n_col[c], 1.0)
            };
            for i in 0..nq {
                m[i * n + column] += sign * mu * self.g_fric[c * nq + i];
            }
        }
        let balanced = if with_balance {
            self.balance(t, q, qd, u, sliding, n)
        } else {
            Ok(())
        };
        if balanced.is_ok() && with_balance {
            let (nb, ka) = (spec.nb, self.anchored.len());
            let modes = self.normal_modes();
            if modes.null(ka) == 0 {
                // the balance in least squares: g_c . (bal x - w0) = 0 for each normal
                for (i, &c) in self.anchored.iter().enumerate() {
                    let row = nq + ma + i;
                    let g = self.wrench_of(c, self.geo(c, 3));
                    for j in 0..n {
                        m[row * n + j] = (0..nb).map(|e| g[e] * self.bal[e * n + j]).sum();
                    }
                    b[row] = (0..nb).map(|e| g[e] * self.w0[e]).sum();
                }
            } else {
                // statically indeterminate: the balance along the determined modes' wrenches
                // G v, and no normal along the null modes (v . N = 0): the least-norm split
                for (i, mode) in (6 - ka..6).enumerate() {
                    let row = nq + ma + i;
                    let v = modes.vectors.column(mode);
                    m[row * n..(row + 1) * n].fill(0.0);
                    if mode < modes.first_determined {
                        for (k, &c) in self.anchored.iter().enumerate() {
                            m[row * n + self.n_col[c]] = v[k];
                        }
                        b[row] = 0.0;
                    } else {
                        let w = modes.g * v;
                        for j in 0..n {
                            m[row * n + j] = (0..nb).map(|e| w[e] * self.bal[e * n + j]).sum();
                        }
                        b[row] = (0..nb).map(|e| w[e] * self.w0[e]).sum();
                    }
                }
            }
        }
        let solved = lu_solve(m, b, &mut self.perm[..n], n);
        (self.m, self.b) = (m_all, b_all);
        (solved, balanced)
    }

    /// The terms at `(t, q, dot(q))`, each contact's tangential rows, and the unknown of
    /// each row that stays on with the contacts `sliding`; how many stay on.
    fn prepare(
        &mut self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        u: &[f64],
        sliding: &[bool],
    ) -> Result<usize, Error> {
        let spec = self.spec;
        let (nq, nc) = (spec.nq, spec.nc);
        self.model.terms(t, q, qd, u, &mut self.terms)?;
        // a disk flat on the ground has no contact point: named before its terms' NaNs,
        // and before any solve that round-off (cos(pi/2) = 6e-17) would let pass
        if let Some(c) = flat_contact(spec.contacts, &self.terms[self.off[5]..]) {
            return Err(flat_contact_error(
                spec.names[c],
                t,
                &crate::__private::concat(q, qd),
            ));
        }
        if !crate::__private::all_finite(&self.terms) {
            return Err(Error::NonFinite {
                what: "released model terms",
                t,
                state: crate::__private::concat(q, qd),
            });
        }
        // the tangential rows, and which rows stay on
        self.tangential.fill(false);
        self.rolling_owner.fill(false);
        for (c, cr) in spec.contacts.iter().enumerate() {
            let own = cr.rows.len() - usize::from(cr.height);
            let mut rows = [cr.rows[0], cr.rows[0]];
            let mut n = own.min(2);
            rows[..n].copy_from_slice(&cr.rows[..n]);
            if let Some(r) = cr
                .shares_lateral_with
                .and_then(|j| self.lateral_row(j))
                .filter(|_| n < 2)
            {
                rows[n] = r;
                n += 1;
            }
            self.tangent[c] = (rows, n);
            for &r in &rows[..n] {
                self.tangential[r] = true;
                if !sliding[c] {
                    self.rolling_owner[r] = true;
                }
            }
        }
        let mut ma = 0;
        for r in 0..nc {
            self.col[r] = if !self.tangential[r] || self.rolling_owner[r] {
                ma += 1;
                nq + ma - 1
            } else {
                usize::MAX
            };
        }
        Ok(ma)
    }

    /// `dot(q)` moved onto the rows that stay on with the contacts `sliding`, least in the
    /// kinetic-energy metric: `A d = C^T m`, `C (dot(q) + d) + beta = 0`
    /// (`design/contact_forces.md`, 6.3).
    pub(super) fn project(
        &mut self,
        t: f64,
        q: &[f64],
        qd: &mut [f64],
        u: &[f64],
        sliding: &[bool],
    ) -> Result<(), Error> {
        let ma = self.prepare(t, q, qd, u, sliding)?;
        let (nq, nc) = (self.spec.nq, self.spec.nc);
        let n = nq + ma;
        let (m, b) = (&mut self.m[..n * n], &mut self.b[..n]);
        m.fill(0.0);
        b.fill(0.0);
        for i in 0..nq {
            m[i * n..i * n + nq].copy_from_slice(&self.terms[i * nq..(i + 1) * nq]);
        }
        for r in 0..nc {
            let a = self.col[r];
            if a == usize::MAX {
                continue;
            }
            for i in 0..nq {
                let c = self.terms[self.off[1] + r * nq + i];
                m[i * n + a] = -c;
                m[a * n + i] = c;
            }
            b[a] = -self.terms[self.off[3] + r];
        }
        if !lu_solve(m, b, &mut self.perm[..n], n) {
            return Err(Error::NotAvailable {
                what: "the rolling velocities (dependent rows)",
            });
        }
        for (v, d) in qd.iter_mut().zip(&self.b[..nq]) {
            *v += d;
        }
        Ok(())
    }
}

// the loads, the balance and the linear algebra
#[path = "sliding_loads.rs"]
mod loads;
use loads::lu_solve;

#[cfg(test)]
#[path = "sliding_tests.rs"]
mod tests;
