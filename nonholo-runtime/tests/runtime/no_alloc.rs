//! `rk4_step` must not touch the heap (a counting global allocator checks it).

use crate::common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use common::{Oscillator, Unicycle};
use nonholo_runtime::rk4_step;

struct Counting;

thread_local! {
    // Per thread: the test harness's other threads (output capture, other tests) allocate
    // concurrently, and a process-wide count made this test flaky.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn rk4_step_does_not_allocate() {
    let osc = Oscillator::new(1.0, 4.0);
    let uni = Unicycle { p: [1.0, 1.0] };
    let mut a = [1.0, 0.0];
    let mut b = [0.0, 0.0, 0.1, 1.0, 0.5];
    let before = allocations();
    for i in 0..1000 {
        let t = i as f64 * 1e-3;
        rk4_step(&osc, t, &mut a, 1e-3).unwrap();
        rk4_step(&uni, t, &mut b, 1e-3).unwrap();
    }
    let after = allocations();
    assert_eq!(after - before, 0);
    assert!((a[0] - 2.0f64.cos()).abs() < 1e-10);
}

/// Allocations of one `simulate_controlled` run of the forced oscillator over `0..t_end`
/// with a single sample at the end, sampled every 0.01 s (`period`) or under continuous
/// feedback, the force switching sign at every instant (so that every method restarts).
#[cfg(feature = "diffsol")]
fn controlled_run_allocations(method: nonholo_runtime::Method, period: bool, t_end: f64) -> usize {
    use nonholo_runtime::__private::doc_models::ForcedOscillator;
    use nonholo_runtime::{simulate_controlled, Options};
    let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    let mut sign = 1.0;
    let mut law = |_t: f64, x: &[f64], u: &mut [f64]| {
        u[0] = -x[0] - 0.5 * x[1] + sign;
        if period {
            sign = -sign;
        }
    };
    let mut o = Options::default()
        .method(method)
        .rtol(1e-8)
        .atol(1e-8)
        .sample_times(vec![t_end]);
    if period {
        o = o.control_period(0.01);
    }
    let before = allocations();
    let tr = simulate_controlled(&osc, &mut law, &[1.0, 0.0], 0.0..t_end, &o).unwrap();
    let n = allocations() - before;
    assert_eq!(tr.len(), 1);
    n
}

#[cfg(feature = "diffsol")]
#[test]
fn controlled_runs_allocate_nothing_per_step_or_per_control_period() {
    use nonholo_runtime::Method;
    // 100 and 1000 control periods (and as many restarts): the same allocations, all made
    // before the first step, for the methods stepped without diffsol's matrices.
    for method in [
        Method::Tsit45,
        Method::Dop853,
        Method::Bdf,
        Method::Esdirk34,
    ] {
        for period in [true, false] {
            let short = controlled_run_allocations(method, period, 1.0);
            let long = controlled_run_allocations(method, period, 10.0);
            println!(
                "{method:?}, {}: {short} allocations over 1 s, {long} over 10 s",
                if period {
                    "sampled at 100 Hz"
                } else {
                    "continuous"
                }
            );
            if matches!(method, Method::Tsit45 | Method::Dop853) {
                assert_eq!(short, long, "{method:?}, period {period}");
            }
        }
        // for reference: the open-loop run (diffsol's implicit methods allocate when they
        // refactor their iteration matrix, nalgebra's LU)
        let open = |t_end: f64| {
            use nonholo_runtime::__private::doc_models::ForcedOscillator;
            use nonholo_runtime::{simulate, Options};
            let osc = ForcedOscillator { m: 1.0, k: 4.0 };
            let o = Options::default()
                .method(method)
                .rtol(1e-8)
                .atol(1e-8)
                .sample_times(vec![t_end]);
            let before = allocations();
            simulate(&osc, &[1.0, 0.0], 0.0..t_end, &o).unwrap();
            allocations() - before
        };
        let (short, long) = (open(1.0), open(10.0));
        println!("{method:?}, open loop: {short} allocations over 1 s, {long} over 10 s");
        if matches!(method, Method::Tsit45 | Method::Dop853) {
            assert_eq!(short, long, "{method:?}, open loop");
        }
    }
}
