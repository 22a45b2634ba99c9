//! The numbers a [`Problem`]'s program starts from: the solver's initial point (the
//! guess at every point), the structures of the model's Jacobians found by probing it
//! about that point, and the bounds of the variables and the constraints.

use alloc::vec;
use alloc::vec::Vec;

use crate::optimal::cost::{Cost, PathConstraint};
use crate::optimal::layout::Layout;
use crate::optimal::pattern::{Pattern, Probe};
use crate::optimal::problem::Problem;
use crate::{Error, Model};

impl<M: Model + Sync, C: Cost, P: PathConstraint> Problem<'_, M, C, P> {
    /// The initial point of the solver: the guess at every point.
    pub(crate) fn start(&self, l: &Layout) -> Result<Vec<f64>, Error> {
        let (dim, nz) = (l.dim, l.nz());
        let mut x = vec![0.0; l.points() * nz];
        let mut state = vec![0.0; dim];
        for p in 0..l.points() {
            let t = l.time(p, l.duration);
            let s = l.tau(p);
            let z = &mut x[p * nz..(p + 1) * nz];
            match &self.guess {
                Some(tr) => {
                    let (Some(&a), Some((b, _))) = (tr.times().first(), tr.last()) else {
                        return Err(Error::InvalidOptions(
                            "the guessed trajectory is empty".into(),
                        ));
                    };
                    tr.at_into(t.clamp(a, b), &mut state)?;
                    z[..dim].copy_from_slice(&state);
                    // the next sample's inputs; for the last plan read at a receding
                    // horizon's shifted nodes (`restart`), linear in time between its
                    // nodes, as the trapezoidal scheme's dynamics have them: the next
                    // node's input would leave an error of the input's jump times its
                    // gain (0.5 rad/s in the robot's wheel rates after a torque switch)
                    // in the defects, for the solver to remove
                    let times = tr.times();
                    if let Some(i) = times.iter().position(|&ti| ti >= t)
                        && let Some(u) = tr.input(i)
                        && u.len() == l.nu
                    {
                        z[dim..].copy_from_slice(u);
                        if self.warm.is_some()
                            && let Some(before) = i.checked_sub(1).and_then(|j| tr.input(j))
                            && times[i] > times[i - 1]
                        {
                            let w = (t - times[i - 1]) / (times[i] - times[i - 1]);
                            for (zi, (a, b)) in z[dim..].iter_mut().zip(before.iter().zip(u)) {
                                *zi = a + w * (b - a);
                            }
                        }
                    }
                }
                None => {
                    for (zi, (initial, terminal)) in
                        z.iter_mut().zip(self.initial.iter().zip(&self.terminal))
                    {
                        let a = initial.or(*terminal).unwrap_or(0.0);
                        let b = terminal.unwrap_or(a);
                        *zi = a + s * (b - a);
                    }
                }
            }
            if let Some(u) = &self.guess_inputs {
                z[dim..].copy_from_slice(u);
            }
            // inside the bounds
            for (v, (lo, hi)) in z
                .iter_mut()
                .zip(self.state_bounds.iter().chain(&self.input_bounds))
            {
                *v = v.clamp(*lo, *hi);
            }
        }
        if l.free {
            x.push(l.duration);
        }
        Ok(x)
    }

    /// The structural patterns of the model's Jacobian `[df/dx df/du]` and of its
    /// configuration constraints' Jacobian: the entries nonzero at any of a few
    /// pseudo-random points about the guess (an entry of an analytic function that is
    /// zero at random points is zero everywhere; the solve checks every Jacobian it is
    /// given against the pattern and fails if one has an entry outside it). The model's
    /// own [`Model::JACOBIAN_PATTERN`], emitted by the macro, replaces the first where it
    /// holds the probes' entries.
    pub(crate) fn patterns(&self, l: &Layout, start: &[f64]) -> Result<(Pattern, Pattern), Error> {
        let (dim, nu, nz, nq, ncc) = (l.dim, l.nu, l.nz(), l.nq, l.ncc);
        let mut jac = Pattern::empty(dim, nz);
        let mut conf = Pattern::empty(ncc, nq);
        let (mut a, mut b) = (vec![0.0; dim * dim], vec![0.0; dim * nu]);
        let mut j = vec![0.0; dim * nz];
        let mut cj = vec![0.0; ncc * nq];
        let mut probe = Probe::new();
        let mut z = vec![0.0; nz];
        let mut good = 0;
        let mut last_error = None;
        for n in 0..12 {
            if good >= 4 {
                break;
            }
            let p = (n * 7) % l.points();
            let t = l.time(p, l.duration);
            for (zi, &s) in z.iter_mut().zip(&start[p * nz..(p + 1) * nz]) {
                *zi = s + 0.5 * (1.0 + s.abs()) * probe.next();
            }
            let (xs, us) = z.split_at(dim);
            match self.model.jacobians(t, xs, us, &mut a, &mut b) {
                Ok(()) => {
                    for i in 0..dim {
                        j[i * nz..i * nz + dim].copy_from_slice(&a[i * dim..(i + 1) * dim]);
                        j[i * nz + dim..(i + 1) * nz].copy_from_slice(&b[i * nu..(i + 1) * nu]);
                    }
                    jac.add_nonzeros(&j);
                    if ncc > 0 {
                        self.model.configuration_jacobian(t, &xs[..nq], &mut cj)?;
                        conf.add_nonzeros(&cj);
                    }
                    good += 1;
                }
                Err(e) => last_error = Some(e),
            }
        }
        if good == 0 {
            return Err(last_error.unwrap_or(Error::NotAvailable {
                what: "the model's Jacobians about the initial guess",
            }));
        }
        // the macro's structural pattern where the model has one: no entry of it is left
        // out because it vanished at the probes (the probes' entries lie in it; every
        // Jacobian the solve is given is checked against it)
        if let Some(pairs) = M::JACOBIAN_PATTERN {
            let mut structural = Pattern::empty(dim, nz);
            for &(i, c) in pairs {
                structural.set(usize::from(i), usize::from(c));
            }
            if structural.contains(&jac) {
                jac = structural;
            }
        }
        Ok((jac, conf))
    }

    /// Every variable's bounds: the states' and inputs' bounds, the initial conditions
    /// at node 0 and the final ones at the last node as fixed values.
    pub(crate) fn variable_bounds(&self, l: &Layout) -> (Vec<f64>, Vec<f64>) {
        let nz = l.nz();
        let mut lo = Vec::with_capacity(l.variables());
        let mut hi = Vec::with_capacity(l.variables());
        for _ in 0..l.points() {
            for &(a, b) in self.state_bounds.iter().chain(&self.input_bounds) {
                lo.push(a);
                hi.push(b);
            }
        }
        let last = l.nodes - 1;
        for (node, cond) in [(0, &self.initial), (last, &self.terminal)] {
            for (i, c) in cond.iter().enumerate() {
                if let Some(v) = c {
                    lo[node * nz + i] = *v;
                    hi[node * nz + i] = *v;
                }
            }
        }
        if let Some((a, b)) = self.free {
            lo.push(a);
            hi.push(b);
        }
        (lo, hi)
    }

    /// Defects and configuration constraints are equalities; path constraints take their
    /// bounds.
    pub(crate) fn constraint_bounds(&self, l: &Layout) -> (Vec<f64>, Vec<f64>) {
        let equalities = l.defect_rows() + l.conf_points() * l.ncc;
        let mut lo = vec![0.0; equalities];
        let mut hi = vec![0.0; equalities];
        for _ in 0..l.path_points() {
            lo.extend(&self.path_bounds.0);
            hi.extend(&self.path_bounds.1);
        }
        (lo, hi)
    }
}
