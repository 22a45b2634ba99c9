//! `impl Geometry` for models written with frames: the rotations composed link by link at
//! run time (one product per simple rotation, never a chain multiplied out), the points as
//! sums of per-frame components, their velocities by the transport theorem, and the
//! default scene.

use super::code::{bind_array, ident_for, lit_usize, Layout};
use super::render::{Bindings, Num};
use super::structs;
use crate::check::Checked;
use crate::model::{Geometry, Lowered, Need, SceneItem, Terms};
use crate::sym::Graph;
use proc_macro2::TokenStream;
use quote::quote;

/// The geometry items, or nothing for a model without frames.
pub fn items(
    m: &Checked,
    low: &Lowered,
    base: &Bindings,
    plets: &TokenStream,
    plets_generic: &TokenStream,
) -> TokenStream {
    let Some(geo) = &low.geometry else {
        return TokenStream::new();
    };
    let g = &low.graph;
    let syms = &low.syms;
    let name = &m.name;
    let generic_name = structs::generic_name(m);
    let (nq, nz) = (syms.q.len(), syms.z.len());
    let (nq_l, dim_l) = (lit_usize(nq), lit_usize(nq + nz));
    let (nj, np, nf) = (geo.joints.len(), geo.points.len(), geo.frames.len());
    let (nj_l, np_l, nf_l) = (lit_usize(nj), lit_usize(np), lit_usize(nf));
    let zero = Num::Generic.wrap(quote! { 0.0 });

    // the rotations: cos and sin of every joint, then one product per joint
    let mut b_q = base.clone();
    bind_array(&mut b_q, &syms.q, &ident_for("__q"));
    let mut rl = Layout::new();
    let trig: Vec<_> = geo
        .joints
        .iter()
        .map(|(_, _, c, s)| rl.vec(&[*c, *s]))
        .collect();
    let (rot_lets, ro) = rl.block_in(g, &b_q, "k", Num::Generic);
    let rotations = geo
        .joints
        .iter()
        .enumerate()
        .map(|(i, (parent, axis, _, _))| {
            let il = lit_usize(i);
            match parent {
                None => quote! { __r[#il] = ::nonholo::__private::identity3(); },
                Some(p) => {
                    let (p, axis) = (lit_usize(*p), lit_usize(*axis));
                    let cs = ro.vec(trig[i]);
                    let (c, s) = (&cs[0], &cs[1]);
                    quote! { __r[#il] = ::nonholo::__private::rotate3(&__r[#p], #axis, #c, #s); }
                }
            }
        });
    let frame_picks = geo.frames.iter().enumerate().map(|(k, (_, i))| {
        let (k, i) = (lit_usize(k), lit_usize(*i));
        quote! { __o[#k] = __r[#i]; }
    });

    // positions and velocities: per-frame components, rotated into the root and added
    let sums = |terms: Vec<&Terms>, bind: &Bindings, prefix: &str| {
        let mut l = Layout::new();
        let slots: Vec<Vec<_>> = terms
            .iter()
            .map(|t| t.iter().map(|(f, c)| (*f, l.vec(c))).collect())
            .collect();
        let (lets, out) = l.block_in(g, bind, prefix, Num::Generic);
        let adds = slots.iter().enumerate().map(|(k, point)| {
            let kl = lit_usize(k);
            let terms = point.iter().map(|(f, slot)| {
                let f = lit_usize(*f);
                let c = out.vec(*slot);
                quote! { ::nonholo::__private::add_rotated(&mut __o[#kl], &__r[#f], [#(#c),*]); }
            });
            quote! { __o[#kl] = [#zero; 3]; #(#terms)* }
        });
        quote! { #lets #(#adds)* }
    };
    let positions = sums(geo.points.iter().map(|(_, r, _)| r).collect(), &b_q, "p");
    let mut b_qqd = b_q.clone();
    bind_array(&mut b_qqd, &syms.qd, &ident_for("__qd"));
    let velocities = sums(geo.points.iter().map(|(_, _, v)| v).collect(), &b_qqd, "w");

    let point_names: Vec<&str> = geo.points.iter().map(|(n, _, _)| n.as_str()).collect();
    let frame_names: Vec<&str> = geo.frames.iter().map(|(n, _)| n.as_str()).collect();
    let body_names: Vec<&str> = geo.bodies.iter().map(String::as_str).collect();
    let scene = scene(g, geo, &b_qqd, plets, nq);
    let ground_names: Vec<&str> = geo.grounds.iter().map(|(n, _, _)| n.as_str()).collect();
    let heights = ground_heights(g, geo, base, plets, nq);
    quote! {
        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl<__S: ::nonholo::Scalar> #generic_name<__S> {
            /// The orientation of every frame of the tree (anonymous ones included).
            #[doc(hidden)]
            pub fn __rotations(&self, t: __S, __q: &[__S; #nq_l]) -> [[[__S; 3]; 3]; #nj_l] {
                #plets_generic
                #rot_lets
                let mut __r = [[[#zero; 3]; 3]; #nj_l];
                #(#rotations)*
                __r
            }

            /// [`Geometry::point_positions`](::nonholo::Geometry::point_positions) in this scalar.
            ///
            /// # Errors
            /// [`Error::Dimension`](::nonholo::Error::Dimension) for slices of the wrong length.
            pub fn point_positions_generic(&self, t: __S, q: &[__S], out: &mut [[__S; 3]]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __q: &[__S; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __o: &mut [[__S; 3]; #np_l] = ::nonholo::__private::as_array_mut(out, "point positions")?;
                let __r = self.__rotations(t, __q);
                #plets_generic
                #positions
                ::core::result::Result::Ok(())
            }

            /// [`Geometry::frame_orientations`](::nonholo::Geometry::frame_orientations) in this scalar.
            ///
            /// # Errors
            /// [`Error::Dimension`](::nonholo::Error::Dimension) for slices of the wrong length.
            pub fn frame_orientations_generic(&self, t: __S, q: &[__S], out: &mut [[[__S; 3]; 3]]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __q: &[__S; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __o: &mut [[[__S; 3]; 3]; #nf_l] = ::nonholo::__private::as_array_mut(out, "frame orientations")?;
                let __r = self.__rotations(t, __q);
                #(#frame_picks)*
                ::core::result::Result::Ok(())
            }

            /// [`Geometry::point_velocities`](::nonholo::Geometry::point_velocities) in this scalar.
            ///
            /// # Errors
            /// [`Error::Dimension`](::nonholo::Error::Dimension) for slices of the wrong length.
            pub fn point_velocities_generic(&self, t: __S, state: &[__S], out: &mut [[__S; 3]]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __s: &[__S; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let __o: &mut [[__S; 3]; #np_l] = ::nonholo::__private::as_array_mut(out, "point velocities")?;
                let __q: [__S; #nq_l] = ::core::array::from_fn(|__i| __s[__i]);
                let mut __qd = [#zero; #nq_l];
                self.qdot_generic(t, &__q, &__s[#nq_l..], &mut __qd)?;
                let __q = &__q;
                let __r = self.__rotations(t, __q);
                #plets_generic
                #velocities
                ::core::result::Result::Ok(())
            }
        }

        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl ::nonholo::Geometry for #name {
            const POINTS: &'static [&'static str] = &[#(#point_names),*];
            const FRAMES: &'static [&'static str] = &[#(#frame_names),*];
            const BODIES: &'static [&'static str] = &[#(#body_names),*];

            #[inline]
            fn point_positions(&self, t: f64, q: &[f64], out: &mut [[f64; 3]]) -> ::core::result::Result<(), ::nonholo::Error> {
                self.point_positions_generic(t, q, out)
            }

            #[inline]
            fn frame_orientations(&self, t: f64, q: &[f64], out: &mut [[[f64; 3]; 3]]) -> ::core::result::Result<(), ::nonholo::Error> {
                self.frame_orientations_generic(t, q, out)
            }

            #[inline]
            fn point_velocities(&self, t: f64, state: &[f64], out: &mut [[f64; 3]]) -> ::core::result::Result<(), ::nonholo::Error> {
                self.point_velocities_generic(t, state, out)
            }

            fn position(&self, name: &str, t: f64, q: &[f64]) -> ::core::result::Result<[f64; 3], ::nonholo::Error> {
                let __i = ::nonholo::geometry::index_of("points", <Self as ::nonholo::Geometry>::POINTS, name)?;
                let mut __o = [[0.0f64; 3]; #np_l];
                self.point_positions_generic(t, q, &mut __o)?;
                ::core::result::Result::Ok(__o[__i])
            }

            fn scene(&self) -> ::nonholo::__private::Vec<::nonholo::Shape> {
                #scene
            }

            const GROUNDS: &'static [&'static str] = &[#(#ground_names),*];

            fn ground_height(&self, ground: usize, u: f64, v: f64) -> f64 {
                #heights
            }
        }
    }
}

/// `scene()`: the default shapes, their sizes from the parameters (at `t = 0`, `q = 0`).
fn scene(
    g: &Graph,
    geo: &Geometry,
    bind: &Bindings,
    plets: &TokenStream,
    nq: usize,
) -> TokenStream {
    let nq_l = lit_usize(nq);
    let mut l = Layout::new();
    let slots: Vec<_> = geo
        .scene
        .iter()
        .map(|s| match s {
            SceneItem::Disk { normal, radius, .. } => {
                let mut v = normal.to_vec();
                v.push(*radius);
                l.vec(&v)
            }
            SceneItem::Torus {
                normal,
                major,
                crown,
                ..
            } => l.vec(&[normal[0], normal[1], normal[2], *major, *crown]),
            SceneItem::Shell { semi, .. } => l.vec(semi),
            SceneItem::Ellipsoid { mass, inertia, .. } => {
                let mut v = vec![*mass];
                v.extend_from_slice(inertia);
                l.vec(&v)
            }
            SceneItem::Grid { up, .. } => l.vec(up),
            SceneItem::Ground { .. } => l.vec(&[]),
            SceneItem::Dot { .. } | SceneItem::Segment { .. } => l.vec(&[]),
            SceneItem::Sphere { radius, .. } => l.vec(&[*radius]),
            SceneItem::Cylinder {
                axis,
                radius,
                length,
                ..
            } => l.vec(&[axis[0], axis[1], axis[2], *radius, *length]),
            SceneItem::Cuboid { half, .. } => l.vec(half),
        })
        .collect();
    let (lets, out) = l.block(g, bind, "s");
    let shapes = geo.scene.iter().zip(&slots).enumerate().map(|(k, (s, slot))| {
        let v = out.vec(*slot);
        let given = |c: &Option<[u8; 3]>| match c {
            Some([r, g, b]) => quote! { [#r, #g, #b] },
            None => quote! { ::nonholo::__private::palette(#k) },
        };
        let color = given(&None);
        match s {
            SceneItem::Disk { center, frame, .. } => {
                let (c, f) = (lit_usize(*center), lit_usize(*frame));
                let (n, r) = (&v[..3], &v[3]);
                quote! { ::nonholo::Shape::Disk { center: #c, frame: #f, normal: [#(#n),*], radius: #r, color: #color } }
            }
            SceneItem::Torus { center, frame, .. } => {
                let (c, f) = (lit_usize(*center), lit_usize(*frame));
                let (n, major, crown) = (&v[..3], &v[3], &v[4]);
                quote! { ::nonholo::Shape::Torus { center: #c, frame: #f, normal: [#(#n),*], major: #major, crown: #crown, color: #color } }
            }
            SceneItem::Shell { center, frame, .. } => {
                let (c, f) = (lit_usize(*center), lit_usize(*frame));
                let (a, b, cc) = (&v[0], &v[1], &v[2]);
                quote! { ::nonholo::Shape::Ellipsoid { center: #c, frame: #f, axes: [[#a, 0.0, 0.0], [0.0, #b, 0.0], [0.0, 0.0, #cc]], color: #color } }
            }
            SceneItem::Ellipsoid { center, frame, .. } => {
                let (c, f) = (lit_usize(*center), lit_usize(*frame));
                let (mass, i) = (&v[0], &v[1..]);
                quote! { ::nonholo::Shape::Ellipsoid { center: #c, frame: #f, axes: ::nonholo::__private::inertia_ellipsoid(#mass, [#(#i),*]), color: #color } }
            }
            SceneItem::Grid { point, .. } => {
                let p = lit_usize(*point);
                quote! { ::nonholo::Shape::Grid { point: #p, up: [#(#v),*], color: [200, 200, 200] } }
            }
            SceneItem::Ground { ground } => {
                let k = lit_usize(*ground);
                quote! { ::nonholo::Shape::Ground { ground: #k, color: [170, 160, 140] } }
            }
            SceneItem::Dot { point } => {
                let p = lit_usize(*point);
                quote! { ::nonholo::Shape::Dot { point: #p, color: #color } }
            }
            SceneItem::Segment { from, to, color } => {
                let (a, b, color) = (lit_usize(*from), lit_usize(*to), given(color));
                quote! { ::nonholo::Shape::Segment { from: #a, to: #b, color: #color } }
            }
            SceneItem::Sphere { center, color, .. } => {
                let (c, r, color) = (lit_usize(*center), &v[0], given(color));
                quote! { ::nonholo::Shape::Sphere { center: #c, radius: #r, color: #color } }
            }
            SceneItem::Cylinder { center, frame, color, .. } => {
                let (c, f, color) = (lit_usize(*center), lit_usize(*frame), given(color));
                let (a, r, len) = (&v[..3], &v[3], &v[4]);
                quote! { ::nonholo::Shape::Cylinder { center: #c, frame: #f, axis: [#(#a),*], radius: #r, length: #len, color: #color } }
            }
            SceneItem::Cuboid { center, frame, color, .. } => {
                let (c, f, color) = (lit_usize(*center), lit_usize(*frame), given(color));
                quote! { ::nonholo::Shape::Cuboid { center: #c, frame: #f, half: [#(#v),*], color: #color } }
            }
        }
    });
    quote! {
        let t = 0.0f64;
        let __q = [0.0f64; #nq_l];
        let __qd = [0.0f64; #nq_l];
        #plets
        #lets
        ::nonholo::__private::to_shapes([#(#shapes),*])
    }
}

/// `ground_height()`: each ground's `h(u, v)` from its own variables, NaN for an index that
/// is no ground.
fn ground_heights(
    g: &Graph,
    geo: &Geometry,
    base: &Bindings,
    plets: &TokenStream,
    nq: usize,
) -> TokenStream {
    if geo.grounds.is_empty() {
        return quote! { f64::NAN };
    }
    let nq_l = lit_usize(nq);
    let mut bind = base.clone();
    let mut l = Layout::new();
    let mut slots = Vec::new();
    for (_, [u, v], h) in &geo.grounds {
        bind_array(&mut bind, &[*u, *v], &ident_for("__uv"));
        slots.push(l.vec(&[*h]));
    }
    let (lets, out) = l.block(g, &bind, "h");
    let arms = slots.iter().enumerate().map(|(k, slot)| {
        let (k, h) = (lit_usize(k), &out.vec(*slot)[0]);
        quote! { #k => #h, }
    });
    quote! {
        let t = 0.0f64;
        let __q = [0.0f64; #nq_l];
        let __uv = [u, v];
        #plets
        #lets
        match ground {
            #(#arms)*
            _ => f64::NAN,
        }
    }
}

/// `Model::check_parameters`: each [`Requirement`](crate::model::Requirement) of the
/// parameters alone, through the runtime's `require_*` (empty for a model without them).
pub fn check_parameters(low: &Lowered, base: &Bindings, plets: &TokenStream) -> TokenStream {
    let Some(geo) = &low.geometry else {
        return TokenStream::new();
    };
    let g = &low.graph;
    let s = &low.syms;
    let moving: Vec<u32> = [s.t]
        .iter()
        .chain(&s.q)
        .chain(&s.qd)
        .chain(&s.z)
        .chain(&s.inputs)
        .copied()
        .collect();
    let fixed: Vec<_> = geo
        .requirements
        .iter()
        .filter(|r| r.values.iter().all(|v| !g.depends_on_any(*v, &moving)))
        .collect();
    if fixed.is_empty() {
        return TokenStream::new();
    }
    let mut l = Layout::new();
    let slots: Vec<_> = fixed.iter().map(|r| l.vec(&r.values)).collect();
    let (lets, out) = l.block(g, base, "p");
    let checks = fixed.iter().zip(&slots).map(|(r, slot)| {
        let v = out.vec(*slot);
        let what = &r.what;
        match r.need {
            Need::Positive => quote! { ::nonholo::__private::require_positive(#what, #(#v)*)?; },
            Need::NotNegative => {
                quote! { ::nonholo::__private::require_not_negative(#what, #(#v)*)?; }
            }
            Need::Inertia => {
                quote! { ::nonholo::__private::require_inertia(#what, [#(#v),*])?; }
            }
        }
    });
    quote! {
        fn check_parameters(&self) -> ::core::result::Result<(), ::nonholo::Error> {
            #plets
            #lets
            #(#checks)*
            ::core::result::Result::Ok(())
        }
    }
}
