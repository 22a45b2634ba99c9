//! The library's model texts (`src/models.rs`, `src/models/`), for tests of the pipeline on real models.

const MODELS: &str = concat!(
    include_str!("../../src/models.rs"),
    include_str!("../../src/models/diff_drive_robot.rs"),
    include_str!("../../src/models/mobile_manipulator.rs"),
    include_str!("../../src/models/rolling_bodies.rs")
);

/// The names of the library's models, in file order.
pub fn library_names() -> Vec<String> {
    MODELS
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .filter_map(|l| l.trim().strip_prefix("pub struct "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .filter(|n| !n.contains('$'))
        .map(str::to_string)
        .collect()
}

/// The DSL text of the library model `name`: the body of its `nonholonomic! { .. }`,
/// or, for a model written with one of the exported `*_model!` macros, the
/// invocation's body with the macro's physics spliced in after the struct.
pub fn library_model(name: &str) -> String {
    let decl = format!("pub struct {name};");
    // the declaration itself, not a mention in a doc comment
    let start = MODELS
        .match_indices(&decl)
        .map(|(i, _)| i)
        .find(|i| {
            !MODELS[..*i]
                .rsplit('\n')
                .next()
                .unwrap_or("")
                .contains("//")
        })
        .expect("model");
    let open = MODELS[..start].rfind("! {").unwrap();
    let line_start = MODELS[..open].rfind('\n').map_or(0, |i| i + 1);
    let invoked = MODELS[line_start..open].trim_start_matches("crate::");
    let body_start = open + 3;
    let body_end = body_start + MODELS[body_start..].find("\n}\n").unwrap();
    let body = &MODELS[body_start..body_end];
    if invoked == "nonholonomic" {
        return body.to_string();
    }
    let def = MODELS
        .find(&format!("macro_rules! {invoked} {{"))
        .expect("model macro");
    let marker = "$vis struct $name;";
    let phys_start = def + MODELS[def..].find(marker).unwrap() + marker.len();
    let phys_end = phys_start + MODELS[phys_start..].find("$($rest)*").unwrap();
    let k = body.find(&decl).unwrap() + decl.len();
    format!(
        "{}{}{}",
        &body[..k],
        &MODELS[phys_start..phys_end],
        &body[k..]
    )
}
