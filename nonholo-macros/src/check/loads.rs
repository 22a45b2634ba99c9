//! `forces { .. }`: generalized forces per coordinate, and the 3D loads — a force at a
//! point, a torque on a body, an action-reaction torque pair.

use super::exprs::Allowed;
use super::input::Input;
use super::kinematics::{frame_named, Kinematics, Load};
use super::types::Ty;
use crate::dsl::ast::{Expr, Force, Named, Section};

/// `forces { .. }`: generalized forces per coordinate, and loads at points and on bodies.
pub fn forces(k: &Input, out: &mut Kinematics, section: Option<Section<Vec<Force>>>) -> Vec<Named> {
    let mut per_coordinate = Vec::new();
    for f in section.map(|s| s.value).unwrap_or_default() {
        match f {
            Force::Coordinate(n) => {
                k.ty.expect(&n.expr, Ty::Scalar, "a generalized force");
                per_coordinate.push(n);
            }
            Force::At { point, force } => {
                k.v.expr(&force, Allowed::velocities("forces").with_inputs());
                k.ty.expect(&force, Ty::Vector, "a force at a point");
                if k.names.get(&point.to_string()).is_none() {
                    k.names.unknown_point(&point, k.cx);
                }
                let p = Expr::Ident(point);
                k.ty.expect(&p, Ty::Point, "`at ..`");
                out.loads.push(Load::At { point: p, force });
            }
            Force::On { body, torque } => {
                k.v.expr(&torque, Allowed::velocities("forces").with_inputs());
                k.ty.expect(&torque, Ty::Vector, "a torque");
                if let Some(frame) = frame_named(k, out, &Expr::Ident(body)) {
                    out.loads.push(Load::On {
                        frame,
                        torque,
                        sign: 1.0,
                    });
                }
            }
            Force::Between {
                on,
                against,
                torque,
            } => {
                k.v.expr(&torque, Allowed::velocities("forces").with_inputs());
                k.ty.expect(&torque, Ty::Vector, "a torque");
                if on == against {
                    k.cx.error_help(
                        against.span(),
                        format!("a torque between `{on}` and itself has no effect"),
                        "`between W, V: T` acts with +T on W and -T on V: name two bodies",
                    );
                }
                let a = frame_named(k, out, &Expr::Ident(on));
                let b = frame_named(k, out, &Expr::Ident(against));
                if let (Some(a), Some(b)) = (a, b) {
                    out.loads.push(Load::On {
                        frame: a,
                        torque: torque.clone(),
                        sign: 1.0,
                    });
                    out.loads.push(Load::On {
                        frame: b,
                        torque,
                        sign: -1.0,
                    });
                }
            }
        }
    }
    per_coordinate
}
