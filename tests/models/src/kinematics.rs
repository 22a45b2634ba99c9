//! The models of `kinematics`: models in 3D items and the same systems derived by hand.

nonholo::rolling_disk_3d_model! {
    /// The library's 3D disk text (frames, a body, a rolling contact).
    pub struct Disk3d;
    dependent { x, y }
}

nonholo::nonholonomic! {
    /// The same disk derived by hand: v_C = d/dt (x, y, 0) + r L.z, omega in L.
    pub struct DiskByHand;
    parameters { m = 1.0, r = 0.5, g = 9.81 }
    coordinates { x, y, yaw, lean, spin }
    let vx = dot(x) + r * (cos(yaw) * sin(lean) * dot(yaw) + sin(yaw) * cos(lean) * dot(lean));
    let vy = dot(y) + r * (sin(yaw) * sin(lean) * dot(yaw) - cos(yaw) * cos(lean) * dot(lean));
    let vz = -r * sin(lean) * dot(lean);
    let w1 = dot(lean);
    let w2 = dot(yaw) * sin(lean) + dot(spin);
    let w3 = dot(yaw) * cos(lean);
    kinetic_energy = 0.5 * m * (vx * vx + vy * vy + vz * vz)
        + 0.5 * (0.25 * m * r * r * (w1 * w1 + w3 * w3) + 0.5 * m * r * r * w2 * w2);
    potential_energy = m * g * r * cos(lean);
    constraints {
        cos(yaw) * dot(x) + sin(yaw) * dot(y) - r * dot(spin) == 0.0;
        -sin(yaw) * dot(x) + cos(yaw) * dot(y) == 0.0;
    }
    dependent { x, y }
}

nonholo::nonholonomic! {
    /// A pendulum in Cartesian coordinates: the length is a configuration constraint.
    pub struct CartesianPendulum;
    parameters { m = 1.0, l = 1.5, g = 9.81 }
    coordinates { x, y }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2));
    potential_energy = m * g * y;
    holonomic(y) { x * x + y * y == l * l; }
    dependent { y }
}

nonholo::nonholonomic! {
    /// Lagrange's heavy symmetric top about a fixed point, in 3D items (Euler z-x-z).
    pub struct Top3d;
    parameters { m = 1.0, l = 0.3, i1 = 0.02, i3 = 0.035, g = 9.81 }
    coordinates { psi, theta, phi }
    frame N;
    point O;
    frame A = N.rotate(z, psi).rotate(x, theta);
    frame B = A.rotate(z, phi);
    point G = O + l * A.z;
    body top { frame: B, center: G, mass: m, inertia: inertia(A, i1, i1, i3) }
    gravity = -g * N.z;
}

nonholo::nonholonomic! {
    /// The same top by hand.
    pub struct TopByHand;
    parameters { m = 1.0, l = 0.3, i1 = 0.02, i3 = 0.035, g = 9.81 }
    coordinates { psi, theta, phi }
    let w3 = dot(psi) * cos(theta) + dot(phi);
    kinetic_energy = 0.5 * (i1 + m * l * l) * (dot(theta).powi(2) + (dot(psi) * sin(theta)).powi(2))
        + 0.5 * i3 * w3 * w3;
    potential_energy = m * g * l * cos(theta);
}

nonholo::nonholonomic! {
    /// Chaplygin's sleigh with drag at the blade and a torsion spring, in 3D items.
    pub struct Sleigh3d;
    parameters { m = 2.0, a = 0.4, i = 0.3, c = 0.2, k = 0.5 }
    coordinates { x, y, th }
    frame N;
    point O;
    frame B = N.rotate(z, th);
    point P = O + N[x, y, 0.0];
    point G = P + a * B.x;
    body sleigh { frame: B, center: G, mass: m, inertia: inertia(B, 0.0, 0.0, i) }
    constraints { velocity(P).dot(B.y) == 0.0; }
    forces { at P: -c * velocity(P); on sleigh: N[0.0, 0.0, -k * th]; }
    dependent { y }
}

nonholo::nonholonomic! {
    /// The same sleigh by hand.
    pub struct SleighByHand;
    parameters { m = 2.0, a = 0.4, i = 0.3, c = 0.2, k = 0.5 }
    coordinates { x, y, th }
    kinetic_energy = 0.5 * m * ((dot(x) - a * sin(th) * dot(th)).powi(2)
        + (dot(y) + a * cos(th) * dot(th)).powi(2)) + 0.5 * i * dot(th).powi(2);
    forces { x: -c * dot(x), y: -c * dot(y), th: -k * th }
    constraints { -sin(th) * dot(x) + cos(th) * dot(y) == 0.0; }
    dependent { y }
}

nonholo::rolling_disk_3d_model! {
    /// The 3D disk through Voronec's equations.
    pub struct DiskVoronec;
    dependent { x, y }
    formulation = voronec;
}

nonholo::rolling_disk_3d_model! {
    /// The 3D disk through Boltzmann–Hamel with body-frame speeds.
    pub struct DiskHamel;
    speeds {
        u_lean = angular_velocity(L).dot(L.x);
        u_spin = angular_velocity(disk).dot(L.y);
        u_yaw = dot(yaw);
    }
    formulation = boltzmann_hamel;
}

nonholo::rolling_disk_3d_model! {
    /// The 3D disk through the multipliers (reactions of the rolling contact).
    pub struct DiskMultipliers;
    formulation = multipliers;
}

nonholo::rolling_disk_3d_model! {
    /// The 3D disk through the multipliers: its two no-slip rows' multipliers are the
    /// friction force at the contact along the heading frame's axes.
    pub struct Disk3dReactions;
    formulation = multipliers;
}

/// A disk rolling on the ground carrying a 3-link pendulum from its centre (the
/// `bench/chain` family at N = 3: 8 coordinates, 4 bodies, a dense 6x6 G).
macro_rules! disk_chain3 {
    ($(#[$attr:meta])* $name:ident; $($rest:tt)*) => {
        nonholo::nonholonomic! {
            $(#[$attr])*
            pub struct $name;
            parameters { m = 1.0, r = 0.5, g = 9.81, ml = 0.2, l = 0.3 }
            coordinates { x, y, yaw, lean, spin, a1, a2, a3 }
            frame N;
            point O;
            frame L = N.rotate(z, yaw).rotate(x, lean);
            frame D = L.rotate(y, spin);
            point P = O + N[x, y, 0.0];
            point C = P + r * L.z;
            body disk { frame: D, center: C, mass: m,
                        inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
            frame K1 = L.rotate(y, a1);
            frame K2 = K1.rotate(y, a2);
            frame K3 = K2.rotate(y, a3);
            point J1 = C - l * K1.z;
            point J2 = J1 - l * K2.z;
            point G1 = C - 0.5 * l * K1.z;
            point G2 = J1 - 0.5 * l * K2.z;
            point G3 = J2 - 0.5 * l * K3.z;
            body link1 { frame: K1, center: G1, mass: ml,
                         inertia: inertia(K1, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }
            body link2 { frame: K2, center: G2, mass: ml,
                         inertia: inertia(K2, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }
            body link3 { frame: K3, center: G3, mass: ml,
                         inertia: inertia(K3, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
            $($rest)*
        }
    };
}

disk_chain3! {
    /// Through Gibbs–Appell with the independent velocities as speeds.
    DiskChain3;
    dependent { x, y }
}

disk_chain3! {
    /// Through the multipliers (reactions of the rolling contact).
    DiskChain3Multipliers;
    formulation = multipliers;
}
