//! The self-contained HTML page: the poses as compact JSON (integers in fixed quanta) in a
//! `<script type="application/json">`, the viewer's script and style inline.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::contact_track::ContactTrack;
use super::scene::{Patch, Setup, Track};
use super::Animation;
use crate::geometry::Rgb;
use crate::{Geometry, Shape};

/// The viewer (plain JavaScript, no library).
const VIEWER_JS: &str = include_str!("viewer.js");
/// Its style sheet.
const VIEWER_CSS: &str = include_str!("viewer.css");

/// `10^floor(log10(x))`, the quantum of a value of typical size `x / 10^-k`.
fn quantum(x: f64) -> f64 {
    if x > 0.0 && x.is_finite() {
        10f64.powf(x.log10().floor())
    } else {
        1e-4
    }
}

/// Text as a JSON string literal, with `<` escaped so it cannot close the script element.
fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Text for HTML element content.
fn html_text(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '&' => o.push_str("&amp;"),
            '"' => o.push_str("&quot;"),
            c => o.push(c),
        }
    }
    o
}

/// A float in JSON, shortest form that reads back the same; `0` for a non-finite one.
fn num(out: &mut String, x: f64) {
    if x.is_finite() {
        let _ = write!(out, "{x}");
    } else {
        out.push('0');
    }
}

fn nums(out: &mut String, xs: &[f64]) {
    out.push('[');
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        num(out, *x);
    }
    out.push(']');
}

fn rgb(out: &mut String, c: Rgb) {
    let _ = write!(out, "[{},{},{}]", c[0], c[1], c[2]);
}

/// `round(x / q)` appended, then a comma.
#[inline]
fn int(out: &mut String, x: f64, q: f64) {
    let v = (x / q).round();
    // the values are finite (the track checked them); `as` saturates anyway
    let _ = write!(out, "{},", v as i64);
}

fn close_array(out: &mut String) {
    if out.ends_with(',') {
        out.pop();
    }
    out.push(']');
}

/// The page for a scene, with the contact forces along the track if given.
pub(crate) fn page<M: Geometry>(
    setup: &Setup,
    track: &Track,
    animation: &Animation,
    contacts: Option<&ContactTrack>,
) -> String {
    // only the points and frames the scene uses travel
    let mut used_p = Vec::new();
    let mut used_f = Vec::new();
    for s in &setup.shapes {
        let (p, f): (&[usize], Option<usize>) = match s {
            Shape::Disk { center, frame, .. }
            | Shape::Torus { center, frame, .. }
            | Shape::Ellipsoid { center, frame, .. }
            | Shape::Cylinder { center, frame, .. }
            | Shape::Cuboid { center, frame, .. } => (core::slice::from_ref(center), Some(*frame)),
            Shape::Segment { from, to, .. } => {
                used_p.push(*from);
                (core::slice::from_ref(to), None)
            }
            Shape::Sphere { center, .. } => (core::slice::from_ref(center), None),
            Shape::Grid { point, .. } | Shape::Dot { point, .. } => {
                (core::slice::from_ref(point), None)
            }
            // its heights travel with it, sampled
            Shape::Ground { .. } => (&[], None),
        };
        used_p.extend_from_slice(p);
        used_f.extend(f);
    }
    used_p.extend(setup.trails.iter().map(|t| t.0));
    used_p.sort_unstable();
    used_p.dedup();
    used_f.sort_unstable();
    used_f.dedup();
    let pi = |p: usize| used_p.binary_search(&p).unwrap_or(0);
    let fi = |f: usize| used_f.binary_search(&f).unwrap_or(0);

    let n = track.len();
    let pq = quantum(setup.size * 1e-4);
    let rq = 1e-4;
    let t0 = track.times[0];
    let span = track.times[n - 1] - t0;
    let tq = quantum(span.max(1e-3) * 1e-7);

    let mut j = String::with_capacity(64 * 1024 + n * (used_p.len() * 21 + used_f.len() * 54 + 30));
    j.push_str("{\"title\":");
    json_str(&mut j, animation.title.as_deref().unwrap_or(""));
    j.push_str(",\"points\":[");
    for (k, &p) in used_p.iter().enumerate() {
        if k > 0 {
            j.push(',');
        }
        json_str(&mut j, M::POINTS[p]);
    }
    j.push_str("],\"frames\":[");
    for (k, &f) in used_f.iter().enumerate() {
        if k > 0 {
            j.push(',');
        }
        json_str(&mut j, M::FRAMES[f]);
    }
    j.push_str("],\"t0\":");
    num(&mut j, t0);
    j.push_str(",\"tq\":");
    num(&mut j, tq);
    j.push_str(",\"pq\":");
    num(&mut j, pq);
    j.push_str(",\"rq\":");
    num(&mut j, rq);
    j.push_str(",\n\"t\":[");
    for &t in &track.times {
        int(&mut j, t - t0, tq);
    }
    close_array(&mut j);
    j.push_str(",\n\"P\":[");
    for s in 0..n {
        let row = &track.pos[s * track.np..(s + 1) * track.np];
        for &p in &used_p {
            for x in row[p] {
                int(&mut j, x, pq);
            }
        }
    }
    close_array(&mut j);
    j.push_str(",\n\"R\":[");
    for s in 0..n {
        let row = &track.rot[s * track.nf..(s + 1) * track.nf];
        for &f in &used_f {
            for r in row[f].iter().flatten() {
                int(&mut j, *r, rq);
            }
        }
    }
    close_array(&mut j);
    j.push_str(",\n\"F\":[");
    for c in &setup.follow_track {
        for x in c {
            int(&mut j, *x, pq);
        }
    }
    close_array(&mut j);
    j.push_str(",\n\"shapes\":[");
    for (k, s) in setup.shapes.iter().enumerate() {
        if k > 0 {
            j.push(',');
        }
        let patch = setup.grounds.iter().find(|g| g.shape == k);
        shape(&mut j, s, patch, pq, &pi, &fi);
    }
    j.push_str("],\"trails\":[");
    for (k, (p, c)) in setup.trails.iter().enumerate() {
        if k > 0 {
            j.push(',');
        }
        let _ = write!(j, "{{\"point\":{},\"color\":", pi(*p));
        rgb(&mut j, *c);
        j.push('}');
    }
    let v = &setup.view;
    j.push_str("],\"view\":{\"az\":");
    num(&mut j, v.az.to_degrees());
    j.push_str(",\"el\":");
    num(&mut j, v.el.to_degrees());
    j.push_str(",\"dist\":");
    num(&mut j, v.dist);
    j.push_str(",\"fov\":");
    num(&mut j, v.fov.to_degrees());
    j.push_str(",\"up\":");
    nums(&mut j, &setup.up);
    let _ = write!(j, ",\"follow\":{}", setup.follow);
    j.push_str(",\"target\":");
    nums(&mut j, &setup.target_whole);
    j.push_str(",\"rFollow\":");
    num(&mut j, setup.radius_follow);
    j.push_str(",\"rWhole\":");
    num(&mut j, setup.radius_whole);
    j.push_str(",\"distFollow\":");
    num(&mut j, setup.dist_follow);
    j.push_str(",\"distWhole\":");
    num(&mut j, setup.dist_whole);
    j.push_str("},\"size\":");
    num(&mut j, setup.size);
    j.push_str(",\"bg\":");
    rgb(&mut j, animation.background);
    j.push_str(",\"speed\":");
    num(&mut j, animation.speed);
    if let Some(c) = contacts {
        contacts_json(&mut j, c, pq);
    }
    let _ = write!(j, ",\"showTime\":{}}}", animation.show_time);

    let title = animation.title.as_deref().unwrap_or("nonholo animation");
    let mut out = String::with_capacity(j.len() + VIEWER_JS.len() + VIEWER_CSS.len() + 4096);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"generator\" content=\"nonholo viz\">\n");
    let _ = write!(out, "<title>{}</title>\n<style>\n", html_text(title));
    out.push_str(VIEWER_CSS);
    out.push_str("</style>\n");
    // before anything else runs: a script error shows on the page, in the title and in a
    // data attribute (what the browser test looks for)
    out.push_str(
        "<script>\nwindow.onerror = function (msg, src, line, col) {\n  \
         var text = String(msg) + (line ? \" (line \" + line + \":\" + col + \")\" : \"\");\n  \
         document.title = \"nonholo viewer error: \" + text;\n  \
         document.documentElement.setAttribute(\"data-error\", text);\n  \
         var e = document.getElementById(\"error\");\n  \
         if (e) { e.hidden = false; e.textContent = \"viewer error: \" + text; }\n};\n</script>\n",
    );
    out.push_str("</head>\n<body>\n<div id=\"app\">\n<div id=\"stage\">\n");
    out.push_str("<canvas id=\"view\" aria-label=\"3D view of the animation\"></canvas>\n");
    out.push_str(
        "<div id=\"hint\">drag: orbit \u{00b7} shift- or right-drag: pan \u{00b7} wheel: zoom \
         \u{00b7} double-click: reset \u{00b7} space: play",
    );
    if contacts.is_some() {
        out.push_str(" \u{00b7} c: forces");
    }
    out.push_str("</div>\n");
    out.push_str("<div id=\"error\" hidden></div>\n</div>\n<div id=\"bar\">\n");
    out.push_str(
        "<button id=\"play\" title=\"Play / pause (space)\" aria-label=\"Play or pause\">\
         <svg class=\"go\" width=\"14\" height=\"14\" viewBox=\"0 0 14 14\"><path d=\"M3 1.5v11l9.5-5.5z\" fill=\"currentColor\"/></svg>\
         <svg class=\"pause\" width=\"14\" height=\"14\" viewBox=\"0 0 14 14\"><path d=\"M3 1.5h3v11H3zM8 1.5h3v11H8z\" fill=\"currentColor\"/></svg>\
         </button>\n",
    );
    out.push_str("<input id=\"slider\" type=\"range\" aria-label=\"Time\">\n");
    out.push_str("<span id=\"time\"></span>\n");
    out.push_str(
        "<select id=\"speed\" title=\"Playback speed\" aria-label=\"Playback speed\"></select>\n",
    );
    out.push_str(
        "<label title=\"The camera follows the model\"><input id=\"follow\" type=\"checkbox\">follow</label>\n",
    );
    if contacts.is_some() {
        out.push_str(
            "<label title=\"The forces on the wheels (c)\"><input id=\"forces\" type=\"checkbox\" checked>forces</label>\n",
        );
    }
    out.push_str(
        "<button id=\"reset\" title=\"Reset the view (double-click)\" aria-label=\"Reset the view\">\
         <svg width=\"16\" height=\"16\" viewBox=\"0 0 16 16\"><path d=\"M8 2.5a5.5 5.5 0 1 1-5.2 3.7\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\" stroke-linecap=\"round\"/>\
         <path d=\"M1.8 2.2l1 4.3 4.2-1.2\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/></svg>\
         </button>\n",
    );
    out.push_str("</div>\n</div>\n<script id=\"nonholo-data\" type=\"application/json\">\n");
    out.push_str(&j);
    out.push_str("\n</script>\n<script>\n");
    out.push_str(VIEWER_JS);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// The contact forces as JSON: the wheels, which have friction, the arrows' scale, the
/// quanta of forces and utilizations, and per sample and contact the point (`pq`), the
/// force and the normal force (`fq`) and the utilization (`uq`; 0 without friction,
/// `1000` for one that is not finite).
fn contacts_json(j: &mut String, c: &ContactTrack, pq: f64) {
    let (fq, uq) = (quantum(c.reference * 1e-5), 1e-3);
    j.push_str(",\n\"contacts\":{\"names\":[");
    for (k, w) in c.wheels.iter().enumerate() {
        if k > 0 {
            j.push(',');
        }
        json_str(j, w);
    }
    j.push_str("],\"friction\":[");
    for (k, f) in c.friction.iter().enumerate() {
        if k > 0 {
            j.push(',');
        }
        let _ = write!(j, "{f}");
    }
    j.push_str("],\"scale\":");
    num(j, c.scale);
    j.push_str(",\"fq\":");
    num(j, fq);
    j.push_str(",\"uq\":");
    num(j, uq);
    j.push_str(",\n\"C\":[");
    let nc = c.wheels.len().max(1);
    for (i, l) in c.loads.iter().enumerate() {
        for x in l.point {
            int(j, x, pq);
        }
        for x in l.force {
            int(j, x, fq);
        }
        int(j, l.normal, fq);
        let u = match (c.friction[i % nc], l.utilization) {
            (false, _) => 0.0,
            (true, u) if u.is_finite() => u.clamp(-1e3, 1e3),
            (true, _) => 1e3,
        };
        int(j, u, uq);
    }
    close_array(j);
    j.push('}');
}

/// `x` with `decimals` decimals, trailing zeros dropped (`0.05`, not `0.050000`); `null` for
/// a number that is not finite. Heights far from a bump are tiny, and their shortest exact
/// form would run to hundreds of digits.
fn fixed(out: &mut String, x: f64, decimals: usize) {
    if !x.is_finite() {
        out.push_str("null");
        return;
    }
    let start = out.len();
    let _ = write!(out, "{x:.decimals$}");
    if out[start..].contains('.') {
        let keep = out.trim_end_matches('0').trim_end_matches('.').len();
        out.truncate(keep);
    }
    if &out[start..] == "-0" {
        out.truncate(start);
        out.push('0');
    }
}

/// A ground's sampled heights as the fields of its JSON object (after `"kind"`): the
/// first sample's `u0`, `v0`, the steps `du`, `dv`, the counts `nu`, `nv`, the lines'
/// `every` and `off` and the heights `z` (`u` fastest, to the nearest `pq`; `null` where
/// the height is not finite). See [`Patch`].
fn patch_json(j: &mut String, g: &Patch, pq: f64) {
    let decimals = (-pq.log10().round()).max(0.0) as usize;
    j.push_str(",\"u0\":");
    num(j, g.u0);
    j.push_str(",\"v0\":");
    num(j, g.v0);
    j.push_str(",\"du\":");
    num(j, g.du);
    j.push_str(",\"dv\":");
    num(j, g.dv);
    let _ = write!(
        j,
        ",\"nu\":{},\"nv\":{},\"every\":{},\"off\":[{},{}],\"z\":[",
        g.nu, g.nv, g.every, g.off[0], g.off[1]
    );
    for (k, z) in g.z.iter().enumerate() {
        if k > 0 {
            j.push(',');
        }
        fixed(j, *z, decimals);
    }
    j.push(']');
}

/// One shape as JSON, its point and frame indices renumbered; a ground with its sampled
/// heights (`patch`, positions quantized to `pq`).
fn shape(
    j: &mut String,
    s: &Shape,
    patch: Option<&Patch>,
    pq: f64,
    pi: &dyn Fn(usize) -> usize,
    fi: &dyn Fn(usize) -> usize,
) {
    match s {
        Shape::Disk {
            center,
            frame,
            normal,
            radius,
            color,
        } => {
            let _ = write!(
                j,
                "{{\"kind\":\"disk\",\"center\":{},\"frame\":{},\"normal\":",
                pi(*center),
                fi(*frame)
            );
            nums(j, normal);
            j.push_str(",\"radius\":");
            num(j, *radius);
            j.push_str(",\"color\":");
            rgb(j, *color);
        }
        Shape::Torus {
            center,
            frame,
            normal,
            major,
            crown,
            color,
        } => {
            let _ = write!(
                j,
                "{{\"kind\":\"torus\",\"center\":{},\"frame\":{},\"normal\":",
                pi(*center),
                fi(*frame)
            );
            nums(j, normal);
            j.push_str(",\"major\":");
            num(j, *major);
            j.push_str(",\"crown\":");
            num(j, *crown);
            j.push_str(",\"color\":");
            rgb(j, *color);
        }
        Shape::Ellipsoid {
            center,
            frame,
            axes,
            color,
        } => {
            let _ = write!(
                j,
                "{{\"kind\":\"ellipsoid\",\"center\":{},\"frame\":{},\"axes\":[",
                pi(*center),
                fi(*frame)
            );
            for (k, a) in axes.iter().enumerate() {
                if k > 0 {
                    j.push(',');
                }
                nums(j, a);
            }
            j.push_str("],\"color\":");
            rgb(j, *color);
        }
        Shape::Segment { from, to, color } => {
            let _ = write!(
                j,
                "{{\"kind\":\"segment\",\"from\":{},\"to\":{},\"color\":",
                pi(*from),
                pi(*to)
            );
            rgb(j, *color);
        }
        Shape::Sphere {
            center,
            radius,
            color,
        } => {
            let _ = write!(
                j,
                "{{\"kind\":\"sphere\",\"center\":{},\"radius\":",
                pi(*center)
            );
            num(j, *radius);
            j.push_str(",\"color\":");
            rgb(j, *color);
        }
        Shape::Cylinder {
            center,
            frame,
            axis,
            radius,
            length,
            color,
        } => {
            let _ = write!(
                j,
                "{{\"kind\":\"cylinder\",\"center\":{},\"frame\":{},\"axis\":",
                pi(*center),
                fi(*frame)
            );
            nums(j, axis);
            j.push_str(",\"radius\":");
            num(j, *radius);
            j.push_str(",\"length\":");
            num(j, *length);
            j.push_str(",\"color\":");
            rgb(j, *color);
        }
        Shape::Cuboid {
            center,
            frame,
            half,
            color,
        } => {
            let _ = write!(
                j,
                "{{\"kind\":\"cuboid\",\"center\":{},\"frame\":{},\"half\":",
                pi(*center),
                fi(*frame)
            );
            nums(j, half);
            j.push_str(",\"color\":");
            rgb(j, *color);
        }
        Shape::Grid { point, up, color } => {
            let _ = write!(j, "{{\"kind\":\"grid\",\"point\":{},\"up\":", pi(*point));
            nums(j, up);
            j.push_str(",\"color\":");
            rgb(j, *color);
        }
        Shape::Ground { ground, color } => {
            let _ = write!(j, "{{\"kind\":\"ground\",\"ground\":{ground}");
            if let Some(g) = patch {
                patch_json(j, g, pq);
            }
            j.push_str(",\"color\":");
            rgb(j, *color);
        }
        Shape::Dot { point, color } => {
            let _ = write!(j, "{{\"kind\":\"dot\",\"point\":{},\"color\":", pi(*point));
            rgb(j, *color);
        }
    }
    j.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_cannot_break_out_of_the_script() {
        let mut s = String::new();
        json_str(&mut s, "a</script><b>\"q\"\\\n");
        assert_eq!(
            s,
            "\"a\\u003c/script\\u003e\\u003cb\\u003e\\\"q\\\"\\\\\\u000a\""
        );
        assert_eq!(html_text("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }

    #[test]
    fn heights_are_short() {
        let mut s = String::new();
        for (x, d) in [
            (0.05, 4),
            (1e-158, 4),
            (-1e-9, 4),
            (-0.123456, 4),
            (2.0, 0),
            (f64::NAN, 4),
        ] {
            fixed(&mut s, x, d);
            s.push(' ');
        }
        assert_eq!(s, "0.05 0 0 -0.1235 2 null ");
    }

    #[test]
    fn quanta_and_integers() {
        assert_eq!(quantum(1.2e-4), 1e-4);
        assert_eq!(quantum(0.0), 1e-4);
        let mut s = String::from("[");
        int(&mut s, 1.23456, 1e-4);
        int(&mut s, -0.00004, 1e-4);
        close_array(&mut s);
        assert_eq!(s, "[12346,0]");
        let mut s = String::from("[");
        close_array(&mut s);
        assert_eq!(s, "[]");
    }
}
