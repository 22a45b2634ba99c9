//! The tangents of a tree's residual of inverse dynamics by its subtrees' composites
//! (Carpentier and Mansard 2018), for `jacobians`: the macro emits the per-joint terms in
//! each port's frame (`nonholo-macros`' `recursive::port_frame`, which states the maths),
//! and the entries, quadratic in the joints, are a loop here rather than code per entry.

/// Per joint: `S`, `v_λ`, `a_λ`, `F`, `h^C`, `I^C` (row-major), `M^C` (row-major).
pub const TREE_TERMS: usize = 102;

/// A joint: `(parent, port, row, q column, z column)`: its parent joint (`usize::MAX` at a
/// port), its port, the residual's row of its speed, and where its coordinate's and its
/// speed's columns are in `dr` (`usize::MAX`: not there).
pub type TreeJoint = (usize, usize, usize, usize, usize);

/// A root column: `(column, port, [d nu/dx, d a_0/dx], d s/dx by root speed)`.
pub type RootColumn<const K: usize> = (usize, usize, [f64; 12], [[f64; 6]; K]);

#[inline(always)]
fn six(t: &[f64; TREE_TERMS], at: usize) -> [f64; 6] {
    core::array::from_fn(|k| t[at + k])
}

#[inline(always)]
fn dot(a: &[f64; 6], b: &[f64; 6]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5]
}

#[inline(always)]
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `a x b` of motions.
#[inline(always)]
fn crm(a: &[f64; 6], b: &[f64; 6]) -> [f64; 6] {
    let w = cross([a[0], a[1], a[2]], [b[0], b[1], b[2]]);
    let x = cross([a[0], a[1], a[2]], [b[3], b[4], b[5]]);
    let y = cross([a[3], a[4], a[5]], [b[0], b[1], b[2]]);
    [w[0], w[1], w[2], x[0] + y[0], x[1] + y[1], x[2] + y[2]]
}

/// `a x* f`: a motion on a force.
#[inline(always)]
fn crf(a: &[f64; 6], f: &[f64; 6]) -> [f64; 6] {
    let x = cross([a[0], a[1], a[2]], [f[0], f[1], f[2]]);
    let y = cross([a[3], a[4], a[5]], [f[3], f[4], f[5]]);
    let z = cross([a[0], a[1], a[2]], [f[3], f[4], f[5]]);
    [x[0] + y[0], x[1] + y[1], x[2] + y[2], z[0], z[1], z[2]]
}

#[inline(always)]
fn mat_vec(t: &[f64; TREE_TERMS], at: usize, v: &[f64; 6]) -> [f64; 6] {
    core::array::from_fn(|r| {
        let m = &t[at + 6 * r..at + 6 * r + 6];
        m[0] * v[0] + m[1] * v[1] + m[2] * v[2] + m[3] * v[3] + m[4] * v[4] + m[5] * v[5]
    })
}

const S: usize = 0;
const V0: usize = 6;
const A0: usize = 12;
const F: usize = 18;
const H: usize = 24;
const IC: usize = 30;
const MC: usize = 66;

/// The subtree's force change `I^C da~ - M^C dv + dv x* h^C` for incoming `dv` and `da~ =
/// da + v_λ x dv`.
#[inline(always)]
fn force_change(t: &[f64; TREE_TERMS], dv: &[f64; 6], dat: &[f64; 6]) -> [f64; 6] {
    let a = mat_vec(t, IC, dat);
    let b = mat_vec(t, MC, dv);
    let c = crf(dv, &six(t, H));
    core::array::from_fn(|k| a[k] - b[k] + c[k])
}

/// Subtracts from `dr` (by column, then row: `-dr/dx`) the links' share of the residual's
/// tangents: for each joint's coordinate and speed, and for the root columns `root_cols`
/// (`(column, port, [d nu/dx, d a_0/dx], d s/dx)`), the rows of the joints below (`rho . da~ +
/// sigma . dv`), above (`S . dF`) and of the root (`s . dF`, `ports[p] = (top joint, s by
/// root speed)`, `root_rows` the root speeds' rows).
pub fn tree_tangents<const NZ: usize, const NJ: usize, const K: usize>(
    joints: &[TreeJoint; NJ],
    terms: &[[f64; TREE_TERMS]; NJ],
    root_rows: &[usize; K],
    ports: &[(usize, [[f64; 6]; K])],
    root_cols: &[RootColumn<K>],
    dr: &mut [[f64; NZ]],
) {
    let mut rho = [[0.0; 6]; NJ];
    let mut sigma = [[0.0; 6]; NJ];
    // each joint's two columns (coordinate, speed): dv, da~ and dF
    let mut cols = [[[[0.0; 6]; 3]; 2]; NJ];
    for j in 0..NJ {
        let t = &terms[j];
        let (s, v0, h) = (six(t, S), six(t, V0), six(t, H));
        rho[j] = mat_vec(t, IC, &s);
        let m = mat_vec(t, MC, &s);
        let c = crf(&s, &h);
        sigma[j] = core::array::from_fn(|k| -m[k] - c[k]);
        if joints[j].3 != usize::MAX {
            // the subtree turned by S: -S x v_λ, -S x a_λ in, S x* F seen from above
            let dv = crm(&v0, &s);
            let da = crm(&six(t, A0), &s);
            let w = crm(&v0, &dv);
            let dat: [f64; 6] = core::array::from_fn(|k| da[k] + w[k]);
            let mut df = force_change(t, &dv, &dat);
            let turned = crf(&s, &six(t, F));
            for k in 0..6 {
                df[k] += turned[k];
            }
            cols[j][0] = [dv, dat, df];
        }
        if joints[j].4 != usize::MAX {
            let w = crm(&v0, &s);
            let dat: [f64; 6] = core::array::from_fn(|k| 2.0 * w[k]);
            // dF = I^C da~ - M^C S + S x* h^C
            let a = mat_vec(t, IC, &dat);
            let df = core::array::from_fn(|k| a[k] - m[k] + c[k]);
            cols[j][1] = [s, dat, df];
        }
    }
    // row i reads the columns of the joints on its way up (rho . da~ + sigma . dv), and
    // the rows above it read its columns (S . dF), as do the root's (s . dF)
    for i in 0..NJ {
        let (_, port, row, qc, zc) = joints[i];
        let mut p = i;
        loop {
            let (_, _, row_p, qp, zp) = joints[p];
            for (c, at) in [(qp, &cols[p][0]), (zp, &cols[p][1])] {
                if c != usize::MAX {
                    let [dv, dat, _] = at;
                    dr[c][row] -= dot(&rho[i], dat) + dot(&sigma[i], dv);
                }
            }
            if p != i {
                let sp = six(&terms[p], S);
                for (c, at) in [(qc, &cols[i][0]), (zc, &cols[i][1])] {
                    if c != usize::MAX {
                        dr[c][row_p] -= dot(&sp, &at[2]);
                    }
                }
            }
            p = joints[p].0;
            if p == usize::MAX {
                break;
            }
        }
        let s = &ports[port].1;
        for (c, at) in [(qc, &cols[i][0]), (zc, &cols[i][1])] {
            if c != usize::MAX {
                for (a, row_a) in root_rows.iter().enumerate() {
                    dr[c][*row_a] -= dot(&s[a], &at[2]);
                }
            }
        }
    }
    for (col, port, d, ds) in root_cols {
        let top = ports[*port].0;
        let t = &terms[top];
        let dv: [f64; 6] = core::array::from_fn(|k| d[k]);
        let w = crm(&six(t, V0), &dv);
        let dat: [f64; 6] = core::array::from_fn(|k| d[6 + k] + w[k]);
        let out = &mut dr[*col];
        for i in 0..NJ {
            if joints[i].1 == *port {
                out[joints[i].2] -= dot(&rho[i], &dat) + dot(&sigma[i], &dv);
            }
        }
        let df = force_change(t, &dv, &dat);
        let (s, f) = (&ports[*port].1, six(t, F));
        for (a, row) in root_rows.iter().enumerate() {
            out[*row] -= dot(&s[a], &df) + dot(&ds[a], &f);
        }
    }
}
