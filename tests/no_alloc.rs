//! The generated right-hand sides allocate nothing per call (a counting global allocator).

use nonholo::models::{ParallelPoints, RollingDiskPendulum, Skate};
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
    let before = allocations();
    for i in 0..1000 {
        m.rhs(i as f64 * 1e-3, state, d.as_mut()).expect("rhs");
        let (q, z) = state.split_at(M::NQ);
        let mut qd = M::ZERO_STATE;
        m.qdot(0.0, q, z, &mut qd.as_mut()[..M::NQ]).expect("qdot");
        let _ = m.energy(0.0, state).expect("energy");
    }
    allocations() - before
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
