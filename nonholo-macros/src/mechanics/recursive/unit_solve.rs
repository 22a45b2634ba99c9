//! `G^-1 b` by the articulated-body algorithm's passes at rest, for the Jacobian's solve
//! ([`super::Recursive::solve`]).

use super::super::spatial::{define, dot6, Six};
use super::tree::{carried_up, forward_pass, Joint, Port, Up};
use crate::sym::HashMap;
use crate::sym::{Graph, Id};

/// `G^-1 b` for fresh symbols `b` (one per speed): table 7.1's passes with the velocities,
/// gravity and forces zero and `b` the joints' torques and the root's forcing, through the
/// articulated inertias `U`, `1/D` and the root's `K` already built, so that only the
/// force-like terms are new.
pub(super) fn unit_solve(
    g: &mut Graph,
    kin: &crate::kinematics::Kin,
    (joints, ports): (&[Joint], &[Port]),
    (root_speeds, k_named): (&[usize], &[Vec<Id>]),
    (u_col, d_inv): (&[Six], &[Id]),
    nz: usize,
) -> Option<(Vec<u32>, Vec<Id>)> {
    let z0 = g.zero();
    let b: Vec<u32> = (0..nz).map(|k| g.new_symbol(&format!("jb[{k}]"))).collect();
    let nj = joints.len();
    let mut pb: Vec<Six> = vec![[z0; 6]; nj];
    let mut port_p: HashMap<usize, Six> = HashMap::default();
    let mut u_over_d = vec![z0; nj];
    // named like table 7.1's (products of sums would expand otherwise)
    for j in (0..nj).rev() {
        let name = format!("jb_{}", kin.names[joints[j].frame]);
        let axis = joints[j].axis;
        let p_a = pb[j].map(|x| define(g, &format!("{name}_pA"), x));
        let bj = g.sym(b[joints[j].speed]);
        let uu = g.sub(bj, p_a[axis]);
        let ud = g.mul(uu, d_inv[j]);
        let ud = define(g, &format!("{name}_u_D"), ud);
        u_over_d[j] = ud;
        let p_small: Six = [0, 1, 2, 3, 4, 5].map(|r| {
            let e = g.mul(u_col[j][r], ud);
            g.add(p_a[r], e)
        });
        let p_small = p_small.map(|x| define(g, &format!("{name}_pa"), x));
        let p_up = carried_up(g, kin, &joints[j], p_small);
        match joints[j].parent {
            Up::Joint(p) => {
                for r in 0..6 {
                    pb[p][r] = g.add(pb[p][r], p_up[r]);
                }
            }
            Up::Root(_) => {
                let p_up = p_up.map(|x| define(g, &format!("{name}_pport"), x));
                port_p.insert(j, p_up);
            }
        }
    }
    let mut zd = vec![z0; nz];
    if !root_speeds.is_empty() {
        let mut f: Vec<Id> = root_speeds.iter().map(|a| g.sym(b[*a])).collect();
        for port in ports {
            let p = port_p[&port.joint];
            for (a, sa) in port.s.iter().enumerate() {
                let e = dot6(g, *sa, p);
                f[a] = g.sub(f[a], e);
            }
        }
        let names: Vec<String> = root_speeds.iter().map(|a| format!("jb_zd[{a}]")).collect();
        let f: Vec<Id> = f.iter().map(|e| define(g, "jb_root_f", *e)).collect();
        let x = crate::sym::linsolve::solve_named(g, k_named, &f, &names)?;
        for (a, xa) in root_speeds.iter().zip(x) {
            zd[*a] = xa;
        }
    }
    forward_pass(
        g,
        (kin, joints, ports),
        None,
        (u_col, d_inv, &u_over_d),
        (root_speeds, &mut zd),
        "jb",
    )?;
    Some((b, zd))
}
