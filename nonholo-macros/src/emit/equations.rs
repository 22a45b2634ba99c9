//! The one renderer of `EQUATIONS`: a formulation's [`Text`] with every auxiliary atom
//! its expressions use defined once, under "where", in evaluation order. An entry whose
//! value is itself an atom shows the atom's name and definition (not repeated below).
//! The text stops near [`TEXT_LIMIT`] bytes with a line saying how much was left out: a
//! 20-body chain's equations are megabytes that nobody reads and rustc must still store.

use crate::mechanics::text::{Line, Text};
use crate::sym::HashSet;
use crate::sym::{Graph, Id, Node};
use std::fmt::Write;

/// Past this many bytes the text lists no more entries or definitions.
pub const TEXT_LIMIT: usize = 100_000;

/// An expression larger than this (tree nodes, shared ones once per use) is not spelled
/// out: its text would be longer than anyone reads.
const SHOW_LIMIT: u32 = 2_000;

fn show(g: &Graph, e: Id) -> String {
    let size = g.tree_size(e);
    if size > SHOW_LIMIT {
        format!("(an expression of {size} nodes, not shown)")
    } else {
        g.display(e)
    }
}

pub fn render(g: &Graph, text: &Text) -> String {
    let mut out = String::new();
    let mut omitted = 0usize;
    let mut shown: HashSet<u32> = HashSet::default();
    let mut roots: Vec<Id> = Vec::new();
    for line in &text.lines {
        match line {
            Line::Prose(s) => {
                let _ = writeln!(out, "{s}");
            }
            Line::Entry(_, _) if out.len() > TEXT_LIMIT => omitted += 1,
            Line::Entry(label, value) => {
                let atom = match g.node(*value) {
                    Node::Sym(s) => g.definition(*s).map(|def| (*s, def)),
                    _ => None,
                };
                match atom {
                    Some((s, def)) => {
                        shown.insert(s);
                        roots.push(def);
                        let name = g.symbol_name(s);
                        if name == label {
                            let _ = writeln!(out, "  {label} = {}", show(g, def));
                        } else {
                            let _ = writeln!(out, "  {label} = {name} = {}", show(g, def));
                        }
                    }
                    None => {
                        roots.push(*value);
                        let _ = writeln!(out, "  {label} = {}", show(g, *value));
                    }
                }
            }
        }
    }
    let rest: Vec<u32> = g
        .atoms_under(&roots)
        .into_iter()
        .filter(|s| !shown.contains(s))
        .collect();
    if !rest.is_empty() {
        let _ = writeln!(out, "\nwhere (each evaluated once per call):");
        for s in rest {
            if out.len() > TEXT_LIMIT {
                omitted += 1;
            } else if let Some(def) = g.definition(s) {
                let _ = writeln!(out, "  {} = {}", g.symbol_name(s), show(g, def));
            }
        }
    }
    if omitted > 0 {
        let _ = writeln!(
            out,
            "\n... and {omitted} more entries and definitions, left out of this text (over {} kB); the code computes them all",
            TEXT_LIMIT / 1000
        );
    }
    out
}
