//! The exact Jacobian-vector products of the generated models against central finite
//! differences of `rhs` (which agree to ~1e-8 relative at these step sizes).

use crate::common;
use common::rng::SplitMix64;
use nonholo::models::*;
use nonholo::prelude::*;
use nonholo_test_models::jacobian::*;

fn check<M: Model>(name: &str, m: &M, rng: &mut SplitMix64) {
    let mut worst = 0.0f64;
    for _ in 0..40 {
        let t = rng.uniform(0.0, 2.0);
        let s: Vec<f64> = (0..M::DIM).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let v: Vec<f64> = (0..M::DIM).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let mut exact = vec![0.0; M::DIM];
        m.rhs_jvp(t, &s, &v, &mut exact).expect("jvp");
        let h = 1e-6;
        let sp: Vec<f64> = s.iter().zip(&v).map(|(a, b)| a + h * b).collect();
        let sm: Vec<f64> = s.iter().zip(&v).map(|(a, b)| a - h * b).collect();
        let (mut fp, mut fm) = (vec![0.0; M::DIM], vec![0.0; M::DIM]);
        m.rhs(t, &sp, &mut fp).expect("rhs");
        m.rhs(t, &sm, &mut fm).expect("rhs");
        let scale = exact.iter().fold(1.0f64, |a, x| a.max(x.abs()));
        for i in 0..M::DIM {
            let fd = (fp[i] - fm[i]) / (2.0 * h);
            worst = worst.max((fd - exact[i]).abs() / scale);
        }
    }
    println!("{name}: max |jvp - finite difference| / scale = {worst:.1e}");
    assert!(worst < 1e-7, "{name}: {worst:e}");
}

#[test]
fn exact_jacobians_match_finite_differences() {
    let mut rng = SplitMix64::new(41);
    check("skate", &Skate::new().with_alpha(0.2).with_c(0.3), &mut rng);
    check(
        "vertical disk",
        &VerticalDisk::new().with_alpha(0.2),
        &mut rng,
    );
    check("coaxial disks", &CoaxialDisks::default(), &mut rng);
    check("parallel points", &ParallelPoints::default(), &mut rng);
    check(
        "pendulum skate",
        &PendulumSkate::new().with_c_phi(0.2),
        &mut rng,
    );
    check(
        "assigned front",
        &AssignedFront::new().with_c_th(0.3),
        &mut rng,
    );
    check(
        "rolling disk pendulum",
        &RollingDiskPendulum::new().with_tau(0.4),
        &mut rng,
    );
    check("assigned spin", &AssignedSpin::default(), &mut rng);
    check(
        "skate (multipliers)",
        &SkateMultipliers::default(),
        &mut rng,
    );
}

/// `Model::JACOBIAN_PATTERN`, emitted with closed-form `jacobians`: sorted, in range, and
/// holding every entry of `[a b]` that is nonzero at random states and inputs. Returns
/// (entries in the pattern, entries seen nonzero).
fn pattern_holds<M: Model>(name: &str, m: &M, rng: &mut SplitMix64) -> (usize, usize) {
    let (dim, nu) = (M::DIM, M::NU);
    let pattern = M::JACOBIAN_PATTERN.unwrap_or_else(|| panic!("{name}: no pattern"));
    assert!(
        pattern.windows(2).all(|w| w[0] < w[1]),
        "{name}: not sorted"
    );
    let mut inside = vec![false; dim * (dim + nu)];
    for &(i, c) in pattern {
        let (i, c) = (usize::from(i), usize::from(c));
        assert!(i < dim && c < dim + nu, "{name}: ({i}, {c}) out of range");
        inside[i * (dim + nu) + c] = true;
    }
    let mut seen = vec![false; dim * (dim + nu)];
    for _ in 0..40 {
        let t = rng.uniform(0.0, 2.0);
        let s: Vec<f64> = (0..dim).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let u: Vec<f64> = (0..nu).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let (mut a, mut b) = (vec![0.0; dim * dim], vec![0.0; dim * nu]);
        if m.jacobians(t, &s, &u, &mut a, &mut b).is_err() {
            continue;
        }
        for i in 0..dim {
            for c in 0..dim + nu {
                let v = if c < dim {
                    a[i * dim + c]
                } else {
                    b[i * nu + c - dim]
                };
                if v != 0.0 {
                    assert!(
                        inside[i * (dim + nu) + c],
                        "{name}: ({i}, {c}) = {v:e} outside"
                    );
                    seen[i * (dim + nu) + c] = true;
                }
            }
        }
    }
    let seen = seen.iter().filter(|s| **s).count();
    println!(
        "{name}: pattern {} of {} entries, {seen} seen nonzero",
        pattern.len(),
        dim * (dim + nu)
    );
    (pattern.len(), seen)
}

#[test]
fn the_emitted_jacobian_pattern_holds_every_nonzero() {
    let mut rng = SplitMix64::new(43);
    let mut exact = 0;
    let models = [
        pattern_holds("skate", &Skate::new().with_alpha(0.2).with_c(0.3), &mut rng),
        pattern_holds("coaxial disks", &CoaxialDisks::default(), &mut rng),
        pattern_holds("diff-drive robot", &DiffDriveRobot::default(), &mut rng),
        pattern_holds(
            "mobile manipulator",
            &MobileManipulator::default(),
            &mut rng,
        ),
        pattern_holds("Whipple bicycle", &WhippleBicycle::default(), &mut rng),
    ];
    for (len, seen) in models {
        assert!(seen <= len);
        exact += usize::from(seen == len);
    }
    // structure and numbers agree but for entries that cancel (none in these models)
    assert_eq!(exact, models.len());
}

/// Models whose `jacobians` take dual numbers carry the pattern by dependence: each
/// coordinate's rate on its own expression's columns, the speeds' rows on everything
/// their equations involve; it holds every nonzero, and it is sparser than dense.
#[test]
fn jacobians_by_dual_numbers_carry_a_pattern_by_dependence() {
    let mut rng = SplitMix64::new(47);
    let skate = SteeredSkateDual::default();
    let (len, seen) = pattern_holds("steered skate, dual numbers", &skate, &mut rng);
    let pattern = SteeredSkateDual::JACOBIAN_PATTERN.unwrap();
    // state (x, y, theta, v, w), inputs (push, turn): x' = v cos(theta), y' = v
    // sin(theta), theta' = w
    let rates: Vec<(u16, u16)> = pattern.iter().copied().filter(|&(i, _)| i < 3).collect();
    assert_eq!(rates, [(0, 2), (0, 3), (1, 2), (1, 3), (2, 4)]);
    // v' = push / m and w' = turn / j (the speeds' rows share their columns)
    for i in [3, 4] {
        for c in [5, 6] {
            assert!(pattern.contains(&(i, c)), "({i}, {c}) missing");
        }
        assert!(!pattern.contains(&(i, 0)) && !pattern.contains(&(i, 3)));
    }
    assert!(seen <= len && len < 5 * 7);
    // the same entries as the closed form's where both see them nonzero
    let closed = nonholo_test_models::optimal::SteeredSkate::default();
    let (s, u) = ([0.3, -0.2, 0.7, 0.5, -0.4], [0.8, -0.6]);
    let (mut a, mut b) = ([0.0; 25], [0.0; 10]);
    let (mut ca, mut cb) = ([0.0; 25], [0.0; 10]);
    skate.jacobians(0.0, &s, &u, &mut a, &mut b).unwrap();
    closed.jacobians(0.0, &s, &u, &mut ca, &mut cb).unwrap();
    for (x, y) in a.iter().chain(&b).zip(ca.iter().chain(&cb)) {
        assert!((x - y).abs() <= 1e-14 * (1.0 + y.abs()), "{x} vs {y}");
    }

    let pushed = PushedSkateMultipliers::default();
    pattern_holds("pushed skate, multipliers", &pushed, &mut rng);
    let pattern = PushedSkateMultipliers::JACOBIAN_PATTERN.unwrap();
    // d q/dt = dot(q)
    let rates: Vec<(u16, u16)> = pattern.iter().copied().filter(|&(i, _)| i < 3).collect();
    assert_eq!(rates, [(0, 3), (1, 4), (2, 5)]);
}
