//! What a [`Contacts`] model says about the samples of a [`Trajectory`]: the generalized
//! reactions of its constraints and the forces its wheels get from the ground.

use alloc::vec;
use alloc::vec::Vec;

use super::Trajectory;
use crate::{ContactLoad, Contacts, Error};

impl Trajectory {
    /// The load on every rolling contact at every sample: `out[i]` holds
    /// [`Contacts::contact_loads`] at `(t_i, state_i)` with the recorded inputs `u_i`, one
    /// [`ContactLoad`] per name of [`Contacts::CONTACTS`] (a trajectory recorded without
    /// inputs is evaluated at `u = 0`).
    ///
    /// Each load splits the force `F` the ground exerts on the wheel in the contact's
    /// frame, the plane's normal `n`, the rolling direction `e_l = (a x n) / |a x n|` (`a`
    /// the axle) and the axle projected on the plane `e_t`:
    ///
    /// ```text
    /// F = N n + F_l e_l + F_t e_t,     |F_t| = sqrt(F_l^2 + F_t^2),
    /// utilization = |F_t| / (mu N),   friction_margin = mu N - |F_t|
    /// ```
    ///
    /// the last two for a contact with `friction: mu` (`NaN` otherwise). The wheel grips
    /// while `utilization < 1`.
    ///
    /// [`Error::Dimension`] for a trajectory of another shape (its `NQ` or `DIM`) or with
    /// another number of inputs; the errors of [`Contacts::contact_loads`] otherwise (e.g.
    /// [`Error::NotAvailable`]).
    ///
    /// ```
    /// use nonholo_runtime::{Error, Geometry, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::{Skate, Unicycle};
    ///
    /// // A unicycle (70 kg) riding a circle at v = 1.5 m/s, turning at w = 0.5 rad/s: the
    /// // ground pushes it toward the centre with m v w = 52.5 N and carries its weight
    /// // m g; with mu = 0.8 it uses |v w| / (mu g) of the friction available.
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 4.0, 40)?;
    /// let loads = ride.contact_loads(&unicycle)?;
    /// assert_eq!(loads.len(), ride.len());
    /// for (i, load) in loads.iter().enumerate() {
    ///     let [w] = load[..] else { panic!("one contact") };
    ///     assert!((w.lateral - 52.5).abs() < 1e-12 && w.longitudinal.abs() < 1e-12);
    ///     assert!((w.normal - 70.0 * 9.81).abs() < 1e-9);
    ///     assert!((w.utilization - 0.75 / (0.8 * 9.81)).abs() < 1e-12);
    ///     // at the wheel's contact point
    ///     let q = ride.q(i).unwrap();
    ///     assert_eq!(w.point, unicycle.position("W.contact", ride.times()[i], q)?);
    /// }
    /// // the samples of another model do not fit
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// assert!(matches!(ride.contact_loads(&skate), Err(Error::Dimension { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn contact_loads<M: Contacts>(&self, model: &M) -> Result<Vec<Vec<ContactLoad>>, Error> {
        if !self.contact_names.is_empty() && self.contact_names == M::CONTACTS {
            // recorded by a run whose contacts may slip, in every mode
            let k = self.contact_names.len();
            return Ok(self.loads.chunks(k).map(<[ContactLoad]>::to_vec).collect());
        }
        let zero_u = self.check_inputs::<M>()?;
        self.samples_with_inputs()
            .map(|(t, state, u)| {
                let u = if u.len() == M::NU { u } else { &zero_u };
                let mut out = vec![ContactLoad::ZERO; M::CONTACTS.len()];
                model.contact_loads(t, state, u, &mut out)?;
                Ok(out)
            })
            .collect()
    }

    /// The generalized reactions at every sample: `out[i]` holds [`Contacts::reactions`] at
    /// `(t_i, state_i)` with the recorded inputs `u_i` (`u = 0` for a trajectory recorded
    /// without inputs), one force per coordinate ([`Model::NQ`](crate::Model::NQ)):
    ///
    /// ```text
    /// R = A ddot(q) + h - F        at the constrained acceleration ddot(q)
    /// ```
    ///
    /// the forces the constraints exert to keep the motion on them. Ideal constraints do
    /// no virtual work, `psi_z^T R = 0`; fixed ones no work at all, `R . dot(q) = 0`.
    ///
    /// Errors as [`Trajectory::contact_loads`] (those of [`Contacts::reactions`]).
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Error, Model, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::{Skate, Unicycle};
    ///
    /// // a skate (2 kg) on a circle at v = 1 m/s, w = 0.5 rad/s: the blade pushes
    /// // sideways with the centripetal force m v w = 1 N, and does no work
    /// let skate = Skate { m: 2.0, i: 0.5 };
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.3, 1.0, 0.5], 0.0, 0.01, 300)?;
    /// let reactions = tr.reactions(&skate)?;
    /// let mut qdot = [0.0; 3];
    /// for (i, r) in reactions.iter().enumerate() {
    ///     assert_eq!(r.len(), Skate::NQ);
    ///     assert!((r[0].hypot(r[1]) - 1.0).abs() < 1e-12 && r[2] == 0.0);
    ///     skate.qdot(tr.times()[i], tr.q(i).unwrap(), tr.z(i).unwrap(), &mut qdot)?;
    ///     assert!((r[0] * qdot[0] + r[1] * qdot[1] + r[2] * qdot[2]).abs() < 1e-12);
    /// }
    /// // a trajectory that records one input does not fit a model with none
    /// let mut forced = Trajectory::from_names_with_inputs(&["x", "y", "theta"], &["v", "omega"], &["f"]);
    /// forced.push_with_inputs(0.0, &[0.0; 5], &[0.0; 5], &[1.0])?;
    /// assert!(matches!(
    ///     forced.reactions(&skate),
    ///     Err(Error::Dimension { what: "trajectory inputs", expected: 0, found: 1 })
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reactions<M: Contacts>(&self, model: &M) -> Result<Vec<Vec<f64>>, Error> {
        if !self.contact_names.is_empty() {
            return Err(Error::NotAvailable {
                what: "the reactions of a run whose contacts slip (its samples are [q, dot(q)]; see contact_loads)",
            });
        }
        let zero_u = self.check_inputs::<M>()?;
        self.samples_with_inputs()
            .map(|(t, state, u)| {
                let u = if u.len() == M::NU { u } else { &zero_u };
                let mut out = vec![0.0; M::NQ];
                model.reactions(t, state, u, &mut out)?;
                Ok(out)
            })
            .collect()
    }

    /// [`Trajectory::check_model`] and the inputs: `Ok(u = 0)` (the inputs a trajectory
    /// recorded without any stands for) when the samples fit `M`.
    pub(crate) fn check_inputs<M: crate::Model>(&self) -> Result<Vec<f64>, Error> {
        // a run whose contacts slip records [q, dot(q)] with its loads
        let slipping =
            !self.contact_names.is_empty() && self.nq == M::NQ && self.dim() == 2 * M::NQ;
        if !slipping {
            self.check_model::<M>()?;
        }
        if self.nu() != M::NU && self.nu() != 0 {
            return Err(Error::Dimension {
                what: "trajectory inputs",
                expected: M::NU,
                found: self.nu(),
            });
        }
        Ok(vec![0.0; M::NU])
    }
}

impl Trajectory {
    /// Which contacts slide at sample `i`, one flag per name of
    /// [`Contacts::CONTACTS`], for a run whose contacts may slip
    /// ([`simulate_hybrid`](crate::simulate_hybrid) on a model with `friction`); `None` for
    /// another trajectory or past the end.
    ///
    /// Such a run records `[q, dot(q)]` at every sample (names `dot(q_i)` after the
    /// coordinates, in every mode), and the contact loads of the mode it was in
    /// ([`Trajectory::contact_loads`] gives them back; a sliding contact's friction is
    /// `-mu N` along its slip).
    pub fn sliding(&self, i: usize) -> Option<&[bool]> {
        let k = self.contact_names.len();
        (k > 0 && i < self.len()).then(|| &self.sliding[i * k..(i + 1) * k])
    }

    /// The contacts a run whose contacts may slip recorded (empty otherwise).
    pub fn contact_names(&self) -> &[&'static str] {
        &self.contact_names
    }

    /// The loads a run whose contacts slip recorded at sample `i`.
    #[cfg_attr(not(feature = "viz"), allow(dead_code))]
    pub(crate) fn recorded_loads(&self, i: usize) -> Option<&[ContactLoad]> {
        let k = self.contact_names.len();
        (k > 0 && i < self.len()).then(|| &self.loads[i * k..(i + 1) * k])
    }

    /// Start recording the loads and modes of the contacts `names`.
    #[cfg_attr(not(feature = "diffsol"), allow(dead_code))]
    pub(crate) fn record_contacts(&mut self, names: &[&'static str]) {
        self.contact_names = names.to_vec();
    }

    /// The loads and modes of the last sample pushed.
    #[cfg_attr(not(feature = "diffsol"), allow(dead_code))]
    pub(crate) fn push_contacts(&mut self, loads: &[ContactLoad], sliding: &[bool]) {
        self.loads.extend_from_slice(loads);
        self.sliding.extend_from_slice(sliding);
    }
}
