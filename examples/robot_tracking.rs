//! A path tracked by model-predictive control: the differential-drive robot
//! (`nonholo::models::DiffDriveRobot`) follows a reference point running round a circle of
//! radius 1 m at 0.3 m/s, starting at rest 0.2 m outside it. At 50 Hz the controller
//! (`nonholo::optimal::Mpc`) re-solves a 1 s horizon of 20 trapezoidal nodes from the
//! measured state, warm-started from its last plan and the solver's multipliers, and holds
//! the first input until the next sample (zero-order hold); the motor torques stay within
//! +-1 N m. The first, cold solve is made before the loop starts (`Mpc::prepare`). The
//! wheels' rolling angles, which nothing in the problem reads, are left out of the NLP
//! and reconstructed by quadrature (`Problem::cyclic_by_quadrature`).
//!
//! `cargo run --release --features optimal --example robot_tracking` runs 12 s of closed
//! loop on the full model (the caster included), prints the worst and median solve times
//! and the tracking error, and writes the run as CSV (`robot_tracking.csv`) into
//! `target/plots` under the crate's folder, or into the folder named by `NONHOLO_PLOTS`;
//! `--features optimal,plot` plots the tracking error and the torques, `--features
//! optimal,viz` writes `robot_tracking.html`, where the robot runs round.
use nonholo::models::DiffDriveRobot;
use nonholo::optimal::{Cost, Mpc, Problem, Scheme};
use nonholo::prelude::*;

/// The circle's radius (m), the reference point's speed (m/s), the run's length (s).
const RADIUS: f64 = 1.0;
const SPEED: f64 = 0.3;
const RUN: f64 = 12.0;

/// The reference at `t`: the point `(R sin(wt), R (1 - cos(wt)))` on the circle through
/// the origin centred at `(0, R)`, and its heading `wt` (`w = v / R`).
fn reference<S: Scalar>(t: S) -> (S, S, S) {
    let angle = t * S::from_f64(SPEED / RADIUS);
    let r = S::from_f64(RADIUS);
    (r * angle.sin(), r * (S::from_f64(1.0) - angle.cos()), angle)
}

/// Stay on the reference point, head along the circle, spend little torque; the terminal
/// term weighs the horizon's end position more.
struct TrackCircle;

impl Cost for TrackCircle {
    fn running<S: Scalar>(&self, t: S, x: &[S], u: &[S]) -> S {
        let (xr, yr, heading) = reference(t);
        let (ex, ey) = (x[0] - xr, x[1] - yr);
        // 1 - cos: the heading error without a wrap at +-pi
        (ex * ex + ey * ey) * S::from_f64(20.0)
            + (S::from_f64(1.0) - (x[2] - heading).cos()) * S::from_f64(2.0)
            + (u[0] * u[0] + u[1] * u[1]) * S::from_f64(0.1)
    }

    fn terminal<S: Scalar>(&self, t: S, x: &[S]) -> S {
        let (xr, yr, _) = reference(t);
        let (ex, ey) = (x[0] - xr, x[1] - yr);
        (ex * ex + ey * ey) * S::from_f64(50.0)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let robot = DiffDriveRobot::default();
    let horizon = Problem::new(&robot, 20)
        .scheme(Scheme::Trapezoidal)
        .duration(1.0)
        .input_bounds("t_l", -1.0, 1.0)
        .input_bounds("t_r", -1.0, 1.0)
        .cost(TrackCircle)
        // nothing reads the wheels' rolling angles: the solver goes without them (6 of
        // the 9 state components), and they follow from the plan by quadrature
        .cyclic_by_quadrature(true)
        // the cold solve from zero multipliers (warm solves start from the last ones)
        .solver_options(|o| o.least_squares_mult_init = false);
    let mut mpc = Mpc::new(horizon);
    let mut x0 = vec![0.0; DiffDriveRobot::DIM];
    x0[1] = -0.2; // at rest, 0.2 m outside the circle
                  // the first, cold solve while the controller is set up
    let cold = mpc.prepare(0.0, &x0)?;
    println!(
        "prepared: {} iterations in {:.2} ms",
        cold.iterations(),
        cold.solve_seconds() * 1e3
    );
    let options = Options::default().control_period(0.02);
    let run = simulate_controlled(&robot, &mut mpc, &x0, 0.0..RUN, &options)?;
    let (worst, median) = mpc
        .worst_and_median_seconds()
        .ok_or("the controller never ran")?;
    let iterations: usize = mpc.iterations().iter().sum();
    println!(
        "{} solves at 50 Hz: worst {:.2} ms, median {:.2} ms, {:.1} iterations on average",
        mpc.solve_seconds().len(),
        worst * 1e3,
        median * 1e3,
        iterations as f64 / mpc.solve_seconds().len() as f64
    );
    // the distance to the reference point, and to the circle, along the run
    let times = run.times().to_vec();
    let (xs, ys) = (run.column("x").unwrap(), run.column("y").unwrap());
    let behind: Vec<f64> = times
        .iter()
        .zip(xs.iter().zip(&ys))
        .map(|(&t, (x, y))| {
            let (xr, yr, _) = reference(t);
            ((x - xr).powi(2) + (y - yr).powi(2)).sqrt()
        })
        .collect();
    let off_circle: Vec<f64> = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| ((x * x + (y - RADIUS).powi(2)).sqrt() - RADIUS).abs())
        .collect();
    let settled = times.iter().position(|&t| t >= 4.0).unwrap_or(0);
    let worst_after = |e: &[f64]| e[settled..].iter().fold(0.0f64, |m, v| m.max(*v));
    println!(
        "after 4 s: at most {:.1} mm from the reference point and {:.1} mm off the circle",
        worst_after(&behind) * 1e3,
        worst_after(&off_circle) * 1e3
    );
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/target/plots");
    let dir = nonholo::files::plots_dir(target)?;
    run.write_csv(dir.join("robot_tracking.csv"))?;
    println!("wrote {}", dir.join("robot_tracking.csv").display());
    #[cfg(feature = "plot")]
    {
        let errors = dir.join("robot_tracking_error.svg");
        nonholo::plot::plot_series_svg(
            &errors,
            "tracking a circle by MPC at 50 Hz: distance (m)",
            &times,
            &[
                ("to the reference point", &behind),
                ("to the circle", &off_circle),
            ],
        )?;
        println!("wrote {}", errors.display());
        let torques = dir.join("robot_tracking_torques.svg");
        run.plot_svg(
            &torques,
            "tracking a circle by MPC at 50 Hz: the motor torques (N m)",
            &["t_l", "t_r"],
        )?;
        println!("wrote {}", torques.display());
    }
    #[cfg(feature = "viz")]
    {
        use nonholo::viz::Animation;
        let page = dir.join("robot_tracking.html");
        let look = Animation::default().title("a circle tracked by MPC at 50 Hz");
        run.animate_html(&robot, &page, &look)?;
        println!("wrote {}", page.display());
    }
    Ok(())
}
