//! `urdf "file.urdf" { root: .., hold { .. }, actuated: .., packages { .. } }`: the item
//! that names a URDF file and says how to read it (the `urdf` front-end stage reads the
//! file itself).

use super::ast::{Actuated, Urdf, UrdfRoot};
use super::entries::{braced_list, list};
use super::expr::parse_expr;
use crate::ctxt::{nearest, Ctxt};
use syn::parse::ParseStream;
use syn::{braced, parenthesized, Ident, LitStr, Token};

const KEYS: [&str; 4] = ["root", "hold", "actuated", "packages"];

/// The item after its keyword: the path, then its entries separated by commas.
pub(super) fn urdf_item(input: ParseStream, cx: &Ctxt) -> syn::Result<Urdf> {
    let path: LitStr = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "write `urdf \"robots/my_robot.urdf\" { root: .. }`: the file's path (relative to the crate's directory) as a string",
        )
    })?;
    let mut item = Urdf {
        path,
        root: None,
        hold: Vec::new(),
        actuated: Actuated::None,
        packages: Vec::new(),
    };
    let content;
    braced!(content in input);
    let mut seen: Vec<String> = Vec::new();
    list(&content, cx, |s| {
        let key: Ident = s.parse()?;
        let name = key.to_string();
        if seen.contains(&name) {
            cx.error_help(
                key.span(),
                format!("duplicate entry `{name}` in `urdf`"),
                "give each entry once",
            );
        }
        seen.push(name.clone());
        match name.as_str() {
            "root" => {
                s.parse::<Token![:]>()?;
                item.root = Some((key.span(), root(s, cx)?));
            }
            "hold" => item.hold = idents(s, cx)?,
            "actuated" => {
                if s.peek(Token![:]) {
                    s.parse::<Token![:]>()?;
                    let all: Ident = s.parse()?;
                    if all != "all" {
                        return Err(syn::Error::new(
                            all.span(),
                            "write `actuated: all` or `actuated { joint_a, joint_b }`",
                        ));
                    }
                    item.actuated = Actuated::All;
                } else {
                    item.actuated = Actuated::Joints(idents(s, cx)?);
                }
            }
            "packages" => {
                if s.peek(Token![:]) {
                    s.parse::<Token![:]>()?;
                }
                item.packages = braced_list::<LitStr>(s, cx)?;
            }
            other => {
                let help = match nearest(other, KEYS) {
                    Some(k) => format!("did you mean `{k}`?"),
                    None => format!("the entries are {}", KEYS.join(", ")),
                };
                return Err(syn::Error::new(
                    key.span(),
                    format!("unknown entry `{other}` in `urdf`\n\nhelp: {help}"),
                ));
            }
        }
        Ok(())
    });
    if item.root.is_none() && !seen.iter().any(|k| k == "root") {
        cx.error_help(
            item.path.span(),
            "the `urdf` item needs `root`",
            "say how the robot's root link moves: `root: fixed`, `root: planar(x, y, yaw)` or `root: floating(x, y, z, yaw, pitch, roll)`",
        );
    }
    Ok(item)
}

/// `{ a, b }` (an optional `:` before the braces).
fn idents(s: ParseStream, cx: &Ctxt) -> syn::Result<Vec<Ident>> {
    if s.peek(Token![:]) {
        s.parse::<Token![:]>()?;
    }
    braced_list::<Ident>(s, cx)
}

/// `fixed`, `planar(x, y, yaw [, height: h])` or `floating(x, y, z, yaw, pitch, roll)`.
fn root(s: ParseStream, cx: &Ctxt) -> syn::Result<UrdfRoot> {
    let kind: Ident = s.parse()?;
    let usage = "write `fixed`, `planar(x, y, yaw)` (or `planar(x, y, yaw, height: h)`) or `floating(x, y, z, yaw, pitch, roll)`: the names are the root's coordinates";
    match kind.to_string().as_str() {
        "fixed" => Ok(UrdfRoot::Fixed),
        "planar" | "floating" => {
            let args;
            parenthesized!(args in s);
            let mut coords: Vec<Ident> = Vec::new();
            let mut height = None;
            while !args.is_empty() {
                let name: Ident = args.parse()?;
                if args.peek(Token![:]) {
                    if name != "height" || kind != "planar" {
                        return Err(syn::Error::new(name.span(), usage));
                    }
                    args.parse::<Token![:]>()?;
                    height = Some(parse_expr(&args, cx)?);
                } else {
                    coords.push(name);
                }
                if !args.is_empty() {
                    args.parse::<Token![,]>()?;
                }
            }
            match (kind == "planar", coords.as_slice()) {
                (true, [x, y, yaw]) => Ok(UrdfRoot::Planar {
                    coords: [x.clone(), y.clone(), yaw.clone()],
                    height,
                }),
                (false, [x, y, z, yaw, pitch, roll]) => Ok(UrdfRoot::Floating {
                    coords: [x, y, z, yaw, pitch, roll].map(Ident::clone),
                }),
                (planar, _) => Err(syn::Error::new(
                    kind.span(),
                    format!(
                        "`{kind}` takes {} coordinates, found {}\n\nhelp: {usage}",
                        if planar { 3 } else { 6 },
                        coords.len()
                    ),
                )),
            }
        }
        other => Err(syn::Error::new(
            kind.span(),
            format!("unknown root `{other}`\n\nhelp: {usage}"),
        )),
    }
}
