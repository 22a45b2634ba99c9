//! Runtime inputs (`inputs { .. }`): a model with inputs equals the same model with the
//! loads as parameters, in every formulation; `jacobians` (df/dx, df/du) equals
//! `rhs_u_jvp` and central differences on every library model; the energy changes at the
//! rate the power balance gives, the inputs' power included; `linearize` takes input
//! columns and operating inputs.

use nonholo::models::{
    AssignedFront, AssignedSpin, CoaxialDisks, DiffDriveRobot, MobileManipulator, ParallelPoints,
    PendulumSkate, RollingDisk3d, RollingDiskPendulum, Skate, VerticalDisk, WhippleBicycle,
};
use nonholo::num_dual::Dual64;
use nonholo::prelude::*;
use nonholo_test_models::inputs::*;

use crate::common;
use common::rng::SplitMix64;

fn rel(a: &[f64], b: &[f64]) -> f64 {
    let scale = 1.0 + b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
        / scale
}

/// A random state of `M` whose velocities satisfy the constraints.
fn random_state<M: Model>(m: &M, rng: &mut SplitMix64) -> Vec<f64> {
    let mut q = rng.uniform_vec(M::NQ, -1.0, 1.0);
    m.solve_configuration(0.0, &mut q).unwrap();
    let z = rng.uniform_vec(M::NZ, -1.0, 1.0);
    q.extend(z);
    q
}

/// The equality of the parameter and the input versions at random states and inputs.
fn same<P: Model, U: Model>(with: impl Fn([f64; 4]) -> P, u_model: &U, states: &[Vec<f64>]) -> f64 {
    assert_eq!(U::INPUTS, ["pedal", "steer", "push", "rest"]);
    assert_eq!((P::NU, U::NU), (0, 4));
    let mut rng = SplitMix64::new(5);
    let mut worst = 0.0f64;
    for x in states {
        let u = [
            rng.uniform(-2.0, 2.0),
            rng.uniform(-2.0, 2.0),
            rng.uniform(-2.0, 2.0),
            rng.uniform(-0.5, 0.5),
        ];
        let p_model = with(u);
        let (mut dp, mut du) = (vec![0.0; P::DIM], vec![0.0; U::DIM]);
        p_model.rhs(0.3, x, &mut dp).unwrap();
        u_model.rhs_u(0.3, x, &u, &mut du).unwrap();
        worst = worst.max(rel(&du, &dp));
        let (ep, eu) = (
            p_model.energy(0.3, x).unwrap(),
            u_model.energy_u(0.3, x, &u).unwrap(),
        );
        worst = worst.max((ep - eu).abs() / (1.0 + ep.abs()));
        // at u = 0 both are the plain rhs
        u_model.rhs(0.3, x, &mut du).unwrap();
        with([0.0; 4]).rhs(0.3, x, &mut dp).unwrap();
        worst = worst.max(rel(&du, &dp));
    }
    worst
}

#[test]
fn inputs_equal_parameters_in_every_formulation() {
    let mut rng = SplitMix64::new(1);
    let ga = GaU::default();
    let states: Vec<Vec<f64>> = (0..10).map(|_| random_state(&ga, &mut rng)).collect();
    // each formulation at the same physical states (in its own speeds)
    macro_rules! compare {
        ($p:ident, $u:ident, $name:literal) => {{
            let with_inputs = $u::default();
            let states: Vec<Vec<f64>> = states
                .iter()
                .map(|x| to_formulation(&ga, &with_inputs, x))
                .collect();
            let as_parameters = |u: [f64; 4]| $p {
                pedal: u[0],
                steer: u[1],
                push: u[2],
                rest: u[3],
                ..$p::default()
            };
            let w = same(as_parameters, &with_inputs, &states);
            println!("{}: parameters vs inputs {w:e}", $name);
            assert!(w < 1e-13, "{w:e}");
            (with_inputs, states, as_parameters)
        }};
    }
    let _ = compare!(GaP, GaU, "gibbs_appell");
    let _ = compare!(BhP, BhU, "boltzmann_hamel");
    let _ = compare!(VoP, VoU, "voronec");
    let (mu, mu_states, mu_with) = compare!(MuP, MuU, "multipliers");
    // and the formulations agree with each other on the accelerations: dot(q) and the
    // speeds' rates map to the same qdd, checked through the multipliers' [q, qdd]
    let u = [0.7, -0.4, 1.1, 0.2];
    for (x, xm) in states.iter().zip(&mu_states) {
        let mut dm = vec![0.0; MuU::DIM];
        mu.rhs_u(0.0, xm, &u, &mut dm).unwrap();
        let mut dg = vec![0.0; GaU::DIM];
        ga.rhs_u(0.0, x, &u, &mut dg).unwrap();
        // qdd of Gibbs-Appell by a difference of dot(q) along the flow
        let h = 1e-6;
        let step = |s: f64| -> Vec<f64> {
            let y: Vec<f64> = x.iter().zip(&dg).map(|(a, b)| a + s * b).collect();
            let mut qd = vec![0.0; GaU::NQ];
            ga.qdot(0.0, &y[..GaU::NQ], &y[GaU::NQ..], &mut qd).unwrap();
            qd
        };
        let (p, m) = (step(h), step(-h));
        let qdd: Vec<f64> = p.iter().zip(&m).map(|(a, b)| (a - b) / (2.0 * h)).collect();
        let e = rel(&dm[MuU::NQ..], &qdd);
        assert!(e < 1e-7, "multipliers vs gibbs_appell qdd {e:e}");
    }
    // the reactions with inputs: the multipliers' version reports them
    let x = &mu_states[0];
    let r_u = mu.reaction_forces_u(0.0, &x[..6], &x[6..], &u).unwrap();
    let r_p = mu_with(u).reaction_forces(0.0, &x[..6], &x[6..]).unwrap();
    assert!(rel(&r_u, &r_p) < 1e-13);
}

/// The state of `to` with the same `(q, dot(q))` as `x` of `from`.
fn to_formulation<A: Model, B: Model>(from: &A, to: &B, x: &[f64]) -> Vec<f64> {
    let mut qd = vec![0.0; A::NQ];
    from.qdot(0.0, &x[..A::NQ], &x[A::NQ..], &mut qd).unwrap();
    to.state_from_qdot(0.0, &x[..A::NQ], &qd)
        .unwrap()
        .as_ref()
        .to_vec()
}

/// `jacobians` (in closed form: the tangents of the rhs's program, G's blocks, and for
/// the trees the residual of inverse dynamics by the subtrees' composites with `-G^-1` by
/// the articulated-body algorithm's passes) against `rhs_u_jvp`
/// (dual numbers, column by column) and central differences of
/// `rhs_u` (df/du): the worst relative differences.
fn check_jacobians<M: Model>(m: &M, x: &[f64], u: &[f64]) -> (f64, f64) {
    let n = M::DIM;
    let (mut a, mut b) = (vec![0.0; n * n], vec![0.0; n * M::NU]);
    m.jacobians(0.2, x, u, &mut a, &mut b).unwrap();
    let mut col = vec![0.0; n];
    let mut e = vec![0.0; n];
    let mut wa = 0.0f64;
    let scale = 1.0 + a.iter().fold(0.0f64, |s, v| s.max(v.abs()));
    for j in 0..n {
        e[j] = 1.0;
        m.rhs_u_jvp(0.2, x, u, &e, &mut col).unwrap();
        e[j] = 0.0;
        for i in 0..n {
            wa = wa.max((a[i * n + j] - col[i]).abs() / scale);
        }
    }
    let mut wb = 0.0f64;
    let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
    let mut w = u.to_vec();
    for k in 0..M::NU {
        let h = 1e-5 * (1.0 + u[k].abs());
        w[k] = u[k] + h;
        m.rhs_u(0.2, x, &w, &mut fp).unwrap();
        w[k] = u[k] - h;
        m.rhs_u(0.2, x, &w, &mut fm).unwrap();
        w[k] = u[k];
        let bscale = 1.0 + b.iter().fold(0.0f64, |s, v| s.max(v.abs()));
        for i in 0..n {
            let fd = (fp[i] - fm[i]) / (2.0 * h);
            wb = wb.max((b[i * M::NU + k] - fd).abs() / bscale);
        }
    }
    (wa, wb)
}

macro_rules! jacobian_cases {
    ($rng:ident, $worst:ident; $($m:expr),* $(,)?) => {$(
        {
            let m = $m;
            for _ in 0..4 {
                let x = random_state(&m, &mut $rng);
                let u = $rng.uniform_vec(nu_of(&m), -1.0, 1.0);
                let (wa, wb) = check_jacobians(&m, &x, &u);
                $worst = ($worst.0.max(wa), $worst.1.max(wb));
            }
        }
    )*};
}

fn nu_of<M: Model>(_: &M) -> usize {
    M::NU
}

#[test]
fn jacobians_are_exact_on_every_library_model() {
    let mut rng = SplitMix64::new(7);
    let mut worst = (0.0f64, 0.0f64);
    jacobian_cases!(rng, worst;
        Skate::default(), VerticalDisk::default(), CoaxialDisks::default(),
        ParallelPoints::default(), PendulumSkate::default(), AssignedFront::default(),
        RollingDiskPendulum::default(), AssignedSpin::default(), RollingDisk3d::default(),
        WhippleBicycle::default(), GaU::default(), BhU::default(), VoU::default(),
        DiffDriveRobot::default(), MobileManipulator::default(),
        nonholo_test_models::spatial::Chain2::default(),
        nonholo_test_models::spatial::Chain3::default(),
        nonholo_test_models::spatial::RigidTree5::default(),
        // the residual of inverse dynamics on Voronec's and Boltzmann–Hamel's psi
        nonholo_test_models::formulation_matrix::ChainBh::default(),
        nonholo_test_models::formulation_matrix::ChainVo::default(),
    );
    println!(
        "jacobians: df/dx vs rhs_u_jvp {:e}, df/du vs differences {:e}",
        worst.0, worst.1
    );
    // the trees' link terms are summed in each port's frame, away from the links: the
    // manipulator's structural zeros come out at 8e-12 of its largest entries, 1e2
    assert!(worst.0 < 2e-13, "{:e}", worst.0);
    assert!(worst.1 < 1e-8, "{:e}", worst.1);
    // the bicycle's df/du is the inputs' columns of the linearization
    assert_eq!(WhippleBicycle::INPUTS, ["t_roll", "t_steer", "t_rear"]);
}

#[test]
fn jacobians_check_sizes_and_do_not_panic() {
    let bike = WhippleBicycle::default();
    let x = WhippleBicycle::ZERO_STATE;
    let (mut a, mut b) = ([0.0; 121], [0.0; 33]);
    assert!(bike.jacobians(0.0, &x, &[0.0; 3], &mut a, &mut b).is_ok());
    assert!(matches!(
        bike.jacobians(0.0, &x, &[0.0; 2], &mut a, &mut b),
        Err(Error::Dimension { .. })
    ));
    assert!(matches!(
        bike.jacobians(0.0, &x, &[0.0; 3], &mut a[..120], &mut b),
        Err(Error::Dimension { .. })
    ));
    assert!(matches!(
        bike.jacobians(0.0, &x, &[0.0; 3], &mut a, &mut b[..30]),
        Err(Error::Dimension { .. })
    ));
    assert!(matches!(
        bike.jacobians(0.0, &x, &[f64::NAN, 0.0, 0.0], &mut a, &mut b),
        Err(Error::NonFinite { .. })
    ));
}

/// d(energy)/dt along the flow (`energy_u_generic` in dual numbers) equals the three
/// powers of `power_balance_u`, the inputs' power in `F . qd`.
#[test]
fn energy_changes_by_the_inputs_power() {
    let m = GaU::default();
    let mut rng = SplitMix64::new(3);
    let mut worst = 0.0f64;
    for _ in 0..10 {
        let x = random_state(&m, &mut rng);
        let u = rng.uniform_vec(4, -1.5, 1.5);
        let mut f = vec![0.0; GaU::DIM];
        m.rhs_u(0.0, &x, &u, &mut f).unwrap();
        // d/dt energy(t, x + t f) at t = 0, exactly: dual numbers along the flow
        let md: GaUOf<Dual64> = m.cast();
        let xd: Vec<Dual64> = x.iter().zip(&f).map(|(a, b)| Dual64::new(*a, *b)).collect();
        let ud: Vec<Dual64> = u.iter().map(|a| Dual64::from_re(*a)).collect();
        let de = md
            .energy_u_generic(Dual64::new(0.0, 1.0), &xd, &ud)
            .unwrap()
            .eps;
        let p = m.power_balance_u(0.0, &x, &u).unwrap();
        let total: f64 = p.iter().sum();
        worst = worst.max((de - total).abs() / (1.0 + de.abs()));
        // and without the inputs' power the balance fails
        let p0 = m.power_balance_u(0.0, &x, &[0.0; 4]).unwrap();
        assert!((p[0] - p0[0]).abs() > 1e-6);
    }
    println!("d energy/dt vs power balance with inputs: {worst:e}");
    assert!(worst < 1e-12, "{worst:e}");
}

#[test]
fn linearize_takes_inputs_and_operating_inputs() {
    // input columns equal the parameter columns of the parameter version
    let mut rng = SplitMix64::new(9);
    let ga = GaU::default();
    let x = random_state(&ga, &mut rng);
    let spec = Linearize::new().keep(&["lean", "swing", "dot(lean)", "dot(swing)", "dot(spin)"]);
    let lu = linearize(
        &ga,
        0.0,
        &x,
        &spec
            .clone()
            .tolerance(f64::INFINITY)
            .inputs(&["pedal", "push"]),
    )
    .unwrap();
    let lp = linearize(
        &GaP::default(),
        0.0,
        &x,
        &spec.tolerance(f64::INFINITY).inputs(&["pedal", "push"]),
    )
    .unwrap();
    assert_eq!(lu.inputs, ["pedal", "push"]);
    assert!(rel(lu.b.as_slice(), lp.b.as_slice()) < 1e-14);
    assert!(rel(lu.a.as_slice(), lp.a.as_slice()) < 1e-14);
    // an equilibrium held by an input: the fork swung to 0.3 by the spring's rest angle
    let mut upright = GaU::ZERO_STATE;
    upright[5] = 0.3;
    let held = linearize(
        &ga,
        0.0,
        &upright,
        &Linearize::new()
            .keep(&["swing", "dot(swing)"])
            .tolerance(f64::INFINITY)
            .at_inputs(&[0.0, 0.0, 0.0, 0.3 - 0.3 * 9.81 * 0.4 * 0.3f64.sin() / 2.0]),
    )
    .unwrap();
    assert!(held.max_residual() < 1e-12, "{:?}", held.residual);
    // a parameter input while the operating inputs are not zero is refused
    let e = linearize(
        &ga,
        0.0,
        &upright,
        &Linearize::new()
            .inputs(&["k"])
            .at_inputs(&[0.0, 0.0, 0.0, 0.1]),
    );
    assert!(matches!(e, Err(Error::InvalidOptions(_))), "{e:?}");
    let e = linearize(&ga, 0.0, &upright, &Linearize::new().at_inputs(&[0.0]));
    assert!(matches!(e, Err(Error::Dimension { .. })), "{e:?}");
}
