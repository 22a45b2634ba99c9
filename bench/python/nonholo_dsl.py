"""Read a `nonholonomic!` model from nonholo's Rust source into SymPy.

Only used to *check* the hand-built SymPy mechanics models in bench_sympy.py: the
parameter defaults, T, V, forces, constraints and speeds come straight from the DSL
text in src/, so the SymPy models are compared with exactly what the Rust macro sees.

A model is found in either form the library uses:

- a plain invocation, `nonholonomic! { .. pub struct Name; .. }`;
- an invocation of a model macro defined with `macro_rules!` in the same sources, e.g.
  `rolling_disk_pendulum_model! { /// doc  pub struct Name; speeds { .. } }`, whose arm
  `($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => { .. nonholonomic! {
  .. $($rest)* } }` is expanded here (attributes, visibility, name and the trailing
  sections substituted; model macros may invoke other model macros).

Comments are removed with a small lexer (strings and nested block comments respected),
so doc comments and their code examples never count as models. The DSL expression
language is a Rust subset that is also valid Python syntax once `x.powi(n)` /
`x.powf(y)` are rewritten to powers and `x.sin()` to `sin(x)`, which is what the AST
transform below does. Decimal literals become exact rationals, as in the macro.

Only the scalar DSL is read (parameters, coordinates, let, kinetic_energy,
potential_energy, forces, constraints, speeds, velocities, dependent, formulation);
a model written with the 3D kinematics items (frames, bodies, rolls, ...) raises
NotImplementedError naming the item.

`python nonholo_dsl.py [--all] [PATH]` prints the models used by bench_sympy.py (or,
with --all, every model found) as SymPy expressions; PATH is a file or a directory of
Rust sources (default: ../../src).
"""

import ast
import keyword
import os
import re
from fractions import Fraction

import sympy as sm
import sympy.physics.mechanics as me

T = me.dynamicsymbols._t

# Struct names that were spelled differently in earlier versions of src/models.rs: a
# lookup of either name finds the model under whichever spelling the sources use.
ALIASES = {
    "VerticalDisk": ("VerticalDisc",),
    "CoaxialDisks": ("CoaxialDiscs",),
}
for _new, _olds in list(ALIASES.items()):
    for _old in _olds:
        ALIASES.setdefault(_old, (_new,))

# Items of the 3D kinematics DSL, which this reader does not evaluate.
_KINEMATICS_ITEMS = ("frame", "point", "body", "particle", "gravity", "plane", "rolls",
                     "holonomic")


class DslError(ValueError):
    """The sources could not be read as expected (with the place and the reason)."""


# --------------------------------------------------------------------------------------
# Lexing: comments out, brackets matched
# --------------------------------------------------------------------------------------


def _strip_comments(src):
    """`src` with `//` and (nested) `/* */` comments replaced by spaces/newlines, string
    and character literals kept intact."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" ")
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(" " + "\n" * src.count("\n", i, j))
            i = j
        elif c == '"' or (c == "r" and re.match(r'r#*"', src[i:i + 260])
                          and (i == 0 or src[i - 1] == "b"
                               or not (src[i - 1].isalnum() or src[i - 1] == "_"))):
            j = _skip_string(src, i)
            out.append(src[i:j])
            i = j
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:])   # char literal, not a lifetime
            j = i + (m.end() if m else 1)
            out.append(src[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _skip_string(src, i):
    """Index just past the string literal starting at `src[i]` (plain or raw)."""
    if src[i] == "r":
        m = re.match(r'r(#*)"', src[i:])
        end = '"' + m.group(1)
        j = src.find(end, i + m.end())
        if j < 0:
            raise DslError(f"unterminated raw string at offset {i}")
        return j + len(end)
    j = i + 1
    while j < len(src):
        if src[j] == "\\":
            j += 2
        elif src[j] == '"':
            return j + 1
        else:
            j += 1
    raise DslError(f"unterminated string at offset {i}")


_CLOSE = {"(": ")", "[": "]", "{": "}"}


def _match(text, i):
    """Index just past the bracket group opening at `text[i]` (comments already out)."""
    stack, j = [], i
    while j < len(text):
        c = text[j]
        if c == '"' or (c == "r" and re.match(r'r#*"', text[j:j + 260])
                        and not (text[j - 1].isalnum() or text[j - 1] == "_")):
            j = _skip_string(text, j)
            continue
        if c in _CLOSE:
            stack.append(_CLOSE[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                raise DslError(f"unbalanced {c!r} at offset {j}")
            if not stack:
                return j + 1
        j += 1
    raise DslError(f"unclosed {text[i]!r} at offset {i}")


def _invocations(text, macro):
    """(start, body) of every `macro! { body }` / `macro!(..)` / `macro![..]` in `text`
    (a path prefix such as `$crate::` or `nonholo::` is allowed)."""
    for m in re.finditer(r"(?<![\w$])%s\s*!\s*([\(\[\{])" % re.escape(macro), text):
        open_at = m.end() - 1
        end = _match(text, open_at)
        yield m.start(), text[open_at + 1:end - 1]


# --------------------------------------------------------------------------------------
# Model macros (`macro_rules!`) and their expansion
# --------------------------------------------------------------------------------------

def _head(body):
    """Split a model body into (attributes, visibility, struct name, the rest)."""
    i, attrs = 0, []
    while True:
        m = re.compile(r"\s*#\s*!?\s*\[").match(body, i)
        if not m:
            break
        end = _match(body, m.end() - 1)
        attrs.append(body[m.start():end].strip())
        i = end
    m = re.compile(r"\s*(?P<vis>pub(?:\s*\([^)]*\))?\s+)?struct\s+(?P<name>[A-Za-z_]\w*)"
                   r"\s*;").match(body, i)
    if not m:
        return None
    return " ".join(attrs), (m.group("vis") or "").strip(), m.group("name"), body[m.end():]


class _MacroRules:
    """A `macro_rules!` model macro with the arm
    `($(#[$a:meta])* $v:vis struct $n:ident; $($r:tt)*) => { .. }`."""

    def __init__(self, name, body):
        self.name = name
        self.arms = []
        i = 0
        while True:
            m = re.compile(r"\s*([\(\[\{])").match(body, i)
            if not m:
                break
            mend = _match(body, m.end() - 1)
            matcher = body[m.end():mend - 1]
            arrow = re.compile(r"\s*=>\s*([\(\[\{])").match(body, mend)
            if not arrow:
                raise DslError(f"macro_rules! {name}: expected `=>` after an arm's matcher")
            tend = _match(body, arrow.end() - 1)
            self.arms.append((matcher, body[arrow.end():tend - 1]))
            i = tend
            semi = re.compile(r"\s*;").match(body, i)
            if semi:
                i = semi.end()

    def expand(self, attrs, vis, struct, rest):
        errors = []
        for matcher, transcriber in self.arms:
            try:
                return self._expand_arm(matcher, transcriber, attrs, vis, struct, rest)
            except DslError as e:
                errors.append(str(e))
        raise DslError(f"no arm of macro_rules! {self.name} can be expanded here: "
                       + "; ".join(errors))

    def _expand_arm(self, matcher, transcriber, attrs, vis, struct, rest):
        pats = {
            "attr": r"\$\(\s*#\s*\[\s*\$(\w+)\s*:\s*meta\s*\]\s*\)\s*\*",
            "rest": r"\$\(\s*\$(\w+)\s*:\s*tt\s*\)\s*\*",
            "vis": r"\$(\w+)\s*:\s*vis\b",
            "name": r"\$(\w+)\s*:\s*ident\b",
        }
        var, shape = {}, matcher
        for role, pat in pats.items():
            m = re.search(pat, shape)
            if m:
                var[role] = m.group(1)
                shape = shape[:m.start()] + f" {role.upper()} " + shape[m.end():]
        shape = " ".join(shape.replace(";", " ; ").split())
        expected = " ".join(x for x in ("ATTR" if "attr" in var else "",
                                        "VIS" if "vis" in var else "",
                                        "struct NAME ;", "REST") if x)
        if shape != expected or "name" not in var or "rest" not in var:
            raise DslError(f"matcher `{' '.join(matcher.split())}` is not of the form "
                           "`$(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*`")
        out = transcriber
        if "attr" in var:
            out = re.sub(r"\$\(\s*#\s*\[\s*\$%s\s*\]\s*\)\s*\*" % var["attr"],
                         lambda _: attrs, out)
        out = re.sub(r"\$\(\s*\$%s\s*\)\s*\*" % var["rest"], lambda _: rest, out)
        if "vis" in var:
            out = re.sub(r"\$%s\b" % var["vis"], lambda _: vis, out)
        out = re.sub(r"\$%s\b" % var["name"], lambda _: struct, out)
        out = re.sub(r"\$crate\b", "crate", out)
        left = re.search(r"\$\(?\w*", out)
        if left:
            raise DslError(f"macro_rules! {self.name}: cannot expand `{left.group(0)}`")
        return out


def _macro_rules(text):
    """name -> _MacroRules for every `macro_rules! name { .. }` in `text`, and the spans
    of their definitions (invocations inside them are not models)."""
    macros, spans = {}, []
    for m in re.finditer(r"\bmacro_rules\s*!\s*([A-Za-z_]\w*)\s*([\(\[\{])", text):
        end = _match(text, m.end() - 1)
        macros[m.group(1)] = _MacroRules(m.group(1), text[m.end():end - 1])
        macros[m.group(1)].text = text[m.end():end - 1]
        spans.append((m.start(), end))
    return macros, spans


def _model_macros(macros):
    """The macros that expand to a model: those whose definition invokes `nonholonomic!`
    or another such macro (other helper macros are none of this reader's business)."""
    keep, grew = {}, True
    while grew:
        grew = False
        for name, mac in macros.items():
            if name not in keep and any(
                    re.search(r"(?<![\w$])%s\s*!" % re.escape(k), mac.text)
                    for k in ["nonholonomic"] + list(keep)):
                keep[name], grew = mac, True
    return keep


def _models_in(text, macros, skip=(), depth=0):
    """Yield (struct name, nonholonomic! body, None) for every model in `text`, expanding
    the model macros in `macros`, and (None, None, problem) for an invocation that
    cannot be read (so that one odd invocation does not hide the others)."""
    if depth > 16:
        yield None, None, "model macros nest more than 16 deep"
        return

    def skipped(pos):
        return any(a <= pos < b for a, b in skip)

    for start, body in _invocations(text, "nonholonomic"):
        if skipped(start):
            continue
        h = _head(body)
        if h is None:
            yield None, None, ("a nonholonomic! invocation without `struct Name;` at its "
                               f"start: {' '.join(body.split())[:60]!r}")
            continue
        yield h[2], body, None
    for mname, mac in macros.items():
        for start, body in _invocations(text, mname):
            if skipped(start):
                continue
            h = _head(body)
            try:
                if h is None:
                    raise DslError(f"{mname}! invoked without `struct Name;` at its start")
                expanded = mac.expand(*h)
            except DslError as e:
                yield None, None, str(e)
                continue
            yield from _models_in(expanded, macros, depth=depth + 1)


def _sources(path):
    """The Rust source files to search: a file, or every .rs file under a directory; a
    file `x.rs` also brings the module directory `x/` beside it, if there is one."""
    files = []
    if os.path.isdir(path):
        for root, dirs, names in os.walk(path):
            dirs.sort()
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".rs")]
    else:
        files.append(path)
        sub = os.path.splitext(path)[0]
        if os.path.isdir(sub):
            files += _sources(sub)
    if not files:
        raise DslError(f"no Rust sources at {path}")
    return files


def _all_models(path):
    """({struct name: [distinct nonholonomic! bodies]}, [problems]): every model under
    `path`, comments removed and model macros expanded."""
    files = _sources(path)
    texts = [_strip_comments(open(f, encoding="utf-8").read()) for f in files]
    macros, spans = {}, {}
    for f, text in zip(files, texts):
        m, s = _macro_rules(text)
        macros.update(m)
        spans[f] = s
    macros = _model_macros(macros)
    found, problems = {}, []
    for f, text in zip(files, texts):
        for name, body, problem in _models_in(text, macros, spans[f]):
            if problem is not None:
                problem = f"{os.path.relpath(f)}: {problem}"
                if problem not in problems:
                    problems.append(problem)
                continue
            bodies = found.setdefault(name, [])
            if all(" ".join(b.split()) != " ".join(body.split()) for b in bodies):
                bodies.append(body)
    return found, problems


def list_models(path):
    """The struct names of every model found under `path`."""
    return sorted(_all_models(path)[0])


def load(name, path):
    """The model `name` (or its other spelling, see ALIASES) from the sources at `path`
    (a file or a directory), as a DslModel."""
    models, problems = _all_models(path)
    for n in (name,) + ALIASES.get(name, ()):
        if n in models:
            if len(models[n]) > 1:
                raise DslError(f"{len(models[n])} different models named {n} under {path}")
            return _parse(n, models[n][0])
    raise KeyError(f"no nonholonomic! model named {name} under {path} "
                   f"(models found: {', '.join(sorted(models)) or 'none'}"
                   + (f"; not read: {'; '.join(problems)}" if problems else "") + ")")


# --------------------------------------------------------------------------------------
# The DSL text -> SymPy
# --------------------------------------------------------------------------------------


def _split_top(text, seps):
    """Split on any character of `seps` outside brackets."""
    out, depth, cur = [], 0, []
    for c in text:
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        if c in seps and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def _statements(body):
    """The model's items: `head { .. }` / `head(..) { .. }` blocks and `;` statements."""
    items, i, n = [], 0, len(body)
    while i < n:
        m = re.compile(r"\s*([A-Za-z_]\w*)\s*(\([^()]*\))?\s*\{").match(body, i)
        if m and m.group(1) not in ("let",):
            end = _match(body, m.end() - 1)
            items.append(body[m.start():end].strip())
            i = end
            semi = re.compile(r"\s*;").match(body, i)   # tolerate `block { .. };`
            if semi:
                i = semi.end()
            continue
        j, depth = i, 0
        while j < n and not (body[j] == ";" and depth == 0):
            depth += body[j] in "([{"
            depth -= body[j] in ")]}"
            j += 1
        if body[i:j].strip():
            items.append(body[i:j].strip())
        i = j + 1
    return items


class _Rustish(ast.NodeTransformer):
    """x.powi(n) -> x**n, x.sin() -> sin(x), number literals -> Rational."""

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


def _py(name):
    """A DSL identifier as a Python name (Python keywords get a trailing `_`)."""
    return name + "_" if keyword.iskeyword(name) else name


def _pyexpr(expr):
    return re.sub(r"(?<![\w.])([A-Za-z_]\w*)", lambda m: _py(m.group(1)), expr)


def _eval(expr, ns, where):
    text = " ".join(_pyexpr(expr).split())
    try:
        tree = ast.parse("(" + text + ")", mode="eval")
        tree = ast.fix_missing_locations(_Rustish().visit(tree))
        return eval(compile(tree, "<dsl>", "eval"), ns)
    except Exception as e:
        raise DslError(f"{where}: cannot read `{' '.join(expr.split())}` "
                       f"({type(e).__name__}: {e})") from e


class DslModel:
    """A model read from the DSL: parameters (ordered, with defaults), coordinates,
    T, V, generalized forces, constraints C(q, dot q) (== 0), speeds z(q, dot q) or the
    parametric velocities, the dependent coordinates and the formulation."""

    def __repr__(self):
        return f"DslModel({self.name}, q={self.coordinates}, z={self.speed_names})"


def _parse(name, body):
    _, _, struct, rest = _head(body)
    m = DslModel()
    m.name = struct
    ns = {"sin": sm.sin, "cos": sm.cos, "tan": sm.tan, "exp": sm.exp, "ln": sm.log,
          "sqrt": sm.sqrt, "abs": sm.Abs, "asin": sm.asin, "acos": sm.acos,
          "atan": sm.atan, "atan2": sm.atan2, "sinh": sm.sinh, "cosh": sm.cosh,
          "tanh": sm.tanh, "_Rational": sm.Rational, "t": T,
          "dot": lambda q: q.diff(T)}
    m.parameters, m.defaults = [], {}
    m.coordinates = []
    m.T, m.V = None, sm.S.Zero
    m.forces = {}
    m.constraints = []
    m.speed_names, m.speeds = [], []
    m.velocity_speeds, m.velocities = [], {}
    m.dependent = []
    m.formulation = "gibbs_appell"
    for s in _statements(rest):
        where = f"{struct}: `{' '.join(s.split())[:50]}`"
        head = re.match(r"[A-Za-z_]\w*", s)
        head = head.group(0) if head else ""
        is_block = re.match(r"[A-Za-z_]\w*\s*(\([^()]*\))?\s*\{", s) is not None
        inner = s[s.find("{") + 1:s.rfind("}")] if is_block else ""
        if head == "parameters" and is_block:
            for item in _split_top(inner, ","):
                pname, _, dflt = item.partition("=")
                pname = pname.strip()
                sym = sm.Symbol(pname)
                m.parameters.append(sym)
                ns[_py(pname)] = sym
                if dflt.strip():
                    try:
                        m.defaults[sym] = float(dflt)
                    except ValueError:
                        m.defaults[sym] = float(_eval(dflt, {"_Rational": sm.Rational},
                                                      where))
        elif head == "coordinates" and is_block:
            names = [c.strip() for c in inner.split(",") if c.strip()]
            m.coordinates = [me.dynamicsymbols(n) for n in names]
            ns.update({_py(n): q for n, q in zip(names, m.coordinates)})
        elif head == "forces" and is_block:
            for item in _split_top(inner, ",;"):
                qn, _, e = item.partition(":")
                qn = qn.strip()
                if qn.split()[0] in ("at", "on", "between"):
                    raise NotImplementedError(f"{where}: 3D force `{qn}` is not read")
                q = ns.get(_py(qn))
                if q not in m.coordinates:
                    raise DslError(f"{where}: force on unknown coordinate {qn}")
                m.forces[q] = m.forces.get(q, 0) + _eval(e, ns, where)
        elif head == "constraints" and is_block:
            for c in _split_top(inner, ";"):
                lhs, sep, rhs = c.partition("==")
                if not sep:
                    raise DslError(f"{where}: constraint without `==`: {c!r}")
                m.constraints.append(_eval(lhs, ns, where) - _eval(rhs, ns, where))
        elif head == "speeds" and is_block:
            for item in _split_top(inner, ";"):
                zn, _, e = item.partition("=")
                m.speed_names.append(zn.strip())
                m.speeds.append(_eval(e, ns, where))
        elif head == "velocities" and is_block:
            args = s[s.find("(") + 1:s.find(")")]
            m.speed_names = [a.strip() for a in args.split(",") if a.strip()]
            m.velocity_speeds = [me.dynamicsymbols(z) for z in m.speed_names]
            vns = dict(ns)
            vns.update({_py(z): u for z, u in zip(m.speed_names, m.velocity_speeds)})
            for item in _split_top(inner, ";"):
                lhs, _, e = item.partition("=")
                q = _eval(lhs, vns, where)        # dot(q)
                m.velocities[q] = _eval(e, vns, where)
        elif head == "dependent" and is_block:
            m.dependent = [ns[_py(c.strip())] for c in inner.split(",") if c.strip()]
        elif head == "formulation" and not is_block:
            m.formulation = s.partition("=")[2].strip()
        elif head == "let" and not is_block:
            lhs, _, e = s[3:].partition("=")
            ns[_py(lhs.strip())] = _eval(e, ns, where)
        elif head == "kinetic_energy" and not is_block:
            m.T = _eval(s.partition("=")[2], ns, where)
        elif head == "potential_energy" and not is_block:
            m.V = _eval(s.partition("=")[2], ns, where)
        elif head in _KINEMATICS_ITEMS:
            raise NotImplementedError(f"{where}: the 3D kinematics item `{head}` is not "
                                      "read by nonholo_dsl.py")
        else:
            raise DslError(f"unhandled DSL statement in {where}")
    if not m.coordinates:
        raise DslError(f"{struct}: no coordinates")
    if m.T is None:
        raise DslError(f"{struct}: no kinetic_energy")
    return m


def _show(d):
    print(d, {str(k): v for k, v in d.defaults.items()}, d.formulation)
    print("  T =", d.T)
    print("  V =", d.V)
    print("  Q =", d.forces)
    print("  C =", d.constraints)
    print("  z =", d.speeds or d.velocities)


if __name__ == "__main__":
    import sys
    args = [a for a in sys.argv[1:] if a != "--all"]
    here = os.path.dirname(os.path.abspath(__file__))
    path = args[0] if args else os.path.join(here, "..", "..", "src")
    names = list_models(path) if "--all" in sys.argv[1:] else \
        ["VerticalDisk", "RollingDiskPendulum"]
    for n in names:
        try:
            _show(load(n, path))
        except NotImplementedError as e:
            print(f"{n}: skipped ({e})")
