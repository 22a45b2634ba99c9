//! The model IR between the stages: which formulation, how the velocities are
//! parametrized (with the one table of which formulation accepts which parametrization),
//! and the lowered model — symbols by role and the expressions of T, V, forces,
//! constraints and speeds in the engine — that the derivations consume.
//!
//! `check` fills the DSL-level parts, `lower` the symbolic ones; `mechanics` and `emit`
//! read them and never see tokens.

use crate::sym::{Graph, Id, Number};
use proc_macro2::Span;

/// How `Model::jacobians` is emitted (`jacobians = ..;`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Jacobians {
    /// In closed form up to a size (`JACOBIAN_OPS` operations), else dual passes.
    Auto,
    /// In closed form whatever the size (`jacobians = closed_form;`).
    ClosedForm,
    /// One dual-number pass per column (`jacobians = dual;`): the shortest build.
    Dual,
}

impl Jacobians {
    pub const NAMES: [&'static str; 2] = ["closed_form", "dual"];

    pub fn from_name(name: &str) -> Option<Jacobians> {
        match name {
            "closed_form" => Some(Jacobians::ClosedForm),
            "dual" => Some(Jacobians::Dual),
            _ => None,
        }
    }
}

/// Which derivation of the equations of motion to run (`formulation = ...;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formulation {
    /// Benenti's first method (eqs. 6.3/7.1), rheonomic form: the default.
    GibbsAppell,
    /// Talamucci 2015, eq. (20), with quasi-velocities.
    BoltzmannHamel,
    /// Talamucci's nonlinear rheonomic Voronec equations (eqs. 19–21).
    Voronec,
    /// Benenti's second method (eqs. 8.5–8.14) on `[q, dot(q)]`.
    Multipliers,
}

impl Formulation {
    pub const ALL: [Formulation; 4] = [
        Formulation::GibbsAppell,
        Formulation::BoltzmannHamel,
        Formulation::Voronec,
        Formulation::Multipliers,
    ];

    /// The name written in the DSL (and the runtime's variant, in CamelCase).
    pub fn name(self) -> &'static str {
        match self {
            Formulation::GibbsAppell => "gibbs_appell",
            Formulation::BoltzmannHamel => "boltzmann_hamel",
            Formulation::Voronec => "voronec",
            Formulation::Multipliers => "multipliers",
        }
    }

    /// The runtime's `nonholo::Formulation` variant.
    pub fn variant(self) -> &'static str {
        match self {
            Formulation::GibbsAppell => "GibbsAppell",
            Formulation::BoltzmannHamel => "BoltzmannHamel",
            Formulation::Voronec => "Voronec",
            Formulation::Multipliers => "Multipliers",
        }
    }

    pub fn from_name(name: &str) -> Option<Formulation> {
        Formulation::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The one table of which formulation accepts which parametrization: `None` when
    /// it does, else the error and its help line.
    pub fn rejects(self, p: ParametrizationKind) -> Option<(&'static str, &'static str)> {
        use Formulation as F;
        use ParametrizationKind as P;
        match (self, p) {
            (F::GibbsAppell, _) => None,
            (F::BoltzmannHamel, P::Velocities) => Some((
                "`formulation = boltzmann_hamel` needs quasi-velocities `speeds { .. }` or independent velocities, not `velocities(..)`",
                "write the speeds as eta = Z(q,t) dot(q) + psi(q,t) (Talamucci eq. 11) in `speeds { .. }`, or keep `velocities(..)` with `formulation = gibbs_appell;`",
            )),
            (F::BoltzmannHamel, _) => None,
            (F::Voronec, P::Speeds) => Some((
                "`formulation = voronec` integrates the independent velocities dot(q) and takes no `speeds` section",
                VORONEC_HELP,
            )),
            (F::Voronec, P::Velocities) => Some((
                "`formulation = voronec` integrates the independent velocities dot(q) and takes no `velocities(..)` section",
                VORONEC_HELP,
            )),
            (F::Voronec, _) => None,
            (F::Multipliers, P::Independent) => None,
            (F::Multipliers, _) => Some((
                "`formulation = multipliers` integrates (q, dot(q)) directly and takes no `speeds`, `velocities` or `dependent` section",
                "remove that section, or choose `gibbs_appell` to integrate speeds",
            )),
        }
    }
}

const VORONEC_HELP: &str =
    "remove it: the dependent velocities are then solved from the constraints (name them with \
     `dependent { .. }`); or choose `gibbs_appell` to integrate these speeds";

/// Which parametrization section a model has, for [`Formulation::rejects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParametrizationKind {
    Speeds,
    Velocities,
    /// Independent velocities, the dependent ones chosen by the macro.
    Independent,
    /// Independent velocities with `dependent { .. }`.
    Dependent,
}

/// How the velocities are parametrized; `E` is the DSL expression after `check`, the
/// engine's [`Id`] after `lower`.
#[derive(Clone, Debug)]
pub enum Parametrization<E> {
    /// `speeds { z = Z(q,t) dot(q) + psi(q,t) }` (quasi-velocities, Talamucci's eta).
    Speeds(Vec<E>),
    /// `velocities(z..) { dot(q) = psi(q, z, t) }`, one expression per coordinate.
    Velocities(Vec<E>),
    /// Independent velocities; the dependent ones (coordinate indices) if named.
    Independent { dependent: Option<Vec<usize>> },
}

impl<E> Parametrization<E> {
    pub fn kind(&self) -> ParametrizationKind {
        match self {
            Parametrization::Speeds(_) => ParametrizationKind::Speeds,
            Parametrization::Velocities(_) => ParametrizationKind::Velocities,
            Parametrization::Independent { dependent: None } => ParametrizationKind::Independent,
            Parametrization::Independent { dependent: Some(_) } => ParametrizationKind::Dependent,
        }
    }
}

/// The symbol table of a lowered model, by role.
pub struct Symbols {
    pub t: u32,
    pub params: Vec<u32>,
    /// Runtime inputs u: constants of the derivation (held between control instants).
    pub inputs: Vec<u32>,
    /// Generalized coordinates q.
    pub q: Vec<u32>,
    /// Their velocities dot(q).
    pub qd: Vec<u32>,
    /// Speeds z (quasi-velocities, parameters of `velocities(..)` or independent
    /// velocities); empty until the independent ones are chosen.
    pub z: Vec<u32>,
}

/// The names a user gave, for messages, the emitted constants and `EQUATIONS`.
pub struct Names {
    pub model: String,
    pub coords: Vec<String>,
    /// Declared speeds (`speeds` or `velocities(..)`); independent velocities are named
    /// `dot(q)` by `mechanics::velocities`.
    pub speeds: Vec<String>,
    /// The text of each velocity constraint (`CONSTRAINTS`), the user's and the
    /// rows of the 3D items.
    pub constraints: Vec<String>,
}

/// Where things were written, so later stages report errors on the user's span.
pub struct Sites {
    pub kinetic: Span,
    pub parametrization: Span,
    pub speeds: Vec<Span>,
    pub constraints: Vec<Span>,
}

/// The model in the engine: what every formulation derives from.
pub struct Lowered {
    pub graph: Graph,
    pub syms: Symbols,
    pub names: Names,
    pub sites: Sites,
    pub formulation: Formulation,
    /// T(q, dot(q), t).
    pub kinetic: Id,
    /// The part of T not in `rigid`: what the user wrote as `kinetic_energy`.
    pub kinetic_rest: Id,
    /// The bodies and particles, body by body (their T is in `kinetic` too).
    pub rigid: Vec<crate::kinematics::bodies::RigidTerm>,
    /// V(q, t).
    pub potential: Id,
    /// The part of V not from `gravity` on the bodies (in `rigid`).
    pub potential_rest: Id,
    /// Extra generalized forces F_i(q, dot(q), t), one per coordinate.
    pub forces: Vec<Id>,
    /// `lhs - rhs` of each constraint, in q, dot(q), t.
    pub constraints: Vec<Id>,
    pub parametrization: Parametrization<Id>,
    /// Parameter defaults.
    pub defaults: Vec<Option<Number>>,
    /// Configuration constraints f(q, t) = 0 (their time derivatives are among
    /// `constraints`).
    pub configuration: Configuration,
    /// Where the parts of a model written with frames are (`None` without frames).
    pub geometry: Option<Geometry>,
    /// What the contact forces need (empty without `rolls`).
    pub contacts: ContactTerms,
    /// The frame tree and the bodies, where the bodies and gravity are all there is to the
    /// energy (the recursive route's input).
    pub tree: Option<Box<TreeSource>>,
}

/// What the recursive route ([`crate::mechanics::recursive`]) starts from.
pub struct TreeSource {
    pub kin: crate::kinematics::Kin,
    /// The bodies, then the particles, in the order of [`Lowered::rigid`].
    pub bodies: Vec<crate::kinematics::bodies::MassBody>,
    pub gravity: Option<crate::kinematics::vector::Vector>,
}

/// What `Contacts::contact_loads` needs, in q, dot(q), t and the inputs, root components
/// (`kinematics::balance`).
#[derive(Default)]
pub struct ContactTerms {
    /// `[P, L_O]`: their rates along the motion are the external forces' resultant and
    /// moment about the origin.
    pub momenta: Vec<Id>,
    /// `[F, M_O]` of gravity and the loads.
    pub applied: Vec<Id>,
    /// Whether gravity, the loads and the contacts are all the external forces (no
    /// kinetic or potential energy, constraint or coordinate force written as a scalar):
    /// only then does the balance give the normal forces of anchored contacts.
    pub balanced: bool,
    pub contacts: Vec<ContactTerm>,
    /// `C = d constraints / d dot(q)`, row-major (`NC x NQ`), for the rows' multipliers.
    pub jacobian: Vec<Id>,
    /// Whether the multipliers come from `C` and the reactions (`lambda = (C C^T)^-1 C R`),
    /// not from the formulation itself.
    pub lambda_from_rows: bool,
    /// The released model on `[q, dot(q)]` that a sliding contact needs (a model with
    /// `friction` on a contact whose normal force is available).
    pub released: Option<ReleasedTerms>,
}

/// `A qdd = L + C^T lambda` with every row, `C qdd = -drift` (Benenti eqs. 8.1, 8.8): the
/// run switches rows on and off (`design/contact_forces.md`, 6.4). `C` is
/// [`ContactTerms::jacobian`]; the rows themselves are the model's constraints.
pub struct ReleasedTerms {
    /// `A` row-major (`NQ x NQ`).
    pub mass_matrix_a: Vec<Id>,
    /// `L = F - h`.
    pub lagrange_l: Vec<Id>,
    /// `qd . dC/dq + dC/dt`.
    pub drift: Vec<Id>,
}

/// One `rolls`.
pub struct ContactTerm {
    /// The material contact point, the plane's `up` and the wheel's axle.
    pub point: [Id; 3],
    pub up: [Id; 3],
    pub axle: [Id; 3],
    /// `friction: mu`.
    pub friction: Option<Id>,
    /// Its rows among the model's constraints, each `v_m . e` with `e` given: the row's
    /// multiplier `lambda` is the force `lambda e` at the contact.
    pub rows: Vec<(usize, [Id; 3])>,
    /// The last row is the contact height (`solve: q`): its multiplier gives the normal.
    pub height: bool,
    /// With `lateral: false`, the contact whose lateral row this one shares.
    pub shares_lateral_with: Option<usize>,
    /// The surface turns about an axle (a disk, a torus), which `axle` is.
    pub turns_on_axle: bool,
}

/// A vector as a sum of per-frame components (frame indices of [`Geometry::joints`]).
pub type Terms = Vec<(usize, [Id; 3])>;

/// The geometry of a model with frames: the frame tree, the points with their
/// velocities, and the default scene, all in the engine.
pub struct Geometry {
    /// Every frame of the tree, parents first: (parent, axis 0..3, cos, sin of its angle).
    pub joints: Vec<(Option<usize>, usize, Id, Id)>,
    /// The declared frames (`FRAMES`): name and tree index, the root first.
    pub frames: Vec<(String, usize)>,
    /// `POINTS`: name, position from the origin, velocity relative to the root (in q,
    /// dot(q), t).
    pub points: Vec<(String, Terms, Terms)>,
    /// `BODIES`: bodies and particles.
    pub bodies: Vec<String>,
    pub scene: Vec<SceneItem>,
    /// `GROUNDS`: each `ground`'s name, the symbols of its variables `u`, `v`, its height.
    pub grounds: Vec<(String, [u32; 2], Id)>,
    /// What the parameters must satisfy before a run (`Model::check_parameters`).
    pub requirements: Vec<Requirement>,
}

/// One check of [`Geometry::requirements`]: a quantity given by parameters, named for the
/// error, and what it must be.
pub struct Requirement {
    /// The quantity, where it is used and the expression, e.g. "the mass of body `wheel`
    /// (m)".
    pub what: String,
    pub need: Need,
    /// One value, or the six entries of an inertia (ixx, iyy, izz, ixy, iyz, izx).
    pub values: Vec<Id>,
}

/// What a [`Requirement`] asks (the runtime's `require_*`).
pub enum Need {
    Positive,
    NotNegative,
    /// Principal moments not negative, each at most the sum of the other two.
    Inertia,
}

/// One shape of the default scene (point indices into `points`, frame indices into
/// `frames`).
pub enum SceneItem {
    /// A rolling wheel: its centre, the axle in the body frame, the radius.
    Disk {
        center: usize,
        frame: usize,
        normal: [Id; 3],
        radius: Id,
    },
    /// A rolling torus: its centre, the axle in the body frame, major and crown radii.
    Torus {
        center: usize,
        frame: usize,
        normal: [Id; 3],
        major: Id,
        crown: Id,
    },
    /// A rolling sphere's or ellipsoid's surface: semi-axes along `frame`'s axes.
    Shell {
        center: usize,
        frame: usize,
        semi: [Id; 3],
    },
    /// A body's inertia ellipsoid: mass and the inertia (ixx, iyy, izz, ixy, iyz, izx) in
    /// `frame`.
    Ellipsoid {
        center: usize,
        frame: usize,
        mass: Id,
        inertia: [Id; 6],
    },
    /// A plane through a point, `up` in root components.
    Grid { point: usize, up: [Id; 3] },
    /// Uneven ground, by its index in [`Geometry::grounds`].
    Ground { ground: usize },
    /// A particle, or a body without inertia.
    Dot { point: usize },
    /// The shapes of `draw { .. }`, with their colours if given.
    Segment {
        from: usize,
        to: usize,
        color: Option<[u8; 3]>,
    },
    Sphere {
        center: usize,
        radius: Id,
        color: Option<[u8; 3]>,
    },
    /// A cylinder: `axis` (unit) in `frame`.
    Cylinder {
        center: usize,
        frame: usize,
        axis: [Id; 3],
        radius: Id,
        length: Id,
        color: Option<[u8; 3]>,
    },
    /// A box with half extents along `frame`'s axes.
    Cuboid {
        center: usize,
        frame: usize,
        half: [Id; 3],
        color: Option<[u8; 3]>,
    },
}

/// Configuration constraints `f(q, t) = 0` and the coordinates Newton solves them for.
#[derive(Default)]
pub struct Configuration {
    pub residuals: Vec<Id>,
    pub texts: Vec<String>,
    /// Coordinate indices, one per residual.
    pub solve: Vec<usize>,
    /// `d f_i / d q_j` for every coordinate, row-major (residuals x coordinates).
    pub jacobian: Vec<Id>,
}
