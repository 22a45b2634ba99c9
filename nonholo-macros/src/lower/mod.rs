//! Stage 3: the checked model into the symbolic engine — symbols by role, `let`s as
//! shared subexpressions (parameter-only ones as atoms), the DSL's functions by the
//! engine's one table ([`Function`]).

use crate::check::kinematics::Kinematics;
use crate::check::types::VECTOR_METHODS;
use crate::check::Checked;
use crate::ctxt::Ctxt;
use crate::dsl::ast::{BinOp, Expr};
use crate::kinematics::vector::Vector;
use crate::kinematics::{Clock, Kin};
use crate::model::{Configuration, Lowered, Names, Parametrization, Sites, Symbols};
use crate::sym::HashMap;
use crate::sym::{Func, Func2, Function, Graph, Id, Node};

mod ground;
mod scene;
mod three_d;

use ground::GroundTerms;

/// What an expression of the DSL evaluates to.
#[derive(Clone)]
enum Value {
    Scalar(Id),
    Vector(Vector),
    /// A point, as the vector from the origin.
    Point(Vector),
}

struct Lowerer<'a> {
    g: Graph,
    names: HashMap<String, Id>,
    qd_of: HashMap<String, Id>,
    lets: &'a [(syn::Ident, Expr)],
    let_index: HashMap<String, usize>,
    let_cache: HashMap<usize, Value>,
    /// t, q, dot(q) and z: what makes an expression vary along a motion.
    state_syms: Vec<u32>,
    kinematics: &'a Kinematics,
    kin: Option<Kin>,
    clock: Clock,
    /// Each `ground`'s height and its gradient in its own variables, lowered at first use.
    grounds: Vec<Option<GroundTerms>>,
}

pub fn lower(m: &Checked, cx: &Ctxt) -> Lowered {
    let mut g = Graph::new();
    g.set_stage("the kinematics and energies (positions, velocities, T, V, constraints)");
    let t = g.new_symbol("t");
    let params: Vec<u32> = m
        .params
        .iter()
        .map(|(p, _)| g.new_symbol(&p.to_string()))
        .collect();
    let inputs: Vec<u32> = m
        .inputs
        .iter()
        .map(|u| g.new_symbol(&u.to_string()))
        .collect();
    let q: Vec<u32> = m
        .coords
        .iter()
        .map(|c| g.new_symbol(&c.to_string()))
        .collect();
    let qd: Vec<u32> = m
        .coords
        .iter()
        .map(|c| g.new_symbol(&format!("dot({c})")))
        .collect();
    let z: Vec<u32> = match &m.parametrization {
        Parametrization::Independent { .. } => vec![],
        _ => m
            .speeds
            .iter()
            .map(|s| g.new_symbol(&s.to_string()))
            .collect(),
    };
    let mut names = HashMap::default();
    let tid = g.sym(t);
    names.insert("t".to_string(), tid);
    for ((p, _), s) in m.params.iter().zip(&params) {
        let id = g.sym(*s);
        names.insert(p.to_string(), id);
    }
    for (u, s) in m.inputs.iter().zip(&inputs) {
        let id = g.sym(*s);
        names.insert(u.to_string(), id);
    }
    let mut qd_of = HashMap::default();
    for ((c, s), sd) in m.coords.iter().zip(&q).zip(&qd) {
        let id = g.sym(*s);
        names.insert(c.to_string(), id);
        let idd = g.sym(*sd);
        qd_of.insert(c.to_string(), idd);
    }
    for (name, s) in m.speeds.iter().zip(&z) {
        let id = g.sym(*s);
        names.insert(name.to_string(), id);
    }
    let let_index = m
        .lets
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.to_string(), i))
        .collect();
    let state_syms: Vec<u32> = std::iter::once(t)
        .chain(q.iter().copied())
        .chain(qd.iter().copied())
        .chain(z.iter().copied())
        .collect();
    let mut lw = Lowerer {
        g,
        names,
        qd_of,
        lets: &m.lets,
        let_index,
        let_cache: HashMap::default(),
        state_syms,
        kinematics: &m.kinematics,
        kin: None,
        clock: Clock {
            t,
            q: q.clone(),
            qd: qd.clone(),
        },
        grounds: vec![None; m.kinematics.grounds.len()],
    };

    let defaults = m
        .params
        .iter()
        .map(|(_, d)| {
            d.as_ref().and_then(|d| {
                let id = lw.expr(d);
                lw.g.as_number(id)
            })
        })
        .collect();
    // The 3D items first: `velocity(P)`, `angular_velocity(F)` and vector methods in
    // the user's T, V, forces and constraints need the frames and points.
    let three = (!m.kinematics.is_empty()).then(|| {
        lw.frames_and_points();
        lw.three_d(cx)
    });
    let mut kinetic = lw.expr(&m.kinetic);
    let mut potential = match &m.potential {
        Some(v) => lw.expr(v),
        None => lw.g.zero(),
    };
    let mut forces: Vec<Id> = m
        .forces
        .iter()
        .map(|f| match f {
            Some(f) => lw.expr(f),
            None => lw.g.zero(),
        })
        .collect();
    let mut constraints: Vec<Id> = m
        .constraints
        .iter()
        .map(|c| {
            let l = lw.expr(&c.lhs);
            let r = lw.expr(&c.rhs);
            lw.g.sub(l, r)
        })
        .collect();
    let mut constraint_texts: Vec<String> = m.constraints.iter().map(|c| c.text.clone()).collect();
    let mut constraint_spans: Vec<proc_macro2::Span> =
        m.constraints.iter().map(|c| c.span).collect();
    let mut configuration = Configuration::default();
    let mut geometry = None;
    let kinetic_rest = kinetic;
    let potential_rest = potential;
    let mut rigid = Vec::new();
    let mut contacts = crate::model::ContactTerms::default();
    let mut tree_parts = None;
    if let Some(k) = three {
        tree_parts = Some((k.bodies, k.gravity));
        // The balance sees the bodies, gravity and the loads: anything written as a
        // scalar (energy, constraint, coordinate force) is a force it cannot place.
        let scalar_free = [kinetic, potential]
            .iter()
            .chain(&forces)
            .chain(&constraints)
            .all(|x| lw.g.is_zero(*x))
            && k.configuration.residuals.len()
                == k.contacts.contacts.iter().filter(|c| c.height).count();
        contacts = k.contacts;
        contacts.balanced = scalar_free;
        let offset = constraints.len();
        for c in &mut contacts.contacts {
            for (row, _) in &mut c.rows {
                *row += offset;
            }
        }
        geometry = k.geometry;
        kinetic = lw.g.add(kinetic, k.kinetic);
        rigid = k.rigid;
        potential = lw.g.add(potential, k.potential);
        for (f, q) in forces.iter_mut().zip(k.forces) {
            *f = lw.g.add(*f, q);
        }
        for (row, text, span) in k.rows {
            constraints.push(row);
            constraint_texts.push(text);
            constraint_spans.push(span);
        }
        configuration = k.configuration;
    }
    let parametrization = match &m.parametrization {
        Parametrization::Speeds(es) => {
            Parametrization::Speeds(es.iter().map(|e| lw.expr(e)).collect())
        }
        Parametrization::Velocities(es) => {
            Parametrization::Velocities(es.iter().map(|e| lw.expr(e)).collect())
        }
        Parametrization::Independent { dependent } => Parametrization::Independent {
            dependent: dependent.clone(),
        },
    };
    // every expression is lowered: the frame tree goes with the bodies to the recursive
    // route, for models whose energy and forces are all the bodies' and gravity's
    let tree = match (tree_parts, lw.kin.take()) {
        (Some((bodies, gravity)), Some(kin))
            if [kinetic_rest, potential_rest]
                .iter()
                .all(|x| lw.g.is_zero(*x)) =>
        {
            Some(Box::new(crate::model::TreeSource {
                kin,
                bodies,
                gravity,
            }))
        }
        _ => None,
    };
    Lowered {
        graph: lw.g,
        syms: Symbols {
            t,
            params,
            inputs,
            q,
            qd,
            z,
        },
        names: Names {
            model: m.name.to_string(),
            coords: m.coords.iter().map(|c| c.to_string()).collect(),
            speeds: m.speeds.iter().map(|s| s.to_string()).collect(),
            constraints: constraint_texts,
        },
        sites: Sites {
            kinetic: m.kinetic_span,
            parametrization: m.parametrization_span,
            speeds: m.speeds.iter().map(|s| s.span()).collect(),
            constraints: constraint_spans,
        },
        formulation: m.formulation,
        kinetic,
        kinetic_rest,
        potential_rest,
        rigid,
        potential,
        forces,
        constraints,
        parametrization,
        defaults,
        configuration,
        geometry,
        contacts,
        tree,
    }
}

/// What the 3D items lower to.
struct ThreeD {
    kinetic: Id,
    rigid: Vec<crate::kinematics::bodies::RigidTerm>,
    potential: Id,
    forces: Vec<Id>,
    rows: Vec<(Id, String, proc_macro2::Span)>,
    configuration: Configuration,
    geometry: Option<crate::model::Geometry>,
    contacts: crate::model::ContactTerms,
    /// The bodies and gravity, for the recursive route ([`crate::mechanics::recursive`]).
    bodies: Vec<crate::kinematics::bodies::MassBody>,
    gravity: Option<crate::kinematics::vector::Vector>,
}

impl Lowerer<'_> {
    fn expr(&mut self, e: &Expr) -> Id {
        match self.value(e) {
            Value::Scalar(x) => x,
            _ => self.g.zero(),
        }
    }

    fn vector(&mut self, e: &Expr) -> Vector {
        match self.value(e) {
            Value::Vector(v) | Value::Point(v) => v,
            Value::Scalar(_) => Vector::zero(),
        }
    }

    /// An expression's value; type errors were reported by `check`, so a value of the
    /// wrong kind only stands in for them (zero).
    fn value(&mut self, e: &Expr) -> Value {
        match e {
            Expr::Lit { value, .. } => Value::Scalar(self.g.num(*value)),
            Expr::Error(_) => Value::Scalar(self.g.zero()),
            Expr::Ident(id) => {
                let key = id.to_string();
                if let Some(x) = self.names.get(&key) {
                    return Value::Scalar(*x);
                }
                if let Some(r) = self.kin.as_ref().and_then(|k| k.points.get(&key)) {
                    return Value::Point(r.clone());
                }
                if let Some(i) = self.let_index.get(&key).copied() {
                    if let Some(x) = self.let_cache.get(&i) {
                        return x.clone();
                    }
                    let body = self.lets[i].1.clone();
                    let mut x = self.value(&body);
                    // A `let` of parameters only (a mass moment, a combined length) is a
                    // constant of the run: keep it an atom, computed once per call, rather
                    // than multiplying it out into every term that uses it.
                    if let Value::Scalar(s) = x
                        && !self.g.depends_on_any(s, &self.state_syms)
                        && !matches!(self.g.node(s), Node::Num(_) | Node::Sym(_))
                    {
                        x = Value::Scalar(self.g.define(&key, s));
                    }
                    self.let_cache.insert(i, x.clone());
                    return x;
                }
                Value::Scalar(self.g.zero())
            }
            Expr::Dot { arg, .. } => Value::Scalar(match &**arg {
                Expr::Ident(id) => self
                    .qd_of
                    .get(&id.to_string())
                    .copied()
                    .unwrap_or_else(|| self.g.zero()),
                _ => self.g.zero(),
            }),
            Expr::Neg { expr, .. } => match self.value(expr) {
                Value::Scalar(x) => Value::Scalar(self.g.neg(x)),
                Value::Vector(v) => Value::Vector(v.neg(&mut self.g)),
                p => p,
            },
            Expr::Bin { op, lhs, rhs, .. } => {
                let a = self.value(lhs);
                let b = self.value(rhs);
                self.binary(*op, a, b)
            }
            Expr::Field { recv, field } => {
                let f = self.frame_of(recv);
                let axis = match field.to_string().as_str() {
                    "x" => 0,
                    "y" => 1,
                    _ => 2,
                };
                match f {
                    Some(f) => Value::Vector(Kin::unit(&mut self.g, f, axis)),
                    None => Value::Vector(Vector::zero()),
                }
            }
            Expr::Components { frame, comps, .. } => {
                let c: Vec<Id> = comps.iter().map(|c| self.expr(c)).collect();
                let f = self.frame_of(&Expr::Ident(frame.clone()));
                match (f, c.as_slice()) {
                    (Some(f), [x, y, z]) => Value::Vector(Vector::in_frame(f, [*x, *y, *z])),
                    _ => Value::Vector(Vector::zero()),
                }
            }
            Expr::Call { func, args } if func == "velocity" => match args.first() {
                Some(p) => Value::Vector(self.velocity(p)),
                None => Value::Vector(Vector::zero()),
            },
            Expr::Call { func, args } if func == "angular_velocity" => {
                let f = args.first().and_then(|a| self.frame_of(a));
                match (f, self.kin.as_ref()) {
                    (Some(f), Some(kin)) => Value::Vector(kin.omega(f)),
                    _ => Value::Vector(Vector::zero()),
                }
            }
            Expr::Call { func, args } => {
                let args: Vec<Id> = args.iter().map(|a| self.expr(a)).collect();
                Value::Scalar(self.apply(&func.to_string(), &args))
            }
            Expr::Method { recv, func, args } if self.ground_named(recv).is_some() => {
                let k = self.ground_named(recv).unwrap_or(0);
                let [x, y] = [0, 1].map(|i| match args.get(i) {
                    Some(a) => self.expr(a),
                    None => self.g.zero(),
                });
                if func == "at" {
                    let h = self.ground_height(k, x, y);
                    Value::Point(Vector::in_frame(self.root_frame(), [x, y, h]))
                } else {
                    Value::Vector(Vector::in_frame(
                        self.root_frame(),
                        self.ground_normal(k, x, y),
                    ))
                }
            }
            Expr::Method { recv, func, args } if VECTOR_METHODS.iter().any(|(m, _)| func == m) => {
                let u = self.vector(recv);
                let v = match args.first() {
                    Some(a) => self.vector(a),
                    None => Vector::zero(),
                };
                let Some(kin) = self.kin.as_ref() else {
                    return Value::Scalar(self.g.zero());
                };
                let g = &mut self.g;
                match func.to_string().as_str() {
                    "dot" => Value::Scalar(kin.tree.dot(g, &u, &v)),
                    "cross" => Value::Vector(kin.tree.cross(g, &u, &v)),
                    name => {
                        let uu = kin.tree.dot(g, &u, &u);
                        let n = g.func(Func::Sqrt, uu);
                        if name == "norm" {
                            Value::Scalar(n)
                        } else {
                            let inv = g.powi(n, -1);
                            Value::Vector(u.scale(g, inv))
                        }
                    }
                }
            }
            Expr::Method { recv, func, args } => {
                let mut all = vec![self.expr(recv)];
                all.extend(args.iter().map(|a| self.expr(a)));
                Value::Scalar(self.apply(&func.to_string(), &all))
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let g = &mut self.g;
        match (a, b) {
            (Value::Scalar(a), Value::Scalar(b)) => {
                let a = self.constant_atom(a);
                let b = self.constant_atom(b);
                let g = &mut self.g;
                Value::Scalar(match op {
                    BinOp::Add => g.add(a, b),
                    BinOp::Sub => g.sub(a, b),
                    BinOp::Mul => g.mul(a, b),
                    BinOp::Div => g.div(a, b),
                })
            }
            (Value::Scalar(k), Value::Vector(v)) | (Value::Vector(v), Value::Scalar(k)) => {
                Value::Vector(match op {
                    BinOp::Div => {
                        let inv = g.powi(k, -1);
                        v.scale(g, inv)
                    }
                    _ => v.scale(g, k),
                })
            }
            (Value::Point(p), Value::Point(q)) => Value::Vector(p.sub(g, &q)),
            (Value::Point(p), Value::Vector(v)) => Value::Point(match op {
                BinOp::Sub => p.sub(g, &v),
                _ => p.add(g, &v),
            }),
            (Value::Vector(u), Value::Vector(v)) => Value::Vector(match op {
                BinOp::Sub => u.sub(g, &v),
                _ => u.add(g, &v),
            }),
            (a, _) => a,
        }
    }

    /// `velocity(P)`: cached for a declared point, else by the transport theorem.
    fn velocity(&mut self, p: &Expr) -> Vector {
        if let Expr::Ident(id) = p {
            let name = id.to_string();
            if let Some(kin) = self.kin.as_mut().filter(|k| k.points.contains_key(&name)) {
                return kin.point_velocity(&mut self.g, &name, &self.clock);
            }
        }
        let r = self.vector(p);
        match self.kin.as_mut() {
            Some(kin) => kin.velocity_of(&mut self.g, &r, &self.clock),
            None => Vector::zero(),
        }
    }

    /// [`Self::velocity`] built on base points (`Kin::point_velocity_recursive`).
    fn velocity_recursive(&mut self, p: &Expr) -> Vector {
        if let Expr::Ident(id) = p {
            let name = id.to_string();
            if let Some(kin) = self.kin.as_mut().filter(|k| k.points.contains_key(&name)) {
                return kin.point_velocity_recursive(&mut self.g, &name, &self.clock);
            }
        }
        self.velocity(p)
    }

    /// The frame a name stands for (a frame, or a body's frame).
    fn frame_of(&self, e: &Expr) -> Option<usize> {
        let Expr::Ident(id) = e else { return None };
        let key = id.to_string();
        self.kinematics.frame_of.get(&key).copied().or_else(|| {
            self.kinematics
                .body_of
                .get(&key)
                .map(|b| self.kinematics.bodies[*b].frame)
        })
    }

    /// A sum of parameters only (a combined length such as `kappa1 + kappa2`) as an atom:
    /// constant along a run, it is computed once per call instead of being multiplied
    /// out into every term of the products it appears in.
    fn constant_atom(&mut self, x: Id) -> Id {
        if self.g.is_sum(x) && !self.g.depends_on_any(x, &self.state_syms) {
            let name = format!("({})", self.g.display(x));
            self.g.define(&name, x)
        } else {
            x
        }
    }

    fn apply(&mut self, name: &str, args: &[Id]) -> Id {
        let a = args.first().copied().unwrap_or_else(|| self.g.zero());
        let b = args.get(1).copied().unwrap_or_else(|| self.g.zero());
        match Function::by_name(name) {
            Some(Function::Unary(f)) => self.g.func(f, a),
            Some(Function::Binary(f)) => self.g.func2(f, a, b),
            Some(Function::Powi) => {
                let n = self
                    .g
                    .as_number(b)
                    .and_then(|n| n.as_int())
                    .and_then(|n| i32::try_from(n).ok());
                match n {
                    Some(n) => self.g.powi(a, n),
                    None => self.g.func2(Func2::Powf, a, b),
                }
            }
            None => self.g.zero(),
        }
    }
}
