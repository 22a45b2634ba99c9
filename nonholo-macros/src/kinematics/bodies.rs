//! Bodies, particles, gravity and loads to T, V and generalized forces
//! (`design/kinematics.md`, section 4):
//! `T = sum_b 1/2 m v_G . v_G + 1/2 omega_K^T I_K omega_K`, `V = -sum m g . r_G`,
//! `Q_i = F . d v_P / d dot(q_i)` and `Q_i = T . d omega_W / d dot(q_i)` (partial
//! velocities; v and omega are affine in dot(q)).

use super::vector::Vector;
use super::{Clock, Kin};
use crate::sym::linsolve::probably_zero;
use crate::sym::{Graph, Id, Number};

/// A body after lowering: its frame, centre (from the origin), mass and inertia.
pub struct MassBody {
    pub name: String,
    pub frame: Option<usize>,
    pub center: Vector,
    /// The centre's velocity relative to the root.
    pub velocity: Vector,
    /// The same built link by link ([`Kin::point_velocity_recursive`]).
    pub velocity_recursive: Vector,
    pub mass: Id,
    /// Frame of the components and (ixx, iyy, izz, ixy, iyz, izx).
    pub inertia: Option<(usize, [Id; 6])>,
}

/// A body's part of T as the recursive algorithms keep it: its centre's velocity and its angular velocity as named components, each
/// in the frame it is cheapest in, with the angular velocities of those frames for the
/// transport terms of the accelerations. `mechanics::rigid` assembles A, h and the momenta
/// from these per body (Kane's `sum_b J_b^T M_b J_b`), never differentiating T.
pub struct RigidTerm {
    pub mass: Id,
    /// The centre's velocity resolved in a frame F (atoms, affine in dot(q)).
    pub velocity: [Id; 3],
    /// omega_F resolved in F (zeros when F does not turn).
    pub omega_velocity: [Id; 3],
    /// The uniform field `gravity` resolved in F (zeros without one): its generalized
    /// force `m g . d v / d dot(q)` replaces `dV/dq`.
    pub gravity: [Id; 3],
    /// The body's angular velocity in the frame K of its inertia, omega_K in K, and the
    /// inertia in K as a symmetric matrix.
    pub spin: Option<Spin>,
}

/// The rotational part of a [`RigidTerm`].
pub struct Spin {
    pub omega: [Id; 3],
    pub omega_frame: [Id; 3],
    pub inertia: [[Id; 3]; 3],
}

/// The components of `v` in its cheapest frame, as atoms, and that frame.
fn resolved(kin: &Kin, g: &mut Graph, v: &Vector, name: &str) -> Option<(usize, [Id; 3])> {
    let frames: Vec<usize> = v.frames().collect();
    if frames.is_empty() {
        return None;
    }
    let x = kin.tree.cheapest(&frames, &frames);
    let c = kin.tree.express(g, v, x);
    Some((x, kin.atoms(g, name, c)))
}

/// Frames more rotations apart than this are dotted through root components (see
/// [`generalized_forces`]).
const FAR_APART: usize = 4;

/// More frames than this in a centre's velocity make it deep (see [`kinetic_energy`]).
const DEEP_VELOCITY: usize = 6;

/// T of the bodies and particles, and the same bodies as [`RigidTerm`]s (on the same atoms).
pub fn kinetic_energy(
    kin: &mut Kin,
    g: &mut Graph,
    bodies: &[MassBody],
    gravity: Option<&Vector>,
) -> (Id, Vec<RigidTerm>) {
    let half = g.num(Number::rat(1, 2));
    let z = g.zero();
    let mut parts = Vec::new();
    let mut rigid = Vec::with_capacity(bodies.len());
    for b in bodies {
        let recursive = resolved(kin, g, &b.velocity_recursive, &format!("v_{}", b.name));
        // T from the transport theorem's velocity, one term per frame, where few frames
        // carry it (smaller derivatives); a deep link's velocity resolved from terms in
        // every frame above it costs the square of its depth: its recursive one then
        let deep = b.velocity.frames().count() > DEEP_VELOCITY;
        let flat = if deep {
            recursive
        } else {
            resolved(kin, g, &b.velocity, &format!("v_{}", b.name))
        };
        if let Some((_, c)) = flat {
            let sq: Vec<Id> = c.iter().map(|x| g.powi(*x, 2)).collect();
            let vv = g.add_all(&sq);
            parts.push(g.mul_all(&[half, b.mass, vv]));
        }
        let (velocity, omega_velocity, field) = match recursive {
            Some((f, c)) => {
                let w = if kin.constant_chain(f) {
                    [z, z, z]
                } else {
                    kin.omega_in(g, f)
                };
                let field = gravity.map_or([z, z, z], |gv| {
                    let e = kin.tree.express(g, gv, f);
                    kin.atoms(g, &format!("gravity[{}]", kin.names[f]), e)
                });
                (c, w, field)
            }
            None => ([z, z, z], [z, z, z], [z, z, z]),
        };
        let mut spin = None;
        if let (Some(frame), Some((k, i))) = (b.frame, &b.inertia) {
            let w = kin.omega(frame);
            let w = kin.tree.express(g, &w, *k);
            let w = kin.atoms(g, &format!("omega_{}[{}]", b.name, kin.names[*k]), w);
            // I w with I symmetric: (ixx, iyy, izz) on the diagonal, (ixy, iyz, izx) off it
            let m = [[i[0], i[3], i[5]], [i[3], i[1], i[4]], [i[5], i[4], i[2]]];
            let mut quad = Vec::with_capacity(9);
            for r in 0..3 {
                for c in 0..3 {
                    if !g.is_zero(m[r][c]) {
                        quad.push(g.mul_all(&[half, w[r], m[r][c], w[c]]));
                    }
                }
            }
            parts.push(g.add_all(&quad));
            let omega_frame = if kin.constant_chain(*k) {
                [z, z, z]
            } else {
                kin.omega_in(g, *k)
            };
            spin = Some(Spin {
                omega: w,
                omega_frame,
                inertia: m,
            });
        }
        rigid.push(RigidTerm {
            mass: b.mass,
            velocity,
            omega_velocity,
            gravity: field,
            spin,
        });
    }
    (g.add_all(&parts), rigid)
}

/// `V = -sum m g . r_G` for a uniform field `gravity`.
///
/// Gravity is resolved in each frame once, down the tree (components as atoms when large),
/// and each term of a centre is dotted with it in its own frame: re-expressing a deep
/// centre rotation by rotation would multiply a chain's rotations out.
pub fn potential_energy(kin: &Kin, g: &mut Graph, gravity: &Vector, bodies: &[MassBody]) -> Id {
    let mut resolved: Vec<Option<[Id; 3]>> = vec![None; kin.tree.joints.len()];
    let mut parts = Vec::new();
    for b in bodies {
        for (f, c) in &b.center.0 {
            // from the root down to f, each frame's from its parent's
            for x in kin.tree.path_to_root(*f).into_iter().rev() {
                if resolved[x].is_some() {
                    continue;
                }
                let gx = match kin.tree.joints[x].parent {
                    Some(p) => match resolved[p] {
                        Some(gp) => kin.tree.down(g, x, gp),
                        None => kin.tree.express(g, gravity, x),
                    },
                    None => kin.tree.express(g, gravity, x),
                };
                resolved[x] = Some(kin.atoms(g, &format!("gravity_{}", kin.names[x]), gx));
            }
            let Some(gf) = resolved[*f] else { continue };
            let d: Vec<Id> = (0..3).map(|k| g.mul(gf[k], c[k])).collect();
            let d = g.add_all(&d);
            let md = g.mul(b.mass, d);
            parts.push(g.neg(md));
        }
    }
    g.add_all(&parts)
}

/// Generalized forces of `(velocity, load)` pairs: `Q_i = load . d velocity / d dot(q_i)`.
pub fn generalized_forces(
    kin: &Kin,
    g: &mut Graph,
    clock: &Clock,
    loads: &[(Vector, Vector)],
) -> Vec<Id> {
    let mut axes = super::axes::RootAxes::new(kin);
    let mut q = Vec::with_capacity(clock.qd.len());
    for s in &clock.qd {
        let mut parts = Vec::new();
        for (v, f) in loads {
            let partial = v.map(g, |g, x| g.diff(x, *s));
            let far = partial
                .frames()
                .any(|a| f.frames().any(|b| kin.tree.distance(a, b) > FAR_APART));
            if far {
                // through root components, each frame's axes atoms: re-expressing one in
                // the other's frame would multiply the rotations between them out (a deep
                // arm's joint torques grew as the cube of its length)
                let (a, b) = (axes.of(kin, g, f), axes.of(kin, g, &partial));
                let p: Vec<Id> = (0..3).map(|k| g.mul(a[k], b[k])).collect();
                parts.push(g.add_all(&p));
            } else {
                parts.push(kin.tree.dot(g, f, &partial));
            }
        }
        q.push(g.add_all(&parts));
    }
    q
}

/// Why an inertia given in frame `k` is not constant in body frame `d`, if it is not:
/// every rotation between them must be constant, or all about one axis `a` of the
/// frames with the inertia symmetric about `a`.
pub fn inertia_frame_problem(
    kin: &Kin,
    g: &mut Graph,
    d: usize,
    k: usize,
    i: &[Id; 6],
) -> Option<String> {
    let pd = kin.tree.path_to_root(d);
    let pk = kin.tree.path_to_root(k);
    let lca = pd.iter().find(|f| pk.contains(f)).copied()?;
    let between: Vec<usize> = pd
        .iter()
        .take_while(|f| **f != lca)
        .chain(pk.iter().take_while(|f| **f != lca))
        .copied()
        .collect();
    let turning: Vec<usize> = between
        .iter()
        .copied()
        .filter(|f| !kin.constant[*f])
        .collect();
    if turning.is_empty() {
        return None;
    }
    let a = kin.tree.joints[turning[0]].axis;
    if between.iter().any(|f| kin.tree.joints[*f].axis != a) {
        return Some(format!(
            "frame `{}` turns relative to the body's frame `{}` about more than one axis",
            kin.names[k], kin.names[d]
        ));
    }
    // invariant under rotation about a: I_bb = I_cc and the products with b, c vanish
    let (b, c) = ((a + 1) % 3, (a + 2) % 3);
    let product = |x: usize, y: usize| -> Id {
        match (x.min(y), x.max(y)) {
            (0, 1) => i[3],
            (1, 2) => i[4],
            _ => i[5],
        }
    };
    let diag = g.sub(i[b], i[c]);
    let symmetric = probably_zero(g, diag)
        && [product(a, b), product(a, c), product(b, c)]
            .iter()
            .all(|x| probably_zero(g, *x));
    if symmetric {
        None
    } else {
        Some(format!(
            "frame `{}` turns relative to the body's frame `{}` about its {} axis, which is not an axis of symmetry of this inertia",
            kin.names[k],
            kin.names[d],
            ["x", "y", "z"][a]
        ))
    }
}
