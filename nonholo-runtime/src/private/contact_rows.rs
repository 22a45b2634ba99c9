//! The numeric half of [`Contacts::contact_loads`](crate::Contacts::contact_loads): the
//! emitted code derives the rows' multipliers, the contacts' geometry and the wrench the
//! contacts must supply; this places the forces (`design/contact_forces.md`, 2.5 and 4).

use crate::contacts::ContactLoadOf;
use crate::linalg::{solve_spd, Ldlt};
use crate::{Error, Scalar};
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
/// 6e-17`, would pass them as determined). Decided on the values ([`Scalar::re`]).
pub fn flat_contact<S: Scalar>(contacts: &[ContactRows], geometry: &[S]) -> Option<usize> {
    (0..contacts.len()).find(|&c| {
        let re = |i: usize| {
            let v = at(geometry, i);
            [v[0].re(), v[1].re(), v[2].re()]
        };
        let (up, axle) = (re(PER_CONTACT * c + 3), re(PER_CONTACT * c + 6));
        let across = cross(up, axle);
        contacts[c].axle && libm::sqrt(dot(across, across)) <= 1e-9 * libm::sqrt(dot(axle, axle))
    })
}

/// The error of a contact lying flat ([`flat_contact`]).
pub fn flat_contact_error<S: Scalar>(contact: &'static str, t: S, state: &[S]) -> Error {
    Error::SingularContact {
        contact,
        why: "its axle is along the ground's normal (lying flat): the contact point is not determined",
        t: t.re(),
        state: super::to_vec(state),
    }
}

/// Entries of the contacts' geometry per contact: point, up, axle, `mu` (NaN without).
pub const PER_CONTACT: usize = 10;

/// The multipliers `lambda = (C C^T)^-1 C R` of reactions `R = C^T lambda` (exact when `R`
/// is a reaction of these rows); `None` when `C` has dependent rows.
pub fn row_multipliers<S: Scalar, const NQ: usize, const NC: usize>(
    c: &[[S; NQ]; NC],
    r: &[S; NQ],
) -> Option<[S; NC]> {
    let zero = S::from_f64(0.0);
    let mut cct = [[zero; NC]; NC];
    let mut cr = [zero; NC];
    let inner = |a: &[S; NQ], b: &[S; NQ]| {
        let mut v = zero;
        for i in 0..NQ {
            v += a[i] * b[i];
        }
        v
    };
    for a in 0..NC {
        for b in a..NC {
            let v = inner(&c[a], &c[b]);
            cct[a][b] = v;
            cct[b][a] = v;
        }
        cr[a] = inner(&c[a], r);
    }
    solve_spd(&cct, &cr)
}

fn cross<S: Scalar>(a: [S; 3], b: [S; 3]) -> [S; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot<S: Scalar>(a: [S; 3], b: [S; 3]) -> S {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn at<S: Scalar>(x: &[S], i: usize) -> [S; 3] {
    [x[i], x[i + 1], x[i + 2]]
}

/// The normals of the anchored contacts where the Newton–Euler balance does not determine
/// them (their least-squares matrix `A`, 6 x 6 with zero columns past the contacts, is
/// rank-deficient): [`contact_loads`]'s last resort.
pub type LeastNorm<S> = fn(&[[S; 6]; 6], &[S; 6]) -> Option<[S; 6]>;

/// The minimum-norm least-squares solution by nalgebra's SVD (singular values below
/// `1e-12` of the largest dropped): four wheels on a rigid chassis share the load so.
pub fn least_norm_svd(a: &[[f64; 6]; 6], b: &[f64; 6]) -> Option<[f64; 6]> {
    let a = SMatrix::<f64, 6, 6>::from_fn(|i, j| a[i][j]);
    let b = SVector::<f64, 6>::from_fn(|i, _| b[i]);
    let svd = a.svd(true, true);
    let largest = svd.singular_values.max();
    let x = svd.solve(&b, 1e-12 * largest.max(1.0)).ok()?;
    Some(core::array::from_fn(|i| x[i]))
}

/// No last resort: in a scalar that carries derivatives, normals the balance does not
/// determine have none (their split is a choice, not a function of the state).
pub fn least_norm_none<S: Scalar>(_: &[[S; 6]; 6], _: &[S; 6]) -> Option<[S; 6]> {
    None
}

/// The contact loads from the rows' multipliers `lambda`, the wrench the contacts must
/// supply (`dP/dt - F_applied`, `dL_O/dt - M_applied,O`, root components) and the
/// geometry (per contact [`PER_CONTACT`] entries, then `e_r` of every row in contact
/// order), in any [`Scalar`] (its decisions on the values). `balanced`: the wrench counts
/// every external force but the contacts'. `moments`: the wrench has its moment part (else
/// only the force balance is used, enough for one anchored normal). `least_norm`: the
/// normals where the balance does not determine them ([`least_norm_svd`] in `f64`).
#[allow(clippy::too_many_arguments)]
pub fn contact_loads<S: Scalar>(
    contacts: &[ContactRows],
    balanced: bool,
    moments: bool,
    lambda: &[S],
    wrench: &[S; 6],
    geometry: &[S],
    out: &mut [ContactLoadOf<S>],
    least_norm: LeastNorm<S>,
) -> Result<(), Error> {
    let k = contacts.len();
    let zero = S::from_f64(0.0);
    // the tangential forces, and the normals of contacts with a height row
    let mut rest = *wrench;
    let mut row_at = PER_CONTACT * k;
    let mut anchored = [0usize; 6];
    let mut n_anchored = 0;
    for (c, spec) in contacts.iter().enumerate() {
        let point = at(geometry, PER_CONTACT * c);
        let mut f = [zero; 3];
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
        out[c] = ContactLoadOf {
            force: f,
            point,
            ..ContactLoadOf::zero()
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
        let mut a = [[zero; 6]; 6];
        for (j, c) in anchored[..n_anchored].iter().enumerate() {
            let up = at(geometry, PER_CONTACT * c + 3);
            let lever = out[*c].point;
            let arm = [
                lever[0] - reference[0],
                lever[1] - reference[1],
                lever[2] - reference[2],
            ];
            let m = cross(arm, up);
            for i in 0..3 {
                a[i][j] = up[i];
                if moments {
                    a[3 + i][j] = m[i];
                }
            }
        }
        let b: [S; 6] = core::array::from_fn(|i| {
            if i < 3 {
                rest[i]
            } else {
                rest[i] - shift[i - 3]
            }
        });
        // least squares by the normal equations (A^T A is k x k, regular unless the
        // normals are not determined; the rest of the 6 x 6 is the identity)
        let mut ata = [[zero; 6]; 6];
        let mut atb = [zero; 6];
        for i in 0..6 {
            if i >= n_anchored {
                ata[i][i] = S::from_f64(1.0);
                continue;
            }
            for j in 0..n_anchored {
                let mut v = zero;
                for row in &a {
                    v += row[i] * row[j];
                }
                ata[i][j] = v;
            }
            for r in 0..6 {
                atb[i] += a[r][i] * b[r];
            }
        }
        // a factor whose pivots span more than 1e12 (1e6 in a Cholesky factor) is
        // round-off's: the normals are not determined (four wheels on a rigid chassis)
        let factor = Ldlt::new(&ata).filter(|f| {
            let pivots = &f.pivots()[..n_anchored];
            let (lo, hi) = pivots.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), p| {
                (lo.min(p.re()), hi.max(p.re()))
            });
            lo > 1e-12 * hi
        });
        let x = match factor {
            Some(f) => f.solve(&atb),
            None => least_norm(&a, &b).ok_or(Error::NotAvailable {
                what: "the normal forces (the Newton-Euler balance does not determine them)",
            })?,
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
            out[c].force[i] += share * *s;
            out[j].force[i] -= share * *s;
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
        let len = dot(side, side).sqrt();
        for x in &mut side {
            *x /= len;
        }
        let ahead = cross(side, up);
        load.normal = normal;
        load.lateral = dot(f, side);
        load.longitudinal = dot(f, ahead);
        load.mu = mu;
        if mu.re().is_finite() {
            let ft = (load.longitudinal * load.longitudinal + load.lateral * load.lateral).sqrt();
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
pub(crate) fn lateral_share<S: Scalar>(
    (f_c, geo_c): ([S; 3], &[S]),
    (f_j, geo_j): ([S; 3], &[S]),
) -> S {
    let zero = S::from_f64(0.0);
    let parts = |f: [S; 3], g: &[S]| {
        let (up, axle, mu) = (at(g, 3), at(g, 6), g[9]);
        let n = dot(f, up);
        let a_up = dot(axle, up);
        let side = [
            axle[0] - a_up * up[0],
            axle[1] - a_up * up[1],
            axle[2] - a_up * up[2],
        ];
        let ahead = cross(side, up);
        let length = dot(ahead, ahead).sqrt();
        let long = if length.re() > f64::MIN_POSITIVE {
            dot(f, ahead) / length
        } else {
            dot(f, ahead) / S::from_f64(f64::MIN_POSITIVE)
        };
        let room = (mu * n) * (mu * n) - long * long;
        // no capacity without friction (mu NaN) or beyond the limit
        let cap = if room.re() > 0.0 { room.sqrt() } else { zero };
        (n, cap)
    };
    let ((n_c, cap_c), (n_j, cap_j)) = (parts(f_c, geo_c), parts(f_j, geo_j));
    if (cap_c + cap_j).re() > 0.0 && n_c.re() > 0.0 && n_j.re() > 0.0 {
        cap_c / (cap_c + cap_j)
    } else if (n_c + n_j).re() > 0.0 {
        n_c / (n_c + n_j)
    } else {
        S::from_f64(0.5)
    }
}

/// The force of contact `j`'s lateral row (the one most nearly along its axle).
fn lateral_force<S: Scalar>(
    contacts: &[ContactRows],
    lambda: &[S],
    geometry: &[S],
    j: usize,
) -> Option<[S; 3]> {
    let mut row_at = PER_CONTACT * contacts.len();
    for spec in &contacts[..j] {
        row_at += 3 * spec.rows.len();
    }
    let axle = at(geometry, PER_CONTACT * j + 6);
    let spec = &contacts[j];
    let tangent = spec.rows.len() - usize::from(spec.height);
    let mut best: Option<(f64, [S; 3])> = None;
    for (i, &r) in spec.rows[..tangent].iter().enumerate() {
        let e = at(geometry, row_at + 3 * i);
        let along =
            libm::fabs(dot(e, axle).re()) / libm::sqrt(dot(e, e).re()).max(f64::MIN_POSITIVE);
        if best.is_none_or(|(b, _)| along > b) {
            best = Some((
                along,
                [lambda[r] * e[0], lambda[r] * e[1], lambda[r] * e[2]],
            ));
        }
    }
    best.map(|(_, f)| f)
}
