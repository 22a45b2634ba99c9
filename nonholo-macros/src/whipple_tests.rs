//! The Whipple bicycle (Meijaard et al. 2007) through the pipeline stage by stage, to see
//! where time and size go (ignored; run in release with `--nocapture`).

use crate::ctxt::Ctxt;
use crate::dsl::parse::parse_model;
use crate::mechanics::{lagrangian, velocities};
use crate::{check, lower};
use std::time::Instant;

fn whipple() -> String {
    crate::test_models::library_model("WhippleBicycle")
}

/// The bicycle parsed, checked and lowered without errors.
fn lowered(cx: &Ctxt) -> (check::Checked, crate::model::Lowered) {
    let model = parse_model(whipple().parse().expect("tokens"), cx);
    let checked = check::check(model, cx).expect("check");
    let low = lower::lower(&checked, cx);
    assert!(!cx.has_errors());
    (checked, low)
}

#[test]
#[ignore]
fn whipple_stages() {
    let t0 = Instant::now();
    let cx = Ctxt::new();
    let (_, mut low) = lowered(&cx);
    let g = &low.graph;
    eprintln!(
        "lowered in {:?}: graph {} nodes, T size {}, V size {}, constraints {:?}, config {:?}",
        t0.elapsed(),
        g.len(),
        g.tree_size(low.kinetic),
        g.tree_size(low.potential),
        low.constraints
            .iter()
            .map(|c| g.tree_size(*c))
            .collect::<Vec<_>>(),
        low.configuration
            .residuals
            .iter()
            .map(|c| g.tree_size(*c))
            .collect::<Vec<_>>(),
    );
    let t1 = Instant::now();
    let lt = lagrangian::lagrange_terms(&mut low, &cx).expect("lagrange terms");
    let g = &low.graph;
    eprintln!(
        "lagrange terms in {:?}: graph {} nodes, A sizes {:?}, h sizes {:?}",
        t1.elapsed(),
        g.len(),
        lt.mass_matrix_a
            .iter()
            .map(|r| r.iter().map(|x| g.tree_size(*x)).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        lt.h.iter().map(|x| g.tree_size(*x)).collect::<Vec<_>>(),
    );
    let t2 = Instant::now();
    let kin = velocities::kinematics(&mut low, &cx).expect("kinematics");
    let g = &low.graph;
    eprintln!(
        "velocity map in {:?}: graph {} nodes, psi sizes {:?}",
        t2.elapsed(),
        g.len(),
        kin.psi.iter().map(|x| g.tree_size(*x)).collect::<Vec<_>>(),
    );
}

#[test]
#[ignore]
fn whipple_derive() {
    let t0 = Instant::now();
    let cx = Ctxt::new();
    let (checked, mut low) = lowered(&cx);
    let eq = crate::mechanics::derive(&mut low, &cx);
    assert!(eq.is_some() && !cx.has_errors());
    eprintln!(
        "derived in {:?}: {} nodes",
        t0.elapsed(),
        low.graph.node_count()
    );
    let t1 = Instant::now();
    let out = crate::emit::emit(&checked, &low, &eq.unwrap()).to_string();
    eprintln!("emitted in {:?}: {} bytes", t1.elapsed(), out.len());
    std::fs::write(std::env::temp_dir().join("whipple.rs"), out).expect("write");
}

#[test]
#[ignore]
fn whipple_atoms() {
    let cx = Ctxt::new();
    let (_, mut low) = lowered(&cx);
    let eq = crate::mechanics::derive(&mut low, &cx);
    assert!(eq.is_some());
    let g = &low.graph;
    let mut defs: Vec<(u32, String)> = (0..g.symbol_count() as u32)
        .filter_map(|s| {
            g.definition(s)
                .map(|d| (g.tree_size(d), g.symbol_name(s).to_string()))
        })
        .collect();
    eprintln!(
        "{} atoms, total size {}",
        defs.len(),
        defs.iter().map(|d| d.0 as u64).sum::<u64>()
    );
    defs.sort();
    defs.reverse();
    for d in defs.iter().take(40) {
        eprintln!("{:>9} {}", d.0, d.1);
    }
}

/// The bicycle through every formulation: expansion time and emitted size.
#[test]
#[ignore]
fn whipple_formulations() {
    let body = whipple().replace("dependent { x, y, yaw, pitch, th_f }", "");
    for (name, tail) in [
        ("gibbs_appell", "dependent { x, y, yaw, pitch, th_f }"),
        ("voronec", "dependent { x, y, yaw, pitch, th_f } formulation = voronec;"),
        ("boltzmann_hamel", "speeds { u1 = dot(roll); u2 = dot(th_r); u3 = dot(steer); } formulation = boltzmann_hamel;"),
        ("multipliers", "formulation = multipliers;"),
    ] {
        let src = format!("{body}\n{tail}");
        let t0 = Instant::now();
        let out = crate::expand::expand(src.parse().expect("tokens")).to_string();
        let errors: Vec<&str> = out.match_indices("compile_error").map(|(i, _)| &out[i..(i + 300).min(out.len())]).collect();
        eprintln!("{name}: {:?}, {} bytes, errors {:?}", t0.elapsed(), out.len(), errors);
    }
}
