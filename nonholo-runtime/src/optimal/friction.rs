//! Friction limits as path constraints of an optimal motion: [`FrictionMargin`].

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU64, Ordering};

use super::cost::PathConstraint;
use crate::{ContactLoadOf, Contacts, Error, Scalar};

/// The most contacts a [`FrictionMargin`] reads (their loads live on the stack, so that an
/// evaluation allocates nothing).
pub const MAX_CONTACTS: usize = 16;

/// The smoothing of the cone's apex, in units of `F0`.
const APEX: f64 = 1e-3;

/// Keep every contact that declares `friction: mu` inside its friction cone with a margin:
/// at every point of the grid (nodes and midpoints), for each such contact,
///
/// ```text
/// (mu N)^2 - |F_t|^2 >= (margin mu N)^2        N >= 0
/// ```
///
/// with `N` the normal force and `F_t` the tangential (longitudinal and lateral) force the
/// ground must supply for the motion to roll ([`Contacts::contact_loads_scalar`], in dual
/// numbers for the exact Jacobian and recorded on a tape for the exact Hessian). The
/// leftover capacity `sqrt((mu N)^2 - |F_t|^2)` stays at least `margin mu N`, i.e. the
/// friction use `|F_t| / (mu N)` at most `sqrt(1 - margin^2)` (0.99875 for 0.05, 0.954 for
/// 0.3). A plan never asks the ground for more than it can give at its points; between
/// them, and on the continuous model, the loads differ by the discretization error, which
/// is what the margin must cover.
///
/// The rows, two per contact (the cone, then the normal), are that inequality in root form
/// and in units of the largest `mu N` at the first node, `F0` (set by
/// [`check`](PathConstraint::check), which every solve calls; 1 before):
///
/// ```text
/// sqrt(1 - margin^2) mu N / F0 - sqrt(|F_t|^2 / F0^2 + 1e-6) >= 0        N / F0 >= 0
/// ```
///
/// For `N >= 0` the same set as the squares, but for a sliver of width `1e-3 F0` at the
/// cone's apex. The squared form's gradient vanishes at the apex (`N = F_t = 0`, where a
/// contact about to lift off sits): there the interior-point method's multipliers grew
/// without bound, and a dash of the robot took 187 to 212 iterations, or none converged,
/// against 13 to 36 in root form. The `1e-6` keeps the root smooth where `F_t` vanishes;
/// the unit keeps the rows of order one beside the defects (in newtons squared they were
/// thousands).
///
/// Built by [`Problem::friction_margin_at_least`](super::Problem::friction_margin_at_least),
/// or by hand for [`Problem::path`](super::Problem::path) with [`FrictionMargin::lower`] and
/// [`FrictionMargin::upper`]; rows in the order of the contacts with friction in
/// [`Contacts::CONTACTS`].
///
/// ```
/// use nonholo_runtime::__private::doc_models::Unicycle;
/// use nonholo_runtime::optimal::{FrictionMargin, PathConstraint};
///
/// let wheel = Unicycle::default(); // 70 kg with its rider
/// let limit = FrictionMargin::new(&wheel, 0.05);
/// assert_eq!(limit.len(), 2);
/// // state [x, y, psi, phi, v, w]: turning at 1 m/s and 0.5 rad/s needs m v w = 35 N of
/// // side force from the ground, against mu N = 0.8 * 70 * 9.81 (the unit F0)
/// let state = [0.0, 0.0, 0.0, 0.0, 1.0, 0.5];
/// limit.check(0.0, &state, &[])?;
/// let mut g = [0.0f64; 2];
/// limit.values(0.0, &state, &[], &mut g);
/// let f0 = 0.8 * 70.0 * 9.81;
/// let cone = (1.0f64 - 0.05 * 0.05).sqrt() - ((35.0f64 / f0).powi(2) + 1e-6).sqrt();
/// assert!((g[0] - cone).abs() < 1e-12);
/// assert!((g[1] - 1.0 / 0.8).abs() < 1e-12);
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
#[derive(Debug)]
pub struct FrictionMargin<'m, M> {
    model: &'m M,
    margin: f64,
    /// The contacts that declare `friction`, by their index in `Contacts::CONTACTS`.
    contacts: Vec<usize>,
    /// The rows' unit of force: the largest `mu N` at the first node (set by
    /// [`check`](PathConstraint::check)), so that the rows are of order one. Unscaled, the
    /// cone's rows are in newtons squared, thousands for a robot, and the interior-point
    /// method's barrier and its first steps were out of all proportion to the defects'.
    /// Its bits in an atomic, so that the limit is `Sync` (the Hessian's threads read it).
    unit: AtomicU64,
}

impl<M> Clone for FrictionMargin<'_, M> {
    fn clone(&self) -> Self {
        FrictionMargin {
            model: self.model,
            margin: self.margin,
            contacts: self.contacts.clone(),
            unit: AtomicU64::new(self.unit.load(Ordering::Relaxed)),
        }
    }
}

impl<'m, M: Contacts> FrictionMargin<'m, M> {
    /// The limits of every contact of `model` with friction, each with the leftover
    /// capacity at least `margin mu N` (`0 <= margin < 1`; checked by
    /// [`check`](PathConstraint::check)).
    pub fn new(model: &'m M, margin: f64) -> Self {
        let contacts = (0..M::CONTACTS.len())
            .filter(|&c| M::FRICTION.get(c) == Some(&true))
            .collect();
        FrictionMargin {
            model,
            margin,
            contacts,
            unit: AtomicU64::new(1.0f64.to_bits()),
        }
    }

    /// The names of the contacts it limits, in row order (two rows each).
    pub fn contacts(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.contacts.iter().map(|&c| M::CONTACTS[c])
    }

    /// The rows' lower bounds: zeros.
    pub fn lower(&self) -> Vec<f64> {
        vec![0.0; 2 * self.contacts.len()]
    }

    /// The rows' upper bounds: none (infinite).
    pub fn upper(&self) -> Vec<f64> {
        vec![f64::INFINITY; 2 * self.contacts.len()]
    }
}

impl<M: Contacts + Sync> PathConstraint for FrictionMargin<'_, M> {
    fn len(&self) -> usize {
        2 * self.contacts.len()
    }

    /// The cone and the normal of each contact with friction; `NaN` everywhere where the
    /// model's loads fail (the solver then steps back).
    fn values<S: Scalar>(&self, t: S, state: &[S], u: &[S], out: &mut [S]) {
        let k = M::CONTACTS.len();
        let mut loads = [ContactLoadOf::<S>::zero(); MAX_CONTACTS];
        if k > MAX_CONTACTS
            || self
                .model
                .contact_loads_scalar(t, state, u, &mut loads[..k])
                .is_err()
        {
            out.fill(S::from_f64(f64::NAN));
            return;
        }
        let keep = S::from_f64((1.0 - self.margin * self.margin).sqrt());
        let apex = S::from_f64(APEX * APEX);
        let per_unit = S::from_f64(1.0 / f64::from_bits(self.unit.load(Ordering::Relaxed)));
        for (row, &c) in out.chunks_exact_mut(2).zip(&self.contacts) {
            let l = &loads[c];
            let normal = l.normal * per_unit;
            let tangential = (l.tangential_squared() * per_unit * per_unit + apex).sqrt();
            row[0] = l.mu * normal * keep - tangential;
            row[1] = normal;
        }
    }

    /// The model has contacts with friction whose loads it derives in any scalar at the
    /// first node, and the margin is in `[0, 1)`.
    fn check(&self, t: f64, state: &[f64], u: &[f64]) -> Result<(), Error> {
        if !(0.0..1.0).contains(&self.margin) {
            return Err(Error::InvalidOptions(format!(
                "a friction margin is in [0, 1), got {}",
                self.margin
            )));
        }
        if self.contacts.is_empty() {
            return Err(Error::InvalidOptions(
                "friction margins need a contact with `friction: mu` (Contacts::FRICTION \
                 names none)"
                    .into(),
            ));
        }
        let k = M::CONTACTS.len();
        if k > MAX_CONTACTS {
            return Err(Error::NotAvailable {
                what: "friction margins on more than 16 contacts",
            });
        }
        let mut loads = vec![ContactLoadOf::<f64>::zero(); k];
        self.model.contact_loads_scalar(t, state, u, &mut loads)?;
        let unit = self
            .contacts
            .iter()
            .map(|&c| (loads[c].mu * loads[c].normal).abs())
            .fold(0.0, f64::max);
        let unit = if unit.is_finite() && unit > 0.0 {
            unit
        } else {
            1.0
        };
        self.unit.store(unit.to_bits(), Ordering::Relaxed);
        Ok(())
    }
}
