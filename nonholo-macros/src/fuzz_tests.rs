//! The macro never panics: random token streams through parse + check, and mutations of
//! valid models through the whole pipeline. Bounded case counts (set `NONHOLO_FUZZ_CASES`
//! to run more).

use crate::ctxt::Ctxt;
use crate::expand::expand;
use crate::test_rng::Rng;
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use std::panic::{catch_unwind, AssertUnwindSafe};

const IDENTS: &[&str] = &[
    "frame",
    "point",
    "body",
    "particle",
    "gravity",
    "plane",
    "rolls",
    "on",
    "at",
    "between",
    "holonomic",
    "rotate",
    "velocity",
    "angular_velocity",
    "cross",
    "norm",
    "unit",
    "N",
    "O",
    "L",
    "center",
    "axis",
    "radius",
    "contact",
    "solve",
    "lateral",
    "mass",
    "pub",
    "struct",
    "Skate",
    "parameters",
    "coordinates",
    "let",
    "kinetic_energy",
    "potential_energy",
    "forces",
    "constraints",
    "speeds",
    "velocities",
    "dependent",
    "formulation",
    "gibbs_appell",
    "voronec",
    "x",
    "y",
    "theta",
    "m",
    "inertia",
    "v",
    "w",
    "t",
    "dot",
    "sin",
    "cos",
    "powi",
    "powf",
    "sqrt",
    "atan2",
    "ln",
    "abs",
    "exp",
    "tan",
    "asin",
    "self",
    "fn",
    "I",
];
const PUNCTS: &[&str] = &[
    "+", "-", "*", "/", "^", "=", "==", ";", ",", ":", ".", "#", "!", "<", ">", "&", "::", "..",
];
const LITERALS: &[&str] = &[
    "0.5",
    "2",
    "1e3",
    "0.0",
    "1e-400",
    "3.25f64",
    "7u8",
    "99999999999999999999999999999999999999999",
    "\"s\"",
    "'c'",
];

fn token(rng: &mut Rng, depth: usize) -> TokenTree {
    match rng.below(if depth < 3 { 10 } else { 9 }) {
        0..=3 => TokenTree::Ident(Ident::new(
            IDENTS[rng.below(IDENTS.len())],
            Span::call_site(),
        )),
        4..=6 => {
            let p = PUNCTS[rng.below(PUNCTS.len())];
            let chars: Vec<char> = p.chars().collect();
            // multi-char puncts are joint sequences; emit the first char, joint if more follow
            TokenTree::Punct(Punct::new(
                chars[0],
                if chars.len() > 1 {
                    Spacing::Joint
                } else {
                    Spacing::Alone
                },
            ))
        }
        7 | 8 => {
            let l = LITERALS[rng.below(LITERALS.len())];
            l.parse::<TokenStream>()
                .ok()
                .and_then(|ts| ts.into_iter().next())
                .unwrap_or_else(|| TokenTree::Literal(Literal::f64_unsuffixed(1.0)))
        }
        _ => {
            let delim =
                [Delimiter::Brace, Delimiter::Parenthesis, Delimiter::Bracket][rng.below(3)];
            let n = rng.below(8);
            let inner: TokenStream = (0..n).map(|_| token(rng, depth + 1)).collect();
            TokenTree::Group(Group::new(delim, inner))
        }
    }
}

fn cases() -> usize {
    std::env::var("NONHOLO_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60_000)
}

#[test]
fn random_token_streams_never_panic() {
    let mut rng = Rng::new(7);
    let n = cases();
    for i in 0..n {
        let len = rng.below(40);
        let ts: TokenStream = (0..len).map(|_| token(&mut rng, 0)).collect();
        let text = ts.to_string();
        let r = catch_unwind(AssertUnwindSafe(|| {
            let cx = Ctxt::new();
            let model = crate::dsl::parse::parse_model(ts, &cx);
            let _ = crate::check::check(model, &cx);
            let _ = cx.into_compile_errors();
        }));
        assert!(r.is_ok(), "case {i} panicked on: {text}");
    }
}

const SEEDS: &[&str] = &[
    r#"pub struct Skate; parameters { m, inertia, g = 9.81 } coordinates { x, y, theta }
       let c = cos(theta);
       kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
       potential_energy = m * g * x;
       forces { theta: -0.1 * dot(theta) }
       constraints { dot(x) * sin(theta) - dot(y) * c == 0.0; }
       speeds { v = c * dot(x) + sin(theta) * dot(y); w = dot(theta); }"#,
    r#"pub struct P; parameters { m1, m2 } coordinates { x1, y1, x2, y2 }
       kinetic_energy = 0.5 * m1 * (dot(x1).powi(2) + dot(y1).powi(2)) + 0.5 * m2 * (dot(x2).powi(2) + dot(y2).powi(2));
       constraints { dot(x1) * dot(y2) - dot(x2) * dot(y1) == 0.0; }
       velocities(rho, sigma, theta) { dot(x1) = rho * cos(theta); dot(y1) = rho * sin(theta);
           dot(x2) = sigma * cos(theta); dot(y2) = sigma * sin(theta); }"#,
    r#"pub struct D; parameters { m, r, a } coordinates { x, y, theta, psi }
       kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * a * dot(theta).powi(2) + t * dot(psi).powi(2) + dot(psi);
       constraints { dot(x) - r * cos(psi) * dot(theta) == sin(t); dot(y) - r * sin(psi) * dot(theta) == 0.0; }
       dependent { x, y }"#,
    r#"pub struct Disk3d; parameters { m = 1.0, r = 0.5, g = 9.81 } coordinates { x, y, yaw, lean, spin }
       frame N; point O;
       frame L = N.rotate(z, yaw).rotate(x, lean);
       frame D = L.rotate(y, spin);
       point P = O + N[x, y, 0.0];
       point C = P + r * L.z;
       body disk { frame: D, center: C, mass: m, inertia: inertia(L, 0.25*m*r*r, 0.5*m*r*r, 0.25*m*r*r) }
       gravity = -g * N.z;
       plane ground { point: O, up: N.z }
       rolls disk on ground { center: C, axis: L.y, radius: r, contact: P, lateral: true }
       forces { at C: -0.1 * velocity(C); on disk: L[0.0, 0.0, -0.2 * dot(yaw)]; between disk, L: L.y * 0.1; }
       dependent { x, y }"#,
    r#"pub struct Pend; parameters { m, l, g } coordinates { x, y }
       frame N; point O; point Q = O + N[x, y, 0.0];
       particle bob { point: Q, mass: m }
       gravity = g * N[0.0, -1.0, 0.0];
       holonomic(y) { x * x + y * y == l * l; }
       constraints { velocity(Q).cross(N.z).norm() * 0.0 == (Q - O).unit().dot(N.x) * 0.0; }
       dependent { y }"#,
];

/// Mutate one token (recursively inside groups): mostly "semantic" changes that keep the
/// syntax (another name of the model, another number, another operator), sometimes a
/// structural one (delete, duplicate, swap, random token).
fn mutate(ts: TokenStream, rng: &mut Rng, names: &[Ident]) -> TokenStream {
    let mut toks: Vec<TokenTree> = ts.into_iter().collect();
    if toks.is_empty() {
        return toks.into_iter().collect();
    }
    let i = rng.below(toks.len());
    if let TokenTree::Group(g) = &toks[i]
        && rng.below(4) != 0
    {
        let inner = mutate(g.stream(), rng, names);
        toks[i] = TokenTree::Group(Group::new(g.delimiter(), inner));
        return toks.into_iter().collect();
    }
    match rng.below(10) {
        0 => {
            toks.remove(i);
        }
        1 => {
            let t = toks[i].clone();
            toks.insert(i, t);
        }
        2 if i + 1 < toks.len() => toks.swap(i, i + 1),
        3 => toks[i] = token(rng, 2),
        _ => {
            toks[i] = match &toks[i] {
                TokenTree::Ident(_) if !names.is_empty() => {
                    TokenTree::Ident(names[rng.below(names.len())].clone())
                }
                TokenTree::Literal(_) => {
                    let nums = ["0.0", "1.0", "-2.5", "3", "1e-9", "0.5"];
                    nums[rng.below(nums.len())]
                        .parse::<TokenStream>()
                        .ok()
                        .and_then(|t| t.into_iter().last())
                        .unwrap_or_else(|| TokenTree::Literal(Literal::f64_unsuffixed(1.0)))
                }
                TokenTree::Punct(p) if "+-*/".contains(p.as_char()) => TokenTree::Punct(
                    Punct::new(['+', '-', '*', '/'][rng.below(4)], Spacing::Alone),
                ),
                other => other.clone(),
            };
        }
    }
    toks.into_iter().collect()
}

fn idents(ts: &TokenStream, out: &mut Vec<Ident>) {
    for tt in ts.clone() {
        match tt {
            TokenTree::Ident(i) => out.push(i),
            TokenTree::Group(g) => idents(&g.stream(), out),
            _ => {}
        }
    }
}

/// The mutated-model cases, generated in one deterministic sequence and run in four shards
/// (four tests, so that the test harness spreads them over the cores).
const SHARDS: usize = 4;

fn mutated_models_never_panic(shard: usize) {
    let mut rng = Rng::new(11);
    let n = cases() * 2 / 3;
    let seeds: Vec<TokenStream> = SEEDS.iter().map(|s| s.parse().expect("seed")).collect();
    let names: Vec<Vec<Ident>> = seeds
        .iter()
        .map(|s| {
            let mut v = Vec::new();
            idents(s, &mut v);
            v
        })
        .collect();
    let (mut derived, mut ran) = (0usize, 0usize);
    for i in 0..n {
        // Every shard draws every case, so the sequence does not depend on the sharding.
        let k = rng.below(seeds.len());
        let mut ts = seeds[k].clone();
        for _ in 0..1 + rng.below(2) {
            ts = mutate(ts, &mut rng, &names[k]);
        }
        if i % SHARDS != shard {
            continue;
        }
        ran += 1;
        let text = ts.to_string();
        let r = catch_unwind(AssertUnwindSafe(|| expand(ts)));
        match r {
            Ok(out) => derived += usize::from(!out.to_string().contains("compile_error")),
            Err(_) => panic!("case {i} panicked on: {text}"),
        }
    }
    // The mutations must also exercise the derivation, not only the parser.
    println!("{derived} of {ran} mutated models derived without errors");
    assert!(
        derived > ran / 20,
        "only {derived} of {ran} mutated models reached the derivation"
    );
}

#[test]
fn mutated_models_never_panic_0() {
    mutated_models_never_panic(0);
}

#[test]
fn mutated_models_never_panic_1() {
    mutated_models_never_panic(1);
}

#[test]
fn mutated_models_never_panic_2() {
    mutated_models_never_panic(2);
}

#[test]
fn mutated_models_never_panic_3() {
    mutated_models_never_panic(3);
}
