//! Whole simulations (issue #12): `simulate` of the unicycle with rider (Talamucci 2015,
//! §3.3, `nonholo::models::RollingDiskPendulum::default()`) at rtol = atol = 1e-10, over
//! 0–10 s and over the upright part 0–1.7 s, with every `Method` of the runtime.
//!
//! The initial state is `examples/rolling_disk_pendulum.rs`'s: rolling straight ahead at
//! 1.5 m/s (`dot(x_c) = 1.5`, `dot(phi1) = 1.5 / r`), the frame leaning 3 degrees, the rider
//! hanging straight down, nothing else moving. The rider touches the ground at about
//! 1.74 s; after that the frame passes through the ground (nothing stops it) and the motion
//! is sensitive to every error: 0–1.7 s is the horizon on which states are compared with
//! other tools (at 1e-10 the 10 s states of SciPy's DOP853 still agree to about 1e-6).
//!
//! Each run is `simulate(&uni, &state0, 0.0..t1, &options)` with the options a new user
//! would write: `Options::default()` (a sample after every step) with the tolerances set
//! and the method chosen. The runtime reports no step or rhs counts, so before timing one
//! untimed run per case goes through `Counting`, a `Model` that forwards to the unicycle
//! and counts the calls; steps are the samples minus the initial one, and the integrator's
//! rhs evaluations are the `rhs` calls minus one per sample (`simulate` evaluates `rhs` at
//! every recorded sample to store `d state/dt`). The counts, the state at 1.7 s and the
//! energy drift are printed and written to `<target>/nonholo-simulate.json` (target:
//! `$CARGO_TARGET_DIR`, else `target/`), which `bench/python/bench_simulate.py` reads.
//!
//! Group `simulate_rolling_disk_pendulum`, functions `<method>_10s` and `<method>_1_7s`
//! (`target/criterion/simulate_rolling_disk_pendulum/<function>/new/estimates.json`).
//! `NONHOLO_SIMULATE_METHODS=tsit45` (comma-separated) restricts the methods timed (the
//! counted runs always cover all of them).
//!
//! Group `simulate_rattleback`, function `rattleback_10s`: the rattleback
//! (`nonholo::models::Rattleback::default()`) spun +2 rad/s as `examples/rattleback.rs`
//! starts it, 10 s at rtol = atol = 1e-8 with `Options::default()` (Tsit45), beside the
//! SciPy ride of `bench/python/bench_rattleback.py`; its counted run is written to
//! `<target>/nonholo-rattleback.json`.
//!
//! `NONHOLO_SIMULATE_SURVEY=1` first prints the survey of the explicit methods: every
//! library model from its example's initial state over its example's horizon, Tsit45
//! against DOP853 at rtol = atol = 1e-6, 1e-8, 1e-10 (the default) and 1e-12: steps, rhs
//! evaluations, and the best of repeated runs' time (not criterion: one table of 80 cases,
//! each timed for about 0.1 s).

use criterion::{criterion_group, Criterion};
use nonholo::models::{
    AssignedFront, AssignedSpin, CoaxialDisks, ParallelPoints, PendulumSkate, Rattleback,
    RollingDisk3d, RollingDiskPendulum, Skate, VerticalDisk, WhippleBicycle,
};
use nonholo::prelude::*;
use std::cell::Cell;
use std::hint::black_box;
use std::time::{Duration, Instant};

type Uni = RollingDiskPendulum;

const TOL: f64 = 1e-10;
/// The horizons: the whole run, and the part before the rider falls (about 1.74 s).
const HORIZONS: [(f64, &str); 2] = [(10.0, "10s"), (1.7, "1_7s")];
/// Every method of the runtime. The implicit ones are for stiff models; this one is not,
/// and at 1e-10 their low order costs many steps, but they are what the runtime offers.
const METHODS: [(Method, &str); 4] = [
    (Method::Tsit45, "tsit45"),
    (Method::Dop853, "dop853"),
    (Method::Bdf, "bdf"),
    (Method::Esdirk34, "esdirk34"),
];

/// The example's initial state (`examples/rolling_disk_pendulum.rs`).
fn initial_state(uni: &Uni) -> [f64; Uni::DIM] {
    let index = |name: &str| Uni::COORDINATES.iter().position(|n| *n == name).unwrap();
    let speed = 1.5;
    let mut q0 = [0.0; Uni::NQ];
    q0[index("theta")] = 3.0_f64.to_radians();
    let mut qd0 = [0.0; Uni::NQ];
    qd0[index("phi1")] = speed / uni.r;
    qd0[index("x_c")] = speed;
    uni.state_from_qdot(0.0, &q0, &qd0).unwrap()
}

fn options(method: Method) -> Options {
    Options::default().rtol(TOL).atol(TOL).method(method)
}

/// A model that forwards to `M` and counts `rhs` and `rhs_jvp` calls.
struct Counting<M> {
    inner: M,
    rhs: Cell<usize>,
    jvp: Cell<usize>,
}

impl<M: Model> Model for Counting<M> {
    const COORDINATES: &'static [&'static str] = M::COORDINATES;
    const SPEEDS: &'static [&'static str] = M::SPEEDS;
    const PARAMETERS: &'static [&'static str] = M::PARAMETERS;
    const CONSTRAINTS: &'static [&'static str] = M::CONSTRAINTS;
    const NQ: usize = M::NQ;
    const NZ: usize = M::NZ;
    const NC: usize = M::NC;
    const DIM: usize = M::DIM;
    const FORMULATION: Formulation = M::FORMULATION;
    const EQUATIONS: &'static str = M::EQUATIONS;
    const CONFIGURATION_CONSTRAINTS: &'static [&'static str] = M::CONFIGURATION_CONSTRAINTS;
    const CONFIGURATION_COORDINATES: &'static [&'static str] = M::CONFIGURATION_COORDINATES;
    type State = M::State;
    const ZERO_STATE: Self::State = M::ZERO_STATE;

    fn parameters(&self) -> Vec<f64> {
        self.inner.parameters()
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        self.rhs.set(self.rhs.get() + 1);
        self.inner.rhs(t, state, dstate)
    }
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        self.inner.qdot(t, q, z, qdot)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<Self::State, Error> {
        self.inner.state_from_qdot(t, q, qdot)
    }
    fn energy(&self, t: f64, state: &[f64]) -> Result<f64, Error> {
        self.inner.energy(t, state)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        self.inner.constraint_residual(t, q, qdot, residual)
    }
    fn configuration_residual(&self, t: f64, q: &[f64], residual: &mut [f64]) -> Result<(), Error> {
        self.inner.configuration_residual(t, q, residual)
    }
    fn configuration_jacobian(&self, t: f64, q: &[f64], jacobian: &mut [f64]) -> Result<(), Error> {
        self.inner.configuration_jacobian(t, q, jacobian)
    }
    fn solve_configuration(&self, t: f64, q: &mut [f64]) -> Result<(), Error> {
        self.inner.solve_configuration(t, q)
    }
    fn rhs_param_jvp(
        &self,
        t: f64,
        state: &[f64],
        dp: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        self.inner.rhs_param_jvp(t, state, dp, out)
    }
    fn rhs_jvp(&self, t: f64, state: &[f64], v: &[f64], out: &mut [f64]) -> Result<(), Error> {
        self.jvp.set(self.jvp.get() + 1);
        self.inner.rhs_jvp(t, state, v, out)
    }
}

/// `[a, b, ..]` with every digit of each number (Rust's shortest round-trip form).
fn json_array(xs: &[f64]) -> String {
    let items: Vec<String> = xs.iter().map(|x| format!("{x:?}")).collect();
    format!("[{}]", items.join(", "))
}

/// The methods to time (`NONHOLO_SIMULATE_METHODS`, default all).
fn selected_methods() -> Vec<(Method, &'static str)> {
    let wanted = std::env::var("NONHOLO_SIMULATE_METHODS").ok();
    METHODS
        .into_iter()
        .filter(|(_, name)| {
            wanted
                .as_deref()
                .is_none_or(|w| w.split(',').any(|x| x.trim() == *name))
        })
        .collect()
}

/// One untimed, counted run per case: print the counts and write them as JSON.
fn report() {
    let uni = Uni::default();
    let state0 = initial_state(&uni);
    println!("RollingDiskPendulum::default(), rtol = atol = {TOL:e}, the example's initial state");
    println!("state0 = {}", json_array(&state0));
    let mut runs = Vec::new();
    for (method, name) in METHODS {
        for (t1, horizon) in HORIZONS {
            let counting = Counting {
                inner: uni,
                rhs: Cell::new(0),
                jvp: Cell::new(0),
            };
            let traj = simulate(&counting, &state0, 0.0..t1, &options(method))
                .unwrap_or_else(|e| panic!("{name} {horizon}: {}", e.error));
            let samples = traj.len();
            let steps = samples - 1;
            let rhs_integrator = counting.rhs.get() - samples;
            let (t_end, s_end) = traj.last().unwrap();
            let energy = traj.energy(&uni).unwrap();
            let drift = energy
                .iter()
                .map(|e| (e - energy[0]).abs())
                .fold(0.0, f64::max)
                / energy[0].abs();
            let at_1_7 = traj.at(1.7).unwrap();
            println!(
                "{name:>9} 0-{t1:<4} s: {steps:6} steps, {rhs_integrator:7} rhs evaluations \
                 (+ {samples} for the samples), {:6} jvp; energy drift {drift:.1e} rel",
                counting.jvp.get()
            );
            println!("            state at t = {t_end}: {}", json_array(s_end));
            runs.push(format!(
                "  {{\"method\": \"{name}\", \"function\": \"{name}_{horizon}\", \"t1\": {t1:?}, \
                 \"steps\": {steps}, \"rhs_evaluations\": {rhs_integrator}, \
                 \"rhs_calls_total\": {}, \"jvp_evaluations\": {}, \"samples\": {samples}, \
                 \"max_rel_energy_drift\": {drift:?}, \"final_time\": {t_end:?}, \
                 \"final_state\": {}, \"state_at_1_7_dense\": {}}}",
                counting.rhs.get(),
                counting.jvp.get(),
                json_array(s_end),
                json_array(&at_1_7)
            ));
        }
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let path = target.join("nonholo-simulate.json");
    let json = format!(
        "{{\"model\": \"RollingDiskPendulum::default()\", \"rtol\": {TOL:?}, \"atol\": {TOL:?}, \
         \"initial_state\": \"examples/rolling_disk_pendulum.rs\", \"state0\": {}, \
         \"runs\": [\n{}\n]}}\n",
        json_array(&state0),
        runs.join(",\n")
    );
    match std::fs::create_dir_all(&target).and_then(|()| std::fs::write(&path, json)) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(e) => println!("could not write {}: {e}", path.display()),
    }
}

/// The rattleback's ride: `examples/rattleback.rs`'s start spun +2 rad/s (z = c on the
/// lowest point, dot(yaw) = 2, dot(roll) = 0.1, the rest 0), 10 s at rtol = atol = 1e-8 with
/// the options a user writes (`Options::default()`: Tsit45, a sample after every step).
/// `bench/python/bench_rattleback.py` integrates the same start with SciPy.
const RATTLEBACK_T1: f64 = 10.0;
const RATTLEBACK_TOL: f64 = 1e-8;

fn rattleback_start(rb: &Rattleback) -> [f64; Rattleback::DIM] {
    let mut s = Rattleback::ZERO_STATE;
    s[2] = rb.c;
    s[Rattleback::NQ] = 2.0;
    s[Rattleback::NQ + 1] = 0.1;
    s
}

fn rattleback_options() -> Options {
    Options::default().rtol(RATTLEBACK_TOL).atol(RATTLEBACK_TOL)
}

/// One untimed, counted rattleback ride: steps, rhs evaluations (as in [`report`]), the
/// final state and the energy drift, printed and written to
/// `<target>/nonholo-rattleback.json` for `bench/python/bench_rattleback.py` (target:
/// `$CARGO_TARGET_DIR`, else the workspace's `target/`).
fn rattleback_report() {
    let rb = Rattleback::default();
    let state0 = rattleback_start(&rb);
    let counting = Counting {
        inner: rb,
        rhs: Cell::new(0),
        jvp: Cell::new(0),
    };
    let traj = simulate(
        &counting,
        &state0,
        0.0..RATTLEBACK_T1,
        &rattleback_options(),
    )
    .unwrap_or_else(|e| panic!("rattleback: {}", e.error));
    let samples = traj.len();
    let steps = samples - 1;
    let rhs_integrator = counting.rhs.get() - samples;
    let (t_end, s_end) = traj.last().unwrap();
    let energy = traj.energy(&rb).unwrap();
    let drift = energy
        .iter()
        .map(|e| (e - energy[0]).abs())
        .fold(0.0, f64::max)
        / energy[0].abs();
    println!(
        "Rattleback::default(), tsit45 0-{RATTLEBACK_T1} s at {RATTLEBACK_TOL:e}: {steps} steps, \
         {rhs_integrator} rhs evaluations (+ {samples} for the samples); energy drift \
         {drift:.1e} rel"
    );
    println!("            state at t = {t_end}: {}", json_array(s_end));
    // The workspace's target directory, where criterion writes its estimates too.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let path = target.join("nonholo-rattleback.json");
    let json = format!(
        "{{\"model\": \"Rattleback::default()\", \"method\": \"tsit45\", \
         \"function\": \"simulate_rattleback/rattleback_10s\", \"rtol\": {RATTLEBACK_TOL:?}, \
         \"atol\": {RATTLEBACK_TOL:?}, \"t1\": {RATTLEBACK_T1:?}, \"state0\": {}, \
         \"steps\": {steps}, \"rhs_evaluations\": {rhs_integrator}, \"samples\": {samples}, \
         \"max_rel_energy_drift\": {drift:?}, \"final_time\": {t_end:?}, \
         \"final_state\": {}}}\n",
        json_array(&state0),
        json_array(s_end)
    );
    match std::fs::create_dir_all(&target).and_then(|()| std::fs::write(&path, json)) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(e) => println!("could not write {}: {e}", path.display()),
    }
}

/// Steps, integrator rhs evaluations and the best time of `simulate(model, ..)`.
fn survey_case<M: Model + Copy>(
    model: M,
    state0: &[f64],
    t1: f64,
    o: &Options,
) -> (usize, usize, f64) {
    let counting = Counting {
        inner: model,
        rhs: Cell::new(0),
        jvp: Cell::new(0),
    };
    let tr = simulate(&counting, state0, 0.0..t1, o).unwrap_or_else(|e| panic!("{}", e.error));
    let (steps, rhs) = (tr.len() - 1, counting.rhs.get() - tr.len());
    let (mut best, mut spent, mut runs) = (f64::INFINITY, 0.0, 0);
    while spent < 0.1 && runs < 1000 || runs < 3 {
        let start = Instant::now();
        black_box(simulate(black_box(&model), black_box(state0), 0.0..t1, o).unwrap());
        let dt = start.elapsed().as_secs_f64();
        best = best.min(dt);
        spent += dt;
        runs += 1;
    }
    (steps, rhs, best)
}

/// One model's rows of the survey (`NONHOLO_SIMULATE_SURVEY`).
fn survey_model<M: Model + Copy>(name: &str, model: M, state0: &[f64], t1: f64) {
    for tol in [1e-6, 1e-8, 1e-10, 1e-12] {
        let o = |m| Options::default().rtol(tol).atol(tol).method(m);
        let (ts, tr, tt) = survey_case(model, state0, t1, &o(Method::Tsit45));
        let (ds, dr, dt) = survey_case(model, state0, t1, &o(Method::Dop853));
        println!(
            "| {name} | 0–{t1} s | {tol:e} | {ts} / {tr} / {:.1} | {ds} / {dr} / {:.1} | {:.2} |",
            tt * 1e6,
            dt * 1e6,
            tt / dt
        );
    }
}

/// Tsit45 against DOP853 on every library model (`NONHOLO_SIMULATE_SURVEY=1`).
fn survey() {
    println!("| model | horizon | tol | Tsit45 steps / rhs / µs | DOP853 steps / rhs / µs | Tsit45 time ÷ DOP853 |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let pts = ParallelPoints::default();
    let bike = PendulumSkate::default();
    let spin = AssignedSpin::new().with_c_phi(0.2).with_c_th1(0.3);
    let v_spin = spin.r * spin.w0 + spin.r * spin.a_s * spin.omega;
    let disk = RollingDisk3d::new();
    let v_disk = 2.0 * (disk.g * disk.r / 3.0).sqrt();
    let whipple = WhippleBicycle::default();
    let mut upright = WhippleBicycle::ZERO_STATE;
    whipple
        .solve_configuration(0.0, &mut upright[..WhippleBicycle::NQ])
        .unwrap();
    upright[WhippleBicycle::NQ] = 0.5;
    upright[WhippleBicycle::NQ + 1] = -5.0 / whipple.r_r;
    let uni = Uni::default();
    survey_model(
        "Skate",
        Skate::new().with_alpha(0.2),
        &[0.0, 0.0, 0.0, 0.0, 1.0],
        6.0,
    );
    let disk_v = VerticalDisk::new().with_alpha(0.1);
    survey_model(
        "VerticalDisk",
        disk_v,
        &[0.0, 0.0, 0.0, 0.0, 2.0, 0.8],
        10.0,
    );
    let coax = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.5];
    survey_model("CoaxialDisks", CoaxialDisks::new(), &coax, 12.0);
    let p0 = pts
        .state_from_qdot(0.0, &[0.0, 0.0, 0.0, 1.0], &[0.2, 1.0, 0.1, 0.5])
        .unwrap();
    survey_model("ParallelPoints", pts, &p0, 3.0);
    let b0 = bike
        .state_from_qdot(0.0, &[0.0, 0.0, 0.0, 0.05, 0.0], &[2.0, 0.0, 0.0, 0.0, 0.0])
        .unwrap();
    survey_model("PendulumSkate", bike, &b0, 1.5);
    let front = AssignedFront::new().with_c_th(0.5).with_c_th1(0.5);
    survey_model("AssignedFront", front, &[0.0; 5], 10.0);
    survey_model("RollingDiskPendulum", uni, &initial_state(&uni), 1.7);
    let a0 = spin
        .state_from_qdot(
            0.0,
            &[0.0, 0.0, 0.0, 0.02, 0.0],
            &[v_spin, 0.0, 0.0, 0.0, 0.0],
        )
        .unwrap();
    survey_model("AssignedSpin", spin, &a0, 3.0);
    let d0 = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05, v_disk / disk.r];
    survey_model("RollingDisk3d", disk, &d0, 10.0);
    survey_model("WhippleBicycle", whipple, &upright, 5.0);
}

fn benches(c: &mut Criterion) {
    if std::env::var_os("NONHOLO_SIMULATE_SURVEY").is_some() {
        survey();
    }
    report();
    let uni = Uni::default();
    let state0 = initial_state(&uni);
    let mut group = c.benchmark_group("simulate_rolling_disk_pendulum");
    for (method, name) in selected_methods() {
        if matches!(method, Method::Bdf | Method::Esdirk34) {
            // tens to hundreds of milliseconds per run
            group.sample_size(10);
            group.measurement_time(Duration::from_secs(10));
        }
        for (t1, horizon) in HORIZONS {
            let o = options(method);
            group.bench_function(format!("{name}_{horizon}"), |b| {
                b.iter(|| simulate(black_box(&uni), black_box(&state0), 0.0..t1, &o).unwrap())
            });
        }
    }
    group.finish();

    // The ride the Python package's bench repeats (`python/bench/bench_python.py`): the
    // reference start of `tests/suite/python_reference.rs`, 5 s, rtol = atol = 1e-10,
    // sampled every 0.01 s.
    let bike = WhippleBicycle::default();
    let mut x0 = WhippleBicycle::ZERO_STATE;
    x0[3] = 0.05;
    bike.solve_configuration(0.0, &mut x0[..WhippleBicycle::NQ])
        .unwrap();
    x0[WhippleBicycle::NQ] = 0.5;
    x0[WhippleBicycle::NQ + 1] = -5.0 / bike.r_r;
    let o = Options::default()
        .rtol(1e-10)
        .atol(1e-10)
        .sample_every(0.01);
    let mut group = c.benchmark_group("simulate_whipple");
    group.bench_function("ride_5s", |b| {
        b.iter(|| simulate(black_box(&bike), black_box(&x0), 0.0..5.0, &o).unwrap())
    });
    group.finish();

    rattleback_report();
    let rb = Rattleback::default();
    let rb0 = rattleback_start(&rb);
    let o = rattleback_options();
    let mut group = c.benchmark_group("simulate_rattleback");
    group.bench_function("rattleback_10s", |b| {
        b.iter(|| simulate(black_box(&rb), black_box(&rb0), 0.0..RATTLEBACK_T1, &o).unwrap())
    });
    group.finish();
}

criterion_group! {
    name = simulate_group;
    // Quick: the machine is small and shared.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}

fn main() {
    simulate_group();
    Criterion::default().configure_from_args().final_summary();
}
