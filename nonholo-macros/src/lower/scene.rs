//! The geometry of a model with frames in the engine ([`model::Geometry`]): points, frames,
//! bodies and the default scene, built after the equations.

use crate::check::draw::DrawKind;
use crate::check::kinematics::{Kinematics, Rolling};
use crate::kinematics::bodies::MassBody;
use crate::kinematics::rolling::{self, Wheel};
use crate::kinematics::vector::Vector;
use crate::kinematics::{Clock, Kin};
use crate::model::{self, SceneItem, Terms};
use crate::sym::linsolve::probably_zero;
use crate::sym::{Graph, Id};

/// The root of the tree `f` hangs from.
fn root_of(kin: &Kin, f: usize) -> usize {
    kin.tree.path_to_root(f).last().copied().unwrap_or(f)
}

/// A shape of `draw { .. }` in the engine.
pub(super) struct Drawn {
    pub(super) kind: DrawKind,
    pub(super) points: Vec<String>,
    pub(super) radius: Id,
    pub(super) length: Id,
    pub(super) vector: Vector,
    pub(super) color: Option<[u8; 3]>,
}

/// The wheels' contact points and the planes' points, up and velocity, by name.
pub(super) type Contacts = Vec<(String, Vector, Vector)>;
pub(super) type Planes = Vec<(String, Vector, Vector, Vector)>;

/// Where the parts are ([`model::Geometry`]): the declared points and frames, the centres of
/// the bodies and particles, the wheels' material contact points and the planes' points,
/// with their velocities; and the default scene. Built after everything the equations need,
/// so their expressions are what they were without it.
pub(super) fn geometry(
    kin: &mut Kin,
    g: &mut Graph,
    clock: &Clock,
    k: &Kinematics,
    masses: &[MassBody],
    wheels: &[(&Rolling, Wheel)],
    (contacts, planes, draw): (&Contacts, &Planes, &[Drawn]),
) -> model::Geometry {
    let joints = kin
        .tree
        .joints
        .iter()
        .map(|j| (j.parent, j.axis, j.cos, j.sin))
        .collect();
    let mut frames: Vec<(String, usize)> =
        k.frame_of.iter().map(|(n, i)| (n.clone(), *i)).collect();
    frames.sort_by_key(|(_, i)| *i);
    let frame_pos = |f: usize| frames.iter().position(|(_, i)| *i == f).unwrap_or(0);
    let mut points: Vec<(String, Terms, Terms)> = Vec::new();
    for (name, _) in &k.points {
        let r = kin.points.get(name).cloned().unwrap_or_default();
        let v = kin.point_velocity(g, name, clock);
        points.push((name.clone(), r.0, v.0));
    }
    let mut bodies = Vec::new();
    let mut scene = Vec::new();
    let nb = k.bodies.len();
    for (i, m) in masses.iter().enumerate() {
        let name = if i < nb {
            k.bodies[i].name.to_string()
        } else {
            k.particles[i - nb].name.to_string()
        };
        let center = points.len();
        points.push((
            format!("{name}.center"),
            m.center.0.clone(),
            m.velocity.0.clone(),
        ));
        let is_wheel = wheels.iter().any(|(_, w)| w.name == name);
        match (&m.inertia, m.frame) {
            _ if is_wheel || k.hidden.contains(&name) => {}
            (Some((f, c)), Some(_)) => scene.push(SceneItem::Ellipsoid {
                center,
                frame: frame_pos(*f),
                mass: m.mass,
                inertia: *c,
            }),
            _ => scene.push(SceneItem::Dot { point: center }),
        }
        bodies.push(name);
    }
    for (name, point, velocity) in contacts {
        points.push((
            format!("{name}.contact"),
            point.0.clone(),
            velocity.0.clone(),
        ));
    }
    for (_, w) in wheels.iter().filter(|(_, w)| !k.hidden.contains(&w.name)) {
        let body_center = points
            .iter()
            .position(|(n, _, _)| *n == format!("{}.center", w.name))
            .unwrap_or(0);
        // a surface centred away from the body's centre of mass (a rattleback's shell) is
        // drawn about its own centre, `W.surface`
        let off = Vector(points[body_center].1.clone()).sub(g, &w.center);
        let apart = off.0.iter().any(|(f, c)| {
            let c = kin
                .tree
                .express(g, &Vector::in_frame(*f, *c), root_of(kin, *f));
            !c.iter().all(|x| probably_zero(g, *x))
        });
        let center = if apart {
            points.push((
                format!("{}.surface", w.name),
                w.center.0.clone(),
                w.velocity.0.clone(),
            ));
            points.len() - 1
        } else {
            body_center
        };
        scene.push(match &w.shape {
            rolling::Shape::Disk { axis, radius } => SceneItem::Disk {
                center,
                frame: frame_pos(w.frame),
                normal: kin.tree.express(g, axis, w.frame),
                radius: *radius,
            },
            rolling::Shape::Torus { axis, major, crown } => SceneItem::Torus {
                center,
                frame: frame_pos(w.frame),
                normal: kin.tree.express(g, axis, w.frame),
                major: *major,
                crown: *crown,
            },
            rolling::Shape::Sphere { radius } => SceneItem::Shell {
                center,
                frame: frame_pos(w.frame),
                semi: [*radius; 3],
            },
            rolling::Shape::Ellipsoid { frame, semi } => SceneItem::Shell {
                center,
                frame: frame_pos(*frame),
                semi: *semi,
            },
        });
    }
    let root = frames.first().map(|(_, i)| *i).unwrap_or(0);
    for (name, point, velocity, up) in planes {
        let at = points.len();
        points.push((format!("{name}.point"), point.0.clone(), velocity.0.clone()));
        let up = kin.tree.express(g, up, root);
        if !k.hidden.contains(name) {
            scene.push(SceneItem::Grid { point: at, up });
        }
    }
    let point_at = |name: &String| points.iter().position(|(n, _, _)| n == name).unwrap_or(0);
    for d in draw {
        let at: Vec<usize> = d.points.iter().map(point_at).collect();
        let center = at.first().copied().unwrap_or(0);
        // the direction in the frame it is written in
        let f = d.vector.frames().next().unwrap_or(root);
        let v = kin.tree.express(g, &d.vector, f);
        let color = d.color;
        scene.push(match d.kind {
            DrawKind::Segment => SceneItem::Segment {
                from: center,
                to: at.get(1).copied().unwrap_or(center),
                color,
            },
            DrawKind::Sphere => SceneItem::Sphere {
                center,
                radius: d.radius,
                color,
            },
            DrawKind::Cylinder => SceneItem::Cylinder {
                center,
                frame: frame_pos(f),
                axis: v,
                radius: d.radius,
                length: d.length,
                color,
            },
            DrawKind::Cuboid => SceneItem::Cuboid {
                center,
                frame: frame_pos(f),
                half: v,
                color,
            },
        });
    }
    model::Geometry {
        joints,
        frames,
        points,
        bodies,
        scene,
        grounds: Vec::new(),
        requirements: Vec::new(),
    }
}

/// What the parameters must satisfy ([`model::Requirement`]): each body's mass and inertia,
/// each contact's friction coefficient and its surface's radii, named by body or contact
/// with the expression (`contacts`: the contacts' names, in `wheels`' order).
pub(super) fn requirements(
    g: &Graph,
    masses: &[MassBody],
    body_names: &[String],
    wheels: &[(&Rolling, Wheel)],
    (frictions, contacts): (&[Option<Id>], &[String]),
) -> Vec<model::Requirement> {
    use model::{Need, Requirement};
    let mut out = Vec::new();
    let mut need =
        |what: String, need: Need, values: Vec<Id>| out.push(Requirement { what, need, values });
    for (m, name) in masses.iter().zip(body_names) {
        let kind = if m.frame.is_some() {
            "body"
        } else {
            "particle"
        };
        let text = g.display(m.mass);
        need(
            format!("the mass of {kind} `{name}` ({text})"),
            Need::Positive,
            vec![m.mass],
        );
        if let Some((_, c)) = &m.inertia {
            need(
                format!(
                    "the principal moments of inertia of body `{name}` about its centre of mass"
                ),
                Need::Inertia,
                c.to_vec(),
            );
        }
    }
    for (((_, w), friction), contact) in wheels.iter().zip(frictions).zip(contacts) {
        let mut size = |what: &str, id: Id, n: Need| {
            need(
                format!("the {what} of contact `{contact}` ({})", g.display(id)),
                n,
                vec![id],
            )
        };
        match &w.shape {
            rolling::Shape::Disk { radius, .. } => size("radius", *radius, Need::Positive),
            rolling::Shape::Sphere { radius } => size("sphere's radius", *radius, Need::Positive),
            rolling::Shape::Torus { major, crown, .. } => {
                size("torus's major radius", *major, Need::Positive);
                size("torus's crown radius", *crown, Need::NotNegative);
            }
            rolling::Shape::Ellipsoid { semi, .. } => {
                for (axis, e) in ["first", "second", "third"].iter().zip(semi) {
                    size(&format!("ellipsoid's {axis} semi-axis"), *e, Need::Positive);
                }
            }
        }
        if let Some(mu) = friction {
            size("friction coefficient", *mu, Need::NotNegative);
        }
    }
    out
}
