//! Reading a [`Trajectory`]: sizes, names, samples and columns.

use alloc::vec::Vec;

use super::{row, Trajectory};

impl Trajectory {
    /// Number of inputs.
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// assert_eq!(Trajectory::new::<ForcedOscillator>().nu(), 1);
    /// assert_eq!(Trajectory::from_names(&["x"], &["v"]).nu(), 0);
    /// ```
    pub fn nu(&self) -> usize {
        self.input_names.len()
    }

    /// Number of samples.
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // steps + 1 samples
    /// let tr = integrate_rk4(&Oscillator::new(1.0), &[1.0, 0.0], 0.0, 0.1, 20)?;
    /// assert_eq!(tr.len(), 21);
    /// assert_eq!(tr.len(), tr.times().len());
    /// assert_eq!(Trajectory::new::<Oscillator>().len(), 0);
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether there are no samples.
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// assert!(tr.is_empty());
    /// tr.push(0.0, &[1.0, 0.0], &[0.0, -1.0])?;
    /// assert!(!tr.is_empty());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Column names of the state: the coordinates q, then the speeds z (the inputs are
    /// [`Trajectory::input_names`]).
    ///
    /// ```
    /// use nonholo_runtime::{Model, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let tr = Trajectory::new::<Skate>();
    /// assert_eq!(tr.names(), ["x", "y", "theta", "v", "omega"]);
    /// assert_eq!(tr.names()[..tr.nq()], *Skate::COORDINATES);
    /// assert_eq!(tr.names()[tr.nq()..], *Skate::SPEEDS);
    /// ```
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// Number of coordinates q.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// // v = omega = 1 from the origin along x: the unit circle x = sin t, y = 1 - cos t
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// assert_eq!(tr.nq(), 3); // x, y, theta
    /// assert_eq!(tr.q(0).unwrap().len(), tr.nq());
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn nq(&self) -> usize {
        self.nq
    }

    /// Number of speeds z.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// // v = omega = 1 from the origin along x: the unit circle x = sin t, y = 1 - cos t
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// assert_eq!(tr.nz(), 2); // v, omega
    /// assert_eq!(tr.z(0).unwrap().len(), tr.nz());
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn nz(&self) -> usize {
        self.names.len() - self.nq
    }

    /// State dimension `nq + nz`.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// // v = omega = 1 from the origin along x: the unit circle x = sin t, y = 1 - cos t
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// assert_eq!(tr.dim(), tr.nq() + tr.nz());
    /// assert!((0..tr.len()).all(|i| tr.state(i).unwrap().len() == 5));
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn dim(&self) -> usize {
        self.names.len()
    }

    /// Sample times, strictly increasing.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let tr = integrate_rk4(&Oscillator::new(1.0), &[1.0, 0.0], 2.0, 0.1, 30)?;
    /// // RK4 samples at t0 + i dt, computed from i (no accumulated roundoff)
    /// assert!(tr.times().iter().enumerate().all(|(i, t)| *t == 2.0 + i as f64 * 0.1));
    /// assert!(tr.times().windows(2).all(|w| w[0] < w[1]));
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// All states, row-major (`len() * dim()` numbers).
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// // v = omega = 1 from the origin along x: the unit circle x = sin t, y = 1 - cos t
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// let (n, dim) = (tr.len(), tr.dim());
    /// assert_eq!(tr.states().len(), n * dim);
    /// // row i is sample i
    /// assert_eq!(&tr.states()[7 * dim..8 * dim], tr.state(7).unwrap());
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn states(&self) -> &[f64] {
        &self.states
    }

    /// The state `[q, z]` of sample `i`, `None` past the end.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// // v = omega = 1 from the origin along x: the unit circle x = sin t, y = 1 - cos t
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// let s = tr.state(100).unwrap(); // t = 1
    /// assert!((s[0] - 1.0f64.sin()).abs() < 1e-10 && (s[1] - (1.0 - 1.0f64.cos())).abs() < 1e-10);
    /// assert!((s[2] - 1.0).abs() < 1e-12);
    /// assert!(tr.state(101).is_none());
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn state(&self, i: usize) -> Option<&[f64]> {
        row(&self.states, self.dim(), i)
    }

    /// `d[q, z]/dt` at sample `i`, `None` past the end.
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Model};
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// // v = omega = 1 from the origin along x: the unit circle x = sin t, y = 1 - cos t
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// // the model's right-hand side at the sample: [v cos(theta), v sin(theta), omega, 0, 0]
    /// let (t, s) = (tr.times()[40], tr.state(40).unwrap());
    /// let mut f = [0.0; 5];
    /// skate.rhs(t, s, &mut f)?;
    /// assert_eq!(tr.derivative(40).unwrap(), f);
    /// assert_eq!(f[2..], [1.0, 0.0, 0.0]);
    /// assert!(tr.derivative(101).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn derivative(&self, i: usize) -> Option<&[f64]> {
        row(&self.derivatives, self.dim(), i)
    }

    /// The coordinates q of sample `i`.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// // v = omega = 1 from the origin along x: the unit circle x = sin t, y = 1 - cos t
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// let q = tr.q(50).unwrap(); // [x, y, theta] at t = 0.5
    /// assert_eq!(q, &tr.state(50).unwrap()[..3]);
    /// assert!((q[2] - 0.5).abs() < 1e-12); // theta = omega t
    /// assert!(tr.q(101).is_none());
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn q(&self, i: usize) -> Option<&[f64]> {
        self.state(i).and_then(|s| s.get(..self.nq))
    }

    /// The speeds z of sample `i`.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// // v = omega = 1 from the origin along x: the unit circle x = sin t, y = 1 - cos t
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// // a free skate keeps its speeds [v, omega]
    /// assert!((0..tr.len()).all(|i| tr.z(i).unwrap() == [1.0, 1.0]));
    /// assert!(tr.z(101).is_none());
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn z(&self, i: usize) -> Option<&[f64]> {
        self.state(i).and_then(|s| s.get(self.nq..))
    }

    /// The last sample `(t, state)`.
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let tr = integrate_rk4(&Oscillator::new(1.0), &[1.0, 0.0], 0.0, 0.01, 300)?;
    /// let (t, y) = tr.last().unwrap();
    /// assert_eq!((t, y), (tr.times()[300], tr.state(300).unwrap()));
    /// assert!((y[0] - 3.0f64.cos()).abs() < 1e-9); // x = cos t
    /// assert!(Trajectory::new::<Oscillator>().last().is_none());
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn last(&self) -> Option<(f64, &[f64])> {
        let i = self.len().checked_sub(1)?;
        Some((*self.times.get(i)?, self.state(i)?))
    }

    /// The time series of one coordinate, speed or input, by name (`"t"` gives the times).
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::{ForcedOscillator, Oscillator};
    ///
    /// let tr = integrate_rk4(&Oscillator::new(1.0), &[1.0, 0.0], 0.0, 0.1, 10)?;
    /// let (t, x, v) = (tr.column("t").unwrap(), tr.column("x").unwrap(), tr.column("v").unwrap());
    /// assert_eq!(t, tr.times());
    /// assert_eq!((x[4], v[4]), (tr.state(4).unwrap()[0], tr.state(4).unwrap()[1]));
    /// assert!(tr.column("y").is_none());
    /// // an input's column: RK4 integrates `rhs`, the inputs at 0
    /// let forced = integrate_rk4(&ForcedOscillator { m: 1.0, k: 1.0 }, &[1.0, 0.0], 0.0, 0.1, 10)?;
    /// assert_eq!(forced.column("f"), Some(vec![0.0; 11]));
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        if name == "t" {
            return Some(self.times.clone());
        }
        let (flat, width, j) = match self.names.iter().position(|n| *n == name) {
            Some(j) => (&self.states, self.dim(), j),
            None => {
                let j = self.input_names.iter().position(|n| *n == name)?;
                (&self.inputs, self.nu(), j)
            }
        };
        Some(flat.iter().skip(j).step_by(width).copied().collect())
    }
}
