//! The locals every emitted function starts with: time, the parameters (`self.m`) and the
//! runtime inputs (`__u[i]`, from a `u` argument or zero).

use super::code::lit_usize;
use super::render::{Bindings, Num};
use crate::check::Checked;
use crate::model::Symbols;
use proc_macro2::TokenStream;
use quote::quote;

/// The bindings of time, the parameters and the inputs, and the prologue that makes them
/// locals at zero inputs (`__u` a zero array): what every function without a `u`
/// argument starts with. See [`input_prologue`] for the functions that take `u`.
pub fn param_bindings(m: &Checked, syms: &Symbols, num: Num) -> (Bindings, TokenStream) {
    let mut b = Bindings::default();
    b.insert(syms.t, quote! { t });
    let ty = num.ty();
    let nu = lit_usize(m.inputs.len());
    let zero = num.wrap(quote! { 0.0 });
    let mut lets = quote! { let __u: &[#ty; #nu] = &[#zero; #nu]; };
    for ((p, _), s) in m.params.iter().zip(&syms.params) {
        b.insert(*s, quote! { #p });
        lets.extend(quote! { let #p: #ty = self.#p; });
    }
    for (u, s) in m.inputs.iter().zip(&syms.inputs) {
        b.insert(*s, quote! { #u });
    }
    lets.extend(input_locals(m, num));
    (b, lets)
}

/// `let t_steer: S = __u[0]; ..`: the inputs as locals, read from `__u: &[S; NU]`.
fn input_locals(m: &Checked, num: Num) -> TokenStream {
    let ty = num.ty();
    let reads = m.inputs.iter().enumerate().map(|(i, u)| {
        let i = lit_usize(i);
        quote! { let #u: #ty = __u[#i]; }
    });
    quote! { #(#reads)* }
}

/// The prologue of a function that takes the inputs: `__u` from the slice `u`
/// (`Error::Dimension` on a wrong length), the parameters and the inputs as locals.
/// `from_arg: false` when `__u: &[S; NU]` is already a parameter of the function.
pub fn input_prologue(m: &Checked, num: Num, from_arg: bool) -> TokenStream {
    let ty = num.ty();
    let nu = lit_usize(m.inputs.len());
    let mut out = if from_arg {
        quote! { let __u: &[#ty; #nu] = ::nonholo::__private::as_array(u, "inputs u")?; }
    } else {
        TokenStream::new()
    };
    for (p, _) in &m.params {
        out.extend(quote! { let #p: #ty = self.#p; });
    }
    out.extend(input_locals(m, num));
    out
}
