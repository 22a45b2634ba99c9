//! The models of `voronec`: each system through Voronec's equations and through
//! Gibbs–Appell with the same independent velocities.

use nonholo::nonholonomic;

/// Each model twice: `$v` with `formulation = voronec;`, `$g` the same text without it
/// (Gibbs–Appell with the same independent velocities).
macro_rules! both {
    // A library model's physics (`nonholo::*_model!`) plus the given sections.
    (@model $model:ident, $v:ident, $g:ident, { $($extra:tt)* }) => {
        nonholo::$model! {
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct $v;
            $($extra)*
            formulation = voronec;
        }
        nonholo::$model! {
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct $g;
            $($extra)*
        }
    };
    ($v:ident, $g:ident, { $($body:tt)* }) => {
        nonholonomic! {
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct $v;
            $($body)*
            formulation = voronec;
        }
        nonholonomic! {
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct $g;
            $($body)*
        }
    };
}

both!(@model skate_model, SkateV, SkateG, { dependent { y } });

both!(@model vertical_disk_model, VerticalDiskV, VerticalDiskG, {  });

both!(@model coaxial_disks_model, CoaxialDisksV, CoaxialDisksG, { dependent { x, y, psi } });

both!(@model parallel_points_model, ParallelPointsV, ParallelPointsG, { dependent { y2 } });

// Talamucci 3.1 with the dependent velocity chosen automatically: dot(phi), which T
// contains through v_par and v_perp — the general (non-Čaplygin) form of (20)–(21).
both!(@model pendulum_skate_model, PendulumSkateV, PendulumSkateG, {  });

// Talamucci 3.1 with dot(y_c) dependent: T and alpha are free of y_c — Čaplygin.
both!(@model pendulum_skate_model, PendulumSkateYV, PendulumSkateYG, { dependent { y_c } });

// Talamucci 3.2: the front point driven, rheonomic in T and in the constraint; the only
// dependent velocity is dot(phi), and T contains phi (non-Čaplygin).
both!(@model assigned_front_model, AssignedFrontV, AssignedFrontG, {  });

both!(@model rolling_disk_pendulum_model, RollingDiskV, RollingDiskG, {  });

both!(@model assigned_spin_model, AssignedSpinV, AssignedSpinG, {  });

// A skate whose blade is turned by a motor, heading omega t + a sin(t): linear rheonomic
// constraint, alpha = dot(x) tan(heading(t)), so d2alpha/d dot(x) dt != 0 in (21).
both!(DrivenSkateV, DrivenSkateG, {
    parameters { m = 1.3, k = 0.7, omega = 0.4, a = 0.3 }
    coordinates { x, y }
    let h = omega * t + a * sin(t);
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2));
    potential_energy = 0.5 * k * (x * x + y * y);
    constraints { dot(x) * sin(h) - dot(y) * cos(h) == 0.0; }
    dependent { y }
});

// Nonlinear, rheonomic and non-Čaplygin at once: alpha contains the dependent coordinate
// w, both independent velocities (d2alpha/d dot(q)^2 != 0) and t; T contains w too.
both!(NonlinearRheonomicV, NonlinearRheonomicG, {
    parameters { m = 1.2, mu = 0.3, k = 0.8, gw = 0.5, c = 0.1, b = 0.2, e = 0.3, omega = 1.3 }
    coordinates { u, v, w }
    kinetic_energy = 0.5 * m * (dot(u).powi(2) + dot(v).powi(2) + dot(w).powi(2))
        + 0.5 * mu * w.powi(2) * dot(u).powi(2) + 0.1 * cos(t) * dot(v);
    potential_energy = 0.5 * k * (u * u + v * v) + gw * w;
    forces { v: -c * dot(v), w: -c * dot(w) }
    constraints {
        dot(w) * (1.0 + e * sin(omega * t)) - dot(u) * dot(v) * cos(u) - b * w * dot(u) == 0.0;
    }
    dependent { w }
});
