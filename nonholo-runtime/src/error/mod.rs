//! Run-time errors: each carries the time and the state where it happened.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

mod simulation;
pub use simulation::SimulationError;

/// What went wrong while evaluating or integrating a model.
///
/// Every variant raised at a state carries the time `t` and the state, so that a failure
/// deep in a run can be reproduced; `Display` says it in one line.
///
/// ```
/// use nonholo_runtime::Error;
///
/// let e = Error::SingularMassMatrix { t: 1.5, state: vec![0.0, 1.0] };
/// assert_eq!(
///     e.to_string(),
///     "mass matrix G is not positive definite at t = 1.5 (state [0.0, 1.0])"
/// );
/// let e = Error::Dimension { what: "state", expected: 5, found: 4 };
/// assert_eq!(e.to_string(), "state has length 4, expected 5");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The speeds' mass matrix `G = psi_z^T A psi_z` is not positive definite
    /// (the kinetic energy is degenerate on the constraint, or the speed map is singular).
    #[error("mass matrix G is not positive definite at t = {t} (state {state:?})")]
    SingularMassMatrix {
        /// Time.
        t: f64,
        /// State at which G was singular.
        state: Vec<f64>,
    },
    /// A computed quantity was NaN or infinite.
    #[error("{what} is not finite at t = {t} (state {state:?})")]
    NonFinite {
        /// Which quantity.
        what: &'static str,
        /// Time.
        t: f64,
        /// State.
        state: Vec<f64>,
    },
    /// A state or velocity violates a constraint.
    #[error(
        "constraint {index} `{constraint}` violated by {residual:e} at t = {t} (state {state:?})"
    )]
    ConstraintViolated {
        /// Index of the constraint.
        index: usize,
        /// The constraint as written in the model.
        constraint: &'static str,
        /// Its residual.
        residual: f64,
        /// Time.
        t: f64,
        /// The offending `[q, dot(q)]` or state.
        state: Vec<f64>,
    },
    /// Newton's method did not bring the configuration constraints to zero.
    #[error("configuration constraints not solved at t = {t}: residual {residual:e} after {iterations} Newton steps (q = {state:?})")]
    ConfigurationNotSolved {
        /// Time.
        t: f64,
        /// The largest residual left.
        residual: f64,
        /// Newton steps taken.
        iterations: usize,
        /// The coordinates reached.
        state: Vec<f64>,
    },
    /// No speeds reproduce the given velocities.
    #[error("no speeds reproduce the velocities at t = {t}: {reason} (q, dot(q) = {state:?})")]
    NoSpeeds {
        /// Why.
        reason: &'static str,
        /// Time.
        t: f64,
        /// `[q, dot(q)]`.
        state: Vec<f64>,
    },
    /// A slice argument had the wrong length.
    #[error("{what} has length {found}, expected {expected}")]
    Dimension {
        /// Which argument.
        what: &'static str,
        /// Expected length.
        expected: usize,
        /// Actual length.
        found: usize,
    },
    /// The integrator's step size fell below what it can resolve.
    #[error("step size underflow at t = {t} (state {state:?})")]
    StepSize {
        /// Time.
        t: f64,
        /// State.
        state: Vec<f64>,
    },
    /// The integration engine reported a failure.
    #[error("integrator failed at t = {t}: {message} (state {state:?})")]
    Solver {
        /// Time.
        t: f64,
        /// The engine's message.
        message: String,
        /// State.
        state: Vec<f64>,
    },
    /// Options or arguments that cannot be honoured.
    #[error("invalid options: {0}")]
    InvalidOptions(String),
    /// A name that is not among the model's states or parameters.
    #[error("`{name}` is not one of the model's {what}: {known:?}")]
    UnknownName {
        /// What kind of name was expected ("states", "parameters").
        what: &'static str,
        /// The name given.
        name: String,
        /// The names that exist.
        known: Vec<&'static str>,
    },
    /// Linearization dropped a state that the kept ones depend on: the reduced matrix
    /// would be wrong. Keep it, or linearize where it does not couple.
    #[error("dropped state `{state}` couples into the kept states (|d f / d {state}| = {coupling:e}) at t = {t} (state {point:?})")]
    DroppedStateCouples {
        /// The dropped state.
        state: &'static str,
        /// Its largest entry in the kept (and dependent) rows of the Jacobian.
        coupling: f64,
        /// Time.
        t: f64,
        /// The operating point.
        point: Vec<f64>,
    },
    /// The configuration constraints' Jacobian in their dependent coordinates
    /// (`CONFIGURATION_COORDINATES`) is singular at the operating point, or a kept
    /// coordinate is one of them.
    #[error("configuration constraints cannot be solved for {coordinates:?} at t = {t} (state {point:?}): {why}")]
    DependentCoordinates {
        /// The dependent coordinates.
        coordinates: Vec<&'static str>,
        /// What is wrong.
        why: &'static str,
        /// Time.
        t: f64,
        /// The operating point.
        point: Vec<f64>,
    },
    /// An iterative eigenvalue computation did not converge within its iteration cap.
    #[error("eigenvalues of a {n}x{n} matrix did not converge in {iterations} iterations")]
    EigenvaluesNotConverged {
        /// Matrix size.
        n: usize,
        /// The cap.
        iterations: usize,
    },
    /// A Riccati equation of [`control`](crate::control) has no stabilizing solution (the
    /// pair is not stabilizable, or a mode on the imaginary axis or the unit circle is not
    /// weighted), or none that passes the checks; the message says which and why.
    #[error("{0}")]
    NoStabilizingSolution(String),
    /// The model does not provide this item (e.g. `rhs_param_jvp` of a hand-written
    /// model or of a `multipliers` model).
    #[error("{what} is not available for this model")]
    NotAvailable {
        /// The missing item.
        what: &'static str,
    },
    /// A rolling contact can no longer do what the model assumes: its normal force reached
    /// zero or the friction it needs reached `mu N` ([`Model::contact_guards`](crate::Model::contact_guards)),
    /// located to the integrator's root-finding tolerance. The run's trajectory up to
    /// there is kept ([`SimulationError::partial`]).
    #[error("the contact `{contact}` {event} at t = {t} (state {state:?})")]
    ContactLost {
        /// The contact, `"W on G"`.
        contact: &'static str,
        /// Lift-off or slip.
        event: crate::ContactEvent,
        /// Time.
        t: f64,
        /// The state there.
        state: Vec<f64>,
    },
    /// Neither rolling nor sliding is consistent at a sliding contact: the dynamics with
    /// Coulomb friction there has no solution (Painlevé's paradox: the friction's coupling of
    /// the normal force to the motion makes it attractive).
    #[error("contact `{contact}`: neither rolling nor sliding is consistent at t = {t} (Painlevé's paradox; state {state:?})")]
    Painleve {
        /// The contact, `"W on G"`.
        contact: &'static str,
        /// Time.
        t: f64,
        /// `[q, dot(q)]` there.
        state: Vec<f64>,
    },
    /// A contact whose geometry leaves it undefined: a disk or a torus lying flat (its
    /// axle along the ground's normal), where the contact point and the rolling
    /// directions are not determined and no motion of the contact can be solved for.
    #[error("contact `{contact}` is at a singular pose at t = {t}: {why} (state {state:?})")]
    SingularContact {
        /// The contact, `"W on G"`.
        contact: &'static str,
        /// What is singular.
        why: &'static str,
        /// Time.
        t: f64,
        /// `[q, dot(q)]` there.
        state: Vec<f64>,
    },
    /// A parameter value the model cannot have, found before a run starts
    /// ([`Model::check_parameters`](crate::Model::check_parameters)): a mass that is not
    /// positive, moments of inertia that no body has, a negative friction coefficient, a
    /// radius that is not positive.
    #[error("{what} is {values:?}: {requirement}")]
    Parameter {
        /// The quantity and where it is used, with the expression that gives it.
        what: &'static str,
        /// Its value (the principal moments for an inertia).
        values: Vec<f64>,
        /// What it must satisfy.
        requirement: &'static str,
    },
    /// Events ([`Options::event`](crate::Options::event)) piled up: more than
    /// [`Options::max_events`](crate::Options::max_events) in the run, or a run of them too
    /// close together for the time to tell apart (a Zeno sequence, like a ball bouncing
    /// ever lower). The run's trajectory up to the last event is kept
    /// ([`SimulationError::partial`]).
    #[error(
        "the event `{name}` fired {count} times up to t = {t}: events pile up (state {state:?})"
    )]
    EventsPiled {
        /// The event that would have fired once too often.
        name: &'static str,
        /// Events the run would have fired, this one included.
        count: usize,
        /// Time.
        t: f64,
        /// The state there, before the reset.
        state: Vec<f64>,
    },
    /// An optimal-control problem ([`optimal::Problem`](crate::optimal::Problem), feature
    /// `optimal`) the NLP solver did not solve: its status, the iterations it took, and
    /// where it stopped (the objective, the largest violation of the constraints and
    /// bounds). `model` is the first error the model reported on the way, if any.
    #[error("the optimal-control problem was not solved: {status} after {iterations} iterations (objective {objective:e}, constraint violation {violation:e}){}", model.as_ref().map(|m| alloc::format!("; the model reported: {m}")).unwrap_or_default())]
    NotSolved {
        /// The solver's status (`Infeasible`, `MaxIterations`, ...).
        status: String,
        /// Iterations taken.
        iterations: usize,
        /// The objective where it stopped.
        objective: f64,
        /// The largest violation of a constraint or bound there.
        violation: f64,
        /// The first error the model reported while the solver evaluated it.
        model: Option<Box<Error>>,
    },
    /// A time outside the span a trajectory covers (NaN bounds for an empty trajectory).
    #[error("t = {t} is outside the trajectory's time span [{start}, {end}]")]
    OutsideTimeSpan {
        /// The requested time.
        t: f64,
        /// First sample time.
        start: f64,
        /// Last sample time.
        end: f64,
    },
}
