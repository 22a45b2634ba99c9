//! Numerical checks of the symbolic equations inside the macro crate: the
//! Boltzmann–Hamel accelerations against Gibbs–Appell's (same model, same graph
//! numbering), the size of the constraint correction, and the eta-free terms that the
//! printed N of (20) carries but (17) does not give.
use crate::check::check;
use crate::ctxt::Ctxt;
use crate::dsl::parse::parse_model;
use crate::lower::lower;
use crate::mechanics::first_method::FirstMethod;
use crate::mechanics::{self, Layout};
use crate::model::{Formulation, Lowered, Parametrization};
use crate::sym::HashMap;
use crate::sym::{Graph, Id};
use crate::test_rng::Rng;

use crate::test_models::library_model;

/// A deliberately rheonomic model with every ingredient of (20): Z(q,t), psi(q,t),
/// alpha(q,t), beta(q,t), b(q,t), c(q,t), V(q,t) and velocity-dependent forces.
pub(super) const EVERYTHING: &str = r#"
    pub struct Everything;
    parameters { m = 1.3, inertia = 0.4, k = 0.7, cd = 0.2 }
    coordinates { x, y, th, u }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(th).powi(2)
        + 0.5 * (1.0 + 0.3 * sin(x).powi(2)) * dot(u).powi(2) + 0.2 * cos(th) * dot(x) * dot(u)
        + m * t * sin(u) * dot(x) + 0.3 * y * dot(th) + 0.5 * t * cos(x) * y;
    potential_energy = k * (x * x + y * y) + t * sin(th) * u;
    forces { th: -cd * dot(th), u: 0.1 * sin(t) * dot(x) }
    constraints { dot(x) * sin(th) - dot(y) * cos(th) + 0.2 * t * cos(x) * dot(u) == 0.1 * sin(t) * y; }
    speeds {
        v = cos(th) * dot(x) + sin(th) * dot(y) + 0.3 * t * sin(u);
        w = (1.0 + 0.1 * t * x * x) * dot(th) + y * cos(t);
        s = dot(u) + 0.2 * sin(th) * dot(x) + x * t;
    }
    formulation = boltzmann_hamel;
"#;

struct Built {
    low: Lowered,
    derived: FirstMethod,
    equations: String,
    split: Option<Vec<(String, Vec<Id>)>>,
}

fn build(src: &str, bh: bool) -> Built {
    let cx = Ctxt::new();
    let model = parse_model(src.parse().expect("tokens"), &cx);
    let mut m = check(model, &cx).expect("checked");
    assert!(!cx.has_errors(), "check errors");
    m.formulation = if bh {
        Formulation::BoltzmannHamel
    } else {
        Formulation::GibbsAppell
    };
    let mut low = lower(&m, &cx);
    let eq = mechanics::derive(&mut low, &cx).expect("derive");
    assert!(!cx.has_errors());
    let equations = crate::emit::equations::render(&low.graph, &eq.text);
    let Layout::First(derived) = eq.layout else {
        panic!("first method")
    };
    let split = bh.then(|| derived.terms.clone());
    Built {
        low,
        derived: *derived,
        equations,
        split,
    }
}

/// A random environment: parameters at their nonzero defaults (else random), t, q and
/// z random, dot(q) NaN (it must not appear in the equations).
fn env(low: &Lowered, rng: &mut Rng) -> Vec<f64> {
    let mut e = vec![f64::NAN; low.graph.symbol_count()];
    e[low.syms.t as usize] = rng.f(0.0, 3.0);
    for (p, d) in low.syms.params.iter().zip(&low.defaults) {
        e[*p as usize] = match d.map(|d| d.to_f64()) {
            Some(v) if v != 0.0 => v,
            _ => rng.f(0.3, 1.0),
        };
    }
    for s in low.syms.q.iter().chain(&low.syms.z) {
        e[*s as usize] = rng.f(-1.2, 1.2);
    }
    e
}

fn ev(g: &Graph, e: Id, env: &[f64]) -> f64 {
    g.eval(e, env, &mut HashMap::default())
}

/// Accelerations dz/dt at `env`, with `extra` added to the forcing.
fn zdot(b: &Built, env: &[f64], extra: &[f64]) -> Vec<f64> {
    let g = &b.low.graph;
    let gm: Vec<Vec<f64>> = b
        .derived
        .mass_matrix_g
        .rows()
        .iter()
        .map(|row| row.iter().map(|x| ev(g, *x, env)).collect())
        .collect();
    let f: Vec<f64> = b
        .derived
        .forcing
        .iter()
        .zip(extra)
        .map(|(x, e)| ev(g, *x, env) + e)
        .collect();
    crate::sym::linsolve::solve_dense(gm, f).expect("G invertible")
}

fn rel(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
        / scale
}

fn split_part(b: &Built, name: &str, env: &[f64]) -> Vec<f64> {
    let (_, v) = b
        .split
        .as_ref()
        .unwrap()
        .iter()
        .find(|(n, _)| n == name)
        .expect("split entry");
    v.iter().map(|x| ev(&b.low.graph, *x, env)).collect()
}

/// Worst relative difference of the accelerations, BH vs GA, over `states` states.
fn agreement(src: &str, states: usize, seed: u64) -> f64 {
    let bh = build(src, true);
    let ga = build(src, false);
    let mut rng = Rng::new(seed);
    let zeros = vec![0.0; bh.derived.forcing.len()];
    let mut worst = 0.0f64;
    for _ in 0..states {
        let e = env(&bh.low, &mut rng);
        let a = zdot(&bh, &e, &zeros);
        let b = zdot(&ga, &e, &zeros);
        assert!(a.iter().all(|x| x.is_finite()), "{a:?}");
        worst = worst.max(rel(&a, &b));
        // The split adds up to -forcing.
        let total: Vec<f64> = (0..zeros.len())
            .map(|i| {
                bh.split
                    .as_ref()
                    .unwrap()
                    .iter()
                    .map(|(_, v)| ev(&bh.low.graph, v[i], &e))
                    .sum::<f64>()
            })
            .collect();
        let f: Vec<f64> = bh
            .derived
            .forcing
            .iter()
            .map(|x| -ev(&bh.low.graph, *x, &e))
            .collect();
        assert!(rel(&total, &f) < 1e-12);
    }
    worst
}

#[test]
fn everything_agrees_with_gibbs_appell() {
    let worst = agreement(EVERYTHING, 50, 1);
    assert!(worst < 1e-12, "{worst:e}");
}

#[test]
fn library_models_agree_with_gibbs_appell() {
    for (i, name) in [
        "Skate",
        "VerticalDisk",
        "CoaxialDisks",
        "PendulumSkate",
        "AssignedFront",
        "RollingDiskPendulum",
        "AssignedSpin",
    ]
    .iter()
    .enumerate()
    {
        let worst = agreement(&library_model(name), 30, 10 + i as u64);
        println!("{name}: {worst:.1e}");
        assert!(worst < 1e-12, "{name}: {worst:e}");
    }
}

/// Without C, Talamucci 3.1's equations are not the Lagrange equations: the
/// accelerations differ from Gibbs–Appell's at order one.
#[test]
fn pendulum_skate_needs_the_constraint_correction() {
    let src = library_model("PendulumSkate");
    let bh = build(&src, true);
    let ga = build(&src, false);
    let mut rng = Rng::new(31);
    let (mut worst_with, mut worst_without, mut c_size) = (0.0f64, 0.0f64, 0.0f64);
    let mut off = 0;
    for _ in 0..50 {
        let e = env(&bh.low, &mut rng);
        let c = split_part(&bh, "constraint_correction", &e);
        let reference = zdot(&ga, &e, &vec![0.0; c.len()]);
        // forcing = -(.. + C): dropping C adds it back.
        let without = zdot(&bh, &e, &c);
        let with = zdot(&bh, &e, &vec![0.0; c.len()]);
        worst_with = worst_with.max(rel(&with, &reference));
        let d = rel(&without, &reference);
        worst_without = worst_without.max(d);
        off += usize::from(d > 1e-6);
        c_size = c_size.max(c.iter().fold(0.0f64, |m, x| m.max(x.abs())));
    }
    println!(
        "3.1: with C {worst_with:.1e}; without C up to {worst_without:.1e}, off at {off}/50 states; |C| up to {c_size:.2}"
    );
    assert!(worst_with < 1e-12);
    assert!(worst_without > 1e-1 && off == 50, "{worst_without:e} {off}");
}

/// The eta-free terms the printed N of (20) carries besides (17)'s,
/// `-Gamma^T (J_q psi)^T (A_Gamma psi + A_GammaTheta beta - Gamma^T b)
///  = Gamma^T (J_q psi)^T grad_eta Lt |_(eta = 0)`,
/// are nonzero when psi depends on q (`Everything`), and adding them breaks the
/// agreement with Gibbs–Appell. They vanish in 3.1 (psi = 0) and, less obviously, in
/// 3.4: there psi_1 = -I_D phi1'(t) sin(theta) depends on q, but eta_1 is the momentum
/// dL/d dot(phi), so (grad_eta Lt)_1 = 0 at eta = 0.
#[test]
fn printed_n_has_terms_that_17_does_not_give() {
    for (src, expect_zero) in [
        (EVERYTHING.to_string(), false),
        (library_model("AssignedSpin"), true),
        (library_model("PendulumSkate"), true),
    ] {
        let mut bh = build(&src, true);
        let ga = build(&src, false);
        let low = &mut bh.low;
        let g = &mut low.graph;
        let at_qd: HashMap<u32, Id> = low
            .syms
            .qd
            .iter()
            .copied()
            .zip(bh.derived.qdot.iter().copied())
            .collect();
        let lt = g.subst(low.kinetic, &at_qd);
        let zero = g.zero();
        let z0: HashMap<u32, Id> = low.syms.z.iter().map(|z| (*z, zero)).collect();
        let qd0: HashMap<u32, Id> = low.syms.qd.iter().map(|v| (*v, zero)).collect();
        let p0: Vec<Id> = low
            .syms
            .z
            .iter()
            .map(|z| {
                let d = g.diff(lt, *z);
                g.subst(d, &z0)
            })
            .collect();
        let Parametrization::Speeds(speed_defs) = low.parametrization.clone() else {
            panic!("speeds")
        };
        let psi_e: Vec<Id> = g.subst_many(&speed_defs, &qd0);
        let (n, sigma) = (low.syms.q.len(), low.syms.z.len());
        let extra: Vec<Id> = (0..sigma)
            .map(|i| {
                let mut parts = Vec::new();
                for j in 0..n {
                    for r in 0..sigma {
                        let d = g.diff(psi_e[r], low.syms.q[j]);
                        let t = g.mul(d, p0[r]);
                        parts.push(g.mul(bh.derived.psi_z.at(j, i), t));
                    }
                }
                g.add_all(&parts)
            })
            .collect();
        let mut rng = Rng::new(41);
        let (mut size, mut least) = (0.0f64, f64::INFINITY);
        for _ in 0..20 {
            let e = env(&bh.low, &mut rng);
            let x: Vec<f64> = extra.iter().map(|v| ev(&bh.low.graph, *v, &e)).collect();
            size = size.max(x.iter().fold(0.0f64, |m, v| m.max(v.abs())));
            // N_printed = N + X, so forcing_printed = forcing - X.
            let neg: Vec<f64> = x.iter().map(|v| -v).collect();
            let printed = zdot(&bh, &e, &neg);
            least = least.min(rel(&printed, &zdot(&ga, &e, &vec![0.0; sigma])));
        }
        println!("printed-N extras up to {size:.2e}; accelerations then off by >= {least:.1e}");
        if expect_zero {
            assert!(size < 1e-12);
        } else {
            assert!(size > 1e-2 && least > 1e-4, "{size:e} {least:e}");
        }
    }
}

/// Where the constraint correction matters: the largest |C| over random states per
/// model. Nonzero in Talamucci 3.1, 3.3, 3.4; zero in 3.2 (alpha constant, J_q beta
/// Gamma = 0) and in Benenti 9.1–9.3, although alpha depends on q there: in 9.1
/// Theta^T grad_qd L = m (constraint) = 0, in 9.2–9.3 the contraction cancels.
#[test]
fn where_the_correction_is_nonzero() {
    for (name, nonzero) in [
        ("Skate", false),
        ("VerticalDisk", false),
        ("CoaxialDisks", false),
        ("PendulumSkate", true),
        ("AssignedFront", false),
        ("RollingDiskPendulum", true),
        ("AssignedSpin", true),
    ] {
        let bh = build(&library_model(name), true);
        let mut rng = Rng::new(51);
        let mut size = 0.0f64;
        for _ in 0..20 {
            let e = env(&bh.low, &mut rng);
            let c = split_part(&bh, "constraint_correction", &e);
            size = size.max(c.iter().fold(0.0f64, |m, v| m.max(v.abs())));
        }
        println!("{name}: |C| up to {size:.2e}");
        assert_eq!(size > 1e-10, nonzero, "{name}: {size:e}");
    }
}

/// The equations text of a library model (`BH_MODEL=PendulumSkate`, run with
/// `--ignored --nocapture`).
#[test]
#[ignore]
fn print_equations() {
    let name = std::env::var("BH_MODEL").unwrap_or_else(|_| "PendulumSkate".into());
    let src = if name == "Everything" {
        EVERYTHING.to_string()
    } else {
        library_model(&name)
    };
    println!("{}", build(&src, true).equations);
}

/// Mutated Boltzmann–Hamel models (tokens swapped, dropped, replaced) go through the
/// whole macro without panicking.
#[test]
fn mutated_models_never_panic() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let mut seeds: Vec<String> = ["Skate", "PendulumSkate", "AssignedFront", "AssignedSpin"]
        .iter()
        .map(|n| library_model(n) + " formulation = boltzmann_hamel;")
        .collect();
    seeds.push(EVERYTHING.to_string());
    seeds.push(
        r#"pub struct Free; parameters { m } coordinates { x, y }
           kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + x * dot(y);
           formulation = boltzmann_hamel;"#
            .to_string(),
    );
    let words: Vec<Vec<String>> = seeds
        .iter()
        .map(|s| {
            let ts: proc_macro2::TokenStream = s.parse().unwrap();
            let mut out = Vec::new();
            fn flat(ts: proc_macro2::TokenStream, out: &mut Vec<String>) {
                for t in ts {
                    match t {
                        proc_macro2::TokenTree::Group(g) => {
                            let (o, c) = match g.delimiter() {
                                proc_macro2::Delimiter::Brace => ("{", "}"),
                                proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                                proc_macro2::Delimiter::Bracket => ("[", "]"),
                                proc_macro2::Delimiter::None => ("", ""),
                            };
                            out.push(o.to_string());
                            flat(g.stream(), out);
                            out.push(c.to_string());
                        }
                        proc_macro2::TokenTree::Punct(p)
                            if p.spacing() == proc_macro2::Spacing::Joint =>
                        {
                            // `==` stays one word
                            out.push(format!("{}\u{0}", p.as_char()));
                        }
                        t => match out.last_mut() {
                            Some(last) if last.ends_with('\u{0}') => {
                                last.pop();
                                last.push_str(&t.to_string());
                            }
                            _ => out.push(t.to_string()),
                        },
                    }
                }
            }
            flat(ts, &mut out);
            out
        })
        .collect();
    let mut rng = Rng::new(77);
    let (mut derived, mut tried) = (0usize, 0usize);
    let cases: usize = std::env::var("NONHOLO_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(300, |n: usize| n / 40);
    for _ in 0..cases {
        let k = (rng.f(0.0, 1.0) * words.len() as f64) as usize % words.len();
        let mut w = words[k].clone();
        // Mutate identifiers and literals only (keeps most cases parseable).
        const KEEP: &[&str] = &[
            "pub",
            "struct",
            "parameters",
            "coordinates",
            "let",
            "kinetic_energy",
            "potential_energy",
            "forces",
            "constraints",
            "speeds",
            "formulation",
            "boltzmann_hamel",
            "derive",
            "Debug",
            "Clone",
            "Copy",
            "PartialEq",
            "doc",
        ];
        let atoms_at: Vec<usize> = (0..w.len())
            .filter(|i| {
                w[*i].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    && !KEEP.contains(&w[*i].as_str())
                    && (*i == 0 || w[*i - 1] != "struct")
            })
            .collect();
        for _ in 0..1 + (rng.f(0.0, 2.0) as usize) {
            let pick = |rng: &mut Rng| {
                atoms_at[(rng.f(0.0, 1.0) * atoms_at.len() as f64) as usize % atoms_at.len()]
            };
            let (i, j) = (pick(&mut rng), pick(&mut rng));
            match (rng.f(0.0, 4.0)) as usize {
                0 => w.swap(i, j),
                1 => w[i] = "1.0".to_string(),
                2 => w[i] = w[j].clone(),
                _ => w[i] = ["0.0", "t", "x", "theta", "phi", "m", "2"][j % 7].to_string(),
            }
        }
        let text = w.join(" ");
        let Ok(ts) = text.parse::<proc_macro2::TokenStream>() else {
            continue;
        };
        tried += 1;
        let r = catch_unwind(AssertUnwindSafe(|| crate::expand::expand(ts)));
        match r {
            Ok(out) => derived += usize::from(!out.to_string().contains("compile_error")),
            Err(_) => panic!("panicked on: {text}"),
        }
    }
    println!("{derived} of {tried} mutated models derived without errors");
    assert!(derived > tried / 20);
}
