//! The program as the NLP solver sees it: [`Program`]'s values and first derivatives,
//! and the exact Hessian of [`HessianPlan`] or none (L-BFGS).

use super::cost::{Cost, PathConstraint};
use super::hessian::HessianPlan;
use super::solution::Duals;
use super::transcription::Program;
use crate::{Error, Model};
use alloc::string::String;
use alloc::vec::Vec;

/// What a run of either solver returns: the final iterate and how it ended.
pub(crate) struct Outcome {
    pub x: Vec<f64>,
    pub objective: f64,
    /// `Some(true)` optimal, `Some(false)` acceptable, `None` not solved.
    pub optimal: Option<bool>,
    /// The solver's status as it names it.
    pub status: String,
    pub iterations: usize,
    pub duals: Duals,
}

/// The program with its Hessian's plan (`None`: the solver's L-BFGS).
pub(crate) struct Nlp<'p, M: Model, C: Cost, P: PathConstraint> {
    pub program: Program<'p, M, C, P>,
    pub hessian: Option<HessianPlan>,
}

impl<M: Model, C: Cost, P: PathConstraint> Nlp<'_, M, C, P> {
    /// The first model error met while solving.
    pub fn take_error(&self) -> Option<Error> {
        let e = self.program.take_error();
        e.or_else(|| self.hessian.as_ref().and_then(|h| h.take_error()))
    }
}

impl<M: Model + Sync, C: Cost, P: PathConstraint> ripopt::NlpProblem for Nlp<'_, M, C, P> {
    fn num_variables(&self) -> usize {
        self.program.layout.variables()
    }
    fn num_constraints(&self) -> usize {
        self.program.layout.constraints()
    }
    fn bounds(&self, x_l: &mut [f64], x_u: &mut [f64]) {
        x_l.copy_from_slice(&self.program.x_lower);
        x_u.copy_from_slice(&self.program.x_upper);
    }
    fn constraint_bounds(&self, g_l: &mut [f64], g_u: &mut [f64]) {
        g_l.copy_from_slice(&self.program.g_lower);
        g_u.copy_from_slice(&self.program.g_upper);
    }
    fn initial_point(&self, x0: &mut [f64]) {
        x0.copy_from_slice(&self.program.start);
    }
    fn objective(&self, x: &[f64], _new_x: bool, obj: &mut f64) -> bool {
        *obj = self.program.objective(x);
        obj.is_finite()
    }
    fn gradient(&self, x: &[f64], _new_x: bool, grad: &mut [f64]) -> bool {
        self.program.gradient(x, grad);
        grad.iter().all(|g| g.is_finite())
    }
    fn constraints(&self, x: &[f64], _new_x: bool, g: &mut [f64]) -> bool {
        self.program.constraints(x, g)
    }
    fn jacobian_structure(&self) -> (Vec<usize>, Vec<usize>) {
        self.program.jacobian_structure()
    }
    fn jacobian_values(&self, x: &[f64], _new_x: bool, vals: &mut [f64]) -> bool {
        self.program.jacobian_values(x, vals)
    }
    fn hessian_structure(&self) -> (Vec<usize>, Vec<usize>) {
        match &self.hessian {
            Some(h) => h.structure(&self.program.layout),
            None => (Vec::new(), Vec::new()),
        }
    }
    fn hessian_values(
        &self,
        x: &[f64],
        _new_x: bool,
        obj_factor: f64,
        lambda: &[f64],
        vals: &mut [f64],
    ) -> bool {
        match &self.hessian {
            Some(h) => h.values(&self.program, x, obj_factor, lambda, vals),
            // L-BFGS: the solver never asks
            None => false,
        }
    }
}
