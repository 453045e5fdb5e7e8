//! Stable sorting through one shared, non-generic merge sort.
//!
//! `slice::sort_by_key` and its relatives build a fresh copy of the
//! standard library's sort (5–15 KB of code) for every element type and
//! key they are called with. The sorts webfw needs (a router's layers at
//! start-up, array-index parameters, negotiated types, byte ranges) are
//! short or run once, so they share this one: a short slice gets an
//! insertion sort, inlined and small; a longer one is ordered through a
//! single merge sort of indices that calls the comparison through a
//! `dyn` reference, then moved into place. O(n log n) either way, so a
//! long list a client sends costs no more than with the standard sort.

use std::cmp::Ordering;

/// Up to this length an insertion sort (at most 120 comparisons) costs
/// less than the merge sort's two index buffers.
const INSERTION_MAX: usize = 16;

/// Sorts `v` by the key `key` gives each element, keeping equal keys in
/// their order (`slice::sort_by_key`).
///
/// ```
/// let mut v = [(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd')];
/// webfw_http::sort::sort_by_key(&mut v, |e| e.0);
/// assert_eq!(v, [(0, 'd'), (1, 'b'), (2, 'a'), (2, 'c')]);
/// ```
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` with `compare`, keeping equal elements in their order
/// (`slice::sort_by`).
///
/// ```
/// let mut v = ["bb", "a", "ccc", "d"];
/// webfw_http::sort::sort_by(&mut v, |a, b| a.len().cmp(&b.len()));
/// assert_eq!(v, ["a", "d", "bb", "ccc"]);
/// ```
pub fn sort_by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if v.len() <= INSERTION_MAX {
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && compare(&v[j - 1], &v[j]) == Ordering::Greater {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
        return;
    }
    let mut order = merge_order(v.len(), &mut |i, j| {
        compare(&v[i], &v[j]) == Ordering::Greater
    });
    permute(v, &mut order);
}

/// The stable order of `n` elements: `order[k]` is the index of the element
/// that belongs at `k`. `greater(i, j)`: element `i` sorts after element `j`.
fn merge_order(n: usize, greater: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                // Ties take the left run's element: stable.
                if greater(order[i], order[j]) {
                    merged[k] = order[j];
                    j += 1;
                } else {
                    merged[k] = order[i];
                    i += 1;
                }
                k += 1;
            }
            merged[k..k + (mid - i)].copy_from_slice(&order[i..mid]);
            k += mid - i;
            merged[k..k + (hi - j)].copy_from_slice(&order[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Moves the elements of `v` into `order` (see [`merge_order`]) by swaps,
/// following each cycle once; `order` is used up.
fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start || from == at {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator: no dev-dependency for one test.
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn equals_the_standard_stable_sort_on_every_length_and_spread() {
        let mut seed = 7;
        for len in (0..40).chain([63, 64, 65, 100, 257, 1000]) {
            for spread in [1, 3, 10, 1 << 20] {
                let v: Vec<(u64, usize)> = (0..len).map(|i| (lcg(&mut seed) % spread, i)).collect();
                let mut ours = v.clone();
                sort_by_key(&mut ours, |e| e.0);
                let mut std = v.clone();
                std.sort_by_key(|e| e.0);
                assert_eq!(ours, std, "len {len}, keys below {spread}");
            }
        }
    }

    #[test]
    fn sorts_owned_values_without_losing_or_doubling_any() {
        let mut seed = 11;
        let v: Vec<String> = (0..300)
            .map(|_| format!("k{}", lcg(&mut seed) % 50))
            .collect();
        let mut ours = v.clone();
        sort_by(&mut ours, |a, b| a.cmp(b));
        let mut std = v;
        std.sort();
        assert_eq!(ours, std);
    }

    #[test]
    fn sorted_and_reversed_inputs() {
        let mut up: Vec<u32> = (0..500).collect();
        sort_by_key(&mut up, |&x| x);
        assert!(up.windows(2).all(|w| w[0] < w[1]));
        let mut down: Vec<u32> = (0..500).rev().collect();
        sort_by_key(&mut down, |&x| x);
        assert_eq!(down, up);
    }
}
