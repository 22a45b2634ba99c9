// A file of nonholonomic! models for `nonholo.build`: an ordinary Rust module with
// `nonholo::prelude::*` in scope. The skate of Benenti 2007, section 9.1, on a plane
// inclined by `alpha`, written as a user would.
nonholonomic! {
    /// A skate (knife edge) on an inclined plane: the blade keeps its course.
    pub struct MySkate;
    parameters { m = 1.0, inertia = 0.1, g = 9.81, alpha = 0.0 }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    potential_energy = -m * g * sin(alpha) * x;
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
}
