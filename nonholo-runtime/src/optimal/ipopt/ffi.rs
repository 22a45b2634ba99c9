//! IPOPT's C interface (`IpStdCInterface.h`, unchanged from 3.9 to 3.14): its types, the
//! callbacks' signatures and the functions of `-lipopt` that [`solve`](super::solve) calls.

use core::ffi::{c_char, c_int, c_void};

pub(super) type Number = f64;
pub(super) type Index = c_int;
pub(super) type Bool = c_int;

#[repr(C)]
pub(super) struct IpoptProblemInfo {
    _opaque: [u8; 0],
}

pub(super) type EvalF =
    unsafe extern "C" fn(Index, *mut Number, Bool, *mut Number, *mut c_void) -> Bool;
pub(super) type EvalGradF =
    unsafe extern "C" fn(Index, *mut Number, Bool, *mut Number, *mut c_void) -> Bool;
pub(super) type EvalG =
    unsafe extern "C" fn(Index, *mut Number, Bool, Index, *mut Number, *mut c_void) -> Bool;
pub(super) type EvalJacG = unsafe extern "C" fn(
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
pub(super) type EvalH = unsafe extern "C" fn(
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
pub(super) type Intermediate = unsafe extern "C" fn(
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
    pub(super) fn CreateIpoptProblem(
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
    pub(super) fn FreeIpoptProblem(problem: *mut IpoptProblemInfo);
    pub(super) fn AddIpoptStrOption(
        problem: *mut IpoptProblemInfo,
        key: *mut c_char,
        val: *mut c_char,
    ) -> Bool;
    pub(super) fn AddIpoptNumOption(
        problem: *mut IpoptProblemInfo,
        key: *mut c_char,
        val: Number,
    ) -> Bool;
    pub(super) fn AddIpoptIntOption(
        problem: *mut IpoptProblemInfo,
        key: *mut c_char,
        val: c_int,
    ) -> Bool;
    pub(super) fn SetIntermediateCallback(problem: *mut IpoptProblemInfo, cb: Intermediate)
        -> Bool;
    pub(super) fn IpoptSolve(
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
