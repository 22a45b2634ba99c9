//! Stage 3: the checked model into the symbolic engine — symbols by role, `let`s as
//! shared subexpressions (parameter-only ones as atoms), the DSL's functions by the
//! engine's one table ([`Function`]).

use crate::check::Checked;
use crate::dsl::ast::{BinOp, Expr};
use crate::model::{Lowered, Names, Parametrization, Sites, Symbols};
use crate::sym::{Func2, Function, Graph, Id, Node};
use std::collections::HashMap;

struct Lowerer<'a> {
    g: Graph,
    names: HashMap<String, Id>,
    qd_of: HashMap<String, Id>,
    lets: &'a [(syn::Ident, Expr)],
    let_index: HashMap<String, usize>,
    let_cache: HashMap<usize, Id>,
    /// t, q, dot(q) and z: what makes an expression vary along a motion.
    state_syms: Vec<u32>,
}

pub fn lower(m: &Checked) -> Lowered {
    let mut g = Graph::new();
    let t = g.new_symbol("t");
    let params: Vec<u32> = m
        .params
        .iter()
        .map(|(p, _)| g.new_symbol(&p.to_string()))
        .collect();
    let q: Vec<u32> = m
        .coords
        .iter()
        .map(|c| g.new_symbol(&c.to_string()))
        .collect();
    let qd: Vec<u32> = m
        .coords
        .iter()
        .map(|c| g.new_symbol(&format!("dot({c})")))
        .collect();
    let z: Vec<u32> = match &m.parametrization {
        Parametrization::Independent { .. } => vec![],
        _ => m
            .speeds
            .iter()
            .map(|s| g.new_symbol(&s.to_string()))
            .collect(),
    };
    let mut names = HashMap::new();
    let tid = g.sym(t);
    names.insert("t".to_string(), tid);
    for ((p, _), s) in m.params.iter().zip(&params) {
        let id = g.sym(*s);
        names.insert(p.to_string(), id);
    }
    let mut qd_of = HashMap::new();
    for ((c, s), sd) in m.coords.iter().zip(&q).zip(&qd) {
        let id = g.sym(*s);
        names.insert(c.to_string(), id);
        let idd = g.sym(*sd);
        qd_of.insert(c.to_string(), idd);
    }
    for (name, s) in m.speeds.iter().zip(&z) {
        let id = g.sym(*s);
        names.insert(name.to_string(), id);
    }
    let let_index = m
        .lets
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.to_string(), i))
        .collect();
    let state_syms: Vec<u32> = std::iter::once(t)
        .chain(q.iter().copied())
        .chain(qd.iter().copied())
        .chain(z.iter().copied())
        .collect();
    let mut lw = Lowerer {
        g,
        names,
        qd_of,
        lets: &m.lets,
        let_index,
        let_cache: HashMap::new(),
        state_syms,
    };

    let defaults = m
        .params
        .iter()
        .map(|(_, d)| {
            d.as_ref().and_then(|d| {
                let id = lw.expr(d);
                lw.g.as_number(id)
            })
        })
        .collect();
    let kinetic = lw.expr(&m.kinetic);
    let potential = match &m.potential {
        Some(v) => lw.expr(v),
        None => lw.g.zero(),
    };
    let forces = m
        .forces
        .iter()
        .map(|f| match f {
            Some(f) => lw.expr(f),
            None => lw.g.zero(),
        })
        .collect();
    let constraints = m
        .constraints
        .iter()
        .map(|c| {
            let l = lw.expr(&c.lhs);
            let r = lw.expr(&c.rhs);
            lw.g.sub(l, r)
        })
        .collect();
    let parametrization = match &m.parametrization {
        Parametrization::Speeds(es) => {
            Parametrization::Speeds(es.iter().map(|e| lw.expr(e)).collect())
        }
        Parametrization::Velocities(es) => {
            Parametrization::Velocities(es.iter().map(|e| lw.expr(e)).collect())
        }
        Parametrization::Independent { dependent } => Parametrization::Independent {
            dependent: dependent.clone(),
        },
    };
    Lowered {
        graph: lw.g,
        syms: Symbols {
            t,
            params,
            q,
            qd,
            z,
        },
        names: Names {
            model: m.name.to_string(),
            coords: m.coords.iter().map(|c| c.to_string()).collect(),
            speeds: m.speeds.iter().map(|s| s.to_string()).collect(),
        },
        sites: Sites {
            kinetic: m.kinetic_span,
            parametrization: m.parametrization_span,
            speeds: m.speeds.iter().map(|s| s.span()).collect(),
            constraints: m.constraints.iter().map(|c| c.span).collect(),
        },
        formulation: m.formulation,
        kinetic,
        potential,
        forces,
        constraints,
        parametrization,
        defaults,
    }
}

impl Lowerer<'_> {
    fn expr(&mut self, e: &Expr) -> Id {
        match e {
            Expr::Lit { value, .. } => self.g.num(*value),
            Expr::Error(_) => self.g.zero(),
            Expr::Ident(id) => {
                let key = id.to_string();
                if let Some(x) = self.names.get(&key) {
                    return *x;
                }
                if let Some(i) = self.let_index.get(&key).copied() {
                    if let Some(x) = self.let_cache.get(&i) {
                        return *x;
                    }
                    let body = self.lets[i].1.clone();
                    let mut x = self.expr(&body);
                    // A `let` of parameters only (a mass moment, a combined length) is a
                    // constant of the run: keep it an atom, computed once per call, rather
                    // than multiplying it out into every term that uses it.
                    if !self.g.depends_on_any(x, &self.state_syms)
                        && !matches!(self.g.node(x), Node::Num(_) | Node::Sym(_))
                    {
                        x = self.g.define(&key, x);
                    }
                    self.let_cache.insert(i, x);
                    return x;
                }
                self.g.zero()
            }
            Expr::Dot { arg, .. } => match &**arg {
                Expr::Ident(id) => self
                    .qd_of
                    .get(&id.to_string())
                    .copied()
                    .unwrap_or_else(|| self.g.zero()),
                _ => self.g.zero(),
            },
            Expr::Neg { expr, .. } => {
                let x = self.expr(expr);
                self.g.neg(x)
            }
            Expr::Bin { op, lhs, rhs, .. } => {
                let a = self.expr(lhs);
                let b = self.expr(rhs);
                let a = self.constant_atom(a);
                let b = self.constant_atom(b);
                match op {
                    BinOp::Add => self.g.add(a, b),
                    BinOp::Sub => self.g.sub(a, b),
                    BinOp::Mul => self.g.mul(a, b),
                    BinOp::Div => self.g.div(a, b),
                }
            }
            Expr::Call { func, args } => {
                let args: Vec<Id> = args.iter().map(|a| self.expr(a)).collect();
                self.apply(&func.to_string(), &args)
            }
            Expr::Method { recv, func, args } => {
                let mut all = vec![self.expr(recv)];
                all.extend(args.iter().map(|a| self.expr(a)));
                self.apply(&func.to_string(), &all)
            }
        }
    }

    /// A sum of parameters only (a combined length such as `kappa1 + kappa2`) as an atom:
    /// constant along a run, it is computed once per call instead of being multiplied
    /// out into every term of the products it appears in.
    fn constant_atom(&mut self, x: Id) -> Id {
        if self.g.is_sum(x) && !self.g.depends_on_any(x, &self.state_syms) {
            let name = format!("({})", self.g.display(x));
            self.g.define(&name, x)
        } else {
            x
        }
    }

    fn apply(&mut self, name: &str, args: &[Id]) -> Id {
        let a = args.first().copied().unwrap_or_else(|| self.g.zero());
        let b = args.get(1).copied().unwrap_or_else(|| self.g.zero());
        match Function::by_name(name) {
            Some(Function::Unary(f)) => self.g.func(f, a),
            Some(Function::Binary(f)) => self.g.func2(f, a, b),
            Some(Function::Powi) => {
                let n = self
                    .g
                    .as_number(b)
                    .and_then(|n| n.as_int())
                    .and_then(|n| i32::try_from(n).ok());
                match n {
                    Some(n) => self.g.powi(a, n),
                    None => self.g.func2(Func2::Powf, a, b),
                }
            }
            None => self.g.zero(),
        }
    }
}
