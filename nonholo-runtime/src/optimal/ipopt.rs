//! The program handed to a system-library IPOPT (feature `ipopt`):
//! [`Solver::Ipopt`](super::Solver::Ipopt).
//!
//! IPOPT's C interface (`IpStdCInterface.h`, unchanged from 3.9 to 3.14, declared in
//! [`ffi`]): the problem's callbacks ([`callbacks`]) are the same [`NlpProblem`] methods
//! ripopt calls, so both solvers see one program, one Jacobian and one exact Hessian;
//! ripopt's options reach IPOPT under its names and IPOPT's own beside them ([`options`]).
//! The library is linked as `-lipopt` (Debian's `coinor-libipopt-dev`, with MUMPS;
//! elsewhere `RUSTFLAGS="-L <dir>"`).
//!
//! This module is the crate's only `unsafe` code: the extern declarations, their calls
//! here, and the callbacks' raw pointers, each of which IPOPT documents as an array of the
//! length it passes.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::ffi::c_int;
use std::ffi::CString;
use std::panic::resume_unwind;

use ripopt::{NlpProblem, SolverOptions};

use super::nlp::Outcome;
use super::solution::Duals;
use crate::Error;
use callbacks::{eval_f, eval_g, eval_grad_f, eval_h, eval_jac_g, intermediate, Calls};
use ffi::{
    AddIpoptIntOption, AddIpoptNumOption, AddIpoptStrOption, CreateIpoptProblem, FreeIpoptProblem,
    Index, IpoptProblemInfo, IpoptSolve, SetIntermediateCallback,
};
use options::{translate, Value};

mod callbacks;
mod ffi;
mod options;

pub use options::IpoptValue;

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
