//! The 3D items in the engine: the frame tree and points first (expressions anywhere
//! may use them), then bodies, gravity, loads, rolling contacts and configuration
//! constraints to T, V, generalized forces and velocity rows (`crate::kinematics`).

use super::scene::{geometry, requirements, Drawn};
use super::{Lowerer, ThreeD};
use crate::check::kinematics::{Load, Rolling, Surface};
use crate::ctxt::Ctxt;
use crate::dsl::ast::Expr;
use crate::kinematics::balance::{self, Applied};
use crate::kinematics::bodies::{self, MassBody};
use crate::kinematics::rolling::{self, Wheel};
use crate::kinematics::vector::Vector;
use crate::kinematics::Kin;
use crate::model::{self, Configuration, SceneItem};
use crate::sym::linsolve::{probably_zero, RandomPoints};
use crate::sym::HashMap;
use crate::sym::{Graph, Id};
use proc_macro2::Span;

impl Lowerer<'_> {
    /// The frame tree (sines, cosines, angular velocities) and the points, before any
    /// expression that may use them is lowered.
    pub(super) fn frames_and_points(&mut self) {
        let k = self.kinematics;
        let angles: Vec<Id> = k.frames.iter().map(|f| self.expr(&f.angle)).collect();
        let state: Vec<u32> = self.state_syms.clone();
        self.kin = Some(Kin::new(&mut self.g, k, &angles, &state, &self.clock));
        // lets met while lowering angles saw no frames yet
        self.let_cache.clear();
        for (name, def) in &k.points {
            let r = match def {
                Some(e) => self.vector(e),
                None => Vector::zero(),
            };
            if let Some(kin) = self.kin.as_mut() {
                // `P = Q + ..`: P's velocity is built on Q's (see `Kin::point_velocity`)
                let base = def
                    .as_ref()
                    .and_then(base_point)
                    .filter(|b| kin.points.contains_key(b));
                if let Some(b) = base {
                    kin.bases.insert(name.clone(), b);
                }
                kin.points.insert(name.clone(), r);
            }
        }
    }

    /// Bodies, gravity, loads, rolling contacts and configuration constraints to T, V,
    /// generalized forces and velocity rows.
    pub(super) fn three_d(&mut self, cx: &Ctxt) -> ThreeD {
        let k = self.kinematics;
        let mut masses = Vec::new();
        for b in &k.bodies {
            let center = self.vector(&b.center);
            let mass = self.expr(&b.mass);
            let inertia = b.inertia.as_ref().map(|(f, span, comps)| {
                let mut c = [self.g.zero(); 6];
                for (i, e) in comps.iter().enumerate().take(6) {
                    c[i] = self.expr(e);
                }
                if let Some(kin) = self.kin.as_ref()
                    && let Some(why) = bodies::inertia_frame_problem(kin, &mut self.g, b.frame, *f, &c) {
                        cx.error_help(
                            *span,
                            why,
                            "give the inertia in a frame fixed in the body, or in one that turns relative to it only about an axis of symmetry",
                        );
                    }
                (*f, c)
            });
            masses.push(MassBody {
                name: b.name.to_string(),
                frame: Some(b.frame),
                center,
                velocity: self.velocity(&b.center),
                velocity_recursive: self.velocity_recursive(&b.center),
                mass,
                inertia,
            });
        }
        for (i, p) in k.particles.iter().enumerate() {
            let center = self.vector(&p.point);
            let mass = self.expr(&p.mass);
            masses.push(MassBody {
                name: format!("particle{i}"),
                frame: None,
                center,
                velocity: self.velocity(&p.point),
                velocity_recursive: self.velocity_recursive(&p.point),
                mass,
                inertia: None,
            });
        }
        let gravity = k.gravity.as_ref().map(|e| {
            let v = self.vector(e);
            // V = -m g . r is a potential only for a field that does not turn with q
            if let Some(kin) = self.kin.as_ref()
                && !kin.is_fixed(&mut self.g, &v, &self.clock.q)
            {
                cx.error_help(
                    e.span(),
                    "gravity turns with the coordinates: it is written in a frame that moves",
                    "write gravity in the inertial frame, e.g. `gravity = -g * N.z;`",
                );
            }
            v
        });
        let mut loads = Vec::new();
        let mut applied = Vec::new();
        for l in &k.loads {
            match l {
                Load::At { point, force } => {
                    let f = self.vector(force);
                    let v = self.velocity(point);
                    let r = self.vector(point);
                    applied.push(Applied::Force {
                        point: r,
                        force: f.clone(),
                    });
                    loads.push((v, f));
                }
                Load::On {
                    frame,
                    torque,
                    sign,
                } => {
                    let t = self.vector(torque);
                    let t = if *sign < 0.0 { t.neg(&mut self.g) } else { t };
                    applied.push(Applied::Torque(t.clone()));
                    if let Some(kin) = self.kin.as_ref() {
                        loads.push((kin.omega(*frame), t));
                    }
                }
            }
        }
        let mut wheels = Vec::new();
        let frictions: Vec<Option<Id>> = k
            .rolls
            .iter()
            .map(|r| r.friction.as_ref().map(|e| self.expr(e)))
            .collect();
        for r in &k.rolls {
            let body = &k.bodies[r.body.min(k.bodies.len().saturating_sub(1))];
            let lateral = r.lateral;
            let contact = r.contact.as_ref().map(|c| self.vector(c));
            let (plane_point, up, fixed_up) = match (r.ground, &contact) {
                // uneven ground: the normal where the coordinates put the contact
                (Some(gk), Some(p)) => {
                    let root = self.root_frame();
                    let c = match self.kin.as_ref() {
                        Some(kin) => kin.tree.express(&mut self.g, p, root),
                        None => [self.g.zero(); 3],
                    };
                    let n = self.ground_normal(gk, c[0], c[1]);
                    (p.clone(), Vector::in_frame(root, n), false)
                }
                _ => {
                    let plane = &k.planes[r.plane.min(k.planes.len().saturating_sub(1))];
                    (self.vector(&plane.point), self.vector(&plane.up), true)
                }
            };
            wheels.push((
                r,
                Wheel {
                    name: body.name.to_string(),
                    frame: body.frame,
                    center: self.vector(&r.center),
                    velocity: self.velocity(&r.center),
                    shape: self.shape(r),
                    contact,
                    plane_point,
                    up,
                    fixed_up,
                    lateral,
                    solve: r.solve.map(|(i, _)| self.clock.q[i]),
                    height_tolerance: r.height_tolerance,
                },
            ));
        }
        let mut planes: Vec<(String, Vector, Vector, Vector)> = Vec::new();
        let mut plane_names: Vec<(&String, &usize)> = k.plane_of.iter().collect();
        plane_names.sort_by_key(|(_, i)| **i);
        for (name, i) in plane_names {
            let p = &k.planes[*i];
            let point = self.vector(&p.point);
            let velocity = self.velocity(&p.point);
            let up = self.vector(&p.up);
            planes.push((name.clone(), point, velocity, up));
        }
        let zero = self.g.zero();
        let draw: Vec<Drawn> = k
            .draw
            .iter()
            .map(|d| Drawn {
                kind: d.kind,
                points: d.points.clone(),
                radius: d.radius.as_ref().map_or(zero, |e| self.expr(e)),
                length: d.length.as_ref().map_or(zero, |e| self.expr(e)),
                vector: d
                    .vector
                    .as_ref()
                    .map(|e| self.vector(e))
                    .unwrap_or_default(),
                color: d.color,
            })
            .collect();
        let holonomic: Vec<(Id, String, proc_macro2::Span, Vec<usize>)> = k
            .holonomic
            .iter()
            .flat_map(|h| {
                h.equations
                    .iter()
                    .map(|(l, r, text)| (l, r, text.clone(), h.span, h.solve.clone()))
                    .collect::<Vec<_>>()
            })
            .map(|(l, r, text, span, solve)| {
                let l = self.expr(l);
                let r = self.expr(r);
                (self.g.sub(l, r), text, span, solve)
            })
            .collect();

        // each ground's height in its own variables, for drawing it
        let grounds: Vec<(String, [u32; 2], Id)> = (0..k.grounds.len())
            .map(|i| {
                let t = self.ground_terms(i);
                (k.grounds[i].name.clone(), [t.u, t.v], t.h)
            })
            .collect();
        let g = &mut self.g;
        let zero = g.zero();
        let Some(kin) = self.kin.as_mut() else {
            return ThreeD {
                kinetic: zero,
                rigid: Vec::new(),
                potential: zero,
                forces: vec![zero; self.clock.q.len()],
                rows: vec![],
                configuration: Configuration::default(),
                geometry: None,
                contacts: model::ContactTerms::default(),
                bodies: Vec::new(),
                gravity: None,
            };
        };
        let (kinetic, rigid) = bodies::kinetic_energy(kin, g, &masses, gravity.as_ref());
        let potential = match &gravity {
            Some(gv) => bodies::potential_energy(kin, g, gv, &masses),
            None => zero,
        };
        let forces = bodies::generalized_forces(kin, g, &self.clock, &loads);
        let mut rows = Vec::new();
        let mut configuration = Configuration::default();
        let mut contacts = Vec::new();
        let mut contact_terms = model::ContactTerms::default();
        if !wheels.is_empty() {
            contact_terms.momenta = balance::momenta(kin, g, &masses).to_vec();
            contact_terms.applied =
                balance::applied(kin, g, &masses, gravity.as_ref(), &applied).to_vec();
        }
        for ((r, w), friction) in wheels.iter().zip(&frictions) {
            match rolling::roll(kin, g, &self.clock, w) {
                Ok(c) => {
                    contacts.push((w.name.clone(), c.point.clone(), c.velocity.clone()));
                    let start = rows.len();
                    contact_terms.contacts.push(model::ContactTerm {
                        point: balance::root(kin, g, &c.point),
                        up: balance::root(kin, g, &w.up),
                        axle: {
                            let a = w.load_axle(g, kin);
                            balance::root(kin, g, &a)
                        },
                        friction: *friction,
                        rows: c
                            .directions
                            .iter()
                            .enumerate()
                            .map(|(i, e)| (start + i, balance::root(kin, g, e)))
                            .collect(),
                        height: c.height.is_some(),
                        shares_lateral_with: None,
                        turns_on_axle: w.shape.axle().is_some(),
                    });
                    for (row, text) in c.rows {
                        rows.push((row, text, r.span));
                    }
                    if let (Some(h), Some((i, _))) = (c.height, r.solve) {
                        configuration.residuals.push(h);
                        configuration
                            .texts
                            .push(format!("contact height of {} == 0", w.name));
                        configuration.solve.push(i);
                    }
                }
                Err((site, why)) => {
                    let plane = k.planes.get(r.plane);
                    let span = match site {
                        rolling::Site::Up => plane.map(|p| p.up.span()),
                        rolling::Site::Contact => r.contact.as_ref().map(Expr::span),
                        rolling::Site::Solve => r.solve.map(|(_, s)| s),
                        rolling::Site::Frame => r.frame_span,
                        rolling::Site::Rolls => None,
                    };
                    let help = match site {
                        rolling::Site::Rolls => "add `solve: q` with the coordinate the height determines (a pitch, a height), or build the center from a contact point on the plane",
                        rolling::Site::Solve => "`solve` is for a contact that reaches the plane only when a coordinate takes the right value",
                        rolling::Site::Contact => "the contact is the point of the surface nearest the plane; leave `contact` out to let the macro place it",
                        rolling::Site::Up => "write the plane's `up` as a unit vector fixed in the inertial frame, e.g. `N.z`",
                        rolling::Site::Frame => "give the ellipsoid in the body's frame, or in a frame fixed in the body",
                    };
                    cx.error_help(span.unwrap_or(r.span), why, help);
                }
            }
        }
        share_lateral_rows(g, &wheels, &mut contact_terms.contacts);
        for (f, text, span, solve) in holonomic {
            let row = self.clock.derivative(g, f);
            rows.push((row, format!("d/dt ({text})"), span));
            configuration.residuals.push(f);
            configuration.texts.push(text);
            for i in solve {
                if !configuration.solve.contains(&i) {
                    configuration.solve.push(i);
                }
            }
        }
        for k in redundant_rows(g, &rows, &self.clock.qd) {
            let (_, text, span) = &rows[k];
            let help = if text.starts_with("rolls ") && !text.contains("height") {
                "two wheels on one axle share their lateral row: write `lateral: false` on one of them"
            } else {
                "remove the contact or constraint that says the same as the others"
            };
            cx.error_help(
                *span,
                format!("this row repeats what the other constraints already say (`{text}`): the velocity constraints would be dependent"),
                help,
            );
        }
        if configuration.solve.len() == configuration.residuals.len() {
            for f in &configuration.residuals {
                for q in &self.clock.q {
                    let d = g.diff(*f, *q);
                    configuration.jacobian.push(d);
                }
            }
        } else {
            configuration = Configuration::default();
        }
        let mut geometry = geometry(
            kin,
            g,
            &self.clock,
            k,
            &masses,
            &wheels,
            (&contacts, &planes, &draw),
        );
        for (i, (name, _, _)) in grounds.iter().enumerate() {
            if !k.hidden.contains(name) {
                geometry.scene.push(SceneItem::Ground { ground: i });
            }
        }
        geometry.grounds = grounds;
        geometry.requirements = requirements(
            g,
            &masses,
            &geometry.bodies,
            &wheels,
            (&frictions, &k.contact_names()),
        );
        ThreeD {
            kinetic,
            rigid,
            potential,
            forces,
            rows,
            configuration,
            geometry: Some(geometry),
            contacts: contact_terms,
            bodies: masses,
            gravity,
        }
    }
}

impl Lowerer<'_> {
    /// A `rolls` item's surface in the engine.
    fn shape(&mut self, r: &Rolling) -> rolling::Shape {
        match &r.surface {
            Surface::Disk { axis, radius } => rolling::Shape::Disk {
                axis: self.vector(axis),
                radius: self.expr(radius),
            },
            Surface::Torus { axis, major, crown } => rolling::Shape::Torus {
                axis: self.vector(axis),
                major: self.expr(major),
                crown: self.expr(crown),
            },
            Surface::Sphere { radius } => rolling::Shape::Sphere {
                radius: self.expr(radius),
            },
            Surface::Ellipsoid { semi } => rolling::Shape::Ellipsoid {
                frame: r.frame,
                semi: [
                    self.expr(&semi[0]),
                    self.expr(&semi[1]),
                    self.expr(&semi[2]),
                ],
            },
        }
    }
}

/// A wheel with `lateral: false` shares the lateral row of the wheel on its axle: the
/// first one with a lateral row whose axle is parallel and whose contact point lies on the
/// line through this one's along the axle (on a wagon, the other front wheel, not a rear
/// one), else the first with a parallel axle. The rigid model gives only the sum of their
/// lateral forces.
fn share_lateral_rows(
    g: &mut Graph,
    wheels: &[(&Rolling, Wheel)],
    terms: &mut [model::ContactTerm],
) {
    if terms.len() != wheels.len() {
        return;
    }
    for i in 0..terms.len() {
        if wheels[i].1.lateral {
            continue;
        }
        let (a, p) = (terms[i].axle, terms[i].point);
        let parallel: Vec<usize> = (0..terms.len())
            .filter(|&j| {
                let b = terms[j].axle;
                j != i
                    && wheels[j].1.lateral
                    && crate::kinematics::vector::cross3(g, a, b)
                        .iter()
                        .all(|c| probably_zero(g, *c))
            })
            .collect();
        let on_the_axle = parallel.iter().copied().find(|&j| {
            let q = terms[j].point;
            let d = [g.sub(q[0], p[0]), g.sub(q[1], p[1]), g.sub(q[2], p[2])];
            crate::kinematics::vector::cross3(g, d, a)
                .iter()
                .all(|c| probably_zero(g, *c))
        });
        terms[i].shares_lateral_with = on_the_axle.or(parallel.first().copied());
    }
}

/// The point a position is written from: the leftmost operand of its sums (`Q` in
/// `Q - a * K.z + b * K.x`).
fn base_point(e: &Expr) -> Option<String> {
    match e {
        Expr::Ident(id) => Some(id.to_string()),
        Expr::Bin {
            op: crate::dsl::ast::BinOp::Add | crate::dsl::ast::BinOp::Sub,
            lhs,
            ..
        } => base_point(lhs),
        _ => None,
    }
}

/// Rows (linear in the velocities) that are combinations of the rows before them at every
/// one of a few pseudo-random points: numerically, by Gram–Schmidt on their velocity
/// coefficients with a relative threshold of 1e-9.
fn redundant_rows(g: &mut Graph, rows: &[(Id, String, Span)], qd: &[u32]) -> Vec<usize> {
    let coefficients: Vec<Vec<Id>> = rows
        .iter()
        .map(|(row, _, _)| g.affine_parts(*row, qd).0)
        .collect();
    let mut points = RandomPoints::new(0x5DEE_CE66_D1CE_4E5B);
    let envs: Vec<Vec<f64>> = (0..3).map(|_| points.next_point(g)).collect();
    let mut redundant_everywhere: Option<Vec<bool>> = None;
    for env in &envs {
        let mut memo = HashMap::default();
        let mut basis: Vec<Vec<f64>> = Vec::new();
        let mut redundant = Vec::with_capacity(rows.len());
        for c in &coefficients {
            let mut v: Vec<f64> = c.iter().map(|e| g.eval(*e, env, &mut memo)).collect();
            let norm0 = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            for b in &basis {
                let p: f64 = v.iter().zip(b).map(|(x, y)| x * y).sum();
                v.iter_mut().zip(b).for_each(|(x, y)| *x -= p * y);
            }
            let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            let dependent = norm <= 1e-9 * norm0 || !norm.is_finite();
            if !dependent {
                basis.push(v.iter().map(|x| x / norm).collect());
            }
            redundant.push(dependent && norm0.is_finite());
        }
        redundant_everywhere = Some(match redundant_everywhere {
            None => redundant,
            Some(r) => r.iter().zip(&redundant).map(|(a, b)| *a && *b).collect(),
        });
    }
    redundant_everywhere
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter(|(_, r)| **r)
        .map(|(k, _)| k)
        .collect()
}
