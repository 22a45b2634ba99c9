//! What a problem minimizes ([`Cost`]) and what it keeps within bounds along the way
//! ([`PathConstraint`]), written once over any [`Scalar`] so that the transcription
//! differentiates them exactly (forward-mode dual numbers, one pass per variable).

use crate::{Error, Scalar};

/// The objective `J = Phi(t_f, x(t_f)) + integral of L(t, x, u) dt` of a [`Problem`](super::Problem):
/// `running` is `L`, `terminal` is `Phi`. Both are generic over [`Scalar`]: the
/// transcription evaluates them in dual numbers for their exact gradients. The integral is
/// taken by the scheme's own quadrature (rectangle for backward Euler, trapezoid,
/// Simpson), so the cost converges at the scheme's order. `Sync`: the Hessian's points
/// may be evaluated on several threads.
///
/// ```
/// use nonholo_runtime::optimal::Cost;
/// use nonholo_runtime::Scalar;
///
/// /// Stay near the x axis, and end at rest.
/// struct Lane;
/// impl Cost for Lane {
///     fn running<S: Scalar>(&self, _t: S, state: &[S], _u: &[S]) -> S {
///         state[1] * state[1] // y^2
///     }
///     fn terminal<S: Scalar>(&self, _t: S, state: &[S]) -> S {
///         state[3] * state[3] * S::from_f64(10.0)
///     }
/// }
/// assert_eq!(Lane.running(0.0, &[0.0, 2.0, 0.0, 0.0], &[]), 4.0);
/// ```
pub trait Cost: Sync {
    /// The running cost `L(t, x, u)`.
    fn running<S: Scalar>(&self, t: S, state: &[S], u: &[S]) -> S {
        let _ = (state, u);
        t * S::from_f64(0.0)
    }
    /// The terminal cost `Phi(t_f, x(t_f))`.
    fn terminal<S: Scalar>(&self, t: S, state: &[S]) -> S {
        let _ = state;
        t * S::from_f64(0.0)
    }
}

/// No cost beyond the problem's built-in terms (the default of a [`Problem`](super::Problem)).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct NoCost;

impl Cost for NoCost {}

/// Constraints `lo <= g(t, x, u) <= hi` imposed at every point of a
/// [`Problem`](super::Problem), `g` generic over [`Scalar`] so that its Jacobian is exact
/// (`Sync`, as [`Cost`]).
///
/// ```
/// use nonholo_runtime::optimal::PathConstraint;
/// use nonholo_runtime::Scalar;
///
/// /// Keep out of a disk of radius 0.3 about (1, 0): (x - 1)^2 + y^2 >= 0.09.
/// struct Obstacle;
/// impl PathConstraint for Obstacle {
///     fn len(&self) -> usize {
///         1
///     }
///     fn values<S: Scalar>(&self, _t: S, state: &[S], _u: &[S], out: &mut [S]) {
///         let dx = state[0] - S::from_f64(1.0);
///         out[0] = dx * dx + state[1] * state[1];
///     }
/// }
/// let mut g = [0.0];
/// Obstacle.values(0.0, &[1.0, 0.5], &[], &mut g);
/// assert_eq!(g, [0.25]);
/// ```
pub trait PathConstraint: Sync {
    /// How many values `g` has.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// `g(t, x, u)` into `out` (length [`PathConstraint::len`]).
    fn values<S: Scalar>(&self, t: S, state: &[S], u: &[S], out: &mut [S]);
    /// Whether `g` can be evaluated at all, asked once before a solve at the first node of
    /// the initial guess: an error there is [`Problem::solve`](super::Problem::solve)'s
    /// (the model cannot give what `g` needs), where a failure inside the solve would
    /// only be a `NaN` the solver steps back from. Nothing to check by default.
    fn check(&self, t: f64, state: &[f64], u: &[f64]) -> Result<(), Error> {
        let _ = (t, state, u);
        Ok(())
    }
}

/// Two sets of path constraints, `a`'s rows then `b`'s: what
/// [`Problem::path`](super::Problem::path) makes of a second call.
///
/// ```
/// use nonholo_runtime::optimal::PathConstraint;
/// use nonholo_runtime::Scalar;
///
/// struct Speed;
/// impl PathConstraint for Speed {
///     fn len(&self) -> usize {
///         1
///     }
///     fn values<S: Scalar>(&self, _t: S, state: &[S], _u: &[S], out: &mut [S]) {
///         out[0] = state[1];
///     }
/// }
/// let both = (Speed, Speed);
/// let mut g = [0.0; 2];
/// both.values(0.0, &[1.0, 2.0], &[], &mut g);
/// assert_eq!((both.len(), g), (2, [2.0, 2.0]));
/// ```
impl<A: PathConstraint, B: PathConstraint> PathConstraint for (A, B) {
    fn len(&self) -> usize {
        self.0.len() + self.1.len()
    }
    fn values<S: Scalar>(&self, t: S, state: &[S], u: &[S], out: &mut [S]) {
        let (a, b) = out.split_at_mut(self.0.len());
        self.0.values(t, state, u, a);
        self.1.values(t, state, u, b);
    }
    fn check(&self, t: f64, state: &[f64], u: &[f64]) -> Result<(), Error> {
        self.0.check(t, state, u)?;
        self.1.check(t, state, u)
    }
}

/// No path constraints (the default of a [`Problem`](super::Problem)).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct NoPath;

impl PathConstraint for NoPath {
    fn len(&self) -> usize {
        0
    }
    fn values<S: Scalar>(&self, _t: S, _state: &[S], _u: &[S], _out: &mut [S]) {}
}
