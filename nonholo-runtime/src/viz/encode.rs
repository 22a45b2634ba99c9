//! Writing the pictures: PNG through `png`, GIF through `gif` with one global palette
//! (NeuQuant, trained once on a few frames) and, per frame, only the rectangle that
//! changed.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;
use std::io::Write;
use std::path::Path;

use crate::Error;

/// The error for a file that cannot be written (as `plot` reports them).
pub(crate) fn io_error(path: &Path, e: impl core::fmt::Display) -> Error {
    Error::InvalidOptions(format!("viz: cannot write {}: {e}", path.display()))
}

pub(crate) fn create(path: &Path) -> Result<std::io::BufWriter<std::fs::File>, Error> {
    let f = std::fs::File::create(path).map_err(|e| io_error(path, e))?;
    Ok(std::io::BufWriter::new(f))
}

/// Write RGB bytes as a PNG.
pub(crate) fn write_png(path: &Path, w: u32, h: u32, rgb: &[u8]) -> Result<(), Error> {
    let file = create(path)?;
    let mut enc = png::Encoder::new(file, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| io_error(path, e))?;
    writer
        .write_image_data(rgb)
        .map_err(|e| io_error(path, e))?;
    writer.finish().map_err(|e| io_error(path, e))?;
    Ok(())
}

/// A 256-colour palette learnt from sample pixels, and a cache from 18-bit colours to
/// palette indices.
pub(crate) struct Palette {
    nq: color_quant::NeuQuant,
    /// RGB triples.
    pub rgb: Vec<u8>,
    cache: Vec<u16>,
}

impl Palette {
    /// Learn from RGB bytes (a sample of the frames); `exact` colours (the background)
    /// are put in the palette as they are.
    pub(crate) fn learn(sample: &[u8], exact: &[[u8; 3]]) -> Self {
        let rgba: Vec<u8> = sample
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect();
        let nq = color_quant::NeuQuant::new(10, 256, &rgba);
        let mut rgb = nq.color_map_rgb();
        for c in exact {
            let i = nq.index_of(&[c[0], c[1], c[2], 255]);
            rgb[3 * i..3 * i + 3].copy_from_slice(c);
        }
        Palette {
            nq,
            rgb,
            cache: vec![u16::MAX; 1 << 18],
        }
    }

    #[inline]
    pub(crate) fn index(&mut self, p: &[u8]) -> u8 {
        let key =
            (usize::from(p[0] >> 2) << 12) | (usize::from(p[1] >> 2) << 6) | usize::from(p[2] >> 2);
        let c = self.cache[key];
        if c != u16::MAX {
            return c as u8;
        }
        let i = self.nq.index_of(&[p[0], p[1], p[2], 255]) as u8;
        self.cache[key] = u16::from(i);
        i
    }
}

/// Streams frames into a GIF file.
pub(crate) struct GifWriter<W: Write> {
    enc: gif::Encoder<W>,
    w: usize,
    h: usize,
    prev: Option<Vec<u8>>,
    cur: Vec<u8>,
}

impl<W: Write> GifWriter<W> {
    pub(crate) fn new(
        out: W,
        w: u32,
        h: u32,
        palette: &Palette,
    ) -> Result<Self, gif::EncodingError> {
        let mut enc = gif::Encoder::new(out, w as u16, h as u16, &palette.rgb)?;
        enc.set_repeat(gif::Repeat::Infinite)?;
        Ok(GifWriter {
            enc,
            w: w as usize,
            h: h as usize,
            prev: None,
            cur: Vec::new(),
        })
    }

    /// Add a frame shown for `delay` hundredths of a second.
    pub(crate) fn frame(
        &mut self,
        rgb: &[u8],
        palette: &mut Palette,
        delay: u16,
    ) -> Result<(), gif::EncodingError> {
        let (w, h) = (self.w, self.h);
        self.cur.clear();
        self.cur
            .extend(rgb.chunks_exact(3).map(|p| palette.index(p)));
        // the rectangle that differs from the previous frame
        let (mut x0, mut y0, mut x1, mut y1) = (0, 0, w, h);
        if let Some(prev) = &self.prev {
            let row_differs = |y: usize| self.cur[y * w..(y + 1) * w] != prev[y * w..(y + 1) * w];
            match (0..h).find(|&y| row_differs(y)) {
                None => (x0, y0, x1, y1) = (0, 0, 1, 1),
                Some(top) => {
                    let bottom = (top..h).rev().find(|&y| row_differs(y)).unwrap_or(top) + 1;
                    let (mut l, mut r) = (w, 0);
                    for y in top..bottom {
                        let (a, b) = (&self.cur[y * w..(y + 1) * w], &prev[y * w..(y + 1) * w]);
                        if let Some(first) = (0..l).find(|&x| a[x] != b[x]) {
                            l = first;
                        }
                        if let Some(last) = (r..w).rev().find(|&x| a[x] != b[x]) {
                            r = last + 1;
                        }
                    }
                    if l >= r {
                        (l, r) = (0, 1);
                    }
                    (x0, y0, x1, y1) = (l, top, r, bottom);
                }
            }
        }
        let mut buf = Vec::with_capacity((x1 - x0) * (y1 - y0));
        for y in y0..y1 {
            buf.extend_from_slice(&self.cur[y * w + x0..y * w + x1]);
        }
        let frame = gif::Frame {
            left: x0 as u16,
            top: y0 as u16,
            width: (x1 - x0) as u16,
            height: (y1 - y0) as u16,
            buffer: buf.into(),
            delay,
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
        self.enc.write_frame(&frame)?;
        match &mut self.prev {
            Some(p) => p.copy_from_slice(&self.cur),
            None => self.prev = Some(self.cur.clone()),
        }
        Ok(())
    }

    pub(crate) fn finish(self) -> Result<W, gif::EncodingError> {
        self.enc.into_inner()
    }
}
