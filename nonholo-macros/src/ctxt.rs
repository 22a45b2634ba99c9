//! Error collection (after serde_derive's `Ctxt`): every stage records its errors here
//! with the user's span and goes on, so that all mistakes are reported at once.

use proc_macro2::Span;
use std::cell::RefCell;
use std::fmt::Display;

#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Self::default()
    }

    /// Record an error at `span`.
    pub fn error(&self, span: Span, msg: impl Display) {
        self.errors.borrow_mut().push(syn::Error::new(span, msg));
    }

    /// Record an error with a `help:` line.
    pub fn error_help(&self, span: Span, msg: impl Display, help: impl Display) {
        self.error(span, format!("{msg}\n\nhelp: {help}"));
    }

    pub fn push(&self, e: syn::Error) {
        self.errors.borrow_mut().push(e);
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.borrow().is_empty()
    }

    /// How many errors are recorded (a stage that adds none succeeded).
    pub fn error_count(&self) -> usize {
        self.errors.borrow().len()
    }

    /// All errors as one `compile_error!` stream (empty when there are none).
    pub fn into_compile_errors(self) -> proc_macro2::TokenStream {
        self.errors
            .into_inner()
            .into_iter()
            .map(|e| e.to_compile_error())
            .collect()
    }
}

/// The closest of `candidates` to `name` by edit distance, if reasonably close.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(&str, usize)> = None;
    for c in candidates {
        let d = edit_distance(&name.to_lowercase(), &c.to_lowercase());
        if best.is_none_or(|(_, bd)| d < bd) {
            best = Some((c, d));
        }
    }
    best.filter(|(c, d)| *d <= (name.len().max(c.len()) / 3).max(1))
        .map(|(c, _)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}
