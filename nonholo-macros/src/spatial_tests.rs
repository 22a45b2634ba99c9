//! Spatial multibody families: a thin disk rolling on the ground with a chain of `n`
//! links hanging from its centre, each turned about two axes relative to the one before
//! (`.rotate(x, a_i).rotate(y, b_i)`: 2n + 5 coordinates, 2 rolling constraints, n + 1
//! bodies), and a branched tree (two chains of `n / 2` links from the disk's centre).
//!
//! `spatial_expansion_growth` (ignored; run it in release) prints expansion time, emitted
//! size and rhs operations for the family; with `NONHOLO_SPATIAL_OUT=dir` it also writes
//! each model for the downstream build measurements (`bench/spatial/run.sh`), with
//! `NONHOLO_SPATIAL_EXPANDED=1` its expansion beside it; `NONHOLO_SPATIAL_FAMILIES=
//! rigidchain,tree` keeps to those families, `NONHOLO_SPATIAL_FORMULATION=voronec` derives
//! them by that formulation.

use crate::expand::expand;
use std::fmt::Write as _;
use std::time::Instant;

/// The family a model belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// One chain of `n` links from the disk's centre.
    Chain,
    /// The chain with ordinary rigid links: boxes with three distinct principal moments,
    /// products of inertia in the link's frame and the centre of mass off the link's axis.
    RigidChain,
    /// Two chains of `n / 2` links (the second `n - n / 2`) from the disk's centre.
    Tree,
    /// The tree with the rigid chain's links.
    RigidTree,
    /// `models::MobileManipulator`'s base (two drive wheels, a castor) with an arm of `n`
    /// joints, turning about z, y, y, z, y, z, .. in turn, and joint-torque inputs
    /// (`n + 7` coordinates, 5 rolling rows).
    Manipulator,
}

/// The manipulator family's DSL body.
fn manipulator(n: usize) -> String {
    let mut s = String::new();
    let joints: Vec<String> = (1..=n).map(|i| format!("q{i}")).collect();
    let taus: Vec<String> = (1..=n).map(|i| format!("tau{i}")).collect();
    let _ = writeln!(
        s,
        "parameters {{ r = 0.1, b = 0.2, c = 0.05, a = 0.3, d = 0.04, h_s = 0.15, r_c = 0.05,\n\
         m_c = 8.0, i_cx = 0.15, i_cy = 0.25, i_cz = 0.3, m_w = 0.5, i_wd = 0.0013, i_wa = 0.0025,\n\
         m_k = 0.1, i_kd = 0.00007, i_ka = 0.00013, h_m = 0.25, g = 9.81 }}\n\
         inputs {{ t_l, t_r, {} }}\n\
         coordinates {{ x, y, th, phi_l, phi_r, sw, phi_c, {} }}\n\
         frame N;\npoint O;\nframe C = N.rotate(z, th);\nframe WL = C.rotate(y, phi_l);\n\
         frame WR = C.rotate(y, phi_r);\nframe K = C.rotate(z, sw);\nframe WC = K.rotate(y, phi_c);\n\
         point P = O + N[x, y, 0.0];\npoint G = P + C[-c, 0.0, 0.2];\npoint L_o = P + C[0.0, b, r];\n\
         point R_o = P + C[0.0, -b, r];\npoint S_o = P + C[-a, 0.0, h_s];\n\
         point K_o = S_o + K[-d, 0.0, r_c - h_s];\n\
         body chassis {{ frame: C, center: G, mass: m_c, inertia: inertia(C, i_cx, i_cy, i_cz) }}\n\
         body left {{ frame: WL, center: L_o, mass: m_w, inertia: inertia(C, i_wd, i_wa, i_wd) }}\n\
         body right {{ frame: WR, center: R_o, mass: m_w, inertia: inertia(C, i_wd, i_wa, i_wd) }}\n\
         body caster {{ frame: WC, center: K_o, mass: m_k, inertia: inertia(K, i_kd, i_ka, i_kd) }}\n\
         point J0 = P + C[0.05, 0.0, h_m];",
        taus.join(", "),
        joints.join(", ")
    );
    let axes = ["z", "y", "y", "z", "y", "z"];
    let mut loads = vec![
        "between left, chassis: t_l * C.y;".to_string(),
        "between right, chassis: t_r * C.y;".to_string(),
    ];
    for i in 1..=n {
        let (parent, body_parent) = if i == 1 {
            ("C".to_string(), "chassis".to_string())
        } else {
            (format!("A{}", i - 1), format!("link{}", i - 1))
        };
        let axis = axes[(i - 1) % axes.len()];
        let l = 0.4 / (1.0 + 0.25 * (i - 1) as f64);
        let m = 2.5 / (1.0 + 0.3 * (i - 1) as f64);
        let _ = writeln!(
            s,
            "frame A{i} = {parent}.rotate({axis}, q{i});\n\
             point G{i} = J{j} + {h} * A{i}.z;\n\
             point J{i} = J{j} + {l} * A{i}.z;\n\
             body link{i} {{ frame: A{i}, center: G{i}, mass: {m},\n    \
             inertia: inertia(A{i}, {ixx}, {ixx}, 0.001) }}",
            j = i - 1,
            h = 0.5 * l,
            ixx = m * l * l / 12.0,
        );
        loads.push(format!(
            "between link{i}, {body_parent}: tau{i} * {parent}.{axis};"
        ));
    }
    let _ = writeln!(
        s,
        "gravity = -g * N.z;\nplane ground {{ point: O, up: N.z }}\n\
         rolls left on ground {{ center: L_o, axis: C.y, radius: r }}\n\
         rolls right on ground {{ center: R_o, axis: C.y, radius: r, lateral: false }}\n\
         rolls caster on ground {{ center: K_o, axis: K.y, radius: r_c }}\n\
         forces {{\n    {}\n}}\n\
         dependent {{ x, y, th, sw, phi_c }}",
        loads.join("\n    ")
    );
    s
}

/// The DSL body (everything after the struct line) of a family member.
pub(crate) fn spatial(n: usize, family: Family) -> String {
    if family == Family::Manipulator {
        return manipulator(n);
    }
    let mut s = String::new();
    let coords: Vec<String> = (1..=n)
        .flat_map(|i| [format!("a{i}"), format!("b{i}")])
        .collect();
    let _ = writeln!(
        s,
        "parameters {{ m = 1.0, r = 0.5, g = 9.81, ml = 0.2, l = 0.3 }}\n\
         coordinates {{ x, y, yaw, lean, spin, {} }}\n\
         frame N;\npoint O;\n\
         frame L = N.rotate(z, yaw).rotate(x, lean);\n\
         frame D = L.rotate(y, spin);\n\
         point P = O + N[x, y, 0.0];\n\
         point C = P + r * L.z;\n\
         body disk {{ frame: D, center: C, mass: m,\n    \
         inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }}",
        coords.join(", ")
    );
    let split = match family {
        Family::Chain | Family::RigidChain => usize::MAX,
        Family::Tree | Family::RigidTree | Family::Manipulator => n / 2,
    };
    let (mut prev, mut frame) = ("C".to_string(), "L".to_string());
    for i in 1..=n {
        if i > 1 && i == split.saturating_add(1) {
            (prev, frame) = ("C".to_string(), "L".to_string());
        }
        if matches!(family, Family::RigidChain | Family::RigidTree) {
            // a box 0.3 x 0.1 x 0.04 (l, w, d) whose principal axes are turned slightly
            // from the link's frame, its centre off the axis
            let _ = writeln!(
                s,
                "frame K{i} = {frame}.rotate(x, a{i}).rotate(y, b{i});\n\
                 point G{i} = {prev} + K{i}[0.01, -0.005, -0.5 * l];\n\
                 point J{i} = {prev} - l * K{i}.z;\n\
                 body link{i} {{ frame: K{i}, center: G{i}, mass: ml,\n    \
                 inertia: inertia(K{i}, ml * (l * l + 0.0016) / 12.0, ml * (l * l + 0.01) / 12.0, \
                 ml * 0.0116 / 12.0, 0.00002, -0.00001, 0.00003) }}"
            );
        } else {
            let _ = writeln!(
                s,
                "frame K{i} = {frame}.rotate(x, a{i}).rotate(y, b{i});\n\
                 point G{i} = {prev} - 0.5 * l * K{i}.z;\n\
                 point J{i} = {prev} - l * K{i}.z;\n\
                 body link{i} {{ frame: K{i}, center: G{i}, mass: ml,\n    \
                 inertia: inertia(K{i}, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }}"
            );
        }
        prev = format!("J{i}");
        frame = format!("K{i}");
    }
    let _ = writeln!(
        s,
        "gravity = -g * N.z;\n\
         plane ground {{ point: O, up: N.z }}\n\
         rolls disk on ground {{ center: C, axis: L.y, radius: r, contact: P }}\n\
         dependent {{ x, y }}"
    );
    s
}

pub(crate) fn source(name: &str, n: usize, family: Family) -> String {
    format!(
        "#[derive(Debug, Clone, Copy, PartialEq)]\npub struct {name};\n{}",
        spatial(n, family)
    )
}

#[test]
fn small_spatial_models_expand_without_errors() {
    for family in [
        Family::Chain,
        Family::RigidChain,
        Family::Tree,
        Family::Manipulator,
    ] {
        let out = expand(source("S", 2, family).parse().expect("tokens")).to_string();
        assert!(!out.contains("compile_error"), "{family:?}: {out}");
    }
}

#[test]
#[ignore]
fn spatial_expansion_growth() {
    let sizes: Vec<usize> = std::env::var("NONHOLO_SPATIAL_N")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![2, 4, 6, 8]);
    let out_dir = std::env::var("NONHOLO_SPATIAL_OUT").ok();
    println!("| N | coordinates | family | expansion (s) | emitted (kB) |");
    println!("| --- | --- | --- | --- | --- |");
    for &n in &sizes {
        for family in [
            Family::Chain,
            Family::RigidChain,
            Family::Tree,
            Family::Manipulator,
        ] {
            let name = format!("{family:?}{n}");
            if let Ok(only) = std::env::var("NONHOLO_SPATIAL_FAMILIES")
                && !only
                    .split(',')
                    .any(|f| f.trim().eq_ignore_ascii_case(&format!("{family:?}")))
            {
                continue;
            }
            let mut src = source(&name, n, family);
            if let Ok(f) = std::env::var("NONHOLO_SPATIAL_FORMULATION") {
                src.push_str(&format!("formulation = {f};\n"));
            }
            let start = Instant::now();
            let out = expand(src.parse().expect("tokens")).to_string();
            let secs = start.elapsed().as_secs_f64();
            assert!(!out.contains("compile_error"), "N = {n} {family:?}");
            println!(
                "| {n} | {} | {family:?} | {secs:.3} | {:.1} |",
                if family == Family::Manipulator {
                    n + 7
                } else {
                    2 * n + 5
                },
                out.len() as f64 / 1e3
            );
            if let Some(dir) = &out_dir {
                let text = format!("nonholo::nonholonomic! {{\n{src}}}\n");
                std::fs::write(format!("{dir}/{}.rs", name.to_lowercase()), text)
                    .expect("write model");
                if std::env::var("NONHOLO_SPATIAL_EXPANDED").is_ok() {
                    let path = format!("{dir}/{}.expanded.rs", name.to_lowercase());
                    std::fs::write(path, &out).expect("write expansion");
                }
            }
        }
    }
}

/// Lowered and with its Lagrange terms derived along `route`.
fn lagrange_along(
    src: &str,
    route: crate::mechanics::lagrangian::Route,
) -> (
    crate::model::Lowered,
    crate::mechanics::lagrangian::LagrangeTerms,
) {
    use crate::mechanics::lagrangian::{lagrange_terms, TEST_ROUTE};
    let cx = crate::ctxt::Ctxt::new();
    let parsed = crate::dsl::parse::parse_model(src.parse().expect("tokens"), &cx);
    let checked = crate::check::check(parsed, &cx).expect("check");
    let mut low = crate::lower::lower(&checked, &cx);
    TEST_ROUTE.with(|r| r.set(Some(route)));
    let lt = lagrange_terms(&mut low, &cx);
    TEST_ROUTE.with(|r| r.set(None));
    let lt = lt.expect("Lagrange terms");
    assert_eq!(lt.route, route);
    (low, lt)
}

/// The body-wise Lagrange terms equal T's derivatives: A, h, the momenta and the energy at
/// random states, on every library model with bodies and on the spatial families (every
/// formulation is built on these terms).
#[test]
fn body_wise_terms_equal_derivatives_of_t() {
    use crate::mechanics::lagrangian::Route;
    use crate::sym::linsolve::RandomPoints;
    use crate::sym::HashMap;
    let mut models: Vec<(String, String)> = crate::test_models::library_names()
        .into_iter()
        .map(|name| {
            let src = crate::test_models::library_model(&name);
            (name, src)
        })
        .filter(|(_, src)| src.contains("body ") || src.contains("particle"))
        .collect();
    for n in [1, 3] {
        for family in [
            Family::Chain,
            Family::RigidChain,
            Family::Tree,
            Family::Manipulator,
        ] {
            models.push((format!("{family:?}{n}"), source("S", n, family)));
        }
    }
    assert!(models.len() >= 6, "{} models", models.len());
    for (name, src) in &models {
        let (le, te) = lagrange_along(src, Route::Expression);
        let (lb, tb) = lagrange_along(src, Route::BodyWise);
        let n = te.h.len();
        let mut points = RandomPoints::new(11);
        for _ in 0..3 {
            let env = points.next_point(&le.graph);
            let (mut me, mut mb) = (HashMap::default(), HashMap::default());
            let mut pairs = vec![(te.energy, tb.energy, "energy".to_string())];
            for i in 0..n {
                pairs.push((te.h[i], tb.h[i], format!("h[{i}]")));
                pairs.push((te.momenta[i], tb.momenta[i], format!("p[{i}]")));
                for j in 0..n {
                    let (a, b) = (te.mass_matrix_a[i][j], tb.mass_matrix_a[i][j]);
                    pairs.push((a, b, format!("A[{i},{j}]")));
                }
            }
            // each value against the largest value or term at the point: the expression
            // route's h of a disk on uneven ground sums terms 3000 times its size
            let values: Vec<(f64, f64, f64, String)> = pairs
                .into_iter()
                .map(|(a, b, what)| {
                    let va = le.graph.eval(a, &env, &mut me);
                    let terms = le.graph.eval_scale(a, &env, &mut me);
                    (va, lb.graph.eval(b, &env, &mut mb), terms, what)
                })
                .collect();
            let largest = values
                .iter()
                .map(|(a, _, terms, _)| a.abs().max(*terms))
                .fold(1.0, f64::max);
            for (a, b, _, what) in values {
                assert!(
                    (a - b).abs() <= 1e-12 * largest,
                    "{name}: {what} by T {a} body-wise {b}"
                );
            }
        }
    }
}

/// rustc runs a proc macro on its main thread, whose stack is 8 MiB: every size of the
/// rigid chain must expand within it to a model or to the spanned "too large" error, never
/// an overflow (`NONHOLO_SPATIAL_N=12,16,20,24`; run it in release).
#[test]
#[ignore]
fn rigid_chain_expands_within_rustcs_stack() {
    let sizes: Vec<usize> = std::env::var("NONHOLO_SPATIAL_N")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![12, 16, 20, 24]);
    for n in sizes {
        let src = source("RigidChain", n, Family::RigidChain);
        let out = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                let start = Instant::now();
                let out = expand(src.parse().expect("tokens")).to_string();
                (out, start.elapsed().as_secs_f64())
            })
            .expect("thread")
            .join()
            .expect("expansion");
        let (out, secs) = out;
        let outcome = if !out.contains("compile_error") {
            "a model"
        } else if out.contains("too large for the symbolic engine") {
            "the \"too large\" error"
        } else {
            panic!("N = {n}: an error other than \"too large\": {out}")
        };
        println!(
            "N = {n}: {outcome} in {secs:.2} s, {:.0} kB",
            out.len() as f64 / 1e3
        );
    }
}
