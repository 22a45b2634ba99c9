//! What may end a run inside a step, as one vector of root functions: entry 0 the
//! stopping condition of [`Options::stop_when`] (1 without one), then the contact guards
//! of [`Model::contact_guards`](crate::Model::contact_guards) at the inputs acting there (when
//! [`Options::contact_checks`] is on). Both integrators locate the earliest sign change.

use super::field::Plant;
use super::options::{Event, Options};
use crate::Error;

/// The root functions of a run.
pub(super) struct Roots<'r> {
    event: Option<&'r Event>,
    guards: Option<&'r dyn Plant>,
    n_guards: usize,
}

impl<'r> Roots<'r> {
    pub(super) fn new(o: &'r Options, field: &'r dyn Plant) -> Self {
        let n_guards = if o.contact_checks {
            field.guard_table().len()
        } else {
            0
        };
        Self {
            event: o.event.as_ref(),
            guards: (n_guards > 0).then_some(field),
            n_guards,
        }
    }

    /// How many root functions (the stopping condition's entry always counts).
    pub(super) fn len(&self) -> usize {
        1 + self.n_guards
    }

    /// Whether anything is watched at all.
    pub(super) fn active(&self) -> bool {
        self.event.is_some() || self.n_guards > 0
    }

    /// The root functions at `(t, x)` into `out` (`len()` entries).
    pub(super) fn eval(&self, t: f64, x: &[f64], out: &mut [f64]) -> Result<(), Error> {
        out[0] = self.event.map_or(1.0, |e| (e.0)(t, x));
        if let Some(g) = self.guards {
            g.contact_guards(t, x, &mut out[1..])?;
        }
        Ok(())
    }
}

/// The error for guard `index` (of the model's [`Model::CONTACT_GUARDS`](crate::Model::CONTACT_GUARDS))
/// reached at `(t, x)`.
pub(super) fn contact_lost(field: &dyn Plant, index: usize, t: f64, x: &[f64]) -> Error {
    let (contact, event) = field.guard_table()[index];
    Error::ContactLost {
        contact,
        event,
        t,
        state: x.to_vec(),
    }
}

/// Where `g` changes sign between `(ta, ga)` and `(tb, gb)` (`ga` nonzero and of the other
/// sign than `gb`, or `gb` zero): the Illinois method, to `100 eps (|t| + |h|)` as diffsol's
/// root finder does, with a bisection where three secant steps have not halved the bracket
/// (a function barely nonzero at one end). The end returned has `g`'s sign at `tb` or zero.
pub(super) fn illinois(
    (mut ta, mut ga): (f64, f64),
    (mut tb, mut gb): (f64, f64),
    mut g: impl FnMut(f64) -> Result<f64, Error>,
) -> Result<f64, Error> {
    let tol = 100.0 * f64::EPSILON * (tb.abs() + (tb - ta).abs());
    // Which end moved last (-1: a, 1: b), to halve the other's value when it repeats.
    let mut moved = 0;
    let mut iterations = 0;
    let mut width = tb - ta;
    while gb != 0.0 && tb - ta > tol && iterations < 200 {
        iterations += 1;
        let slow = iterations % 3 == 0 && tb - ta > 0.5 * width;
        if iterations % 3 == 0 {
            width = tb - ta;
        }
        let tm = if slow {
            0.5 * (ta + tb)
        } else {
            (tb - gb * (tb - ta) / (gb - ga)).clamp(ta + 0.5 * tol, tb - 0.5 * tol)
        };
        let gm = g(tm)?;
        if (gm < 0.0) == (gb < 0.0) || gm == 0.0 {
            (tb, gb) = (tm, gm);
            if moved == 1 {
                ga *= 0.5;
            }
            moved = 1;
        } else {
            (ta, ga) = (tm, gm);
            if moved == -1 {
                gb *= 0.5;
            }
            moved = -1;
        }
    }
    Ok(tb)
}
