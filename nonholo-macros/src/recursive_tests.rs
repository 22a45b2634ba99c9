//! The articulated-body algorithm ([`crate::mechanics::recursive`]) against `G dz/dt =
//! forcing` of the body-wise Gibbs–Appell equations at random states, on the spatial
//! families and the library models it takes.

use crate::mechanics::first_method::KEEP_RECURSIVE;
use crate::mechanics::Layout;
use crate::spatial_tests::{source, Family};
use crate::sym::linsolve::RandomPoints;
use crate::sym::HashMap;

/// The spatial families at the sizes every test here takes.
fn families() -> impl Iterator<Item = (Family, usize)> {
    [
        Family::Chain,
        Family::RigidChain,
        Family::Tree,
        Family::Manipulator,
    ]
    .into_iter()
    .flat_map(|f| [1, 2, 4].map(|n| (f, n)))
}

/// The model lowered and derived, the articulated-body algorithm kept whatever its size.
fn derived(src: &str) -> (crate::model::Lowered, crate::mechanics::Equations) {
    let cx = crate::ctxt::Ctxt::new();
    let parsed = crate::dsl::parse::parse_model(src.parse().expect("tokens"), &cx);
    let checked = crate::check::check(parsed, &cx).expect("check");
    let mut low = crate::lower::lower(&checked, &cx);
    KEEP_RECURSIVE.with(|k| k.set(true));
    let eq = crate::mechanics::derive(&mut low, &cx);
    KEEP_RECURSIVE.with(|k| k.set(false));
    (low, eq.expect("equations"))
}

/// `Some(worst relative difference)` over a few random states, `None` where the model is
/// not a tree the route takes.
fn compare(src: &str) -> Option<f64> {
    let (low, eq) = derived(src);
    let Layout::First(d) = &eq.layout else {
        return None;
    };
    let rec = d.recursive.as_ref()?;
    let g = &low.graph;
    let nz = d.forcing.len();
    let done = g.reachable(&d.qdot);
    let mut by_g: Vec<crate::sym::Id> = d.mass_matrix_g.e.clone();
    by_g.extend(&d.forcing_rest);
    by_g.extend(d.explicit.iter().flatten());
    let mut aba = rec.accelerations.clone();
    aba.extend(&rec.pivots);
    println!(
        "nz {nz}: operations by G {} (+ its solve), by the articulated-body algorithm {}",
        g.ops_outside(&by_g, &done),
        g.ops_outside(&aba, &done)
    );
    let mut points = RandomPoints::new(23);
    let mut worst = 0.0f64;
    for _ in 0..4 {
        let env = points.next_point(g);
        let mut memo = HashMap::default();
        let x = d.zdot_at(g, &env, &mut memo);
        let y: Vec<f64> = rec
            .accelerations
            .iter()
            .map(|e| g.eval(*e, &env, &mut memo))
            .collect();
        let scale = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (a, b) in x.iter().zip(&y) {
            worst = worst.max((a - b).abs() / scale);
        }
        for p in &rec.pivots {
            assert!(g.eval(*p, &env, &mut memo) > 0.0);
        }
    }
    Some(worst)
}

#[test]
fn articulated_body_accelerations_equal_gibbs_appells() {
    for (family, n) in families() {
        let worst = compare(&source("S", n, family))
            .unwrap_or_else(|| panic!("{family:?} {n}: not taken as a tree"));
        println!("{family:?} {n}: worst {worst:e}");
        assert!(worst < 1e-10, "{family:?} {n}: {worst:e}");
    }
}

#[test]
fn library_models_as_trees() {
    let mut taken = Vec::new();
    for name in crate::test_models::library_names() {
        let src = crate::test_models::library_model(&name);
        if !src.contains("body ") {
            continue;
        }
        if let Some(worst) = compare(&src) {
            assert!(worst < 1e-10, "{name}: {worst:e}");
            taken.push(name);
        }
    }
    println!("taken as trees: {taken:?}");
}

/// `Some(worst relative difference)` between the reactions by recursive Newton–Euler and
/// `A qdd + h - F` of the body-wise Lagrange terms at random states and accelerations,
/// `None` where the route gives none.
fn compare_reactions(src: &str) -> Option<f64> {
    let (mut low, eq) = derived(src);
    let cx = crate::ctxt::Ctxt::new();
    let Layout::First(d) = &eq.layout else {
        return None;
    };
    let rec = d.recursive.as_ref()?;
    let by_tree = rec.reactions.clone()?;
    let lt = crate::mechanics::lagrangian::lagrange_terms(&mut low, &cx).expect("terms");
    let body_wise = crate::mechanics::power::power_terms(&mut low, &lt, &d.qdot, None);
    let g = &low.graph;
    let done = g.reachable(&d.qdot);
    println!(
        "reactions: operations by A qdd + h - F {}, by Newton–Euler {}",
        g.ops_outside(&body_wise.reactions, &done),
        g.ops_outside(&by_tree, &done)
    );
    let mut points = RandomPoints::new(29);
    let mut worst = 0.0f64;
    for _ in 0..4 {
        let mut env = points.next_point(g);
        for (a, b) in body_wise.zdot.iter().zip(&rec.zdot) {
            env[*a as usize] = env[*b as usize];
        }
        let mut memo = HashMap::default();
        let x: Vec<f64> = (body_wise.reactions.iter())
            .map(|e| g.eval(*e, &env, &mut memo))
            .collect();
        let y: Vec<f64> = by_tree
            .iter()
            .map(|e| g.eval(*e, &env, &mut memo))
            .collect();
        let scale = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (a, b) in x.iter().zip(&y) {
            worst = worst.max((a - b).abs() / scale);
        }
    }
    Some(worst)
}

#[test]
fn newton_euler_reactions_equal_the_lagrange_terms() {
    for (family, n) in families() {
        let worst = compare_reactions(&source("S", n, family))
            .unwrap_or_else(|| panic!("{family:?} {n}: no reactions by the tree"));
        println!("{family:?} {n}: worst {worst:e}");
        assert!(worst < 1e-10, "{family:?} {n}: {worst:e}");
    }
    let src = crate::test_models::library_model("MobileManipulator");
    let worst = compare_reactions(&src).expect("MobileManipulator's reactions by the tree");
    println!("MobileManipulator: worst {worst:e}");
    assert!(worst < 1e-10, "MobileManipulator: {worst:e}");
}

#[test]
fn voronec_and_boltzmann_hamel_take_the_tree() {
    for formulation in ["voronec", "boltzmann_hamel"] {
        for (family, n) in [
            (Family::Chain, 2),
            (Family::RigidChain, 2),
            (Family::Tree, 4),
        ] {
            let src = format!("{}formulation = {formulation};\n", source("S", n, family));
            let worst = compare(&src)
                .unwrap_or_else(|| panic!("{formulation} {family:?} {n}: not taken as a tree"));
            println!("{formulation} {family:?} {n}: worst {worst:e}");
            assert!(worst < 1e-10, "{formulation} {family:?} {n}: {worst:e}");
        }
    }
}

/// Each formulation on the chain family (`NONHOLO_CHAIN_N`, default 6; ignored, run it in
/// release): expansion time, emitted size and the rhs's route.
#[test]
#[ignore]
fn formulations_on_the_chain() {
    let n: usize = std::env::var("NONHOLO_CHAIN_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    println!("| formulation | expansion (s) | emitted (kB) | rhs |");
    println!("| --- | --- | --- | --- |");
    for formulation in ["gibbs_appell", "voronec", "boltzmann_hamel", "multipliers"] {
        let mut src = source(&format!("Chain{n}"), n, Family::Chain);
        if formulation == "multipliers" {
            // (q, dot(q)) integrated directly: no speeds chosen
            src = src.replace("dependent { x, y }", "");
        }
        src.push_str(&format!("formulation = {formulation};\n"));
        let start = std::time::Instant::now();
        let out = crate::expand::expand(src.parse().expect("tokens")).to_string();
        let secs = start.elapsed().as_secs_f64();
        assert!(!out.contains("compile_error"), "{formulation}");
        let route = if out.contains("articulated-body algorithm") {
            "articulated-body algorithm"
        } else {
            "its own equations"
        };
        println!(
            "| {formulation} | {secs:.2} | {:.0} | {route} |",
            out.len() as f64 / 1e3
        );
    }
}

/// Worst relative differences of the inverse-dynamics residual against `G zdot -
/// forcing` (body-wise) at random states and `zdot`, and of `G (G^-1 b)` against `b` for
/// the solve the Jacobian runs per column.
fn compare_residual(src: &str) -> (f64, f64) {
    let (low, eq) = derived(src);
    let Layout::First(d) = &eq.layout else {
        panic!("a first-method model");
    };
    let rec = d.recursive.as_ref().expect("taken as a tree");
    let g = &low.graph;
    let nz = d.forcing.len();
    let (b_syms, solved) = &rec.solve;
    let mut points = RandomPoints::new(31);
    let (mut worst_r, mut worst_s) = (0.0f64, 0.0f64);
    for _ in 0..4 {
        let env = points.next_point(g);
        let mut memo = HashMap::default();
        let mut ev = |e: crate::sym::Id| g.eval(e, &env, &mut memo);
        let gm: Vec<Vec<f64>> = (0..nz)
            .map(|a| (0..nz).map(|b| ev(d.mass_matrix_g.at(a, b))).collect())
            .collect();
        let zdot: Vec<f64> = rec.zdot.iter().map(|s| env[*s as usize]).collect();
        let b: Vec<f64> = b_syms.iter().map(|s| env[*s as usize]).collect();
        let y: Vec<f64> = solved.iter().map(|e| ev(*e)).collect();
        let r: Vec<f64> = rec.residual.iter().map(|e| ev(*e)).collect();
        let forcing: Vec<f64> = d.forcing.iter().map(|e| ev(*e)).collect();
        let scale = |v: &[f64]| v.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        let expect_r: Vec<f64> = (0..nz)
            .map(|a| (0..nz).map(|c| gm[a][c] * zdot[c]).sum::<f64>() - forcing[a])
            .collect();
        let gy: Vec<f64> = (0..nz)
            .map(|a| (0..nz).map(|c| gm[a][c] * y[c]).sum())
            .collect();
        let (sr, sb) = (scale(&expect_r), scale(&b));
        for a in 0..nz {
            worst_r = worst_r.max((r[a] - expect_r[a]).abs() / sr);
            worst_s = worst_s.max((gy[a] - b[a]).abs() / sb);
        }
    }
    (worst_r, worst_s)
}

#[test]
fn inverse_dynamics_residual_and_solve_match_g() {
    let mut cases: Vec<(String, String)> = families()
        .map(|(family, n)| (format!("{family:?} {n}"), source("S", n, family)))
        .collect();
    let name = "MobileManipulator".to_string();
    cases.push((name.clone(), crate::test_models::library_model(&name)));
    for (name, src) in cases {
        let (r, s) = compare_residual(&src);
        println!("{name}: residual {r:e}, solve {s:e}");
        assert!(r < 1e-10 && s < 1e-10, "{name}: {r:e} {s:e}");
    }
}

/// `-dr/dx` of the residual at `zdot` held by the subtrees' composites (the runtime's
/// `tree_tangents` on the terms of [`crate::mechanics::recursive::port_frame`], started
/// from the rest's tangents) against the residual differentiated symbolically: the worst
/// relative difference over a few random states.
fn compare_composites<const NZ: usize, const NJ: usize, const K: usize>(src: &str) -> f64 {
    let (mut low, eq) = derived(src);
    let Layout::First(d) = &eq.layout else {
        panic!("a first-method model");
    };
    let rec = d.recursive.as_ref().expect("taken as a tree");
    let t = rec.tangents.as_ref().expect("its ports move with the root");
    let (nq, nz) = (low.syms.q.len(), low.syms.z.len());
    assert_eq!((nz, t.joints.len(), t.root_speeds.len()), (NZ, NJ, K));
    let g = &mut low.graph;
    let xs: Vec<u32> = low.syms.q.iter().chain(&low.syms.z).copied().collect();
    let d_of = |g: &mut crate::sym::Graph, es: &[crate::sym::Id]| -> Vec<Vec<crate::sym::Id>> {
        xs.iter()
            .map(|x| es.iter().map(|e| g.diff(*e, *x)).collect())
            .collect()
    };
    let exact = d_of(g, &rec.residual);
    let rest = d_of(g, &t.rest);
    let motions: Vec<Vec<Vec<crate::sym::Id>>> =
        t.ports.iter().map(|p| d_of(g, &p.motion)).collect();
    let joints: [nonholo::__private::TreeJoint; NJ] = std::array::from_fn(|j| {
        let tj = &t.joints[j];
        let parent = tj.parent.unwrap_or(usize::MAX);
        (parent, tj.port, tj.speed, tj.coord, nq + tj.speed)
    });
    let root_rows: [usize; K] = std::array::from_fn(|a| t.root_speeds[a]);
    let mut points = RandomPoints::new(41);
    let mut worst = 0.0f64;
    for _ in 0..3 {
        let env = points.next_point(g);
        let mut memo = HashMap::default();
        let mut ev = |e: crate::sym::Id| g.eval(e, &env, &mut memo);
        let terms: [[f64; nonholo::__private::TREE_TERMS]; NJ] =
            std::array::from_fn(|j| std::array::from_fn(|k| ev(t.joints[j].terms[k])));
        let ports: Vec<(usize, [[f64; 6]; K])> = t
            .ports
            .iter()
            .map(|p| {
                let s = std::array::from_fn(|a| std::array::from_fn(|k| ev(p.s[a][k])));
                (p.top, s)
            })
            .collect();
        let mut root_cols = Vec::new();
        for (p, m) in motions.iter().enumerate() {
            for (c, col) in m.iter().enumerate() {
                let v: Vec<f64> = col.iter().map(|e| ev(*e)).collect();
                let ds = std::array::from_fn(|a| std::array::from_fn(|k| v[12 + 6 * a + k]));
                root_cols.push((c, p, std::array::from_fn(|k| v[k]), ds));
            }
        }
        let mut dr: Vec<[f64; NZ]> = rest
            .iter()
            .map(|col| std::array::from_fn(|k| -ev(col[k])))
            .collect();
        nonholo::__private::tree_tangents(&joints, &terms, &root_rows, &ports, &root_cols, &mut dr);
        let want: Vec<Vec<f64>> = exact
            .iter()
            .map(|col| col.iter().map(|e| -ev(*e)).collect())
            .collect();
        let scale = want.iter().flatten().fold(1.0f64, |m, v| m.max(v.abs()));
        for (got, want) in dr.iter().zip(&want) {
            for (a, b) in got.iter().zip(want) {
                worst = worst.max((a - b).abs() / scale);
            }
        }
    }
    worst
}

#[test]
fn composites_give_the_residuals_tangents() {
    let cases = [
        (
            "Chain 1",
            compare_composites::<5, 2, 3>(&source("S", 1, Family::Chain)),
        ),
        (
            "RigidChain 2",
            compare_composites::<7, 4, 3>(&source("S", 2, Family::RigidChain)),
        ),
        // two ports
        (
            "RigidTree 4",
            compare_composites::<11, 8, 3>(&source("S", 4, Family::RigidTree)),
        ),
        // two root speeds, joint torques, joints about z and y
        (
            "Manipulator 3",
            compare_composites::<5, 3, 2>(&source("S", 3, Family::Manipulator)),
        ),
        (
            "MobileManipulator",
            compare_composites::<8, 6, 2>(&crate::test_models::library_model("MobileManipulator")),
        ),
    ];
    for (name, worst) in cases {
        println!("{name}: {worst:e}");
        assert!(worst < 1e-12, "{name}: {worst:e}");
    }
}
