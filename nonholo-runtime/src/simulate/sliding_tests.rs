//! The sliding solver on a model written by hand with its exact solution: a puck of mass
//! `m` on the plane `z = 0`, pushed along `x` by `f`, held by two rows (its velocity along
//! `x` and along `y`) with the friction coefficient `mu`.

use super::*;
use crate::__private::{ContactRows, Released, ReleasedSpec};

struct Puck {
    m: f64,
    mu: f64,
    g: f64,
}

static SPEC: ReleasedSpec = ReleasedSpec {
    nq: 2,
    nc: 2,
    nu: 1,
    nb: 3,
    // A, L, C, drift, rows, applied, one contact's geometry and its two rows' e
    len: 4 + 2 + 4 + 2 + 2 + 3 + PER_CONTACT + 6,
    balanced: true,
    contacts: &[ContactRows {
        rows: &[0, 1],
        height: false,
        shares_lateral_with: None,
        axle: false,
    }],
    friction: &[true],
    names: &["puck on ground"],
    velocities: &["dot(x)", "dot(y)"],
};

impl Released for Puck {
    fn spec(&self) -> &'static ReleasedSpec {
        &SPEC
    }
    fn terms(
        &self,
        _t: f64,
        q: &[f64],
        qd: &[f64],
        u: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        let (m, g) = (self.m, self.g);
        let terms = [
            m,
            0.0,
            0.0,
            m, // A
            u[0],
            0.0, // L: the push
            1.0,
            0.0,
            0.0,
            1.0, // C
            0.0,
            0.0, // drift
            qd[0],
            qd[1], // the rows
            u[0],
            0.0,
            -m * g, // applied: the push and the weight
            q[0],
            q[1],
            0.0,
            0.0,
            0.0,
            1.0,
            0.0,
            1.0,
            0.0,
            self.mu, // point, up, axle, mu
            1.0,
            0.0,
            0.0,
            0.0,
            1.0,
            0.0, // e of each row
        ];
        out.copy_from_slice(&terms);
        Ok(())
    }
    fn momenta_tangent(
        &self,
        _t: [f64; 2],
        _q: [&[f64]; 2],
        qd: [&[f64]; 2],
        _u: &[f64],
        out: &mut [f64; 6],
    ) -> Result<(), Error> {
        *out = [self.m * qd[1][0], self.m * qd[1][1], 0.0, 0.0, 0.0, 0.0];
        Ok(())
    }
}

const PUCK: Puck = Puck {
    m: 2.0,
    mu: 0.5,
    g: 9.81,
};

#[test]
fn a_rolling_puck_is_held_with_the_push_and_its_weight() {
    let mut s = Sliding::new(&PUCK);
    s.solve(
        0.0,
        &[1.0, 2.0],
        &[0.0, 0.0],
        &[3.0],
        &[false],
        (&[[0.0; 3]], &[false]),
    )
    .unwrap();
    assert_eq!(s.qdd, [0.0, 0.0]);
    let l = s.loads[0];
    assert!((l.normal - 2.0 * 9.81).abs() < 1e-12);
    assert!((l.longitudinal + 3.0).abs() < 1e-12 && l.lateral.abs() < 1e-12);
    assert!((l.friction_margin - (0.5 * 2.0 * 9.81 - 3.0)).abs() < 1e-12);
    assert_eq!(l.point, [1.0, 2.0, 0.0]);
}

#[test]
fn a_sliding_puck_feels_mu_m_g_against_its_slip() {
    let mut s = Sliding::new(&PUCK);
    let (vx, vy) = (0.6, -0.8);
    s.solve(
        0.0,
        &[0.0, 0.0],
        &[vx, vy],
        &[3.0],
        &[true],
        (&[[0.0; 3]], &[true]),
    )
    .unwrap();
    let (m, mu, g) = (2.0, 0.5, 9.81);
    let want = [(3.0 - mu * m * g * vx) / m, -mu * g * vy];
    assert!((s.qdd[0] - want[0]).abs() < 1e-12 && (s.qdd[1] - want[1]).abs() < 1e-12);
    assert!((s.loads[0].normal - m * g).abs() < 1e-12);
    assert!((s.loads[0].utilization - 1.0).abs() < 1e-12);
    assert_eq!(s.slip[0], [vx, vy, 0.0]);
    // still: the direction it was given, and the slip's acceleration along the friction's
    s.solve(
        0.0,
        &[0.0, 0.0],
        &[0.0, 0.0],
        &[3.0],
        &[true],
        (&[[-1.0, 0.0, 0.0]], &[false]),
    )
    .unwrap();
    assert!((s.qdd[0] - (3.0 + mu * m * g) / m).abs() < 1e-12);
    let a = s.slip_acceleration(0);
    assert!((a[0] - s.qdd[0]).abs() < 1e-12 && a[1] == 0.0);
}

#[test]
fn a_massless_puck_cannot_slide_and_it_is_not_painleve() {
    let puck = Puck { m: 0.0, ..PUCK };
    let mut s = Sliding::new(&puck);
    // rolling, the rows fix the motion whatever the mass
    s.solve(
        0.0,
        &[0.0, 0.0],
        &[0.0, 0.0],
        &[0.0],
        &[false],
        (&[[0.0; 3]], &[false]),
    )
    .unwrap();
    let e = s
        .solve(
            0.5,
            &[0.0, 0.0],
            &[1.0, 0.0],
            &[0.0],
            &[true],
            (&[[0.0; 3]], &[true]),
        )
        .unwrap_err();
    // nothing to move even without friction: not friction's paradox
    assert!(
        matches!(e, Error::SingularContact { contact: "puck on ground", t, .. } if t == 0.5),
        "{e:?}"
    );
}

#[test]
fn projection_moves_the_velocities_onto_the_rows_that_stay_on() {
    let mut s = Sliding::new(&PUCK);
    let mut qd = [0.3, -0.2];
    s.project(0.0, &[0.0, 0.0], &mut qd, &[0.0], &[false])
        .unwrap();
    assert!(qd[0].abs() < 1e-15 && qd[1].abs() < 1e-15);
    let mut qd = [0.3, -0.2];
    s.project(0.0, &[0.0, 0.0], &mut qd, &[0.0], &[true])
        .unwrap();
    assert_eq!(qd, [0.3, -0.2]);
}
