//! A [`Trajectory`] as CSV.

use alloc::string::String;

use super::Trajectory;

impl Trajectory {
    /// The samples as CSV: a header `t,<names...>,<input names...>` and one row per sample
    /// (the state, then the inputs).
    ///
    /// Numbers are written in Rust's shortest round-trip form (`{:?}`), so parsing them
    /// back gives the same `f64` bit for bit.
    ///
    /// ```
    /// # use nonholo_runtime::Trajectory;
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// tr.push(0.0, &[0.1, 1e-300], &[0.0, 0.0]).unwrap();
    /// assert_eq!(tr.to_csv_string(), "t,x,v\n0.0,0.1,1e-300\n");
    /// // with inputs: their columns after the state's
    /// let mut tr = Trajectory::from_names_with_inputs(&["x"], &["v"], &["f", "g"]);
    /// tr.push_with_inputs(0.5, &[1.0, 2.0], &[2.0, 0.0], &[-1.5, 3.0]).unwrap();
    /// assert_eq!(tr.to_csv_string(), "t,x,v,f,g\n0.5,1.0,2.0,-1.5,3.0\n");
    /// ```
    pub fn to_csv_string(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_csv_fmt(&mut s);
        s
    }

    /// Write [`Self::to_csv_string`] to a file.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let tr = integrate_rk4(&Oscillator::new(1.0), &[1.0, 0.0], 0.0, 0.5, 4)?;
    /// let path = std::env::temp_dir().join("nonholo_doc_trajectory.csv");
    /// tr.write_csv(&path)?;
    /// let text = std::fs::read_to_string(&path)?;
    /// assert_eq!(text, tr.to_csv_string());
    /// assert!(text.starts_with("t,x,v\n0.0,1.0,0.0\n0.5,"));
    /// // every number reads back exactly
    /// let row: Vec<f64> = text.lines().nth(3).unwrap().split(',').map(|x| x.parse().unwrap()).collect();
    /// assert_eq!(row[0], tr.times()[2]);
    /// assert_eq!(row[1..], *tr.state(2).unwrap());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn write_csv(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        let file = std::fs::File::create(path)?;
        self.write_csv_to(std::io::BufWriter::new(file))
    }

    /// Write [`Self::to_csv_string`] to any writer.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let tr = integrate_rk4(&Oscillator::new(1.0), &[1.0, 0.0], 0.0, 0.5, 4)?;
    /// let mut bytes = Vec::new();
    /// tr.write_csv_to(&mut bytes)?;
    /// assert_eq!(String::from_utf8(bytes)?, tr.to_csv_string());
    /// // the writer's error comes back: 16 bytes do not hold the table
    /// let mut small = [0u8; 16];
    /// let e = tr.write_csv_to(&mut small[..]).unwrap_err();
    /// assert_eq!(e.kind(), std::io::ErrorKind::WriteZero);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn write_csv_to(&self, writer: impl std::io::Write) -> std::io::Result<()> {
        // Adapter so one formatter serves both String and io::Write, keeping the io error.
        struct Adapter<W> {
            inner: W,
            error: Option<std::io::Error>,
        }
        impl<W: std::io::Write> core::fmt::Write for Adapter<W> {
            fn write_str(&mut self, s: &str) -> core::fmt::Result {
                self.inner.write_all(s.as_bytes()).map_err(|e| {
                    self.error = Some(e);
                    core::fmt::Error
                })
            }
        }
        let mut a = Adapter {
            inner: writer,
            error: None,
        };
        if self.write_csv_fmt(&mut a).is_err() {
            return Err(a
                .error
                .unwrap_or_else(|| std::io::Error::other("formatting failed")));
        }
        a.inner.flush()
    }

    fn write_csv_fmt(&self, out: &mut impl core::fmt::Write) -> core::fmt::Result {
        out.write_str("t")?;
        for n in self.names.iter().chain(&self.input_names) {
            write!(out, ",{n}")?;
        }
        out.write_char('\n')?;
        for (t, state, u) in self.samples_with_inputs() {
            write!(out, "{t:?}")?;
            for x in state.iter().chain(u) {
                write!(out, ",{x:?}")?;
            }
            out.write_char('\n')?;
        }
        Ok(())
    }
}
