//! `draw { .. }`: shapes added to the default scene (`segment`, `sphere`, `cylinder`,
//! `cuboid`, each attached to declared points) and `hide W` to leave out what the scene
//! draws for a body, particle or plane by default.

use super::exprs::Allowed;
use super::input::{Entries, Input};
use super::names::Kind;
use super::types::Ty;
use crate::ctxt::nearest;
use crate::dsl::ast::{DrawItem, Expr, Section};

/// What a shape of `draw { .. }` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawKind {
    Segment,
    Sphere,
    Cylinder,
    Cuboid,
}

/// A checked shape: its points by name, its sizes and direction (a vector whose frame is
/// the shape's), its colour.
pub struct Draw {
    pub kind: DrawKind,
    pub points: Vec<String>,
    pub radius: Option<Expr>,
    pub length: Option<Expr>,
    /// The cylinder's axis or the cuboid's half extents.
    pub vector: Option<Expr>,
    pub color: Option<[u8; 3]>,
}

const KINDS: [(&str, DrawKind, &[&str]); 4] = [
    ("segment", DrawKind::Segment, &["from", "to", "color"]),
    ("sphere", DrawKind::Sphere, &["center", "radius", "color"]),
    (
        "cylinder",
        DrawKind::Cylinder,
        &["center", "axis", "radius", "length", "color"],
    ),
    ("cuboid", DrawKind::Cuboid, &["center", "half", "color"]),
];

/// The named colours of `color: ..` (or `rgb(r, g, b)`).
pub const COLORS: [(&str, [u8; 3]); 10] = [
    ("red", [214, 39, 40]),
    ("green", [44, 160, 44]),
    ("blue", [31, 119, 180]),
    ("orange", [255, 127, 14]),
    ("purple", [148, 103, 189]),
    ("brown", [140, 86, 75]),
    ("pink", [227, 119, 194]),
    ("gray", [127, 127, 127]),
    ("black", [20, 20, 20]),
    ("yellow", [219, 219, 41]),
];

/// The shapes of a `draw { .. }` section, and the names of the bodies, particles and planes
/// it hides (`hideable` says which names those are).
#[derive(Default)]
pub struct Drawing {
    pub draw: Vec<Draw>,
    pub hidden: Vec<String>,
}

pub fn draw(
    k: &Input,
    hideable: impl Fn(&str) -> bool,
    section: Option<Section<Vec<DrawItem>>>,
) -> Drawing {
    let mut out = Drawing::default();
    for item in section.map(|s| s.value).unwrap_or_default() {
        let kw = item.kw.to_string();
        if let Some(target) = item.target {
            let name = target.to_string();
            if !hideable(&name) {
                k.cx.error_help(
                    target.span(),
                    format!("cannot hide `{name}`: it is not a body, particle or plane"),
                    "`hide W;` leaves out the default shape of a body, particle or plane",
                );
            }
            out.hidden.push(name);
            continue;
        }
        let Some((_, kind, keys)) = KINDS.iter().find(|(n, _, _)| *n == kw) else {
            let names: Vec<&str> = KINDS.iter().map(|(n, _, _)| *n).collect();
            let msg = format!("unknown shape `{kw}`");
            match nearest(&kw, names.iter().copied().chain(["hide"])) {
                Some(s) => {
                    k.cx.error_help(item.kw.span(), msg, format!("did you mean `{s}`?"))
                }
                None => k.cx.error_help(
                    item.kw.span(),
                    msg,
                    format!("the shapes are {}, and `hide W;`", names.join(", ")),
                ),
            }
            continue;
        };
        let what = format!("draw {kw}");
        let mut e = Entries::new(k, &what, item.kw.span(), item.entries, keys);
        let point_keys: &[&str] = if *kind == DrawKind::Segment {
            &["from", "to"]
        } else {
            &["center"]
        };
        let points = point_keys
            .iter()
            .filter_map(|key| point_name(k, &e.required(k, &what, key)))
            .collect();
        let mut size = |key: &str| {
            keys.contains(&key).then(|| {
                let x = e.required(k, &what, key);
                k.v.expr(&x, Allowed::positions("a shape's size"));
                k.ty.expect(&x, Ty::Scalar, "a shape's size");
                x
            })
        };
        let (radius, length) = (size("radius"), size("length"));
        let vector = ["axis", "half"]
            .into_iter()
            .find(|key| keys.contains(key))
            .map(|key| {
                let x = e.required(k, &what, key);
                k.v.expr(&x, Allowed::positions("a shape's direction"));
                k.ty.expect(&x, Ty::Vector, "a shape's direction");
                x
            });
        let color = e.optional("color").and_then(|c| color(k, &c));
        out.draw.push(Draw {
            kind: *kind,
            points,
            radius,
            length,
            vector,
            color,
        });
    }
    out
}

/// The name of the declared point `e` is, or an error.
fn point_name(k: &Input, e: &Expr) -> Option<String> {
    match e {
        Expr::Ident(id) if matches!(k.names.get(&id.to_string()), Some((Kind::Point, _))) => {
            Some(id.to_string())
        }
        Expr::Error(_) => None,
        Expr::Ident(id) if k.names.get(&id.to_string()).is_none() => {
            k.names.unknown_point(id, k.cx);
            None
        }
        other => {
            k.cx.error_help(
                other.span(),
                "a shape is attached to a declared point",
                "name a point, or declare one: `point Q = P + l * F.x;`",
            );
            None
        }
    }
}

/// `red`, .. or `rgb(r, g, b)` with integers in 0..=255.
fn color(k: &Input, e: &Expr) -> Option<[u8; 3]> {
    match e {
        Expr::Ident(id) => {
            let name = id.to_string();
            if let Some((_, c)) = COLORS.iter().find(|(n, _)| *n == name) {
                return Some(*c);
            }
            let names: Vec<&str> = COLORS.iter().map(|(n, _)| *n).collect();
            let msg = format!("unknown colour `{name}`");
            match nearest(&name, names.iter().copied()) {
                Some(s) => {
                    k.cx.error_help(id.span(), msg, format!("did you mean `{s}`?"))
                }
                None => k.cx.error_help(
                    id.span(),
                    msg,
                    format!("the colours are {}, or `rgb(r, g, b)`", names.join(", ")),
                ),
            }
            None
        }
        Expr::Call { func, args } if func == "rgb" && args.len() == 3 => {
            let mut c = [0u8; 3];
            for (slot, a) in c.iter_mut().zip(args) {
                match a {
                    Expr::Lit { value, .. } => match value
                        .as_int()
                        .and_then(|v| u8::try_from(v).ok())
                    {
                        Some(v) => *slot = v,
                        None => {
                            k.cx.error(a.span(), "a colour component is an integer from 0 to 255");
                            return None;
                        }
                    },
                    other => {
                        k.cx.error(
                            other.span(),
                            "a colour component is an integer from 0 to 255",
                        );
                        return None;
                    }
                }
            }
            Some(c)
        }
        other => {
            k.cx.error_help(
                other.span(),
                "expected a colour",
                "write a name such as `red` or `rgb(200, 80, 40)`",
            );
            None
        }
    }
}
