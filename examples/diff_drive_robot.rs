//! A differential-drive robot (`nonholo::models::DiffDriveRobot`: two driven wheels and a
//! caster, three rolling contacts) driven by its wheel motors: a 50 Hz sampled controller
//! turns a commanded forward speed and turn rate into wheel-rate set points and the wheel
//! torques `t_l`, `t_r` (proportional-integral on each wheel's rate, a controller that
//! keeps state), first straight, then on a circle of radius 1 m. The caster swivels to
//! follow. Printed: the tracking, the path's radius, the energy the motors put in against
//! the kinetic energy gained.
//!
//! `cargo run --release --example diff_drive_robot`; with `--features viz` it also writes
//! the ride as `target/plots/diff_drive_robot.html` (open it in a browser: orbit, zoom,
//! play, scrub) and `.gif`.
use nonholo::models::DiffDriveRobot;
use nonholo::prelude::*;

/// Wheel-rate PI control from a commanded forward speed `v` and turn rate `w`.
struct Motors {
    r: f64,
    b: f64,
    /// The integrals of the wheel-rate errors.
    integral: [f64; 2],
    dt: f64,
}

impl Motors {
    /// Forward speed and turn rate at time t: straight for 2 s, then a circle of 1 m.
    fn command(t: f64) -> (f64, f64) {
        let v = 0.5 * (t / 0.5).min(1.0);
        if t < 2.0 {
            (v, 0.0)
        } else {
            (v, v / 1.0)
        }
    }
}

impl Controller for Motors {
    fn control(&mut self, t: f64, x: &[f64], u: &mut [f64]) -> Result<(), Error> {
        let (v, w) = Self::command(t);
        // the unicycle kinematics backwards: the wheel rates that give (v, w)
        let want = [(v - w * self.b) / self.r, (v + w * self.b) / self.r];
        for k in 0..2 {
            let error = want[k] - x[7 + k];
            self.integral[k] += error * self.dt;
            u[k] = 0.4 * error + 2.0 * self.integral[k];
        }
        Ok(())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let robot = DiffDriveRobot::default();
    let dt = 0.02;
    let mut motors = Motors {
        r: robot.r,
        b: robot.b,
        integral: [0.0; 2],
        dt,
    };
    // at rest, the caster trailing straight behind
    let x0 = [0.0; DiffDriveRobot::DIM];
    let options = Options::default().control_period(dt).sample_every(dt);
    let tr = simulate_controlled(&robot, &mut motors, &x0, 0.0..12.0, &options)?;
    let (_, x_end) = tr.last().ok_or("empty run")?;
    let mut qd = [0.0; DiffDriveRobot::NQ];
    robot.qdot(0.0, &x_end[..7], &x_end[7..], &mut qd)?;
    let speed = (qd[0] * qd[0] + qd[1] * qd[1]).sqrt();
    println!(
        "after 12 s: speed {speed:.4} m/s (commanded 0.5), turn rate {:.4} rad/s (0.5), \
         caster swivel {:.4} rad",
        qd[2], x_end[5]
    );
    // the path's radius: the circle through its points at 8, 10 and 12 s
    let (xs, ys) = (tr.column("x").ok_or("no x")?, tr.column("y").ok_or("no y")?);
    let n = xs.len();
    let at = |t: f64| {
        let i = ((t / dt).round() as usize).min(n - 1);
        (xs[i], ys[i])
    };
    let ((ax, ay), (bx, by), (cx, cy)) = (at(8.0), at(10.0), at(12.0));
    let side = |px: f64, py: f64, qx: f64, qy: f64| ((px - qx).powi(2) + (py - qy).powi(2)).sqrt();
    let area2 = ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)).abs();
    let radius = side(ax, ay, bx, by) * side(bx, by, cx, cy) * side(cx, cy, ax, ay) / (2.0 * area2);
    println!("path radius (through the points at 8, 10, 12 s): {radius:.4} m (commanded 1 m)");
    // the motors' work against the kinetic energy gained (no friction, no slope)
    let (t_l, t_r) = (
        tr.column("t_l").ok_or("no t_l")?,
        tr.column("t_r").ok_or("no t_r")?,
    );
    let (phi_l, phi_r) = (
        tr.column("phi_l").ok_or("no phi_l")?,
        tr.column("phi_r").ok_or("no phi_r")?,
    );
    let work: f64 = (1..n)
        .map(|i| t_l[i - 1] * (phi_l[i] - phi_l[i - 1]) + t_r[i - 1] * (phi_r[i] - phi_r[i - 1]))
        .sum();
    let e = tr.energy(&robot)?;
    println!(
        "motors' work {work:.6} J, energy gained {:.6} J (difference {:.1e})",
        e[n - 1] - e[0],
        work - (e[n - 1] - e[0])
    );
    #[cfg(feature = "viz")]
    {
        let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
        let dir = nonholo::viz::plots_dir(target)?;
        let animation = nonholo::viz::Animation::default()
            .title("differential-drive robot: straight, then a 1 m circle")
            .trail("caster.contact", [200, 60, 60]);
        tr.animate_html(&robot, dir.join("diff_drive_robot.html"), &animation)?;
        tr.animate_gif(
            &robot,
            dir.join("diff_drive_robot.gif"),
            &animation.size(480, 360),
        )?;
        println!("animation: {}", dir.join("diff_drive_robot.html").display());
    }
    Ok(())
}
