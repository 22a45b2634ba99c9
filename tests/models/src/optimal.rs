//! The models of `optimal`: a driven mass and a driven oscillator (the closed-form optimal
//! controls) and a skate steered by a push and a torque (a nonholonomic plan); the skate's
//! parking, the oscillator's transfer, the bicycle's lane change, the robot's parking, its
//! line-following MPC and the manipulator's swing, as the tests and the bench state them.

use nonholo::models::{DiffDriveRobot, MobileManipulator, WhippleBicycle};
use nonholo::nonholonomic;
use nonholo::optimal::{Cost, Mpc, NoCost, NoPath, PathConstraint, Problem, Scheme, Solver};
use nonholo::prelude::*;

nonholonomic! {
    /// A mass on a line driven by a force: `m x'' = f`.
    pub struct DrivenMass;
    parameters { m = 1.0 }
    inputs { f }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
    forces { x: f }
}

nonholonomic! {
    /// A driven harmonic oscillator: `m x'' = -k x + f`.
    pub struct DrivenOscillator;
    parameters { m = 1.0, k = 4.0 }
    inputs { f }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
    potential_energy = 0.5 * k * x * x;
    forces { x: f }
}

nonholonomic! {
    /// A skate (a knife edge on ice) pushed along its blade and turned by a torque: it
    /// cannot move sideways, so reaching a point beside it takes manoeuvres.
    pub struct SteeredSkate;
    parameters { m = 1.0, j = 0.1 }
    inputs { push, turn }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * j * dot(theta).powi(2);
    forces { x: push * cos(theta), y: push * sin(theta), theta: turn }
    constraints { dot(y) * cos(theta) - dot(x) * sin(theta) == 0.0; }
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
}

nonholonomic! {
    /// A pendulum in Cartesian coordinates (its length a configuration constraint, `y`
    /// solved for) pushed along its path by a tangential force `f`.
    pub struct PushedCartesianPendulum;
    parameters { m = 1.0, l = 1.5, g = 9.81 }
    inputs { f }
    coordinates { x, y }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2));
    potential_energy = m * g * y;
    forces { x: -f * y / l, y: f * x / l }
    holonomic(y) { x * x + y * y == l * l; }
    dependent { y }
}

/// The skate under a wiggle from rest for 4 s (`push = 0.5 cos(1.5 t)`, `turn = 0.5
/// sin(0.8 t)`): the guess of its parking. At rest with heading 0 (the straight-line
/// guess) no input moves the skate sideways to first order, and the solver stalls there.
pub fn skate_guess(skate: &SteeredSkate) -> Trajectory {
    let mut wiggle = |t: f64, _x: &[f64], u: &mut [f64]| {
        u[0] = 0.5 * (1.5 * t).cos();
        u[1] = 0.5 * (0.8 * t).sin();
    };
    simulate_controlled(skate, &mut wiggle, &[0.0; 5], 0.0..4.0, &Options::default()).unwrap()
}

/// The skate parked 0.5 m beside itself in 4 s, from rest to rest heading along x, least
/// integral of `push^2 + turn^2`, `|push| <= 2`, `|turn| <= 1`, Hermite–Simpson on `nodes`
/// nodes (`bench/python/optimal_casadi.py` states it too, with 41).
pub fn skate_park<'m>(
    skate: &'m SteeredSkate,
    guess: &Trajectory,
    nodes: usize,
) -> Problem<'m, SteeredSkate> {
    Problem::new(skate, nodes)
        .scheme(Scheme::HermiteSimpson)
        .duration(4.0)
        .initial_state(&[0.0; 5])
        .final_coordinates(&[("x", 0.0), ("y", 0.5), ("theta", 0.0)])
        .final_speeds(&[0.0, 0.0])
        .input_bounds("push", -2.0, 2.0)
        .input_bounds("turn", -1.0, 1.0)
        .minimize_input_effort(&[1.0, 1.0])
        .guess(guess)
}

/// The driven oscillator moved from rest at 0 to rest at 1 in 3 s, least integral of the
/// force squared, Hermite–Simpson on 81 nodes (`bench/python/optimal_casadi.py` states it
/// too).
pub fn oscillator_transfer(osc: &DrivenOscillator) -> Problem<'_, DrivenOscillator> {
    Problem::new(osc, 81)
        .scheme(Scheme::HermiteSimpson)
        .duration(3.0)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .minimize_input_effort(&[1.0])
}

/// Follow the line `y = 0` at 0.3 m/s: the axle's distance to the moving reference point,
/// the heading, and the torques.
pub struct FollowLine;

impl Cost for FollowLine {
    fn running<S: Scalar>(&self, t: S, x: &[S], u: &[S]) -> S {
        let ex = x[0] - t * S::from_f64(0.3);
        (ex * ex + x[1] * x[1]) * S::from_f64(20.0)
            + x[2] * x[2]
            + (u[0] * u[0] + u[1] * u[1]) * S::from_f64(0.1)
    }
    fn terminal<S: Scalar>(&self, t: S, x: &[S]) -> S {
        let ex = x[0] - t * S::from_f64(0.3);
        (ex * ex + x[1] * x[1]) * S::from_f64(50.0)
    }
}

/// The horizon of the robot's line MPC: 1 s, 20 trapezoidal nodes, |torques| <= 1, the
/// cost [`FollowLine`]; the wheels' rolling angles left to quadrature
/// (`cyclic_by_quadrature`), the cold solve's multipliers started from zero (from the
/// least-squares estimate it ends in another local optimum, the robot backing off first).
pub fn robot_line_horizon(robot: &DiffDriveRobot) -> Problem<'_, DiffDriveRobot, FollowLine> {
    Problem::new(robot, 20)
        .duration(1.0)
        .input_bounds("t_l", -1.0, 1.0)
        .input_bounds("t_r", -1.0, 1.0)
        .cost(FollowLine)
        .cyclic_by_quadrature(true)
        .solver_options(|o| o.least_squares_mult_init = false)
}

/// The robot pulled onto the line `y = 0` from 0.2 m off by MPC at 50 Hz for 2 s over
/// `horizon` ([`robot_line_horizon`]), after `Mpc::prepare`'s cold solve: the controller
/// (its solve times) and the closed-loop run.
pub fn robot_line_mpc_over<'m>(
    robot: &'m DiffDriveRobot,
    horizon: Problem<'m, DiffDriveRobot, FollowLine>,
) -> (Mpc<'m, DiffDriveRobot, FollowLine>, Trajectory) {
    let mut mpc = Mpc::new(horizon);
    let mut x0 = [0.0; DiffDriveRobot::DIM];
    x0[1] = 0.2;
    mpc.prepare(0.0, &x0).unwrap();
    let options = Options::default().control_period(0.02);
    let run = simulate_controlled(robot, &mut mpc, &x0, 0.0..2.0, &options).unwrap();
    (mpc, run)
}

/// [`robot_line_mpc_over`] the [`robot_line_horizon`] solved by `solver`.
pub fn robot_line_mpc(
    robot: &DiffDriveRobot,
    solver: Solver,
) -> (Mpc<'_, DiffDriveRobot, FollowLine>, Trajectory) {
    robot_line_mpc_over(robot, robot_line_horizon(robot).solver(solver))
}

/// The lane change of `examples/bicycle_lane_change.rs`: upright at 5 m/s, 1 m to the
/// right in 3 s, upright and straight again, least integral of the steer torque squared,
/// |steer torque| <= 20 N m, the rider steering only; the guess coasting straight on.
pub fn lane_change(bike: &WhippleBicycle, nodes: usize) -> Problem<'_, WhippleBicycle> {
    let mut x0 = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut x0[..8]).unwrap();
    x0[9] = -5.0 / bike.r_r;
    let coast = Options::default().rtol(1e-10).atol(1e-10);
    let guess = simulate(bike, &x0, 0.0..3.0, &coast).unwrap();
    let [roll_rate, _, steer_rate] = WhippleBicycle::SPEEDS else {
        unreachable!("the Whipple bicycle has three speeds")
    };
    Problem::new(bike, nodes)
        .scheme(Scheme::HermiteSimpson)
        .duration(3.0)
        .initial_state(&x0)
        .final_coordinates(&[
            ("y", 1.0),
            ("yaw", 0.0),
            ("roll", 0.0),
            ("steer", 0.0),
            (roll_rate, 0.0),
            (steer_rate, 0.0),
        ])
        .input_bounds("t_roll", 0.0, 0.0)
        .input_bounds("t_rear", 0.0, 0.0)
        .input_bounds("t_steer", -20.0, 20.0)
        .minimize_input_effort(&[0.0, 1.0, 0.0])
        .guess(&guess)
}

/// The robot's dash of `examples/robot_dash.rs`: from rest, 0.5 m straight ahead in 1 s
/// and at rest again, least integral of the torques squared, Hermite–Simpson on `nodes`
/// nodes (no friction margin: add `friction_margin_at_least`).
pub fn dash(robot: &DiffDriveRobot, nodes: usize) -> Problem<'_, DiffDriveRobot> {
    Problem::new(robot, nodes)
        .scheme(Scheme::HermiteSimpson)
        .duration(1.0)
        .initial_state(&[0.0; DiffDriveRobot::DIM])
        .final_coordinates(&[("x", 0.5), ("y", 0.0), ("th", 0.0)])
        .final_speeds(&[0.0, 0.0])
        .minimize_input_effort(&[1.0, 1.0])
}

/// The parked robots of `examples/robot_parking.rs`: the squared distances of the axle's
/// midpoint to their centres `(+-0.75, 0.6)`.
pub struct ParkedRobots;

impl PathConstraint for ParkedRobots {
    fn len(&self) -> usize {
        2
    }
    fn values<S: Scalar>(&self, _t: S, state: &[S], _u: &[S], out: &mut [S]) {
        for (o, cx) in out.iter_mut().zip([-0.75, 0.75]) {
            let dx = state[0] - S::from_f64(cx);
            let dy = state[1] - S::from_f64(0.6);
            *o = dx * dx + dy * dy;
        }
    }
}

/// The parallel parking of `examples/robot_parking.rs` (61 nodes, the adaptive barrier).
pub fn parking(
    robot: &DiffDriveRobot,
) -> Problem<'_, DiffDriveRobot, NoCost, (NoPath, ParkedRobots)> {
    let t_f = 8.0;
    let mut wiggle = |t: f64, _x: &[f64], u: &mut [f64]| {
        let turn = 0.15 * (core::f64::consts::PI * t / t_f * 2.0).sin();
        u[0] = 0.05 * (core::f64::consts::PI * t / t_f).cos() - turn;
        u[1] = 0.05 * (core::f64::consts::PI * t / t_f).cos() + turn;
    };
    let x0 = [0.0; DiffDriveRobot::DIM];
    let guess =
        simulate_controlled(robot, &mut wiggle, &x0, 0.0..t_f, &Options::default()).unwrap();
    Problem::new(robot, 61)
        .scheme(Scheme::HermiteSimpson)
        .duration(t_f)
        .initial_state(&x0)
        .final_coordinates(&[("x", 0.0), ("y", 0.6), ("th", 0.0)])
        .final_speeds(&[0.0, 0.0])
        .state_bounds("y", -0.5, 0.7)
        .input_bounds("t_l", -0.5, 0.5)
        .input_bounds("t_r", -0.5, 0.5)
        .minimize_input_effort(&[1.0, 1.0])
        .path(ParkedRobots, &[0.45 * 0.45; 2], &[f64::INFINITY; 2])
        .path_at_midpoints(false)
        .guess(&guess)
        .solver_options(|o| {
            o.mu_strategy_adaptive = true;
            o.mu_oracle_quality_function = false;
        })
}

/// The mobile manipulator's arm pose (q2..q6) during its swing.
pub const SWING_POSE: [f64; 5] = [-0.5, 0.5, 0.0, 0.0, 0.0];

/// The manipulator of the swing: a 30 kg cart, caster offset 0.15 m, on a floor with `mu
/// = 0.1`.
pub fn swing_robot() -> MobileManipulator {
    MobileManipulator::default()
        .with_m_c(30.0)
        .with_c(0.15)
        .with_mu(0.1)
}

/// The swing's initial state: at rest, the arm at -0.8 rad about the vertical.
pub fn swing_start() -> [f64; MobileManipulator::DIM] {
    let mut x0 = [0.0; MobileManipulator::DIM];
    x0[7] = -0.8;
    x0[8..13].copy_from_slice(&SWING_POSE);
    x0
}

/// The arm swung about the vertical from -0.8 to 0.8 rad in 1 s and brought to rest, the
/// cart back where it was (`examples/manipulator_swing.rs`, 41 trapezoidal nodes), least
/// effort; the plan without friction limits (`.friction_margin_at_least(0.05)` adds them).
pub fn swing(robot: &MobileManipulator) -> Problem<'_, MobileManipulator> {
    let mut last = vec![("q1", 0.8)];
    last.extend(["q2", "q3", "q4", "q5", "q6"].into_iter().zip(SWING_POSE));
    last.extend([("x", 0.0), ("y", 0.0), ("th", 0.0)]);
    let mut p = Problem::new(robot, 41)
        .scheme(Scheme::Trapezoidal)
        .duration(1.0)
        .initial_state(&swing_start())
        .final_coordinates(&last)
        .final_speeds(&[0.0; MobileManipulator::NZ])
        .minimize_input_effort(&[1.0, 1.0, 1.0, 1.0, 1.0, 100.0, 100.0, 100.0])
        .state_bounds("x", -0.05, 0.05)
        .state_bounds("y", -0.05, 0.05)
        .state_bounds("th", -0.2, 0.2);
    for (name, c) in ["q2", "q3", "q4", "q5", "q6"].into_iter().zip(SWING_POSE) {
        p = p.state_bounds(name, c - 0.2, c + 0.2);
    }
    for (j, name) in [
        "dot(q1)", "dot(q2)", "dot(q3)", "dot(q4)", "dot(q5)", "dot(q6)",
    ]
    .into_iter()
    .enumerate()
    {
        p = p.state_bounds(name, -6.0 / (1 + j / 3) as f64, 6.0 / (1 + j / 3) as f64);
    }
    p
}
