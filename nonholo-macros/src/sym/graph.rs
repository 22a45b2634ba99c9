//! The expression arena: hash-consed nodes with canonical sums and products, and function
//! nodes folded by [`super::func`]'s values, parities and exact values.
//!
//! Canonical forms (every constructor returns one):
//! - `Add(c, [(k_i, t_i)])` = c + sum k_i t_i, terms sorted by id, k_i != 0, no term is a
//!   number or a sum; a single unit term with c = 0 is the term itself.
//! - `Mul([(b_i, e_i)])` = prod b_i^e_i, bases sorted by id, e_i != 0, no base is a number
//!   or a product, and a sum appears only with a negative exponent (positive powers and
//!   products of sums are expanded), unless expanding would exceed `EXPANSION_LIMIT`
//!   terms. Numeric coefficients live in the enclosing `Add`.
//! - Negative powers of sums are normalized so the sum's first coefficient is 1.
//!
//! Because ids are handed out in construction order and every map is ordered, building
//! the same model twice yields the same graph: expansion is deterministic.

use super::func::{exact_func, Func, Func2, Parity};
use super::number::Number;
use super::HashMap;
use std::collections::BTreeMap;

/// Index of a node in the [`Graph`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Id(pub u32);

/// One node of the DAG.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    Num(Number),
    Sym(u32),
    Add(Number, Box<[(Number, Id)]>),
    Mul(Box<[(Id, i32)]>),
    Fn(Func, Id),
    Fn2(Func2, Id, Id),
}

/// What a symbol stands for; decides how code generation binds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymInfo {
    pub name: String,
}

/// Expansion past this many terms keeps a positive power of a sum, or a product of two
/// sums, unexpanded.
const EXPANSION_LIMIT: usize = 4096;

/// The most nodes a graph may hold: over 100x what the Whipple bicycle needs (22 000) and
/// 1 GB of memory. Past it every new node is one placeholder symbol, so the derivation
/// runs out quickly, and the macro reports the model as too large instead of exhausting
/// the compiler's memory.
pub const NODE_LIMIT: usize = 3_000_000;

/// The arena. All expression construction goes through it.
#[derive(Default)]
pub struct Graph {
    nodes: Vec<Node>,
    free: Vec<Vec<u64>>,
    size: Vec<u32>,
    memo: HashMap<Node, Id>,
    syms: Vec<SymInfo>,
    diff_memo: HashMap<(Id, u32), Id>,
    /// Definitions of auxiliary symbols (`define`), indexed by symbol.
    defs: HashMap<u32, Id>,
    /// The atom standing for a sum, by the sum normalized as in negative powers (first
    /// coefficient 1): `normalized = atom / lead`, stored as (atom, lead).
    atom_of_sum: HashMap<Id, (Id, Number)>,
    /// Atoms defined as sums of two or more terms, by the first term of their definition
    /// (`refold`).
    sum_atoms: HashMap<Id, Vec<Id>>,
    /// The placeholder every new node becomes once the graph is full, and what was being
    /// derived then.
    overflow: Option<(Id, &'static str)>,
    /// What is being derived (named in the "too large" error).
    stage: &'static str,
}

#[cfg(test)]
thread_local! {
    /// A lower [`NODE_LIMIT`] for the tests of this thread.
    pub static TEST_NODE_LIMIT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// [`NODE_LIMIT`], or a test's lower one.
pub fn node_limit() -> usize {
    #[cfg(test)]
    if let Some(l) = TEST_NODE_LIMIT.with(|l| l.get()) {
        return l;
    }
    NODE_LIMIT
}

impl Graph {
    pub fn new() -> Self {
        Self::default()
    }

    /// Declare a new symbol; symbols should be declared before expressions use them.
    pub fn new_symbol(&mut self, name: &str) -> u32 {
        self.syms.push(SymInfo {
            name: name.to_string(),
        });
        (self.syms.len() - 1) as u32
    }

    /// A new symbol standing for `e`: expressions built on it stay small (it is an atom to
    /// expansion), while differentiation, evaluation and substitution see through it, and
    /// code generation computes it once before its uses. Ids of later definitions are
    /// larger, so definition order is a valid evaluation order.
    pub fn define(&mut self, name: &str, e: Id) -> Id {
        let s = self.new_symbol(name);
        self.defs.insert(s, e);
        let id = self.sym(s);
        // the atom depends on whatever its definition depends on
        let inherited = self.free[e.0 as usize].clone();
        let own = &mut self.free[id.0 as usize];
        if own.len() < inherited.len() {
            own.resize(inherited.len(), 0);
        }
        for (a, b) in own.iter_mut().zip(&inherited) {
            *a |= *b;
        }
        if self.is_sum(e) {
            let (normalized, lead) = self.normalized_sum(e);
            self.atom_of_sum.entry(normalized).or_insert((id, lead));
            if let Node::Add(_, ts) = self.node(e)
                && ts.len() >= 2
            {
                let first = ts[0].1;
                self.sum_atoms.entry(first).or_default().push(id);
            }
        }
        id
    }

    /// `e` itself when it is small, else a [`define`](Self::define)d atom for it.
    pub fn define_if_large(&mut self, name: &str, e: Id, max_size: u32) -> Id {
        if self.tree_size(e) <= max_size || self.as_number(e).is_some() {
            e
        } else {
            self.define(name, e)
        }
    }

    /// The definition of an auxiliary symbol.
    pub fn definition(&self, s: u32) -> Option<Id> {
        self.defs.get(&s).copied()
    }

    pub fn symbol_name(&self, s: u32) -> &str {
        &self.syms[s as usize].name
    }

    pub fn symbol_count(&self) -> usize {
        self.syms.len()
    }

    pub fn node(&self, id: Id) -> &Node {
        &self.nodes[id.0 as usize]
    }

    #[cfg(test)]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Number of nodes in the tree under `id` (shared nodes counted once per use),
    /// saturating; a measure of expression size.
    pub fn tree_size(&self, id: Id) -> u32 {
        self.size[id.0 as usize]
    }

    pub(crate) fn diff_memo_get(&self, e: Id, s: u32) -> Option<Id> {
        self.diff_memo.get(&(e, s)).copied()
    }

    pub(crate) fn diff_memo_put(&mut self, e: Id, s: u32, d: Id) {
        self.diff_memo.insert((e, s), d);
    }

    /// Whether `id` depends on symbol `s`.
    pub fn depends_on(&self, id: Id, s: u32) -> bool {
        let w = (s / 64) as usize;
        self.free[id.0 as usize]
            .get(w)
            .is_some_and(|bits| bits & (1u64 << (s % 64)) != 0)
    }

    /// Whether `id` depends on any symbol in `syms`.
    pub fn depends_on_any(&self, id: Id, syms: &[u32]) -> bool {
        syms.iter().any(|s| self.depends_on(id, *s))
    }

    /// Names what the following construction derives, for the "too large" error.
    pub fn set_stage(&mut self, stage: &'static str) {
        self.stage = stage;
    }

    /// `Some(stage)` when the graph outgrew [`NODE_LIMIT`] while deriving `stage`: every
    /// expression built since is meaningless.
    pub fn overflowed(&self) -> Option<&'static str> {
        self.overflow.map(|(_, stage)| stage)
    }

    pub(super) fn intern(&mut self, node: Node) -> Id {
        if let Some(id) = self.memo.get(&node) {
            return *id;
        }
        if self.nodes.len() >= node_limit() {
            if let Some((placeholder, _)) = self.overflow {
                return placeholder;
            }
            // The one node past the limit: a fresh symbol, nonzero and independent of
            // every coordinate, so that nothing downstream divides by an exact zero.
            let s = self.new_symbol("__too_large");
            let w = (s / 64) as usize;
            let mut free = vec![0u64; w + 1];
            free[w] |= 1u64 << (s % 64);
            let id = Id(self.nodes.len() as u32);
            let node = Node::Sym(s);
            self.nodes.push(node.clone());
            self.free.push(free);
            self.size.push(1);
            self.memo.insert(node, id);
            self.overflow = Some((id, self.stage));
            return id;
        }
        let mut free: Vec<u64> = Vec::new();
        let mut size: u32 = 1;
        let union = |free: &mut Vec<u64>, other: &[u64]| {
            if free.len() < other.len() {
                free.resize(other.len(), 0);
            }
            for (a, b) in free.iter_mut().zip(other) {
                *a |= *b;
            }
        };
        match &node {
            Node::Num(_) => {}
            Node::Sym(s) => {
                let w = (*s / 64) as usize;
                free.resize(w + 1, 0);
                free[w] |= 1u64 << (s % 64);
            }
            Node::Add(_, ts) => {
                for (_, t) in ts.iter() {
                    union(&mut free, &self.free[t.0 as usize]);
                    size = size.saturating_add(self.size[t.0 as usize]);
                }
            }
            Node::Mul(fs) => {
                for (b, _) in fs.iter() {
                    union(&mut free, &self.free[b.0 as usize]);
                    size = size.saturating_add(self.size[b.0 as usize]);
                }
            }
            Node::Fn(_, a) => {
                union(&mut free, &self.free[a.0 as usize]);
                size = size.saturating_add(self.size[a.0 as usize]);
            }
            Node::Fn2(_, a, b) => {
                union(&mut free, &self.free[a.0 as usize]);
                union(&mut free, &self.free[b.0 as usize]);
                size = size
                    .saturating_add(self.size[a.0 as usize])
                    .saturating_add(self.size[b.0 as usize]);
            }
        }
        let id = Id(self.nodes.len() as u32);
        self.nodes.push(node.clone());
        self.free.push(free);
        self.size.push(size);
        self.memo.insert(node, id);
        id
    }

    // ---------------------------------------------------------------- leaves

    pub fn num(&mut self, n: Number) -> Id {
        self.intern(Node::Num(n))
    }

    pub fn int(&mut self, i: i64) -> Id {
        self.num(Number::int(i))
    }

    pub fn zero(&mut self) -> Id {
        self.int(0)
    }

    pub fn one(&mut self) -> Id {
        self.int(1)
    }

    pub fn sym(&mut self, s: u32) -> Id {
        self.intern(Node::Sym(s))
    }

    pub fn as_number(&self, id: Id) -> Option<Number> {
        match self.node(id) {
            Node::Num(n) => Some(*n),
            _ => None,
        }
    }

    pub fn is_zero(&self, id: Id) -> bool {
        self.as_number(id).is_some_and(Number::is_zero)
    }

    // ---------------------------------------------------------------- views

    /// `id = coefficient * term` with `term` not a number (None when `id` is a number).
    pub fn coeff_term(&self, id: Id) -> (Number, Option<Id>) {
        match self.node(id) {
            Node::Num(n) => (*n, None),
            Node::Add(c, ts) if c.is_zero() && ts.len() == 1 => (ts[0].0, Some(ts[0].1)),
            _ => (Number::ONE, Some(id)),
        }
    }

    /// Whether `id` is a genuine sum (more than one term, or a constant plus terms).
    pub fn is_sum(&self, id: Id) -> bool {
        matches!(self.node(id), Node::Add(c, ts) if ts.len() > 1 || !c.is_zero())
    }

    /// The factors of a monomial term (a non-numeric, non-sum node, or a product).
    fn factors_of(&self, term: Id) -> Vec<(Id, i32)> {
        match self.node(term) {
            Node::Mul(fs) => fs.to_vec(),
            _ => vec![(term, 1)],
        }
    }

    /// The terms of `id` as (coefficient, term) with the constant separate.
    pub fn terms_of(&self, id: Id) -> (Number, Vec<(Number, Id)>) {
        match self.node(id) {
            Node::Num(n) => (*n, vec![]),
            Node::Add(c, ts) => (*c, ts.to_vec()),
            _ => (Number::ZERO, vec![(Number::ONE, id)]),
        }
    }

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
    fn normalized_sum(&mut self, sum: Id) -> (Id, Number) {
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

/// Function nodes: constant folding, parity, and the inverse pairs that cancel.
impl Graph {
    /// Whether the canonical form of `a` carries a leading minus sign.
    fn is_negative(&self, a: Id) -> bool {
        match self.node(a) {
            Node::Num(n) => n.is_negative(),
            Node::Add(c, ts) => {
                if c.is_zero() {
                    ts.first().is_some_and(|(k, _)| k.is_negative())
                } else {
                    c.is_negative()
                }
            }
            _ => false,
        }
    }

    pub fn func(&mut self, f: Func, a: Id) -> Id {
        if let Some(x) = self.as_number(a) {
            if let Some(v) = exact_func(f, x) {
                return self.num(v);
            }
            if let Number::Float(v) = x {
                return self.num(Number::Float(f.eval(v)));
            }
        }
        match f.parity() {
            Parity::Odd if self.is_negative(a) => {
                let na = self.neg(a);
                let inner = self.func(f, na);
                return self.neg(inner);
            }
            Parity::Even if self.is_negative(a) => {
                let na = self.neg(a);
                return self.func(f, na);
            }
            _ => {}
        }
        match (f, self.node(a).clone()) {
            (Func::Ln, Node::Fn(Func::Exp, x)) => return x,
            (Func::Abs, Node::Fn(Func::Abs, _)) => return a,
            (Func::Abs, Node::Fn(Func::Exp | Func::Sqrt | Func::Cosh, _)) => return a,
            (Func::Sign, Node::Fn(Func::Exp | Func::Cosh, _)) => return self.one(),
            _ => {}
        }
        self.intern(Node::Fn(f, a))
    }

    pub fn func2(&mut self, f: Func2, a: Id, b: Id) -> Id {
        match f {
            Func2::Powf => {
                if let Some(e) = self.as_number(b) {
                    if let Some(n) = e.as_int()
                        && let Ok(n) = i32::try_from(n)
                    {
                        return self.powi(a, n);
                    }
                    if e == Number::rat(1, 2) {
                        return self.func(Func::Sqrt, a);
                    }
                    if e == Number::rat(-1, 2) {
                        let s = self.func(Func::Sqrt, a);
                        return self.powi(s, -1);
                    }
                }
                if let (Some(x), Some(y)) = (self.as_number(a), self.as_number(b)) {
                    return self.num(Number::Float(x.to_f64().powf(y.to_f64())));
                }
            }
            Func2::Atan2 => {
                if let (Some(y), Some(x)) = (self.as_number(a), self.as_number(b)) {
                    if y.is_zero() && !x.is_negative() && !x.is_zero() {
                        return self.zero();
                    }
                    if let (Number::Float(_), _) | (_, Number::Float(_)) = (y, x) {
                        return self.num(Number::Float(y.to_f64().atan2(x.to_f64())));
                    }
                }
            }
        }
        self.intern(Node::Fn2(f, a, b))
    }
}
