//! The backtracking matcher against JavaScript's own answers (each expected
//! value was printed by `RegExp.prototype.exec` on Node.js 20), and its bounds.

use webfw_pattern::{Options, Pattern};

fn regex(src: &str) -> Pattern {
    Pattern::regex(src, Options::route()).unwrap()
}

/// `(start-relative length, params)` of a match.
fn exec<'p>(p: &Pattern, path: &'p str) -> Option<(usize, Vec<(usize, &'p str)>)> {
    p.matches(path).map(|m| (m.len, m.params))
}

#[test]
fn an_empty_iteration_past_the_minimum_keeps_the_earlier_capture() {
    // /^\/(a|){1,2}$/.exec("/a") → ["/a", "a"]
    assert_eq!(
        exec(&regex(r"^\/(a|){1,2}$"), "/a"),
        Some((2, vec![(0, "a")]))
    );
}

#[test]
fn captures_inside_a_quantifier_reset_at_every_iteration() {
    // /^\/(?:(a)|b)+$/.exec("/ab") → ["/ab", undefined]
    assert_eq!(exec(&regex(r"^\/(?:(a)|b)+$"), "/ab"), Some((3, vec![])));
    // /^\/(?:(x)\/)*y$/.exec("/x/x/y") → ["/x/x/y", "x"]
    assert_eq!(
        exec(&regex(r"^\/(?:(x)\/)*y$"), "/x/x/y"),
        Some((6, vec![(0, "x")]))
    );
}

#[test]
fn backreferences_follow_the_case_rule_and_unset_groups_match_empty() {
    // path-to-regexp("/:x(a)\\1") is /^(?:\/(a))\1\/?$/i, and its exec("/aA")
    // is ["/aA", "a"]
    let p = Pattern::new(r"/:x(a)\1", Options::route()).unwrap();
    assert_eq!(exec(&p, "/aA"), Some((3, vec![(0, "a")])));
    assert_eq!(exec(&p, "/aB"), None);
    let p = Pattern::new(r"/:x(a)\1", Options::route().with_sensitive(true)).unwrap();
    assert_eq!(exec(&p, "/aA"), None);
    // /^\/(z)?(?:\1a)$/.exec("/a") → ["/a", undefined]
    assert_eq!(exec(&regex(r"^\/(z)?(?:\1a)$"), "/a"), Some((2, vec![])));
}

#[test]
fn look_behinds_of_any_length() {
    // /(?<=a+)b/.exec("/aab") → index 3, "b"
    assert_eq!(exec(&regex(r"(?<=a+)b"), "/aab"), Some((1, vec![])));
    assert_eq!(exec(&regex(r"(?<!a)b"), "/ab"), None);
    assert_eq!(exec(&regex(r"(?<!a)b"), "/cb"), Some((1, vec![])));
}

#[test]
fn a_catastrophic_pattern_gives_up_instead_of_running_for_ever() {
    // JavaScript finds no match either (after 2^40 steps).
    let path = format!("/{}", "a".repeat(40));
    assert_eq!(exec(&regex(r"^\/(a+)+b$"), &path), None);
}

#[test]
fn a_quantified_character_scans_any_length_without_depth() {
    let long = format!("/files/{}", "x/".repeat(200_000));
    let p = Pattern::new("/files/*", Options::route()).unwrap();
    let m = p.matches(&long).unwrap();
    assert_eq!(m.len, long.len());
    assert!(
        m.params == [(0, &long[7..])],
        "the rest of the path is param 0"
    );
}

#[test]
fn deeply_repeated_groups_stop_before_the_stack_does() {
    // Thousands of iterations of a group: no match rather than a stack
    // overflow, on a thread with a tokio worker's stack (2 MiB).
    let path = format!("/{}y", "x/".repeat(50_000));
    let p = regex(r"^\/(?:(x)\/)*y$");
    let found = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || p.matches(&path).is_some())
        .unwrap()
        .join()
        .unwrap();
    assert!(!found);
    // two hundred still match: `/:p+` (`(?:\/([^/]+?))+`) with 200 segments
    let path = "/x".repeat(200);
    let p = Pattern::new("/:p+", Options::route()).unwrap();
    assert_eq!(p.matches(&path).map(|m| m.params), Some(vec![(0, "x")]));
}
