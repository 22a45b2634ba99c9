//! A lane change, planned: the Whipple bicycle (`nonholo::models::WhippleBicycle`, Meijaard
//! et al. 2007) at 5 m/s, inside its self-stable band (4.29-6.02 m/s), moves 1 m to the
//! right within 3 s and runs on upright and straight again, with the least integral of
//! the steer torque squared and |steer torque| <= 20 N m. The rider steers only: no lean
//! torque, no pedalling (the bicycle coasts).
//!
//! The bicycle's front contact height is a configuration constraint solved for the pitch;
//! the plan keeps it as an equality at every node and midpoint, with the exact Hessian.
//!
//! `cargo run --release --features optimal --example bicycle_lane_change` solves the plan
//! (Hermite–Simpson, 41 nodes, ripopt), prints the solver's report and the steer torque's
//! extremes, replays the planned torque on the model with `simulate_controlled` and prints
//! how far the replay ends from the plan's end; writes the plan as CSV
//! (`bicycle_lane_change.csv`) into `target/plots` under the crate's folder, or into the
//! folder named by `NONHOLO_PLOTS`; `--features optimal,plot` plots roll and steer, the
//! steer torque and the sideways position against time, `--features optimal,viz` writes
//! `bicycle_lane_change.html`, where the replayed bicycle changes lane.
use nonholo::models::WhippleBicycle;
use nonholo::optimal::{Problem, Scheme};
use nonholo::prelude::*;

const NQ: usize = WhippleBicycle::NQ;
/// The speed, inside the self-stable band.
const V: f64 = 5.0;
/// The lane change: 1 m to the right (benchmark axes: y to the right) within 3 s.
const SHIFT: f64 = 1.0;
const DURATION: f64 = 3.0;
const NODES: usize = 41;

/// Upright straight running at `V` (pitch from the front contact).
fn upright(bike: &WhippleBicycle) -> Result<[f64; 11], Error> {
    let mut state = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut state[..NQ])?;
    state[NQ + 1] = -V / bike.r_r;
    Ok(state)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bike = WhippleBicycle::default();
    let x0 = upright(&bike)?;
    // the guess: coasting straight ahead for the whole duration (self-stable: it stays up)
    let coast = Options::default().rtol(1e-10).atol(1e-10);
    let guess = simulate(&bike, &x0, 0.0..DURATION, &coast)?;
    let [roll_rate, _, steer_rate] = WhippleBicycle::SPEEDS else {
        unreachable!("the Whipple bicycle has three speeds")
    };
    let plan = Problem::new(&bike, NODES)
        .scheme(Scheme::HermiteSimpson)
        .duration(DURATION)
        .initial_state(&x0)
        .final_coordinates(&[
            ("y", SHIFT),
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
    let steer_torque: Vec<f64> = (0..NODES).map(|k| plan.input(k).unwrap()[1]).collect();
    let (lo, hi) = steer_torque
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    let rolls: Vec<f64> = (0..NODES).map(|k| plan.state(k).unwrap()[3]).collect();
    let lean = rolls.iter().fold(0.0f64, |m, r| m.max(r.abs()));
    let end = plan.state(NODES - 1).unwrap();
    println!(
        "steer torque between {lo:+.3} and {hi:+.3} N m; largest lean {:.2} deg; \
         ends {:.3} m ahead, {:.4} m to the right, at {:.4} m/s",
        lean.to_degrees(),
        end[0],
        end[1],
        -end[NQ + 1] * bike.r_r
    );
    let mut torques = plan.input_series()?;
    let replay = simulate_controlled(&bike, &mut torques, &x0, 0.0..DURATION, &coast)?;
    let (_, reached) = replay.last().unwrap();
    println!(
        "replayed on the model: ends {:.2e} m from the plan's end sideways, yaw {:+.2e} rad, \
         roll {:+.2e} rad",
        (reached[1] - end[1]).abs(),
        reached[2],
        reached[3]
    );
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/target/plots");
    let dir = nonholo::files::plots_dir(target)?;
    plan.trajectory()
        .write_csv(dir.join("bicycle_lane_change.csv"))?;
    println!("wrote {}", dir.join("bicycle_lane_change.csv").display());
    #[cfg(feature = "plot")]
    {
        let plots: [(&str, &str, &[&str]); 3] = [
            (
                "bicycle_lane_change_lean.svg",
                "roll and steer (rad)",
                &["roll", "steer"],
            ),
            (
                "bicycle_lane_change_torque.svg",
                "the steer torque (N m)",
                &["t_steer"],
            ),
            (
                "bicycle_lane_change_path.svg",
                "y, to the right (m)",
                &["y"],
            ),
        ];
        for (file, title, columns) in plots {
            let svg = dir.join(file);
            let title = format!("lane change at 5 m/s: {title}");
            plan.trajectory().plot_svg(&svg, &title, columns)?;
            println!("wrote {}", svg.display());
        }
    }
    #[cfg(feature = "viz")]
    {
        use nonholo::viz::Animation;
        let page = dir.join("bicycle_lane_change.html");
        let look =
            Animation::default().title("a lane change at 5 m/s, planned at least steer effort");
        replay.animate_html(&bike, &page, &look)?;
        println!("wrote {}", page.display());
    }
    Ok(())
}
