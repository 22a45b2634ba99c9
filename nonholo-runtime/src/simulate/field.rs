//! The vector field an integrator steps: a [`Model`] with its inputs, which are zero
//! (`simulate`), held between the instants of a sampled-data controller, or the output of a
//! controller at every evaluation (continuous feedback).

use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;

use crate::model::check_state;
use crate::{ContactEvent, Controller, Error, Model};

/// What the integrators need of the right-hand side.
pub(super) trait VectorField {
    /// `dy = f(t, y)`.
    fn eval(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), Error>;
    /// The error parked by a closure that could not return it (diffsol's), taken out.
    fn take_failure(&self) -> Option<Error> {
        None
    }
}

/// `out = (d f / d x) v` by the central difference `(f(x + h v) - f(x - h v)) / 2h`
/// (`probe` and `f_plus` are scratch of `x`'s length): the implicit methods' Newton matrix.
/// A Newton iteration needs its matrix only to converge (the step's accuracy is the error
/// estimate's); a central difference gives it to about `eps^(2/3)` of the field's scale
/// with `h = cbrt(eps) scale / |v|`, as SciPy's `BDF` and SUNDIALS take difference
/// quotients too.
pub(super) fn central_jvp(
    f: &(impl VectorField + ?Sized),
    (t, x, v): (f64, &[f64], &[f64]),
    h: f64,
    (probe, f_plus): (&mut [f64], &mut [f64]),
    out: &mut [f64],
) -> Result<(), Error> {
    for (p, (x, v)) in probe.iter_mut().zip(x.iter().zip(v)) {
        *p = x + h * v;
    }
    f.eval(t, probe, f_plus)?;
    for (p, (x, v)) in probe.iter_mut().zip(x.iter().zip(v)) {
        *p = x - h * v;
    }
    f.eval(t, probe, out)?;
    for (o, f) in out.iter_mut().zip(f_plus.iter()) {
        *o = (f - *o) / (2.0 * h);
    }
    Ok(())
}

/// The cube root of `f64::EPSILON`: the central difference's step relative to the state.
pub(super) const CBRT_EPS: f64 = 6.055_454_452_393_343e-6;

/// Everything the sampling loop, the steppers, the root functions and the events ask of
/// a run's [`Field`], as a trait object: they are compiled once, in this crate, instead of
/// once per model in every crate that simulates one (they were three fifths of the code of
/// a test binary that runs a hundred models). [`Field`] is the one implementation.
pub(super) trait Plant: VectorField {
    /// `(NQ, DIM, NU)` of the model.
    fn dims(&self) -> (usize, usize, usize);
    fn mode(&self) -> Mode;
    /// [`Field::jvp`].
    fn jvp(&self, t: f64, x: &[f64], v: &[f64], out: &mut [f64]) -> Result<(), Error>;
    /// [`Field::sample`].
    fn sample(&self, t: f64, x: &[f64], dx: &mut [f64], u: &mut [f64]) -> Result<(), Error>;
    /// [`Field::sample_and_hold`].
    fn sample_and_hold(&self, t: f64, x: &[f64]) -> Result<bool, Error>;
    /// Hold the inputs `u` (a run resumed with the inputs held before).
    fn hold(&self, u: &[f64]);
    /// A step ended at `(t, x)` and was accepted (nothing stopped it there).
    fn accepted(&self, t: f64, x: &[f64]) -> Result<(), Error> {
        let _ = (t, x);
        Ok(())
    }
    /// [`Field::park`].
    fn park(&self, e: Error);
    /// [`Field::failed`].
    fn failed(&self) -> bool;
    /// The model's [`Model::CONTACT_GUARDS`].
    fn guard_table(&self) -> &[(&'static str, ContactEvent)];
    /// [`Model::contact_guards`] at the inputs acting at `(t, x)`.
    fn contact_guards(&self, t: f64, x: &[f64], out: &mut [f64]) -> Result<(), Error>;
    /// [`Model::qdot`].
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], out: &mut [f64]) -> Result<(), Error>;
    /// [`Model::state_from_qdot`] into `out`.
    fn state_from_qdot(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error>;
    /// The constraint check of a recorded state.
    fn check_state(&self, t: f64, x: &[f64], tol: f64) -> Result<(), Error>;
}

impl<M: Model> Plant for Field<'_, M> {
    fn dims(&self) -> (usize, usize, usize) {
        (M::NQ, M::DIM, M::NU)
    }
    fn mode(&self) -> Mode {
        self.mode
    }
    fn jvp(&self, t: f64, x: &[f64], v: &[f64], out: &mut [f64]) -> Result<(), Error> {
        Field::jvp(self, t, x, v, out)
    }
    fn sample(&self, t: f64, x: &[f64], dx: &mut [f64], u: &mut [f64]) -> Result<(), Error> {
        Field::sample(self, t, x, dx, u)
    }
    fn sample_and_hold(&self, t: f64, x: &[f64]) -> Result<bool, Error> {
        Field::sample_and_hold(self, t, x)
    }
    fn hold(&self, u: &[f64]) {
        self.held.borrow_mut().copy_from_slice(u);
    }
    fn park(&self, e: Error) {
        Field::park(self, e);
    }
    fn failed(&self) -> bool {
        Field::failed(self)
    }
    fn guard_table(&self) -> &[(&'static str, ContactEvent)] {
        M::CONTACT_GUARDS
    }
    fn contact_guards(&self, t: f64, x: &[f64], out: &mut [f64]) -> Result<(), Error> {
        self.with_inputs(t, x, |u| self.model.contact_guards(t, x, u, out))
    }
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], out: &mut [f64]) -> Result<(), Error> {
        self.model.qdot(t, q, z, out)
    }
    fn state_from_qdot(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        let x = self.model.state_from_qdot(t, q, qdot)?;
        out.copy_from_slice(x.as_ref());
        Ok(())
    }
    fn check_state(&self, t: f64, x: &[f64], tol: f64) -> Result<(), Error> {
        check_state(self.model, t, x, tol)
    }
}

/// Where the inputs come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// `u = 0`: [`Model::rhs`].
    Zero,
    /// `u` held at the value the controller set at the last control instant.
    Held,
    /// `u = c(t, x)` at every evaluation.
    Feedback,
}

/// The model, its inputs and the controller; the scratch every evaluation needs, allocated
/// once per run.
pub(super) struct Field<'r, M: Model> {
    pub(super) model: &'r M,
    mode: Mode,
    controller: Option<RefCell<&'r mut dyn Controller>>,
    /// The held inputs ([`Mode::Held`]).
    held: RefCell<Vec<f64>>,
    /// The inputs of one evaluation ([`Mode::Feedback`]) or of a control instant.
    scratch: RefCell<Vec<f64>>,
    /// The Jacobian-vector products' scratch.
    difference: RefCell<Difference>,
    /// The first error of a closure that cannot return one (diffsol's).
    failure: RefCell<Option<Error>>,
}

/// The buffers of the Jacobian-vector products' central differences: the probe `x +- h v`
/// and the field at `x + h v`.
struct Difference {
    f0: Vec<f64>,
    probe: Vec<f64>,
}

impl<'r, M: Model> Field<'r, M> {
    /// `controller = None` gives [`Mode::Zero`]; with one, `sampled` chooses
    /// [`Mode::Held`] over [`Mode::Feedback`].
    pub(super) fn new(
        model: &'r M,
        controller: Option<&'r mut dyn Controller>,
        sampled: bool,
    ) -> Self {
        let (n, nu) = (M::DIM, M::NU);
        let mode = match (&controller, sampled) {
            (None, _) => Mode::Zero,
            (Some(_), true) => Mode::Held,
            (Some(_), false) => Mode::Feedback,
        };
        Self {
            model,
            mode,
            controller: controller.map(RefCell::new),
            held: RefCell::new(vec![0.0; nu]),
            scratch: RefCell::new(vec![0.0; nu]),
            difference: RefCell::new(Difference {
                f0: vec![0.0; n],
                probe: vec![0.0; n],
            }),
            failure: RefCell::new(None),
        }
    }

    /// Run the controller at `(t, x)` into `u` (zeroed first); its error, or
    /// [`Error::NonFinite`] for an input that is not finite.
    fn control(&self, t: f64, x: &[f64], u: &mut [f64]) -> Result<(), Error> {
        let Some(controller) = &self.controller else {
            u.fill(0.0);
            return Ok(());
        };
        u.fill(0.0);
        controller.borrow_mut().control(t, x, u)?;
        if u.iter().all(|v| v.is_finite()) {
            Ok(())
        } else {
            Err(Error::NonFinite {
                what: "inputs u",
                t,
                state: x.to_vec(),
            })
        }
    }

    /// A control instant of a sampled-data controller: the inputs held from `t` on; whether
    /// they differ from those held before (bit for bit).
    pub(super) fn sample_and_hold(&self, t: f64, x: &[f64]) -> Result<bool, Error> {
        let mut held = self.held.borrow_mut();
        let mut scratch = self.scratch.borrow_mut();
        self.control(t, x, &mut scratch)?;
        let changed = held
            .iter()
            .zip(scratch.iter())
            .any(|(a, b)| a.to_bits() != b.to_bits());
        held.copy_from_slice(&scratch);
        Ok(changed)
    }

    /// A recorded sample: the inputs acting at `(t, x)` into `u` and `dx = f(t, x, u)`.
    pub(super) fn sample(
        &self,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        u: &mut [f64],
    ) -> Result<(), Error> {
        match self.mode {
            Mode::Zero => {
                u.fill(0.0);
                self.model.rhs(t, x, dx)
            }
            Mode::Held => {
                u.copy_from_slice(&self.held.borrow());
                self.model.rhs_u(t, x, u, dx)
            }
            Mode::Feedback => {
                self.control(t, x, u)?;
                self.model.rhs_u(t, x, u, dx)
            }
        }
    }

    /// `out = (d f / d x) v` of the field the integrator sees, for the implicit methods'
    /// Newton iterations: [`central_jvp`] with `h = cbrt(eps) max(1, |x|) / |v|` (max
    /// norms). In every input mode it is the field as integrated: under continuous feedback
    /// the closed loop `f(x, c(x))`, the controller's own dependence on `x` included.
    ///
    /// A difference and not the model's exact [`Model::rhs_jvp`]: that is the whole
    /// right-hand side again in dual numbers, which a call of `simulate` would compile for
    /// every model: on a 29-coordinate chain it was most of what `simulate` added to the
    /// model's release build (15.4 s against 7.0 s; BENCHMARKS.md, "The engine at scale").
    pub(super) fn jvp(&self, t: f64, x: &[f64], v: &[f64], out: &mut [f64]) -> Result<(), Error> {
        let vnorm = v.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if vnorm == 0.0 {
            out.fill(0.0);
            return Ok(());
        }
        let mut d = self.difference.borrow_mut();
        let d = &mut *d;
        let scale = x.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        let h = CBRT_EPS * scale / vnorm;
        central_jvp(self, (t, x, v), h, (&mut d.probe, &mut d.f0), out)
    }

    /// `f(u)` with the inputs acting at `(t, x)`: zero, held, or the controller's there.
    pub(super) fn with_inputs<R>(
        &self,
        t: f64,
        x: &[f64],
        f: impl FnOnce(&[f64]) -> Result<R, Error>,
    ) -> Result<R, Error> {
        match self.mode {
            Mode::Zero => {
                let mut u = self.scratch.borrow_mut();
                u.fill(0.0);
                f(&u)
            }
            Mode::Held => f(&self.held.borrow()),
            Mode::Feedback => {
                let mut u = self.scratch.borrow_mut();
                self.control(t, x, &mut u)?;
                f(&u)
            }
        }
    }

    /// Park the first error of a closure that cannot return it.
    pub(super) fn park(&self, e: Error) {
        let mut failure = self.failure.borrow_mut();
        if failure.is_none() {
            *failure = Some(e);
        }
    }

    /// Whether an error is parked (the closures then only poison their output).
    pub(super) fn failed(&self) -> bool {
        self.failure.borrow().is_some()
    }
}

impl<M: Model> VectorField for Field<'_, M> {
    fn eval(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), Error> {
        match self.mode {
            Mode::Zero => self.model.rhs(t, y, dy),
            Mode::Held => self.model.rhs_u(t, y, &self.held.borrow(), dy),
            Mode::Feedback => {
                let mut u = self.scratch.borrow_mut();
                self.control(t, y, &mut u)?;
                self.model.rhs_u(t, y, &u, dy)
            }
        }
    }

    fn take_failure(&self) -> Option<Error> {
        self.failure.borrow_mut().take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::doc_models::ForcedOscillator;

    /// m x'' + k x = f with m = 2, k = 8: df/dx = [[0, 1], [-4, 0]], df/du = [0, 1/2].
    const OSC: ForcedOscillator = ForcedOscillator { m: 2.0, k: 8.0 };

    /// The columns of the Jacobian the field's jvp gives at `x`.
    fn jacobian(field: &Field<'_, ForcedOscillator>, x: &[f64]) -> [[f64; 2]; 2] {
        let mut cols = [[0.0; 2]; 2];
        for (j, col) in cols.iter_mut().enumerate() {
            let mut e = [0.0; 2];
            e[j] = 1.0;
            field.jvp(0.3, x, &e, col).unwrap();
        }
        // rows
        [[cols[0][0], cols[1][0]], [cols[0][1], cols[1][1]]]
    }

    #[test]
    fn held_inputs_give_the_open_loop_jacobian_and_the_held_rhs() {
        let mut c = |_t: f64, _x: &[f64], u: &mut [f64]| u[0] = 3.0;
        let field = Field::new(&OSC, Some(&mut c), true);
        assert_eq!(field.mode(), Mode::Held);
        assert!(field.sample_and_hold(0.0, &[0.0, 0.0]).unwrap()); // 0 -> 3
        assert!(!field.sample_and_hold(0.1, &[1.0, 0.0]).unwrap()); // 3 -> 3
        let mut d = [0.0; 2];
        field.eval(0.3, &[1.0, 2.0], &mut d).unwrap();
        assert_eq!(d, [2.0, (3.0 - 8.0) / 2.0]);
        // the model's rhs_u_jvp at the held u (a central difference for this hand-written one)
        let j = jacobian(&field, &[1.0, 2.0]);
        let exact = [[0.0, 1.0], [-4.0, 0.0]];
        for (row, exact) in j.iter().zip(exact) {
            assert!((row[0] - exact[0]).abs() < 1e-9 && (row[1] - exact[1]).abs() < 1e-9);
        }
    }

    #[test]
    fn continuous_feedback_gives_the_closed_loop_jacobian() {
        // u = -2 x - v - x^3: d/dx f(x, c(x)) = [[0, 1], [(-8 - 2 - 3 x^2) / 2, -1/2]]
        let mut c = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = -2.0 * x[0] - x[1] - x[0].powi(3);
        let field = Field::new(&OSC, Some(&mut c), false);
        assert_eq!(field.mode(), Mode::Feedback);
        let x = [0.7, -1.2];
        let mut d = [0.0; 2];
        field.eval(0.3, &x, &mut d).unwrap();
        let u = -2.0 * 0.7 + 1.2 - 0.7f64.powi(3);
        assert_eq!(d, [-1.2, (u - 8.0 * 0.7) / 2.0]);
        let j = jacobian(&field, &x);
        let exact = [[0.0, 1.0], [(-10.0 - 3.0 * 0.49) / 2.0, -0.5]];
        let error = (0..2)
            .flat_map(|i| (0..2).map(move |k| (i, k)))
            .map(|(i, k)| (j[i][k] - exact[i][k]).abs())
            .fold(0.0, f64::max);
        println!("closed-loop Jacobian off by {error:.1e}");
        assert!(error < 1e-9, "{j:?}");
    }

    #[test]
    fn no_controller_is_the_model_at_zero_input() {
        let field = Field::new(&OSC, None, true);
        assert_eq!(field.mode(), Mode::Zero);
        let (mut d, mut u) = ([0.0; 2], [7.0]);
        field.sample(0.0, &[1.0, 0.0], &mut d, &mut u).unwrap();
        assert_eq!((d, u), ([0.0, -4.0], [0.0]));
    }
}
