//! Front-end stage beside [`crate::dsl`]: the `urdf "file" { .. }` item's file, read at
//! compile time, turned into the items the DSL would declare for the robot — the frame
//! `world` and its origin `world_origin`, a frame per link (named after it) with its
//! origin `LINK_origin`, a coordinate per moving joint (named after it), a body per link
//! with mass (fixed and held links merged into it), `JOINT_effort` inputs and the joints'
//! forces, mimic joints as configuration constraints, and the entries of `rolls LINK on G`
//! the file gives. The later stages see an ordinary model.
//!
//! Every mistake in the file is a compile error on the item's path naming `file:line` and
//! the element; all are reported at once.

mod items;
mod read;
mod tree;

use crate::ctxt::Ctxt;
use crate::dsl::ast::{FrameDecl, Model, PointDecl};
use std::path::PathBuf;
use syn::Ident;

/// Replace the model's `urdf` item by what the file declares; the files read (for the
/// emitted `include_bytes!` that rebuilds the crate when they change).
pub fn import(model: &mut Model, cx: &Ctxt) -> Vec<PathBuf> {
    let Some(section) = model.urdf.take() else {
        return Vec::new();
    };
    let item = section.value;
    let span = item.path.span();
    let shown = item.path.value();
    let path = resolve(&shown, span);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            cx.error_help(
                span,
                format!("cannot read the URDF file `{shown}`: {e}"),
                "the path is relative to the crate's directory (where its Cargo.toml is), or else to this source file's",
            );
            failed(model, span);
            return Vec::new();
        }
    };
    let robot = match read::read(&text) {
        Ok(r) => r,
        Err(errors) => {
            for e in errors {
                cx.error(span, format!("{shown}:{e}"));
            }
            failed(model, span);
            return vec![path];
        }
    };
    if !items::declare(model, &item, &robot, &shown, cx) {
        failed(model, span);
    }
    vec![path]
}

/// The robot's coordinates and bodies are unknown (its file's errors are reported): the
/// later stages must not report them missing.
/// `world` and `world_origin` stay declared, so that the model's own items that use them
/// add no second error.
fn failed(model: &mut Model, span: proc_macro2::Span) {
    for section in ["urdf", "coordinates", "kinetic_energy"] {
        model.failed.push(section.into());
    }
    if !model.frames.iter().any(|f| f.name == items::WORLD) {
        model.frames.push(FrameDecl {
            name: Ident::new(items::WORLD, span),
            parent: None,
        });
        model.points.push(PointDecl {
            name: Ident::new(items::WORLD_ORIGIN, span),
            def: None,
        });
    }
}

/// `path` relative to the crate being compiled (`CARGO_MANIFEST_DIR`); where no such file
/// is there, relative to the source file that names it (a model file compiled outside its
/// crate, as `nonholo.build` and the compile-fail tests do).
fn resolve(path: &str, span: proc_macro2::Span) -> PathBuf {
    let p = PathBuf::from(path);
    if p.is_absolute() {
        return p;
    }
    let in_crate = std::env::var_os("CARGO_MANIFEST_DIR").map(|dir| PathBuf::from(dir).join(&p));
    if let Some(c) = in_crate.as_ref().filter(|c| c.is_file()) {
        return c.clone();
    }
    let beside = span
        .local_file()
        .and_then(|f| f.parent().map(|d| d.join(&p)))
        .filter(|c| c.is_file());
    beside.or(in_crate).unwrap_or(p)
}
