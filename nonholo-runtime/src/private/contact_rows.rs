//! The numeric half of [`Contacts::contact_loads`](crate::Contacts::contact_loads): the
//! emitted code derives the rows' multipliers, the contacts' geometry and the wrench the
//! contacts must supply; this places the forces (`design/contact_forces.md`, 2.5 and 4).

use crate::contacts::ContactLoad;
use crate::linalg::solve_spd;
use crate::Error;
use nalgebra::{SMatrix, SVector};

/// One `rolls` of a model, as `nonholonomic!` emits it.
#[derive(Clone, Copy, Debug)]
pub struct ContactRows {
    /// Its rows among the model's constraints; row `r` is `v_m . e_r`, so its multiplier
    /// `lambda_r` is the force `lambda_r e_r` at the contact.
    pub rows: &'static [usize],
    /// The last row is the contact height (`solve: q`): the normal force is its multiplier.
    pub height: bool,
    /// With `lateral: false`: the contact on the same axle whose lateral row it shares.
    pub shares_lateral_with: Option<usize>,
    /// The surface turns about an axle (a disk, a torus): lying flat, its axle along the
    /// normal, it has no contact point. (The load axle of a sphere or an ellipsoid is
    /// only a direction its loads are read in.)
    pub axle: bool,
}

/// The first contact with an axle ([`ContactRows::axle`]) lying flat, its axle along the
/// ground's normal to `1e-9` relative, in the geometry of [`contact_loads`]: where its
/// contact point, its rows and its loads are not determined (and round-off, `cos(pi/2) =
/// 6e-17`, would pass them as determined).
pub fn flat_contact(contacts: &[ContactRows], geometry: &[f64]) -> Option<usize> {
    (0..contacts.len()).find(|&c| {
        let (up, axle) = (
            at(geometry, PER_CONTACT * c + 3),
            at(geometry, PER_CONTACT * c + 6),
        );
        let across = cross(up, axle);
        contacts[c].axle && libm::sqrt(dot(across, across)) <= 1e-9 * libm::sqrt(dot(axle, axle))
    })
}

/// The error of a contact lying flat ([`flat_contact`]).
pub fn flat_contact_error(contact: &'static str, t: f64, state: &[f64]) -> Error {
    Error::SingularContact {
        contact,
        why: "its axle is along the ground's normal (lying flat): the contact point is not determined",
        t,
        state: state.to_vec(),
    }
}

/// Entries of the contacts' geometry per contact: point, up, axle, `mu` (NaN without).
pub const PER_CONTACT: usize = 10;

/// The multipliers `lambda = (C C^T)^-1 C R` of reactions `R = C^T lambda` (exact when `R`
/// is a reaction of these rows); `None` when `C` has dependent rows.
pub fn row_multipliers<const NQ: usize, const NC: usize>(
    c: &[[f64; NQ]; NC],
    r: &[f64; NQ],
) -> Option<[f64; NC]> {
    let mut cct = [[0.0; NC]; NC];
    let mut cr = [0.0; NC];
    for a in 0..NC {
        for b in a..NC {
            let v: f64 = (0..NQ).map(|i| c[a][i] * c[b][i]).sum();
            cct[a][b] = v;
            cct[b][a] = v;
        }
        cr[a] = (0..NQ).map(|i| c[a][i] * r[i]).sum();
    }
    solve_spd(&cct, &cr)
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn at(x: &[f64], i: usize) -> [f64; 3] {
    [x[i], x[i + 1], x[i + 2]]
}

/// The contact loads from the rows' multipliers `lambda`, the wrench the contacts must
/// supply (`dP/dt - F_applied`, `dL_O/dt - M_applied,O`, root components) and the
/// geometry (per contact [`PER_CONTACT`] entries, then `e_r` of every row in contact
/// order). `balanced`: the wrench counts every external force but the contacts'.
/// `moments`: the wrench has its moment part (else only the force balance is used, enough
/// for one anchored normal).
#[allow(clippy::too_many_arguments)]
pub fn contact_loads(
    contacts: &[ContactRows],
    balanced: bool,
    moments: bool,
    lambda: &[f64],
    wrench: &[f64; 6],
    geometry: &[f64],
    out: &mut [ContactLoad],
) -> Result<(), Error> {
    let k = contacts.len();
    // the tangential forces, and the normals of contacts with a height row
    let mut rest = *wrench;
    let mut row_at = PER_CONTACT * k;
    let mut anchored = [0usize; 6];
    let mut n_anchored = 0;
    for (c, spec) in contacts.iter().enumerate() {
        let point = at(geometry, PER_CONTACT * c);
        let mut f = [0.0; 3];
        for &r in spec.rows {
            let e = at(geometry, row_at);
            row_at += 3;
            for i in 0..3 {
                f[i] += lambda[r] * e[i];
            }
        }
        let m = cross(point, f);
        for i in 0..3 {
            rest[i] -= f[i];
            rest[3 + i] -= m[i];
        }
        out[c] = ContactLoad {
            force: f,
            point,
            ..ContactLoad::ZERO
        };
        if !spec.height {
            if n_anchored == anchored.len() {
                return Err(Error::NotAvailable {
                    what: "the normal forces of more than six contacts held on the plane by the coordinates",
                });
            }
            anchored[n_anchored] = c;
            n_anchored += 1;
        }
    }
    if n_anchored > 0 {
        if !balanced {
            return Err(Error::NotAvailable {
                what: "the normal force of a contact held on the plane by the coordinates (the model has a scalar energy, constraint or force the Newton-Euler balance cannot place)",
            });
        }
        // moments about the first anchored contact, so that the columns are of one scale
        let reference = out[anchored[0]].point;
        let shift = cross(reference, at(&rest, 0));
        let mut a = SMatrix::<f64, 6, 6>::zeros();
        for (j, c) in anchored[..n_anchored].iter().enumerate() {
            let up = at(geometry, PER_CONTACT * c + 3);
            let lever = at(&out[*c].point, 0);
            let arm = [
                lever[0] - reference[0],
                lever[1] - reference[1],
                lever[2] - reference[2],
            ];
            let m = cross(arm, up);
            for i in 0..3 {
                a[(i, j)] = up[i];
                a[(3 + i, j)] = m[i];
            }
        }
        let b = SVector::<f64, 6>::from_fn(|i, _| {
            if i < 3 {
                rest[i]
            } else {
                rest[i] - shift[i - 3]
            }
        });
        if !moments {
            for i in 3..6 {
                for j in 0..n_anchored {
                    a[(i, j)] = 0.0;
                }
            }
        }
        // least squares by the normal equations (A^T A is k x k, regular unless the
        // normals are not determined); the minimum-norm solution by SVD otherwise
        let mut ata = SMatrix::<f64, 6, 6>::identity();
        let mut atb = SVector::<f64, 6>::zeros();
        for i in 0..n_anchored {
            for j in 0..n_anchored {
                ata[(i, j)] = a.column(i).dot(&a.column(j));
            }
            atb[i] = a.column(i).dot(&b);
        }
        // a factor whose pivots span more than 1e6 (1e12 in A^T A) is round-off's: the
        // normals are not determined (four wheels on a rigid chassis) and the split is
        // the least-norm one
        let determined = |ch: &nalgebra::Cholesky<f64, nalgebra::Const<6>>| {
            let l = ch.l_dirty();
            let pivots = (0..n_anchored).map(|i| l[(i, i)]);
            let (lo, hi) = pivots.fold((f64::INFINITY, 0.0f64), |(lo, hi), p| {
                (lo.min(p), hi.max(p))
            });
            lo > 1e-6 * hi
        };
        let x = match ata.cholesky().filter(determined) {
            Some(ch) => ch.solve(&atb),
            None => {
                let svd = a.svd(true, true);
                let largest = svd.singular_values.max();
                svd.solve(&b, 1e-12 * largest.max(1.0))
                    .map_err(|_| Error::NotAvailable {
                        what: "the normal forces (the Newton-Euler balance could not be solved)",
                    })?
            }
        };
        for (j, c) in anchored[..n_anchored].iter().enumerate() {
            let up = at(geometry, PER_CONTACT * c + 3);
            for (f, e) in out[*c].force.iter_mut().zip(up) {
                *f += x[j] * e;
            }
        }
    }
    // two wheels on one axle: the shared lateral force split by what each can still give
    for (c, spec) in contacts.iter().enumerate() {
        let Some(j) = spec.shares_lateral_with else {
            continue;
        };
        let Some(lateral) = lateral_force(contacts, lambda, geometry, j) else {
            continue;
        };
        let share = lateral_share(
            (
                out[c].force,
                &geometry[PER_CONTACT * c..PER_CONTACT * (c + 1)],
            ),
            (
                out[j].force,
                &geometry[PER_CONTACT * j..PER_CONTACT * (j + 1)],
            ),
        );
        for (i, s) in lateral.iter().enumerate() {
            out[c].force[i] += share * s;
            out[j].force[i] -= share * s;
        }
    }
    for (c, load) in out.iter_mut().enumerate().take(k) {
        let g = &geometry[PER_CONTACT * c..PER_CONTACT * (c + 1)];
        let (up, axle, mu) = (at(g, 3), at(g, 6), g[9]);
        let f = load.force;
        let normal = dot(f, up);
        let a_up = dot(axle, up);
        let mut side = [
            axle[0] - a_up * up[0],
            axle[1] - a_up * up[1],
            axle[2] - a_up * up[2],
        ];
        let len = libm::sqrt(dot(side, side));
        for x in &mut side {
            *x /= len;
        }
        let ahead = cross(side, up);
        load.normal = normal;
        load.lateral = dot(f, side);
        load.longitudinal = dot(f, ahead);
        if mu.is_finite() {
            let ft = load.tangential();
            load.utilization = ft / (mu * normal);
            load.friction_margin = mu * normal - ft;
        }
    }
    Ok(())
}

/// The share of a lateral force shared by two wheels on one axle that wheel `c` takes, with
/// its force so far and its geometry ([`PER_CONTACT`] entries), and the other's (`j`, its
/// longitudinal force and normal already placed): in proportion to the lateral friction
/// each can still give, `sqrt((mu N)^2 - F_long^2)`, so that both reach the friction limit
/// together, when the pair can no longer hold the axle sideways (equal utilization under
/// a pure lateral load); in proportion to the normals without `friction` or capacity.
pub(crate) fn lateral_share(
    (f_c, geo_c): ([f64; 3], &[f64]),
    (f_j, geo_j): ([f64; 3], &[f64]),
) -> f64 {
    let parts = |f: [f64; 3], g: &[f64]| {
        let (up, axle, mu) = (at(g, 3), at(g, 6), g[9]);
        let n = dot(f, up);
        let a_up = dot(axle, up);
        let side = [
            axle[0] - a_up * up[0],
            axle[1] - a_up * up[1],
            axle[2] - a_up * up[2],
        ];
        let ahead = cross(side, up);
        let long = dot(f, ahead) / libm::sqrt(dot(ahead, ahead)).max(f64::MIN_POSITIVE);
        let cap = libm::sqrt(((mu * n) * (mu * n) - long * long).max(0.0));
        (n, cap)
    };
    let ((n_c, cap_c), (n_j, cap_j)) = (parts(f_c, geo_c), parts(f_j, geo_j));
    if cap_c + cap_j > 0.0 && n_c > 0.0 && n_j > 0.0 {
        cap_c / (cap_c + cap_j)
    } else if n_c + n_j > 0.0 {
        n_c / (n_c + n_j)
    } else {
        0.5
    }
}

/// The force of contact `j`'s lateral row (the one most nearly along its axle).
fn lateral_force(
    contacts: &[ContactRows],
    lambda: &[f64],
    geometry: &[f64],
    j: usize,
) -> Option<[f64; 3]> {
    let mut row_at = PER_CONTACT * contacts.len();
    for spec in &contacts[..j] {
        row_at += 3 * spec.rows.len();
    }
    let axle = at(geometry, PER_CONTACT * j + 6);
    let spec = &contacts[j];
    let tangent = spec.rows.len() - usize::from(spec.height);
    let mut best: Option<(f64, [f64; 3])> = None;
    for (i, &r) in spec.rows[..tangent].iter().enumerate() {
        let e = at(geometry, row_at + 3 * i);
        let along = libm::fabs(dot(e, axle)) / libm::sqrt(dot(e, e)).max(f64::MIN_POSITIVE);
        if best.is_none_or(|(b, _)| along > b) {
            best = Some((
                along,
                [lambda[r] * e[0], lambda[r] * e[1], lambda[r] * e[2]],
            ));
        }
    }
    best.map(|(_, f)| f)
}
