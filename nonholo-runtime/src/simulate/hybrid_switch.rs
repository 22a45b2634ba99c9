//! The decisions at a hybrid run's switches: which contacts start sliding where a slip
//! starts, whether the contacts whose slip reached zero grip or slide on reversed, and each
//! phase's samples recorded with their loads and mode.

use alloc::vec;
use alloc::vec::Vec;

use super::super::sliding::{still_speed, Sliding};
use crate::{Error, Model, Trajectory};

/// The slip velocity of contact `c` at `(t, q, dot(q))` in the mode `mask`.
pub(super) fn solver_slip(
    s: &mut Sliding<'_>,
    t: f64,
    (q, qd): (&[f64], &[f64]),
    u: &[f64],
    (mask, start, armed): (&[bool], &[[f64; 3]], &[bool]),
    c: usize,
) -> Result<[f64; 3], Error> {
    s.solve(t, q, qd, u, mask, (start, armed))?;
    Ok(s.slip[c])
}

/// Contact `first` starts sliding at `(t, q, dot(q))`, where it rolled in `mask` and the
/// friction it needs has reached `mu N`; so do the contacts with friction at their limit
/// there too, and a contact's partner on its axle where the pair can only slide together.
/// Each slides against the force rolling needed, within the rows it frees: the friction
/// force is continuous (`design/contact_forces.md`, 6.3), and a direction is kept only where
/// the slip it starts goes the same way. The contacts that started, `first` first.
#[allow(clippy::too_many_arguments)]
pub(super) fn start_sliding(
    s: &mut Sliding<'_>,
    t: f64,
    (q, qd): (&[f64], &[f64]),
    u: &[f64],
    mask: &mut [bool],
    (start, armed): (&mut [[f64; 3]], &mut [bool]),
    first: &[usize],
) -> Result<Vec<usize>, Error> {
    let spec = s.spec();
    let k = mask.len();
    let painleve = |c: usize| Error::Painleve {
        contact: spec.names[c],
        t,
        state: crate::__private::concat(q, qd),
    };
    s.solve(t, q, qd, u, mask, (start, armed))?;
    let pull: Vec<[f64; 3]> = (0..k).map(|c| slip_start(s, c)).collect();
    let mut started = first.to_vec();
    for (c, (l, rolls)) in s.loads.iter().zip(mask.iter().map(|m| !m)).enumerate() {
        let limit = 1e-9 * (1.0 + l.normal.abs());
        if !first.contains(&c) && rolls && spec.friction[c] && l.friction_margin <= limit {
            started.push(c);
        }
    }
    for _ in 0..=k {
        for &c in &started {
            mask[c] = true;
            start[c] = [0.0; 3];
            armed[c] = false;
        }
        s.solve(t, q, qd, u, mask, (start, armed))?;
        for &c in &started {
            let d = s.free_part(c, pull[c]);
            let len = norm3(d);
            if len.is_nan() || len <= 1e-9 {
                return Err(painleve(c));
            }
            start[c] = [d[0] / len, d[1] / len, d[2] / len];
        }
        s.solve(t, q, qd, u, mask, (start, armed))?;
        // a slip that would start against its friction: the contact's partner on its axle
        // slides with it, or nothing is consistent
        let mut more = Vec::new();
        for &c in &started {
            let a = s.slip_acceleration(c);
            let along = a[0] * start[c][0] + a[1] * start[c][1] + a[2] * start[c][2];
            if along >= -1e-9 * (1.0 + norm3(a)) {
                continue;
            }
            let partner = (0..k).find(|&p| {
                !mask[p]
                    && (spec.contacts[c].shares_lateral_with == Some(p)
                        || spec.contacts[p].shares_lateral_with == Some(c))
            });
            match partner {
                Some(p) if !more.contains(&p) => more.push(p),
                Some(_) => {}
                None => return Err(painleve(c)),
            }
        }
        if more.is_empty() {
            if let Some(&c) = started.iter().find(|&&c| s.loads[c].normal <= 0.0) {
                return Err(painleve(c));
            }
            return Ok(started);
        }
        started.extend(more);
    }
    Err(painleve(first[0]))
}

/// Contact `c`, sliding in `mask` and stopped at `(t, q, dot(q))`, rolls again where rolling
/// needs no more than `mu N`, with the sliding contacts the projection onto its rows stops
/// too (its partner on an axle, whose lateral slip is its own): the new mode, `dot(q)` and
/// the contacts that grip, `c` first. The contacts that slide on are watched along their
/// slip after the projection. Where rolling would need more, the contacts stopped with it
/// ([`Grip::SlidesOn`]).
pub(super) fn try_grip(
    s: &mut Sliding<'_>,
    t: f64,
    (q, qd): (&[f64], &[f64]),
    u: &[f64],
    mask: &[bool],
    (start, armed): (&mut [[f64; 3]], &[bool]),
    c: usize,
) -> Result<Grip, Error> {
    let mut grip = mask.to_vec();
    let mut gripped = vec![c];
    let mut qd_grip = qd.to_vec();
    for _ in 0..mask.len() {
        for &g in &gripped {
            grip[g] = false;
        }
        qd_grip.copy_from_slice(qd);
        s.project(t, q, &mut qd_grip, u, &grip)?;
        s.solve(t, q, &qd_grip, u, &grip, (start, armed))?;
        let still = still_speed(&qd_grip);
        let before = gripped.len();
        gripped.extend((0..mask.len()).filter(|&p| grip[p] && norm3(s.slip[p]) <= still));
        if gripped.len() == before {
            break;
        }
    }
    if gripped.iter().any(|&g| s.loads[g].friction_margin < 0.0) {
        return Ok(Grip::SlidesOn(qd_grip, gripped));
    }
    for p in (0..mask.len()).filter(|&p| grip[p] && armed[p]) {
        let v = s.slip[p];
        let speed = norm3(v);
        start[p] = [v[0] / speed, v[1] / speed, v[2] / speed];
    }
    Ok(Grip::Rolls(grip, qd_grip, gripped))
}

/// What a sliding contact whose slip reached zero does ([`try_grip`]).
pub(super) enum Grip {
    /// It rolls, with the others the projection stopped: the new mode, `dot(q)` there
    /// and the contacts that grip, the first one first.
    Rolls(Vec<bool>, Vec<f64>, Vec<usize>),
    /// Rolling would need more than `mu N`: `dot(q)` with the slips of the contacts that
    /// stopped together at zero, and those contacts, the first one first.
    SlidesOn(Vec<f64>, Vec<usize>),
}

pub(super) fn norm3(v: [f64; 3]) -> f64 {
    libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
}

/// `-F_t / |F_t|` of contact `c` in the last solution: the way rolling pulled it.
fn slip_start(s: &Sliding<'_>, c: usize) -> [f64; 3] {
    let l = &s.loads[c];
    let up = s.up(c);
    let f = l.force;
    let n = f[0] * up[0] + f[1] * up[1] + f[2] * up[2];
    let ft = [f[0] - n * up[0], f[1] - n * up[1], f[2] - n * up[2]];
    let len = libm::sqrt(ft[0] * ft[0] + ft[1] * ft[1] + ft[2] * ft[2]);
    if len > 0.0 {
        [-ft[0] / len, -ft[1] / len, -ft[2] / len]
    } else {
        [0.0; 3]
    }
}

/// The samples of one phase into `out` as `[q, dot(q)]` with the loads and the mode (the
/// first one skipped where the switch put it already).
#[allow(clippy::too_many_arguments)]
pub(super) fn append<M: Model>(
    model: &M,
    solver: &mut Sliding<'_>,
    seg: &Trajectory,
    rolling: bool,
    (mask, start, armed): (&[bool], &[[f64; 3]], &[bool]),
    first: bool,
    out: &mut Trajectory,
) -> Result<(), Error> {
    let nq = M::NQ;
    let mut x = vec![0.0; 2 * nq];
    let mut dx = vec![0.0; 2 * nq];
    let mut events = seg.events().iter().peekable();
    let mut prev: Option<f64> = None;
    for i in 0..seg.len() {
        let t = seg.times()[i];
        let at_event = prev == Some(t);
        prev = Some(t);
        if i == 0 && !first && out.times().last() == Some(&t) {
            continue;
        }
        let state = seg.state(i).unwrap_or_default();
        let u = seg.input(i).unwrap_or_default();
        x[..nq].copy_from_slice(&state[..nq]);
        if rolling {
            model.qdot(t, &state[..nq], &state[nq..], &mut x[nq..])?;
        } else {
            x[nq..].copy_from_slice(&state[nq..]);
        }
        let (qs, qds) = x.split_at(nq);
        solver.solve(t, qs, qds, u, mask, (start, armed))?;
        dx[..nq].copy_from_slice(qds);
        dx[nq..].copy_from_slice(&solver.qdd);
        if at_event {
            let event = events.next().copied().ok_or(Error::NotAvailable {
                what: "the event of a recorded pair",
            })?;
            out.push_event(event, &x, &dx, u)?;
        } else {
            out.push_with_inputs(t, &x, &dx, u)?;
        }
        out.push_contacts(&solver.loads, mask);
    }
    Ok(())
}
