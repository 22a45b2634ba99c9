"""Read a `nonholonomic! { .. }` model from nonholo's Rust source into SymPy.

Only used to *check* the hand-built SymPy mechanics models in bench_sympy.py: the
parameter defaults, T, V, forces, constraints and speeds come straight from the DSL
text in src/models.rs, so the SymPy models are compared with exactly what the Rust
macro sees. The DSL expression language is a Rust subset that is also valid Python
syntax once `x.powi(n)` / `x.powf(y)` are rewritten to powers, which is what the AST
transform below does. Decimal literals become exact rationals, as in the macro.
"""

import ast
import re
from fractions import Fraction

import sympy as sm
import sympy.physics.mechanics as me

T = me.dynamicsymbols._t


def _macro_blocks(src):
    """Yield the bodies of the `nonholonomic! { .. }` invocations in `src`."""
    for m in re.finditer(r"nonholonomic!\s*\{", src):
        depth, i = 1, m.end()
        while depth:
            c = src[i]
            depth += c == "{"
            depth -= c == "}"
            i += 1
        yield src[m.end():i - 1]


def _strip_comments(text):
    return "\n".join(re.sub(r"//.*$", "", line) for line in text.splitlines())


def _split_top(text, sep):
    """Split on `sep` outside parentheses/braces."""
    out, depth, cur = [], 0, []
    for c in text:
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        if c == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


class _Rustish(ast.NodeTransformer):
    """x.powi(n) -> x**n, x.sin() -> sin(x), float literals -> Rational."""

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute):
            if f.attr in ("powi", "powf"):
                return ast.BinOp(left=f.value, op=ast.Pow(), right=node.args[0])
            return ast.Call(func=ast.Name(id=f.attr, ctx=ast.Load()),
                            args=[f.value] + node.args, keywords=[])
        return node

    def visit_Constant(self, node):
        if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            fr = Fraction(repr(node.value)) if isinstance(node.value, float) \
                else Fraction(node.value)
            return ast.Call(func=ast.Name(id="_Rational", ctx=ast.Load()),
                            args=[ast.Constant(fr.numerator),
                                  ast.Constant(fr.denominator)], keywords=[])
        return node


def _eval(expr, ns):
    tree = ast.parse("(" + " ".join(expr.split()) + ")", mode="eval")
    tree = ast.fix_missing_locations(_Rustish().visit(tree))
    return eval(compile(tree, "<dsl>", "eval"), ns)


class DslModel:
    """A model read from the DSL: parameters (ordered, with defaults), coordinates,
    T, V, generalized forces, constraints C(q, dot q) (== 0) and speeds z(q, dot q)."""

    def __repr__(self):
        return f"DslModel({self.name}, q={self.coordinates}, z={self.speed_names})"


def load(name, path):
    src = open(path).read()
    for body in _macro_blocks(src):
        body = _strip_comments(body)
        if not re.search(r"\bstruct\s+%s\s*;" % re.escape(name), body):
            continue
        return _parse(name, body)
    raise KeyError(f"no nonholonomic! model named {name} in {path}")


def _parse(name, body):
    m = DslModel()
    m.name = name
    # drop attributes and the struct line
    body = re.sub(r"#\[[^\]]*\]", "", body)
    body = re.sub(r"pub\s+struct\s+\w+\s*;", "", body)
    stmts = _split_top(body, ";")
    # statements may be `word { .. }` blocks without a trailing `;`: split those off
    flat = []
    for s in stmts:
        while True:
            bm = re.match(r"^(parameters|coordinates|forces|constraints|speeds)\s*\{", s)
            if not bm:
                break
            depth, i = 1, bm.end()
            while depth:
                depth += s[i] == "{"
                depth -= s[i] == "}"
                i += 1
            flat.append(s[:i])
            s = s[i:].strip()
        if s:
            flat.append(s)
    ns = {"sin": sm.sin, "cos": sm.cos, "tan": sm.tan, "exp": sm.exp, "ln": sm.log,
          "sqrt": sm.sqrt, "abs": sm.Abs, "asin": sm.asin, "acos": sm.acos,
          "atan": sm.atan, "atan2": sm.atan2, "sinh": sm.sinh, "cosh": sm.cosh,
          "tanh": sm.tanh, "_Rational": sm.Rational, "t": T,
          "dot": lambda q: q.diff(T)}
    m.parameters, m.defaults = [], {}
    m.forces = {}
    m.constraints = []
    m.speed_names, m.speeds = [], []
    m.V = sm.S.Zero
    for s in flat:
        head = s.split("{", 1)[0].strip()
        inner = s[s.find("{") + 1:s.rfind("}")] if "{" in s else ""
        if head == "parameters":
            for item in _split_top(inner, ","):
                pname, _, dflt = item.partition("=")
                sym = sm.Symbol(pname.strip())
                m.parameters.append(sym)
                ns[pname.strip()] = sym
                if dflt.strip():
                    m.defaults[sym] = float(dflt)
        elif head == "coordinates":
            names = [c.strip() for c in inner.split(",") if c.strip()]
            m.coordinates = [me.dynamicsymbols(n) for n in names]
            ns.update(zip(names, m.coordinates))
        elif head == "forces":
            for item in _split_top(inner, ","):
                qn, _, e = item.partition(":")
                m.forces[ns[qn.strip()]] = _eval(e, ns)
        elif head == "constraints":
            for c in _split_top(inner, ";"):
                lhs, rhs = c.split("==")
                m.constraints.append(_eval(lhs, ns) - _eval(rhs, ns))
        elif head == "speeds":
            for item in _split_top(inner, ";"):
                zn, _, e = item.partition("=")
                m.speed_names.append(zn.strip())
                m.speeds.append(_eval(e, ns))
        elif s.startswith("let "):
            lhs, _, e = s[4:].partition("=")
            ns[lhs.strip()] = _eval(e, ns)
        elif s.startswith("kinetic_energy"):
            m.T = _eval(s.partition("=")[2], ns)
        elif s.startswith("potential_energy"):
            m.V = _eval(s.partition("=")[2], ns)
        else:
            raise ValueError(f"unhandled DSL statement in {name}: {s[:60]!r}")
    return m


if __name__ == "__main__":
    import sys
    path = sys.argv[1] if len(sys.argv) > 1 else "../../src/models.rs"
    for n in ("VerticalDisc", "RollingDiskPendulum"):
        d = load(n, path)
        print(d, {str(k): v for k, v in d.defaults.items()})
        print("  T =", d.T)
        print("  V =", d.V)
        print("  Q =", d.forces)
        print("  C =", d.constraints)
        print("  z =", d.speeds)
