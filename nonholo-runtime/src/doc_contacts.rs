//! The [`Contacts`] of the doctests' unicycle
//! ([`Unicycle`](crate::__private::doc_models::Unicycle)), written by hand: the contact
//! series, their CSV, plots and arrows are shown on it. Not a stable API.

use crate::__private::doc_models::Unicycle;
use crate::private::{as_array, as_array_mut};
use crate::{ContactLoad, ContactLoadOf, Contacts, Error, Scalar};

/// The acceleration of gravity the unicycle stands in, along `-z`: its centre stays at
/// the height `r`, so gravity does no work and is not in its equations, but the ground
/// carries the weight.
pub(crate) const UNICYCLE_G: f64 = 9.81;
/// The friction coefficient of the unicycle's tyre on the ground.
pub(crate) const UNICYCLE_MU: f64 = 0.8;

/// One contact, `"W on ground"`. The motion `ddot(x) = -v w sin(psi)`,
/// `ddot(y) = v w cos(psi)`, `ddot(psi) = ddot(phi) = 0` needs the generalized reactions
/// `R = A ddot(q) = m (ddot(x), ddot(y), 0, 0)`: the centripetal force `m v w` across the
/// heading. The ground also carries the weight `m g` (`g = 9.81`) and its friction
/// coefficient is `mu = 0.8`, so the wheel needs the friction ratio `|v w| / (mu g)`.
impl Contacts for Unicycle {
    const CONTACTS: &'static [&'static str] = &["W on ground"];

    fn reactions(&self, _t: f64, state: &[f64], u: &[f64], out: &mut [f64]) -> Result<(), Error> {
        let [_, _, psi, _, v, w] = *as_array(state, "state")?;
        let _: &[f64; 0] = as_array(u, "inputs u")?;
        let k = self.m * v * w;
        *as_array_mut(out, "reactions")? = [-k * Scalar::sin(psi), k * Scalar::cos(psi), 0.0, 0.0];
        Ok(())
    }

    const FRICTION: &'static [bool] = &[true];

    fn contact_loads(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        out: &mut [ContactLoad],
    ) -> Result<(), Error> {
        self.contact_loads_scalar(t, state, u, out)
    }

    fn contact_loads_scalar<S: Scalar>(
        &self,
        _t: S,
        state: &[S],
        u: &[S],
        out: &mut [ContactLoadOf<S>],
    ) -> Result<(), Error> {
        let [x, y, psi, _, v, w] = *as_array(state, "state")?;
        let _: &[S; 0] = as_array(u, "inputs u")?;
        let [out] = as_array_mut(out, "contact loads")?;
        let (s, c) = psi.sin_cos();
        // the centripetal force along the axle H.y = (-sin psi, cos psi, 0), the weight
        // along up = z; the rolling direction axle x up = (cos psi, sin psi, 0)
        let (m, mu, zero) = (
            S::from_f64(self.m),
            S::from_f64(UNICYCLE_MU),
            S::from_f64(0.0),
        );
        let (lateral, normal) = (m * v * w, m * S::from_f64(UNICYCLE_G));
        let capacity = mu * normal;
        *out = ContactLoadOf {
            force: [-lateral * s, lateral * c, normal],
            point: [x, y, zero],
            normal,
            longitudinal: zero,
            lateral,
            utilization: lateral.abs() / capacity,
            friction_margin: capacity - lateral.abs(),
            mu,
        };
        Ok(())
    }

    fn contact_forces(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        out: &mut [[f64; 3]],
    ) -> Result<(), Error> {
        let [out] = as_array_mut(out, "contact forces")?;
        let mut load = [ContactLoad::ZERO];
        self.contact_loads(t, state, u, &mut load)?;
        *out = load[0].force;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Model;

    /// `R` is the generalized force of the contact force at the contact point (whose
    /// velocity is `(dot(x) - r cos(psi) dot(phi), dot(y) - r sin(psi) dot(phi), 0)`), and it
    /// does no work.
    #[test]
    fn the_reactions_are_the_contact_force_and_do_no_work() {
        let u = Unicycle::default();
        let state = [0.3, -0.2, 0.7, 1.1, 1.5, 0.5];
        let (mut r, mut l) = ([0.0; 4], [ContactLoad::ZERO]);
        u.reactions(0.0, &state, &[], &mut r).unwrap();
        u.contact_loads(0.0, &state, &[], &mut l).unwrap();
        let f = l[0].force;
        let (s, c) = (state[2].sin(), state[2].cos());
        let expected = [f[0], f[1], 0.0, -u.r * (c * f[0] + s * f[1])];
        for (a, b) in r.iter().zip(expected) {
            assert!((a - b).abs() < 1e-12, "{r:?} vs {expected:?}");
        }
        let mut qdot = [0.0; 4];
        u.qdot(0.0, &state[..4], &state[4..], &mut qdot).unwrap();
        let power: f64 = r.iter().zip(qdot).map(|(r, v)| r * v).sum();
        assert!(power.abs() < 1e-12);
        let mut forces = [[0.0; 3]];
        u.contact_forces(0.0, &state, &[], &mut forces).unwrap();
        assert_eq!(forces[0], f);
        assert!((l[0].tangential() - u.m * 1.5 * 0.5).abs() < 1e-12);
        assert!(u.contact_loads(0.0, &state, &[], &mut []).is_err());
    }
}
