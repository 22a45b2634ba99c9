//! The callbacks IPOPT calls: each reads its arrays (of the lengths IPOPT documents) as
//! slices and calls the same [`NlpProblem`] method ripopt would, a panic inside kept for
//! [`solve`](super::solve) to raise again once IPOPT has returned.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use ripopt::NlpProblem;

use super::ffi::{Bool, Index, Number};

/// The problem and what the callbacks keep between IPOPT's calls (the user data).
pub(super) struct Calls<'a, P: NlpProblem> {
    pub(super) nlp: &'a P,
    pub(super) jac: (Vec<Index>, Vec<Index>),
    pub(super) hess: (Vec<Index>, Vec<Index>),
    pub(super) iterations: Cell<usize>,
    pub(super) mu: Cell<f64>,
    /// A panic in a callback (a user's cost), raised again once IPOPT has returned:
    /// unwinding through C is undefined.
    pub(super) panic: RefCell<Option<Box<dyn core::any::Any + Send>>>,
}

impl<P: NlpProblem> Calls<'_, P> {
    /// Runs a callback's body, `false` for IPOPT (an evaluation error) when it panics.
    fn guard(&self, f: impl FnOnce() -> bool) -> Bool {
        if self.panic.borrow().is_some() {
            return 0;
        }
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(ok) => Bool::from(ok),
            Err(p) => {
                *self.panic.borrow_mut() = Some(p);
                0
            }
        }
    }
}

/// The calls' state behind IPOPT's user-data pointer.
///
/// # Safety
/// `data` is the `&Calls<P>` that [`solve`](super::solve) passed to `IpoptSolve`, alive for the call.
unsafe fn calls<'a, P: NlpProblem>(data: *mut c_void) -> &'a Calls<'a, P> {
    // SAFETY: the caller's contract.
    unsafe { &*(data as *const Calls<'a, P>) }
}

/// A slice of IPOPT's of length `len` (empty when IPOPT passes null).
///
/// # Safety
/// `p` is null or points to `len` numbers, alive and not aliased mutably meanwhile.
unsafe fn input<'a>(p: *const Number, len: Index) -> &'a [Number] {
    if p.is_null() || len <= 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts(p, len as usize) }
}

/// A mutable slice of IPOPT's of length `len` (empty when IPOPT passes null).
///
/// # Safety
/// `p` is null or points to `len` writable values no other reference sees meanwhile.
unsafe fn output<'a, T>(p: *mut T, len: Index) -> &'a mut [T] {
    if p.is_null() || len <= 0 {
        return &mut [];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts_mut(p, len as usize) }
}

pub(super) unsafe extern "C" fn eval_f<P: NlpProblem>(
    n: Index,
    x: *mut Number,
    new_x: Bool,
    obj: *mut Number,
    data: *mut c_void,
) -> Bool {
    // SAFETY: IPOPT passes x of length n, one objective value and our user data.
    unsafe {
        let s = calls::<P>(data);
        let (x, obj) = (input(x, n), &mut *obj);
        s.guard(|| s.nlp.objective(x, new_x != 0, obj))
    }
}

pub(super) unsafe extern "C" fn eval_grad_f<P: NlpProblem>(
    n: Index,
    x: *mut Number,
    new_x: Bool,
    grad: *mut Number,
    data: *mut c_void,
) -> Bool {
    // SAFETY: x and grad of length n.
    unsafe {
        let s = calls::<P>(data);
        let (x, grad) = (input(x, n), output(grad, n));
        s.guard(|| s.nlp.gradient(x, new_x != 0, grad))
    }
}

pub(super) unsafe extern "C" fn eval_g<P: NlpProblem>(
    n: Index,
    x: *mut Number,
    new_x: Bool,
    m: Index,
    g: *mut Number,
    data: *mut c_void,
) -> Bool {
    // SAFETY: x of length n, g of length m.
    unsafe {
        let s = calls::<P>(data);
        let (x, g) = (input(x, n), output(g, m));
        s.guard(|| s.nlp.constraints(x, new_x != 0, g))
    }
}

pub(super) unsafe extern "C" fn eval_jac_g<P: NlpProblem>(
    n: Index,
    x: *mut Number,
    new_x: Bool,
    _m: Index,
    nele: Index,
    rows: *mut Index,
    cols: *mut Index,
    values: *mut Number,
    data: *mut c_void,
) -> Bool {
    // SAFETY: the structure's arrays when values is null, else x (n) and values (nele).
    unsafe {
        let s = calls::<P>(data);
        if values.is_null() {
            output(rows, nele).copy_from_slice(&s.jac.0);
            output(cols, nele).copy_from_slice(&s.jac.1);
            return 1;
        }
        let (x, values) = (input(x, n), output(values, nele));
        s.guard(|| s.nlp.jacobian_values(x, new_x != 0, values))
    }
}

pub(super) unsafe extern "C" fn eval_h<P: NlpProblem>(
    n: Index,
    x: *mut Number,
    new_x: Bool,
    obj_factor: Number,
    m: Index,
    lambda: *mut Number,
    _new_lambda: Bool,
    nele: Index,
    rows: *mut Index,
    cols: *mut Index,
    values: *mut Number,
    data: *mut c_void,
) -> Bool {
    // SAFETY: as eval_jac_g, with lambda of length m.
    unsafe {
        let s = calls::<P>(data);
        if values.is_null() {
            output(rows, nele).copy_from_slice(&s.hess.0);
            output(cols, nele).copy_from_slice(&s.hess.1);
            return 1;
        }
        let (x, lambda, values) = (input(x, n), input(lambda, m), output(values, nele));
        s.guard(|| {
            s.nlp
                .hessian_values(x, new_x != 0, obj_factor, lambda, values)
        })
    }
}

pub(super) unsafe extern "C" fn intermediate<P: NlpProblem>(
    _mode: Index,
    iteration: Index,
    _obj: Number,
    _inf_pr: Number,
    _inf_du: Number,
    mu: Number,
    _d_norm: Number,
    _regularization: Number,
    _alpha_du: Number,
    _alpha_pr: Number,
    _ls_trials: Index,
    data: *mut c_void,
) -> Bool {
    // SAFETY: our user data.
    let s = unsafe { calls::<P>(data) };
    s.iterations.set(iteration.max(0) as usize);
    s.mu.set(mu);
    // a callback that panicked stops the run
    Bool::from(s.panic.borrow().is_none())
}
