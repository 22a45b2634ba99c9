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
