//! The URDF file as data: links (inertial and collision shapes) and joints (kind, parent,
//! child, origin, axis, damping, mimic), each with the line it was written on. What the
//! dynamics does not read (visuals, materials, limits, transmissions) is passed over. Every mistake is collected as `line: <element>: message`, so that all are reported
//! at once; nothing here knows the DSL.

use crate::sym::number::Number;

/// A number as written: its value, and its exact rational where the text is a decimal
/// (the offsets of a robot add exactly, so that a wheel whose centre is one radius above
/// its base's origin is on the ground by construction).
#[derive(Clone, Copy, Debug)]
pub struct Num {
    pub value: f64,
    pub exact: Number,
}

impl Num {
    pub fn zero() -> Num {
        Num {
            value: 0.0,
            exact: Number::int(0),
        }
    }

    pub fn is_zero(&self) -> bool {
        self.value == 0.0
    }
}

/// `<origin xyz=".." rpy=".."/>`: a translation, then the fixed-axis rotation
/// `Rz(yaw) Ry(pitch) Rx(roll)` (the URDF convention).
#[derive(Clone, Copy, Debug)]
pub struct Pose {
    pub xyz: [Num; 3],
    pub rpy: [Num; 3],
}

impl Pose {
    pub fn identity() -> Pose {
        Pose {
            xyz: [Num::zero(); 3],
            rpy: [Num::zero(); 3],
        }
    }
}

/// A collision shape's geometry, as far as a wheel's radius reads it.
#[derive(Clone, Debug)]
pub enum Geometry {
    /// About the shape's own z axis.
    Cylinder {
        radius: f64,
    },
    Sphere(f64),
    /// A box or a mesh.
    Other,
}

#[derive(Clone, Debug)]
pub struct Shape {
    pub origin: Pose,
    pub geometry: Geometry,
}

#[derive(Clone, Debug)]
pub struct Inertial {
    pub origin: Pose,
    pub mass: f64,
    /// (ixx, iyy, izz, ixy, iyz, ixz) about the centre of mass, in the inertial frame.
    pub inertia: [f64; 6],
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct Link {
    pub name: String,
    pub line: u32,
    pub inertial: Option<Inertial>,
    pub collisions: Vec<Shape>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKind {
    Revolute,
    Continuous,
    Prismatic,
    Fixed,
}

#[derive(Clone, Debug)]
pub struct Mimic {
    pub joint: String,
    pub multiplier: f64,
    pub offset: f64,
}

#[derive(Clone, Debug)]
pub struct Joint {
    pub name: String,
    pub line: u32,
    pub kind: JointKind,
    pub parent: String,
    pub child: String,
    pub origin: Pose,
    /// A unit vector in the joint's frame (normalized here).
    pub axis: [f64; 3],
    pub damping: f64,
    pub mimic: Option<Mimic>,
}

impl Joint {
    pub fn moves(&self) -> bool {
        self.kind != JointKind::Fixed
    }
}

pub struct Robot {
    pub links: Vec<Link>,
    pub joints: Vec<Joint>,
}

/// Read a URDF document; `Err` with every mistake found (`line: message`).
pub fn read(text: &str) -> Result<Robot, Vec<String>> {
    let doc = match roxmltree::Document::parse(text) {
        Ok(d) => d,
        Err(e) => return Err(vec![format!("{}: malformed XML: {e}", e.pos().row)]),
    };
    let mut r = Reader {
        doc: &doc,
        errors: Vec::new(),
    };
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        r.error(root, "the document's root element is not `<robot>`");
        return Err(r.errors);
    }
    let mut links = Vec::new();
    let mut joints = Vec::new();
    for node in root.children().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "link" => {
                if let Some(l) = r.link(node) {
                    links.push(l);
                }
            }
            "joint" => {
                if let Some(j) = r.joint(node) {
                    joints.push(j);
                }
            }
            // materials, transmissions, gazebo extensions: nothing the dynamics reads
            _ => {}
        }
    }
    if r.errors.is_empty() {
        Ok(Robot { links, joints })
    } else {
        Err(r.errors)
    }
}

struct Reader<'a, 'i> {
    doc: &'a roxmltree::Document<'i>,
    errors: Vec<String>,
}

type Node<'a, 'i> = roxmltree::Node<'a, 'i>;

/// The first child element `<tag>` of `n`.
fn child<'a, 'i>(n: Node<'a, 'i>, tag: &str) -> Option<Node<'a, 'i>> {
    n.children()
        .find(|c| c.is_element() && c.tag_name().name() == tag)
}

impl<'a, 'i> Reader<'a, 'i> {
    fn line(&self, n: Node) -> u32 {
        self.doc.text_pos_at(n.range().start).row
    }

    /// `<tag name="..">` as a message's subject.
    fn subject(n: Node) -> String {
        match n.attribute("name") {
            Some(name) => format!("<{} name=\"{name}\">", n.tag_name().name()),
            None => format!("<{}>", n.tag_name().name()),
        }
    }

    fn error(&mut self, n: Node, msg: impl std::fmt::Display) {
        let line = self.line(n);
        self.errors
            .push(format!("{line}: {}: {msg}", Self::subject(n)));
    }

    /// Whitespace-separated finite numbers, exactly `count` of them.
    fn numbers(&mut self, n: Node, attr: &str, count: usize) -> Option<Vec<Num>> {
        let text = n.attribute(attr)?;
        let mut out = Vec::new();
        for word in text.split_whitespace() {
            match word.parse::<f64>() {
                Ok(v) if v.is_finite() => out.push(Num {
                    value: v,
                    exact: Number::parse_decimal(word).unwrap_or(Number::Float(v)),
                }),
                Ok(_) => {
                    self.error(n, format!("`{attr}` holds the non-finite number `{word}`"));
                    return None;
                }
                Err(_) => {
                    self.error(n, format!("`{attr}` holds `{word}`, not a number"));
                    return None;
                }
            }
        }
        if out.len() != count {
            self.error(
                n,
                format!("`{attr}` needs {count} numbers, found {}", out.len()),
            );
            return None;
        }
        Some(out)
    }

    fn number(&mut self, n: Node, attr: &str) -> Option<f64> {
        self.numbers(n, attr, 1).map(|v| v[0].value)
    }

    fn required_number(&mut self, n: Node, attr: &str) -> Option<f64> {
        if n.attribute(attr).is_none() {
            self.error(n, format!("missing `{attr}`"));
            return None;
        }
        self.number(n, attr)
    }

    fn pose(&mut self, parent: Node) -> Pose {
        let mut pose = Pose::identity();
        if let Some(o) = child(parent, "origin") {
            if let Some(v) = self.numbers(o, "xyz", 3) {
                pose.xyz = [v[0], v[1], v[2]];
            }
            if let Some(v) = self.numbers(o, "rpy", 3) {
                pose.rpy = [v[0], v[1], v[2]];
            }
        }
        pose
    }

    fn name(&mut self, n: Node) -> Option<String> {
        match n.attribute("name") {
            Some(s) if !s.is_empty() => Some(s.to_string()),
            _ => {
                self.error(n, "missing `name`");
                None
            }
        }
    }

    fn link(&mut self, n: Node) -> Option<Link> {
        let name = self.name(n)?;
        let inertial = child(n, "inertial").and_then(|i| self.inertial(i));
        let nodes: Vec<Node> = n
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() == "collision")
            .collect();
        let collisions = nodes.into_iter().filter_map(|c| self.shape(c)).collect();
        Some(Link {
            name,
            line: self.line(n),
            inertial,
            collisions,
        })
    }

    fn inertial(&mut self, n: Node) -> Option<Inertial> {
        let origin = self.pose(n);
        let mass = match child(n, "mass") {
            Some(m) => self.required_number(m, "value")?,
            None => {
                self.error(n, "missing `<mass value=\"..\"/>`");
                return None;
            }
        };
        let mut inertia = [0.0; 6];
        match child(n, "inertia") {
            Some(i) => {
                for (k, attr) in ["ixx", "iyy", "izz", "ixy", "iyz", "ixz"]
                    .iter()
                    .enumerate()
                {
                    inertia[k] = self.number(i, attr).unwrap_or(0.0);
                }
            }
            None if mass != 0.0 => {
                self.error(n, "missing `<inertia ../>`");
                return None;
            }
            None => {}
        }
        Some(Inertial {
            origin,
            mass,
            inertia,
            line: self.line(n),
        })
    }

    fn shape(&mut self, n: Node) -> Option<Shape> {
        let origin = self.pose(n);
        let Some(g) = child(n, "geometry") else {
            self.error(n, "missing `<geometry>`");
            return None;
        };
        let Some(kind) = g.children().find(|c| c.is_element()) else {
            self.error(g, "an empty `<geometry>`");
            return None;
        };
        let geometry = match kind.tag_name().name() {
            // a capsule turns about its axis on the same radius
            "cylinder" | "capsule" => Geometry::Cylinder {
                radius: self.required_number(kind, "radius")?,
            },
            "sphere" => Geometry::Sphere(self.required_number(kind, "radius")?),
            "box" | "mesh" => Geometry::Other,
            other => {
                self.error(kind, format!("unknown geometry `<{other}>`"));
                return None;
            }
        };
        Some(Shape { origin, geometry })
    }

    fn joint(&mut self, n: Node) -> Option<Joint> {
        let name = self.name(n)?;
        let kind = match n.attribute("type") {
            Some("revolute") => JointKind::Revolute,
            Some("continuous") => JointKind::Continuous,
            Some("prismatic") => JointKind::Prismatic,
            Some("fixed") => JointKind::Fixed,
            Some(k @ ("floating" | "planar")) => {
                self.error(
                    n,
                    format!("a {k} joint inside the tree: only the root moves freely, by `root: floating(..)` or `root: planar(..)`"),
                );
                return None;
            }
            Some(other) => {
                self.error(n, format!("unknown joint type `{other}`"));
                return None;
            }
            None => {
                self.error(n, "missing `type`");
                return None;
            }
        };
        let mut link_of = |tag: &str| -> Option<String> {
            match child(n, tag).and_then(|c| c.attribute("link")) {
                Some(l) => Some(l.to_string()),
                None => {
                    self.error(n, format!("missing `<{tag} link=\"..\"/>`"));
                    None
                }
            }
        };
        let parent = link_of("parent");
        let child_link = link_of("child");
        let origin = self.pose(n);
        let mut axis = [1.0, 0.0, 0.0];
        if let Some(a) = child(n, "axis")
            && let Some(v) = self.numbers(a, "xyz", 3)
        {
            let norm = (v[0].value.powi(2) + v[1].value.powi(2) + v[2].value.powi(2)).sqrt();
            if norm < 1e-12 && kind != JointKind::Fixed {
                self.error(a, "a zero axis: a joint turns or slides along a direction");
                return None;
            }
            if norm >= 1e-12 {
                axis = [v[0].value / norm, v[1].value / norm, v[2].value / norm];
            }
        }
        let damping = child(n, "dynamics")
            .and_then(|d| self.number(d, "damping"))
            .unwrap_or(0.0);
        let mimic = match child(n, "mimic") {
            Some(m) => match m.attribute("joint") {
                Some(j) => Some(Mimic {
                    joint: j.to_string(),
                    multiplier: self.number(m, "multiplier").unwrap_or(1.0),
                    offset: self.number(m, "offset").unwrap_or(0.0),
                }),
                None => {
                    self.error(m, "missing `joint`");
                    None
                }
            },
            None => None,
        };
        Some(Joint {
            name,
            line: self.line(n),
            kind,
            parent: parent?,
            child: child_link?,
            origin,
            axis,
            damping,
            mimic,
        })
    }
}
