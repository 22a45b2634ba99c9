//! The readable equations (`EQUATIONS`) as data: prose lines and labelled expressions.
//! `emit::equations` renders them with one rule for the "where" list (every auxiliary
//! atom a shown expression uses, defined once, in evaluation order).

use crate::sym::{Graph, Id, Mat};

pub enum Line {
    Prose(String),
    /// `label = value`.
    Entry(String, Id),
}

#[derive(Default)]
pub struct Text {
    pub lines: Vec<Line>,
}

impl Text {
    pub fn new(title: impl Into<String>) -> Text {
        Text {
            lines: vec![Line::Prose(title.into())],
        }
    }

    pub fn prose(&mut self, s: impl Into<String>) {
        self.lines.push(Line::Prose(s.into()));
    }

    pub fn entry(&mut self, label: impl Into<String>, value: Id) {
        self.lines.push(Line::Entry(label.into(), value));
    }

    /// `label[row,col] = ..` for the nonzero entries (`label = 0` when there are none).
    pub fn matrix(&mut self, g: &Graph, label: &str, m: &Mat, rows: &[String], cols: &[String]) {
        let mut any = false;
        for i in 0..m.r {
            for j in 0..m.c {
                if !g.is_zero(m.at(i, j)) {
                    self.entry(format!("{label}[{},{}]", rows[i], cols[j]), m.at(i, j));
                    any = true;
                }
            }
        }
        if !any && m.r * m.c > 0 {
            self.prose(format!("  {label} = 0"));
        }
    }

    /// The upper triangle of a symmetric matrix.
    pub fn symmetric(&mut self, g: &Graph, label: &str, m: &Mat, names: &[String]) {
        for i in 0..m.r {
            for j in i..m.c {
                if !g.is_zero(m.at(i, j)) {
                    self.entry(format!("{label}[{},{}]", names[i], names[j]), m.at(i, j));
                }
            }
        }
    }

    /// `label[name] = ..` for the nonzero components (`label = 0` when there are none).
    pub fn vector(&mut self, g: &Graph, label: &str, v: &[Id], names: &[String]) {
        if v.iter().all(|x| g.is_zero(*x)) {
            if !v.is_empty() {
                self.prose(format!("  {label} = 0"));
            }
            return;
        }
        for (i, x) in v.iter().enumerate() {
            if !g.is_zero(*x) {
                self.entry(format!("{label}[{}]", names[i]), *x);
            }
        }
    }

    /// `label[name] = ..` for every component, zero or not.
    pub fn rows(&mut self, label: &str, v: &[Id], names: &[String]) {
        for (i, x) in v.iter().enumerate() {
            self.entry(format!("{label}[{}]", names[i]), *x);
        }
    }
}
