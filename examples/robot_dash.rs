//! A dash within the friction the floor gives: the differential-drive robot
//! (`nonholo::models::DiffDriveRobot`, two driven wheels and a caster, every contact with
//! `friction: mu`) on a floor with `mu = 0.4` goes from rest to rest 0.5 m ahead in 1 s
//! with the least integral of its motor torques squared, planned twice: free, and with
//! `.friction_margin_at_least(0.05)`, which keeps every contact inside its friction cone,
//! `(mu N)^2 - |F_t|^2 >= (0.05 mu N)^2` and `N >= 0`, at every point of the grid.
//!
//! The free plan accelerates as hard as a cubic does and asks the drive wheels for more
//! than `mu N` at the start; braking at the end lifts the caster (its normal force goes
//! negative). Its torques replayed on the model by `simulate_controlled` stop where a
//! wheel slips (`Error::ContactLost`). The limited plan drives near the cone's edge,
//! brakes gently enough to keep the caster down, costs about 1% more, and its replay
//! rolls all the way.
//!
//! `cargo run --release --features optimal --example robot_dash` prints both plans, their
//! largest friction use and least normal force per contact and how their replays end;
//! writes the limited plan as CSV (`robot_dash.csv`) into `target/plots` under the crate's
//! folder, or into the folder named by `NONHOLO_PLOTS`; `--features optimal,plot` plots
//! the friction use of both plans (`robot_dash_friction.svg`), `--features optimal,viz`
//! writes `robot_dash.html`, where the limited plan's replay moves.
use nonholo::models::DiffDriveRobot;
use nonholo::optimal::{Problem, Scheme, Solution};
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let robot = DiffDriveRobot::default().with_mu(0.4);
    let (t_f, nodes, margin) = (1.0, 21, 0.05);
    let x0 = [0.0; DiffDriveRobot::DIM];
    let dash = || {
        Problem::new(&robot, nodes)
            .scheme(Scheme::HermiteSimpson)
            .duration(t_f)
            .initial_state(&x0)
            .final_coordinates(&[("x", 0.5), ("y", 0.0), ("th", 0.0)])
            .final_speeds(&[0.0, 0.0])
            .minimize_input_effort(&[1.0, 1.0])
    };
    let free = dash().solve()?;
    // The solver's constraint multipliers start at zero, not at its least-squares estimate:
    // at rest the friction rows are near their degenerate point (the caster's lift-off),
    // and from the estimate the path took 38 to 175 iterations (11 to 41 nodes; Hessians
    // agreeing to 1e-12 took it through 29 or 175 on 21), from zero 15 to 16 (21 to 41).
    let limited = dash()
        .friction_margin_at_least(margin)
        .solver_options(|o| o.least_squares_mult_init = false)
        .solve()?;
    let options = Options::default().rtol(1e-10).atol(1e-10);
    let mut replays = Vec::new();
    for (name, plan) in [("free", &free), ("limited", &limited)] {
        println!(
            "{name}: {} after {} iterations in {:.1} ms, objective {:.4} N^2 m^2 s, largest \
             violation {:.1e}",
            plan.status(),
            plan.iterations(),
            plan.solve_seconds() * 1e3,
            plan.objective(),
            plan.violation()
        );
        let (use_, least) = friction_use(&robot, plan)?;
        for (c, contact) in DiffDriveRobot::CONTACTS.iter().enumerate() {
            println!(
                "    {contact}: largest |F_t| / (mu N) {:.4}, least N {:+.2} N",
                use_[c].iter().fold(0.0f64, |a, &b| a.max(b)),
                least[c]
            );
        }
        let mut torques = plan.input_series()?;
        match simulate_controlled(&robot, &mut torques, &x0, 0.0..t_f, &options) {
            Ok(run) => {
                let (_, end) = run.last().unwrap();
                println!(
                    "    replayed: rolls all the way and ends at x = {:.4} m",
                    end[0]
                );
                replays.push(run);
            }
            Err(stop) => println!("    replayed: {}", stop.error),
        }
    }
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/target/plots");
    let dir = nonholo::files::plots_dir(target)?;
    limited.trajectory().write_csv(dir.join("robot_dash.csv"))?;
    println!("wrote {}", dir.join("robot_dash.csv").display());
    #[cfg(feature = "plot")]
    {
        let (free_use, _) = friction_use(&robot, &free)?;
        let (limited_use, _) = friction_use(&robot, &limited)?;
        let svg = dir.join("robot_dash_friction.svg");
        nonholo::plot::plot_series_svg(
            &svg,
            "|F_t| / (mu N) of the left wheel: free plan, limited plan",
            free.trajectory().times(),
            &[("free", &free_use[0]), ("limited", &limited_use[0])],
        )?;
        println!("wrote {}", svg.display());
    }
    #[cfg(feature = "viz")]
    if let Some(run) = replays.last() {
        use nonholo::viz::Animation;
        let page = dir.join("robot_dash.html");
        let look = Animation::default().title("a dash within the friction margin 0.05");
        run.animate_html(&robot, &page, &look)?;
        println!("wrote {}", page.display());
    }
    Ok(())
}

/// Per contact, the friction use `|F_t| / (mu N)` at every point of a plan.
type FrictionUse = Vec<Vec<f64>>;

/// Each contact's friction use at every point of the plan, and its least normal force.
fn friction_use(
    robot: &DiffDriveRobot,
    plan: &Solution,
) -> Result<(FrictionUse, Vec<f64>), Box<dyn std::error::Error>> {
    let loads = plan.trajectory().contact_loads(robot)?;
    let k = DiffDriveRobot::CONTACTS.len();
    let mut use_ = vec![Vec::new(); k];
    let mut least = vec![f64::INFINITY; k];
    for at in &loads {
        for (c, load) in at.iter().enumerate() {
            use_[c].push(load.utilization);
            least[c] = least[c].min(load.normal);
        }
    }
    Ok((use_, least))
}
