//! Uneven ground in the engine: each `ground`'s height `h(u, v)` and its gradient in
//! variables of its own, lowered once, and `G.at(x, y)`, `G.normal(x, y)` from them.

use super::Lowerer;
use crate::dsl::ast::Expr;
use crate::sym::HashMap;
use crate::sym::{Func, Id};

/// `h(u, v)`, `dh/du` and `dh/dv` of a `ground`, in symbols `u`, `v` of its own.
#[derive(Clone, Copy)]
pub(super) struct GroundTerms {
    pub(super) u: u32,
    pub(super) v: u32,
    pub(super) h: Id,
    pub(super) hu: Id,
    pub(super) hv: Id,
}

impl Lowerer<'_> {
    /// The index of the `ground` an expression names.
    pub(super) fn ground_named(&self, e: &Expr) -> Option<usize> {
        match e {
            Expr::Ident(id) => self.kinematics.ground_of.get(&id.to_string()).copied(),
            _ => None,
        }
    }

    /// The root frame (the one without a parent).
    pub(super) fn root_frame(&self) -> usize {
        self.kinematics
            .frames
            .iter()
            .position(|f| f.parent.is_none())
            .unwrap_or(0)
    }

    /// Ground `k`'s height and gradient in its own variables (lowered once).
    pub(super) fn ground_terms(&mut self, k: usize) -> GroundTerms {
        if let Some(t) = self.grounds[k] {
            return t;
        }
        let def = &self.kinematics.grounds[k];
        let u = self.g.new_symbol(&def.u);
        let v = self.g.new_symbol(&def.v);
        let (uid, vid) = (self.g.sym(u), self.g.sym(v));
        // the variables are names of their own (`check`): bound for this expression only
        self.names.insert(def.u.clone(), uid);
        self.names.insert(def.v.clone(), vid);
        let height = def.height.clone();
        let h = self.expr(&height);
        self.names.remove(&def.u);
        self.names.remove(&def.v);
        let (hu, hv) = (self.g.diff(h, u), self.g.diff(h, v));
        let t = GroundTerms { u, v, h, hu, hv };
        self.grounds[k] = Some(t);
        t
    }

    /// `h(x, y)` of ground `k`.
    pub(super) fn ground_height(&mut self, k: usize, x: Id, y: Id) -> Id {
        let t = self.ground_terms(k);
        let map: HashMap<u32, Id> = [(t.u, x), (t.v, y)].into_iter().collect();
        self.g.subst(t.h, &map)
    }

    /// The unit normal `(-h_u, -h_v, 1) / sqrt(1 + h_u^2 + h_v^2)` of ground `k` at `(x, y)`,
    /// in root components.
    pub(super) fn ground_normal(&mut self, k: usize, x: Id, y: Id) -> [Id; 3] {
        let t = self.ground_terms(k);
        let map: HashMap<u32, Id> = [(t.u, x), (t.v, y)].into_iter().collect();
        let hu = self.g.subst(t.hu, &map);
        let hv = self.g.subst(t.hv, &map);
        let g = &mut self.g;
        let hu2 = g.powi(hu, 2);
        let hv2 = g.powi(hv, 2);
        let one = g.one();
        let sum = g.add_all(&[one, hu2, hv2]);
        let root = g.func(Func::Sqrt, sum);
        let inv = g.powi(root, -1);
        let nx = g.mul(hu, inv);
        let ny = g.mul(hv, inv);
        [g.neg(nx), g.neg(ny), inv]
    }
}
