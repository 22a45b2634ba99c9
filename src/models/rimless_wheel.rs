crate::nonholonomic! {
    /// A rimless wheel walking down a slope (McGeer 1990; Coleman, Chatterjee & Ruina
    /// 1997): spokes of length `l`, `2 alpha` apart, the mass `m` at the hub with the
    /// moment of inertia `i_c` about it, on a slope of angle `slope`. Between heel strikes
    /// it is an inverted pendulum about the stance spoke's foot, `th` the spoke's angle
    /// from the slope's normal (positive downhill):
    /// `(i_c + m l^2) ddot(th) = m g l sin(th + slope)`.
    ///
    /// At `th = alpha` the next spoke strikes: a plastic impact about the new foot, which
    /// keeps the angular momentum about it, so `th -> -alpha` and
    /// `dot(th) -> dot(th) (i_c + m l^2 cos 2 alpha) / (i_c + m l^2)`
    /// (`strike_ratio`; `heel_strikes` adds the strike to a run's options). The walk
    /// settles where the energy a step gains on the slope is what the strike takes
    /// (`steady_rate`).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct RimlessWheel;
    parameters { m = 2.0, l = 1.0, i_c = 0.0, g = 9.81, slope = 0.08, alpha = 0.3 }
    coordinates { th }
    kinetic_energy = 0.5 * (i_c + m * l * l) * dot(th).powi(2);
    potential_energy = m * g * l * cos(th + slope);
}

// libm's through `Scalar`, so that the model builds without `std`
use crate::Scalar;

impl RimlessWheel {
    /// The post-strike rate over the pre-strike rate,
    /// `(i_c + m l^2 cos 2 alpha) / (i_c + m l^2)`: the angular momentum about the new foot
    /// is kept through the strike (`cos 2 alpha` with the mass at the hub alone).
    ///
    /// ```
    /// let w = nonholo::models::RimlessWheel::default();
    /// assert!((w.strike_ratio() - (2.0 * w.alpha).cos()).abs() < 1e-15);
    /// ```
    pub fn strike_ratio(&self) -> f64 {
        let j = self.i_c + self.m * self.l * self.l;
        (self.i_c + self.m * self.l * self.l * Scalar::cos(2.0 * self.alpha)) / j
    }

    /// The pre-strike rate of the steady walk, `sqrt(gain / (1 - c^2))` with `c` the
    /// [`strike_ratio`](Self::strike_ratio) and
    /// `gain = 2 m g l (cos(slope - alpha) - cos(slope + alpha)) / (i_c + m l^2)` what a step
    /// adds to `dot(th)^2`; every walk that clears the top settles there, the difference in
    /// `dot(th)^2` shrinking by `c^2` a step.
    ///
    /// ```
    /// let w = nonholo::models::RimlessWheel::default();
    /// assert!((w.steady_rate() - 1.7049).abs() < 1e-4);
    /// ```
    pub fn steady_rate(&self) -> f64 {
        let j = self.i_c + self.m * self.l * self.l;
        let gain = 2.0
            * self.m
            * self.g
            * self.l
            * (Scalar::cos(self.slope - self.alpha) - Scalar::cos(self.slope + self.alpha))
            / j;
        let c = self.strike_ratio();
        Scalar::sqrt(gain / (1.0 - c * c))
    }

    /// `options` with the heel strike as an event (`"heel strike"`, see
    /// [`Options::event`](crate::Options::event)): where `th` reaches `alpha`, the state
    /// becomes `th = -alpha` and `dot(th)` times the [`strike_ratio`](Self::strike_ratio).
    ///
    /// ```
    /// use nonholo::models::RimlessWheel;
    /// use nonholo::prelude::*;
    ///
    /// let w = RimlessWheel::default();
    /// let options = w.heel_strikes(Options::default().sample_every(0.01));
    /// let tr = simulate_hybrid(&w, &[-w.alpha], &[1.0], 0.0..10.0, &options)?;
    /// assert!(tr.events().len() > 20);
    /// # Ok::<(), nonholo::SimulationError>(())
    /// ```
    #[cfg(feature = "diffsol")]
    pub fn heel_strikes(&self, options: crate::Options) -> crate::Options {
        let (a, c) = (self.alpha, self.strike_ratio());
        options.event(
            "heel strike",
            move |_t, q, _qd| a - q[0],
            move |_t, q, qd| {
                q[0] = -a;
                qd[0] *= c;
            },
        )
    }
}
