//! The forces on a model's wheels in the HTML viewer: [`Trajectory::animate_html_with_contacts`]
//! evaluates [`Contacts::contact_loads`] at every frame the page keeps and the viewer draws
//! them as arrows at the contact points, with a check box (and the key `c`) to show or
//! hide them.

use alloc::format;
use alloc::string::String;
use std::io::Write;
use std::path::Path;

use super::contact_track::ContactTrack;
use super::encode::{create, io_error};
use super::scene::{setup, Track};
use super::{html, Animation};
use crate::{Contacts, Error, Geometry, Trajectory};

impl Animation {
    /// The length of the contact-force arrows per unit force (root length units per
    /// force unit, metres per newton for a model in SI units) in
    /// [`Trajectory::animate_html_with_contacts`]; positive and finite.
    ///
    /// By default the arrows are scaled so that the reference force, the mean over the
    /// frames of the total normal force `sum_c |N_c|` (for a vehicle on level ground, its
    /// weight), is 0.4 times the model's size (the largest diagonal of its bounding box)
    /// long: a vehicle's arrows share out that length by the load each wheel carries.
    ///
    /// ```
    /// use nonholo_runtime::viz::Animation;
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 1.0, 10)?;
    /// // 1 mm per newton: the unicycle's weight (687 N) is 0.687 m long
    /// let page = ride.animation_html_with_contacts(&unicycle, &Animation::default().force_scale(1e-3))?;
    /// assert!(page.contains("\"scale\":0.001"));
    /// assert!(ride.animation_html_with_contacts(&unicycle, &Animation::default().force_scale(-1.0)).is_err());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn force_scale(mut self, length_per_force: f64) -> Self {
        self.force_scale = Some(length_per_force);
        self
    }
}

impl Trajectory {
    /// [`Trajectory::animate_html`] with the forces the ground exerts on the wheels drawn
    /// as arrows: the page written to `path`.
    ///
    /// At every frame the page keeps (those of [`Trajectory::animate_html`]), the model's
    /// [`Contacts::contact_loads`] are evaluated with the recorded inputs (held from the
    /// sample at or before a frame between samples; `u = 0` for a trajectory without
    /// inputs). The viewer draws, for each contact:
    ///
    /// - the force `F` on the wheel as an arrow from the contact point, coloured by its
    ///   friction utilization `|F_t| / (mu N)` for a contact with `friction: mu` (green at
    ///   0, amber at 0.5, red from 1: sliding), violet for a contact without;
    /// - its tangential part `F - (F . up) up` dashed, on the ground;
    /// - in the corner, `N`, `|F_t|` and the utilization, per wheel.
    ///
    /// A check box `forces` (and the key `c`) shows or hides them. The arrows'
    /// length is [`Animation::force_scale`] per unit force: by default the mean total
    /// normal force (a vehicle's weight) is 0.4 times the model's size. The GIF and PNG
    /// pictures do not draw them.
    ///
    /// Errors as [`Trajectory::animate_html`] and [`Trajectory::contact_loads`];
    /// [`Error::NonFinite`] for a force that is not finite; [`Error::InvalidOptions`] for a
    /// scale that is not positive.
    ///
    /// ```
    /// use nonholo_runtime::viz::Animation;
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 4.0, 400)?;
    /// let path = std::env::temp_dir().join("nonholo_viz_contacts.html");
    /// ride.animate_html_with_contacts(&unicycle, &path, &Animation::default().title("Forces"))?;
    /// let page = std::fs::read_to_string(&path).unwrap();
    /// assert!(page.contains("\"contacts\":{\"names\":[\"W\"]") && page.contains("id=\"forces\""));
    /// // the page without them has neither
    /// let plain = ride.animation_html(&unicycle, &Animation::default())?;
    /// assert!(!plain.contains("\"contacts\"") && !plain.contains("id=\"forces\""));
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn animate_html_with_contacts<M: Geometry + Contacts>(
        &self,
        model: &M,
        path: impl AsRef<Path>,
        animation: &Animation,
    ) -> Result<(), Error> {
        let page = self.animation_html_with_contacts(model, animation)?;
        let path = path.as_ref();
        let mut f = create(path)?;
        f.write_all(page.as_bytes())
            .and_then(|_| f.flush())
            .map_err(|e| io_error(path, e))
    }

    /// The page [`Trajectory::animate_html_with_contacts`] writes, as a string.
    ///
    /// The forces travel with the poses, per frame and contact the contact point, the
    /// force, the normal force and the utilization:
    ///
    /// ```
    /// use nonholo_runtime::viz::Animation;
    /// # use nonholo_runtime::__private::doc_models::{Skate, Unicycle};
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 1.0, 100)?;
    /// let page = ride.animation_html_with_contacts(&unicycle, &Animation::default())?;
    /// assert!(page.contains("\"friction\":[true]") && page.contains("\"C\":["));
    /// // a trajectory of another model is refused
    /// let other = nonholo_runtime::Trajectory::new::<Skate>();
    /// assert!(other.animation_html_with_contacts(&unicycle, &Animation::default()).is_err());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn animation_html_with_contacts<M: Geometry + Contacts>(
        &self,
        model: &M,
        animation: &Animation,
    ) -> Result<String, Error> {
        animation.validate()?;
        if let Some(s) = animation.force_scale
            && !(s > 0.0 && s.is_finite())
        {
            return Err(Error::InvalidOptions(format!(
                "viz: force scale {s} is not positive"
            )));
        }
        let track = Track::from_trajectory(model, self, animation.max_rate, animation.span)?;
        let setup = setup(model, &track, animation)?;
        let contacts =
            ContactTrack::new(model, self, &track.times, setup.size, animation.force_scale)?;
        Ok(html::page::<M>(&setup, &track, animation, Some(&contacts)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::private::doc_models::Unicycle;
    use crate::viz::contact_track::ARROW_FRACTION;
    use crate::ContactLoad;

    /// Frames between samples get the loads of the interpolated state; the default scale
    /// makes the weight `ARROW_FRACTION * size` long.
    #[test]
    fn frames_between_samples_and_the_default_scale() {
        let u = Unicycle::default();
        // 5 samples over 4 s: the track fills in frames between them
        let ride = u.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 4.0, 4).unwrap();
        let a = Animation::default();
        let track = Track::from_trajectory(&u, &ride, a.max_rate, a.span).unwrap();
        assert!(track.len() > 200);
        let c = ContactTrack::new(&u, &ride, &track.times, 2.0, None).unwrap();
        assert_eq!(
            (c.wheels.as_slice(), c.friction.as_slice()),
            (&["W"][..], &[true][..])
        );
        assert_eq!(c.loads.len(), track.len());
        for (k, &t) in track.times.iter().enumerate() {
            let state = ride.at(t).unwrap();
            let mut want = [ContactLoad::ZERO];
            u.contact_loads(t, &state, &[], &mut want).unwrap();
            assert_eq!(c.loads[k], want[0], "frame {k} at {t}");
        }
        let weight = u.m * crate::doc_contacts::UNICYCLE_G;
        assert!((c.reference - weight).abs() < 1e-9 * weight);
        assert!((c.scale * weight - ARROW_FRACTION * 2.0).abs() < 1e-12);
        let c = ContactTrack::new(&u, &ride, &track.times, 2.0, Some(1e-3)).unwrap();
        assert_eq!(c.scale, 1e-3);
    }

    /// A trajectory recording an input the model does not have.
    #[test]
    fn a_trajectory_with_other_inputs_is_refused() {
        let u = Unicycle::default();
        let mut other = Trajectory::from_names_with_inputs(
            <Unicycle as crate::Model>::COORDINATES,
            &["v", "w"],
            &["f"],
        );
        let s = [0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        other.push_with_inputs(0.0, &s, &[0.0; 6], &[1.0]).unwrap();
        assert!(matches!(
            ContactTrack::new(&u, &other, &[0.0], 1.0, None),
            Err(Error::Dimension {
                what: "trajectory inputs",
                ..
            })
        ));
    }
}
