//! The three transcriptions of `dx/dt = f(t, x, u)` on a grid of nodes `t_k = t_0 + k h`.

/// How the dynamics become equations between nodes (`h` the node spacing, `f_k =
/// f(t_k, x_k, u_k)`; Betts 2010, section 4.5; Kelly 2017, "An introduction to trajectory
/// optimization", sections 3-4):
///
/// | scheme | defect of interval `k` | cost quadrature | order |
/// |---|---|---|---|
/// | `BackwardEuler` | `x_{k+1} - x_k - h f_{k+1}` | `h L_{k+1}` | 1 |
/// | `Trapezoidal` | `x_{k+1} - x_k - h/2 (f_k + f_{k+1})` | `h/2 (L_k + L_{k+1})` | 2 |
/// | `HermiteSimpson` | `x_m - (x_k + x_{k+1})/2 - h/8 (f_k - f_{k+1})` and `x_{k+1} - x_k - h/6 (f_k + 4 f_m + f_{k+1})` | `h/6 (L_k + 4 L_m + L_{k+1})` | 4 |
///
/// Hermite–Simpson is the separated form: the midpoint state `x_m` and input `u_m` of each
/// interval are variables of their own, so every block of the Jacobian is one model
/// Jacobian times a constant. The orders are those of the states at the nodes on smooth
/// solutions.
///
/// ```
/// use nonholo_runtime::optimal::Scheme;
/// assert_eq!(Scheme::default(), Scheme::Trapezoidal);
/// assert_eq!(Scheme::HermiteSimpson.order(), 4);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scheme {
    /// Implicit Euler: first order, the most robust on stiff or non-smooth problems.
    BackwardEuler,
    /// The trapezoidal rule: second order, inputs linear between nodes.
    #[default]
    Trapezoidal,
    /// Separated Hermite–Simpson: fourth order in the states, inputs quadratic between
    /// nodes through the midpoint's.
    HermiteSimpson,
}

impl Scheme {
    /// The order of accuracy of the states at the nodes.
    pub fn order(self) -> u32 {
        match self {
            Scheme::BackwardEuler => 1,
            Scheme::Trapezoidal => 2,
            Scheme::HermiteSimpson => 4,
        }
    }

    /// Whether each interval has a midpoint (state and input variables of its own).
    pub(crate) fn has_midpoints(self) -> bool {
        self == Scheme::HermiteSimpson
    }

    /// The defect rows of one interval: each is `sum over blocks of (alpha [I 0] + beta h
    /// J) z`, listed as `(point, alpha, beta)` with `point` 0 the interval's start, 1 its
    /// end and 2 its midpoint; the rows of one interval are `DIM` per entry of the outer
    /// list.
    pub(crate) fn defect_blocks(self) -> &'static [&'static [(usize, f64, f64)]] {
        match self {
            Scheme::BackwardEuler => &[&[(0, -1.0, 0.0), (1, 1.0, -1.0)]],
            Scheme::Trapezoidal => &[&[(0, -1.0, -0.5), (1, 1.0, -0.5)]],
            Scheme::HermiteSimpson => &[
                &[(0, -0.5, -0.125), (1, -0.5, 0.125), (2, 1.0, 0.0)],
                &[
                    (0, -1.0, -1.0 / 6.0),
                    (2, 0.0, -4.0 / 6.0),
                    (1, 1.0, -1.0 / 6.0),
                ],
            ],
        }
    }

    /// The running cost's quadrature weight of the interval's start, end and midpoint,
    /// in units of `h`.
    pub(crate) fn quadrature(self) -> [f64; 3] {
        match self {
            Scheme::BackwardEuler => [0.0, 1.0, 0.0],
            Scheme::Trapezoidal => [0.5, 0.5, 0.0],
            Scheme::HermiteSimpson => [1.0 / 6.0, 1.0 / 6.0, 4.0 / 6.0],
        }
    }
}
