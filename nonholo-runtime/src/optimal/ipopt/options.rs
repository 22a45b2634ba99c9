//! Options for IPOPT: the values of its own options ([`IpoptValue`]) and ripopt's options
//! under IPOPT's names ([`translate`]).

use alloc::vec;
use alloc::vec::Vec;
use core::ffi::{c_int, CStr};
use std::ffi::CString;

use ripopt::SolverOptions;

/// An option's value for IPOPT.
#[derive(Clone, Copy)]
pub(super) enum Value<'a> {
    Num(f64),
    Int(c_int),
    Str(&'a CStr),
}

/// The value of an option of IPOPT's own ([`Problem::ipopt_option`]): a number, an
/// integer or a string, as IPOPT's documentation gives the option's kind.
///
/// [`Problem::ipopt_option`]: crate::optimal::Problem::ipopt_option
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
    pub(super) fn value(&self) -> Option<Value<'_>> {
        match self {
            IpoptValue::Num(v) => Some(Value::Num(*v)),
            IpoptValue::Int(v) => Some(Value::Int(*v)),
            IpoptValue::Str(v) => v.as_deref().map(Value::Str),
        }
    }
}

/// ripopt's options under IPOPT's names, those that both solvers have; `warm`: the
/// multipliers' start was given, so IPOPT begins from them (`warm_start_init_point`).
pub(super) fn translate(o: &SolverOptions, warm: bool) -> Vec<(&'static CStr, Value<'static>)> {
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
