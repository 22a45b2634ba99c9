//! Walks over the [`Graph`]: operands, what a set of roots reaches, an operation count, and
//! the iterative post-order the memoized passes of [`calculus`](super::calculus) run over.

use super::graph::{Graph, Id, Node};

impl Graph {
    /// The direct operands of a node (empty for leaves); an atom's definition is not an
    /// operand.
    pub fn children(&self, id: Id) -> Vec<Id> {
        match self.node(id) {
            Node::Num(_) | Node::Sym(_) => vec![],
            Node::Add(_, ts) => ts.iter().map(|(_, t)| *t).collect(),
            Node::Mul(fs) => fs.iter().map(|(b, _)| *b).collect(),
            Node::Fn(_, a) => vec![*a],
            Node::Fn2(_, a, b) => vec![*a, *b],
        }
    }

    /// The auxiliary atoms reachable from `roots` (through their definitions too), in
    /// definition order, which is a valid evaluation order.
    pub fn atoms_under(&self, roots: &[Id]) -> Vec<u32> {
        let mut found: Vec<u32> = self
            .reachable(roots)
            .into_iter()
            .filter_map(|id| match self.node(id) {
                Node::Sym(s) if self.definition(*s).is_some() => Some(*s),
                _ => None,
            })
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Every node computing `roots` needs (through atom definitions): the `done` set of
    /// [`ops_outside`](Self::ops_outside).
    pub fn reachable(&self, roots: &[Id]) -> super::HashSet<Id> {
        let mut seen = super::HashSet::default();
        let mut stack: Vec<Id> = roots.to_vec();
        while let Some(id) = stack.pop() {
            if seen.insert(id) {
                self.push_operands(id, &mut stack);
            }
        }
        seen
    }

    /// Roughly how many floating-point operations computing `roots` takes beyond the nodes in
    /// `done` (shared nodes once, through atom definitions): a sum of k terms k - 1
    /// additions plus its coefficients, a product one multiplication per factor and power
    /// step, a division 4, an elementary function 16. Used to choose between equivalent
    /// forms.
    pub fn ops_outside(&self, roots: &[Id], done: &super::HashSet<Id>) -> u32 {
        let mut seen = super::HashSet::default();
        let mut stack = roots.to_vec();
        let mut cost = 0u32;
        while let Some(id) = stack.pop() {
            if done.contains(&id) || !seen.insert(id) {
                continue;
            }
            cost = cost.saturating_add(match self.node(id) {
                Node::Num(_) | Node::Sym(_) => 0,
                Node::Add(c, ts) => {
                    let scaled = ts.iter().filter(|(k, _)| k.to_f64().abs() != 1.0).count();
                    (ts.len() - 1 + usize::from(!c.is_zero()) + scaled) as u32
                }
                Node::Mul(fs) => {
                    let mut c = fs.len() as u32 - 1;
                    for (_, ex) in fs.iter() {
                        c += ex.unsigned_abs() - 1;
                        if *ex < 0 {
                            c += 4;
                        }
                    }
                    c
                }
                Node::Fn(..) | Node::Fn2(..) => 16,
            });
            self.push_operands(id, &mut stack);
        }
        cost
    }

    /// The nodes under `root` that `pending` accepts (`root` itself included if accepted),
    /// each once, operands before the nodes built on them; the walk follows atom
    /// definitions and stops at nodes `pending` rejects.
    ///
    /// The memoized recursions over the graph ([`diff`](Self::diff),
    /// [`subst`](Self::subst), [`eval`](Self::eval), [`directional`](Self::directional))
    /// first run over this order, so that each node's operands are in the memo when it is
    /// computed: their own recursion then goes one level deep, however deep the model's
    /// graph (a chain of links nests its atoms once per link), and never overflows the
    /// compiler's stack.
    pub fn postorder(&self, root: Id, mut pending: impl FnMut(&Graph, Id) -> bool) -> Vec<Id> {
        let mut order = Vec::new();
        if !pending(self, root) {
            return order;
        }
        let mut seen = super::HashSet::default();
        seen.insert(root);
        // (node, operands pushed)
        let mut stack = vec![(root, false)];
        let mut operands = Vec::new();
        while let Some((id, expanded)) = stack.pop() {
            if expanded {
                order.push(id);
                continue;
            }
            stack.push((id, true));
            operands.clear();
            self.push_operands(id, &mut operands);
            for &c in operands.iter().rev() {
                if !seen.contains(&c) && pending(self, c) {
                    seen.insert(c);
                    stack.push((c, false));
                }
            }
        }
        order
    }

    fn push_operands(&self, id: Id, stack: &mut Vec<Id>) {
        if let Node::Sym(s) = self.node(id)
            && let Some(def) = self.definition(*s)
        {
            stack.push(def);
        }
        stack.extend(self.children(id));
    }
}
