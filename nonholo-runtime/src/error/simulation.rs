//! The error of a run, with the samples it recorded before it stopped.

use super::Error;
use crate::Trajectory;

/// An integration that stopped early: the [`Error`] and everything computed before it.
///
/// The partial trajectory is never thrown away: it ends at the last sample recorded before
/// the failure, which is usually what is needed to see what went wrong. `?` converts it
/// into a plain [`Error`] (dropping the partial trajectory).
///
/// ```
/// use nonholo_runtime::{Error, SimulationError, Trajectory};
///
/// let e = SimulationError {
///     error: Error::InvalidOptions("dt must be positive".into()),
///     partial: Trajectory::from_names(&["x"], &["v"]),
/// };
/// assert!(e.partial.is_empty());
/// assert_eq!(Error::from(e), Error::InvalidOptions("dt must be positive".into()));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{error} (after {} recorded samples)", partial.len())]
pub struct SimulationError {
    /// What stopped the integration.
    pub error: Error,
    /// The samples recorded before it stopped (possibly none).
    pub partial: Trajectory,
}

impl From<SimulationError> for Error {
    fn from(e: SimulationError) -> Self {
        e.error
    }
}
