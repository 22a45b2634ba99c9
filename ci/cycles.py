#!/usr/bin/env python3
"""Which files of a Rust crate depend on which, and the cycles among them.

    python3 ci/cycles.py nonholo-macros/src [more/src ...] [--allow-submodules] [-v]
        [--edges] [--tests] [--no-methods]

A file A depends on file B when A names an item defined in B: through a `use`
(`use super::x::T`, `use crate::a::b::{f, g}`, `use child::T` in a mod.rs, a glob
`use super::x::*`), or through a qualified path in code (`super::x::f(..)`,
`crate::a::b::T`, `child::f(..)`). Paths are resolved the way rustc does for the
crate's own modules: `mod` declarations from lib.rs (or main.rs) give the module tree,
a module `a::b` is `a/b.rs`, `a/b/mod.rs`, an inline `mod b { .. }` or a
`#[path = ".."]`, and re-exports (`pub use x::T` in a mod.rs) are followed to the file
that defines the item, so a re-export alone is no dependency of the re-exporting file.
Names that resolve outside the crate (std, syn, ..) are ignored.

Methods that one file adds to a type defined in another (`impl Graph { fn func }` in
func.rs, `Graph` in graph.rs) make every file calling them (`g.func(..)`) depend on the
file that defines them. Calls are matched by name, without types: a call counts when the
calling file names the type (or defines it) and names no other type of the crate with a
method of that name. Such edges read "method" in the reasons (-v).

`#[cfg(test)]` items (test modules, test-only files) are skipped unless --tests: tests
use the whole pipeline. With --allow-submodules, a module's file may use the files of
its own submodules (a mod.rs dispatching to its children, which use its shared types):
only edges that do not go from a module down into its own submodules make cycles.

Not seen: macros by name, items brought in by a glob from a macro, types only reached
through inference. Exits 1 when there is a cycle.
"""

import argparse
import os
import re
import sys
from collections import defaultdict

ITEM_KW = {"fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod"}
TESTS = False  # read `#[cfg(test)]` code too (--tests)


# ---------------------------------------------------------------- tokens


def tokenize(text):
    """(kind, value, line) for identifiers ('id'), strings ('str': their text, escapes
    kept) and punctuation ('p': '::', '->', '=>' or one character).

    Comments, raw strings, char and number literals and lifetimes are dropped.
    """
    toks = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
        elif (m := re.compile(r'b?r(#*)"').match(text, i)) and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            end = '"' + m.group(1)
            j = text.find(end, m.end())
            j = n if j < 0 else j + len(end)
            line += text.count("\n", i, j)
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i)):
            i = i + 1 if c == '"' else i + 2
            start, first = i, line
            while i < n and text[i] != '"':
                if text[i] == "\\":
                    i += 1
                line += text[i] == "\n"
                i += 1
            toks.append(("str", text[start:i], first))
            i += 1
        elif c == "'":
            # char literal or lifetime
            m = re.compile(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'])'").match(text, i)
            if m:
                i = m.end()
            else:
                m = re.compile(r"'[A-Za-z_][A-Za-z0-9_]*").match(text, i)
                i = m.end() if m else i + 1
        elif c.isalpha() or c == "_":
            m = re.compile(r"(r#)?[A-Za-z_][A-Za-z0-9_]*").match(text, i)
            word = m.group(0)
            if word.startswith("r#"):
                word = word[2:]
            toks.append(("id", word, line))
            i = m.end()
        elif c.isdigit():
            m = re.compile(r"[0-9][0-9A-Za-z_]*(\.[0-9][0-9A-Za-z_]*)?").match(text, i)
            i = m.end()
        elif text.startswith(("::", "->", "=>"), i):
            toks.append(("p", text[i : i + 2], line))
            i += 2
        else:
            toks.append(("p", c, line))
            i += 1
    return toks


# ---------------------------------------------------------------- modules


class Module:
    def __init__(self, path, file):
        self.path = path  # tuple of names from the crate root
        self.file = file  # the file that holds the module's items
        self.children = {}  # name -> module path (file or inline)
        self.items = set()  # names of items defined here
        self.uses = []  # Use
        self.paths = []  # (segments, line): qualified paths in code
        self.impls = []  # (type path segments, [method names], trait impl?)
        self.mentions = set()  # every identifier of the module's code
        self.calls = {}  # method name -> line of its first call (`.m(`, `Self::m(`)


class Use:
    def __init__(self, name, segs, glob, public, line):
        self.name = name  # the name it binds (None for a glob)
        self.segs = segs
        self.glob = glob
        self.public = public
        self.line = line


def parse_use_tree(toks, i, prefix, out, line):
    """Parse one use tree at toks[i]; append (name, segs, glob) to out; return next i."""
    segs = list(prefix)
    while True:
        kind, val, _ = toks[i]
        if val == "{":
            i += 1
            while toks[i][1] != "}":
                i = parse_use_tree(toks, i, segs, out, line)
                if toks[i][1] == ",":
                    i += 1
            return i + 1
        if val == "*":
            out.append((None, segs, True))
            return i + 1
        if kind == "id":
            segs.append(val)
            i += 1
            if toks[i][1] == "::":
                i += 1
                continue
            name = val
            if toks[i][1] == "as":
                name = toks[i + 1][1]
                i += 2
            if val == "self":
                segs = segs[:-1]
                name = segs[-1] if name == "self" else name
            out.append((name, segs, False))
            return i
        raise SyntaxError(f"line {line}: unexpected {val!r} in use")


def skip_group(toks, i):
    """toks[i] opens (, [ or {: index after the matching close."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[toks[i][1]]]
    i += 1
    while stack:
        v = toks[i][1]
        if toks[i][0] == "p":
            if v in pairs:
                stack.append(pairs[v])
            elif v == stack[-1]:
                stack.pop()
        i += 1
    return i


def skip_item(toks, i):
    """Index after the item starting at toks[i] (more attributes, then up to its `;` or
    the end of its first `{ .. }` body)."""
    while toks[i][1] == "#":
        i = skip_group(toks, i + 1)
    is_use = any(t[1] == "use" for t in toks[i : i + 5])
    while toks[i][1] != "<eof>":
        v = toks[i][1]
        if v == ";":
            return i + 1
        if v == "{" and not is_use:
            return skip_group(toks, i)
        if v in ("(", "[", "{"):
            i = skip_group(toks, i)
            continue
        i += 1
    return i


def parse_impl_header(toks, i):
    """toks[i] is `impl`: (type segments, trait impl?, index of the body's `{`)."""
    start = i
    i += 1
    angle = 0
    parts = [[]]  # path segments split at `for`
    trait = False
    while True:
        kind, val, line = toks[i]
        if val == "<eof>":
            raise SyntaxError(f"line {toks[start][2]}: no body for this impl")
        if kind == "p" and val == "<":
            angle += 1
        elif kind == "p" and val == ">":
            angle -= 1
        elif angle == 0 and val == "{":
            break
        elif angle == 0 and val == "where":
            while toks[i][1] != "{":
                i += 1
            break
        elif angle == 0 and val == "for":
            trait = True
            parts.append([])
        elif angle == 0 and kind == "id":
            parts[-1].append(val)
        i += 1
    return parts[-1], trait, i


def scan_file(path, modpath, modules):
    """Parse one file into `modules` (its own module and inline ones); returns its
    `mod x;` declarations as (name, module path, declaring module, `#[path]` or None)."""
    text = open(path, encoding="utf-8").read()
    toks = tokenize(text) + [("p", "<eof>", 0)] * 4
    decls = []
    top = modules.setdefault(modpath, Module(modpath, path))
    # scope stack: (module, brace depth of its body)
    scopes = [(top, 0)]
    impl_stack = []  # (record, body depth)
    depth = 0
    i = 0
    next_path = None  # a `#[path = ".."]` for the next `mod x;`
    while toks[i][1] != "<eof>":
        kind, val, line = toks[i]
        mod, mdepth = scopes[-1]
        item_level = depth == mdepth
        if kind == "id":
            mod.mentions.add(val)
        if kind == "p" and val == "{":
            depth += 1
            i += 1
            continue
        if kind == "p" and val == "}":
            depth -= 1
            if len(scopes) > 1 and depth < scopes[-1][1]:
                scopes.pop()
            if impl_stack and depth < impl_stack[-1][1]:
                impl_stack.pop()
            i += 1
            continue
        if kind == "p" and val == "#":
            # attribute: skip it whole (`#[cfg(test)]`, `#![allow(..)]`)
            j = i + 1
            if toks[j][1] == "!":
                j += 1
            if toks[j][1] == "[":
                end = skip_group(toks, j)
                attr = [t[1] for t in toks[j + 1 : end - 1]]
                if attr == ["cfg", "(", "test", ")"] and not TESTS and toks[j - 1][1] != "!":
                    # test-only: the item (or statement) it gates is not read
                    i = skip_item(toks, end)
                else:
                    if attr[:2] == ["path", "="]:
                        next_path = toks[j + 3][1]
                    i = end
                continue
        if kind == "id" and val == "use" and toks[i - 1][1] != "." and toks[i + 1][0] in ("id", "p"):
            public = toks[i - 1][1] == "pub" or (
                toks[i - 1][1] == ")" and any(t[1] == "pub" for t in toks[max(0, i - 5) : i])
            )
            out = []
            j = i + 1
            if toks[j][1] == "::":
                j += 1
            try:
                j = parse_use_tree(toks, j, [], out, line)
            except (SyntaxError, IndexError):
                i += 1  # not a use declaration (inside a macro's tokens)
                continue
            for name, segs, glob in out:
                mod.uses.append(Use(name, segs, glob, public, line))
            i = j
            continue
        if kind == "id" and item_level and val == "impl" and toks[i + 1][1] != "(":
            segs, trait, body = parse_impl_header(toks, i)
            rec = (segs, [], trait, line)
            mod.impls.append(rec)
            impl_stack.append((rec, depth + 1))
            for t in toks[i:body]:
                if t[0] == "id":
                    mod.mentions.add(t[1])
            i = body
            continue
        if kind == "id" and val == "fn" and impl_stack and depth == impl_stack[-1][1]:
            if toks[i + 1][0] == "id":
                impl_stack[-1][0][1].append(toks[i + 1][1])
        if kind == "id" and val == "trait" and item_level and toks[i + 1][0] == "id":
            # a trait's methods are methods of the crate too (ambiguity of names)
            j = i + 2
            while toks[j][1] != "{":
                j += 1
            end = skip_group(toks, j)
            rec = ([toks[i + 1][1]], [], True, line)
            mod.impls.append(rec)
            d = 0
            for k in range(j, end):
                if toks[k][1] == "{":
                    d += 1
                elif toks[k][1] == "}":
                    d -= 1
                elif toks[k][1] == "fn" and d == 1 and toks[k + 1][0] == "id":
                    rec[1].append(toks[k + 1][1])
        if kind == "id" and item_level and val in ITEM_KW and toks[i + 1][0] == "id":
            name = toks[i + 1][1]
            if val == "mod":
                child = mod.path + (name,)
                if toks[i + 2][1] == ";":
                    mod.children[name] = child
                    decls.append((name, child, mod, next_path))
                    next_path = None
                    i += 3
                    continue
                if toks[i + 2][1] == "{":
                    mod.children[name] = child
                    inner = modules.setdefault(child, Module(child, path))
                    depth += 1
                    scopes.append((inner, depth))
                    i += 3
                    continue
            elif not (val == "const" and name == "fn") and not (
                val == "type" and toks[i - 1][1] == "impl"
            ):
                mod.items.add(name)
        if kind == "id" and item_level and val == "thread_local" and toks[i + 1][1] == "!":
            end = skip_group(toks, i + 2)
            for k in range(i + 2, end - 1):
                if toks[k][1] == "static" and toks[k + 1][0] == "id":
                    mod.items.add(toks[k + 1][1])
            i = end
            continue
        if kind == "id" and val == "macro_rules" and toks[i + 1][1] == "!":
            mod.items.add(toks[i + 2][1])
        # a method call: `.name(`, `.name::<T>(`, `Self::name(`
        if kind == "p" and val == "." and toks[i + 1][0] == "id" and toks[i + 2][1] in ("(", "::"):
            mod.calls.setdefault(toks[i + 1][1], line)
        if kind == "id" and val == "Self" and toks[i + 1][1] == "::" and toks[i + 2][0] == "id":
            mod.calls.setdefault(toks[i + 2][1], line)
        # a qualified path: IDENT :: IDENT ...
        if kind == "id" and toks[i + 1][1] == "::" and toks[i - 1][1] != "::" and val != "Self":
            segs = [val]
            j = i + 1
            while toks[j][1] == "::" and toks[j + 1][0] == "id":
                segs.append(toks[j + 1][1])
                j += 2
            if len(segs) > 1:
                mod.paths.append((segs, line))
            for s in segs:
                mod.mentions.add(s)
            i = j
            continue
        i += 1
    return decls


def load_crate(src):
    root = None
    for name in ("lib.rs", "main.rs"):
        if os.path.exists(os.path.join(src, name)):
            root = os.path.join(src, name)
            break
    if root is None:
        sys.exit(f"{src}: no lib.rs or main.rs")
    modules = {}
    pending = [(root, ())]
    while pending:
        path, modpath = pending.pop()
        for name, child, parent, attr_path in scan_file(path, modpath, modules):
            # where `mod name;` in `parent` looks for its file
            pfile = parent.file
            if attr_path is not None:
                pending.append((os.path.join(os.path.dirname(pfile), attr_path), child))
                continue
            base = os.path.dirname(pfile)
            stem = os.path.splitext(os.path.basename(pfile))[0]
            if stem not in ("lib", "main", "mod"):
                base = os.path.join(base, stem)
            inline = list(parent.path[len(modules_file_path(modules, pfile)) :])
            base = os.path.join(base, *inline)
            cands = [os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")]
            found = [c for c in cands if os.path.exists(c)]
            if not found:
                print(f"warning: no file for mod {'::'.join(child)}", file=sys.stderr)
                continue
            pending.append((found[0], child))
    return modules


def modules_file_path(modules, file):
    """The module path of the file-level module of `file`."""
    best = None
    for m in modules.values():
        if m.file == file and (best is None or len(m.path) < len(best)):
            best = m.path
    return best


# ---------------------------------------------------------------- resolution


class Resolver:
    def __init__(self, modules):
        self.modules = modules

    def lookup(self, modpath, name, seen):
        """A name in a module: ('mod', path) | ('item', file) | None."""
        key = (modpath, name)
        if key in seen:
            return None
        seen = seen | {key}
        m = self.modules.get(modpath)
        if m is None:
            return None
        if name in m.children:
            return ("mod", m.children[name])
        if name in m.items:
            return ("item", m.file)
        for u in m.uses:
            if not u.glob and u.name == name:
                r = self.resolve(modpath, u.segs, seen)
                if r:
                    return r
        for u in m.uses:
            if u.glob:
                r = self.resolve(modpath, u.segs, seen)
                if r and r[0] == "mod":
                    r2 = self.lookup(r[1], name, seen)
                    if r2:
                        return r2
        return None

    def resolve(self, modpath, segs, seen=frozenset()):
        """A path as written in module `modpath`: ('mod', path) | ('item', file) | None."""
        i = 0
        if segs[0] == "crate":
            cur, i = (), 1
        elif segs[0] == "self":
            cur, i = modpath, 1
        elif segs[0] == "super":
            cur = modpath
        else:
            r = self.lookup(modpath, segs[0], seen)
            if r is None or r[0] == "item":
                return r
            cur, i = r[1], 1
        while i < len(segs) and segs[i] == "super":
            cur, i = cur[:-1], i + 1
        for s in segs[i:]:
            r = self.lookup(cur, s, seen)
            if r is None or r[0] == "item":
                return r
            cur = r[1]
        return ("mod", cur)

    def file_of(self, r):
        if r is None:
            return None
        if r[0] == "item":
            return r[1]
        m = self.modules.get(r[1])
        return m.file if m else None


def dependencies(modules, with_methods=True, allow_submodules=False):
    """{file: {dep file: [reasons]}}."""
    res = Resolver(modules)
    deps = defaultdict(lambda: defaultdict(list))
    files = sorted({m.file for m in modules.values()})
    for f in files:
        deps[f]
    for m in modules.values():
        for u in m.uses:
            if u.public and not u.glob and u.name not in m.mentions:
                continue  # a re-export only
            t = res.file_of(res.resolve(m.path, u.segs))
            if t and t != m.file:
                deps[m.file][t].append(f"{u.line}: use {'::'.join(u.segs)}{'::*' if u.glob else ''}")
        for segs, line in m.paths:
            t = res.file_of(res.resolve(m.path, segs))
            if t and t != m.file:
                deps[m.file][t].append(f"{line}: {'::'.join(segs)}")
    if with_methods:
        method_edges(modules, res, deps)
    if allow_submodules:
        # a module's file may use the files of its own submodules
        path_of = {}
        for m in modules.values():
            if m.file not in path_of or len(m.path) < len(path_of[m.file]):
                path_of[m.file] = m.path
        for f in list(deps):
            for t in list(deps[f]):
                pf, pt = path_of[f], path_of[t]
                if len(pt) > len(pf) and pt[: len(pf)] == pf:
                    del deps[f][t]
    return deps


def method_edges(modules, res, deps):
    # every method name of the crate -> the types that have one of that name
    owners = defaultdict(set)
    ext = []  # (method, type file, impl file, type name)
    for m in modules.values():
        for segs, methods, trait, _ in m.impls:
            if not segs:
                continue
            tfile = res.file_of(res.resolve(m.path, segs)) if not trait else None
            for name in methods:
                owners[name].add(segs[-1])
                if not trait and tfile and tfile != m.file:
                    ext.append((name, tfile, m.file, segs[-1]))
    for name, tfile, ifile, tname in ext:
        others = owners[name] - {tname}
        for m in modules.values():
            if m.file == ifile:
                continue
            if not (m.file == tfile or tname in m.mentions):
                continue
            if others & m.mentions:
                continue  # another type it names has a method of that name: cannot tell
            line = m.calls.get(name)
            for segs, l in m.paths:
                if segs[-2:] == [tname, name]:
                    line = l if line is None else min(line, l)
            if line is not None:
                deps[m.file][ifile].append(f"{line}: method {tname}::{name}")


# ---------------------------------------------------------------- cycles


def sccs(graph):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def elementary_cycles(graph, comp, limit=50):
    """Simple cycles inside one strongly connected component, shortest first."""
    comp = set(comp)
    found = []
    order = sorted(comp)
    for si, s in enumerate(order):
        allowed = set(order[si:])

        def dfs(v, path, on_path):
            for w in sorted(graph[v]):
                if w == s:
                    found.append(path[:])
                elif w in allowed and w not in on_path and len(found) < limit * 4:
                    on_path.add(w)
                    path.append(w)
                    dfs(w, path, on_path)
                    path.pop()
                    on_path.discard(w)

        dfs(s, [s], {s})
    found.sort(key=lambda c: (len(c), c))
    return found[:limit]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", nargs="+", help="a crate's src directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="why each edge of a cycle")
    ap.add_argument("--edges", action="store_true", help="print every file's dependencies")
    ap.add_argument("--no-methods", action="store_true", help="ignore method-call edges")
    ap.add_argument("--tests", action="store_true", help="read #[cfg(test)] code too")
    ap.add_argument(
        "--allow-submodules",
        action="store_true",
        help="a module's file (mod.rs) may use its own submodules' files: only the "
        "other direction counts",
    )
    args = ap.parse_args()
    global TESTS
    TESTS = args.tests
    bad = False
    for src in args.src:
        src = os.path.normpath(src)
        modules = load_crate(src)
        deps = dependencies(modules, not args.no_methods, args.allow_submodules)
        rel = os.path.relpath
        graph = {f: set(d) for f, d in deps.items()}
        if args.edges:
            for f in sorted(graph):
                print(f"{rel(f)} -> {', '.join(rel(t) for t in sorted(graph[f])) or '-'}")
            print()
        comps = [c for c in sccs(graph) if len(c) > 1]
        nfiles = len(graph)
        nedges = sum(len(v) for v in graph.values())
        if not comps:
            print(f"{src}: {nfiles} files, {nedges} dependencies between them, no cycle")
            continue
        bad = True
        print(
            f"{src}: {nfiles} files, {nedges} dependencies between them; "
            f"{sum(map(len, comps))} files in {len(comps)} group(s) of files that depend on "
            "each other, through these cycles:"
        )
        for c in sorted(comps, key=lambda c: (len(c), c)):
            for cyc in elementary_cycles(graph, c):
                print("  " + " -> ".join(rel(f) for f in cyc + [cyc[0]]))
                if args.verbose:
                    for a, b in zip(cyc, cyc[1:] + [cyc[0]]):
                        why = deps[a][b]
                        print(f"      {rel(a)} -> {rel(b)}: " + "; ".join(why[:4]) + (" ..." if len(why) > 4 else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
