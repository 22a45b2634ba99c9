//! The robot's items in the DSL's terms, appended to the model as if the user had written
//! them: frames, points, bodies, coordinates, inputs, forces, mimic constraints and the
//! entries of the `rolls` lines that name links. Every generated name carries the span of
//! the `urdf` item's path, so that a clash is reported there.

mod wheels;

use super::read::{JointKind, Pose, Robot};
use super::tree::{self, Merged, Tree};
use crate::ctxt::{nearest, Ctxt};
use crate::dsl::ast::{
    Actuated, BinOp, Constraint, Entry, Expr, Force, FrameDecl, Holonomic, Model, Named, Object,
    PointDecl, Rotation, Section, Urdf, UrdfRoot,
};
use crate::sym::number::Number;
use proc_macro2::Span;
use std::collections::HashMap;
use syn::Ident;

/// The root frame and its origin.
pub const WORLD: &str = "world";
pub const WORLD_ORIGIN: &str = "world_origin";

/// A URDF name as an identifier: characters outside `[A-Za-z0-9_]` become `_`, a leading
/// digit gets a `_` before it, and a Rust keyword a `_` after it.
pub fn ident_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if KEYWORDS.contains(&s.as_str()) {
        s.push('_');
    }
    s
}

const KEYWORDS: [&str; 52] = [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

struct Gen<'a> {
    span: Span,
    robot: &'a Robot,
    /// The file as the user wrote its path (messages say `file:line`).
    file: &'a str,
    /// Each link's identifier.
    link: Vec<String>,
    cx: &'a Ctxt,
}

impl Gen<'_> {
    fn ident(&self, name: &str) -> Ident {
        Ident::new(name, self.span)
    }

    fn var(&self, name: &str) -> Expr {
        Expr::Ident(self.ident(name))
    }

    fn lit(&self, n: Number) -> Expr {
        Expr::Lit {
            value: n,
            span: self.span,
        }
    }

    fn num(&self, x: f64) -> Expr {
        self.lit(Number::Float(x))
    }

    fn bin(&self, op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Bin {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
            span: self.span,
        }
    }

    fn components(&self, frame: &str, comps: [Expr; 3]) -> Expr {
        Expr::Components {
            frame: self.ident(frame),
            comps: comps.into(),
            span: self.span,
        }
    }

    fn dot(&self, q: &str) -> Expr {
        Expr::Dot {
            arg: Box::new(self.var(q)),
            span: self.span,
        }
    }

    fn call(&self, f: &str, args: Vec<Expr>) -> Expr {
        Expr::Call {
            func: self.ident(f),
            args,
        }
    }

    fn error(&self, line: u32, element: &str, msg: impl std::fmt::Display) {
        self.cx
            .error(self.span, format!("{}:{line}: {element}: {msg}", self.file));
    }

    fn rotation(&self, axis: usize, angle: Expr) -> Rotation {
        Rotation {
            axis: self.ident(["x", "y", "z"][axis]),
            angle,
        }
    }

    /// The origin's fixed rotation as body-fixed simple rotations: `Rz(yaw) Ry(pitch)
    /// Rx(roll)` is z by yaw, then y by pitch, then x by roll (zero angles left out).
    fn rpy(&self, pose: &Pose) -> Vec<Rotation> {
        let [roll, pitch, yaw] = pose.rpy;
        [(2, yaw), (1, pitch), (0, roll)]
            .into_iter()
            .filter(|(_, a)| !a.is_zero())
            .map(|(k, a)| self.rotation(k, self.lit(a.exact)))
            .collect()
    }
}

/// The robot's items, appended to `model`; false when an error made them incomplete.
pub fn declare(model: &mut Model, item: &Urdf, robot: &Robot, file: &str, cx: &Ctxt) -> bool {
    let span = item.path.span();
    let g = Gen {
        span,
        robot,
        file,
        link: robot.links.iter().map(|l| ident_name(&l.name)).collect(),
        cx,
    };
    let errors_before = cx.error_count();
    let joint_ids: HashMap<String, usize> = robot
        .joints
        .iter()
        .enumerate()
        .map(|(j, joint)| (ident_name(&joint.name), j))
        .collect();
    let joint_names: Vec<String> = robot.joints.iter().map(|j| ident_name(&j.name)).collect();
    let find_joint = |id: &Ident, what: &str| -> Option<usize> {
        let key = id.to_string();
        match joint_ids.get(&key) {
            Some(j) if robot.joints[*j].moves() => Some(*j),
            Some(_) => {
                cx.error_help(
                    id.span(),
                    format!("joint `{key}` is fixed in `{file}`: it cannot be {what}"),
                    "name a revolute, continuous or prismatic joint",
                );
                None
            }
            None => {
                let msg = format!("`{file}` has no joint `{key}`");
                match nearest(&key, joint_names.iter().map(String::as_str)) {
                    Some(s) => cx.error_help(id.span(), msg, format!("did you mean `{s}`?")),
                    None => cx.error(id.span(), msg),
                }
                None
            }
        }
    };
    let held: Vec<usize> = item
        .hold
        .iter()
        .filter_map(|h| find_joint(h, "held"))
        .collect();
    let tree = match tree::tree(robot, &held) {
        Ok(t) => t,
        Err(errors) => {
            for e in errors {
                cx.error(span, format!("{file}:{e}"));
            }
            return false;
        }
    };
    let (bodies, errors) = tree::merge(robot, &tree);
    for e in &errors {
        cx.error(span, format!("{file}:{e}"));
    }
    let Some((_, root)) = &item.root else {
        return false;
    };
    let root_name = g.link[tree.root].clone();
    if robot.links[tree.root].name == WORLD && !matches!(root, UrdfRoot::Fixed) {
        g.error(
            robot.links[tree.root].line,
            "<link name=\"world\">",
            "the root link is `world`, fixed by definition: write `root: fixed`, or make the robot's base the root",
        );
    }
    // the root frame, its origin, and the root link on it
    model.frames.push(FrameDecl {
        name: g.ident(WORLD),
        parent: None,
    });
    model.points.push(PointDecl {
        name: g.ident(WORLD_ORIGIN),
        def: None,
    });
    let mut coords: Vec<Ident> = Vec::new();
    let zero = || g.lit(Number::int(0));
    let (rotations, position) = match root {
        UrdfRoot::Fixed => (Vec::new(), [zero(), zero(), zero()]),
        UrdfRoot::Planar { coords: c, height } => {
            coords.extend(c.iter().cloned());
            let h = height.clone().unwrap_or_else(zero);
            (
                vec![g.rotation(2, Expr::Ident(c[2].clone()))],
                [Expr::Ident(c[0].clone()), Expr::Ident(c[1].clone()), h],
            )
        }
        UrdfRoot::Floating { coords: c } => {
            coords.extend(c.iter().cloned());
            (
                vec![
                    g.rotation(2, Expr::Ident(c[3].clone())),
                    g.rotation(1, Expr::Ident(c[4].clone())),
                    g.rotation(0, Expr::Ident(c[5].clone())),
                ],
                [0, 1, 2].map(|k| Expr::Ident(c[k].clone())),
            )
        }
    };
    if root_name != WORLD {
        model.frames.push(FrameDecl {
            name: g.ident(&root_name),
            parent: Some((g.ident(WORLD), rotations)),
        });
        model.points.push(PointDecl {
            name: g.ident(&origin(&root_name)),
            def: Some(g.bin(
                BinOp::Add,
                g.var(WORLD_ORIGIN),
                g.components(WORLD, position),
            )),
        });
    }
    // the joints, depth first: frames, origins, coordinates
    // each joint's generalized force: its damping and its effort
    let mut forces: Vec<Vec<Expr>> = vec![Vec::new(); robot.joints.len()];
    let mut inputs: Vec<Ident> = Vec::new();
    let actuated: Vec<usize> = match &item.actuated {
        Actuated::None => Vec::new(),
        Actuated::All => tree
            .order
            .iter()
            .copied()
            .filter(|j| robot.joints[*j].mimic.is_none())
            .collect(),
        Actuated::Joints(names) => names
            .iter()
            .filter_map(|n| {
                let j = find_joint(n, "actuated")?;
                if held.contains(&j) {
                    cx.error_help(
                        n.span(),
                        format!("joint `{n}` is held: it cannot also be actuated"),
                        "remove it from `hold` or from `actuated`",
                    );
                    return None;
                }
                Some(j)
            })
            .collect(),
    };
    for &j in &tree.depth_first {
        joint_items(&g, model, &tree, j, held.contains(&j));
    }
    for &j in &tree.order {
        let joint = &robot.joints[j];
        let q = ident_name(&joint.name);
        coords.push(g.ident(&q));
        if joint.damping != 0.0 {
            // `<dynamics damping>`: a viscous torque (force) between the joint's links
            let d = g.bin(BinOp::Mul, g.num(-joint.damping), g.dot(&q));
            forces[j].push(d);
        }
        if let Some(m) = &joint.mimic {
            let Some(&other) = joint_ids.get(&ident_name(&m.joint)) else {
                g.error(
                    joint.line,
                    &format!("<joint name=\"{}\">", joint.name),
                    format!("<mimic joint=\"{}\">: no such joint", m.joint),
                );
                continue;
            };
            if !tree.order.contains(&other) {
                g.error(
                    joint.line,
                    &format!("<joint name=\"{}\">", joint.name),
                    format!(
                        "<mimic joint=\"{}\">: that joint does not move (fixed or held)",
                        m.joint
                    ),
                );
                continue;
            }
            let rhs = g.bin(
                BinOp::Add,
                g.bin(
                    BinOp::Mul,
                    g.num(m.multiplier),
                    g.var(&ident_name(&m.joint)),
                ),
                g.num(m.offset),
            );
            model.holonomic.push(Holonomic {
                kw: g.ident("holonomic"),
                solve: vec![g.ident(&q)],
                equations: vec![Constraint {
                    lhs: g.var(&q),
                    rhs,
                    span,
                }],
            });
        }
    }
    for &j in &actuated {
        let u = format!("{}_effort", ident_name(&robot.joints[j].name));
        inputs.push(g.ident(&u));
        forces[j].push(g.var(&u));
    }
    // bodies: each group with mass; the fixed root's does not move
    for (link, merged) in &bodies {
        if *link == tree.root && matches!(root, UrdfRoot::Fixed) {
            continue;
        }
        model.objects.push(body(&g, &g.link[*link], merged));
    }
    check_moving_mass(&g, robot, &tree, &bodies);
    // the generated declarations come first: the user's refer to them
    prepend(&mut model.coordinates, coords, span);
    prepend(&mut model.inputs, inputs, span);
    let generated: Vec<Force> = tree
        .order
        .iter()
        .filter_map(|&j| {
            let sum = std::mem::take(&mut forces[j])
                .into_iter()
                .reduce(|a, b| g.bin(BinOp::Add, a, b))?;
            Some(Force::Coordinate(Named {
                name: g.ident(&ident_name(&robot.joints[j].name)),
                expr: sum,
            }))
        })
        .collect();
    prepend(&mut model.forces, generated, span);
    wheels::complete_rolls(&g, model, &tree);
    cx.error_count() == errors_before
}

fn origin(link: &str) -> String {
    format!("{link}_origin")
}

fn prepend<T>(slot: &mut Option<Section<Vec<T>>>, mut items: Vec<T>, span: Span) {
    if items.is_empty() {
        return;
    }
    match slot {
        Some(s) => {
            items.append(&mut s.value);
            s.value = items;
        }
        None => *slot = Some(Section { span, value: items }),
    }
}

/// The child link's frame and origin: the parent's frame turned by the joint's fixed
/// rotation, then by its coordinate about its axis (a revolute or continuous joint); the
/// origin at the joint's offset, moved along the axis by a prismatic joint's coordinate.
fn joint_items(g: &Gen, model: &mut Model, tree: &Tree, j: usize, held: bool) {
    let joint = &g.robot.joints[j];
    let (p, c) = (tree.parent[j], tree.child[j]);
    let (parent, child) = (&g.link[p], &g.link[c]);
    let q = ident_name(&joint.name);
    let mut rotations = g.rpy(&joint.origin);
    let moving = joint.moves() && !held;
    if moving && matches!(joint.kind, JointKind::Revolute | JointKind::Continuous) {
        rotations.extend(about_axis(g, joint.axis, g.var(&q)));
    }
    let parent_frame = if p == tree.root && parent == WORLD {
        WORLD.to_string()
    } else {
        parent.clone()
    };
    model.frames.push(FrameDecl {
        name: g.ident(child),
        parent: Some((g.ident(&parent_frame), rotations)),
    });
    let parent_origin = if parent_frame == WORLD && p == tree.root {
        WORLD_ORIGIN.to_string()
    } else {
        origin(parent)
    };
    let mut def = g.bin(
        BinOp::Add,
        g.var(&parent_origin),
        g.components(&parent_frame, joint.origin.xyz.map(|x| g.lit(x.exact))),
    );
    if moving && joint.kind == JointKind::Prismatic {
        let along = joint.axis.map(|a| g.bin(BinOp::Mul, g.num(a), g.var(&q)));
        def = g.bin(BinOp::Add, def, g.components(child, along));
    }
    model.points.push(PointDecl {
        name: g.ident(&origin(child)),
        def: Some(def),
    });
}

/// A rotation by `angle` about the unit `axis` as simple rotations: about a frame's own
/// axis directly; otherwise `Rz(a) Ry(b)` takes z onto the axis, `Rz(angle)` turns about
/// it, and `Ry(-b) Rz(-a)` turns back, so that the child frame is the joint frame turned
/// about the axis.
fn about_axis(g: &Gen, axis: [f64; 3], angle: Expr) -> Vec<Rotation> {
    for k in 0..3 {
        if axis[k].abs() == 1.0 {
            let angle = if axis[k] > 0.0 {
                angle
            } else {
                Expr::Neg {
                    expr: Box::new(angle),
                    span: g.span,
                }
            };
            return vec![g.rotation(k, angle)];
        }
    }
    let a = axis[1].atan2(axis[0]);
    let b = axis[2].clamp(-1.0, 1.0).acos();
    vec![
        g.rotation(2, g.num(a)),
        g.rotation(1, g.num(b)),
        g.rotation(2, angle),
        g.rotation(1, g.num(-b)),
        g.rotation(2, g.num(-a)),
    ]
}

/// `body L { frame: L, center: L_origin + L[c], mass, inertia: inertia(L, ..) }`.
fn body(g: &Gen, link: &str, m: &Merged) -> Object {
    let entry = |key: &str, value: Expr| Entry {
        key: g.ident(key),
        value,
    };
    let centre = g.bin(
        BinOp::Add,
        g.var(&origin(link)),
        g.components(link, m.centre.map(|x| g.num(x))),
    );
    let mut args = vec![g.var(link)];
    args.extend(m.inertia.iter().map(|x| g.num(*x)));
    Object {
        kw: g.ident("body"),
        name: g.ident(link),
        entries: vec![
            entry("frame", g.var(link)),
            entry("center", centre),
            entry("mass", g.num(m.mass)),
            entry("inertia", g.call("inertia", args)),
        ],
    }
}

/// Every moving joint must carry mass below it: a speed without inertia has no equation.
fn check_moving_mass(g: &Gen, robot: &Robot, tree: &Tree, bodies: &[(usize, Merged)]) {
    let massive: Vec<usize> = bodies.iter().map(|(l, _)| *l).collect();
    for &j in &tree.order {
        let joint = &robot.joints[j];
        // the links at or below the child
        let mut stack = vec![tree.child[j]];
        let mut carries = false;
        while let Some(l) = stack.pop() {
            if massive.contains(&l) {
                carries = true;
                break;
            }
            stack.extend(tree.below[l].iter().map(|k| tree.child[*k]));
        }
        if !carries {
            g.error(
                joint.line,
                &format!("<joint name=\"{}\">", joint.name),
                format!(
                    "the joint moves no mass (link `{}` and the links below it have none): its coordinate would have no equation; give the links their `<inertial>` or hold the joint (`hold {{ {} }}`)",
                    joint.child,
                    ident_name(&joint.name)
                ),
            );
        }
    }
}
