//! nonholo's compiled models as Python objects speaking NumPy.
//!
//! The Python package `nonholo` (`pip install ./python`) holds the library's models in its
//! native module `nonholo._native`; `nonholo.build("my_models.rs")` compiles a file of
//! `nonholonomic!` models into a module of its own. Both are made by one macro,
//! [`export!`], which puts every model behind the object-safe [`erased::Erased`] (each
//! model's rhs and run loop stay monomorphic inside) and registers it under its Rust name:
//!
//! ```ignore
//! nonholo_python::export!(my_models: Skate, WhippleBicycle);
//! ```
//!
//! makes the extension module `my_models`, whose `__registry__` builds the models from
//! keyword parameters; the package's Python layer (`python/nonholo/`) turns that into
//! `nonholo.build(...).Skate(m=1.0, i=0.1)`. A model is one Python class, `Model`; its runs
//! are `Trajectory`s; linearizations `Linearization`s. Runs release the GIL, and
//! `Model.simulate_many` runs its cases on all cores (rayon). Errors are the package's
//! `nonholo.NonholoError` (`ValueError` for bad arguments) with the Rust error's message.

mod entry;
pub mod erased;
mod errors;
mod linear;
mod model;
mod options;
mod registry;
mod trajectory;
mod vectors;

pub use entry::{Build, Entry, Registry};
pub use linear::PyLinearization;
pub use model::PyModel;
pub use registry::register;
pub use trajectory::PyTrajectory;

/// What [`export!`] expands to; not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::erased::{Compiled, Html};
    pub use nonholo::viz::Animation;
    pub use nonholo::{Error, Geometry, Trajectory};
    use std::marker::PhantomData;

    /// Autoref dispatch on whether `M` has frames to draw (`impl Geometry`): a model
    /// written with scalar energies has none, and its runs cannot be animated.
    pub struct Probe<M>(pub PhantomData<M>);

    pub trait ViaGeometry<M> {
        fn html(self) -> Option<Html<M>>;
    }
    impl<M: Geometry> ViaGeometry<M> for &&Probe<M> {
        fn html(self) -> Option<Html<M>> {
            Some(|model: &M, run: &Trajectory, animation: &Animation| {
                run.animation_html(model, animation)
            })
        }
    }
    pub trait WithoutGeometry<M> {
        fn html(self) -> Option<Html<M>>;
    }
    impl<M> WithoutGeometry<M> for &Probe<M> {
        fn html(self) -> Option<Html<M>> {
            None
        }
    }
}

/// The Python extension module `$module` holding the models `$model`: each registered
/// under the last segment of its path, built from keyword parameters (defaults from the
/// model's declaration).
///
/// The crate that calls it is a `cdylib` depending on `pyo3` (with `extension-module`),
/// `nonholo` and this crate; `nonholo.build` writes such a crate.
#[macro_export]
macro_rules! export {
    ($module:ident : $($model:path),+ $(,)?) => {
        #[::pyo3::pymodule]
        fn $module(
            m: &::pyo3::Bound<'_, ::pyo3::types::PyModule>,
        ) -> ::pyo3::PyResult<()> {
            #[allow(unused_imports)]
            use $crate::__private::{ViaGeometry as _, WithoutGeometry as _};
            $crate::register(m, ::core::stringify!($module), ::std::vec![$(
                $crate::Entry {
                    name: $crate::Entry::last_segment(::core::stringify!($model)),
                    build: |values: &[f64]| {
                        let model = <$model as ::nonholo::Model>::from_parameters(values)?;
                        let name = $crate::Entry::last_segment(::core::stringify!($model));
                        let layout = $crate::__private::Compiled::<$model>::layout_of(name);
                        let html = (&&$crate::__private::Probe::<$model>(::core::marker::PhantomData)).html();
                        ::core::result::Result::Ok(::std::sync::Arc::new(
                            $crate::__private::Compiled { model, layout, html },
                        ) as ::std::sync::Arc<dyn $crate::erased::Erased>)
                    },
                    parameters: <$model as ::nonholo::Model>::PARAMETERS,
                    defaults: <$model as ::nonholo::Model>::PARAMETER_DEFAULTS,
                    doc: ::core::concat!("The model `", ::core::stringify!($model), "` compiled by nonholonomic!."),
                }
            ),+])
        }
    };
}
