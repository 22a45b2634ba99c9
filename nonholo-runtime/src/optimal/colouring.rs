//! The directions of the Hessian's sweeps: a star colouring of a point's block
//! ([`star_colouring`]), so that every entry is read alone from one row of the compressed
//! Hessian.

use alloc::vec;
use alloc::vec::Vec;

/// A star colouring of a point's block: the directions of the sweeps are sums of
/// variables of one colour, `d2/dz dz_row` along direction `c` is then
/// `sum over v of colour c of H[row][v]`, and every pair `(a, b)` must be read alone in
/// one of its two rows: `b`'s colour met once among `a`'s partners, or `a`'s among
/// `b`'s. A partition with this property is a star colouring of the block's graph
/// (Coleman & Moré 1984; Gebremedhin, Manne & Pothen 2005, "symmetric direct
/// determination"). Greedy, the vertices by falling degree, each the least colour that
/// keeps every coloured pair readable (a colour of its own always does): a duration
/// that couples with every variable takes one direction and leaves the rest their own
/// colouring, where a plain column colouring would give every variable its own.
///
/// Returns each variable's colour (`u32::MAX`: in no pair), the number of colours and
/// each pair's `(row, colour)` to read.
pub(crate) fn star_colouring(
    nv: usize,
    pairs: &[(usize, usize)],
) -> (Vec<u32>, usize, Vec<(usize, u32)>) {
    const NONE: u32 = u32::MAX;
    let mut partners = vec![Vec::new(); nv];
    for &(a, b) in pairs {
        partners[a].push(b);
        if a != b {
            partners[b].push(a);
        }
    }
    let mut order: Vec<usize> = (0..nv).filter(|&v| !partners[v].is_empty()).collect();
    order.sort_by_key(|&v| core::cmp::Reverse(partners[v].len()));
    let mut colour = vec![NONE; nv];
    // seen[r * nv + c]: how many of row r's coloured partners have colour c
    let mut seen = vec![0u32; nv * nv];
    let readable = |colour: &[u32], seen: &[u32], a: usize, b: usize| {
        seen[a * nv + colour[b] as usize] == 1 || seen[b * nv + colour[a] as usize] == 1
    };
    let mut colours = 0;
    for &v in &order {
        for c in 0..=colours {
            colour[v] = c as u32;
            for &r in &partners[v] {
                seen[r * nv + c] += 1;
            }
            // only the rows of v's partners changed: their pairs with coloured partners
            let ok = c == colours
                || partners[v]
                    .iter()
                    .filter(|&&r| colour[r] != NONE)
                    .all(|&r| {
                        partners[r]
                            .iter()
                            .all(|&w| colour[w] == NONE || readable(&colour, &seen, r, w))
                    });
            if ok {
                colours = colours.max(c + 1);
                break;
            }
            for &r in &partners[v] {
                seen[r * nv + c] -= 1;
            }
        }
    }
    let reads = pairs
        .iter()
        .map(|&(a, b)| {
            if seen[a * nv + colour[b] as usize] == 1 {
                (a, colour[b])
            } else {
                (b, colour[a])
            }
        })
        .collect();
    (colour, colours, reads)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimal::pattern::Probe;

    /// Compresses a symmetric matrix with `pattern` (lower triangle) by the colouring and
    /// reads every entry back: each must come out alone.
    fn recovers(nv: usize, pattern: &[(usize, usize)]) -> usize {
        let (colour, colours, reads) = star_colouring(nv, pattern);
        let mut probe = Probe::new();
        let mut h = vec![0.0; nv * nv];
        for &(a, b) in pattern {
            let v = probe.next() + 2.0;
            h[a * nv + b] = v;
            h[b * nv + a] = v;
        }
        // compressed[r][c] = sum over v of colour c of H[r][v]
        let mut compressed = vec![0.0; nv * colours];
        for r in 0..nv {
            for v in 0..nv {
                if colour[v] != u32::MAX {
                    compressed[r * colours + colour[v] as usize] += h[r * nv + v];
                }
            }
        }
        for (&(a, b), &(row, c)) in pattern.iter().zip(&reads) {
            assert_eq!(compressed[row * colours + c as usize], h[a * nv + b]);
        }
        colours
    }

    #[test]
    fn a_duration_coupled_with_every_variable_takes_one_colour() {
        // a diagonal block and the duration (last) coupled with each variable: 2 colours
        let n = 12;
        let mut pattern: Vec<(usize, usize)> = (0..n).map(|a| (a, a)).collect();
        pattern.extend((0..=n).map(|b| (n, b)));
        assert_eq!(recovers(n + 1, &pattern), 2);
    }

    #[test]
    fn a_dense_block_takes_a_colour_per_variable() {
        let pattern: Vec<(usize, usize)> =
            (0..6).flat_map(|a| (0..=a).map(move |b| (a, b))).collect();
        assert_eq!(recovers(6, &pattern), 6);
    }

    #[test]
    fn a_tridiagonal_block_takes_three_colours() {
        // a path graph with its diagonal: star colourings of a path need 3 colours
        let n = 20;
        let mut pattern: Vec<(usize, usize)> = (0..n).map(|a| (a, a)).collect();
        pattern.extend((1..n).map(|a| (a, a - 1)));
        pattern.sort_unstable();
        assert_eq!(recovers(n, &pattern), 3);
    }

    #[test]
    fn variables_in_no_pair_take_no_direction() {
        let pattern = [(0, 0), (3, 0), (3, 3)];
        let (colour, colours, _) = star_colouring(5, &pattern);
        assert_eq!(colours, 2);
        assert_eq!(colour[1], u32::MAX);
        assert_eq!(colour[4], u32::MAX);
        assert_eq!(recovers(5, &pattern), 2);
    }
}
