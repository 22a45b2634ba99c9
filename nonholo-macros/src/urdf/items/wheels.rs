//! The entries of `rolls LINK on G` that the URDF file gives: centre, axle and radius.

use super::super::read::Geometry;
use super::super::tree::{Transform, Tree};
use super::{origin, Gen};
use crate::dsl::ast::{BinOp, Entry, Expr, Model};

/// The entries a `rolls LINK on G` line leaves out, from the link's joint and collision
/// shape: the centre (the joint's origin, or the collision shape's centre on the axle),
/// the axle (the joint's axis) and the radius (a collision cylinder about the axle, or a
/// sphere).
pub(super) fn complete_rolls(g: &Gen, model: &mut Model, tree: &Tree) {
    for r in &mut model.rolls {
        let name = r.wheel.to_string();
        let Some(l) = g.link.iter().position(|x| *x == name) else {
            continue;
        };
        r.height_tolerance = 1e-9;
        let link = &g.robot.links[l];
        let Some(j) = tree.joint_above[l].filter(|_| tree.group[l] == l) else {
            let why = match tree.joint_above[l] {
                Some(j) => format!("its joint `{}` is fixed or held", g.robot.joints[j].name),
                None => "it is the root link".into(),
            };
            g.cx.error_help(
                r.wheel.span(),
                format!("link `{name}` does not turn on a joint of its own: {why}"),
                "a wheel is a link on a continuous or revolute joint",
            );
            continue;
        };
        let joint = &g.robot.joints[j];
        let given: Vec<String> = r.entries.iter().map(|e| e.key.to_string()).collect();
        let has = |k: &str| given.iter().any(|e| e == k);
        let surface = has("surface");
        let axis = joint.axis;
        let mut offset = [0.0; 3];
        let mut radius = None;
        for c in &link.collisions {
            let t =
                Transform::from_pose(c.origin.xyz.map(|x| x.value), c.origin.rpy.map(|x| x.value));
            let p = t.pos;
            let along: f64 = (0..3).map(|k| p[k] * axis[k]).sum();
            let off_axle = (0..3).any(|k| (p[k] - along * axis[k]).abs() > 1e-9);
            let r = match &c.geometry {
                Geometry::Cylinder { radius, .. } => {
                    let z = t.turn([0.0, 0.0, 1.0]);
                    let cos: f64 = (0..3).map(|k| z[k] * axis[k]).sum();
                    (cos.abs() > 1.0 - 1e-9).then_some(*radius)
                }
                Geometry::Sphere(radius) => Some(*radius),
                _ => None,
            };
            if let (Some(r), false) = (r, off_axle) {
                radius = Some(r);
                offset = p;
                break;
            }
        }
        if !has("center") {
            let centre = if offset.iter().all(|x| *x == 0.0) {
                g.var(&origin(&name))
            } else {
                g.bin(
                    BinOp::Add,
                    g.var(&origin(&name)),
                    g.components(&name, offset.map(|x| g.num(x))),
                )
            };
            r.entries.push(Entry {
                key: g.ident("center"),
                value: centre,
            });
        }
        if !surface && !has("axis") {
            r.entries.push(Entry {
                key: g.ident("axis"),
                value: g.components(&name, axis.map(|x| g.num(x))),
            });
        }
        if !surface && !has("radius") {
            match radius {
                Some(rad) => r.entries.push(Entry {
                    key: g.ident("radius"),
                    value: g.num(rad),
                }),
                None => {
                    g.cx.error_help(
                        r.wheel.span(),
                        format!(
                            "{}:{}: <link name=\"{}\">: no collision cylinder about the wheel's axle (nor a sphere) gives its radius",
                            g.file, link.line, link.name
                        ),
                        "give it: `rolls LINK on G { radius: r }`",
                    );
                    // reported: the missing entry is no second error
                    r.entries.push(Entry {
                        key: g.ident("radius"),
                        value: Expr::Error(g.span),
                    });
                }
            }
        }
    }
}
