//! Expansion-level tests of the pipeline (no runtime needed).

use crate::expand::expand;

fn expand_str(src: &str) -> String {
    let ts: proc_macro2::TokenStream = src.parse().expect("tokens");
    expand(ts).to_string()
}

const SKATE: &str = r#"
    /// Skate
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Skate;
    parameters { m, inertia, g = 9.81 }
    coordinates { x, y, theta }
    let c = cos(theta);
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    potential_energy = 0.0;
    forces { theta: -0.1 * dot(theta) }
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
    speeds { v = c * dot(x) + sin(theta) * dot(y); w = dot(theta); }
"#;

#[test]
fn skate_expands_without_errors() {
    let out = expand_str(SKATE);
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("EQUATIONS"));
}

/// `jacobians` in closed form (the tangents of the rhs's program), or one dual pass per
/// column past the size limit.
#[test]
fn jacobians_in_closed_form_up_to_a_size() {
    use crate::emit::jacobians::TEST_JACOBIAN_OPS;
    let body = |out: &str| {
        let i = out.find("fn jacobians").expect("jacobians");
        let j = out[i..].find("fn rhs_param_jvp").expect("next method");
        out[i..i + j].to_string()
    };
    let closed = body(&expand_str(SKATE));
    assert!(!closed.contains(":: __private :: jacobians"), "{closed}");
    // d(dw/dt)/dw = -0.1 / inertia, and nothing computed for d(dx/dt)/dx
    assert!(closed.contains("__a [24] ="), "{closed}");
    assert!(!closed.contains("__a [0] ="), "{closed}");
    TEST_JACOBIAN_OPS.with(|l| l.set(Some(10)));
    let dual = body(&expand_str(SKATE));
    TEST_JACOBIAN_OPS.with(|l| l.set(None));
    assert!(dual.contains(":: __private :: jacobians"), "{dual}");
    // the model's own choice: dual passes at any size, the closed form past the limit
    let with = |line: &str| SKATE.replace("    speeds {", &format!("    {line}\n    speeds {{"));
    let chosen = body(&expand_str(&with("jacobians = dual;")));
    assert!(chosen.contains(":: __private :: jacobians"), "{chosen}");
    TEST_JACOBIAN_OPS.with(|l| l.set(Some(10)));
    let forced = body(&expand_str(&with("jacobians = closed_form;")));
    TEST_JACOBIAN_OPS.with(|l| l.set(None));
    assert!(!forced.contains(":: __private :: jacobians"), "{forced}");
    // a tree: inverse dynamics' residual differentiated, -G^-1 by one closure per column
    let tree = expand_str(&crate::test_models::library_model("MobileManipulator"));
    let tree = body(&tree);
    assert!(tree.contains("let __solve = | __jb"), "{tree}");
    assert!(!tree.contains(":: __private :: jacobians"), "{tree}");
    // a two-joint arm's links by forward mode through Newton–Euler (cheaper than the
    // composites' fixed terms), rigid links on two branches from a rolling disk by their
    // composites under each first-method formulation
    use crate::spatial_tests::{source, Family};
    let arm = body(&expand_str(&source("A", 2, Family::Manipulator)));
    assert!(arm.contains("let __solve = | __jb"), "{arm}");
    assert!(!arm.contains(":: __private :: tree_tangents"), "{arm}");
    for f in ["gibbs_appell", "voronec", "boltzmann_hamel"] {
        let mut src = source("T", 4, Family::RigidTree);
        src.push_str(&format!("formulation = {f};\n"));
        let tree = body(&expand_str(&src));
        assert!(tree.contains(":: __private :: tree_tangents"), "{f}");
        assert!(tree.contains("let __solve = | __jb"), "{f}");
    }
}

#[test]
fn expansion_is_deterministic() {
    assert_eq!(expand_str(SKATE), expand_str(SKATE));
}

#[test]
fn skate_equations_read_like_benenti() {
    let out = expand_str(SKATE);
    let eq_start = out.find("Gibbs").expect("equations text");
    let text = &out[eq_start..eq_start + 900];
    assert!(text.contains("dot(x) = v*cos(theta)"), "{text}");
    assert!(text.contains("dot(y) = v*sin(theta)"), "{text}");
    assert!(text.contains("G[v,v] = m"), "{text}");
    assert!(text.contains("G[w,w] = inertia"), "{text}");
}

#[test]
#[ignore]
fn print_skate() {
    let out = expand_str(SKATE);
    let i = out.find("EQUATIONS").unwrap();
    let j = out[i..].find("type State").unwrap();
    println!("{}", out[i..i + j].replace("\\n", "\n"));
}

#[cfg(test)]
fn print_eqs(src: &str) {
    let out = expand_str(src);
    if out.contains("compile_error") {
        println!("{out}");
        return;
    }
    let i = out.find("EQUATIONS").unwrap();
    let j = out[i..].find("type State").unwrap();
    println!("{}", out[i..i + j].replace("\\n", "\n"));
}

#[test]
#[ignore]
fn print_parallel_velocities() {
    print_eqs(
        r#"
        pub struct TwoPoints;
        parameters { m1, m2, g }
        coordinates { x1, y1, x2, y2 }
        kinetic_energy = 0.5 * m1 * (dot(x1).powi(2) + dot(y1).powi(2)) + 0.5 * m2 * (dot(x2).powi(2) + dot(y2).powi(2));
        potential_energy = -g * (m1 * x1 + m2 * x2);
        constraints { dot(x1) * dot(y2) - dot(x2) * dot(y1) == 0.0; }
        velocities(rho, sigma, theta) {
            dot(x1) = rho * cos(theta); dot(y1) = rho * sin(theta);
            dot(x2) = sigma * cos(theta); dot(y2) = sigma * sin(theta);
        }
    "#,
    );
}

#[test]
#[ignore]
fn print_coaxial_discs() {
    print_eqs(
        r#"
        pub struct CoaxialDisks;
        parameters { m, a_inertia, b_inertia, r, a }
        coordinates { x, y, theta1, theta2, psi }
        kinetic_energy = m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * a_inertia * (dot(theta1).powi(2) + dot(theta2).powi(2))
            + (0.5 * m * a * a + b_inertia) * dot(psi).powi(2) + m * a * dot(psi) * (dot(x) * cos(psi) + dot(y) * sin(psi));
        constraints {
            dot(x) - r * cos(psi) * dot(theta1) == 0.0;
            dot(y) - r * sin(psi) * dot(theta1) == 0.0;
            dot(x) + a * cos(psi) * dot(psi) - r * cos(psi) * dot(theta2) == 0.0;
        }
        speeds { z1 = dot(theta1); z2 = dot(theta2); }
    "#,
    );
}

#[test]
#[ignore]
fn print_independent_skate() {
    print_eqs(
        r#"
        pub struct Skate2;
        parameters { m, inertia }
        coordinates { x, y, theta }
        kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
        constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
        dependent { y }
    "#,
    );
}

/// Expansion time of the library's largest model (run with `--ignored --nocapture`, release).
#[test]
#[ignore]
fn time_rolling_disk_expansion() {
    let body = crate::test_models::library_model("RollingDiskPendulum");
    let t0 = std::time::Instant::now();
    let out = expand_str(&body);
    println!(
        "expanded in {:?}, {} bytes of tokens",
        t0.elapsed(),
        out.len()
    );
    assert!(!out.contains("compile_error"));
}

/// Expansion time of every model in the library, written to
/// `target/nonholo-expansion.json` for BENCHMARKS.md (run in release:
/// `cargo test --release -p nonholo-macros expansion_times -- --ignored --nocapture`).
#[test]
#[ignore]
fn expansion_times() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut json = String::from("{\n");
    for (k, name) in crate::test_models::library_names().iter().enumerate() {
        let body = crate::test_models::library_model(name);
        // best of 5 (the first run warms caches)
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let t0 = std::time::Instant::now();
            let out = expand_str(&body);
            best = best.min(t0.elapsed().as_secs_f64());
            assert!(!out.contains("compile_error"), "{name}");
        }
        println!("{name}: {:.1} ms", best * 1e3);
        json.push_str(&format!(
            "{}  \"{name}\": {best:.6}",
            if k == 0 { "" } else { ",\n" }
        ));
    }
    json.push_str("\n}\n");
    std::fs::write(format!("{root}/target/nonholo-expansion.json"), json).unwrap();
}

/// Writes each library model's expansion to `$NONHOLO_DUMP/<name>.rs`: to see what a
/// change to the engine does to the emitted code, dump before and after and compare.
#[test]
#[ignore]
fn dump_library_expansions() {
    let dir = std::env::var("NONHOLO_DUMP").expect("NONHOLO_DUMP");
    for name in crate::test_models::library_names() {
        let src = crate::test_models::library_model(&name);
        let out = crate::expand::expand(src.parse().expect("tokens")).to_string();
        std::fs::write(format!("{dir}/{name}.rs"), out).expect("write");
    }
}
