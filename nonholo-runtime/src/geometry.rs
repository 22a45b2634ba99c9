//! Where a model's parts are: positions of its points, orientations of its frames,
//! velocities of its points, and the shapes that draw it.
//!
//! `nonholonomic!` implements [`Geometry`] for every model written with frames: the
//! declared points and frames (root frame and origin included), plus, for every body and
//! particle, its centre of mass `"W.center"`, and for every rolling wheel its material
//! contact point `"W.contact"`. Positions are in root components; a frame's orientation
//! is the rotation matrix `r` whose column `j` holds the frame's `j`-th unit vector in
//! root components (`r[i][j]` is row `i`, column `j`), so a vector with components `c` in
//! the frame has root components `r c`.
//!
//! The emitted code composes the rotations link by link at run time (one 3x3 product per
//! simple rotation) and never multiplies a chain of rotations out symbolically.

use alloc::vec::Vec;

use crate::{Error, Model};

/// A colour, red, green and blue in `0..=255`.
pub type Rgb = [u8; 3];

/// One shape of a model's scene, attached to its points (indices into
/// [`Geometry::POINTS`]) and frames (indices into [`Geometry::FRAMES`]); lengths in the
/// model's units, directions in the frame's components.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A thin disk (a wheel): centre, the unit normal of its plane in `frame`, radius.
    Disk {
        /// Its centre.
        center: usize,
        /// The frame `normal` is written in.
        frame: usize,
        /// The unit normal (the wheel's axle), in `frame`'s components.
        normal: [f64; 3],
        /// The radius.
        radius: f64,
        /// Its colour.
        color: Rgb,
    },
    /// A torus (a toroidal tyre): centre, the unit axle (normal of its mid-plane) in
    /// `frame`, the major radius (centre to the crown's circle) and the crown radius.
    Torus {
        /// Its centre.
        center: usize,
        /// The frame `normal` is written in.
        frame: usize,
        /// The unit normal of its mid-plane (the wheel's axle), in `frame`'s components.
        normal: [f64; 3],
        /// The major radius: from the centre to the circle of the crown's centres.
        major: f64,
        /// The crown radius: the radius of the tyre's cross-section.
        crown: f64,
        /// Its colour.
        color: Rgb,
    },
    /// An ellipsoid (a body's inertia ellipsoid): centre and its three semi-axes as
    /// vectors in `frame`'s components.
    Ellipsoid {
        /// Its centre.
        center: usize,
        /// The frame the axes are written in.
        frame: usize,
        /// The semi-axes (each a vector whose length is the semi-axis).
        axes: [[f64; 3]; 3],
        /// Its colour.
        color: Rgb,
    },
    /// A segment between two points.
    Segment {
        /// One end.
        from: usize,
        /// The other end.
        to: usize,
        /// Its colour.
        color: Rgb,
    },
    /// A sphere.
    Sphere {
        /// Its centre.
        center: usize,
        /// The radius.
        radius: f64,
        /// Its colour.
        color: Rgb,
    },
    /// A solid cylinder: centre, axis direction in `frame` (unit), radius and length.
    Cylinder {
        /// Its centre.
        center: usize,
        /// The frame `axis` is written in.
        frame: usize,
        /// The unit axis, in `frame`'s components.
        axis: [f64; 3],
        /// The radius.
        radius: f64,
        /// The length along the axis.
        length: f64,
        /// Its colour.
        color: Rgb,
    },
    /// A box: centre and half extents along `frame`'s axes.
    Cuboid {
        /// Its centre.
        center: usize,
        /// The frame whose axes the box is aligned with.
        frame: usize,
        /// Half the side lengths along x, y, z of `frame`.
        half: [f64; 3],
        /// Its colour.
        color: Rgb,
    },
    /// A plane drawn as a square grid through a point, normal `up` in root components.
    Grid {
        /// A point of the plane.
        point: usize,
        /// The unit normal, in root components.
        up: [f64; 3],
        /// Its colour.
        color: Rgb,
    },
    /// Uneven ground (`ground G { height(u, v) = h }`): the surface `z = h(u, v)` of the
    /// model's ground number `ground` ([`Geometry::GROUNDS`], heights from
    /// [`Geometry::ground_height`]), drawn as a patch around the motion.
    ///
    /// The viewers (feature `viz`) sample the heights once, when the animation is set up,
    /// over the motion's bounding box in root `x`, `y` widened on every side by a third of
    /// its larger side (at least by the model's size), in square cells (about 48 along that
    /// side); they draw the cells shaded by their slope, with lines at a round step, under
    /// the bodies, and the bodies' shadows on it when the scene has no plane
    /// ([`Shape::Grid`]).
    Ground {
        /// Its index in [`Geometry::GROUNDS`].
        ground: usize,
        /// Its colour.
        color: Rgb,
    },
    /// A particle, drawn as a dot.
    Dot {
        /// Where it is.
        point: usize,
        /// Its colour.
        color: Rgb,
    },
}

/// The geometry of a model written with frames (implemented by `nonholonomic!`).
///
/// Every method checks the lengths of its slices ([`Error::Dimension`]) and allocates
/// nothing except [`Geometry::scene`] (not a per-step call).
pub trait Geometry: Model {
    /// The points: declared ones (the origin first), then `"W.center"` of every body and
    /// particle, `"W.contact"` of every rolling body, and `"W.surface"`, the centre of a
    /// rolling surface that is not its body's centre of mass (a rattleback's shell).
    const POINTS: &'static [&'static str];
    /// The declared frames, the root first.
    const FRAMES: &'static [&'static str];
    /// The bodies and particles.
    const BODIES: &'static [&'static str];

    /// The positions of [`Geometry::POINTS`] at `(t, q)`, in root components.
    fn point_positions(&self, t: f64, q: &[f64], out: &mut [[f64; 3]]) -> Result<(), Error>;

    /// The orientations of [`Geometry::FRAMES`] at `(t, q)`: rotation matrices, column `j`
    /// the frame's `j`-th unit vector in root components.
    fn frame_orientations(&self, t: f64, q: &[f64], out: &mut [[[f64; 3]; 3]])
        -> Result<(), Error>;

    /// The velocities (relative to the root frame, in root components) of
    /// [`Geometry::POINTS`] at `(t, state)`, the state `[q, z]` as in [`Model::rhs`].
    fn point_velocities(&self, t: f64, state: &[f64], out: &mut [[f64; 3]]) -> Result<(), Error>;

    /// The index of the point called `name` in [`Geometry::POINTS`] (what a [`Shape`]
    /// refers to it by); [`Error::UnknownName`] for a name not there.
    fn point_index(name: &str) -> Result<usize, Error> {
        index_of("points", Self::POINTS, name)
    }

    /// The index of the frame called `name` in [`Geometry::FRAMES`].
    fn frame_index(name: &str) -> Result<usize, Error> {
        index_of("frames", Self::FRAMES, name)
    }

    /// The position of the point called `name` at `(t, q)`; [`Error::UnknownName`] for a
    /// name not in [`Geometry::POINTS`].
    fn position(&self, name: &str, t: f64, q: &[f64]) -> Result<[f64; 3], Error>;

    /// The default scene: every rolling wheel a disk of its radius in its plane (a torus, a
    /// sphere, an ellipsoid: the surface itself), every other body
    /// its inertia ellipsoid (the uniform ellipsoid with the body's mass and inertia), every
    /// plane a grid, every particle a dot; then the shapes of the model's `draw { .. }`
    /// section, if any.
    fn scene(&self) -> Vec<Shape>;

    /// The model's uneven grounds (`ground G { height(u, v) = h }`), in declaration order.
    const GROUNDS: &'static [&'static str] = &[];

    /// The height `h(u, v)` of ground number `ground` ([`Geometry::GROUNDS`]) above the root
    /// frame's first two axes at `(u, v)`; NaN for an index that is no ground.
    ///
    /// `nonholonomic!` emits it for a model with grounds (`nonholo::models::DiskOverBump`'s
    /// `road` is `ground_height(0, u, v)`); a model without one has none:
    ///
    /// ```
    /// use nonholo_runtime::Geometry;
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    /// assert!(Unicycle::GROUNDS.is_empty());
    /// assert!(Unicycle::default().ground_height(0, 1.0, 2.0).is_nan());
    /// ```
    fn ground_height(&self, ground: usize, u: f64, v: f64) -> f64 {
        let _ = (ground, u, v);
        f64::NAN
    }
}

/// The index of `name` in `names`, or [`Error::UnknownName`].
pub fn index_of(what: &'static str, names: &[&'static str], name: &str) -> Result<usize, Error> {
    names
        .iter()
        .position(|n| *n == name)
        .ok_or_else(|| Error::UnknownName {
            what,
            name: name.into(),
            known: names.to_vec(),
        })
}
