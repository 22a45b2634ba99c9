//! An unrolled `LDL^T` solve of one block of G with structural zeros (3 x 3 and larger;
//! 1 x 1 and 2 x 2 blocks are written directly, dense ones go to the runtime's
//! `linalg::solve_spd`), as straight-line code that skips what the zeros make zero:
//! Talamucci 3.1's G has `G_13 = G_14 = 0`, so neither they nor the products they would
//! feed are computed (its rhs went from 1.08 to 0.96 of the hand-written one, which
//! factors the full 4 x 4). One reciprocal per pivot; the pivots' signs join the rhs's
//! single final check (`__pd`) instead of a branch each. On the dense 3 x 3 of the
//! Whipple bicycle the unrolled form was 8 % slower than the runtime's loop, hence the
//! split.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `let __pd = { .. };`: solves `G x = f` for a `k x k` symmetric block (`entry(i, j)` for
/// `i >= j`, `None` where structurally zero), passes each `x_i` to `assign(i, x_i)`, and
/// and-s `d_j > 0` for every pivot into `__pd` (G is positive definite exactly when every
/// pivot is positive). With `w_ij = L_ij d_j`:
///
/// ```text
/// w_ij = G_ij - sum_{m<j} w_im L_jm,   L_ij = w_ij / d_j,   d_i = G_ii - sum_{m<i} w_im L_im
/// y_i = f_i - sum_{m<i} L_im y_m,   x_i = y_i / d_i - sum_{m>i} L_mi x_m
/// ```
pub fn solve(
    k: usize,
    entry: impl Fn(usize, usize) -> Option<TokenStream>,
    f: &[TokenStream],
    assign: impl Fn(usize, TokenStream) -> TokenStream,
) -> TokenStream {
    let one = quote! { <__S as ::nonholo::Scalar>::from_f64(1.0) };
    let zero = quote! { <__S as ::nonholo::Scalar>::from_f64(0.0) };
    let mut stmts = Vec::new();
    // w[i][j], l[i][j] for i > j: the names, None where structurally zero
    let mut w: Vec<Vec<Option<TokenStream>>> = vec![vec![None; k]; k];
    let mut l: Vec<Vec<Option<TokenStream>>> = vec![vec![None; k]; k];
    let mut inv_d = Vec::with_capacity(k);
    let mut positive = Vec::with_capacity(k);
    // `first - sum of products`, or None when every piece is structurally zero
    let difference = |first: Option<TokenStream>, products: Vec<TokenStream>| {
        let mut products = products.into_iter();
        let mut e = match first {
            Some(e) => e,
            None => {
                let p = products.next()?;
                quote! { -(#p) }
            }
        };
        for p in products {
            e = quote! { #e - #p };
        }
        Some(e)
    };
    for j in 0..k {
        let products: Vec<TokenStream> = (0..j)
            .filter_map(|m| Some((w[j][m].clone()?, l[j][m].clone()?)))
            .map(|(a, b)| quote! { #a * #b })
            .collect();
        let d = difference(Some(entry(j, j).unwrap_or_else(|| zero.clone())), products)
            .unwrap_or_else(|| zero.clone());
        let (dn, idn) = (format_ident!("__dd{}", j), format_ident!("__id{}", j));
        stmts.push(quote! {
            let #dn: __S = #d;
            let #idn: __S = #one / #dn;
        });
        positive.push(quote! { (::nonholo::Scalar::re(#dn) > 0.0) });
        inv_d.push(quote! { #idn });
        for i in j + 1..k {
            let products: Vec<TokenStream> = (0..j)
                .filter_map(|m| Some((w[i][m].clone()?, l[j][m].clone()?)))
                .map(|(a, b)| quote! { #a * #b })
                .collect();
            let Some(e) = difference(entry(i, j), products) else {
                continue;
            };
            let (wn, ln) = (
                format_ident!("__w{}_{}", i, j),
                format_ident!("__l{}_{}", i, j),
            );
            stmts.push(quote! {
                let #wn: __S = #e;
                let #ln: __S = #wn * #idn;
            });
            w[i][j] = Some(quote! { #wn });
            l[i][j] = Some(quote! { #ln });
        }
    }
    // L y = f, then L^T x = D^-1 y
    for (i, fi) in f.iter().enumerate() {
        let products: Vec<TokenStream> = (0..i)
            .filter_map(|m| {
                let lim = l[i][m].clone()?;
                let ym = format_ident!("__y{}", m);
                Some(quote! { #lim * #ym })
            })
            .collect();
        let e = difference(Some(quote! { (#fi) }), products).unwrap_or_else(|| zero.clone());
        let yn = format_ident!("__y{}", i);
        stmts.push(quote! { let #yn: __S = #e; });
    }
    let mut assigns = Vec::with_capacity(k);
    for i in (0..k).rev() {
        let (yn, idi) = (format_ident!("__y{}", i), &inv_d[i]);
        let products: Vec<TokenStream> = (i + 1..k)
            .filter_map(|m| {
                let lmi = l[m][i].clone()?;
                let xm = format_ident!("__x{}", m);
                Some(quote! { #lmi * #xm })
            })
            .collect();
        let e = difference(Some(quote! { #yn * #idi }), products).unwrap_or_else(|| zero.clone());
        let xn = format_ident!("__x{}", i);
        stmts.push(quote! { let #xn: __S = #e; });
        assigns.push(assign(i, quote! { #xn }));
    }
    quote! {
        let __pd = {
            #(#stmts)*
            #(#assigns)*
            __pd #(& #positive)*
        };
    }
}
