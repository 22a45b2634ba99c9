//! The generated right-hand sides and their Jacobian-vector products allocate nothing per
//! call (a counting global allocator).

use nonholo::models::{ParallelPoints, RollingDiskPendulum, Skate, WhippleBicycle};
use nonholo::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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
