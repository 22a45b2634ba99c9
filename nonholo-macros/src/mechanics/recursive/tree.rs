//! Reading the tree off the frames (its joints, links, ports and root) and carrying motions
//! and forces along it, for [`super::derive()`] and [`mod@super::newton_euler`].

use super::super::spatial::{define, dot6, force_up, v_of, w_of, Six};
use crate::kinematics::vector::{cross3, Vector};
use crate::model::{Symbols, TreeSource};
use crate::sym::linsolve::probably_zero;
use crate::sym::HashMap;
use crate::sym::{Graph, Id, Node};

/// A revolute joint and the frame it turns.
pub(super) struct Joint {
    pub(super) frame: usize,
    pub(super) axis: usize,
    pub(super) speed: usize,
    /// The coordinate it turns by.
    pub(super) coord: usize,
    pub(super) parent: Up,
    /// From the parent's reference point to this one's, in the parent's frame (`None`: the
    /// same point).
    pub(super) offset: Option<[Id; 3]>,
    pub(super) point: Option<Vector>,
    pub(super) bodies: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Up {
    Joint(usize),
    /// A frame of the root.
    Root(usize),
}

/// A subtree's attachment to the root: its frame and point, and its motion there.
pub(super) struct Port {
    pub(super) joint: usize,
    /// Its velocity.
    pub(super) nu: Six,
    /// `d velocity / d z_R` (6 x k).
    pub(super) s: Vec<Six>,
    /// The acceleration at `dz/dt = 0`.
    pub(super) bias: Six,
    /// `d velocity / d dot(q_i)` of the coordinates it depends on, at `dot(q) = psi`.
    pub(super) partials: Vec<(usize, Six)>,
}

/// The tree read off the frames: its joints (with their links, points and offsets), which
/// bodies are the root's, and each link's centre in its joint's frame.
pub(super) struct Reading {
    pub(super) joints: Vec<Joint>,
    pub(super) root_body: Vec<bool>,
    pub(super) centre: HashMap<usize, [Id; 3]>,
}

/// `None` where the frames and bodies are not a tree of revolute joints on a root.
pub(super) fn read_tree(
    g: &mut Graph,
    syms: &Symbols,
    psi: &[Id],
    src: &mut TreeSource,
) -> Option<Reading> {
    let nq = syms.q.len();
    // speeds of their own: dot(q_i) = z_j, z_j in no other velocity
    let speed_of = |g: &Graph, i: usize| -> Option<usize> {
        let Node::Sym(s) = g.node(psi[i]) else {
            return None;
        };
        let j = syms.z.iter().position(|z| z == s)?;
        let alone = (0..nq).all(|k| k == i || !g.depends_on(psi[k], syms.z[j]));
        alone.then_some(j)
    };
    let kin = &mut src.kin;
    let nf = kin.tree.joints.len();
    let joint_of_frame: Vec<Option<(usize, usize)>> = (0..nf)
        .map(|f| {
            kin.tree.joints[f].parent?;
            let Node::Sym(s) = g.node(kin.angles[f]) else {
                return None;
            };
            let i = syms.q.iter().position(|q| q == s)?;
            speed_of(g, i).map(|j| (i, j))
        })
        .collect();
    // the root: frames that are not joints, the bodies on them, the frames above those
    let mut root: Vec<bool> = joint_of_frame.iter().map(Option::is_none).collect();
    let mut root_body = vec![false; src.bodies.len()];
    loop {
        let mut changed = false;
        for (b, body) in src.bodies.iter().enumerate() {
            if root_body[b] || body.frame.is_some_and(|f| !root[f]) {
                continue;
            }
            root_body[b] = true;
            changed = true;
            for a in body
                .frame
                .map(|f| kin.tree.path_to_root(f))
                .unwrap_or_default()
            {
                root[a] = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut joints: Vec<Joint> = Vec::new();
    let mut joint_at = vec![usize::MAX; nf];
    for f in 0..nf {
        if root[f] {
            continue;
        }
        let (coord, speed) = joint_of_frame[f]?;
        let p = kin.tree.joints[f].parent?;
        let parent = if root[p] {
            Up::Root(p)
        } else {
            Up::Joint(joint_at[p])
        };
        joint_at[f] = joints.len();
        joints.push(Joint {
            frame: f,
            axis: kin.tree.joints[f].axis,
            speed,
            coord,
            parent,
            offset: None,
            point: None,
            bodies: Vec::new(),
        });
    }
    if joints.is_empty() {
        return None;
    }
    let body_frame = |f: usize| {
        src.bodies
            .iter()
            .enumerate()
            .any(|(b, body)| !root_body[b] && body.frame == Some(f))
    };
    // each link's segment: its joint and those above it up to the link above (or the
    // root); the centre's terms in the segment are its offset, the rest its joint point
    let q_and_t: Vec<u32> = syms.q.iter().chain([&syms.t]).copied().collect();
    let mut centre = HashMap::default();
    for (b, body) in src.bodies.iter().enumerate() {
        if root_body[b] {
            continue;
        }
        let f = body.frame?;
        let mut segment = vec![joint_at[f]];
        while let Up::Joint(p) = joints[*segment.last()?].parent {
            if body_frame(joints[p].frame) {
                break;
            }
            segment.push(p);
        }
        let frames: Vec<usize> = segment.iter().map(|j| joints[*j].frame).collect();
        let mut point = Vector::zero();
        let z = g.zero();
        let mut c = [z, z, z];
        for (fr, comps) in &body.center.0 {
            if *fr == f {
                c = *comps;
            } else if frames.contains(fr) {
                if !comps.iter().all(|x| probably_zero(g, *x)) {
                    return None;
                }
            } else {
                point = point.add(g, &Vector::in_frame(*fr, *comps));
            }
        }
        if c.iter().any(|x| g.depends_on_any(*x, &q_and_t)) {
            return None;
        }
        for j in segment {
            match &joints[j].point {
                Some(p) => {
                    let d = p.sub(g, &point);
                    if !d
                        .0
                        .iter()
                        .all(|(_, x)| x.iter().all(|e| probably_zero(g, *e)))
                    {
                        return None;
                    }
                }
                None => joints[j].point = Some(point.clone()),
            }
        }
        joints[joint_at[f]].bodies.push(b);
        centre.insert(b, c);
    }
    // joints below no link carry nothing: their speeds would have no inertia
    if joints.iter().any(|j| j.point.is_none()) {
        return None;
    }
    // offsets between links: fixed in the link above
    for j in 0..joints.len() {
        if let Up::Joint(p) = joints[j].parent {
            let d = joints[j].point.as_ref()?.sub(g, joints[p].point.as_ref()?);
            let pf = joints[p].frame;
            let z = g.zero();
            let mut r = [z, z, z];
            for (fr, comps) in &d.0 {
                if *fr == pf {
                    r = *comps;
                } else if !comps.iter().all(|x| probably_zero(g, *x)) {
                    return None;
                }
            }
            if r.iter().any(|x| g.depends_on_any(*x, &q_and_t)) {
                return None;
            }
            joints[j].offset = r.iter().any(|x| !g.is_zero(*x)).then_some(r);
        }
    }
    Some(Reading {
        joints,
        root_body,
        centre,
    })
}

/// Joint `j`'s parent's acceleration carried to it, plus its `c` (table 7.1's `X a_parent +
/// c`, before its own `S dz_j`): a port's `bias + S dz_R`, or the parent link's shifted to
/// the joint's point and turned into its frame. `acc` holds the joints above, `zd` every
/// speed's `dz/dt` (the root's are read); `c: None` for the passes at rest (no `c`, no
/// port bias).
pub(super) fn carried_down(
    g: &mut Graph,
    (kin, joints, ports): (&crate::kinematics::Kin, &[Joint], &[Port]),
    j: usize,
    (acc, c): (&[Six], Option<&Six>),
    (root_speeds, zd): (&[usize], &[Id]),
) -> Option<Six> {
    let z = g.zero();
    let (al, ll) = match joints[j].parent {
        Up::Root(_) => {
            let port = ports.iter().find(|p| p.joint == j)?;
            let mut a = if c.is_some() { port.bias } else { [z; 6] };
            for (k, s) in root_speeds.iter().zip(&port.s) {
                for r in 0..6 {
                    let e = g.mul(s[r], zd[*k]);
                    a[r] = g.add(a[r], e);
                }
            }
            (w_of(&a), v_of(&a))
        }
        Up::Joint(p) => {
            let a = acc[p];
            let (al, mut ll) = (w_of(&a), v_of(&a));
            if let Some(r) = joints[j].offset {
                let ar = cross3(g, al, r);
                ll = [0, 1, 2].map(|k| g.add(ll[k], ar[k]));
            }
            (al, ll)
        }
    };
    let f = joints[j].frame;
    let al = kin.tree.down(g, f, al);
    let ll = kin.tree.down(g, f, ll);
    let c = c.copied().unwrap_or([z; 6]);
    Some([0, 1, 2, 3, 4, 5].map(|k| g.add([al, ll][k / 3][k % 3], c[k])))
}

/// Table 7.1's forward pass from the root's `dz/dt` (in `zd`): `a = X a_parent + c`, `dz_j =
/// (u_j - U_j^T a) / D_j`, `a += S dz_j`, each joint's `dz_j` written to `zd` and its `a`
/// and `dz_j` named `{prefix}_{frame}_a`, `_zd`. `c: None` for the passes at rest.
pub(super) fn forward_pass(
    g: &mut Graph,
    (kin, joints, ports): (&crate::kinematics::Kin, &[Joint], &[Port]),
    c: Option<&[Six]>,
    (u_col, d_inv, u_over_d): (&[Six], &[Id], &[Id]),
    (root_speeds, zd): (&[usize], &mut [Id]),
    prefix: &str,
) -> Option<()> {
    let z = g.zero();
    let mut acc: Vec<Six> = vec![[z; 6]; joints.len()];
    for j in 0..joints.len() {
        let name = format!("{prefix}_{}", kin.names[joints[j].frame]);
        let cj = c.map(|c| &c[j]);
        let mut a = carried_down(g, (kin, joints, ports), j, (&acc, cj), (root_speeds, zd))?
            .map(|x| define(g, &format!("{name}_a"), x));
        let ua = dot6(g, u_col[j], a);
        let t = g.mul(ua, d_inv[j]);
        let x = g.sub(u_over_d[j], t);
        let x = define(g, &format!("{name}_zd"), x);
        zd[joints[j].speed] = x;
        a[joints[j].axis] = g.add(a[joints[j].axis], x);
        acc[j] = a;
    }
    Some(())
}

/// A force at the joint's point in its frame, in its parent's frame at the parent's point
/// (`X^T f`).
pub(super) fn carried_up(
    g: &mut Graph,
    kin: &crate::kinematics::Kin,
    joint: &Joint,
    f: Six,
) -> Six {
    let mut up = force_up(g, kin, joint.frame, f);
    if let Some(r) = joint.offset {
        let n = cross3(g, r, v_of(&up));
        for k in 0..3 {
            up[k] = g.add(up[k], n[k]);
        }
    }
    up
}
