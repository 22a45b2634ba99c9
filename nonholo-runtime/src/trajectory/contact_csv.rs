//! The contact loads and reactions along a [`Trajectory`] as CSV.

use alloc::string::String;
use core::fmt::Write;

use super::Trajectory;
use crate::{Contacts, Error};

/// The columns of each contact, after its wheel's name and a dot.
const CONTACT_COLUMNS: [&str; 7] = ["N", "long", "lat", "Fx", "Fy", "Fz", "util"];

/// The wheel of a contact called `"W on G"`: `W` (the whole name without `" on "`).
pub(crate) fn wheel_name(contact: &str) -> &str {
    contact
        .split_once(" on ")
        .map_or(contact, |(wheel, _)| wheel)
}

impl Trajectory {
    /// The contact loads ([`Trajectory::contact_loads`]) and the generalized reactions
    /// ([`Trajectory::reactions`]) at every sample as CSV, one row per sample:
    ///
    /// - `t`;
    /// - for each contact `"W on G"` of [`Contacts::CONTACTS`], in order, seven columns
    ///   named after its wheel `W`: `W.N` (the normal force
    ///   [`normal`](crate::ContactLoad::normal)), `W.long` and `W.lat` (the
    ///   [`longitudinal`](crate::ContactLoad::longitudinal) and
    ///   [`lateral`](crate::ContactLoad::lateral) forces), `W.Fx`, `W.Fy`, `W.Fz` (the
    ///   [`force`](crate::ContactLoad::force) on the wheel, root components) and `W.util`
    ///   (the friction [`utilization`](crate::ContactLoad::utilization) `|F_t| / (mu N)`,
    ///   `NaN` for a contact without `friction: mu`);
    /// - `R.q` for each coordinate `q`: the reactions `R = A ddot(q) + h - F`; for a run
    ///   whose contacts slip ([`Trajectory::sliding`]) instead `W.slides` per contact, `1`
    ///   while it slides and `0` while it rolls.
    ///
    /// Numbers are written in Rust's shortest round-trip form (`{:?}`, `NaN` for not a
    /// number) as [`Trajectory::to_csv_string`] writes them: parsing them back gives the
    /// same `f64` bit for bit. Errors as [`Trajectory::contact_loads`].
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Skate, Unicycle};
    /// use nonholo_runtime::integrate_rk4;
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 2.0, 20)?;
    /// let csv = ride.contact_csv_string(&unicycle)?;
    /// let mut lines = csv.lines();
    /// assert_eq!(
    ///     lines.next(),
    ///     Some("t,W.N,W.long,W.lat,W.Fx,W.Fy,W.Fz,W.util,R.x,R.y,R.psi,R.phi")
    /// );
    /// // every number reads back exactly
    /// let loads = ride.contact_loads(&unicycle)?;
    /// let reactions = ride.reactions(&unicycle)?;
    /// for (i, line) in lines.enumerate() {
    ///     let row: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
    ///     let w = loads[i][0];
    ///     assert_eq!(row[..8], [ride.times()[i], w.normal, w.longitudinal, w.lateral,
    ///                           w.force[0], w.force[1], w.force[2], w.utilization]);
    ///     assert_eq!(row[8..], reactions[i][..]);
    /// }
    /// // a skate has no rolling contact, only its reactions
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.5, 1)?;
    /// assert!(tr.contact_csv_string(&skate)?.starts_with("t,R.x,R.y,R.theta\n0.0,-0.0,1.0,0.0\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn contact_csv_string<M: Contacts>(&self, model: &M) -> Result<String, Error> {
        let loads = self.contact_loads(model)?;
        let slipping = !self.contact_names.is_empty();
        let reactions = if slipping {
            (0..self.len())
                .map(|i| {
                    let flags = self.sliding(i).unwrap_or_default();
                    flags.iter().map(|s| f64::from(u8::from(*s))).collect()
                })
                .collect()
        } else {
            self.reactions(model)?
        };
        let per_row = 1 + 7 * M::CONTACTS.len() + M::NQ;
        let mut s = String::with_capacity(64 * per_row + 24 * per_row * self.len());
        s.push('t');
        for contact in M::CONTACTS {
            let wheel = wheel_name(contact);
            for column in CONTACT_COLUMNS {
                // writing to a String cannot fail
                let _ = write!(s, ",{wheel}.{column}");
            }
        }
        if slipping {
            for contact in M::CONTACTS {
                let _ = write!(s, ",{}.slides", wheel_name(contact));
            }
        } else {
            for q in M::COORDINATES {
                let _ = write!(s, ",R.{q}");
            }
        }
        s.push('\n');
        for ((t, loads), reactions) in self.times().iter().zip(&loads).zip(&reactions) {
            let _ = write!(s, "{t:?}");
            for l in loads {
                let [fx, fy, fz] = l.force;
                for x in [
                    l.normal,
                    l.longitudinal,
                    l.lateral,
                    fx,
                    fy,
                    fz,
                    l.utilization,
                ] {
                    let _ = write!(s, ",{x:?}");
                }
            }
            for r in reactions {
                let _ = write!(s, ",{r:?}");
            }
            s.push('\n');
        }
        Ok(s)
    }

    /// Write [`Trajectory::contact_csv_string`] to a file: its errors, and
    /// [`Error::InvalidOptions`] for a file that cannot be written.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    /// use nonholo_runtime::Error;
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 2.0, 20)?;
    /// let path = std::env::temp_dir().join("nonholo_doc_contacts.csv");
    /// ride.write_contact_csv(&unicycle, &path)?;
    /// assert_eq!(std::fs::read_to_string(&path)?, ride.contact_csv_string(&unicycle)?);
    /// // a folder that does not exist
    /// let nowhere = std::env::temp_dir().join("nonholo_no_such_folder").join("c.csv");
    /// assert!(matches!(ride.write_contact_csv(&unicycle, nowhere), Err(Error::InvalidOptions(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn write_contact_csv<M: Contacts>(
        &self,
        model: &M,
        path: impl AsRef<std::path::Path>,
    ) -> Result<(), Error> {
        let text = self.contact_csv_string(model)?;
        let path = path.as_ref();
        std::fs::write(path, text).map_err(|e| {
            Error::InvalidOptions(alloc::format!("cannot write {}: {e}", path.display()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wheel_names() {
        assert_eq!(wheel_name("rear_wheel on ground"), "rear_wheel");
        assert_eq!(wheel_name("disk on slope"), "disk");
        assert_eq!(wheel_name("odd"), "odd");
    }
}
