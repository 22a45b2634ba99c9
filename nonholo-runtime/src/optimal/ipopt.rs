//! The program handed to a system-library IPOPT (feature `ipopt`):
//! [`Solver::Ipopt`](super::Solver::Ipopt).
//!
//! IPOPT's C interface (`IpStdCInterface.h`, unchanged from 3.9 to 3.14): the problem's
//! callbacks are the same [`NlpProblem`] methods ripopt calls, so both solvers see one
//! program, one Jacobian and one exact Hessian. The library is linked as `-lipopt`
//! (Debian's `coinor-libipopt-dev`, with MUMPS; elsewhere `RUSTFLAGS="-L <dir>"`).
//!
//! This is the crate's only `unsafe` code: the extern declarations, and the callbacks'
//! raw pointers, each of which IPOPT documents as an array of the length it passes.

use alloc::boxed::Box;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::ffi::{c_char, c_int, c_void, CStr};
use std::ffi::CString;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use ripopt::{NlpProblem, SolverOptions};

use super::nlp::Outcome;
use super::solution::Duals;
use crate::Error;

type Number = f64;
type Index = c_int;
type Bool = c_int;

#[repr(C)]
struct IpoptProblemInfo {
    _opaque: [u8; 0],
}

type EvalF = unsafe extern "C" fn(Index, *mut Number, Bool, *mut Number, *mut c_void) -> Bool;
type EvalGradF = unsafe extern "C" fn(Index, *mut Number, Bool, *mut Number, *mut c_void) -> Bool;
type EvalG =
    unsafe extern "C" fn(Index, *mut Number, Bool, Index, *mut Number, *mut c_void) -> Bool;
type EvalJacG = unsafe extern "C" fn(
    Index,
    *mut Number,
    Bool,
    Index,
    Index,
    *mut Index,
    *mut Index,
    *mut Number,
    *mut c_void,
) -> Bool;
type EvalH = unsafe extern "C" fn(
    Index,
    *mut Number,
    Bool,
    Number,
    Index,
    *mut Number,
    Bool,
    Index,
    *mut Index,
    *mut Index,
    *mut Number,
    *mut c_void,
) -> Bool;
type Intermediate = unsafe extern "C" fn(
    Index,
    Index,
    Number,
    Number,
    Number,
    Number,
    Number,
    Number,
    Number,
    Number,
    Index,
    *mut c_void,
) -> Bool;

#[link(name = "ipopt")]
unsafe extern "C" {
    fn CreateIpoptProblem(
        n: Index,
        x_l: *mut Number,
        x_u: *mut Number,
        m: Index,
        g_l: *mut Number,
        g_u: *mut Number,
        nele_jac: Index,
        nele_hess: Index,
        index_style: Index,
        eval_f: EvalF,
        eval_g: EvalG,
        eval_grad_f: EvalGradF,
        eval_jac_g: EvalJacG,
        eval_h: EvalH,
    ) -> *mut IpoptProblemInfo;
    fn FreeIpoptProblem(problem: *mut IpoptProblemInfo);
    fn AddIpoptStrOption(
        problem: *mut IpoptProblemInfo,
        key: *mut c_char,
        val: *mut c_char,
    ) -> Bool;
    fn AddIpoptNumOption(problem: *mut IpoptProblemInfo, key: *mut c_char, val: Number) -> Bool;
    fn AddIpoptIntOption(problem: *mut IpoptProblemInfo, key: *mut c_char, val: c_int) -> Bool;
    fn SetIntermediateCallback(problem: *mut IpoptProblemInfo, cb: Intermediate) -> Bool;
    fn IpoptSolve(
        problem: *mut IpoptProblemInfo,
        x: *mut Number,
        g: *mut Number,
        obj_val: *mut Number,
        mult_g: *mut Number,
        mult_x_l: *mut Number,
        mult_x_u: *mut Number,
        user_data: *mut c_void,
    ) -> c_int;
}

/// The problem and what the callbacks keep between IPOPT's calls (the user data).
struct Calls<'a, P: NlpProblem> {
    nlp: &'a P,
    jac: (Vec<Index>, Vec<Index>),
    hess: (Vec<Index>, Vec<Index>),
    iterations: Cell<usize>,
    mu: Cell<f64>,
    /// A panic in a callback (a user's cost), raised again once IPOPT has returned:
    /// unwinding through C is undefined.
    panic: RefCell<Option<Box<dyn core::any::Any + Send>>>,
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
/// `data` is the `&Calls<P>` that [`solve`] passed to `IpoptSolve`, alive for the call.
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

unsafe extern "C" fn eval_f<P: NlpProblem>(
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

unsafe extern "C" fn eval_grad_f<P: NlpProblem>(
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

unsafe extern "C" fn eval_g<P: NlpProblem>(
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

unsafe extern "C" fn eval_jac_g<P: NlpProblem>(
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

unsafe extern "C" fn eval_h<P: NlpProblem>(
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

unsafe extern "C" fn intermediate<P: NlpProblem>(
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

/// An option's value for IPOPT.
#[derive(Clone, Copy)]
enum Value<'a> {
    Num(f64),
    Int(c_int),
    Str(&'a CStr),
}

/// The value of an option of IPOPT's own ([`Problem::ipopt_option`]): a number, an
/// integer or a string, as IPOPT's documentation gives the option's kind.
///
/// [`Problem::ipopt_option`]: super::Problem::ipopt_option
#[derive(Debug, Clone, PartialEq)]
pub enum IpoptValue {
    /// A real number (`tol`, `mu_init`, ...).
    Num(f64),
    /// An integer (`max_iter`, `print_level`, ...).
    Int(i32),
    /// A string (`mu_strategy`, `linear_solver`, ...); `None` when it held a NUL byte.
    Str(Option<CString>),
}

impl From<f64> for IpoptValue {
    fn from(v: f64) -> Self {
        IpoptValue::Num(v)
    }
}

impl From<i32> for IpoptValue {
    fn from(v: i32) -> Self {
        IpoptValue::Int(v)
    }
}

impl From<&str> for IpoptValue {
    fn from(v: &str) -> Self {
        IpoptValue::Str(CString::new(v).ok())
    }
}

impl IpoptValue {
    /// The value IPOPT is given (`None`: a string with a NUL byte, which it cannot be).
    fn value(&self) -> Option<Value<'_>> {
        match self {
            IpoptValue::Num(v) => Some(Value::Num(*v)),
            IpoptValue::Int(v) => Some(Value::Int(*v)),
            IpoptValue::Str(v) => v.as_deref().map(Value::Str),
        }
    }
}

/// ripopt's options under IPOPT's names, those that both solvers have; `warm`: the
/// multipliers' start was given, so IPOPT begins from them (`warm_start_init_point`).
fn translate(o: &SolverOptions, warm: bool) -> Vec<(&'static CStr, Value<'static>)> {
    use Value::{Int, Num, Str};
    let mut v = vec![
        // without it IPOPT prints its banner even at print level 0
        (c"sb", Str(c"yes")),
        (c"print_level", Int(c_int::from(o.print_level.min(12)))),
        (c"tol", Num(o.tol)),
        (c"constr_viol_tol", Num(o.constr_viol_tol)),
        (c"dual_inf_tol", Num(o.dual_inf_tol)),
        (c"compl_inf_tol", Num(o.compl_inf_tol)),
        (
            c"acceptable_iter",
            Int(o.acceptable_iter.min(c_int::MAX as usize) as c_int),
        ),
        (
            c"max_iter",
            Int(o.max_iter.min(c_int::MAX as usize) as c_int),
        ),
        (c"bound_push", Num(o.bound_push)),
        (c"bound_frac", Num(o.bound_frac)),
        (
            c"mu_strategy",
            Str(if o.mu_strategy_adaptive {
                c"adaptive"
            } else {
                c"monotone"
            }),
        ),
        (
            c"mu_oracle",
            Str(if o.mu_oracle_quality_function {
                c"quality-function"
            } else {
                c"loqo"
            }),
        ),
        (
            c"hessian_approximation",
            Str(if o.hessian_approximation_lbfgs {
                c"limited-memory"
            } else {
                c"exact"
            }),
        ),
    ];
    if o.max_wall_time > 0.0 {
        v.push((c"max_cpu_time", Num(o.max_wall_time)));
    }
    if !o.least_squares_mult_init {
        // the constraints' multipliers start at zero, not at their least-squares estimate
        v.push((c"constr_mult_init_max", Num(0.0)));
    }
    match (warm, o.warm_start_target_mu) {
        (true, mu) => {
            v.push((c"warm_start_init_point", Str(c"yes")));
            v.push((c"warm_start_bound_push", Num(o.warm_start_bound_push)));
            v.push((c"warm_start_bound_frac", Num(o.warm_start_bound_frac)));
            v.push((
                c"warm_start_mult_bound_push",
                Num(o.warm_start_mult_bound_push),
            ));
            v.push((c"mu_init", Num(mu.unwrap_or(o.mu_init))));
        }
        (false, _) => v.push((c"mu_init", Num(o.mu_init))),
    }
    v
}

/// IPOPT's `ApplicationReturnStatus`: its name, and whether it is an optimum (`Some(true)`
/// solved, `Some(false)` acceptable).
fn status(code: c_int) -> (Option<bool>, &'static str) {
    match code {
        0 => (Some(true), "Solve_Succeeded"),
        1 => (Some(false), "Solved_To_Acceptable_Level"),
        2 => (None, "Infeasible_Problem_Detected"),
        3 => (None, "Search_Direction_Becomes_Too_Small"),
        4 => (None, "Diverging_Iterates"),
        5 => (None, "User_Requested_Stop"),
        6 => (None, "Feasible_Point_Found"),
        -1 => (None, "Maximum_Iterations_Exceeded"),
        -2 => (None, "Restoration_Failed"),
        -3 => (None, "Error_In_Step_Computation"),
        -4 => (None, "Maximum_CpuTime_Exceeded"),
        -10 => (None, "Not_Enough_Degrees_Of_Freedom"),
        -11 => (None, "Invalid_Problem_Definition"),
        -12 => (None, "Invalid_Option"),
        -13 => (None, "Invalid_Number_Detected"),
        -100 => (None, "Unrecoverable_Exception"),
        -101 => (None, "NonIpopt_Exception_Thrown"),
        -102 => (None, "Insufficient_Memory"),
        _ => (None, "Internal_Error"),
    }
}

/// An index for IPOPT (a C `int`).
fn index(i: usize, what: &str) -> Result<Index, Error> {
    Index::try_from(i)
        .map_err(|_| Error::InvalidOptions(format!("{what} ({i}) is more than IPOPT can index")))
}

/// One IPOPT run at a time in the process: MUMPS's sequential build (Debian's, and most
/// IPOPT builds') keeps global state, and two runs on two threads corrupt each other's
/// heap (seen as `free(): invalid pointer` from the parallel test harness).
static ONE_RUN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Solves `nlp` with IPOPT under `options` (translated, see [`translate`]), starting the
/// multipliers from `warm` where given (full length: IPOPT keeps fixed variables).
pub(crate) fn solve<P: NlpProblem>(
    nlp: &P,
    options: &SolverOptions,
    own: &[(CString, IpoptValue)],
    warm: Option<&Duals>,
) -> Result<Outcome, Error> {
    let (n, m) = (nlp.num_variables(), nlp.num_constraints());
    let (mut x_l, mut x_u) = (vec![0.0; n], vec![0.0; n]);
    nlp.bounds(&mut x_l, &mut x_u);
    let (mut g_l, mut g_u) = (vec![0.0; m], vec![0.0; m]);
    nlp.constraint_bounds(&mut g_l, &mut g_u);
    let mut x = vec![0.0; n];
    nlp.initial_point(&mut x);
    let ints = |v: Vec<usize>| -> Result<Vec<Index>, Error> {
        v.into_iter().map(|i| index(i, "an index")).collect()
    };
    let (jr, jc) = nlp.jacobian_structure();
    let (hr, hc) = if options.hessian_approximation_lbfgs {
        (Vec::new(), Vec::new())
    } else {
        let (r, c) = nlp.hessian_structure();
        // IPOPT reads one triangle: each entry as (row >= column)
        r.iter()
            .zip(&c)
            .map(|(&a, &b)| (a.max(b), a.min(b)))
            .unzip()
    };
    let calls = Calls {
        nlp,
        jac: (ints(jr)?, ints(jc)?),
        hess: (ints(hr)?, ints(hc)?),
        iterations: Cell::new(0),
        mu: Cell::new(options.mu_init),
        panic: RefCell::new(None),
    };
    let (ni, mi) = (index(n, "the variables")?, index(m, "the constraints")?);
    // a run that panicked released the lock as it unwound: nothing it guards is left torn
    let one = ONE_RUN.lock().unwrap_or_else(|e| e.into_inner());
    let nele_jac = index(calls.jac.0.len(), "the Jacobian's entries")?;
    let nele_hess = index(calls.hess.0.len(), "the Hessian's entries")?;
    // SAFETY: the arrays have the lengths IPOPT is told; it copies the bounds.
    let problem = unsafe {
        CreateIpoptProblem(
            ni,
            x_l.as_mut_ptr(),
            x_u.as_mut_ptr(),
            mi,
            g_l.as_mut_ptr(),
            g_u.as_mut_ptr(),
            nele_jac,
            nele_hess,
            0,
            eval_f::<P>,
            eval_g::<P>,
            eval_grad_f::<P>,
            eval_jac_g::<P>,
            eval_h::<P>,
        )
    };
    if problem.is_null() {
        return Err(Error::InvalidOptions(
            "IPOPT refused the program (CreateIpoptProblem returned null)".into(),
        ));
    }
    /// Frees the problem on every way out.
    struct Owned(*mut IpoptProblemInfo);
    impl Drop for Owned {
        fn drop(&mut self) {
            // SAFETY: created above, freed once.
            unsafe { FreeIpoptProblem(self.0) }
        }
    }
    let problem = Owned(problem);
    // the translated options, then the user's own (set later, so theirs prevail)
    let translated = translate(options, warm.is_some());
    let translated = translated.iter().map(|(k, v)| (*k, Some(*v), None));
    let given = own.iter().map(|(k, v)| (k.as_c_str(), v.value(), Some(v)));
    for (key, value, user) in translated.chain(given) {
        let k = key.as_ptr().cast_mut();
        // SAFETY: NUL-terminated strings IPOPT copies.
        let ok = value.is_some_and(|value| unsafe {
            match value {
                Value::Num(v) => AddIpoptNumOption(problem.0, k, v),
                Value::Int(v) => AddIpoptIntOption(problem.0, k, v),
                Value::Str(v) => AddIpoptStrOption(problem.0, k, v.as_ptr().cast_mut()),
            }
        } != 0);
        if !ok {
            let key = key.to_string_lossy();
            return Err(Error::InvalidOptions(match user {
                None => format!("IPOPT refused its option `{key}`"),
                Some(value) => format!(
                    "IPOPT refused the option `{key}` = {value:?} (an unknown name, a value \
                     of another kind or outside the option's range)"
                ),
            }));
        }
    }
    // SAFETY: the callback matches IPOPT's signature.
    unsafe { SetIntermediateCallback(problem.0, intermediate::<P>) };
    let mut g = vec![0.0; m];
    let mut objective = 0.0;
    let (mut y, mut z_l, mut z_u) = match warm {
        Some(d) if d.y.len() == m && d.z_l.len() == n && d.z_u.len() == n => {
            (d.y.clone(), d.z_l.clone(), d.z_u.clone())
        }
        _ => (vec![0.0; m], vec![0.0; n], vec![0.0; n]),
    };
    // SAFETY: every array has the length IPOPT was told; the state outlives the call.
    let code = unsafe {
        IpoptSolve(
            problem.0,
            x.as_mut_ptr(),
            g.as_mut_ptr(),
            &mut objective,
            y.as_mut_ptr(),
            z_l.as_mut_ptr(),
            z_u.as_mut_ptr(),
            (&calls as *const Calls<'_, P>).cast_mut().cast(),
        )
    };
    drop(problem);
    drop(one);
    if let Some(p) = calls.panic.take() {
        resume_unwind(p);
    }
    let (optimal, name) = status(code);
    Ok(Outcome {
        x,
        objective,
        optimal,
        status: name.into(),
        iterations: calls.iterations.get(),
        duals: Duals {
            y,
            z_l,
            z_u,
            mu: calls.mu.get(),
        },
    })
}
