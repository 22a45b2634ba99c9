//! What is drawn: the sampled poses of a model (a [`Track`]), the static set-up of a scene
//! (shapes, trails, framing: a [`Setup`]) and, for one pose and one camera, the list of
//! screen-space primitives in painter's order ([`primitives`]). `viewer.js` builds the
//! same primitives from the same numbers (`buildItems`).
//!
//! - `track`: the sampled poses and their interpolation;
//! - `setup`: the checked shapes, trails and the camera's framing;
//! - `draw`: the primitives and the shapes split into them;
//! - `backdrop`: what is painted under the shapes (grid lines, grounds, shadows, trails).

mod backdrop;
mod draw;
mod setup;
mod track;

pub(crate) use backdrop::{grid_lines, ground_cells, shadows, trail_lines, SHADOW_ALPHA};
pub(crate) use draw::{col, primitives, Col, Prim};
pub(crate) use setup::{setup, Patch, Setup};
pub(crate) use track::{Pose, Track, DEFAULT_MAX_RATE};

#[cfg(test)]
mod tests;
