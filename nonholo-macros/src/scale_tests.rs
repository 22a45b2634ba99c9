//! The engine at multibody scale: a tractor pulling `n` trailers, each hitched at the axle
//! centre of the one ahead, no side slip at any axle. `n + 3` coordinates
//! `x, y, th0..thn`, `n + 1` nonholonomic constraints, two degrees of freedom. T is written
//! with `let` velocities of each axle, as a user would.
//!
//! `trailers_expansion_growth` (ignored; run it in release) prints expansion time and
//! emitted size for the family; with `NONHOLO_TRAILERS_OUT=dir` it also writes each model
//! as a Rust file for the build-time and rhs measurements (see BENCHMARKS.md).

use crate::expand::expand;
use std::fmt::Write as _;
use std::time::Instant;

/// Which parametrization the family member uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TrailerSpeeds {
    /// `speeds { v = cos(th0) dot(x) + sin(th0) dot(y); w = dot(th0); }`
    Speeds,
    /// `dependent { y, th1, .., thn }`
    Dependent,
    /// No parametrization section: independent velocities, the dependent set chosen by
    /// the macro.
    Automatic,
}

/// The DSL body (everything after the struct line) of the `n`-trailer model.
pub(crate) fn trailers(n: usize, form: TrailerSpeeds) -> String {
    let mut s = String::new();
    let mut params = vec!["m0 = 1.0".to_string(), "i0 = 0.2".to_string()];
    for i in 1..=n {
        params.push(format!("m{i} = {}", 1.0 + 0.1 * i as f64));
        params.push(format!("i{i} = {}", 0.1 + 0.01 * i as f64));
        params.push(format!("l{i} = {}", 1.0 + 0.05 * i as f64));
    }
    params.push("c = 0.1".into());
    let _ = writeln!(s, "parameters {{ {} }}", params.join(", "));
    let coords: Vec<String> = (0..=n).map(|i| format!("th{i}")).collect();
    let _ = writeln!(s, "coordinates {{ x, y, {} }}", coords.join(", "));
    let _ = writeln!(s, "let vx0 = dot(x);\nlet vy0 = dot(y);");
    for i in 1..=n {
        let j = i - 1;
        let _ = writeln!(s, "let vx{i} = vx{j} + l{i} * sin(th{i}) * dot(th{i});");
        let _ = writeln!(s, "let vy{i} = vy{j} - l{i} * cos(th{i}) * dot(th{i});");
    }
    let t: Vec<String> = (0..=n)
        .map(|i| {
            format!(
                "0.5 * m{i} * (vx{i}.powi(2) + vy{i}.powi(2)) + 0.5 * i{i} * dot(th{i}).powi(2)"
            )
        })
        .collect();
    let _ = writeln!(s, "kinetic_energy = {};", t.join("\n    + "));
    let _ = writeln!(s, "potential_energy = 0.0;");
    let _ = writeln!(s, "forces {{ x: -c * dot(x), y: -c * dot(y) }}");
    let _ = writeln!(s, "constraints {{");
    for i in 0..=n {
        let _ = writeln!(s, "    cos(th{i}) * vy{i} - sin(th{i}) * vx{i} == 0.0;");
    }
    let _ = writeln!(s, "}}");
    match form {
        TrailerSpeeds::Speeds => {
            let _ = writeln!(
                s,
                "speeds {{ v = cos(th0) * dot(x) + sin(th0) * dot(y); w = dot(th0); }}"
            );
        }
        TrailerSpeeds::Dependent => {
            let dep: Vec<String> = (1..=n).map(|i| format!("th{i}")).collect();
            let _ = writeln!(s, "dependent {{ y, {} }}", dep.join(", "));
        }
        TrailerSpeeds::Automatic => {}
    }
    s
}

fn source(n: usize, form: TrailerSpeeds) -> String {
    let name = match form {
        TrailerSpeeds::Speeds => format!("Trailers{n}"),
        TrailerSpeeds::Dependent => format!("Trailers{n}Dep"),
        TrailerSpeeds::Automatic => format!("Trailers{n}Auto"),
    };
    format!(
        "#[derive(Debug, Clone, Copy, PartialEq)]\npub struct {name};\n{}",
        trailers(n, form)
    )
}

#[test]
fn small_trailer_models_expand_without_errors() {
    for form in [TrailerSpeeds::Speeds, TrailerSpeeds::Dependent] {
        let out = expand(source(2, form).parse().expect("tokens")).to_string();
        assert!(!out.contains("compile_error"), "{form:?}: {out}");
    }
}

/// Past a few constraints the dependent set is chosen by rank at a random point, not by
/// enumerating C(n, nc) minors (7 constraints here: the enumeration did not finish).
#[test]
fn automatic_dependent_set_of_a_large_model() {
    let out = expand(source(6, TrailerSpeeds::Automatic).parse().expect("tokens")).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    // later coordinates are dependent: x and th0 stay independent
    assert!(out.contains("\"dot(x)\" , \"dot(th0)\""), "speeds");
}

#[test]
#[ignore]
fn trailers_expansion_growth() {
    let max: usize = std::env::var("NONHOLO_TRAILERS_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let out_dir = std::env::var("NONHOLO_TRAILERS_OUT").ok();
    println!("| N | coordinates | form | expansion (s) | emitted (kB) |");
    println!("| --- | --- | --- | --- | --- |");
    for n in (1..=max.min(10)).chain(std::iter::once(20).filter(|_| max >= 20)) {
        for form in [TrailerSpeeds::Speeds, TrailerSpeeds::Dependent] {
            let src = source(n, form);
            let start = Instant::now();
            let out = expand(src.parse().expect("tokens")).to_string();
            let secs = start.elapsed().as_secs_f64();
            assert!(!out.contains("compile_error"), "N = {n} {form:?}");
            println!(
                "| {n} | {} | {form:?} | {secs:.3} | {:.1} |",
                n + 3,
                out.len() as f64 / 1e3
            );
            if let Some(dir) = &out_dir {
                let file = format!(
                    "{dir}/trailers{n}{}.rs",
                    if form == TrailerSpeeds::Dependent {
                        "_dep"
                    } else {
                        ""
                    }
                );
                let text = format!("nonholo::nonholonomic! {{\n{src}}}\n");
                std::fs::write(&file, text).expect("write model");
            }
        }
    }
}

/// Writes the `N`-trailer model's expansion to `$TMPDIR/trailers.rs` (to read the code).
#[test]
#[ignore]
fn dump_trailers() {
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let out = expand(source(n, TrailerSpeeds::Speeds).parse().expect("tokens")).to_string();
    std::fs::write(std::env::temp_dir().join("trailers.rs"), out).expect("write");
}

/// Writes the expansion of library model `MODEL` (or of the model in `MODEL_FILE`) to
/// `$TMPDIR/model.rs`.
#[test]
#[ignore]
fn dump_library_model() {
    // or `MODEL_FILE`: a file holding the body of a `nonholonomic!` invocation
    let src = match std::env::var("MODEL_FILE") {
        Ok(file) => std::fs::read_to_string(file).expect("MODEL_FILE"),
        Err(_) => crate::test_models::library_model(
            &std::env::var("MODEL").unwrap_or_else(|_| "RollingDiskPendulum".into()),
        ),
    };
    let out = expand(src.parse().expect("tokens")).to_string();
    std::fs::write(std::env::temp_dir().join("model.rs"), out).expect("write");
}

/// Deeply nested input (ignored: slow, ~1 min) must not overflow the stack of the thread the macro runs on
/// (rustc runs proc macros on its main thread; 8 MiB is the usual size).
#[test]
#[ignore]
fn deep_nesting_does_not_overflow_the_stack() {
    for depth in [50usize, 200, 800] {
        let handle = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                let mut e = "theta".to_string();
                for _ in 0..depth {
                    e = format!("sin({e})");
                }
                let src = format!(
                    "pub struct Deep; parameters {{ m = 1.0 }} coordinates {{ x, theta }}
                     kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(theta).powi(2));
                     potential_energy = {e};"
                );
                let out = expand(src.parse().expect("tokens")).to_string();
                out.contains("compile_error")
            })
            .expect("thread");
        let errors = handle
            .join()
            .expect("expansion of a deeply nested model panicked");
        assert!(!errors, "depth {depth}: a valid model reported errors");
    }
}

/// A model past the engine's node bound is one compile error on its name, naming what was
/// being derived, instead of exhausting the compiler's memory; below the bound the same
/// model expands. (The bound is lowered for this thread so the test is quick; the real
/// one, `NODE_LIMIT`, is over 100x the Whipple bicycle's need.)
#[test]
fn a_model_past_the_node_bound_is_a_spanned_error() {
    use crate::sym::graph::TEST_NODE_LIMIT;
    let src = source(3, TrailerSpeeds::Speeds);
    let full = expand(src.parse().expect("tokens")).to_string();
    assert!(!full.contains("compile_error"), "expands below the bound");
    for (limit, stage) in [
        (100, "the kinematics"),
        (400, "the Lagrange terms"),
        (1_000, "the equations of motion"),
        (3_500, "the energy and the power balance"),
    ] {
        TEST_NODE_LIMIT.with(|l| l.set(Some(limit)));
        let out = expand(src.parse().expect("tokens")).to_string();
        TEST_NODE_LIMIT.with(|l| l.set(None));
        let errors = out.matches("compile_error").count();
        assert_eq!(errors, 1, "one error at limit {limit}: {out:.400}");
        let message = format!("took more than {limit} expression nodes");
        assert!(
            out.contains("this model is too large for the symbolic engine")
                && out.contains(stage)
                && out.contains(&message),
            "limit {limit}: {}",
            &out[out.find("compile_error").unwrap_or(0)..][..300.min(out.len())]
        );
        // the struct and a skeleton Model impl are still there, so uses do not cascade
        assert!(out.contains("struct TrailersOf") || out.contains("Of < S = f64 >"));
    }
}
