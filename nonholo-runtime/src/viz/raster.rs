//! The software rasterizer behind the PNG and GIF output: polygons filled by scanlines
//! (pixel centres, even-odd), thick lines as quads with round ends, discs, shaded balls and
//! text (DejaVu Sans through ab_glyph), all on a canvas `ss` times the picture's size that
//! is then averaged down (anti-aliasing by supersampling).

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};

use super::camera::{dot, Camera, V3};
use super::scene::{
    col, grid_lines, ground_cells, primitives, shadows, trail_lines, Col, Pose, Prim, Setup, Track,
    SHADOW_ALPHA,
};
use super::Animation;
use crate::Error;

/// DejaVu Sans 2.37 (see `assets/fonts/README.md` for its origin and license).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// An RGB canvas.
pub(crate) struct Canvas {
    pub w: usize,
    pub h: usize,
    pub px: Vec<[u8; 3]>,
    /// Scanline crossings (reused).
    xs: Vec<f64>,
}

impl Canvas {
    pub(crate) fn new(w: usize, h: usize) -> Self {
        Canvas {
            w,
            h,
            px: vec![[0; 3]; w * h],
            xs: Vec::new(),
        }
    }

    pub(crate) fn clear(&mut self, c: [u8; 3]) {
        self.px.fill(c);
    }

    #[inline]
    fn blend(&mut self, i: usize, c: Col, a: f32) {
        let p = &mut self.px[i];
        if a >= 1.0 {
            *p = [c[0] as u8, c[1] as u8, c[2] as u8];
        } else {
            for k in 0..3 {
                let v = f32::from(p[k]);
                p[k] = (v + (c[k] - v) * a + 0.5) as u8;
            }
        }
    }

    /// Fill pixels `x0..x1` of row `y`.
    #[inline]
    fn span(&mut self, y: usize, x0: i64, x1: i64, c: Col, a: f32) {
        let x0 = x0.max(0) as usize;
        let x1 = (x1.min(self.w as i64)).max(0) as usize;
        if x0 >= x1 {
            return;
        }
        let row = y * self.w;
        if a >= 1.0 {
            let v = [c[0] as u8, c[1] as u8, c[2] as u8];
            self.px[row + x0..row + x1].fill(v);
        } else {
            for x in x0..x1 {
                self.blend(row + x, c, a);
            }
        }
    }

    /// Fill a polygon (even-odd rule, pixel centres).
    pub(crate) fn poly(&mut self, pts: &[[f64; 2]], c: Col, a: f32) {
        if pts.len() < 3 || pts.iter().any(|p| !(p[0].is_finite() && p[1].is_finite())) {
            return;
        }
        let (mut ymin, mut ymax) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in pts {
            ymin = ymin.min(p[1]);
            ymax = ymax.max(p[1]);
        }
        let y0 = ((ymin - 0.5).ceil().max(0.0)) as usize;
        let y1 = ((ymax - 0.5).ceil().min(self.h as f64)).max(0.0) as usize;
        let mut xs = core::mem::take(&mut self.xs);
        for y in y0..y1 {
            let yc = y as f64 + 0.5;
            xs.clear();
            let n = pts.len();
            for i in 0..n {
                let (p, q) = (pts[i], pts[(i + 1) % n]);
                if (p[1] <= yc && yc < q[1]) || (q[1] <= yc && yc < p[1]) {
                    xs.push(p[0] + (yc - p[1]) * (q[0] - p[0]) / (q[1] - p[1]));
                }
            }
            xs.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(core::cmp::Ordering::Equal));
            for pair in xs.chunks_exact(2) {
                let xa = (pair[0] - 0.5).ceil() as i64;
                let xb = (pair[1] - 0.5).ceil() as i64;
                self.span(y, xa, xb, c, a);
            }
        }
        self.xs = xs;
    }

    /// Fill a disc.
    pub(crate) fn disc(&mut self, c: [f64; 2], r: f64, col: Col, a: f32) {
        if !(r > 0.0 && c[0].is_finite() && c[1].is_finite()) {
            return;
        }
        let y0 = ((c[1] - r - 0.5).ceil().max(0.0)) as usize;
        let y1 = ((c[1] + r - 0.5).ceil().min(self.h as f64)).max(0.0) as usize;
        for y in y0..y1 {
            let dy = y as f64 + 0.5 - c[1];
            let hw = (r * r - dy * dy).max(0.0).sqrt();
            let xa = (c[0] - hw - 0.5).ceil() as i64;
            let xb = (c[0] + hw - 0.5).ceil() as i64;
            self.span(y, xa, xb, col, a);
        }
    }

    /// A ball of radius `r`: lit like the polygons, from the upper left.
    pub(crate) fn ball(&mut self, c: [f64; 2], r: f64, color: Col) {
        if !(r > 0.0 && c[0].is_finite() && c[1].is_finite()) {
            return;
        }
        let l = [-0.4, 0.7, 0.6];
        let ln = 1.0 / dot(l, l).sqrt();
        let y0 = ((c[1] - r - 0.5).ceil().max(0.0)) as usize;
        let y1 = ((c[1] + r - 0.5).ceil().min(self.h as f64)).max(0.0) as usize;
        let x0 = ((c[0] - r - 0.5).ceil().max(0.0)) as usize;
        let x1 = ((c[0] + r - 0.5).ceil().min(self.w as f64)).max(0.0) as usize;
        for y in y0..y1 {
            let dy = (y as f64 + 0.5 - c[1]) / r;
            for x in x0..x1 {
                let dx = (x as f64 + 0.5 - c[0]) / r;
                let d2 = dx * dx + dy * dy;
                if d2 >= 1.0 {
                    continue;
                }
                let n: V3 = [dx, -dy, (1.0 - d2).sqrt()];
                let k = (0.55 + 0.45 * (dot(n, l) * ln).max(0.0)) as f32;
                let shade = [color[0] * k, color[1] * k, color[2] * k];
                self.blend(y * self.w + x, shade, 1.0);
            }
        }
    }

    /// A line of width `w`, with round ends or square-cut ones.
    pub(crate) fn line(&mut self, a: [f64; 2], b: [f64; 2], w: f64, c: Col, al: f32, round: bool) {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt();
        let hw = 0.5 * w;
        if len > 1e-9 {
            let (nx, ny) = (-dy / len * hw, dx / len * hw);
            self.poly(
                &[
                    [a[0] + nx, a[1] + ny],
                    [b[0] + nx, b[1] + ny],
                    [b[0] - nx, b[1] - ny],
                    [a[0] - nx, a[1] - ny],
                ],
                c,
                al,
            );
        }
        if round {
            self.disc(a, hw, c, al);
            if len > 1e-9 {
                self.disc(b, hw, c, al);
            }
        }
    }

    pub(crate) fn paint(&mut self, p: &Prim) {
        match p {
            Prim::Poly { pts, fill } => self.poly(pts, *fill, 1.0),
            Prim::Quad { pts, fill } => self.poly(pts, *fill, 1.0),
            Prim::Shadow { pts } => self.poly(pts, [0.0; 3], SHADOW_ALPHA),
            Prim::Line {
                a,
                b,
                width,
                color,
                alpha,
                round,
            } => self.line(*a, *b, *width, *color, *alpha, *round),
            Prim::Disc { c, r, fill, ring } => {
                if let Some((rc, rw)) = ring {
                    self.disc(*c, r + rw, *rc, 1.0);
                }
                self.disc(*c, *r, *fill, 1.0);
            }
            Prim::Ball { c, r, color } => self.ball(*c, *r, *color),
            Prim::Group(ps) => {
                for p in ps {
                    self.paint(p);
                }
            }
        }
    }

    /// Text with its baseline starting at `(x, y)`; `anchor` 0 left, 0.5 centre, 1 right.
    pub(crate) fn text(
        &mut self,
        font: &FontRef<'_>,
        s: &str,
        (x, y): (f64, f64),
        size: f32,
        c: Col,
        anchor: f64,
    ) {
        let sf = font.as_scaled(PxScale::from(size));
        let width: f32 = s.chars().map(|ch| sf.h_advance(font.glyph_id(ch))).sum();
        let mut caret = x as f32 - anchor as f32 * width;
        let mut prev = None;
        for ch in s.chars() {
            let id = font.glyph_id(ch);
            if let Some(p) = prev {
                caret += sf.kern(p, id);
            }
            let glyph = id.with_scale_and_position(size, ab_glyph::point(caret, y as f32));
            caret += sf.h_advance(id);
            prev = Some(id);
            if let Some(og) = font.outline_glyph(glyph) {
                let bb = og.px_bounds();
                let (bx, by) = (bb.min.x as i64, bb.min.y as i64);
                og.draw(|gx, gy, cov| {
                    let (px, py) = (bx + i64::from(gx), by + i64::from(gy));
                    if px >= 0 && py >= 0 && (px as usize) < self.w && (py as usize) < self.h {
                        let i = py as usize * self.w + px as usize;
                        self.blend(i, c, cov.min(1.0));
                    }
                });
            }
        }
    }

    /// The picture `ss` times smaller, each pixel the mean of an `ss x ss` block, as RGB
    /// bytes.
    pub(crate) fn downsample(&self, ss: usize, out: &mut Vec<u8>) {
        let (w, h) = (self.w / ss, self.h / ss);
        out.clear();
        out.reserve(w * h * 3);
        let n = (ss * ss) as u32;
        for y in 0..h {
            for x in 0..w {
                let mut acc = [0u32; 3];
                for j in 0..ss {
                    let row = (y * ss + j) * self.w + x * ss;
                    for p in &self.px[row..row + ss] {
                        acc[0] += u32::from(p[0]);
                        acc[1] += u32::from(p[1]);
                        acc[2] += u32::from(p[2]);
                    }
                }
                out.extend_from_slice(&[
                    ((acc[0] + n / 2) / n) as u8,
                    ((acc[1] + n / 2) / n) as u8,
                    ((acc[2] + n / 2) / n) as u8,
                ]);
            }
        }
    }
}

/// Draws the frames of one scene.
pub(crate) struct Renderer<'a> {
    pub setup: &'a Setup,
    pub track: &'a Track,
    pub animation: &'a Animation,
    canvas: Canvas,
    font: FontRef<'static>,
    pose: Pose,
    ss: usize,
    prims: Vec<Prim>,
}

/// Colours of the axis triad, x y z.
pub(crate) const AXIS_COLORS: [[u8; 3]; 3] = [[228, 87, 46], [77, 175, 74], [55, 126, 184]];

impl<'a> Renderer<'a> {
    pub(crate) fn new(
        setup: &'a Setup,
        track: &'a Track,
        animation: &'a Animation,
        ss: usize,
    ) -> Result<Self, Error> {
        let font = FontRef::try_from_slice(FONT)
            .map_err(|e| Error::InvalidOptions(format!("viz: the bundled font: {e}")))?;
        let (w, h) = (
            animation.width as usize * ss,
            animation.height as usize * ss,
        );
        Ok(Renderer {
            setup,
            track,
            animation,
            canvas: Canvas::new(w, h),
            font,
            pose: Pose::default(),
            ss,
            prims: Vec::new(),
        })
    }

    /// The picture at time `t` as RGB bytes (`width * height * 3`).
    pub(crate) fn frame(&mut self, t: f64, out: &mut Vec<u8>) {
        let ss = self.ss as f64;
        let (w, h) = (self.canvas.w as f64, self.canvas.h as f64);
        // one "pixel" of marks and text: a CSS pixel at 800 x 600 (scaled with the picture)
        let px = ss * (f64::from(self.animation.width.min(self.animation.height)) / 600.0).max(0.5);
        self.track.pose_at(t, &mut self.pose);
        let view = self.setup.view_at(self.track, t);
        let cam = Camera::new(&view, w, h);
        self.canvas.clear(self.animation.background);
        self.prims.clear();
        grid_lines(
            self.setup,
            &self.pose,
            &cam,
            view.target,
            px,
            &mut self.prims,
        );
        // over the plane's lines: a ground above the plane hides them
        ground_cells(self.setup, &cam, px, &mut self.prims);
        shadows(self.setup, &self.pose, &cam, &mut self.prims);
        trail_lines(
            self.setup,
            self.track,
            &self.pose,
            t,
            &cam,
            px,
            &mut self.prims,
        );
        for p in &self.prims {
            self.canvas.paint(p);
        }
        let items = primitives(self.setup, &self.pose, &cam, px);
        for (_, p) in &items.list {
            self.canvas.paint(p);
        }
        self.overlay(&cam, t, px);
        self.canvas.downsample(self.ss, out);
    }

    /// Title, time and the axis triad.
    fn overlay(&mut self, cam: &Camera, t: f64, px: f64) {
        let ink = [60.0, 64.0, 72.0];
        let mut y = 26.0 * px;
        if let Some(title) = &self.animation.title {
            self.canvas.text(
                &self.font,
                title,
                (16.0 * px, y),
                (17.0 * px) as f32,
                ink,
                0.0,
            );
            y += 22.0 * px;
        }
        if self.animation.show_time {
            let label = format!("t = {t:.2} s");
            self.canvas.text(
                &self.font,
                &label,
                (16.0 * px, y),
                (14.0 * px) as f32,
                [100.0, 106.0, 116.0],
                0.0,
            );
        }
        // axis triad, bottom left: root x, y, z as seen by the camera, farthest first
        let o = [44.0 * px, self.canvas.h as f64 - 44.0 * px];
        let len = 28.0 * px;
        let mut axes: Vec<(f64, usize)> = (0..3)
            .map(|k| {
                let mut e = [0.0; 3];
                e[k] = 1.0;
                (dot(e, cam.back), k)
            })
            .collect();
        axes.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(core::cmp::Ordering::Equal));
        self.canvas.disc(o, 2.5 * px, [120.0, 120.0, 130.0], 1.0);
        for (_, k) in axes {
            let mut e = [0.0; 3];
            e[k] = 1.0;
            let d = [dot(e, cam.right), -dot(e, cam.up)];
            let tip = [o[0] + len * d[0], o[1] + len * d[1]];
            let c = col(AXIS_COLORS[k]);
            self.canvas.line(o, tip, 2.2 * px, c, 1.0, true);
            let lab = [
                o[0] + (len + 9.0 * px) * d[0],
                o[1] + (len + 9.0 * px) * d[1],
            ];
            self.canvas.text(
                &self.font,
                ["x", "y", "z"][k],
                (lab[0], lab[1] + 4.5 * px),
                (12.0 * px) as f32,
                c,
                0.5,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(c: &Canvas, v: [u8; 3]) -> usize {
        c.px.iter().filter(|p| **p == v).count()
    }

    #[test]
    fn polygons_cover_their_area() {
        let mut c = Canvas::new(100, 100);
        c.clear([255; 3]);
        // a 40 x 20 rectangle: exactly 800 pixel centres inside
        c.poly(
            &[[10.0, 10.0], [50.0, 10.0], [50.0, 30.0], [10.0, 30.0]],
            [0.0; 3],
            1.0,
        );
        assert_eq!(count(&c, [0; 3]), 800);
        // a triangle of area 1250: within its perimeter's worth of pixels
        c.clear([255; 3]);
        c.poly(&[[0.0, 50.0], [50.0, 50.0], [0.0, 100.0]], [0.0; 3], 1.0);
        let n = count(&c, [0; 3]) as f64;
        assert!((n - 1250.0).abs() < 60.0, "{n}");
        // two triangles sharing an edge leave no gap and do not overlap
        c.clear([255; 3]);
        let (a, b, d, e) = ([10.0, 10.3], [70.2, 20.0], [30.7, 80.1], [85.0, 75.0]);
        c.poly(&[a, b, d], [0.0; 3], 0.5);
        c.poly(&[b, e, d], [0.0; 3], 0.5);
        assert_eq!(count(&c, [0; 3]), 0);
        let half = count(&c, [128; 3]);
        assert!(half > 2000);
        // off-canvas and degenerate polygons are ignored
        c.poly(
            &[[-50.0, -50.0], [-10.0, -50.0], [-10.0, -10.0]],
            [0.0; 3],
            1.0,
        );
        c.poly(&[[f64::NAN, 0.0], [1.0, 1.0], [2.0, 0.0]], [0.0; 3], 1.0);
        assert_eq!(count(&c, [128; 3]), half);
    }

    #[test]
    fn discs_lines_and_text() {
        let mut c = Canvas::new(100, 100);
        c.clear([255; 3]);
        c.disc([50.0, 50.0], 10.0, [0.0; 3], 1.0);
        let n = count(&c, [0; 3]) as f64;
        assert!((n - core::f64::consts::PI * 100.0).abs() < 12.0, "{n}");
        c.clear([255; 3]);
        c.line([10.0, 10.0], [90.0, 10.0], 4.0, [0.0; 3], 1.0, false);
        assert_eq!(count(&c, [0; 3]), 320);
        c.clear([255; 3]);
        c.ball([50.0, 50.0], 20.0, [200.0, 100.0, 50.0]);
        // lit from the upper left: brighter there than at the lower right
        let at = |x: usize, y: usize| c.px[y * 100 + x];
        assert!(at(42, 38)[0] > at(62, 62)[0]);
        let font = FontRef::try_from_slice(FONT).unwrap();
        c.clear([255; 3]);
        c.text(&font, "t = 1.25 s", (5.0, 30.0), 16.0, [0.0; 3], 0.0);
        let inked = c.px.iter().filter(|p| p[0] < 128).count();
        assert!(inked > 50, "{inked}");
        // everything above the cap height and below the baseline stays blank
        assert!(c.px[..100 * 15].iter().all(|p| *p == [255; 3]));
    }

    #[test]
    fn downsampling_averages_blocks() {
        let mut c = Canvas::new(4, 2);
        c.px = vec![
            [0; 3], [255; 3], [10; 3], [10; 3], [255; 3], [0; 3], [10; 3], [30; 3],
        ];
        let mut out = Vec::new();
        c.downsample(2, &mut out);
        assert_eq!(out, vec![128, 128, 128, 15, 15, 15]);
    }
}
