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
