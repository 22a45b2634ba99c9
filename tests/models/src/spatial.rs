//! The models of `spatial`: the spatial chains of `bench/spatial`.

use nonholo::nonholonomic;

/// The spatial chain of `bench/spatial`: the disk, then one link per
/// `(frame, joint point, centre, parent frame, parent point, angles)`.
macro_rules! spatial_chain {
    ($(#[$doc:meta])* $name:ident { $($q:ident),* }
     $(($k:ident, $j:ident, $g:ident, $body:ident, $pf:ident, $pp:ident, $a:ident, $b:ident))*) => {
        nonholonomic! {
            $(#[$doc])*
            pub struct $name;
            parameters { m = 1.0, r = 0.5, g = 9.81, ml = 0.2, l = 0.3 }
            coordinates { x, y, yaw, lean, spin, $($q),* }
            frame N;
            point O;
            frame L = N.rotate(z, yaw).rotate(x, lean);
            frame D = L.rotate(y, spin);
            point P = O + N[x, y, 0.0];
            point C = P + r * L.z;
            body disk { frame: D, center: C, mass: m,
                        inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
            $(
                frame $k = $pf.rotate(x, $a).rotate(y, $b);
                point $g = $pp - 0.5 * l * $k.z;
                point $j = $pp - l * $k.z;
                body $body { frame: $k, center: $g, mass: ml,
                    inertia: inertia($k, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }
            )*
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
            dependent { x, y }
        }
    };
}

spatial_chain!(
    /// Two links.
    Chain2 { a1, b1, a2, b2 }
    (K1, J1, G1, link1, L, C, a1, b1)
    (K2, J2, G2, link2, K1, J1, a2, b2)
);
spatial_chain!(
    /// Three links.
    Chain3 { a1, b1, a2, b2, a3, b3 }
    (K1, J1, G1, link1, L, C, a1, b1)
    (K2, J2, G2, link2, K1, J1, a2, b2)
    (K3, J3, G3, link3, K2, J2, a3, b3)
);

nonholonomic! {
    /// A branched tree of ordinary rigid links (`bench/spatial`'s rigid links: products of
    /// inertia, the centre off the link's axis): two branches of two links from the disk's
    /// centre, the first with a third link (`jacobians` by the subtrees' composites, two
    /// ports).
    pub struct RigidTree5;
    parameters { m = 1.0, r = 0.5, g = 9.81, ml = 0.2, l = 0.3 }
    coordinates { x, y, yaw, lean, spin, a1, b1, a2, b2, a5, b5, a3, b3, a4, b4 }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + r * L.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    frame K1 = L.rotate(x, a1).rotate(y, b1);
    point G1 = C + K1[0.01, -0.005, -0.5 * l];
    point J1 = C - l * K1.z;
    body link1 { frame: K1, center: G1, mass: ml,
        inertia: inertia(K1, ml * (l * l + 0.0016) / 12.0, ml * (l * l + 0.01) / 12.0,
                         ml * 0.0116 / 12.0, 0.00002, -0.00001, 0.00003) }
    frame K2 = K1.rotate(x, a2).rotate(y, b2);
    point G2 = J1 + K2[0.01, -0.005, -0.5 * l];
    point J2 = J1 - l * K2.z;
    body link2 { frame: K2, center: G2, mass: ml,
        inertia: inertia(K2, ml * (l * l + 0.0016) / 12.0, ml * (l * l + 0.01) / 12.0,
                         ml * 0.0116 / 12.0, 0.00002, -0.00001, 0.00003) }
    frame K5 = K2.rotate(y, a5).rotate(z, b5);
    point G5 = J2 + K5[0.0, 0.01, -0.45 * l];
    body link5 { frame: K5, center: G5, mass: 0.8 * ml,
        inertia: inertia(K5, ml * (l * l + 0.002) / 12.0, ml * (l * l + 0.008) / 12.0,
                         ml * 0.01 / 12.0, -0.00002, 0.00001, 0.00002) }
    frame K3 = L.rotate(x, a3).rotate(y, b3);
    point G3 = C + K3[-0.02, 0.01, -0.4 * l];
    point J3 = C - 0.8 * l * K3.z;
    body link3 { frame: K3, center: G3, mass: 1.5 * ml,
        inertia: inertia(K3, ml * (l * l + 0.0016) / 10.0, ml * (l * l + 0.01) / 14.0,
                         ml * 0.0116 / 12.0, -0.00003, 0.00002, 0.00001) }
    frame K4 = K3.rotate(z, a4).rotate(x, b4);
    point G4 = J3 + K4[0.015, 0.0, -0.3 * l];
    body link4 { frame: K4, center: G4, mass: 0.7 * ml,
        inertia: inertia(K4, ml * (l * l + 0.0016) / 13.0, ml * (l * l + 0.01) / 11.0,
                         ml * 0.0116 / 12.0, 0.00001, 0.00003, -0.00002) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
    dependent { x, y }
}
