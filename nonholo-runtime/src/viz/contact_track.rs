//! The loads on a model's contacts at the frames of an animation, and the arrows' scale
//! ([`ContactTrack`]): what the HTML viewer draws at the contact points.

use alloc::vec;
use alloc::vec::Vec;

use crate::trajectory::wheel_name;
use crate::{ContactLoad, Contacts, Error, Trajectory};

/// The length of the arrows that add up to the reference force, as a fraction of the
/// model's size.
pub(crate) const ARROW_FRACTION: f64 = 0.4;

/// The loads on the contacts at the samples of a [`Track`](super::scene::Track) and how long the arrows are.
#[derive(Debug, Clone)]
pub(crate) struct ContactTrack {
    /// The wheel of each contact (`W` of `"W on G"`).
    pub wheels: Vec<&'static str>,
    /// Whether each contact has a friction coefficient (a finite utilization somewhere).
    pub friction: Vec<bool>,
    /// `track.len() * wheels.len()` loads, sample-major.
    pub loads: Vec<ContactLoad>,
    /// The reference force: the mean total normal force (see [`Animation::force_scale`]).
    pub reference: f64,
    /// The arrows' length per unit force.
    pub scale: f64,
}

impl ContactTrack {
    /// The loads of `model` at the `times` of a track of `tr`: at a sample time the stored
    /// state, between samples the trajectory's interpolant, with the inputs of the sample
    /// at or before (held); the arrows scaled to `scale`, else so that the reference force
    /// is `ARROW_FRACTION * size` long.
    pub(crate) fn new<M: Contacts>(
        model: &M,
        tr: &Trajectory,
        times: &[f64],
        size: f64,
        scale: Option<f64>,
    ) -> Result<Self, Error> {
        let zero_u = tr.check_inputs::<M>()?;
        let nc = M::CONTACTS.len();
        let samples = tr.times();
        let mut loads = vec![ContactLoad::ZERO; times.len() * nc];
        let mut state = vec![0.0; tr.dim()];
        for (&t, out) in times.iter().zip(loads.chunks_exact_mut(nc.max(1))) {
            // the last sample at or before t
            let k = samples.partition_point(|&s| s <= t).saturating_sub(1);
            match tr.state(k) {
                Some(stored) if samples[k] == t => state.copy_from_slice(stored),
                _ => tr.at_into(t, &mut state)?,
            }
            let out = &mut out[..nc];
            if let Some(recorded) = tr
                .recorded_loads(k)
                .filter(|_| tr.contact_names() == M::CONTACTS)
            {
                // a run whose contacts slip: the loads of its mode, held between samples
                out.copy_from_slice(recorded);
            } else {
                let u = tr.input(k).filter(|u| u.len() == M::NU).unwrap_or(&zero_u);
                model.contact_loads(t, &state, u, out)?;
            }
            if !out
                .iter()
                .all(|l| l.force.iter().chain(&l.point).all(|x| x.is_finite()))
            {
                return Err(Error::NonFinite {
                    what: "contact loads",
                    t,
                    state,
                });
            }
        }
        let friction = (0..nc)
            .map(|c| {
                loads
                    .iter()
                    .skip(c)
                    .step_by(nc)
                    .any(|l| l.utilization.is_finite())
            })
            .collect();
        let mean = |f: &dyn Fn(&ContactLoad) -> f64| {
            loads.iter().map(f).sum::<f64>() / times.len().max(1) as f64
        };
        let reference = [
            mean(&|l| l.normal.abs()),
            mean(&|l| l.force.iter().map(|x| x * x).sum::<f64>().sqrt()),
        ]
        .into_iter()
        .find(|f| *f > 0.0 && f.is_finite())
        .unwrap_or(1.0);
        Ok(ContactTrack {
            wheels: M::CONTACTS.iter().map(|c| wheel_name(c)).collect(),
            friction,
            loads,
            reference,
            scale: scale.unwrap_or(ARROW_FRACTION * size / reference),
        })
    }
}
