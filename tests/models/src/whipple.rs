//! The model of `whipple`: the Whipple bicycle through Lagrange multipliers.

nonholo::whipple_bicycle_model! {
    /// The same bicycle through Lagrange multipliers (state `[q, dot(q)]`).
    pub struct WhippleMultipliers;
    formulation = multipliers;
}
