//! The one renderer of `EQUATIONS`: a formulation's [`Text`] with every auxiliary atom
//! its expressions use defined once, under "where", in evaluation order. An entry whose
//! value is itself an atom shows the atom's name and definition (not repeated below).

use crate::mechanics::text::{Line, Text};
use crate::sym::HashSet;
use crate::sym::{Graph, Id, Node};
use std::fmt::Write;

pub fn render(g: &Graph, text: &Text) -> String {
    let mut out = String::new();
    let mut shown: HashSet<u32> = HashSet::default();
    let mut roots: Vec<Id> = Vec::new();
    for line in &text.lines {
        match line {
            Line::Prose(s) => {
                let _ = writeln!(out, "{s}");
            }
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
                            let _ = writeln!(out, "  {label} = {}", g.display(def));
                        } else {
                            let _ = writeln!(out, "  {label} = {name} = {}", g.display(def));
                        }
                    }
                    None => {
                        roots.push(*value);
                        let _ = writeln!(out, "  {label} = {}", g.display(*value));
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
            if let Some(def) = g.definition(s) {
                let _ = writeln!(out, "  {} = {}", g.symbol_name(s), g.display(def));
            }
        }
    }
    out
}
