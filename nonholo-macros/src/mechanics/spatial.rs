//! Spatial vectors and inertias for [`super::recursive`]: `(angular, linear)` components,
//! Featherstone's (2008) cross products, inertia and transforms, each product of atoms.

use crate::kinematics::vector::{cross3, dot3};
use crate::kinematics::Kin;
use crate::sym::{Graph, Id};

pub type Six = [Id; 6];
pub type Mat6 = [[Id; 6]; 6];

/// An atom for `e` unless it is a number or a symbol.
pub fn define(g: &mut Graph, name: &str, e: Id) -> Id {
    g.define_if_large(name, e, 1)
}

pub fn sym_define(g: &mut Graph, name: &str, m: &Mat6) -> Mat6 {
    let mut out = *m;
    for r in 0..6 {
        for c in r..6 {
            out[r][c] = define(g, name, m[r][c]);
            out[c][r] = out[r][c];
        }
    }
    out
}

pub fn w_of(s: &Six) -> [Id; 3] {
    [s[0], s[1], s[2]]
}

pub fn v_of(s: &Six) -> [Id; 3] {
    [s[3], s[4], s[5]]
}

pub fn dot6(g: &mut Graph, a: Six, b: Six) -> Id {
    let parts: Vec<Id> = (0..6).map(|k| g.mul(a[k], b[k])).collect();
    g.add_all(&parts)
}

pub fn mat6_vec(g: &mut Graph, m: &Mat6, v: Six) -> Six {
    [0, 1, 2, 3, 4, 5].map(|r| {
        let parts: Vec<Id> = (0..6).map(|c| g.mul(m[r][c], v[c])).collect();
        g.add_all(&parts)
    })
}

/// `a x b` of motions (Featherstone 2.31): `(wa x wb, wa x vb + va x wb)`.
pub fn cross_motion(g: &mut Graph, a: Six, b: Six) -> Six {
    let (wa, va) = (w_of(&a), v_of(&a));
    let (wb, vb) = (w_of(&b), v_of(&b));
    let w = cross3(g, wa, wb);
    let x = cross3(g, wa, vb);
    let y = cross3(g, va, wb);
    [
        w[0],
        w[1],
        w[2],
        g.add(x[0], y[0]),
        g.add(x[1], y[1]),
        g.add(x[2], y[2]),
    ]
}

/// `v x* f` (Featherstone 2.32): `(w x n + v x f, w x f)`.
pub fn cross_force(g: &mut Graph, nu: Six, f: Six) -> Six {
    let (w, v) = (w_of(&nu), v_of(&nu));
    let (n, fl) = (w_of(&f), v_of(&f));
    let a = cross3(g, w, n);
    let b = cross3(g, v, fl);
    let c = cross3(g, w, fl);
    [
        g.add(a[0], b[0]),
        g.add(a[1], b[1]),
        g.add(a[2], b[2]),
        c[0],
        c[1],
        c[2],
    ]
}

/// The spatial inertia about a point `c` from the centre (in the body's frame), with the
/// inertia about the centre `(ixx, iyy, izz, ixy, iyz, izx)`: `[[I + m cx cx^T, m cx],
/// [m cx^T, m 1]]` (Featherstone 2.63).
pub fn spatial_inertia(g: &mut Graph, m: Id, c: [Id; 3], i: [Id; 6]) -> Mat6 {
    let z = g.zero();
    let ibar = [[i[0], i[3], i[5]], [i[3], i[1], i[4]], [i[5], i[4], i[2]]];
    let cx = skew(g, c);
    let mut out = [[z; 6]; 6];
    for r in 0..3 {
        for col in 0..3 {
            // m cx cx^T = -m cx cx
            let parts: Vec<Id> = (0..3).map(|k| g.mul(cx[r][k], cx[col][k])).collect();
            let s = g.add_all(&parts);
            let s = g.mul(m, s);
            out[r][col] = g.add(ibar[r][col], s);
            let mc = g.mul(m, cx[r][col]);
            out[r][col + 3] = mc;
            out[col + 3][r] = mc;
        }
        out[r + 3][r + 3] = m;
    }
    out
}

pub fn skew(g: &mut Graph, c: [Id; 3]) -> [[Id; 3]; 3] {
    let z = g.zero();
    let n = |g: &mut Graph, x: Id| g.neg(x);
    [
        [z, n(g, c[2]), c[1]],
        [c[2], z, n(g, c[0])],
        [n(g, c[1]), c[0], z],
    ]
}

/// A force at this frame's reference point in its parent's frame (the same point).
pub fn force_up(g: &mut Graph, kin: &Kin, f: usize, p: Six) -> Six {
    let n = kin.tree.up(g, f, w_of(&p));
    let l = kin.tree.up(g, f, v_of(&p));
    [n[0], n[1], n[2], l[0], l[1], l[2]]
}

/// `E^T I E` blockwise: an inertia in frame `f` in its parent's frame (the same point).
pub fn rotate_up(g: &mut Graph, kin: &Kin, f: usize, m: &Mat6) -> Mat6 {
    let z = g.zero();
    let mut out = [[z; 6]; 6];
    for (br, bc) in [(0, 0), (0, 3), (3, 3)] {
        // R B R^T: columns up, then rows up
        let mut cols = [[z; 3]; 3];
        for c in 0..3 {
            let col = [m[br][bc + c], m[br + 1][bc + c], m[br + 2][bc + c]];
            cols[c] = kin.tree.up(g, f, col);
        }
        // cols[c][r] = (R B)[r][c]; rows of R B are up'ed as columns of (R B)^T
        for r in 0..3 {
            let row = [cols[0][r], cols[1][r], cols[2][r]];
            let x = kin.tree.up(g, f, row);
            out[br + r][bc..bc + 3].copy_from_slice(&x);
        }
    }
    for r in 0..3 {
        for c in 0..3 {
            out[c + 3][r] = out[r][c + 3];
        }
    }
    out
}

/// The inertia `[[A, B], [B^T, M]]` about a point `r` from the parent's reference point,
/// about the latter: `X^T I X` with `X = [[1, 0], [-rx, 1]]`:
/// `A - B rx + rx B^T - rx M rx`, `B + rx M`, `M`.
pub fn shift(g: &mut Graph, m: &Mat6, r: [Id; 3]) -> Mat6 {
    let rx = skew(g, r);
    let z = g.zero();
    let blk = |m: &Mat6, r0: usize, c0: usize| {
        let mut b = [[z; 3]; 3];
        for r in 0..3 {
            for c in 0..3 {
                b[r][c] = m[r0 + r][c0 + c];
            }
        }
        b
    };
    let (a, b, mm) = (blk(m, 0, 0), blk(m, 0, 3), blk(m, 3, 3));
    let mul = |g: &mut Graph, x: &[[Id; 3]; 3], y: &[[Id; 3]; 3]| {
        let mut o = [[z; 3]; 3];
        for r in 0..3 {
            for c in 0..3 {
                let parts: Vec<Id> = (0..3).map(|k| g.mul(x[r][k], y[k][c])).collect();
                o[r][c] = g.add_all(&parts);
            }
        }
        o
    };
    let bt = [0, 1, 2].map(|r| [0, 1, 2].map(|c| b[c][r]));
    let b_rx = mul(g, &b, &rx);
    let rx_bt = mul(g, &rx, &bt);
    let rx_m = mul(g, &rx, &mm);
    let rx_m_rx = mul(g, &rx_m, &rx);
    let mut out = *m;
    for r in 0..3 {
        for c in 0..3 {
            let e = g.sub(a[r][c], b_rx[r][c]);
            let e = g.add(e, rx_bt[r][c]);
            out[r][c] = g.sub(e, rx_m_rx[r][c]);
            let e = g.add(b[r][c], rx_m[r][c]);
            out[r][c + 3] = e;
            out[c + 3][r] = e;
        }
    }
    out
}

/// `K += S^T M S`, `f -= S^T bias` for a 3-vector motion with partials `s` (per root
/// speed), `ms = M s`.
pub fn add_projection(
    g: &mut Graph,
    (s, ms, bias): (&[[Id; 3]], &[[Id; 3]], [Id; 3]),
    k: &mut [Vec<Id>],
    f: &mut [Id],
) {
    for (a, sa) in s.iter().enumerate() {
        for (b, msb) in ms.iter().enumerate() {
            let e = dot3(g, *sa, *msb);
            k[a][b] = g.add(k[a][b], e);
        }
        let e = dot3(g, *sa, bias);
        f[a] = g.sub(f[a], e);
    }
}
