//! Each frame's axes in root components ([`RootAxes`]), for the momenta and loads of the
//! whole system ([`super::balance`]) and for the generalized forces whose load and partial
//! velocity live in frames far apart ([`super::bodies::generalized_forces`]).

use super::vector::Vector;
use super::Kin;
use crate::sym::{Graph, Id};

/// Each frame's axes in root components, as atoms, built down the tree one rotation at a
/// time: a term in a deep frame then costs nine products, where re-expressing it rotation
/// by rotation multiplies the rotations out (a chain's momenta grew exponentially with its
/// length).
pub struct RootAxes(Vec<Option<[[Id; 3]; 3]>>);

impl RootAxes {
    pub fn new(kin: &Kin) -> Self {
        RootAxes(vec![None; kin.tree.joints.len()])
    }

    /// `axes[k]`: the root components of the frame's unit vector k.
    fn axes(&mut self, kin: &Kin, g: &mut Graph, f: usize) -> [[Id; 3]; 3] {
        if let Some(a) = self.0[f] {
            return a;
        }
        let z = g.zero();
        let one = g.one();
        let a = match kin.tree.joints[f].parent {
            None => [[one, z, z], [z, one, z], [z, z, one]],
            Some(p) => {
                let pa = self.axes(kin, g, p);
                [0, 1, 2].map(|k| {
                    let mut e = [z, z, z];
                    e[k] = one;
                    let u = kin.tree.up(g, f, e);
                    [0, 1, 2].map(|c| {
                        let parts: Vec<Id> = (0..3).map(|j| g.mul(pa[j][c], u[j])).collect();
                        let s = g.add_all(&parts);
                        g.define_if_large(&format!("axes_{}[{k}{c}]", kin.names[f]), s, 1)
                    })
                })
            }
        };
        self.0[f] = Some(a);
        a
    }

    /// The root components of `v`.
    pub fn of(&mut self, kin: &Kin, g: &mut Graph, v: &Vector) -> [Id; 3] {
        let z = g.zero();
        let mut out = [z, z, z];
        for (f, c) in &v.0 {
            let a = self.axes(kin, g, *f);
            for k in 0..3 {
                for (j, cj) in c.iter().enumerate() {
                    let t = g.mul(a[j][k], *cj);
                    out[k] = g.add(out[k], t);
                }
            }
        }
        out
    }
}
