//! Classical fixed-step Runge–Kutta (RK4), for embedded control loops and `no_std`.
//!
//! Everything else (adaptive steps, stiff methods, dense output) is `simulate`'s job
//! (feature `diffsol`).

use crate::model::{check_state, validate_layout};
use crate::{Error, Model, Scalar, SimulationError, Trajectory};

/// Tolerance of the initial constraint check in [`integrate_rk4`] (relative, as in
/// [`check_state`]).
const INITIAL_CONSTRAINT_TOL: f64 = 1e-8;

/// Advance `state` from `t` to `t + dt` by one classical RK4 step.
///
/// Uses four stage buffers copied from [`Model::ZERO_STATE`] on the stack: no heap
/// allocation unless an error is returned. On error, `state` is left unchanged.
///
/// Fails with the first error of [`Model::rhs`], with [`Error::NonFinite`] when the new
/// state is not finite, and with [`Error::Dimension`] when `M::State` is not `DIM` long.
///
/// ```
/// use nonholo_runtime::rk4_step;
/// # use nonholo_runtime::__private::doc_models::Oscillator;
///
/// // x'' = -w^2 x is linear, y' = A y: one RK4 step is the Taylor polynomial of
/// // exp(A dt) of degree 4, here [1 - (w dt)^2/2 + (w dt)^4/24, -w (w dt - (w dt)^3/6)].
/// let (w, dt) = (2.0, 0.1);
/// let mut y = [1.0, 0.0];
/// rk4_step(&Oscillator::new(w), 0.0, &mut y, dt).unwrap();
/// let h = w * dt;
/// assert!((y[0] - (1.0 - h * h / 2.0 + h.powi(4) / 24.0)).abs() < 1e-15);
/// assert!((y[1] + w * (h - h.powi(3) / 6.0)).abs() < 1e-15);
/// ```
pub fn rk4_step<M: Model>(model: &M, t: f64, state: &mut M::State, dt: f64) -> Result<(), Error> {
    let mut k1 = M::ZERO_STATE;
    model.rhs(t, state.as_ref(), k1.as_mut())?;
    step_with_k1::<M>(model, t, state, dt, &k1)
}

/// One RK4 step given the first stage `k1 = f(t, state)` (so a caller that already has it,
/// like [`integrate_rk4`] which records it, does not evaluate it twice).
fn step_with_k1<M: Model>(
    model: &M,
    t: f64,
    state: &mut M::State,
    dt: f64,
    k1: &M::State,
) -> Result<(), Error> {
    if state.as_ref().len() != M::DIM {
        return Err(Error::Dimension {
            what: "M::State",
            expected: M::DIM,
            found: state.as_ref().len(),
        });
    }
    let (mut k2, mut k3, mut k4, mut tmp) =
        (M::ZERO_STATE, M::ZERO_STATE, M::ZERO_STATE, M::ZERO_STATE);
    let ks = [k2.as_mut(), k3.as_mut(), k4.as_mut()];
    stages(
        |t, y, d| model.rhs(t, y, d),
        t,
        state.as_ref(),
        dt,
        k1.as_ref(),
        ks,
        tmp.as_mut(),
    )?;
    *state = tmp;
    Ok(())
}

/// The stages of one RK4 step from `(t, y)` with `k1 = f(t, y)` given: the new state in
/// `out`, or the first error of `f`, or [`Error::NonFinite`].
fn stages<S: Scalar>(
    mut f: impl FnMut(S, &[S], &mut [S]) -> Result<(), Error>,
    t: S,
    y: &[S],
    dt: S,
    k1: &[S],
    [k2, k3, k4]: [&mut [S]; 3],
    out: &mut [S],
) -> Result<(), Error> {
    // out = y + a k, as the stage argument (out is the scratch buffer until the end).
    let stage = |out: &mut [S], k: &[S], a: S| {
        for ((o, yi), ki) in out.iter_mut().zip(y).zip(k) {
            *o = *yi + a * *ki;
        }
    };
    let h2 = S::from_f64(0.5) * dt;
    stage(out, k1, h2);
    f(t + h2, out, k2)?;
    stage(out, k2, h2);
    f(t + h2, out, k3)?;
    stage(out, k3, dt);
    f(t + dt, out, k4)?;
    let (w, two) = (dt / S::from_f64(6.0), S::from_f64(2.0));
    let ks = k1.iter().zip(k2.iter()).zip(k3.iter()).zip(k4.iter());
    for ((o, yi), (((a, b), c), d)) in out.iter_mut().zip(y).zip(ks) {
        *o = *yi + w * (*a + two * *b + two * *c + *d);
    }
    if !crate::__private::all_finite(out) {
        return Err(Error::NonFinite {
            what: "RK4 state",
            t: (t + dt).re(),
            state: crate::__private::to_vec(out),
        });
    }
    Ok(())
}

/// One classical RK4 step of `dy/dt = f(t, y)` in any [`Scalar`]: for `f32` models on a
/// microcontroller, or dual numbers (forward sensitivities of the trajectory).
///
/// `f` is typically a model's `rhs_generic`. Stage buffers live on the stack: no heap
/// allocation unless an error is returned. On error, `state` is left unchanged.
///
/// ```
/// use nonholo_runtime::{rk4_step_generic, Error};
/// // dx/dt = -x in single precision.
/// let mut x = [1.0f32];
/// let decay = |_t: f32, s: &[f32], d: &mut [f32]| -> Result<(), Error> {
///     d[0] = -s[0];
///     Ok(())
/// };
/// for _ in 0..10 {
///     rk4_step_generic(decay, 0.0, &mut x, 0.1).unwrap();
/// }
/// assert!((x[0] - (-1.0f32).exp()).abs() < 1e-6);
/// ```
pub fn rk4_step_generic<S: Scalar, const N: usize>(
    mut f: impl FnMut(S, &[S], &mut [S]) -> Result<(), Error>,
    t: S,
    state: &mut [S; N],
    dt: S,
) -> Result<(), Error> {
    let zero = S::from_f64(0.0);
    let (mut k1, mut k2, mut k3, mut k4, mut out) =
        ([zero; N], [zero; N], [zero; N], [zero; N], [zero; N]);
    f(t, state, &mut k1)?;
    stages(f, t, state, dt, &k1, [&mut k2, &mut k3, &mut k4], &mut out)?;
    *state = out;
    Ok(())
}

/// Integrate `steps` fixed RK4 steps of size `dt` from `(t0, state0)`, recording every step
/// (so `steps + 1` samples, at `t0 + i dt`, each with its derivative for
/// [`Trajectory::at`]).
///
/// Checks first that `state0` has length `M::DIM` ([`Error::Dimension`]), that it satisfies
/// the constraints ([`Error::ConstraintViolated`], tolerance `1e-8` as in
/// [`check_state`]), and that `dt` is positive and finite ([`Error::InvalidOptions`]). A
/// failure part-way returns the samples recorded so far in [`SimulationError::partial`].
///
/// The per-step work allocates nothing; the trajectory itself grows on the heap.
///
/// ```
/// use nonholo_runtime::{integrate_rk4, Error};
/// # use nonholo_runtime::__private::doc_models::Oscillator;
///
/// // x'' = -x from x = 1, v = 0: x = cos t; RK4's global error is O(dt^4).
/// let osc = Oscillator::new(1.0);
/// let tr = integrate_rk4(&osc, &[1.0, 0.0], 0.0, 0.01, 100).unwrap();
/// assert_eq!(tr.len(), 101);
/// let (t, y) = tr.last().unwrap();
/// assert!((t - 1.0).abs() < 1e-15);
/// assert!((y[0] - 1.0f64.cos()).abs() < 1e-9 && (y[1] + 1.0f64.sin()).abs() < 1e-9);
/// // the recorded derivative is f(t, y) = [v, -x]
/// assert_eq!(tr.derivative(100).unwrap(), [y[1], -y[0]]);
///
/// // Checked before the first step, with nothing recorded: dt and the state's length.
/// let bad_dt = integrate_rk4(&osc, &[1.0, 0.0], 0.0, 0.0, 100).unwrap_err();
/// assert!(matches!(bad_dt.error, Error::InvalidOptions(_)) && bad_dt.partial.is_empty());
/// let short = integrate_rk4(&osc, &[1.0], 0.0, 0.01, 100).unwrap_err();
/// assert!(matches!(short.error, Error::Dimension { expected: 2, found: 1, .. }));
/// ```
// One error per run, and it carries the trajectory by value on purpose (no Box to
// look through): its size does not matter.
#[allow(clippy::result_large_err)]
pub fn integrate_rk4<M: Model>(
    model: &M,
    state0: &[f64],
    t0: f64,
    dt: f64,
    steps: usize,
) -> Result<Trajectory, SimulationError> {
    let mut traj = Trajectory::new::<M>();
    let fail = |error, partial| SimulationError { error, partial };
    if let Err(e) = validate_layout::<M>().and_then(|()| model.check_parameters()) {
        return Err(fail(e, traj));
    }
    let dt_ok = dt > 0.0 && dt.is_finite() && t0.is_finite();
    if !dt_ok {
        let msg = alloc::format!("RK4 needs finite t0 and dt > 0 (t0 = {t0}, dt = {dt})");
        return Err(fail(Error::InvalidOptions(msg), traj));
    }
    if let Err(e) = check_state(model, t0, state0, INITIAL_CONSTRAINT_TOL) {
        return Err(fail(e, traj));
    }
    traj.reserve(steps.saturating_add(1));
    let mut state = M::ZERO_STATE;
    for (s, x) in state.as_mut().iter_mut().zip(state0) {
        *s = *x;
    }
    let mut k1 = M::ZERO_STATE;
    for i in 0..=steps {
        // t_i from i, not by accumulation, so long runs do not drift in time.
        let t = t0 + i as f64 * dt;
        let recorded = model
            .rhs(t, state.as_ref(), k1.as_mut())
            .and_then(|()| traj.push(t, state.as_ref(), k1.as_ref()));
        if let Err(e) = recorded {
            return Err(fail(e, traj));
        }
        if i < steps
            && let Err(e) = step_with_k1::<M>(model, t, &mut state, dt, &k1)
        {
            return Err(fail(e, traj));
        }
    }
    Ok(traj)
}
