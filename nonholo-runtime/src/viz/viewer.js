// nonholo viewer: plays the poses embedded in #nonholo-data on a Canvas 2D, with its own
// small 3D renderer (orbit camera, perspective, painter's algorithm). The same maths as
// nonholo-runtime/src/viz/{camera,scene}.rs, which draw the PNG and GIF pictures.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("nonholo-data").textContent);

  // ---- data ---------------------------------------------------------------------------
  var n = D.t.length, np = D.points.length, nf = D.frames.length;
  var T = new Float64Array(n), P = new Float64Array(D.P.length);
  var R = new Float64Array(D.R.length), F = new Float64Array(D.F.length);
  var i, k;
  for (i = 0; i < n; i++) T[i] = D.t0 + D.t[i] * D.tq;
  for (i = 0; i < D.P.length; i++) P[i] = D.P[i] * D.pq;
  for (i = 0; i < D.R.length; i++) R[i] = D.R[i] * D.rq;
  for (i = 0; i < D.F.length; i++) F[i] = D.F[i] * D.pq;
  var t0 = T[0], t1 = T[n - 1];
  // contact forces (optional): per sample and contact the point, the force on the wheel,
  // the normal force and the friction utilization
  var CT = D.contacts || null, nct = CT ? CT.names.length : 0, CW = 8;
  var CF = new Float64Array(CT ? CT.C.length : 0);
  for (i = 0; i < CF.length; i++) {
    k = i % CW;
    CF[i] = CT.C[i] * (k < 3 ? D.pq : k < 7 ? CT.fq : CT.uq);
  }

  // ---- vectors ------------------------------------------------------------------------
  function add(a, b) { return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]; }
  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function scl(a, s) { return [a[0] * s, a[1] * s, a[2] * s]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function cross(a, b) {
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  }
  function norm(a) { return Math.sqrt(dot(a, a)); }
  function unit(a) { var l = norm(a); return l > 1e-300 ? scl(a, 1 / l) : a; }
  function rot(r, c) {
    return [r[0] * c[0] + r[1] * c[1] + r[2] * c[2],
            r[3] * c[0] + r[4] * c[1] + r[5] * c[2],
            r[6] * c[0] + r[7] * c[1] + r[8] * c[2]];
  }
  function planeBasis(nv) {
    var x = Math.abs(nv[0]) > 0.9 ? [0, 1, 0] : [1, 0, 0];
    var e1 = unit(sub(x, scl(nv, dot(x, nv))));
    return [e1, cross(nv, e1)];
  }
  function perpendicular(nv) {
    var a = [Math.abs(nv[0]), Math.abs(nv[1]), Math.abs(nv[2])];
    var e = a[0] <= a[1] && a[0] <= a[2] ? [1, 0, 0] : (a[1] <= a[2] ? [0, 1, 0] : [0, 0, 1]);
    return unit(cross(nv, e));
  }
  function niceStep(x) {
    var p = Math.pow(10, Math.floor(Math.log10(x))), m = x / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }
  function rgb(c, a) {
    var s = Math.round(c[0]) + "," + Math.round(c[1]) + "," + Math.round(c[2]);
    return a === undefined || a >= 1 ? "rgb(" + s + ")" : "rgba(" + s + "," + a.toFixed(3) + ")";
  }
  function shadeC(c, s) { return [c[0] * s, c[1] * s, c[2] * s]; }
  function mix(a, b, w) { return [a[0] + (b[0] - a[0]) * w, a[1] + (b[1] - a[1]) * w, a[2] + (b[2] - a[2]) * w]; }

  // ---- poses --------------------------------------------------------------------------
  function locate(t) {
    if (n < 2 || t <= T[0]) return [0, 0];
    if (t >= T[n - 1]) return [n - 2, 1];
    var lo = 0, hi = n - 1;
    while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (T[mid] <= t) lo = mid; else hi = mid; }
    var a = T[lo], b = T[lo + 1];
    return [lo, b > a ? (t - a) / (b - a) : 0];
  }
  function poseAt(t) {
    var l = locate(t), a = l[0], w = l[1], b = Math.min(a + 1, n - 1);
    var pos = [], rots = [], j, c, r;
    for (j = 0; j < np; j++) {
      var ia = (a * np + j) * 3, ib = (b * np + j) * 3;
      pos.push([P[ia] + w * (P[ib] - P[ia]), P[ia + 1] + w * (P[ib + 1] - P[ia + 1]),
                P[ia + 2] + w * (P[ib + 2] - P[ia + 2])]);
    }
    for (j = 0; j < nf; j++) {
      var ra = (a * nf + j) * 9, rb = (b * nf + j) * 9;
      r = new Array(9);
      for (c = 0; c < 3; c++) {
        var col = [0, 0, 0];
        for (k = 0; k < 3; k++) col[k] = R[ra + 3 * k + c] + w * (R[rb + 3 * k + c] - R[ra + 3 * k + c]);
        col = unit(col);
        for (k = 0; k < 3; k++) r[3 * k + c] = col[k];
      }
      rots.push(r);
    }
    return { pos: pos, rot: rots };
  }
  function contactsAt(t) {
    var l = locate(t), a = l[0], w = l[1], b = Math.min(a + 1, n - 1), out = [], j, c;
    function at(off) { return CF[a * nct * CW + off] + w * (CF[b * nct * CW + off] - CF[a * nct * CW + off]); }
    for (j = 0; j < nct; j++) {
      var o = j * CW, v = [];
      for (c = 0; c < CW; c++) v.push(at(o + c));
      out.push({ p: [v[0], v[1], v[2]], f: [v[3], v[4], v[5]], N: v[6], u: v[7] });
    }
    return out;
  }
  function followAt(t) {
    var l = locate(t), a = l[0], w = l[1], b = Math.min(a + 1, n - 1);
    return [0, 1, 2].map(function (c) { return F[3 * a + c] + w * (F[3 * b + c] - F[3 * a + c]); });
  }

  // ---- camera (camera.rs) -------------------------------------------------------------
  var V = D.view, up = unit(V.up), DEG = Math.PI / 180;
  var state = {
    t: t0, playing: true, speed: D.speed, follow: V.follow, forces: !!CT,
    az: V.az * DEG, el: V.el * DEG, dist: V.dist, pan: [0, 0, 0]
  };
  function radius() { return state.follow ? V.rFollow : V.rWhole; }
  function fitDistance() { return state.follow ? V.distFollow : V.distWhole; }
  function targetAt(t) { return add(state.follow ? followAt(t) : V.target, state.pan); }
  function makeCamera(target, W, H) {
    var b = planeBasis(up), e1 = b[0], e2 = b[1];
    var ca = Math.cos(state.az), sa = Math.sin(state.az), ce = Math.cos(state.el), se = Math.sin(state.el);
    var back = add(scl(add(scl(e1, ca), scl(e2, sa)), ce), scl(up, se));
    var right = unit(cross(up, back)), cup = cross(back, right);
    return {
      eye: add(target, scl(back, state.dist)), right: right, up: cup, back: back,
      f: 0.5 * Math.min(W, H) / Math.tan(0.5 * V.fov * DEG), cx: 0.5 * W, cy: 0.5 * H,
      near: 1e-3 * state.dist
    };
  }
  function toCam(cam, p) {
    var v = sub(p, cam.eye);
    return [dot(v, cam.right), dot(v, cam.up), -dot(v, cam.back)];
  }
  function screen(cam, c) { return [cam.cx + cam.f * c[0] / c[2], cam.cy - cam.f * c[1] / c[2], c[2]]; }
  function project(cam, p) { return screen(cam, toCam(cam, p)); }
  var LIGHT = unit([-0.4, 0.7, 0.6]);
  function shade(cam, nv) {
    var c = [dot(nv, cam.right), dot(nv, cam.up), dot(nv, cam.back)];
    return 0.55 + 0.45 * Math.abs(dot(c, LIGHT));
  }

  // ---- primitives (scene.rs) ----------------------------------------------------------
  var GRID_REACH = 3.0, GRID_PIECES = 8, DISK_SIDES = 48, ELL_LAT = 12, ELL_LON = 24;
  var CYL_SIDES = 20, SEGMENT_WIDTH = 0.012, DOT_RADIUS = 4.5, TRAIL_WIDTH = 2.0;
  var TORUS_SIDES = 48, TORUS_CROWN_SIDES = 10, TORUS_MARK_EVERY = 12;

  function clipLine(cam, a, b) {
    var ca = toCam(cam, a), cb = toCam(cam, b);
    if (ca[2] < cam.near && cb[2] < cam.near) return null;
    if (ca[2] < cam.near || cb[2] < cam.near) {
      var s = (cam.near - ca[2]) / (cb[2] - ca[2]), m = add(ca, scl(sub(cb, ca), s));
      if (ca[2] < cam.near) ca = m; else cb = m;
    }
    var pa = screen(cam, ca), pb = screen(cam, cb);
    return [[pa[0], pa[1]], [pb[0], pb[1]], 0.5 * (ca[2] + cb[2])];
  }
  function screenPoly(cam, pts) {
    var out = [], depth = 0;
    for (var j = 0; j < pts.length; j++) {
      var s = project(cam, pts[j]);
      if (s[2] < cam.near) return null;
      depth += s[2];
      out.push([s[0], s[1]]);
    }
    return [out, depth / pts.length];
  }
  function outward(pts, inside) {
    var m = pts.length;
    var d1 = sub(pts[m >> 1], pts[0]), d2 = sub(pts[Math.max(1, (3 * m) >> 2) % m], pts[m >> 2]);
    var nv = unit(cross(d1, d2)), c = [0, 0, 0];
    for (var j = 0; j < m; j++) c = add(c, pts[j]);
    c = scl(c, 1 / m);
    return dot(nv, sub(c, inside)) < 0 ? scl(nv, -1) : nv;
  }
  function face(items, cam, pts, nv, color) {
    if (dot(nv, sub(cam.eye, pts[0])) <= 0) return;
    var s = screenPoly(cam, pts);
    if (s) items.push({ d: s[1], p: { k: "poly", pts: s[0], fill: shadeC(color, shade(cam, nv)) } });
  }
  function gridLines(pose, cam, target, px, out) {
    D.shapes.forEach(function (s) {
      if (s.kind !== "grid") return;
      var g0 = pose.pos[s.point], nv = unit(s.up), b = planeBasis(nv), e1 = b[0], e2 = b[1];
      var half = GRID_REACH * radius(), cell = niceStep(half / 5), rel = sub(target, g0);
      var cu = dot(rel, e1), cv = dot(rel, e2);
      [[e1, e2, cu, cv], [e2, e1, cv, cu]].forEach(function (d) {
        var dir = d[0], other = d[1], c0 = d[2], c1 = d[3];
        var k0 = Math.ceil((c0 - half) / cell), k1 = Math.floor((c0 + half) / cell);
        for (var kk = k0; kk <= k1; kk++) {
          var u = kk * cell, du = u - c0, hv = Math.sqrt(Math.max(0, half * half - du * du));
          var axis = kk === 0, base = add(g0, scl(dir, u));
          for (var pc = 0; pc < GRID_PIECES; pc++) {
            var v0 = c1 - hv + 2 * hv * pc / GRID_PIECES, v1 = c1 - hv + 2 * hv * (pc + 1) / GRID_PIECES;
            var vm = 0.5 * (v0 + v1) - c1, rho2 = (du * du + vm * vm) / (half * half);
            var alpha = Math.max(0, 0.85 * (1 - rho2));
            var l = clipLine(cam, add(base, scl(other, v0)), add(base, scl(other, v1)));
            if (l) out.push({ k: "line", a: l[0], b: l[1], w: axis ? 1.8 * px : px,
              color: axis ? shadeC(s.color, 0.8) : s.color, alpha: alpha, round: false });
          }
        }
      });
    });
  }
  var SHADOW_ALPHA = 0.12;
  function hull(p) {
    p = p.slice().sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    p = p.filter(function (q, j) { return j === 0 || q[0] !== p[j - 1][0] || q[1] !== p[j - 1][1]; });
    if (p.length < 3) return p;
    function turn(o, a, b) { return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]); }
    var h = [];
    [p, p.slice().reverse()].forEach(function (pts) {
      var start = h.length;
      pts.forEach(function (q) {
        while (h.length >= start + 2 && turn(h[h.length - 2], h[h.length - 1], q) <= 0) h.pop();
        h.push(q);
      });
      h.pop();
    });
    return h;
  }
  function ring(c, a, b, m) {
    var out = [];
    for (var j = 0; j < m; j++) {
      var th = 2 * Math.PI * j / m;
      out.push(add(c, add(scl(a, Math.cos(th)), scl(b, Math.sin(th)))));
    }
    return out;
  }
  function outlinePoints(s, pose) {
    var r, nl, nv, a, b, out, j;
    switch (s.kind) {
      case "disk":
        r = pose.rot[s.frame]; nl = unit(s.normal); nv = rot(r, nl); a = rot(r, perpendicular(nl)); b = cross(nv, a);
        return ring(pose.pos[s.center], scl(a, s.radius), scl(b, s.radius), 24);
      case "torus":
        // the outer equator and the two circles on the crown's sides
        r = pose.rot[s.frame]; nl = unit(s.normal); nv = rot(r, nl); a = rot(r, perpendicular(nl)); b = cross(nv, a);
        var co = pose.pos[s.center], outer = s.major + s.crown;
        return ring(co, scl(a, outer), scl(b, outer), 24)
          .concat(ring(add(co, scl(nv, s.crown)), scl(a, s.major), scl(b, s.major), 24))
          .concat(ring(add(co, scl(nv, -s.crown)), scl(a, s.major), scl(b, s.major), 24));
      case "ellipsoid":
        r = pose.rot[s.frame];
        var ax = [rot(r, s.axes[0]), rot(r, s.axes[1]), rot(r, s.axes[2])];
        out = [];
        for (j = 0; j <= 6; j++) {
          var th = Math.PI * j / 6;
          out = out.concat(ring(add(pose.pos[s.center], scl(ax[2], Math.cos(th))), scl(ax[0], Math.sin(th)), scl(ax[1], Math.sin(th)), 12));
        }
        return out;
      case "cylinder":
        r = pose.rot[s.frame];
        var axis = unit(rot(r, s.axis)), u = scl(rot(r, perpendicular(unit(s.axis))), s.radius);
        var w = scl(cross(axis, unit(u)), s.radius), h = scl(axis, 0.5 * s.length);
        return ring(add(pose.pos[s.center], h), u, w, 12).concat(ring(sub(pose.pos[s.center], h), u, w, 12));
      case "cuboid":
        r = pose.rot[s.frame];
        out = [];
        for (j = 0; j < 8; j++) {
          out.push(add(pose.pos[s.center], rot(r, [j & 1 ? s.half[0] : -s.half[0], j & 2 ? s.half[1] : -s.half[1], j & 4 ? s.half[2] : -s.half[2]])));
        }
        return out;
    }
    return [];
  }
  // uneven grounds (scene/backdrop.rs, ground_cells): the heights the page's writer
  // sampled (html.rs, Patch), made points once; a null height (not finite) is NaN
  var GROUNDS = D.shapes.filter(function (s) { return s.kind === "ground" && s.nu > 1 && s.nv > 1; });
  GROUNDS.forEach(function (g) {
    g.pts = [];
    for (var j = 0; j < g.nv; j++) {
      for (var i = 0; i < g.nu; i++) {
        var z = g.z[j * g.nu + i];
        g.pts.push([g.u0 + i * g.du, g.v0 + j * g.dv, z === null ? NaN : z]);
      }
    }
  });
  // bilinear between the samples, held at the patch's edge beyond it
  function groundHeight(g, u, v) {
    function cell(x, m) {
      x = Math.min(Math.max(x, 0), m - 1);
      var k = Math.min(Math.floor(x), Math.max(m - 2, 0));
      return [k, x - k];
    }
    var a = cell((u - g.u0) / g.du, g.nu), b = cell((v - g.v0) / g.dv, g.nv);
    function z(i, j) { return g.pts[Math.min(j, g.nv - 1) * g.nu + Math.min(i, g.nu - 1)][2]; }
    var i = a[0], j = b[0];
    var lo = z(i, j) + (z(i + 1, j) - z(i, j)) * a[1], hi = z(i, j + 1) + (z(i + 1, j + 1) - z(i, j + 1)) * a[1];
    return lo + (hi - lo) * b[1];
  }
  // cells 0..m-1 along one direction (cell k centred at c0 + (k + 0.5) d), farthest from e first
  function farToNear(m, c0, d, e) {
    var out = [], lo = 0, hi = m - 1;
    while (lo <= hi) {
      if (Math.abs(c0 + (lo + 0.5) * d - e) >= Math.abs(c0 + (hi + 0.5) * d - e)) out.push(lo++);
      else out.push(hi--);
    }
    return out;
  }
  // shaded cells with their lines, farthest first: rows along v by decreasing distance
  // from the eye, within a row the cells along u likewise (what hides a cell of a height
  // field lies between it and the eye both ways, so it comes later)
  function groundCells(cam, px, out) {
    var W = 2 * cam.cx, H = 2 * cam.cy;
    GROUNDS.forEach(function (g) {
      var cu = g.nu - 1, cv = g.nv - 1;
      var S = g.pts.map(function (p) { return project(cam, p); });
      var cols = farToNear(cu, g.u0, g.du, cam.eye[0]);
      farToNear(cv, g.v0, g.dv, cam.eye[1]).forEach(function (j) {
        cols.forEach(function (i) {
          var k = [j * g.nu + i, j * g.nu + i + 1, (j + 1) * g.nu + i + 1, (j + 1) * g.nu + i];
          var c = k.map(function (m) { return g.pts[m]; }), s = k.map(function (m) { return S[m]; });
          if (c.some(function (p) { return !isFinite(p[2]); })) return;
          if (s.some(function (p) { return p[2] < cam.near; })) return;
          function off(a, lo, hi) {
            return s.every(function (p) { return p[a] < lo; }) || s.every(function (p) { return p[a] > hi; });
          }
          if (off(0, 0, W) || off(1, 0, H)) return;
          var sh = shade(cam, unit(cross(sub(c[2], c[0]), sub(c[3], c[1]))));
          var pts = s.map(function (p) { return [p[0], p[1]]; });
          out.push({ k: "poly", pts: pts, fill: shadeC(g.color, sh) });
          // both cells of an edge draw its line, so that the later one does not cover half
          var ink = shadeC(g.color, 0.8 * sh);
          function on(a, m) { return (g.off[a] + m) % g.every === 0; }
          [[on(0, i), 0, 3], [on(0, i + 1), 1, 2], [on(1, j), 0, 1], [on(1, j + 1), 3, 2]].forEach(function (e) {
            if (e[0]) out.push({ k: "line", a: pts[e[1]], b: pts[e[2]], w: px, color: ink, alpha: 1, round: false });
          });
        });
      });
    });
  }
  // shadows fall on the first plane, else on the first ground
  function shadows(pose, cam, out) {
    var g = null, fl;
    for (var j = 0; j < D.shapes.length; j++) if (D.shapes[j].kind === "grid") { g = D.shapes[j]; break; }
    if (g) {
      var g0 = pose.pos[g.point], nv = unit(g.up), b = planeBasis(nv), e1 = b[0], e2 = b[1];
      fl = {
        flat: function (p) { var v = sub(p, g0); return [dot(v, e1), dot(v, e2)]; },
        lift: function (q) { return add(g0, add(scl(e1, q[0]), scl(e2, q[1]))); },
        height: function (p) { return dot(sub(p, g0), nv); }
      };
    } else if (GROUNDS.length) {
      var gr = GROUNDS[0];
      fl = {
        flat: function (p) { return [p[0], p[1]]; },
        lift: function (q) { return [q[0], q[1], groundHeight(gr, q[0], q[1])]; },
        height: function (p) { return p[2] - groundHeight(gr, p[0], p[1]); }
      };
    } else return;
    if (!(fl.height(cam.eye) > 0)) return;
    var flat = fl.flat, lift = fl.lift;
    function above(p) { return fl.height(p) > -1e-9 * D.size; }
    var segW = SEGMENT_WIDTH * D.size;
    D.shapes.forEach(function (s) {
      var sp;
      if (s.kind === "segment") {
        var A = pose.pos[s.from], B = pose.pos[s.to];
        if (!(above(A) || above(B))) return;
        var l = clipLine(cam, lift(flat(A)), lift(flat(B)));
        if (l) out.push({ k: "line", a: l[0], b: l[1], w: segW * cam.f / l[2], color: [0, 0, 0], alpha: SHADOW_ALPHA, round: false });
        return;
      }
      if (s.kind === "sphere") {
        var c = pose.pos[s.center];
        if (!above(c)) return;
        var q = flat(c), pts = [];
        for (var kk = 0; kk < 24; kk++) {
          var th = 2 * Math.PI * kk / 24;
          pts.push(lift([q[0] + s.radius * Math.cos(th), q[1] + s.radius * Math.sin(th)]));
        }
        sp = screenPoly(cam, pts);
        if (sp) out.push({ k: "shadow", pts: sp[0] });
        return;
      }
      var o = outlinePoints(s, pose);
      if (!o.length || !o.some(above)) return;
      var h = hull(o.map(flat));
      if (h.length < 3) return;
      sp = screenPoly(cam, h.map(lift));
      if (sp) out.push({ k: "shadow", pts: sp[0] });
    });
  }
  function trailLines(pose, t, cam, px, out) {
    var l = locate(t), upto = (l[0] + 1 < n && T[l[0] + 1] <= t) ? l[0] + 1 : l[0];
    D.trails.forEach(function (tr) {
      var pts = [];
      for (var s = 0; s <= Math.min(upto, n - 1); s++) {
        var o = (s * np + tr.point) * 3;
        pts.push([P[o], P[o + 1], P[o + 2]]);
      }
      pts.push(pose.pos[tr.point]);
      var path = [];
      for (var j = 1; j < pts.length; j++) {
        var c = clipLine(cam, pts[j - 1], pts[j]);
        if (c) path.push(c);
      }
      out.push({ k: "path", segs: path, w: TRAIL_WIDTH * px, color: tr.color, alpha: 0.9 });
    });
  }
  function disk(items, cam, c, r, s, px) {
    var nl = unit(s.normal), nv = rot(r, nl), a = rot(r, perpendicular(nl)), b = cross(nv, a);
    var rim = [];
    for (var j = 0; j < DISK_SIDES; j++) {
      var th = 2 * Math.PI * j / DISK_SIDES;
      rim.push(add(c, add(scl(a, s.radius * Math.cos(th)), scl(b, s.radius * Math.sin(th)))));
    }
    var sp = screenPoly(cam, rim);
    if (!sp) return;
    var pts = sp[0], pc = project(cam, c), depth = pc[2];
    var fill = shadeC(s.color, shade(cam, nv)), tyre = shadeC(s.color, 0.45), spoke = mix(fill, [255, 255, 255], 0.55);
    var tw = Math.max(0.08 * s.radius * cam.f / depth, 1.5 * px), sw = Math.max(0.03 * s.radius * cam.f / depth, px);
    var group = [{ k: "poly", pts: pts, fill: fill }];
    for (j = 0; j < 4; j++) {
      var ang = 0.5 * Math.PI * j;
      var tip = project(cam, add(c, add(scl(a, 0.92 * s.radius * Math.cos(ang)), scl(b, 0.92 * s.radius * Math.sin(ang)))));
      group.push({ k: "line", a: [pc[0], pc[1]], b: [tip[0], tip[1]], w: sw, color: spoke, alpha: 1, round: true });
    }
    group.push({ k: "ring", pts: pts, w: tw, color: tyre });
    items.push({ d: depth, p: { k: "group", list: group } });
  }
  // a torus: shaded faces each at its own depth, a darker band every TORUS_MARK_EVERY
  // faces around the axle so that its rolling shows (scene/draw.rs, torus)
  function torus(items, cam, c, r, s) {
    var nl = unit(s.normal), nv = rot(r, nl), a = rot(r, perpendicular(nl)), b = cross(nv, a);
    function radial(th) { return add(scl(a, Math.cos(th)), scl(b, Math.sin(th))); }
    var around = [], section = [], i, j;
    for (i = 0; i <= TORUS_SIDES; i++) around.push(radial(2 * Math.PI * i / TORUS_SIDES));
    for (j = 0; j <= TORUS_CROWN_SIDES; j++) {
      var ph = 2 * Math.PI * j / TORUS_CROWN_SIDES;
      section.push([Math.cos(ph), Math.sin(ph)]);
    }
    function at(ii, jj) {
      return add(c, add(scl(around[ii], s.major + s.crown * section[jj][0]), scl(nv, s.crown * section[jj][1])));
    }
    var mark = s.color.map(function (x) { return Math.floor(x * 7 / 10); });
    for (i = 0; i < TORUS_SIDES; i++) {
      var paint = i % TORUS_MARK_EVERY === 0 ? mark : s.color;
      var out = radial(2 * Math.PI * (i + 0.5) / TORUS_SIDES);
      for (j = 0; j < TORUS_CROWN_SIDES; j++) {
        var pm = 2 * Math.PI * (j + 0.5) / TORUS_CROWN_SIDES;
        face(items, cam, [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)],
          add(scl(out, Math.cos(pm)), scl(nv, Math.sin(pm))), paint);
      }
    }
  }
  function buildItems(pose, cam, px) {
    var items = [], segW = SEGMENT_WIDTH * D.size;
    D.shapes.forEach(function (s, order) {
      var c, r, j, q, a;
      switch (s.kind) {
        case "disk":
          disk(items, cam, pose.pos[s.center], pose.rot[s.frame], s, px);
          break;
        case "torus":
          torus(items, cam, pose.pos[s.center], pose.rot[s.frame], s);
          break;
        case "ellipsoid":
          r = pose.rot[s.frame]; c = pose.pos[s.center];
          a = [rot(r, s.axes[0]), rot(r, s.axes[1]), rot(r, s.axes[2])];
          var at = function (ii, jj) {
            var th = Math.PI * ii / ELL_LAT, ph = 2 * Math.PI * jj / ELL_LON, st = Math.sin(th);
            return add(c, add(add(scl(a[0], st * Math.cos(ph)), scl(a[1], st * Math.sin(ph))), scl(a[2], Math.cos(th))));
          };
          for (var ii = 0; ii < ELL_LAT; ii++) for (j = 0; j < ELL_LON; j++) {
            q = [at(ii, j), at(ii, j + 1), at(ii + 1, j + 1), at(ii + 1, j)];
            face(items, cam, q, outward(q, c), s.color);
          }
          break;
        case "cylinder":
          r = pose.rot[s.frame]; c = pose.pos[s.center];
          var ax = unit(rot(r, s.axis)), u = rot(r, perpendicular(unit(s.axis))), w = cross(ax, u);
          var h = scl(ax, 0.5 * s.length);
          var rimAt = function (kk) {
            var th = 2 * Math.PI * kk / CYL_SIDES;
            return add(scl(u, s.radius * Math.cos(th)), scl(w, s.radius * Math.sin(th)));
          };
          for (j = 0; j < CYL_SIDES; j++) {
            var p0 = rimAt(j), p1 = rimAt(j + 1);
            q = [add(add(c, h), p0), add(add(c, h), p1), sub(add(c, p1), h), sub(add(c, p0), h)];
            face(items, cam, q, unit(add(p0, p1)), s.color);
          }
          [1, -1].forEach(function (sg) {
            var cc = add(c, scl(h, sg)), cap = [];
            for (var kk = 0; kk < CYL_SIDES; kk++) cap.push(add(cc, rimAt(kk)));
            face(items, cam, cap, scl(ax, sg), s.color);
          });
          break;
        case "cuboid":
          r = pose.rot[s.frame]; c = pose.pos[s.center];
          var e = [[r[0], r[3], r[6]], [r[1], r[4], r[7]], [r[2], r[5], r[8]]];
          for (var kk = 0; kk < 3; kk++) {
            var i1 = (kk + 1) % 3, i2 = (kk + 2) % 3;
            [1, -1].forEach(function (sg) {
              var fc = add(c, scl(e[kk], sg * s.half[kk])), pa = scl(e[i1], s.half[i1]), pb = scl(e[i2], s.half[i2]);
              face(items, cam, [add(add(fc, pa), pb), sub(add(fc, pa), pb), sub(sub(fc, pa), pb), add(sub(fc, pa), pb)],
                scl(e[kk], sg), s.color);
            });
          }
          break;
        case "segment":
          var A = pose.pos[s.from], B = pose.pos[s.to];
          for (j = 0; j < 4; j++) {
            var l = clipLine(cam, add(A, scl(sub(B, A), j / 4)), add(A, scl(sub(B, A), (j + 1) / 4)));
            if (l) items.push({ d: l[2], p: { k: "line", a: l[0], b: l[1], w: Math.max(segW * cam.f / l[2], 1.5 * px),
              color: s.color, alpha: 1, round: true } });
          }
          break;
        case "sphere":
          var ps = project(cam, pose.pos[s.center]);
          if (ps[2] > cam.near) items.push({ d: ps[2], p: { k: "ball", c: [ps[0], ps[1]], r: s.radius * cam.f / ps[2], color: s.color } });
          break;
        case "dot":
          var pd = project(cam, pose.pos[s.point]);
          if (pd[2] > cam.near) items.push({ d: pd[2], p: { k: "disc", c: [pd[0], pd[1]], r: DOT_RADIUS * px, fill: s.color,
            ring: [[255, 255, 255], 1.5 * px] } });
          break;
      }
    });
    items.forEach(function (it, j) { it.o = j; });
    items.sort(function (x, y) { return y.d - x.d || x.o - y.o; });
    return items;
  }

  // ---- painting -----------------------------------------------------------------------
  var stage = document.getElementById("stage"), canvas = document.getElementById("view");
  var ctx = canvas.getContext("2d");
  function paint(p) {
    var j;
    switch (p.k) {
      case "poly":
        ctx.beginPath();
        ctx.moveTo(p.pts[0][0], p.pts[0][1]);
        for (j = 1; j < p.pts.length; j++) ctx.lineTo(p.pts[j][0], p.pts[j][1]);
        ctx.closePath();
        ctx.fillStyle = rgb(p.fill);
        ctx.fill();
        // the same colour around the edge hides the seams between neighbouring faces
        ctx.strokeStyle = ctx.fillStyle;
        ctx.lineWidth = 0.75;
        ctx.lineJoin = "round";
        ctx.stroke();
        break;
      case "shadow":
        ctx.beginPath();
        ctx.moveTo(p.pts[0][0], p.pts[0][1]);
        for (j = 1; j < p.pts.length; j++) ctx.lineTo(p.pts[j][0], p.pts[j][1]);
        ctx.closePath();
        ctx.fillStyle = "rgba(0,0,0," + SHADOW_ALPHA + ")";
        ctx.fill();
        break;
      case "line":
        ctx.beginPath();
        ctx.moveTo(p.a[0], p.a[1]);
        ctx.lineTo(p.b[0], p.b[1]);
        ctx.strokeStyle = rgb(p.color, p.alpha);
        ctx.lineWidth = p.w;
        ctx.lineCap = p.round ? "round" : "butt";
        ctx.stroke();
        break;
      case "ring":
        ctx.beginPath();
        ctx.moveTo(p.pts[0][0], p.pts[0][1]);
        for (j = 1; j < p.pts.length; j++) ctx.lineTo(p.pts[j][0], p.pts[j][1]);
        ctx.closePath();
        ctx.strokeStyle = rgb(p.color);
        ctx.lineWidth = p.w;
        ctx.lineJoin = "round";
        ctx.stroke();
        break;
      case "path":
        ctx.beginPath();
        for (j = 0; j < p.segs.length; j++) {
          var s = p.segs[j];
          if (j === 0 || s[0][0] !== p.segs[j - 1][1][0] || s[0][1] !== p.segs[j - 1][1][1]) ctx.moveTo(s[0][0], s[0][1]);
          ctx.lineTo(s[1][0], s[1][1]);
        }
        ctx.strokeStyle = rgb(p.color, p.alpha);
        ctx.lineWidth = p.w;
        ctx.lineCap = "round";
        ctx.lineJoin = "round";
        ctx.stroke();
        break;
      case "disc":
        if (p.ring) {
          ctx.beginPath();
          ctx.arc(p.c[0], p.c[1], p.r + p.ring[1], 0, 2 * Math.PI);
          ctx.fillStyle = rgb(p.ring[0]);
          ctx.fill();
        }
        ctx.beginPath();
        ctx.arc(p.c[0], p.c[1], p.r, 0, 2 * Math.PI);
        ctx.fillStyle = rgb(p.fill);
        ctx.fill();
        break;
      case "ball":
        if (!(p.r > 0)) break;
        var hx = p.c[0] + LIGHT[0] * p.r * 0.8, hy = p.c[1] - LIGHT[1] * p.r * 0.8;
        var g = ctx.createRadialGradient(hx, hy, 0, hx, hy, 1.8 * p.r);
        g.addColorStop(0, rgb(p.color));
        g.addColorStop(1, rgb(shadeC(p.color, 0.55)));
        ctx.beginPath();
        ctx.arc(p.c[0], p.c[1], p.r, 0, 2 * Math.PI);
        ctx.fillStyle = g;
        ctx.fill();
        break;
      case "group":
        p.list.forEach(paint);
        break;
    }
  }
  // ---- contact forces ----------------------------------------------------------------
  var ARROW_WIDTH = 3.0, FRICTIONLESS = [112, 64, 168];
  var GRIP = [[40, 150, 70], [226, 150, 20], [210, 40, 40]];
  // green at utilization 0, amber at 0.5, red from 1 (sliding)
  function gripColor(u) {
    u = Math.max(0, u);
    return u < 0.5 ? mix(GRIP[0], GRIP[1], u / 0.5) : u < 1 ? mix(GRIP[1], GRIP[2], (u - 0.5) / 0.5) : GRIP[2];
  }
  function forceColor(k, c) { return CT.friction[k] ? gripColor(c.u) : FRICTIONLESS; }
  function arrow(a, b, color) {
    var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy);
    if (!(len > 0.5)) return;
    var ux = dx / len, uy = dy / len, hl = Math.min(14, 0.45 * len), hw = 0.42 * hl;
    var base = [b[0] - ux * hl, b[1] - uy * hl];
    ctx.lineCap = "round";
    [["rgba(255,255,255,0.85)", ARROW_WIDTH + 2.5], [rgb(color), ARROW_WIDTH]].forEach(function (st) {
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(base[0], base[1]);
      ctx.strokeStyle = st[0];
      ctx.lineWidth = st[1];
      ctx.stroke();
    });
    ctx.beginPath();
    ctx.moveTo(b[0], b[1]);
    ctx.lineTo(base[0] - uy * hw, base[1] + ux * hw);
    ctx.lineTo(base[0] + uy * hw, base[1] - ux * hw);
    ctx.closePath();
    ctx.fillStyle = rgb(color);
    ctx.fill();
    ctx.strokeStyle = "rgba(255,255,255,0.85)";
    ctx.lineWidth = 1;
    ctx.stroke();
  }
  function forceArrows(cs, cam) {
    cs.forEach(function (c, k) {
      var color = forceColor(k, c);
      // the tangential part, dashed on the ground
      var ft = sub(c.f, scl(up, dot(c.f, up)));
      var g = clipLine(cam, c.p, add(c.p, scl(ft, CT.scale)));
      if (g) {
        ctx.beginPath();
        ctx.moveTo(g[0][0], g[0][1]);
        ctx.lineTo(g[1][0], g[1][1]);
        ctx.setLineDash([5, 4]);
        ctx.strokeStyle = rgb(color, 0.9);
        ctx.lineWidth = 2;
        ctx.lineCap = "butt";
        ctx.stroke();
        ctx.setLineDash([]);
      }
      var l = clipLine(cam, c.p, add(c.p, scl(c.f, CT.scale)));
      if (l) arrow(l[0], l[1], color);
      var pc = project(cam, c.p);
      if (pc[2] > cam.near) {
        ctx.beginPath();
        ctx.arc(pc[0], pc[1], 3.5, 0, 2 * Math.PI);
        ctx.fillStyle = rgb(color);
        ctx.fill();
      }
    });
  }
  function fmtForce(x) { return x.toFixed(Math.abs(x) >= 1000 ? 0 : 1); }
  // per wheel: N, |F_t| and the utilization, under the time
  function forceTable(cs, y) {
    ctx.font = "12px ui-monospace, 'DejaVu Sans Mono', Menlo, monospace";
    ctx.textAlign = "left";
    var w = 0;
    CT.names.forEach(function (nm) { w = Math.max(w, ctx.measureText(nm).width); });
    cs.forEach(function (c, k) {
      y += 18;
      ctx.fillStyle = rgb(forceColor(k, c));
      ctx.fillRect(16, y - 9, 10, 10);
      var ft = Math.sqrt(Math.max(0, dot(c.f, c.f) - c.N * c.N));
      var text = "N " + fmtForce(c.N) + "  |F_t| " + fmtForce(ft) + (CT.friction[k] ? "  util " + c.u.toFixed(2) : "");
      ctx.fillStyle = "rgb(60,64,72)";
      ctx.fillText(CT.names[k], 32, y);
      ctx.fillStyle = "rgb(100,106,116)";
      ctx.fillText(text, 32 + w + 12, y);
    });
  }

  var AXIS = [[228, 87, 46], [77, 175, 74], [55, 126, 184]];
  function overlay(cam, t, H) {
    var y = 26;
    ctx.textBaseline = "alphabetic";
    ctx.textAlign = "left";
    if (D.title) {
      ctx.font = "600 17px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
      ctx.fillStyle = "rgb(60,64,72)";
      ctx.fillText(D.title, 16, y);
      y += 22;
    }
    if (D.showTime) {
      ctx.font = "14px ui-monospace, 'DejaVu Sans Mono', Menlo, monospace";
      ctx.fillStyle = "rgb(100,106,116)";
      ctx.fillText("t = " + t.toFixed(2) + " s", 16, y);
    }
    if (CT && state.forces) forceTable(contactsAt(t), y);
    var o = [44, H - 44], len = 28;
    var order = [0, 1, 2].sort(function (a, b) { return cam.back[a] - cam.back[b]; });
    ctx.beginPath();
    ctx.arc(o[0], o[1], 2.5, 0, 2 * Math.PI);
    ctx.fillStyle = "rgb(120,120,130)";
    ctx.fill();
    ctx.font = "600 12px system-ui, sans-serif";
    ctx.textAlign = "center";
    order.forEach(function (kk) {
      var d = [cam.right[kk], -cam.up[kk]];
      ctx.beginPath();
      ctx.moveTo(o[0], o[1]);
      ctx.lineTo(o[0] + len * d[0], o[1] + len * d[1]);
      ctx.strokeStyle = rgb(AXIS[kk]);
      ctx.lineWidth = 2.2;
      ctx.lineCap = "round";
      ctx.stroke();
      ctx.fillStyle = rgb(AXIS[kk]);
      ctx.fillText("xyz"[kk], o[0] + (len + 9) * d[0], o[1] + (len + 9) * d[1] + 4.5);
    });
  }

  var timeLabel = document.getElementById("time"), slider = document.getElementById("slider");
  var playBtn = document.getElementById("play");
  function label(t) { timeLabel.textContent = t.toFixed(2) + " s / " + t1.toFixed(2) + " s"; }
  function draw() {
    var W = stage.clientWidth, H = stage.clientHeight, dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
      canvas.width = Math.round(W * dpr);
      canvas.height = Math.round(H * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = rgb(D.bg);
    ctx.fillRect(0, 0, W, H);
    var t = state.t, pose = poseAt(t), target = targetAt(t), cam = makeCamera(target, W, H);
    var under = [];
    gridLines(pose, cam, target, 1, under);
    groundCells(cam, 1, under);
    shadows(pose, cam, under);
    trailLines(pose, t, cam, 1, under);
    under.forEach(paint);
    buildItems(pose, cam, 1).forEach(function (it) { paint(it.p); });
    if (CT && state.forces) forceArrows(contactsAt(t), cam);
    overlay(cam, t, H);
    label(t);
    if (document.activeElement !== slider) slider.value = String(t);
    playBtn.classList.toggle("playing", state.playing);
    document.body.setAttribute("data-rendered", "1");
  }

  // ---- playback -----------------------------------------------------------------------
  var last = null, pending = false;
  function frame(now) {
    pending = false;
    if (state.playing) {
      if (last !== null) {
        state.t += Math.min(0.1, (now - last) / 1000) * state.speed;
        if (state.t > t1) state.t = t0 + (state.t - t1) % Math.max(t1 - t0, 1e-9);
      }
      last = now;
      request();
    } else {
      last = null;
    }
    draw();
  }
  function request() { if (!pending) { pending = true; window.requestAnimationFrame(frame); } }
  function redraw() { request(); }
  function setPlaying(p) { state.playing = p; last = null; redraw(); }
  // the label follows at once: a frame may come late (a busy or hidden page)
  function seek(t) { state.t = Math.min(t1, Math.max(t0, t)); label(state.t); redraw(); }

  slider.min = String(t0);
  slider.max = String(t1);
  slider.step = "any";
  slider.addEventListener("input", function () { state.playing = false; seek(parseFloat(slider.value)); });
  playBtn.addEventListener("click", function () {
    if (!state.playing && state.t >= t1) state.t = t0;
    setPlaying(!state.playing);
    playBtn.blur();
  });
  var speedSel = document.getElementById("speed");
  var speeds = [0.25, 0.5, 1, 2, 4];
  if (speeds.indexOf(D.speed) < 0) { speeds.push(D.speed); speeds.sort(function (a, b) { return a - b; }); }
  speeds.forEach(function (s) {
    var o = document.createElement("option");
    o.value = String(s);
    o.textContent = s + "\u00d7";
    if (s === D.speed) o.selected = true;
    speedSel.appendChild(o);
  });
  speedSel.addEventListener("change", function () { state.speed = parseFloat(speedSel.value); speedSel.blur(); });
  var followBox = document.getElementById("follow");
  followBox.checked = state.follow;
  followBox.addEventListener("change", function () {
    state.follow = followBox.checked;
    state.pan = [0, 0, 0];
    state.dist = fitDistance();
    followBox.blur();
    redraw();
  });
  var forcesBox = document.getElementById("forces");
  function setForces(on) { state.forces = on; if (forcesBox) forcesBox.checked = on; redraw(); }
  if (forcesBox) {
    forcesBox.checked = state.forces;
    forcesBox.addEventListener("change", function () { setForces(forcesBox.checked); forcesBox.blur(); });
  }
  function resetView() {
    state.az = V.az * DEG; state.el = V.el * DEG; state.follow = V.follow;
    state.dist = V.dist; state.pan = [0, 0, 0]; followBox.checked = state.follow;
    redraw();
  }
  document.getElementById("reset").addEventListener("click", function (e) { resetView(); e.currentTarget.blur(); });
  window.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "SELECT") return;
    if (e.code === "Space" || e.key === " ") {
      e.preventDefault();
      if (!state.playing && state.t >= t1) state.t = t0;
      setPlaying(!state.playing);
    } else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      state.playing = false;
      var l = locate(state.t), j = e.key === "ArrowRight" ? l[0] + 1 : (l[1] > 0 ? l[0] : l[0] - 1);
      seek(T[Math.max(0, Math.min(n - 1, j))]);
    } else if (e.key === "Home") { state.playing = false; seek(t0); }
    else if (e.key === "End") { state.playing = false; seek(t1); }
    else if ((e.key === "c" || e.key === "C") && CT && !e.ctrlKey && !e.metaKey && !e.altKey) setForces(!state.forces);
  });

  // ---- orbit, pan, zoom ---------------------------------------------------------------
  var drag = null;
  canvas.addEventListener("contextmenu", function (e) { e.preventDefault(); });
  canvas.addEventListener("pointerdown", function (e) {
    drag = { x: e.clientX, y: e.clientY, pan: e.shiftKey || e.button === 2 || e.button === 1 };
    canvas.setPointerCapture(e.pointerId);
    canvas.classList.add("dragging");
  });
  canvas.addEventListener("pointermove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    drag.x = e.clientX; drag.y = e.clientY;
    if (drag.pan) {
      var cam = makeCamera(targetAt(state.t), stage.clientWidth, stage.clientHeight);
      var s = state.dist / cam.f;
      state.pan = add(state.pan, add(scl(cam.right, -dx * s), scl(cam.up, dy * s)));
    } else {
      state.az -= dx * 0.3 * DEG;
      state.el = Math.max(-89 * DEG, Math.min(89 * DEG, state.el + dy * 0.3 * DEG));
    }
    redraw();
  });
  function endDrag() { drag = null; canvas.classList.remove("dragging"); }
  canvas.addEventListener("pointerup", endDrag);
  canvas.addEventListener("pointercancel", endDrag);
  canvas.addEventListener("wheel", function (e) {
    e.preventDefault();
    var d = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    state.dist *= Math.exp(Math.max(-0.5, Math.min(0.5, d * 0.0015)));
    redraw();
  }, { passive: false });
  canvas.addEventListener("dblclick", resetView);
  window.addEventListener("resize", redraw);

  // ---- #t=2.5 opens paused there ------------------------------------------------------
  function fromHash() {
    var m = /(?:^|[#&])t=([-+0-9.eE]+)/.exec(window.location.hash);
    if (m && isFinite(parseFloat(m[1]))) {
      state.playing = false;
      state.t = Math.min(t1, Math.max(t0, parseFloat(m[1])));
      return true;
    }
    return false;
  }
  window.addEventListener("hashchange", function () { if (fromHash()) redraw(); });
  fromHash();
  draw();
  if (state.playing) request();
})();
