//! The generated right-hand sides and their Jacobian-vector products allocate nothing per
//! call, nor do the explicit integrators per step (a counting global allocator).

use nonholo::models::{DiffDriveRobot, ParallelPoints, RollingDiskPendulum, Skate, WhippleBicycle};
use nonholo::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

thread_local! {
    // Per thread: the test harness's other threads (output capture, other tests) allocate
    // concurrently, and a process-wide count made this test flaky.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    // Set on the threads of the pool of `the_hessians_threads_allocate_nothing`, whose
    // allocations go to `POOL_ALLOCATIONS` as well.
    static IN_POOL: Cell<bool> = const { Cell::new(false) };
}

/// The allocations of every thread of that pool.
static POOL_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        if IN_POOL.try_with(Cell::get).unwrap_or(false) {
            POOL_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count<M: Model>(m: &M, state: &[f64]) -> usize {
    let mut d = M::ZERO_STATE;
    let np = M::PARAMETERS.len();
    let mut dp = vec![0.0; np];
    let before = allocations();
    for i in 0..1000 {
        m.rhs(i as f64 * 1e-3, state, d.as_mut()).expect("rhs");
        let (q, z) = state.split_at(M::NQ);
        let mut qd = M::ZERO_STATE;
        m.qdot(0.0, q, z, &mut qd.as_mut()[..M::NQ]).expect("qdot");
        let _ = m.energy(0.0, state).expect("energy");
        // the Jacobian-vector products (every Newton iteration of an implicit method)
        let mut v = M::ZERO_STATE;
        v.as_mut()[i % M::DIM] = 1.0;
        m.rhs_jvp(0.0, state, v.as_ref(), d.as_mut())
            .expect("rhs_jvp");
        dp.iter_mut().for_each(|x| *x = 0.0);
        dp[i % np] = 1.0;
        m.rhs_param_jvp(0.0, state, &dp, d.as_mut())
            .expect("rhs_param_jvp");
    }
    allocations() - before
}

/// Allocations of 1000 calls of `rhs_generic`, `qdot_generic` and `energy_generic` of the
/// model type `$t` in the scalar `$s` at `state`.
macro_rules! count_generic {
    ($t:ty, $s:ty, $state:expr) => {{
        let m = <$t>::default().cast::<$s>();
        let state: [$s; <$t as Model>::DIM] = $state.map(<$s as Scalar>::from_f64);
        let mut d = state;
        let mut qd = [<$s as Scalar>::from_f64(0.0); <$t as Model>::NQ];
        let t = <$s as Scalar>::from_f64(0.1);
        let before = allocations();
        for _ in 0..1000 {
            m.rhs_generic(t, &state, &mut d).expect("rhs_generic");
            let (q, z) = state.split_at(<$t as Model>::NQ);
            m.qdot_generic(t, q, z, &mut qd).expect("qdot_generic");
            let _ = m.energy_generic(t, &state).expect("energy_generic");
        }
        allocations() - before
    }};
}

/// Every scalar: f32, f64 through the generic path, Dual64, HyperDual64.
#[test]
fn generic_rhs_does_not_allocate_in_any_scalar() {
    use nonholo::num_dual::{Dual64, HyperDual64};
    let skate = [0.1, 0.2, 0.3, 1.0, 0.5];
    let unicycle = [0.0, 0.0, 0.1, 0.2, 0.1, -0.1, 1.0, 0.5, 0.1, 0.2];
    let points = [0.0, 0.0, 1.0, 0.0, 1.0, -0.5, 0.8];
    assert_eq!(count_generic!(Skate, f32, skate), 0);
    assert_eq!(count_generic!(Skate, f64, skate), 0);
    assert_eq!(count_generic!(Skate, Dual64, skate), 0);
    assert_eq!(count_generic!(Skate, HyperDual64, skate), 0);
    assert_eq!(count_generic!(RollingDiskPendulum, f32, unicycle), 0);
    assert_eq!(count_generic!(RollingDiskPendulum, Dual64, unicycle), 0);
    assert_eq!(
        count_generic!(RollingDiskPendulum, HyperDual64, unicycle),
        0
    );
    assert_eq!(count_generic!(ParallelPoints, f32, points), 0);
    assert_eq!(count_generic!(ParallelPoints, Dual64, points), 0);
    let mut bike = [0.0; WhippleBicycle::DIM];
    WhippleBicycle::default()
        .solve_configuration(0.0, &mut bike[..WhippleBicycle::NQ])
        .expect("upright");
    bike[WhippleBicycle::NQ + 1] = -10.0;
    assert_eq!(count_generic!(WhippleBicycle, f32, bike), 0);
    assert_eq!(count_generic!(WhippleBicycle, Dual64, bike), 0);
}

#[test]
fn rhs_qdot_and_energy_do_not_allocate() {
    assert_eq!(count(&Skate::default(), &[0.1, 0.2, 0.3, 1.0, 0.5]), 0);
    assert_eq!(
        count(
            &ParallelPoints::default(),
            &[0.0, 0.0, 1.0, 0.0, 1.0, -0.5, 0.8]
        ),
        0
    );
    assert_eq!(
        count(
            &RollingDiskPendulum::default(),
            &[0.0, 0.0, 0.1, 0.2, 0.1, -0.1, 1.0, 0.5, 0.1, 0.2]
        ),
        0
    );
}

/// Allocations of one `simulate` run of the skate over `0..t1` that records a single
/// sample, at `t1`, and the steps it took (from a run that records every step).
fn run_allocations(method: Method, t1: f64) -> (usize, usize) {
    let skate = Skate::default();
    let s0 = [0.0, 0.0, 0.0, 1.0, 0.7];
    let o = Options::default().method(method);
    let steps = simulate(&skate, &s0, 0.0..t1, &o).expect("run").len() - 1;
    let one_sample = o.sample_times(vec![t1]);
    let before = allocations();
    let tr = simulate(&skate, &s0, 0.0..t1, &one_sample).expect("run");
    let n = allocations() - before;
    drop(tr);
    (n, steps)
}

#[test]
fn explicit_steps_allocate_nothing() {
    // A run allocates its buffers once: 10x the steps, the same allocations. (diffsol's
    // implicit methods allocate now and then, about once per 20-40 steps: printed only.)
    for method in [Method::Tsit45, Method::Dop853] {
        let (short, short_steps) = run_allocations(method, 1.0);
        let (long, long_steps) = run_allocations(method, 100.0);
        println!("{method:?}: {short} allocations in {short_steps} steps, {long} in {long_steps}");
        assert!(long_steps > 10 * short_steps);
        assert_eq!(short, long, "{method:?}");
    }
    for method in [Method::Bdf, Method::Esdirk34] {
        let (a, b) = (run_allocations(method, 1.0), run_allocations(method, 100.0));
        println!("{method:?}: (allocations, steps) {a:?} over 1 s, {b:?} over 100 s");
    }
}

/// Allocations of one `simulate_hybrid` run over `0..t1` of the robot with its wheels spun
/// and its chassis turning on nearly frictionless ground (all three slide throughout) that records a single sample, and
/// the steps it took.
fn sliding_allocations(t1: f64) -> (usize, usize) {
    let robot = DiffDriveRobot {
        mu: 0.001,
        ..DiffDriveRobot::default()
    };
    let (q0, qd0) = ([0.0; 7], [0.5, 0.0, 2.0, 20.0, 14.0, 0.0, 0.0]);
    let o = Options::default().rtol(1e-10).atol(1e-12);
    let tr = simulate_hybrid(&robot, &q0, &qd0, 0.0..t1, &o).expect("run");
    assert!(tr.events().is_empty(), "{:?}", tr.events());
    assert!((0..tr.len()).all(|i| tr.sliding(i).unwrap().iter().all(|s| *s)));
    let steps = tr.len() - 1;
    let one_sample = o.sample_times(vec![t1]);
    let before = allocations();
    let tr = simulate_hybrid(&robot, &q0, &qd0, 0.0..t1, &one_sample).expect("run");
    let n = allocations() - before;
    drop(tr);
    (n, steps)
}

#[test]
fn sliding_steps_allocate_nothing() {
    // the sliding phases' field (the released model, its LU and the balance) allocates its
    // scratch once per phase
    let (short, short_steps) = sliding_allocations(0.5);
    let (long, long_steps) = sliding_allocations(5.0);
    println!("{short} allocations in {short_steps} steps, {long} in {long_steps}");
    assert!(long_steps > 5 * short_steps);
    assert_eq!(short, long);
}

/// The per-step calls of control and geometry: `rhs_u`, `rhs_u_jvp`, `jacobians`,
/// `point_positions`, `frame_orientations`, `point_velocities` and `position` of the
/// Whipple bicycle, 1000 calls each.
#[test]
fn inputs_jacobians_and_geometry_do_not_allocate() {
    const N: usize = WhippleBicycle::DIM;
    let bike = WhippleBicycle::default();
    let mut x = [0.0; N];
    bike.solve_configuration(0.0, &mut x[..WhippleBicycle::NQ])
        .expect("upright");
    x[WhippleBicycle::NQ + 1] = -10.0;
    let u = [0.1, -0.2, 0.3];
    let (mut d, mut a, mut b) = ([0.0; N], [0.0; N * N], [0.0; N * 3]);
    let mut p = [[0.0; 3]; WhippleBicycle::POINTS.len()];
    let mut r = [[[0.0; 3]; 3]; WhippleBicycle::FRAMES.len()];
    let before = allocations();
    for i in 0..1000 {
        bike.rhs_u(0.0, &x, &u, &mut d).expect("rhs_u");
        let mut v = [0.0; N];
        v[i % N] = 1.0;
        bike.rhs_u_jvp(0.0, &x, &u, &v, &mut d).expect("rhs_u_jvp");
        bike.jacobians(0.0, &x, &u, &mut a, &mut b)
            .expect("jacobians");
        let q = &x[..WhippleBicycle::NQ];
        bike.point_positions(0.0, q, &mut p).expect("positions");
        bike.frame_orientations(0.0, q, &mut r)
            .expect("orientations");
        bike.point_velocities(0.0, &x, &mut p).expect("velocities");
        let _ = bike
            .position("front_wheel.contact", 0.0, q)
            .expect("position");
    }
    assert_eq!(allocations() - before, 0);
}

/// The optimal-control program's evaluations (objective, gradient, constraints, Jacobian,
/// exact Hessian) allocate nothing: eleven rounds allocate what one does (the program's
/// construction), once the thread's tape has grown.
#[test]
fn optimal_control_evaluations_allocate_nothing() {
    use nonholo::optimal::{Problem, Scheme};
    let robot = DiffDriveRobot::default();
    for scheme in [Scheme::Trapezoidal, Scheme::HermiteSimpson] {
        let p = Problem::new(&robot, 6)
            .scheme(scheme)
            .duration(2.0)
            .free_duration(1.0, 3.0)
            .initial_state(&[0.0; 9])
            .final_coordinates(&[("x", 0.5)])
            .minimize_input_effort(&[1.0, 1.0]);
        // the thread's tape (the exact Hessian's recordings) keeps its capacity from one
        // problem to the next: a first round grows it
        p.__evaluate(1).unwrap();
        let before = allocations();
        p.__evaluate(1).unwrap();
        let one = allocations() - before;
        let before = allocations();
        p.__evaluate(11).unwrap();
        let eleven = allocations() - before;
        assert_eq!(
            eleven, one,
            "{scheme:?}: {one} allocations for one round, {eleven} for eleven"
        );
    }
}

/// The same with the Hessian's points shared among two threads (four runs, as a large
/// program has them on rayon's threads): no thread allocates per round, once every
/// thread's tape has grown. The pool is the test's own, so that only its threads count.
#[test]
fn the_hessians_threads_allocate_nothing() {
    use nonholo::optimal::{Problem, Scheme};
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(|_| IN_POOL.with(|f| f.set(true)))
        .build()
        .unwrap();
    let robot = DiffDriveRobot::default();
    pool.install(|| {
        let p = Problem::new(&robot, 8)
            .scheme(Scheme::HermiteSimpson)
            .duration(2.0)
            .free_duration(1.0, 3.0)
            .initial_state(&[0.0; 9])
            .final_coordinates(&[("x", 0.5)])
            .minimize_input_effort(&[1.0, 1.0]);
        // every thread records every kind of point (the last node's terminal terms) while
        // the runs are shared out as the threads wake
        p.__evaluate_in_runs(40, 4).unwrap();
        let count = |times: usize| {
            let before = POOL_ALLOCATIONS.load(Ordering::Relaxed);
            p.__evaluate_in_runs(times, 4).unwrap();
            POOL_ALLOCATIONS.load(Ordering::Relaxed) - before
        };
        let (one, eleven) = (count(1), count(11));
        assert_eq!(
            eleven, one,
            "{one} allocations for one round, {eleven} for eleven"
        );
    });
}
