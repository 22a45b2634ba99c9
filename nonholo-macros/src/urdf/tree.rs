//! The robot as a tree: one root link, each other link below exactly one joint, no cycle;
//! links on fixed (or held) joints merged into the link whose joint moves them (mass,
//! centre and inertia combined in that link's frame), and the merged bodies checked for
//! what a rigid body can be.

use super::read::{Joint, Robot};
use std::collections::HashMap;

/// A rotation matrix and a translation: `x_parent = rot x_child + pos`.
#[derive(Clone, Copy, Debug)]
pub struct Transform {
    pub rot: [[f64; 3]; 3],
    pub pos: [f64; 3],
}

impl Transform {
    pub const IDENTITY: Transform = Transform {
        rot: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        pos: [0.0; 3],
    };

    /// `Rz(yaw) Ry(pitch) Rx(roll)` after the translation `xyz`.
    pub fn from_pose(xyz: [f64; 3], rpy: [f64; 3]) -> Transform {
        let [r, p, y] = rpy;
        let (sr, cr) = r.sin_cos();
        let (sp, cp) = p.sin_cos();
        let (sy, cy) = y.sin_cos();
        Transform {
            rot: [
                [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                [-sp, cp * sr, cp * cr],
            ],
            pos: xyz,
        }
    }

    /// `self * other`.
    pub fn then(&self, other: &Transform) -> Transform {
        let mut rot = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                rot[i][j] = (0..3).map(|k| self.rot[i][k] * other.rot[k][j]).sum();
            }
        }
        Transform {
            rot,
            pos: self.apply(other.pos),
        }
    }

    pub fn apply(&self, x: [f64; 3]) -> [f64; 3] {
        let t = self.turn(x);
        std::array::from_fn(|i| t[i] + self.pos[i])
    }

    pub fn turn(&self, x: [f64; 3]) -> [f64; 3] {
        std::array::from_fn(|i| (0..3).map(|k| self.rot[i][k] * x[k]).sum())
    }
}

/// A merged body: its mass, centre and central inertia `(ixx, iyy, izz, ixy, iyz, izx)`
/// in its own link's frame.
#[derive(Clone, Debug)]
pub struct Merged {
    pub mass: f64,
    pub centre: [f64; 3],
    pub inertia: [f64; 6],
}

pub struct Tree {
    pub root: usize,
    /// The joint above each link (`None` for the root).
    pub joint_above: Vec<Option<usize>>,
    /// Each link's children's joints, in file order.
    pub below: Vec<Vec<usize>>,
    /// Each joint's parent and child links.
    pub parent: Vec<usize>,
    pub child: Vec<usize>,
    /// Every joint from the root down, depth first.
    pub depth_first: Vec<usize>,
    /// The moving joints of `depth_first` (the order of the coordinates).
    pub order: Vec<usize>,
    /// Each link's group: the nearest link at or above it whose joint moves (or the root).
    pub group: Vec<usize>,
    /// Each link's pose in its group's frame.
    pub in_group: Vec<Transform>,
}

/// The tree of `robot`, with `held` joints (indices) fixed at 0; `Err(messages)` on a
/// second root, an unknown link, a link below two joints or a cycle.
pub fn tree(robot: &Robot, held: &[usize]) -> Result<Tree, Vec<String>> {
    let mut errors = Vec::new();
    let n = robot.links.len();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, l) in robot.links.iter().enumerate() {
        if index.insert(&l.name, i).is_some() {
            errors.push(format!(
                "{}: <link name=\"{}\">: a second link of this name",
                l.line, l.name
            ));
        }
    }
    let mut joint_above: Vec<Option<usize>> = vec![None; n];
    let mut below: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut joint_names: HashMap<&str, usize> = HashMap::new();
    let (mut parent, mut child) = (vec![0; robot.joints.len()], vec![0; robot.joints.len()]);
    for (j, joint) in robot.joints.iter().enumerate() {
        let at = |what: &str| format!("{}: <joint name=\"{}\">: {what}", joint.line, joint.name);
        if joint_names.insert(&joint.name, j).is_some() {
            errors.push(at("a second joint of this name"));
        }
        let (Some(&p), Some(&c)) = (
            index.get(joint.parent.as_str()),
            index.get(joint.child.as_str()),
        ) else {
            for l in [&joint.parent, &joint.child] {
                if !index.contains_key(l.as_str()) {
                    errors.push(at(&format!("unknown link `{l}`")));
                }
            }
            continue;
        };
        if let Some(prev) = joint_above[c] {
            errors.push(at(&format!(
                "link `{}` is already the child of joint `{}`: a link hangs below one joint",
                joint.child, robot.joints[prev].name
            )));
            continue;
        }
        joint_above[c] = Some(j);
        below[p].push(j);
        (parent[j], child[j]) = (p, c);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let roots: Vec<usize> = (0..n).filter(|l| joint_above[*l].is_none()).collect();
    let root = match roots.as_slice() {
        [r] => *r,
        [] => {
            return Err(vec![format!(
                "{}: <robot>: every link is some joint's child: the joints make a cycle",
                robot.links.first().map_or(1, |l| l.line)
            )]);
        }
        [first, rest @ ..] => {
            return Err(rest
                .iter()
                .map(|r| {
                    let l = &robot.links[*r];
                    format!(
                        "{}: <link name=\"{}\">: a second root: `{}` is already the root link (no joint has this link as its child)",
                        l.line, l.name, robot.links[*first].name
                    )
                })
                .collect());
        }
    };
    // depth first from the root; links never reached are on a cycle
    let mut depth_first = Vec::new();
    let mut order = Vec::new();
    let mut group = vec![usize::MAX; n];
    let mut in_group = vec![Transform::IDENTITY; n];
    group[root] = root;
    let mut stack: Vec<usize> = below[root].iter().rev().copied().collect();
    while let Some(j) = stack.pop() {
        let joint = &robot.joints[j];
        let (p, c) = (parent[j], child[j]);
        if group[c] != usize::MAX {
            continue;
        }
        depth_first.push(j);
        let moving = joint.moves() && !held.contains(&j);
        if moving {
            order.push(j);
            group[c] = c;
        } else {
            group[c] = group[p];
            in_group[c] = in_group[p].then(&pose(joint));
        }
        stack.extend(below[c].iter().rev().copied());
    }
    let stray: Vec<String> = (0..n)
        .filter(|l| group[*l] == usize::MAX)
        .map(|l| {
            let link = &robot.links[l];
            format!(
                "{}: <link name=\"{}\">: not reached from the root link `{}`: its joints make a cycle",
                link.line, link.name, robot.links[root].name
            )
        })
        .collect();
    if !stray.is_empty() {
        return Err(stray);
    }
    Ok(Tree {
        root,
        joint_above,
        below,
        parent,
        child,
        depth_first,
        order,
        group,
        in_group,
    })
}

/// A joint's origin as a transform (its motion at 0).
pub fn pose(j: &Joint) -> Transform {
    Transform::from_pose(j.origin.xyz.map(|x| x.value), j.origin.rpy.map(|x| x.value))
}

/// The merged body of each group that has mass: links merged, mass, centre and central
/// inertia in the group's frame. `Err` names the links of a body no rigid body can be.
pub fn merge(robot: &Robot, tree: &Tree) -> (Vec<(usize, Merged)>, Vec<String>) {
    let mut errors = Vec::new();
    let mut groups: Vec<usize> = Vec::new();
    for l in 0..robot.links.len() {
        if tree.group[l] == l {
            groups.push(l);
        }
    }
    let mut out = Vec::new();
    for g in groups {
        let links: Vec<usize> = (0..robot.links.len())
            .filter(|l| tree.group[*l] == g)
            .collect();
        let mut mass = 0.0;
        let mut moment = [0.0; 3];
        // (link, mass, centre in g, inertia about its centre in g)
        let mut parts: Vec<(f64, [f64; 3], [[f64; 3]; 3])> = Vec::new();
        for &l in &links {
            let link = &robot.links[l];
            let Some(i) = &link.inertial else { continue };
            let at = format!("{}: <link name=\"{}\">", i.line, link.name);
            if i.mass < 0.0 {
                errors.push(format!("{at}: a negative mass ({})", i.mass));
                continue;
            }
            let [ixx, iyy, izz, ixy, iyz, ixz] = i.inertia;
            if i.mass == 0.0 {
                if i.inertia.iter().any(|x| *x != 0.0) {
                    errors.push(format!(
                        "{at}: a mass of 0 with a nonzero inertia: give the link its mass"
                    ));
                }
                continue;
            }
            let frame = tree.in_group[l].then(&Transform::from_pose(
                i.origin.xyz.map(|x| x.value),
                i.origin.rpy.map(|x| x.value),
            ));
            let local = [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]];
            // R I R^T: the inertia's components in the group's frame
            let r = frame.rot;
            let rotated: [[f64; 3]; 3] = std::array::from_fn(|a| {
                std::array::from_fn(|b| {
                    let mut s = 0.0;
                    for p in 0..3 {
                        for q in 0..3 {
                            s += r[a][p] * local[p][q] * r[b][q];
                        }
                    }
                    s
                })
            });
            mass += i.mass;
            for k in 0..3 {
                moment[k] += i.mass * frame.pos[k];
            }
            parts.push((i.mass, frame.pos, rotated));
        }
        if mass == 0.0 {
            continue;
        }
        let centre = moment.map(|m| m / mass);
        let mut total = [[0.0; 3]; 3];
        for (m, c, inertia) in &parts {
            let d = [c[0] - centre[0], c[1] - centre[1], c[2] - centre[2]];
            let dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            for a in 0..3 {
                for b in 0..3 {
                    let delta = if a == b { 1.0 } else { 0.0 };
                    total[a][b] += inertia[a][b] + m * (dd * delta - d[a] * d[b]);
                }
            }
        }
        let merged = Merged {
            mass,
            centre,
            inertia: [
                total[0][0],
                total[1][1],
                total[2][2],
                total[0][1],
                total[1][2],
                total[2][0],
            ],
        };
        if let Some(why) = impossible(&total) {
            let names: Vec<&str> = links
                .iter()
                .map(|l| robot.links[*l].name.as_str())
                .collect();
            let link = &robot.links[g];
            let merged_note = if names.len() > 1 {
                format!(" (links {} merged)", names.join(", "))
            } else {
                String::new()
            };
            errors.push(format!(
                "{}: <link name=\"{}\">: the body's inertia{merged_note} is one no rigid body can have: {why}\n\nhelp: correct the link's `<inertia>` in the file: the central inertia of a mass is positive definite, and each principal moment is at most the sum of the other two",
                link.inertial.as_ref().map_or(link.line, |i| i.line),
                link.name
            ));
        }
        out.push((g, merged));
    }
    (out, errors)
}

/// Why a central inertia is impossible: not positive definite, or principal moments that
/// break the triangle inequality (`I1 + I2 >= I3`, a mass distribution's).
fn impossible(i: &[[f64; 3]; 3]) -> Option<String> {
    let e = eigenvalues(i);
    let scale = e.iter().fold(0.0f64, |a, x| a.max(x.abs())).max(1e-300);
    let tol = 1e-9 * scale;
    if e.iter().any(|x| *x <= 0.0) {
        return Some(format!(
            "its principal moments ({:.6e}, {:.6e}, {:.6e}) are not all positive",
            e[0], e[1], e[2]
        ));
    }
    if e[0] + e[1] < e[2] - tol {
        return Some(format!(
            "its principal moments ({:.6e}, {:.6e}, {:.6e}) break the triangle inequality I1 + I2 >= I3",
            e[0], e[1], e[2]
        ));
    }
    None
}

/// The eigenvalues of a symmetric 3x3 matrix, ascending (cyclic Jacobi).
pub fn eigenvalues(m: &[[f64; 3]; 3]) -> [f64; 3] {
    let mut a = *m;
    for _ in 0..64 {
        let off = a[0][1].powi(2) + a[0][2].powi(2) + a[1][2].powi(2);
        let diag = a[0][0].powi(2) + a[1][1].powi(2) + a[2][2].powi(2);
        if off <= 1e-32 * diag.max(1e-300) {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            let mut b = a;
            for k in 0..3 {
                b[k][p] = c * a[k][p] - s * a[k][q];
                b[k][q] = s * a[k][p] + c * a[k][q];
            }
            let mut d = b;
            for k in 0..3 {
                d[p][k] = c * b[p][k] - s * b[q][k];
                d[q][k] = s * b[p][k] + c * b[q][k];
            }
            a = d;
        }
    }
    let mut e = [a[0][0], a[1][1], a[2][2]];
    e.sort_by(f64::total_cmp);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_finds_the_principal_moments() {
        // diag(1, 2, 3) turned by a rotation keeps its eigenvalues
        let r = Transform::from_pose([0.0; 3], [0.3, -0.7, 1.1]).rot;
        let d = [1.0, 2.0, 3.0];
        let m: [[f64; 3]; 3] = std::array::from_fn(|a| {
            std::array::from_fn(|b| (0..3).map(|k| r[a][k] * d[k] * r[b][k]).sum())
        });
        let e = eigenvalues(&m);
        for k in 0..3 {
            assert!((e[k] - d[k]).abs() < 1e-12, "{e:?}");
        }
        assert!(impossible(&m).is_none());
        let bad = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 3.0]];
        assert!(impossible(&bad).unwrap().contains("triangle"));
    }
}
