//! Stage 3b: the 3D layer lowered to what the formulations already take — T, V,
//! generalized forces and velocity constraints in q, dot(q), t (`design/kinematics.md`,
//! sections 4, 5 and 8).
//!
//! - Frames: each simple rotation interns its sine and cosine once; the angular velocity
//!   of F relative to the root is `omega_F = omega_parent + theta_dot e_k`, a sum of one
//!   term per rotation kept in the frame it lives in (the recurrence of Modelica's
//!   `axesRotations`, no DCM derivative, no trigonometric identity needed).
//! - Points are vectors from the origin; `velocity(P)` is the transport theorem per
//!   term, `sum_F (dc/dt + omega_F x c)` in F.
//! - Vectors are re-expressed only where an operation needs a common frame
//!   ([`vector::Tree::express`]); components that grow are atoms (`define_if_large`),
//!   so T is a sum of squares of atoms and nothing is expanded before differentiation.

pub mod axes;
pub mod balance;
pub mod bodies;
pub mod rolling;
pub mod vector;

use crate::check::kinematics::Kinematics;
use crate::sym::linsolve::probably_zero;
use crate::sym::HashMap;
use crate::sym::{Func, Graph, Id};
use vector::{Joint, Tree, Vector};

/// Components larger than this become atoms. At 16 a wheel centre's velocity
/// (`dot(x) + r dot(yaw) cos(yaw) sin(lean) + ..`, 16 nodes) stays open, so T's squares of
/// it meet `sin^2 + cos^2 = 1`: the 3D rolling disk's rhs takes 56 operations instead of
/// 120 at 12, and the Whipple bicycle's 4860 instead of 4925 (rhs_jvp 6 % faster). Above
/// 20 the bicycle grows (24: 4954, 64: 7797).
const ATOM_SIZE: u32 = 16;

/// The symbols a time derivative needs.
pub struct Clock {
    pub t: u32,
    pub q: Vec<u32>,
    pub qd: Vec<u32>,
}

impl Clock {
    /// `d e / dt` along a motion: `sum_i de/dq_i dot(q_i) + de/dt` (e free of dot(q)).
    pub fn derivative(&self, g: &mut Graph, e: Id) -> Id {
        let mut parts = Vec::with_capacity(self.q.len() + 1);
        for (q, qd) in self.q.iter().zip(&self.qd) {
            let d = g.diff(e, *q);
            if !g.is_zero(d) {
                let v = g.sym(*qd);
                parts.push(g.mul(d, v));
            }
        }
        parts.push(g.diff(e, self.t));
        g.add_all(&parts)
    }
}

/// The lowered frame tree and the per-frame and per-point caches.
pub struct Kin {
    pub tree: Tree,
    pub names: Vec<String>,
    /// Each frame's angle (unused for the root).
    pub angles: Vec<Id>,
    /// omega_F (relative to the root) as one term per rotation.
    omega: Vec<Vector>,
    /// omega_F resolved in F, components as atoms.
    omega_in: HashMap<usize, [Id; 3]>,
    /// Whether each frame's angle is constant (parameters only).
    pub constant: Vec<bool>,
    pub points: HashMap<String, Vector>,
    /// The point each point is written from (`P = Q + ..`), when there is one.
    pub bases: HashMap<String, String>,
    velocities: HashMap<String, Vector>,
    recursive: HashMap<String, Vector>,
}

impl Kin {
    /// Intern sines and cosines; `angles[i]` is the lowered angle of frame i (unused for
    /// the root), `state` the symbols a constant angle must not depend on.
    pub fn new(g: &mut Graph, k: &Kinematics, angles: &[Id], state: &[u32], clock: &Clock) -> Kin {
        let mut joints: Vec<Joint> = Vec::with_capacity(k.frames.len());
        let mut omega: Vec<Vector> = Vec::with_capacity(k.frames.len());
        let mut constant = Vec::with_capacity(k.frames.len());
        for (i, f) in k.frames.iter().enumerate() {
            let theta = angles[i];
            let depth = f.parent.map(|p| joints[p].depth + 1).unwrap_or(0);
            let (cos, sin) = if f.parent.is_some() {
                (g.func(Func::Cos, theta), g.func(Func::Sin, theta))
            } else {
                (g.one(), g.zero())
            };
            joints.push(Joint {
                parent: f.parent,
                axis: f.axis,
                depth,
                cos,
                sin,
            });
            let is_const = f.parent.is_none() || !g.depends_on_any(theta, state);
            constant.push(is_const);
            let mut w = f.parent.map(|p| omega[p].clone()).unwrap_or_default();
            if !is_const {
                let rate = clock.derivative(g, theta);
                let z = g.zero();
                let mut c = [z, z, z];
                c[f.axis] = rate;
                w = w.add(g, &Vector::in_frame(i, c));
            }
            omega.push(w);
        }
        Kin {
            tree: Tree { joints },
            angles: angles.to_vec(),
            names: k.frames.iter().map(|f| f.name.clone()).collect(),
            omega,
            omega_in: HashMap::default(),
            constant,
            points: HashMap::default(),
            bases: HashMap::default(),
            velocities: HashMap::default(),
            recursive: HashMap::default(),
        }
    }

    /// `F.x`, `F.y`, `F.z`.
    pub fn unit(g: &mut Graph, f: usize, axis: usize) -> Vector {
        let z = g.zero();
        let mut c = [z, z, z];
        c[axis] = g.one();
        Vector::in_frame(f, c)
    }

    /// omega_F relative to the root (a sum of per-rotation terms).
    pub fn omega(&self, f: usize) -> Vector {
        self.omega[f].clone()
    }

    /// omega_F resolved in F, each component an atom when large.
    pub fn omega_in(&mut self, g: &mut Graph, f: usize) -> [Id; 3] {
        if let Some(c) = self.omega_in.get(&f) {
            return *c;
        }
        let c = self.tree.express(g, &self.omega[f], f);
        let c = self.atoms(g, &format!("omega_{}", self.names[f]), c);
        self.omega_in.insert(f, c);
        c
    }

    /// Components as atoms when large (named `name.x` ..).
    pub fn atoms(&self, g: &mut Graph, name: &str, c: [Id; 3]) -> [Id; 3] {
        let axes = ["x", "y", "z"];
        let mut out = c;
        for k in 0..3 {
            out[k] = g.define_if_large(&format!("{name}.{}", axes[k]), c[k], ATOM_SIZE);
        }
        out
    }

    /// The velocity (relative to the root) of a point at `r` from the origin: the
    /// transport theorem per term, `d/dt c + omega_F x c` in F.
    pub fn velocity_of(&mut self, g: &mut Graph, r: &Vector, clock: &Clock) -> Vector {
        let mut v = Vector::zero();
        for (f, c) in r.0.clone() {
            let cd = [0, 1, 2].map(|k| clock.derivative(g, c[k]));
            let mut term = Vector::in_frame(f, cd);
            if !self.constant_chain(f) {
                let w = self.omega_in(g, f);
                let wc = vector::cross3(g, w, c);
                term = term.add(g, &Vector::in_frame(f, wc));
            }
            v = v.add(g, &term);
        }
        v
    }

    /// Whether `v` does not change with the symbols `syms` (coordinates, time) when
    /// resolved in the root frame: a vector fixed in space, however it is written.
    pub fn is_fixed(&self, g: &mut Graph, v: &Vector, syms: &[u32]) -> bool {
        let Some(f) = v.frames().next() else {
            return true;
        };
        let root = self.tree.path_to_root(f).last().copied().unwrap_or(f);
        let c = self.tree.express(g, v, root);
        c.iter().all(|x| {
            syms.iter().all(|s| {
                let d = g.diff(*x, *s);
                probably_zero(g, d)
            })
        })
    }

    /// Whether F does not turn relative to the root.
    pub fn constant_chain(&self, f: usize) -> bool {
        self.tree.path_to_root(f).iter().all(|x| self.constant[*x])
    }

    /// `velocity(P)` of a declared point, cached, components as atoms: the transport
    /// theorem on its position, one term per frame.
    pub fn point_velocity(&mut self, g: &mut Graph, name: &str, clock: &Clock) -> Vector {
        if let Some(v) = self.velocities.get(name) {
            return v.clone();
        }
        let r = self.points.get(name).cloned().unwrap_or_default();
        let v = self.velocity_of(g, &r, clock);
        let mut named = Vector::zero();
        for (f, c) in &v.0 {
            let c = self.atoms(g, &format!("v_{name}[{}]", self.names[*f]), *c);
            named = named.add(g, &Vector::in_frame(*f, c));
        }
        self.velocities.insert(name.to_string(), named.clone());
        named
    }

    /// `velocity(P)` built on its base point's (`P = Q + c`: `v_Q + d/dt c`), resolved in
    /// one frame as atoms, cached. Along a chain of links each point then costs one
    /// rotation from the one before (the recursion of Featherstone's algorithms) instead of
    /// one per link above it, and so does each partial velocity `d v_P / d dot(q)`. Equal
    /// to [`Kin::point_velocity`]; the body-wise Lagrange terms use it (T keeps the open
    /// form, whose squares meet `sin^2 + cos^2 = 1`).
    pub fn point_velocity_recursive(&mut self, g: &mut Graph, name: &str, clock: &Clock) -> Vector {
        if let Some(v) = self.recursive.get(name) {
            return v.clone();
        }
        let v = match self.bases.get(name).cloned() {
            Some(base) => {
                let vb = self.point_velocity_recursive(g, &base, clock);
                let r = self.points.get(name).cloned().unwrap_or_default();
                let rb = self.points.get(&base).cloned().unwrap_or_default();
                let offset = r.sub(g, &rb);
                let vo = self.velocity_of(g, &offset, clock);
                vb.add(g, &vo)
            }
            None => self.point_velocity(g, name, clock),
        };
        let frames: Vec<usize> = v.frames().collect();
        let named = if frames.is_empty() {
            Vector::zero()
        } else {
            let x = self.tree.cheapest_deepest(&frames, &frames);
            let c = self.tree.express(g, &v, x);
            let c = self.atoms(g, &format!("v_{name}[{}]", self.names[x]), c);
            Vector::in_frame(x, c)
        };
        self.recursive.insert(name.to_string(), named.clone());
        named
    }
}
