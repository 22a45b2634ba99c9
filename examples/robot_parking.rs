//! Parallel parking, planned: the differential-drive robot (`nonholo::models::DiffDriveRobot`,
//! two driven wheels and a caster) moves 0.6 m sideways into a gap between two parked
//! robots, ending at rest and heading the way it started, with the least integral of its
//! motor torques squared, the torques within +-0.5 N m, and the chassis never within
//! reach of the parked ones (path constraints) nor past the kerb (a state bound).
//!
//! `cargo run --release --features optimal --example robot_parking` solves the plan
//! (Hermite–Simpson, 61 nodes, ripopt with the exact Hessian and the adaptive barrier), prints the solver's
//! report, replays the planned torques on the model with `simulate_controlled` and prints
//! how far the replay ends from the plan's end; writes the plan as CSV
//! (`robot_parking.csv`) into `target/plots` under the crate's folder, or into the folder
//! named by `NONHOLO_PLOTS`; `--features optimal,plot` plots the torques, `--features
//! optimal,viz` writes `robot_parking.html`, where the plan moves.
use nonholo::models::DiffDriveRobot;
use nonholo::optimal::{PathConstraint, Problem, Scheme};
use nonholo::prelude::*;

/// The parked robots: discs of radius `reach` about `(x_k, y_k)` the axle's midpoint
/// must keep out of, `(x - x_k)^2 + (y - y_k)^2 >= reach^2`.
struct ParkedRobots {
    centres: [(f64, f64); 2],
}

impl PathConstraint for ParkedRobots {
    fn len(&self) -> usize {
        2
    }
    fn values<S: Scalar>(&self, _t: S, state: &[S], _u: &[S], out: &mut [S]) {
        for (o, (cx, cy)) in out.iter_mut().zip(self.centres) {
            let dx = state[0] - S::from_f64(cx);
            let dy = state[1] - S::from_f64(cy);
            *o = dx * dx + dy * dy;
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let robot = DiffDriveRobot::default();
    let dim = DiffDriveRobot::DIM;
    let (t_f, nodes) = (8.0, 61);
    // a guess that moves: forward, a turn one way, a turn the other
    let mut wiggle = |t: f64, _x: &[f64], u: &mut [f64]| {
        let turn = 0.15 * (std::f64::consts::PI * t / t_f * 2.0).sin();
        u[0] = 0.05 * (std::f64::consts::PI * t / t_f).cos() - turn;
        u[1] = 0.05 * (std::f64::consts::PI * t / t_f).cos() + turn;
    };
    let x0 = vec![0.0; dim];
    let guess = simulate_controlled(&robot, &mut wiggle, &x0, 0.0..t_f, &Options::default())?;
    let reach = 0.45;
    let parked = ParkedRobots {
        centres: [(-0.75, 0.6), (0.75, 0.6)],
    };
    let plan = Problem::new(&robot, nodes)
        .scheme(Scheme::HermiteSimpson)
        .duration(t_f)
        .initial_state(&x0)
        .final_coordinates(&[("x", 0.0), ("y", 0.6), ("th", 0.0)])
        .final_speeds(&[0.0, 0.0])
        .state_bounds("y", -0.5, 0.7)
        .input_bounds("t_l", -0.5, 0.5)
        .input_bounds("t_r", -0.5, 0.5)
        .minimize_input_effort(&[1.0, 1.0])
        .path(parked, &[reach * reach; 2], &[f64::INFINITY; 2])
        // Keeping out of the obstacles is a condition on the state alone: at the nodes it
        // is enough, and at the midpoints as well it took 162 iterations to another local
        // optimum, 16 times costlier (and it is the transcription CasADi solves beside it).
        .path_at_midpoints(false)
        .guess(&guess)
        // The obstacles make the problem nonconvex. With the default monotone barrier
        // ripopt stalls (3000 iterations, violation 1.6e-3; so can IPOPT's own); its
        // adaptive barrier finds the optimum in 151 iterations. The
        // adaptive barrier's LOQO rule picks mu from the step's own factorization, where the
        // quality-function rule factors the system once more, from scratch, at every
        // iteration (136 iterations, but 1.8x the time).
        .solver_options(|o| {
            o.mu_strategy_adaptive = true;
            o.mu_oracle_quality_function = false;
        })
        .solve()?;
    println!(
        "plan: {} after {} iterations in {:.1} ms (exact Hessian: {}), objective {:.6} N^2 m^2 s, \
         largest violation {:.1e}",
        plan.status(),
        plan.iterations(),
        plan.solve_seconds() * 1e3,
        plan.exact_hessian(),
        plan.objective(),
        plan.violation()
    );
    let end = plan.state(nodes - 1).unwrap();
    let mut torques = plan.input_series()?;
    let options = Options::default().rtol(1e-10).atol(1e-10);
    let replay = simulate_controlled(&robot, &mut torques, &x0, 0.0..t_f, &options)?;
    let (_, reached) = replay.last().unwrap();
    let miss = ((reached[0] - end[0]).powi(2) + (reached[1] - end[1]).powi(2)).sqrt();
    println!(
        "replayed on the model: ends {:.2e} m from the plan's end, heading {:+.2e} rad",
        miss, reached[2]
    );
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/target/plots");
    let dir = nonholo::files::plots_dir(target)?;
    plan.trajectory().write_csv(dir.join("robot_parking.csv"))?;
    println!("wrote {}", dir.join("robot_parking.csv").display());
    #[cfg(feature = "plot")]
    {
        let svg = dir.join("robot_parking.svg");
        plan.trajectory()
            .plot_svg(&svg, "parallel parking: the motor torques", &["t_l", "t_r"])?;
        println!("wrote {}", svg.display());
    }
    #[cfg(feature = "viz")]
    {
        use nonholo::viz::Animation;
        let page = dir.join("robot_parking.html");
        let look = Animation::default().title("parallel parking, planned at least effort");
        replay.animate_html(&robot, &page, &look)?;
        println!("wrote {}", page.display());
    }
    Ok(())
}
