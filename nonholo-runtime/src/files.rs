//! Where examples and programs write their figures and animations.

use std::path::{Path, PathBuf};

use crate::Error;

/// The folder an example or program writes its plots and animations into:
/// `$NONHOLO_PLOTS` when set and not empty, else `default` (e.g.
/// `Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots")`, never the working
/// directory); created if missing.
///
/// ```
/// let dir = nonholo_runtime::files::plots_dir(std::env::temp_dir().join("nonholo_doc_plots"))?;
/// assert!(dir.is_dir());
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
pub fn plots_dir(default: impl AsRef<Path>) -> Result<PathBuf, Error> {
    let dir = match std::env::var_os("NONHOLO_PLOTS") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => default.as_ref().to_path_buf(),
    };
    std::fs::create_dir_all(&dir).map_err(|e| {
        Error::InvalidOptions(alloc::format!("cannot create {}: {e}", dir.display()))
    })?;
    Ok(dir)
}
