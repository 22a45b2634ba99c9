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
//!
//! This file holds the arena (its nodes, symbols, definitions and node limit) with its
//! leaves and views; the constructors of sums and products are [`arithmetic`]'s, those of
//! function nodes [`functions`]'s.

use super::func::{Func, Func2};
use super::number::Number;
use super::HashMap;

mod arithmetic;
mod functions;

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
}
