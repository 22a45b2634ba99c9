//! The loads of a solution of the sliding dynamics ([`Sliding::solve`]): the Newton–Euler
//! balance that gives the anchored normals, the rows' and the friction's forces placed at
//! the contacts, and the dense LU every solve uses.

// components of 3-vectors by index read as the maths does
#![allow(clippy::needless_range_loop)]

use super::{at, cross, dot, norm, Sliding};
use crate::__private::PER_CONTACT;
use crate::{ContactLoad, Error};

impl Sliding<'_> {
    /// The error of a pose where even frictionless sliding has no solution (a contact
    /// lying flat is named before: [`flat_contact`](crate::__private::flat_contact)): the first sliding contact.
    pub(super) fn singular_pose(&self, t: f64, sliding: &[bool], state: Vec<f64>) -> Error {
        let spec = self.spec;
        Error::SingularContact {
            contact: spec.names[sliding.iter().position(|s| *s).unwrap_or(0)],
            why: "no motion of the bodies satisfies the rows that stay on, even without friction (rows that depend on each other, or no mass to move)",
            t,
            state,
        }
    }

    /// `[f, (p_c - p_0) x f]` (or `f` alone) of a force `f` at contact `c`, `p_0` the first
    /// anchored contact.
    pub(super) fn wrench_of(&self, c: usize, f: [f64; 3]) -> [f64; 6] {
        let p0 = self.geo(self.anchored[0], 0);
        let p = self.geo(c, 0);
        let arm = [p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]];
        let mo = cross(arm, f);
        [f[0], f[1], f[2], mo[0], mo[1], mo[2]]
    }

    /// The rate of the momenta along `(1, dot(q), qdd)` less the applied wrench, moments
    /// about the first anchored contact.
    pub(super) fn wrench_needed(
        &self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        qdd: &[f64],
        u: &[f64],
    ) -> Result<[f64; 6], Error> {
        let mut w = [0.0; 6];
        self.model
            .momenta_tangent([t, 1.0], [q, qd], [qd, qdd], u, &mut w)?;
        let nb = self.spec.nb;
        for (i, wi) in w.iter_mut().enumerate().take(nb) {
            *wi -= self.terms[self.off[4] + i];
        }
        Ok(self.about_first(w))
    }

    pub(super) fn about_first(&self, w: [f64; 6]) -> [f64; 6] {
        if self.spec.nb < 6 {
            return w;
        }
        let p0 = self.geo(self.anchored[0], 0);
        let s = cross(p0, [w[0], w[1], w[2]]);
        [w[0], w[1], w[2], w[3] - s[0], w[4] - s[1], w[5] - s[2]]
    }

    /// The balance `bal x = w0` in the unknowns `x = [qdd, lambda, N]`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn balance(
        &mut self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        u: &[f64],
        sliding: &[bool],
        n: usize,
    ) -> Result<(), Error> {
        let spec = self.spec;
        let (nq, nb) = (spec.nq, spec.nb);
        let mut bal = core::mem::take(&mut self.bal);
        bal[..nb * n].fill(0.0);
        let zeros = core::mem::take(&mut self.zeros);
        let mut unit = core::mem::take(&mut self.unit);
        self.w0 = self.wrench_needed(t, q, qd, &zeros, u)?;
        for j in 0..nq {
            unit.fill(0.0);
            unit[j] = 1.0;
            let mut w = [0.0; 6];
            self.model
                .momenta_tangent([t, 0.0], [q, &zeros], [qd, &unit], u, &mut w)?;
            let w = self.about_first(w);
            for e in 0..nb {
                bal[e * n + j] -= w[e];
            }
        }
        self.zeros = zeros;
        self.unit = unit;
        for (r, &a) in self.col.iter().enumerate() {
            let Some(c) = self.row_contact[r].filter(|_| a != usize::MAX) else {
                continue;
            };
            let g = self.wrench_of(c, self.e(r));
            for e in 0..nb {
                bal[e * n + a] += g[e];
            }
        }
        for &c in &self.anchored {
            let g = self.wrench_of(c, self.geo(c, 3));
            for e in 0..nb {
                bal[e * n + self.n_col[c]] += g[e];
            }
        }
        for c in (0..spec.contacts.len()).filter(|&c| sliding[c]) {
            let mu = self.mu(c);
            let s = self.dir[c];
            let g = self.wrench_of(c, [-mu * s[0], -mu * s[1], -mu * s[2]]);
            let cr = &spec.contacts[c];
            let (column, sign) = if cr.height {
                (self.col[cr.rows[cr.rows.len() - 1]], -1.0)
            } else {
                (self.n_col[c], 1.0)
            };
            for e in 0..nb {
                bal[e * n + column] += sign * g[e];
            }
        }
        self.bal = bal;
        Ok(())
    }

    /// The loads from the solution: the rows' forces, the friction, the anchored normals
    /// (solved with the rest, or now from the balance), the shared lateral rows.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn place(
        &mut self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        u: &[f64],
        sliding: &[bool],
        with_balance: bool,
    ) -> Result<(), Error> {
        let spec = self.spec;
        let k = spec.contacts.len();
        let normal_of = |this: &Self, c: usize| -> f64 {
            let cr = &spec.contacts[c];
            if cr.height {
                -this.lambda[cr.rows[cr.rows.len() - 1]]
            } else if with_balance {
                this.b[this.n_col[c]]
            } else {
                0.0
            }
        };
        for c in 0..k {
            let mut f = [0.0; 3];
            for &r in spec.contacts[c].rows {
                let e = self.e(r);
                for i in 0..3 {
                    f[i] += self.lambda[r] * e[i];
                }
            }
            if !spec.contacts[c].height && with_balance {
                let (up, nn) = (self.geo(c, 3), normal_of(self, c));
                for i in 0..3 {
                    f[i] += nn * up[i];
                }
            }
            self.loads[c] = ContactLoad {
                force: f,
                point: self.geo(c, 0),
                ..ContactLoad::ZERO
            };
        }
        // friction at the sliding contacts
        for c in (0..k).filter(|&c| sliding[c]) {
            let nn = normal_of(self, c);
            let (mu, s) = (self.mu(c), self.dir[c]);
            for d in 0..3 {
                self.loads[c].force[d] -= mu * nn * s[d];
            }
        }
        // the anchored normals after the fact, from the balance with everything else known
        if !with_balance && !self.anchored.is_empty() {
            let mut rest = self.wrench_needed(t, q, qd, &self.qdd, u)?;
            for c in 0..k {
                let g = self.wrench_of(c, self.loads[c].force);
                for e in 0..6 {
                    rest[e] -= g[e];
                }
            }
            let ka = self.anchored.len();
            let nb = spec.nb;
            let (m, b) = (&mut self.m[..ka * ka], &mut self.b[..ka]);
            for i in 0..ka {
                let ci = self.anchored[i];
                let gi = {
                    let up = at(&self.terms, self.off[5] + PER_CONTACT * ci + 3);
                    wrench_at(&self.terms, self.off[5], self.anchored[0], ci, up)
                };
                for j in 0..ka {
                    let cj = self.anchored[j];
                    let up = at(&self.terms, self.off[5] + PER_CONTACT * cj + 3);
                    let gj = wrench_at(&self.terms, self.off[5], self.anchored[0], cj, up);
                    m[i * ka + j] = (0..nb).map(|e| gi[e] * gj[e]).sum();
                }
                b[i] = (0..nb).map(|e| gi[e] * rest[e]).sum();
            }
            let mut normals = [0.0; 6];
            if lu_solve(m, b, &mut self.perm[..ka], ka) {
                normals[..ka].copy_from_slice(&self.b[..ka]);
            } else {
                // indeterminate: the least-norm normals, N = sum over the determined modes
                // v (v . G^T rest) / value, as `contact_loads` takes them rolling
                let modes = self.normal_modes();
                let gtr = modes.g.transpose()
                    * nalgebra::SVector::<f64, 6>::from_fn(
                        |e, _| if e < nb { rest[e] } else { 0.0 },
                    );
                for i in modes.first_determined..6 {
                    let v = modes.vectors.column(i);
                    let along = v.dot(&gtr) / modes.values[i];
                    for (n, vi) in normals.iter_mut().zip(v.iter()).take(ka) {
                        *n += along * vi;
                    }
                }
            }
            for i in 0..ka {
                let c = self.anchored[i];
                let up = self.geo(c, 3);
                for d in 0..3 {
                    self.loads[c].force[d] += normals[i] * up[d];
                }
            }
        }
        // a shared lateral row: split by the normals while both roll, else all on the one
        // that rolls
        for c in 0..k {
            let Some(j) = spec.contacts[c].shares_lateral_with else {
                continue;
            };
            let Some(r) = self.lateral_row(j) else {
                continue;
            };
            let e = self.e(r);
            let lat = [
                self.lambda[r] * e[0],
                self.lambda[r] * e[1],
                self.lambda[r] * e[2],
            ];
            let geo = |c: usize| {
                &self.terms[self.off[5] + PER_CONTACT * c..self.off[5] + PER_CONTACT * (c + 1)]
            };
            let share = match (sliding[c], sliding[j]) {
                (false, false) => crate::private::contact_rows::lateral_share(
                    (self.loads[c].force, geo(c)),
                    (self.loads[j].force, geo(j)),
                ),
                (false, true) => 1.0,
                _ => 0.0,
            };
            for d in 0..3 {
                self.loads[c].force[d] += share * lat[d];
                self.loads[j].force[d] -= share * lat[d];
            }
        }
        for c in 0..k {
            let (up, axle, mu) = (self.geo(c, 3), self.geo(c, 6), self.mu(c));
            let load = &mut self.loads[c];
            let f = load.force;
            let a_up = dot(axle, up);
            let mut side = [
                axle[0] - a_up * up[0],
                axle[1] - a_up * up[1],
                axle[2] - a_up * up[2],
            ];
            let len = norm(side);
            for x in &mut side {
                *x /= len;
            }
            let ahead = cross(side, up);
            load.normal = dot(f, up);
            load.lateral = dot(f, side);
            load.longitudinal = dot(f, ahead);
            load.mu = mu;
            if mu.is_finite() {
                let ft = load.tangential();
                load.utilization = ft / (mu * load.normal);
                load.friction_margin = mu * load.normal - ft;
            }
        }
        if !self
            .loads
            .iter()
            .all(|l| crate::__private::all_finite(&l.force))
        {
            return Err(Error::NonFinite {
                what: "contact loads",
                t,
                state: crate::__private::concat(q, qd),
            });
        }
        Ok(())
    }
}

/// [`Sliding::wrench_of`] on the raw terms (moments about contact `first`).
/// The anchored normals' modes: the eigenpairs of `G^T G`, `G`'s columns the wrenches of
/// unit normals at the anchored contacts (`ka <= 6` of them, moments about the first).
/// Where `G^T G` is singular the normals are statically indeterminate (four wheels on a
/// rigid chassis): the balance fixes only their part along the modes of nonzero value, and
/// the documented split is the least-norm one, nothing along the others.
pub(super) struct NormalModes {
    /// `G` (`nb` rows used, padded to 6 by zeros), column `i` the contact `anchored[i]`.
    pub g: nalgebra::SMatrix<f64, 6, 6>,
    /// The values, ascending; the first `6 - ka` are the padding's `-1`.
    pub values: nalgebra::SVector<f64, 6>,
    /// The modes, column `i` for `values[i]`.
    pub vectors: nalgebra::SMatrix<f64, 6, 6>,
    /// The first mode of a nonzero value (past the padding and the null modes).
    pub first_determined: usize,
}

impl NormalModes {
    /// The number of the padding's and of the null modes: none, with determinate normals.
    pub(super) fn null(&self, ka: usize) -> usize {
        self.first_determined - (6 - ka)
    }
}

impl Sliding<'_> {
    pub(super) fn normal_modes(&self) -> NormalModes {
        let (ka, nb) = (self.anchored.len(), self.spec.nb);
        let mut g = nalgebra::SMatrix::<f64, 6, 6>::zeros();
        for (i, &c) in self.anchored.iter().enumerate() {
            let w = self.wrench_of(c, self.geo(c, 3));
            for e in 0..nb {
                g[(e, i)] = w[e];
            }
        }
        // the padding's block -1: its modes stay apart from the real ones (all >= 0)
        let mut gtg = g.transpose() * g;
        for i in ka..6 {
            gtg[(i, i)] = -1.0;
        }
        let eigen = nalgebra::linalg::SymmetricEigen::new(gtg);
        let mut order = [0usize, 1, 2, 3, 4, 5];
        order.sort_by(|&a, &b| eigen.eigenvalues[a].total_cmp(&eigen.eigenvalues[b]));
        let values = nalgebra::SVector::<f64, 6>::from_fn(|i, _| eigen.eigenvalues[order[i]]);
        let vectors =
            nalgebra::SMatrix::<f64, 6, 6>::from_fn(|r, c| eigen.eigenvectors[(r, order[c])]);
        let largest = values[5].max(0.0);
        let first_determined = (6 - ka..6)
            .find(|&i| values[i] > 1e-12 * largest)
            .unwrap_or(6);
        NormalModes {
            g,
            values,
            vectors,
            first_determined,
        }
    }
}

fn wrench_at(terms: &[f64], geo: usize, first: usize, c: usize, f: [f64; 3]) -> [f64; 6] {
    let p0 = at(terms, geo + PER_CONTACT * first);
    let p = at(terms, geo + PER_CONTACT * c);
    let arm = [p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]];
    let mo = cross(arm, f);
    [f[0], f[1], f[2], mo[0], mo[1], mo[2]]
}

/// Solve `m x = b` in place (`b` becomes `x`) by LU with partial pivoting; `false` when a
/// pivot is negligible against the largest entry (a singular system).
pub(super) fn lu_solve(m: &mut [f64], b: &mut [f64], perm: &mut [usize], n: usize) -> bool {
    let scale = m.iter().fold(0.0f64, |a, v| a.max(libm::fabs(*v)));
    if !(scale > 0.0 && scale.is_finite()) {
        return n == 0;
    }
    for (i, p) in perm.iter_mut().enumerate() {
        *p = i;
    }
    for col in 0..n {
        let (piv, big) = (col..n)
            .map(|r| (r, libm::fabs(m[r * n + col])))
            .fold((col, -1.0), |a, x| if x.1 > a.1 { x } else { a });
        if big <= 1e-13 * scale {
            return false;
        }
        if piv != col {
            for j in 0..n {
                m.swap(col * n + j, piv * n + j);
            }
            b.swap(col, piv);
            perm.swap(col, piv);
        }
        let d = m[col * n + col];
        for r in col + 1..n {
            let f = m[r * n + col] / d;
            if f == 0.0 {
                continue;
            }
            for j in col..n {
                m[r * n + j] -= f * m[col * n + j];
            }
            b[r] -= f * b[col];
        }
    }
    for col in (0..n).rev() {
        let mut s = b[col];
        for j in col + 1..n {
            s -= m[col * n + j] * b[j];
        }
        b[col] = s / m[col * n + col];
    }
    b.iter().all(|x| x.is_finite())
}

/// The direction of a sliding contact's friction (against it) for the slip velocity `v`:
/// once `armed`, the slip's own direction on the side of `start` (past a grip it is
/// continued, not flipped, so the field stays smooth across the root that ends the phase,
/// which an implicit method's step may straddle), and `start` at rest (below `scale`).
///
/// A slip that grows from rest grows from round-off, so its own direction says nothing at
/// first: until the slip reaches [`super::still_speed`] the friction keeps `start` (the way
/// rolling pulled), and the phase ends there, at an instant located like every other, to
/// go on with the slip's own direction. Each phase's field is smooth and a function of the
/// state alone, so every method integrates the same one.
pub(super) fn friction_direction(
    v: [f64; 3],
    start: [f64; 3],
    armed: bool,
    scale: f64,
) -> [f64; 3] {
    let speed = norm(v);
    if !armed || speed <= scale {
        return start;
    }
    let sign = if dot(v, start) < 0.0 { -1.0 } else { 1.0 };
    [
        sign * v[0] / speed,
        sign * v[1] / speed,
        sign * v[2] / speed,
    ]
}
