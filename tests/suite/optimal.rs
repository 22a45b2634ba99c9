//! Optimal motions (`nonholo::optimal`): the closed-form optimal controls of a driven mass
//! and a driven oscillator under each scheme, each converging at its order; the optimal
//! inputs replayed on the continuous model; a skate's sideways parking; the Whipple
//! bicycle's lane change; bad problems as errors.

use nonholo::models::WhippleBicycle;
use nonholo::optimal::{Problem, Scheme};
use nonholo::prelude::*;
use nonholo_test_models::optimal::{
    dash, lane_change, skate_guess, skate_park, DrivenMass, DrivenOscillator, SteeredSkate,
};

/// The rest-to-rest transfer of `x'' + w^2 x = u` from 0 to `big_x` in time `t_f` with
/// the least integral of `u^2`: `u = a sin(wt) + b cos(wt)` (the costate of the speed
/// solves the same oscillator), with the motion of each term from rest
/// (`(sin wt - wt cos wt) / (2 w^2)` and `t sin(wt) / (2 w)`). Returns `(a, b, cost)` and
/// the state at `t` as a closure.
fn oscillator_optimum(w: f64, t_f: f64, big_x: f64) -> (f64, f64, f64) {
    let (s, c) = (w * t_f).sin_cos();
    // x(T) and v(T) of each term
    let (xs, xc) = ((s - w * t_f * c) / (2.0 * w * w), t_f * s / (2.0 * w));
    let (vs, vc) = (t_f * s / 2.0, s / (2.0 * w) + t_f * c / 2.0);
    let det = xs * vc - xc * vs;
    let a = big_x * vc / det;
    let b = -big_x * vs / det;
    let s2 = (2.0 * w * t_f).sin();
    let cost = a * a * (t_f / 2.0 - s2 / (4.0 * w))
        + b * b * (t_f / 2.0 + s2 / (4.0 * w))
        + 2.0 * a * b * s * s / (2.0 * w);
    (a, b, cost)
}

fn oscillator_state(w: f64, a: f64, b: f64, t: f64) -> [f64; 2] {
    let (s, c) = (w * t).sin_cos();
    let x = a * (s - w * t * c) / (2.0 * w * w) + b * t * s / (2.0 * w);
    let v = a * t * s / 2.0 + b * (s / (2.0 * w) + t * c / 2.0);
    [x, v]
}

#[test]
fn hermite_simpson_moves_a_mass_rest_to_rest_exactly() {
    // x = 3t^2 - 2t^3, f = 6 - 12t, cost 12: a cubic and a line, which Hermite-Simpson
    // represents exactly
    let sol = Problem::new(&DrivenMass::default(), 11)
        .scheme(Scheme::HermiteSimpson)
        .duration(1.0)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .minimize_input_effort(&[1.0])
        .solve()
        .unwrap();
    assert!((sol.objective() - 12.0).abs() < 1e-9, "{}", sol.objective());
    for (k, &t) in sol.times().iter().enumerate() {
        let x = sol.state(k).unwrap();
        assert!((x[0] - (3.0 * t * t - 2.0 * t.powi(3))).abs() < 1e-9);
        assert!((x[1] - (6.0 * t - 6.0 * t * t)).abs() < 1e-9);
        assert!((sol.input(k).unwrap()[0] - (6.0 - 12.0 * t)).abs() < 1e-9);
    }
    assert!(sol.violation() < 1e-10);
    assert_eq!(sol.trajectory().len(), 11);
    // a quadratic program: one Newton step with the exact Hessian
    assert!(
        sol.exact_hessian() && sol.iterations() <= 2,
        "{}",
        sol.iterations()
    );
}

/// The largest error of the nodes' states against the closed form.
fn oscillator_error(scheme: Scheme, nodes: usize) -> (f64, f64) {
    let (w, t_f) = (2.0, 3.0);
    let (a, b, cost) = oscillator_optimum(w, t_f, 1.0);
    let sol = Problem::new(&DrivenOscillator::default(), nodes)
        .scheme(scheme)
        .duration(t_f)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .minimize_input_effort(&[1.0])
        .solve()
        .unwrap();
    let mut err: f64 = 0.0;
    for (k, &t) in sol.times().iter().enumerate() {
        let exact = oscillator_state(w, a, b, t);
        let x = sol.state(k).unwrap();
        err = err
            .max((x[0] - exact[0]).abs())
            .max((x[1] - exact[1]).abs());
    }
    (err, (sol.objective() - cost).abs() / cost)
}

#[test]
fn each_scheme_converges_at_its_order_on_the_driven_oscillator() {
    for scheme in [
        Scheme::BackwardEuler,
        Scheme::Trapezoidal,
        Scheme::HermiteSimpson,
    ] {
        let errors: Vec<(f64, f64)> = [21, 41, 81]
            .iter()
            .map(|&n| oscillator_error(scheme, n))
            .collect();
        let p = scheme.order() as f64;
        for w in errors.windows(2) {
            let observed = (w[0].0 / w[1].0).log2();
            assert!(
                observed > p - 0.25 && observed < p + 0.6,
                "{scheme:?}: errors {errors:?}, order {observed}"
            );
        }
        // the cost converges at the scheme's order too
        for w in errors.windows(2) {
            let observed = (w[0].1 / w[1].1).log2();
            assert!(
                observed > p - 0.25,
                "{scheme:?}: cost errors {errors:?}, order {observed}"
            );
        }
        eprintln!("{scheme:?}: {errors:?}");
    }
}

#[test]
fn replayed_optimal_inputs_reach_the_target_within_the_discretization_error() {
    let miss = |nodes: usize| {
        let sol = Problem::new(&DrivenOscillator::default(), nodes)
            .scheme(Scheme::HermiteSimpson)
            .duration(3.0)
            .initial_state(&[0.0, 0.0])
            .final_state(&[1.0, 0.0])
            .minimize_input_effort(&[1.0])
            .solve()
            .unwrap();
        let mut inputs = sol.input_series().unwrap();
        let options = Options::default()
            .method(Method::Dop853)
            .rtol(1e-11)
            .atol(1e-11);
        let run = simulate_controlled(
            &DrivenOscillator::default(),
            &mut inputs,
            &[0.0, 0.0],
            0.0..3.0,
            &options,
        )
        .unwrap();
        let (_, end) = run.last().unwrap();
        (end[0] - 1.0).abs().max(end[1].abs())
    };
    let (coarse, fine) = (miss(11), miss(41));
    assert!(fine < 1e-5, "{fine}");
    assert!(coarse / fine > 30.0, "{coarse} {fine}");
}

/// The objective and the nodes' states CasADi + IPOPT found for `problem` in `json`
/// (`bench/python/optimal_results.json` and the like).
fn casadi_reference(json: &str, problem: &str) -> (f64, Vec<Vec<f64>>) {
    let at = json.find(&format!("\"{problem}\"")).unwrap();
    let rest = &json[at..];
    let number_after = |key: &str| -> (f64, usize) {
        let i = rest.find(key).unwrap() + key.len();
        let s = rest[i..].trim_start_matches([':', ' ']);
        let end = s.find([',', '\n', '}']).unwrap();
        (s[..end].trim().parse().unwrap(), i)
    };
    let (objective, _) = number_after("\"objective\"");
    let i = rest.find("\"states\"").unwrap();
    let open = i + rest[i..].find('[').unwrap();
    // the matching bracket of the list of lists
    let mut depth = 0;
    let mut close = open;
    for (j, c) in rest[open..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    close = open + j;
                    break;
                }
            }
            _ => {}
        }
    }
    let states = rest[open + 1..close]
        .split(']')
        .filter_map(|row| {
            let row = row.trim_start_matches([',', ' ', '\n', '[']).trim();
            (!row.is_empty()).then(|| row.split(',').map(|v| v.trim().parse().unwrap()).collect())
        })
        .collect();
    (objective, states)
}

#[test]
fn a_skate_parks_beside_itself() {
    // A knife edge cannot move sideways: reaching (0, 0.5) heading along x takes a
    // manoeuvre. The plan's inputs, replayed on the model, end near the target. The
    // guess is a simulated wiggle (`skate_guess`).
    let skate = SteeredSkate::default();
    let guess = skate_guess(&skate);
    let sol = skate_park(&skate, &guess, 41).solve().unwrap();
    assert!(sol.violation() < 1e-8);
    // CasADi + IPOPT on the same transcription, nodes, bounds and guess
    // (bench/python/optimal_casadi.py): the same optimum
    let (objective, states) = casadi_reference(
        include_str!("../../bench/python/optimal_results.json"),
        "skate_park",
    );
    assert!(
        (sol.objective() - objective).abs() < 1e-6 * objective,
        "{} {objective}",
        sol.objective()
    );
    for (k, x) in states.iter().enumerate() {
        for (a, b) in sol.state(k).unwrap().iter().zip(x) {
            assert!((a - b).abs() < 1e-5 * (1.0 + b.abs()), "node {k}: {a} {b}");
        }
    }
    let end = sol.state(40).unwrap();
    assert!((end[1] - 0.5).abs() < 1e-9 && end[0].abs() < 1e-9);
    // it turned on the way
    let headings = sol.trajectory().column("theta").unwrap();
    assert!(headings.iter().any(|h| h.abs() > 0.2));
    for k in 0..41 {
        let u = sol.input(k).unwrap();
        assert!(u[0].abs() <= 2.0 + 1e-8 && u[1].abs() <= 1.0 + 1e-8);
    }
    let mut inputs = sol.input_series().unwrap();
    let options = Options::default().rtol(1e-10).atol(1e-10);
    let run = simulate_controlled(&skate, &mut inputs, &[0.0; 5], 0.0..4.0, &options).unwrap();
    let (_, reached) = run.last().unwrap();
    let miss =
        (reached[0] - end[0]).abs() + (reached[1] - end[1]).abs() + (reached[2] - end[2]).abs();
    assert!(miss < 1e-3, "{miss}: {reached:?}");
}

#[test]
fn bad_problems_are_errors_before_any_solve() {
    let mass = DrivenMass::default();
    let base = || Problem::new(&mass, 11).initial_state(&[0.0, 0.0]);
    assert!(matches!(
        base().final_coordinates(&[("z", 1.0)]).solve(),
        Err(Error::UnknownName { what: "states", .. })
    ));
    assert!(matches!(
        base().input_bounds("g", -1.0, 1.0).solve(),
        Err(Error::UnknownName { what: "inputs", .. })
    ));
    assert!(matches!(
        base().final_state(&[1.0]).solve(),
        Err(Error::Dimension {
            what: "final state",
            expected: 2,
            found: 1
        })
    ));
    assert!(matches!(
        base().minimize_input_effort(&[1.0, 2.0]).solve(),
        Err(Error::Dimension { .. })
    ));
    assert!(matches!(
        base().input_bounds("f", 1.0, -1.0).solve(),
        Err(Error::InvalidOptions(_))
    ));
    assert!(matches!(
        base().duration(-1.0).solve(),
        Err(Error::InvalidOptions(_))
    ));
    assert!(matches!(
        Problem::new(&DrivenMass::default(), 1).solve(),
        Err(Error::InvalidOptions(_))
    ));
    // a condition outside its bounds
    let e = base()
        .state_bounds("x", -1.0, 0.5)
        .final_coordinates(&[("x", 1.0)])
        .solve();
    assert!(
        matches!(e, Err(Error::InvalidOptions(ref m)) if m.contains("`x`")),
        "{e:?}"
    );
}

#[test]
fn an_unreachable_target_is_a_solver_error_with_its_status() {
    // |f| <= 0.1 cannot carry the mass 1 m in 1 s (at most 0.025 m)
    let e = Problem::new(&DrivenMass::default(), 11)
        .max_iterations(200)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .input_bounds("f", -0.1, 0.1)
        .minimize_input_effort(&[1.0])
        .solve()
        .unwrap_err();
    match e {
        Error::NotSolved {
            status, violation, ..
        } => {
            assert!(
                violation > 0.01 && !status.is_empty(),
                "{status} {violation}"
            );
        }
        other => panic!("{other}"),
    }
}

/// Regulate to the origin: the states' and the input's squares, and a terminal cost
/// (without it a short horizon may find holding still near the origin cheaper than
/// reaching it, the classic loss of MPC's stability).
struct Regulate;
impl nonholo::optimal::Cost for Regulate {
    fn running<S: Scalar>(&self, _t: S, x: &[S], u: &[S]) -> S {
        (x[0] * x[0] + x[1] * x[1]) * S::from_f64(10.0) + u[0] * u[0] * S::from_f64(0.1)
    }
    fn terminal<S: Scalar>(&self, _t: S, x: &[S]) -> S {
        (x[0] * x[0] + x[1] * x[1]) * S::from_f64(100.0)
    }
}

#[test]
fn model_predictive_control_brings_an_oscillator_to_rest_at_20_hz() {
    use nonholo::optimal::Mpc;
    let osc = DrivenOscillator::default();
    let problem = Problem::new(&osc, 11)
        .duration(1.0)
        .input_bounds("f", -3.0, 3.0)
        .cost(Regulate);
    let mut mpc = Mpc::new(problem);
    let options = Options::default().control_period(0.05);
    let run = simulate_controlled(&osc, &mut mpc, &[1.0, 2.0], 0.0..6.0, &options).unwrap();
    let (_, end) = run.last().unwrap();
    assert!(end[0].abs() < 1e-3 && end[1].abs() < 1e-3, "{end:?}");
    // one solve per sample, each within the input's bounds
    assert_eq!(mpc.solve_seconds().len(), 121);
    let forces = run.column("f").unwrap();
    assert!(forces.iter().all(|f| f.abs() <= 3.0 + 1e-9));
    assert!(
        forces.iter().any(|f| f.abs() > 2.9),
        "the bound is reached at the start"
    );
    let (worst, median) = mpc.worst_and_median_seconds().unwrap();
    assert!(worst >= median && median > 0.0);
    // warm-started solves after the first take few iterations: once at rest, where the
    // last plan, its multipliers and its barrier parameter are all but the next one's,
    // two (five with the plan alone as the guess)
    let its = mpc.iterations();
    assert!(its[1..].iter().all(|&n| n <= its[0] + 5), "{its:?}");
    assert!(its[40..].iter().all(|&n| n <= 2), "{its:?}");
}

#[test]
fn the_fastest_transfer_of_a_mass_is_bang_bang_in_two_seconds() {
    // |f| <= 1 from rest at 0 to rest at 1: full thrust for 1 s, full brake for 1 s
    let mass = DrivenMass::default();
    let p = Problem::new(&mass, 41)
        .duration(3.0)
        .free_duration(0.5, 5.0)
        .minimize_time()
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .input_bounds("f", -1.0, 1.0);
    assert!(p.derivative_check().unwrap() < 1e-6);
    let sol = p.solve().unwrap();
    // the switch falls between nodes: T is 2 to the grid's resolution
    assert!((sol.duration() - 2.0).abs() < 5e-3, "{}", sol.duration());
    assert!((sol.objective() - sol.duration()).abs() < 1e-12);
    assert!(sol.exact_hessian());
    // full thrust, then full brake
    let f = sol.inputs();
    assert!(f[..15].iter().all(|f| (f - 1.0).abs() < 1e-5), "{f:?}");
    assert!(f[26..].iter().all(|f| (f + 1.0).abs() < 1e-5), "{f:?}");
    // minimize_time without a free duration is a mistake
    let e = Problem::new(&mass, 11).minimize_time().solve();
    assert!(matches!(e, Err(Error::InvalidOptions(_))));
}

#[test]
fn a_free_duration_with_a_cost_finds_the_best_time() {
    // the driven oscillator's rest-to-rest transfer with cost integral of (f^2 + 1):
    // effort falls as the time grows, the time term rises; derivatives exact
    struct EffortAndTime;
    impl nonholo::optimal::Cost for EffortAndTime {
        fn running<S: Scalar>(&self, _t: S, _x: &[S], u: &[S]) -> S {
            u[0] * u[0] + S::from_f64(1.0)
        }
    }
    let osc = DrivenOscillator::default();
    let p = Problem::new(&osc, 31)
        .scheme(Scheme::HermiteSimpson)
        .duration(2.0)
        .free_duration(0.5, 6.0)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .cost(EffortAndTime);
    assert!(p.derivative_check().unwrap() < 1e-6);
    let sol = p.solve().unwrap();
    // stationary in T: the closed-form cost J(T) = cost(T) + T has zero slope there
    let j = |t: f64| oscillator_optimum(2.0, t, 1.0).2 + t;
    let t = sol.duration();
    let slope = (j(t + 1e-4) - j(t - 1e-4)) / 2e-4;
    assert!(slope.abs() < 1e-3, "T = {t}, dJ/dT = {slope}");
    assert!((sol.objective() - j(t)).abs() < 1e-5 * j(t));
}

#[test]
fn configuration_constraints_hold_at_every_node_with_the_exact_hessian() {
    use nonholo::optimal::Hessian;
    use nonholo_test_models::optimal::PushedCartesianPendulum;
    // swing from hanging at rest to 37 degrees at rest in 2 s, least integral of f^2
    let p = PushedCartesianPendulum::default();
    let problem = |h: Hessian| {
        Problem::new(&p, 21)
            .scheme(Scheme::HermiteSimpson)
            .duration(2.0)
            .initial_state(&[0.0, -1.5, 0.0])
            .final_state(&[0.9, -1.2, 0.0])
            .minimize_input_effort(&[1.0])
            .hessian(h)
    };
    assert!(problem(Hessian::Exact).derivative_check().unwrap() < 1e-6);
    let exact = problem(Hessian::Exact).solve().unwrap();
    let lbfgs = problem(Hessian::LimitedMemory).solve().unwrap();
    assert!(exact.exact_hessian() && !lbfgs.exact_hessian());
    assert!((exact.objective() - lbfgs.objective()).abs() < 1e-6 * exact.objective());
    assert!(
        exact.iterations() < lbfgs.iterations(),
        "{} {}",
        exact.iterations(),
        lbfgs.iterations()
    );
    let mut r = [0.0];
    for k in 0..21 {
        p.configuration_residual(0.0, &exact.state(k).unwrap()[..2], &mut r)
            .unwrap();
        assert!(r[0].abs() < 1e-9, "node {k}: {}", r[0]);
    }
    // and with a free final time (the constraint's time derivative enters the Jacobian)
    let free = problem(Hessian::Exact)
        .free_duration(1.0, 4.0)
        .cost(EffortAndTimeCost);
    assert!(free.derivative_check().unwrap() < 1e-6);
    let sol = free.solve().unwrap();
    assert!(sol.duration() > 1.0 && sol.duration() < 4.0 && sol.exact_hessian());
    // a final configuration off the circle is a mistake, named before the solve
    let off = problem(Hessian::Exact)
        .final_state(&[0.9, -1.0, 0.0])
        .solve();
    assert!(
        matches!(off, Err(Error::InvalidOptions(ref m)) if m.contains("off the configuration")),
        "{off:?}"
    );
}

/// The integral of `f^2 + 1`: effort against time.
struct EffortAndTimeCost;
impl nonholo::optimal::Cost for EffortAndTimeCost {
    fn running<S: Scalar>(&self, _t: S, _x: &[S], u: &[S]) -> S {
        u[0] * u[0] + S::from_f64(1.0)
    }
}

/// The skate's speed along its blade squared, `v^2`: a speed limit as a path constraint.
struct BladeSpeed;
impl nonholo::optimal::PathConstraint for BladeSpeed {
    fn len(&self) -> usize {
        1
    }
    fn values<S: Scalar>(&self, _t: S, x: &[S], _u: &[S], out: &mut [S]) {
        out[0] = x[3] * x[3];
    }
}

#[test]
fn a_speed_limit_holds_at_every_node() {
    // the skate's parking of `a_skate_parks_beside_itself` on 31 nodes without the input
    // bounds, then again with its speed held to 0.7 of the fastest the free plan went
    let skate = SteeredSkate::default();
    let guess = skate_guess(&skate);
    let park = || {
        Problem::new(&skate, 31)
            .guess(&guess)
            .scheme(Scheme::HermiteSimpson)
            .duration(4.0)
            .initial_state(&[0.0; 5])
            .final_coordinates(&[("x", 0.0), ("y", 0.5), ("theta", 0.0)])
            .final_speeds(&[0.0, 0.0])
            .minimize_input_effort(&[1.0, 1.0])
    };
    let free = park().solve().unwrap();
    let fastest = |sol: &nonholo::optimal::Solution| {
        (0..31)
            .map(|k| sol.state(k).unwrap()[3].abs())
            .fold(0.0, f64::max)
    };
    let limit = 0.7 * fastest(&free);
    // at the nodes only: a pure state constraint riding its limit at the midpoints as
    // well stalls ripopt's complementarity (3000 iterations at 5e-5; the adaptive
    // barrier: a numerical error)
    let limited = park()
        .path(BladeSpeed, &[0.0], &[limit * limit])
        .path_at_midpoints(false);
    assert!(limited.derivative_check().unwrap() < 1e-6);
    let sol = limited.solve().unwrap();
    assert!(sol.violation() < 1e-8);
    // the limit holds at every node and is reached: the plan is slower and costs more
    // (v^2 <= limit^2 to the solver's tolerance, 1e-8)
    let v = fastest(&sol);
    assert!(v * v <= limit * limit + 1e-8, "{v} {limit}");
    assert!(fastest(&sol) > limit * (1.0 - 1e-6));
    assert!(sol.objective() > free.objective() * (1.0 + 1e-3));
}

#[test]
fn a_bicycle_changes_lane_with_least_steer_torque() {
    let bike = WhippleBicycle::default();
    // every derivative the solver gets, the exact Hessian's included, against central
    // differences (on a short grid: the check differentiates every column)
    assert!(lane_change(&bike, 7).derivative_check().unwrap() < 1e-6);
    let coarse = lane_change(&bike, 21).solve().unwrap();
    let fine = lane_change(&bike, 41).solve().unwrap();
    // CasADi + IPOPT on the same transcription with its own derivation of the bicycle
    // (bench/python/optimal_casadi_bicycle.py): the same optimum
    let (objective, states) = casadi_reference(
        include_str!("../../bench/python/optimal_bicycle_results.json"),
        "lane_change",
    );
    assert!((fine.objective() - objective).abs() < 1e-9 * objective);
    for (k, x) in states.iter().enumerate() {
        for (a, b) in fine.state(k).unwrap().iter().zip(x) {
            assert!((a - b).abs() < 1e-8 * (1.0 + b.abs()), "node {k}: {a} {b}");
        }
    }
    let mut misses = Vec::new();
    for (plan, nodes) in [(&coarse, 21), (&fine, 41)] {
        assert!(plan.exact_hessian() && plan.violation() < 1e-9);
        let mut r = [0.0];
        for k in 0..nodes {
            let x = plan.state(k).unwrap();
            // the front wheel on the ground at every node (pitch solved), the torque in bounds
            bike.configuration_residual(0.0, &x[..8], &mut r).unwrap();
            assert!(r[0].abs() < 1e-9, "node {k}: {}", r[0]);
            let u = plan.input(k).unwrap();
            assert!(u[0] == 0.0 && u[2] == 0.0 && u[1].abs() <= 20.0 + 1e-9);
        }
        let end = plan.state(nodes - 1).unwrap();
        assert!((end[1] - 1.0).abs() < 1e-9 && end[2].abs() < 1e-9 && end[3].abs() < 1e-9);
        // the planned torque on the continuous model lands where the plan ends
        let mut torque = plan.input_series().unwrap();
        let x0 = plan.state(0).unwrap();
        let tight = Options::default().rtol(1e-11).atol(1e-11);
        let replay = simulate_controlled(&bike, &mut torque, x0, 0.0..3.0, &tight).unwrap();
        let (_, reached) = replay.last().unwrap();
        misses.push((reached[1] - end[1]).abs() + reached[2].abs() + reached[3].abs());
    }
    // the optimum converges with the nodes (3.1e-3 apart at 21 and 41 nodes), and the
    // replay's miss falls at Hermite-Simpson's order (1.9e-4 -> 1.4e-5)
    let change = (coarse.objective() - fine.objective()).abs() / fine.objective();
    assert!(change < 1e-2, "{} {}", coarse.objective(), fine.objective());
    assert!(
        misses[1] < misses[0] / 8.0 && misses[1] < 1e-4,
        "{misses:?}"
    );
}

/// The robot's dash: from rest to rest 0.5 m ahead in 1 s, the least integral of the
/// torques squared, on a floor with `mu = 0.4`. The free plan asks the drive wheels for
/// more friction than the floor gives (its torques replayed, a wheel slips); with the
/// friction margin 0.05 as a path constraint the plan stays inside every friction cone at
/// every point of the grid, costs more, and its replay rolls all the way. The constraint's derivatives
/// (contact loads in dual numbers and on the Hessian's tape) are checked against differences.
#[test]
fn a_dash_within_the_friction_margin_does_not_slip() {
    use nonholo::models::DiffDriveRobot;
    let robot = DiffDriveRobot::default().with_mu(0.4);
    let t_f = 1.0;
    assert!(
        dash(&robot, 5)
            .friction_margin_at_least(0.05)
            .derivative_check()
            .unwrap()
            < 1e-6
    );
    let nodes = 21;
    let free = dash(&robot, nodes).solve().unwrap();
    // the multipliers from zero, as in examples/robot_dash.rs (from ripopt's least-squares
    // estimate the path is long and sensitive to rounding)
    let limited = dash(&robot, nodes)
        .friction_margin_at_least(0.05)
        .solver_options(|o| o.least_squares_mult_init = false)
        .solve()
        .unwrap();
    assert!(limited.exact_hessian() && limited.violation() < 1e-8);
    let worst = |plan: &nonholo::optimal::Solution| {
        let loads = plan.trajectory().contact_loads(&robot).unwrap();
        loads
            .iter()
            .flatten()
            .map(|l| l.utilization)
            .fold(0.0f64, f64::max)
    };
    let (u_free, u_limited) = (worst(&free), worst(&limited));
    println!(
        "utilization: free {u_free:.4} ({} it), limited {u_limited:.4} ({} it); objectives {:.4} {:.4}",
        free.iterations(),
        limited.iterations(),
        free.objective(),
        limited.objective()
    );
    // the free plan needs more than mu N; the limited one at most sqrt(1 - 0.05^2) of it
    assert!(u_free > 1.05, "{u_free}");
    assert!(
        u_limited <= (1.0f64 - 0.05 * 0.05).sqrt() + 1e-6,
        "{u_limited}"
    );
    assert!(limited.objective() > free.objective() * 1.005);
    // replayed on the continuous model: the free plan's torques make a wheel slip, the
    // limited plan's reach the end without a contact event
    let replay = |plan: &nonholo::optimal::Solution| {
        let mut torques = plan.input_series().unwrap();
        let o = Options::default().rtol(1e-10).atol(1e-10);
        simulate_controlled(&robot, &mut torques, plan.state(0).unwrap(), 0.0..t_f, &o)
            .map_err(|stop| stop.error)
    };
    match replay(&free).map(|_| ()) {
        Err(Error::ContactLost {
            event: nonholo::ContactEvent::Slip,
            ..
        }) => {}
        other => panic!("the free plan's replay should slip: {other:?}"),
    }
    let rolled = replay(&limited).expect("the limited plan rolls");
    let (_, end) = rolled.last().unwrap();
    assert!((end[0] - 0.5).abs() < 1e-3, "{end:?}");
}

/// The mobile manipulator swings its arm about the vertical, -0.8 to 0.8 rad in 1 s, on a
/// floor with `mu = 0.1` (`examples/manipulator_swing.rs`, 41 trapezoidal nodes): the free
/// plan asks the drive wheels for more than twice `mu N`, and its replay slips at once; with
/// the friction margin 0.05 every contact stays inside its cone at every node, and the
/// replay (the plan's torques plus a PD law towards the plan's motion, as a robot executes
/// one) rolls to the end within the cone. About 15 s in release, minutes in debug:
/// `cargo test --release --test suite an_arm_swung -- --ignored`.
#[test]
#[ignore = "a 41-node plan of the 21-state manipulator with friction rows: run in release"]
fn an_arm_swung_within_the_friction_margin_does_not_slip() {
    use nonholo::models::MobileManipulator as Robot;
    use nonholo_test_models::optimal::{swing, swing_robot, swing_start};
    let robot = swing_robot();
    let x0 = swing_start();
    let swing = || swing(&robot);
    let free = swing().solve().unwrap();
    let limited = swing().friction_margin_at_least(0.05).solve().unwrap();
    let worst = |loads: Vec<Vec<nonholo::ContactLoad>>| {
        loads
            .iter()
            .flatten()
            .map(|l| l.utilization)
            .fold(0.0f64, f64::max)
    };
    let u_free = worst(free.trajectory().contact_loads(&robot).unwrap());
    let u_limited = worst(limited.trajectory().contact_loads(&robot).unwrap());
    println!(
        "utilization: free {u_free:.4} ({} it), limited {u_limited:.4} ({} it, {:.1} s)",
        free.iterations(),
        limited.iterations(),
        limited.solve_seconds()
    );
    assert!(u_free > 2.0, "{u_free}");
    assert!(u_limited <= (1.0f64 - 0.05 * 0.05).sqrt() + 1e-6);
    assert!(limited.objective() > free.objective());
    let replay = |plan: &nonholo::optimal::Solution| {
        let mut torques = plan.input_series().unwrap();
        let plan_motion = plan.trajectory().clone();
        let mut reference = vec![0.0; Robot::DIM];
        let mut tracking = |t: f64, x: &[f64], u: &mut [f64]| {
            torques.control(t, x, u).unwrap();
            plan_motion.at_into(t.min(1.0), &mut reference).unwrap();
            for (k, q) in [3, 4, 7, 8, 9, 10, 11, 12].into_iter().enumerate() {
                let z = Robot::NQ + k;
                u[k] += 100.0 * (reference[q] - x[q]) + 20.0 * (reference[z] - x[z]);
            }
        };
        let o = Options::default().rtol(1e-10).atol(1e-10);
        simulate_controlled(&robot, &mut tracking, &x0, 0.0..1.0, &o).map_err(|stop| stop.error)
    };
    match replay(&free).map(|_| ()) {
        Err(Error::ContactLost {
            event: nonholo::ContactEvent::Slip,
            ..
        }) => {}
        other => panic!("the free plan's replay should slip: {other:?}"),
    }
    let rolled = replay(&limited).expect("the limited plan rolls");
    assert!(worst(rolled.contact_loads(&robot).unwrap()) < 1.0);
    let (_, end) = rolled.last().unwrap();
    assert!(
        (end[7] - 0.8).abs() < 1e-2 && end[0].hypot(end[1]) < 1e-3,
        "{end:?}"
    );
}

/// The exact Hessian's entries by the tape's forward-over-reverse sweeps (what the solve
/// uses) equal those of one hyper-dual evaluation each, on problems with every kind of
/// term: Hermite–Simpson defects (the skate), a configuration constraint (the bicycle's
/// pitch), a free duration with a running cost (the pendulum), contact loads in path
/// constraints (the dash's friction rows) and a terminal cost (the line follower).
#[test]
fn the_tape_hessian_equals_one_hyper_dual_evaluation_per_entry() {
    use nonholo::models::DiffDriveRobot;
    use nonholo_test_models::optimal::PushedCartesianPendulum;
    let close = |(worst, entries): (f64, usize), name: &str| {
        assert!(entries > 50, "{name}: {entries} entries");
        assert!(worst < 1e-13, "{name}: {worst:e}");
    };
    let skate = SteeredSkate::default();
    let guess = skate_guess(&skate);
    close(
        skate_park(&skate, &guess, 9)
            .__hessian_cross_check()
            .unwrap(),
        "skate",
    );
    let bike = WhippleBicycle::default();
    close(
        lane_change(&bike, 5).__hessian_cross_check().unwrap(),
        "bicycle",
    );
    let p = PushedCartesianPendulum::default();
    let free = Problem::new(&p, 9)
        .scheme(Scheme::HermiteSimpson)
        .initial_state(&[0.0, -1.5, 0.0])
        .final_state(&[0.9, -1.2, 0.0])
        .free_duration(1.0, 4.0)
        .cost(EffortAndTimeCost);
    close(free.__hessian_cross_check().unwrap(), "pendulum");
    let robot = DiffDriveRobot::default().with_mu(0.4);
    let dash = Problem::new(&robot, 5)
        .scheme(Scheme::HermiteSimpson)
        .duration(1.0)
        .initial_state(&[0.0; DiffDriveRobot::DIM])
        .final_coordinates(&[("x", 0.5), ("y", 0.0), ("th", 0.0)])
        .minimize_input_effort(&[1.0, 1.0])
        .friction_margin_at_least(0.05);
    close(dash.__hessian_cross_check().unwrap(), "dash");
    let follow = Problem::new(&robot, 6)
        .duration(1.0)
        .initial_state(&[0.0; DiffDriveRobot::DIM])
        .cost(ToTheLine);
    close(follow.__hessian_cross_check().unwrap(), "line");
}

/// Reach the line `y = 0.2` heading along it: a terminal cost beside the effort.
struct ToTheLine;
impl nonholo::optimal::Cost for ToTheLine {
    fn running<S: Scalar>(&self, _t: S, _x: &[S], u: &[S]) -> S {
        u[0] * u[0] + u[1] * u[1]
    }
    fn terminal<S: Scalar>(&self, t: S, x: &[S]) -> S {
        let e = x[1] - S::from_f64(0.2);
        (e * e + x[2].sin() * x[2].sin()) * S::from_f64(50.0) + t * x[0] * x[0]
    }
}
