//! The generated `rhs` reports a mass matrix G that is not positive definite, and a
//! non-finite result, as errors that carry the time and the state — through every way it
//! solves G: a speed alone (1 x 1), a 2 x 2 block, the unrolled LDL^T of a larger block.

use nonholo::models::{AssignedFront, PendulumSkate, Skate};
use nonholo::{Error, Model};

/// `rhs` at `(t, state)` must fail with `SingularMassMatrix` carrying both.
fn singular<M: Model>(model: &M, t: f64, state: &[f64]) {
    let mut d = vec![0.0; state.len()];
    match model.rhs(t, state, &mut d) {
        Err(Error::SingularMassMatrix { t: et, state: es }) => {
            assert_eq!(et, t);
            assert_eq!(es, state);
        }
        other => panic!("expected SingularMassMatrix, got {other:?}"),
    }
}

#[test]
fn a_speed_alone_with_a_non_positive_mass() {
    // G = diag(m, inertia)
    let state = [0.1, 0.2, 0.3, 1.0, -0.5];
    singular(&Skate::default().with_inertia(0.0), 0.25, &state);
    singular(&Skate::default().with_m(-1.0), 0.25, &state);
}

#[test]
fn a_two_by_two_block_that_is_singular() {
    // the (theta, theta1) block: m_D kappa^2 = 0 makes its determinant -(..)^2 <= 0
    let state = [0.1, 0.2, 0.3, 1.0, -0.5];
    singular(&AssignedFront::default().with_kappa(0.0), 1.5, &state);
}

#[test]
fn a_four_by_four_block_with_a_negative_pivot() {
    // the first pivot of the LDL^T is rho^2 (M + m_S + m_D)
    let state = [0.0, 0.0, 0.4, 0.2, -0.1, 1.0, 0.5, -0.3, 0.2];
    singular(&PendulumSkate::default().with_big_m(-10.0), 2.0, &state);
    // and the same model is fine with its own parameters
    let mut d = [0.0; 9];
    PendulumSkate::default().rhs(2.0, &state, &mut d).unwrap();
}

#[test]
fn a_non_finite_result_names_dstate() {
    let state = [0.0, 0.0, 0.4, 0.2, -0.1, f64::INFINITY, 0.5, -0.3, 0.2];
    let mut d = [0.0; 9];
    match PendulumSkate::default().rhs(3.0, &state, &mut d) {
        Err(Error::NonFinite { what, t, state: s }) => {
            assert_eq!((what, t), ("dstate", 3.0));
            assert_eq!(s[5], f64::INFINITY);
        }
        other => panic!("expected NonFinite, got {other:?}"),
    }
}
