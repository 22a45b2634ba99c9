//! Sums and products in their canonical forms (see [`super`]): every constructor of the
//! arithmetic, the expansion of products and positive powers of sums within
//! [`EXPANSION_LIMIT`] terms, and the two rewrites sums get eagerly (an atom's definition
//! folded back into the atom, `sin^2 + cos^2 = 1`).

use std::collections::BTreeMap;

use super::{Graph, Id, Node};
use crate::sym::func::Func;
use crate::sym::number::Number;

/// Expansion past this many terms keeps a positive power of a sum, or a product of two
/// sums, unexpanded.
const EXPANSION_LIMIT: usize = 4096;

impl Graph {
    // ---------------------------------------------------------------- sums

    pub fn add(&mut self, a: Id, b: Id) -> Id {
        self.add_all(&[a, b])
    }

    pub fn sub(&mut self, a: Id, b: Id) -> Id {
        let nb = self.neg(b);
        self.add_all(&[a, nb])
    }

    pub fn neg(&mut self, a: Id) -> Id {
        self.scale(Number::MINUS_ONE, a)
    }

    /// `k * a`, distributing over sums.
    pub fn scale(&mut self, k: Number, a: Id) -> Id {
        if k.is_zero() {
            return self.zero();
        }
        if k.is_one() {
            return a;
        }
        let (c, ts) = self.terms_of(a);
        let ts: Vec<(Number, Id)> = ts.into_iter().map(|(x, t)| (x.mul(k), t)).collect();
        self.build_add(c.mul(k), ts)
    }

    pub fn add_all(&mut self, ids: &[Id]) -> Id {
        let mut constant = Number::ZERO;
        let mut terms: BTreeMap<Id, Number> = BTreeMap::new();
        for &id in ids {
            let (c, ts) = self.terms_of(id);
            constant = constant.add(c);
            for (k, t) in ts {
                let e = terms.entry(t).or_insert(Number::ZERO);
                *e = e.add(k);
            }
        }
        terms.retain(|_, k| !k.is_zero());
        if !self.sum_atoms.is_empty() && terms.len() >= 2 {
            self.refold(&mut constant, &mut terms);
        }
        self.pythagoras(&mut constant, &mut terms);
        let ts: Vec<(Number, Id)> = terms.into_iter().map(|(t, k)| (k, t)).collect();
        self.build_add(constant, ts)
    }

    fn build_add(&mut self, constant: Number, terms: Vec<(Number, Id)>) -> Id {
        if terms.is_empty() {
            return self.num(constant);
        }
        if constant.is_zero() && terms.len() == 1 && terms[0].0.is_one() {
            return terms[0].1;
        }
        let mut terms = terms;
        terms.sort_by_key(|(_, t)| *t);
        self.intern(Node::Add(constant, terms.into_boxed_slice()))
    }

    /// Replaces every set of terms that is a multiple of an atom's definition by that
    /// multiple of the atom: `M r + v1 - v1hat` with `v1hat := M r + v1` is zero,
    /// which the flat terms alone would hide (bounded: at most 64 replacements per sum).
    fn refold(&mut self, constant: &mut Number, terms: &mut BTreeMap<Id, Number>) {
        for _ in 0..64 {
            let mut hit: Option<(Id, Number)> = None;
            'search: for t in terms.keys() {
                let Some(atoms) = self.sum_atoms.get(t) else {
                    continue;
                };
                for atom in atoms {
                    let Node::Sym(s) = self.node(*atom) else {
                        continue;
                    };
                    let Some(def) = self.defs.get(s) else {
                        continue;
                    };
                    let Node::Add(_, dts) = self.node(*def) else {
                        continue;
                    };
                    if dts.len() > terms.len() {
                        continue;
                    }
                    let Some(k) = terms.get(&dts[0].1).map(|x| x.mul(dts[0].0.recip())) else {
                        continue;
                    };
                    if dts.iter().all(|(kd, td)| terms.get(td) == Some(&kd.mul(k))) {
                        hit = Some((*atom, k));
                        break 'search;
                    }
                }
            }
            let Some((atom, k)) = hit else {
                return;
            };

            let Node::Sym(s) = self.node(atom) else {
                return;
            };
            let def = self.defs[s];
            let Node::Add(c0, dts) = self.node(def).clone() else {
                return;
            };
            for (_, td) in dts.iter() {
                terms.remove(td);
            }
            *constant = constant.add(c0.mul(k).neg());
            let e = terms.entry(atom).or_insert(Number::ZERO);
            *e = e.add(k);
            if e.is_zero() {
                terms.remove(&atom);
            }
        }
    }

    /// Rewrites `k X sin(u)^2 + k X cos(u)^2` to `k X` until no pair is left
    /// (the only trigonometric identity the engine applies eagerly).
    fn pythagoras(&mut self, constant: &mut Number, terms: &mut BTreeMap<Id, Number>) {
        'outer: loop {
            let snapshot: Vec<(Id, Number)> = terms.iter().map(|(t, k)| (*t, *k)).collect();
            for (t, k) in snapshot {
                let factors = self.factors_of(t);
                for (i, (f, e)) in factors.iter().enumerate() {
                    let Node::Fn(Func::Sin, u) = self.node(*f).clone() else {
                        continue;
                    };
                    if *e < 2 {
                        continue;
                    }
                    let cos_u = self.intern(Node::Fn(Func::Cos, u));
                    let mut reduced = factors.clone();
                    reduced[i].1 -= 2;
                    let mut partner = reduced.clone();
                    partner.push((cos_u, 2));
                    let (pk, pt) = self.build_mul(partner);
                    if !pk.is_one() {
                        continue;
                    }
                    let Some(pt) = pt else { continue };
                    if terms.get(&pt) != Some(&k) {
                        continue;
                    }
                    let (rk, rt) = self.build_mul(reduced);
                    if rt.is_some_and(|rt| self.is_sum(rt)) {
                        continue;
                    }
                    terms.remove(&t);
                    terms.remove(&pt);
                    let rk = rk.mul(k);
                    match rt {
                        None => *constant = constant.add(rk),
                        Some(rt) => {
                            let e = terms.entry(rt).or_insert(Number::ZERO);
                            *e = e.add(rk);
                            if e.is_zero() {
                                terms.remove(&rt);
                            }
                        }
                    }
                    continue 'outer;
                }
            }
            break;
        }
    }

    // ---------------------------------------------------------------- products

    pub fn mul(&mut self, a: Id, b: Id) -> Id {
        if self.is_zero(a) || self.is_zero(b) {
            return self.zero();
        }
        let sa = self.is_sum(a);
        let sb = self.is_sum(b);
        match (sa, sb) {
            (false, false) => {
                let (ka, ta) = self.coeff_term(a);
                let (kb, tb) = self.coeff_term(b);
                let mut fs = ta.map(|t| self.factors_of(t)).unwrap_or_default();
                fs.extend(tb.map(|t| self.factors_of(t)).unwrap_or_default());
                let (k, t) = self.build_mul(fs);
                self.monomial(ka.mul(kb).mul(k), t)
            }
            (true, false) => self.mul_sum(a, b),
            (false, true) => self.mul_sum(b, a),
            (true, true) => {
                let (na, nb) = (self.terms_of(a).1.len() + 1, self.terms_of(b).1.len() + 1);
                if na * nb > EXPANSION_LIMIT {
                    // a product of long sums stays a product: expanding it would cost
                    // na * nb terms here and again in everything built on it
                    let (x, y) = if a < b { (a, b) } else { (b, a) };
                    let fs: Box<[(Id, i32)]> = if x == y {
                        vec![(x, 2)].into_boxed_slice()
                    } else {
                        vec![(x, 1), (y, 1)].into_boxed_slice()
                    };
                    return self.intern(Node::Mul(fs));
                }
                let (c, ts) = self.terms_of(a);
                let mut parts = Vec::with_capacity(ts.len() + 1);
                let cb = self.scale(c, b);
                parts.push(cb);
                for (k, t) in ts {
                    let kt = self.monomial(k, Some(t));
                    parts.push(self.mul(kt, b));
                }
                self.add_all(&parts)
            }
        }
    }

    /// `sum = lead * normalized`, the normalized sum's first coefficient 1 (the form
    /// negative powers of sums take).
    pub(super) fn normalized_sum(&mut self, sum: Id) -> (Id, Number) {
        let (c, ts) = self.terms_of(sum);
        let lead = ts.first().map(|(k, _)| *k).unwrap_or(Number::ONE);
        if lead.is_one() {
            return (sum, lead);
        }
        let inv = lead.recip();
        let ts: Vec<(Number, Id)> = ts.iter().map(|(k, t)| (k.mul(inv), *t)).collect();
        (self.build_add(c.mul(inv), ts), lead)
    }

    /// `sum * monomial`: cancels against a negative power of the same sum (or of the atom
    /// standing for it), else distributes.
    fn mul_sum(&mut self, sum: Id, m: Id) -> Id {
        let (km, tm) = self.coeff_term(m);
        if let Some(tm) = tm {
            let fs = self.factors_of(tm);
            let (normalized, lead) = self.normalized_sum(sum);
            if fs.iter().any(|(b, e)| *b == normalized && *e < 0) {
                let mut fs = fs;
                fs.push((normalized, 1));
                let (k, t) = self.build_mul(fs);
                return self.monomial(km.mul(k).mul(lead), t);
            }
            if let Some((atom, atom_lead)) = self.atom_of_sum.get(&normalized).copied()
                && fs.iter().any(|(b, e)| *b == atom && *e < 0)
            {
                // sum = lead * atom / atom_lead
                let mut fs = fs;
                fs.push((atom, 1));
                let (k, t) = self.build_mul(fs);
                return self.monomial(km.mul(k).mul(lead).mul(atom_lead.recip()), t);
            }
        }
        let (c, ts) = self.terms_of(sum);
        let mut parts = Vec::with_capacity(ts.len() + 1);
        parts.push(self.scale(c, m));
        for (k, t) in ts {
            let kt = self.monomial(k, Some(t));
            parts.push(self.mul(kt, m));
        }
        self.add_all(&parts)
    }

    pub fn mul_all(&mut self, ids: &[Id]) -> Id {
        let mut acc = self.one();
        for &id in ids {
            acc = self.mul(acc, id);
        }
        acc
    }

    fn monomial(&mut self, k: Number, t: Option<Id>) -> Id {
        match t {
            None => self.num(k),
            Some(t) if self.is_sum(t) => self.scale(k, t),
            Some(t) => self.build_add(Number::ZERO, vec![(k, t)]),
        }
    }

    /// Canonical product of factors: returns (numeric coefficient, monomial or None for 1).
    fn build_mul(&mut self, factors: Vec<(Id, i32)>) -> (Number, Option<Id>) {
        let mut map: BTreeMap<Id, i64> = BTreeMap::new();
        let mut coeff = Number::ONE;
        let mut pending: Vec<(Id, i64)> = factors.into_iter().map(|(b, e)| (b, e as i64)).collect();
        // Flatten products and pull numbers out.
        while let Some((b, e)) = pending.pop() {
            if e == 0 {
                continue;
            }
            match self.node(b).clone() {
                Node::Num(n) => coeff = coeff.mul(n.powi(e as i32)),
                Node::Mul(fs) => pending.extend(fs.iter().map(|(x, y)| (*x, *y as i64 * e))),
                Node::Add(c, ts) if c.is_zero() && ts.len() == 1 => {
                    coeff = coeff.mul(ts[0].0.powi(e as i32));
                    pending.push((ts[0].1, e));
                }
                _ => *map.entry(b).or_insert(0) += e,
            }
        }
        map.retain(|_, e| *e != 0);
        // sqrt(x)^e = x^(e/2) sqrt(x)^(e%2); a sum to a negative power gets content 1.
        let mut extra: Vec<Id> = Vec::new();
        let mut fs: Vec<(Id, i32)> = Vec::with_capacity(map.len());
        let mut expand: Vec<(Id, i64)> = Vec::new();
        for (b, e) in map {
            let e32 = e.clamp(i32::MIN as i64 + 1, i32::MAX as i64) as i32;
            match self.node(b).clone() {
                Node::Fn(Func::Sqrt, x) if e32.abs() >= 2 => {
                    let inner = self.powi(x, e32 / 2);
                    extra.push(inner);
                    if e32 % 2 != 0 {
                        fs.push((b, e32 % 2));
                    }
                }
                Node::Fn(Func::Abs, x) if e32 % 2 == 0 => {
                    extra.push(self.powi(x, e32));
                }
                Node::Add(..) if e32 < 0 => {
                    let (nb, lead) = self.normalized_sum(b);
                    coeff = coeff.mul(lead.powi(e32));
                    match self.atom_of_sum.get(&nb).copied() {
                        // a sum an atom stands for: the atom's power, so that it cancels
                        // against the atom (nb = atom / atom_lead)
                        Some((atom, atom_lead)) => {
                            coeff = coeff.mul(atom_lead.powi(-e32));
                            fs.push((atom, e32));
                        }
                        None => fs.push((nb, e32)),
                    }
                }
                // A power of a sum too long to expand stays a factor: multiplying it
                // through `mul` would come back here with the same factor, forever.
                Node::Add(..) if self.expands(b, e) => expand.push((b, e)),
                _ => fs.push((b, e32)),
            }
        }
        fs.sort_by_key(|(b, _)| *b);
        // merge duplicates produced by content normalisation
        let mut merged: Vec<(Id, i32)> = Vec::with_capacity(fs.len());
        for (b, e) in fs {
            match merged.last_mut() {
                Some((lb, le)) if *lb == b => *le += e,
                _ => merged.push((b, e)),
            }
        }
        merged.retain(|(_, e)| *e != 0);
        let mut base: Option<Id> = match merged.len() {
            0 => None,
            1 if merged[0].1 == 1 => Some(merged[0].0),
            _ => Some(self.intern(Node::Mul(merged.into_boxed_slice()))),
        };
        if extra.is_empty() && expand.is_empty() {
            return (coeff, base);
        }
        // Slow path: multiply the remaining pieces through the general product.
        let mut acc = self.monomial(coeff, base.take());
        for x in extra {
            acc = self.mul(acc, x);
        }
        for (s, e) in expand {
            let p = self.pow_sum(s, e);
            acc = self.mul(acc, p);
        }
        match self.node(acc).clone() {
            Node::Num(n) => (n, None),
            Node::Add(c, ts) if c.is_zero() && ts.len() == 1 => (ts[0].0, Some(ts[0].1)),
            _ => {
                // A sum cannot be a monomial: wrap as 1 * sum is impossible, so return
                // it as a product with exponent 1 is not canonical either. Callers that
                // can receive sums go through `mul`, which handles this case.
                (Number::ONE, Some(acc))
            }
        }
    }

    /// Whether `s^e` (a sum, `e > 0`) expands within [`EXPANSION_LIMIT`] terms.
    fn expands(&self, s: Id, e: i64) -> bool {
        let n = self.terms_of(s).1.len() + 1;
        (n as f64).powi(e.min(64) as i32) <= EXPANSION_LIMIT as f64
    }

    /// A positive power of a sum, expanded unless that exceeds [`EXPANSION_LIMIT`] terms.
    fn pow_sum(&mut self, s: Id, e: i64) -> Id {
        if e == 1 {
            return s;
        }
        if !self.expands(s, e) {
            return self.intern(Node::Mul(vec![(s, e as i32)].into_boxed_slice()));
        }
        let mut acc = s;
        for _ in 1..e {
            acc = self.mul(acc, s);
        }
        acc
    }

    pub fn powi(&mut self, a: Id, n: i32) -> Id {
        if n == 0 {
            return self.one();
        }
        if n == 1 {
            return a;
        }
        if let Some(x) = self.as_number(a) {
            return self.num(x.powi(n));
        }
        if self.is_sum(a) && n > 0 {
            return self.pow_sum(a, n as i64);
        }
        let (k, t) = self.coeff_term(a);
        let fs = match t {
            Some(t) if self.is_sum(t) => vec![(t, n)],
            Some(t) => self
                .factors_of(t)
                .into_iter()
                .map(|(b, e)| (b, e.saturating_mul(n)))
                .collect(),
            None => vec![],
        };
        let (k2, t2) = self.build_mul(fs);
        let coeff = k.powi(n).mul(k2);
        match t2 {
            Some(t2) if self.is_sum(t2) => self.scale(coeff, t2),
            _ => self.monomial(coeff, t2),
        }
    }

    pub fn div(&mut self, a: Id, b: Id) -> Id {
        let ib = self.powi(b, -1);
        self.mul(a, ib)
    }
}
