//! Vectors as sparse sums of per-frame components, re-expressed along the frame tree
//! one simple rotation at a time (never through the root unless the root is on the
//! path), so that nothing is expressed in N that does not live there.

use crate::sym::{Graph, Id};

/// A simple rotation of the tree: child = parent.rotate(axis, angle).
pub struct Joint {
    pub parent: Option<usize>,
    pub axis: usize,
    pub depth: usize,
    pub cos: Id,
    pub sin: Id,
}

/// `sum_F c_F` with `c_F` the components in frame F, frames sorted, each once.
#[derive(Clone, Debug, Default)]
pub struct Vector(pub Vec<(usize, [Id; 3])>);

impl Vector {
    pub fn zero() -> Vector {
        Vector(Vec::new())
    }

    pub fn in_frame(f: usize, c: [Id; 3]) -> Vector {
        Vector(vec![(f, c)])
    }

    pub fn add(&self, g: &mut Graph, o: &Vector) -> Vector {
        let mut out = self.0.clone();
        for (f, c) in &o.0 {
            match out.iter_mut().find(|(h, _)| h == f) {
                Some((_, d)) => {
                    for k in 0..3 {
                        d[k] = g.add(d[k], c[k]);
                    }
                }
                None => out.push((*f, *c)),
            }
        }
        out.sort_by_key(|(f, _)| *f);
        out.retain(|(_, c)| !c.iter().all(|x| g.is_zero(*x)));
        Vector(out)
    }

    pub fn map(&self, g: &mut Graph, mut f: impl FnMut(&mut Graph, Id) -> Id) -> Vector {
        let mut out = Vec::with_capacity(self.0.len());
        for (fr, c) in &self.0 {
            let c = [f(g, c[0]), f(g, c[1]), f(g, c[2])];
            if !c.iter().all(|x| g.is_zero(*x)) {
                out.push((*fr, c));
            }
        }
        Vector(out)
    }

    pub fn scale(&self, g: &mut Graph, k: Id) -> Vector {
        self.map(g, |g, x| g.mul(k, x))
    }

    pub fn neg(&self, g: &mut Graph) -> Vector {
        self.map(g, |g, x| g.neg(x))
    }

    pub fn sub(&self, g: &mut Graph, o: &Vector) -> Vector {
        let n = o.neg(g);
        self.add(g, &n)
    }

    pub fn frames(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().map(|(f, _)| *f)
    }
}

/// The frame tree with each rotation's sine and cosine.
pub struct Tree {
    pub joints: Vec<Joint>,
}

impl Tree {
    /// Ancestors of `f`, itself first, the root last.
    pub fn path_to_root(&self, f: usize) -> Vec<usize> {
        let mut p = vec![f];
        let mut at = f;
        while let Some(q) = self.joints[at].parent {
            p.push(q);
            at = q;
        }
        p
    }

    /// Rotations between `a` and `b`.
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let pa = self.path_to_root(a);
        let pb = self.path_to_root(b);
        let lca = pa.iter().find(|f| pb.contains(f)).copied().unwrap_or(0);
        self.joints[a].depth + self.joints[b].depth - 2 * self.joints[lca].depth
    }

    /// The frame among `candidates` closest (in rotations) to all of `frames`.
    pub fn cheapest(&self, candidates: &[usize], frames: &[usize]) -> usize {
        let mut best = (usize::MAX, 0);
        for &c in candidates {
            let cost: usize = frames.iter().map(|f| self.distance(*f, c)).sum();
            if cost < best.0 {
                best = (cost, c);
            }
        }
        best.1
    }

    /// [`Tree::cheapest`], ties to the deepest frame (down a chain, the next link's).
    pub fn cheapest_deepest(&self, candidates: &[usize], frames: &[usize]) -> usize {
        let mut best = (usize::MAX, 0, 0);
        for &c in candidates {
            let cost: usize = frames.iter().map(|f| self.distance(*f, c)).sum();
            let depth = self.joints[c].depth;
            if cost < best.0 || (cost == best.0 && depth > best.1) {
                best = (cost, depth, c);
            }
        }
        best.2
    }

    /// Components of `c` (in child `f`) in `f`'s parent: `R_k(theta) c`.
    pub fn up(&self, g: &mut Graph, f: usize, c: [Id; 3]) -> [Id; 3] {
        let j = &self.joints[f];
        let (k, i, l) = (j.axis, (j.axis + 1) % 3, (j.axis + 2) % 3);
        let (co, si) = (j.cos, j.sin);
        let mut out = c;
        let (a, b) = (g.mul(co, c[i]), g.mul(si, c[l]));
        out[i] = g.sub(a, b);
        let (a, b) = (g.mul(si, c[i]), g.mul(co, c[l]));
        out[l] = g.add(a, b);
        out[k] = c[k];
        out
    }

    /// Components of `p` (in `f`'s parent) in child `f`: `R_k(theta)^T p`.
    pub fn down(&self, g: &mut Graph, f: usize, p: [Id; 3]) -> [Id; 3] {
        let j = &self.joints[f];
        let (i, l) = ((j.axis + 1) % 3, (j.axis + 2) % 3);
        let (co, si) = (j.cos, j.sin);
        let mut out = p;
        let (a, b) = (g.mul(co, p[i]), g.mul(si, p[l]));
        out[i] = g.add(a, b);
        let (a, b) = (g.mul(si, p[i]), g.mul(co, p[l]));
        out[l] = g.sub(b, a);
        out
    }

    /// The components of `v` in frame `x`. Terms move one rotation at a time, deepest
    /// first, and merge where they meet, so a chain of frames costs one rotation per
    /// link (the recurrence of `axesRotations`), not one per term and link.
    pub fn express(&self, g: &mut Graph, v: &Vector, x: usize) -> [Id; 3] {
        let above: Vec<usize> = self.path_to_root(x);
        let mut terms: Vec<(usize, [Id; 3])> = v.0.clone();
        loop {
            // a term off x's ancestor line: move the deepest one up
            let off = terms
                .iter()
                .enumerate()
                .filter(|(_, (f, _))| !above.contains(f))
                .max_by_key(|(_, (f, _))| (self.joints[*f].depth, *f))
                .map(|(i, _)| i);
            let (i, target, c) = if let Some(i) = off {
                let (f, c) = terms[i];
                let p = self.joints[f].parent.unwrap_or(f);
                (i, p, self.up(g, f, c))
            } else {
                // all on the line: move the shallowest one down towards x
                let Some(i) = terms
                    .iter()
                    .enumerate()
                    .filter(|(_, (f, _))| *f != x)
                    .min_by_key(|(_, (f, _))| self.joints[*f].depth)
                    .map(|(i, _)| i)
                else {
                    break;
                };
                let f = terms[i].0;
                let child = above[above.iter().position(|a| *a == f).unwrap_or(1) - 1];
                (i, child, self.down(g, child, terms[i].1))
            };
            terms.remove(i);
            match terms.iter_mut().find(|(f, _)| *f == target) {
                Some((_, d)) => {
                    for k in 0..3 {
                        d[k] = g.add(d[k], c[k]);
                    }
                }
                None => terms.push((target, c)),
            }
        }
        let z = g.zero();
        terms.first().map(|(_, c)| *c).unwrap_or([z, z, z])
    }

    /// `u . v` in the frame cheapest for both.
    pub fn dot(&self, g: &mut Graph, u: &Vector, v: &Vector) -> Id {
        let frames: Vec<usize> = u.frames().chain(v.frames()).collect();
        if frames.is_empty() {
            return g.zero();
        }
        let x = self.cheapest(&frames, &frames);
        let a = self.express(g, u, x);
        let b = self.express(g, v, x);
        let p: Vec<Id> = (0..3).map(|k| g.mul(a[k], b[k])).collect();
        g.add_all(&p)
    }

    /// `u x v` in the frame cheapest for both.
    pub fn cross(&self, g: &mut Graph, u: &Vector, v: &Vector) -> Vector {
        let frames: Vec<usize> = u.frames().chain(v.frames()).collect();
        if frames.is_empty() {
            return Vector::zero();
        }
        let x = self.cheapest(&frames, &frames);
        let a = self.express(g, u, x);
        let b = self.express(g, v, x);
        Vector::in_frame(x, cross3(g, a, b))
    }
}

pub fn cross3(g: &mut Graph, a: [Id; 3], b: [Id; 3]) -> [Id; 3] {
    let mut out = a;
    for k in 0..3 {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let p = g.mul(a[i], b[j]);
        let q = g.mul(a[j], b[i]);
        out[k] = g.sub(p, q);
    }
    out
}

pub fn mat_vec(g: &mut Graph, m: &[[Id; 3]; 3], v: [Id; 3]) -> [Id; 3] {
    [0, 1, 2].map(|r| {
        let parts: Vec<Id> = (0..3).map(|c| g.mul(m[r][c], v[c])).collect();
        g.add_all(&parts)
    })
}

pub fn dot3(g: &mut Graph, a: [Id; 3], b: [Id; 3]) -> Id {
    let parts: Vec<Id> = (0..3).map(|k| g.mul(a[k], b[k])).collect();
    g.add_all(&parts)
}
