//! `rk4_step` must not touch the heap (a counting global allocator checks it).

mod common;

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
