//! The arguments of each attribute: route paths, `#[route]`'s `method =` and
//! `path =`, param names, mount paths. Every literal is checked here.

use proc_macro2::TokenStream;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Lit, LitStr, Meta, Token};

use crate::kind::{HTTP_METHODS, Kind};
use crate::paths::{self, Dialect, PathUse};

/// One attribute, parsed and checked.
pub(crate) struct Spec {
    pub(crate) kind: Kind,
    /// The lower-case method of a route; `None` for `#[all]` and non-routes.
    pub(crate) method: Option<String>,
    /// Route or mount paths, or param names.
    pub(crate) values: Vec<String>,
    /// The syntax of the paths.
    pub(crate) dialect: Dialect,
}

/// Parses the arguments of `kind`; `at` are the tokens of the whole
/// attribute, where "missing …" errors point.
pub(crate) fn parse(
    kind: Kind,
    dialect: Dialect,
    tokens: TokenStream,
    at: &TokenStream,
) -> syn::Result<Spec> {
    match kind {
        Kind::Method(m) => {
            let paths = literals(kind, tokens)?;
            checked_paths(kind, &paths, PathUse::Route, dialect, at)?;
            Ok(Spec {
                kind,
                method: Some(m.to_owned()),
                values: values(&paths),
                dialect,
            })
        }
        Kind::All => {
            let paths = literals(kind, tokens)?;
            checked_paths(kind, &paths, PathUse::Route, dialect, at)?;
            Ok(Spec {
                kind,
                method: None,
                values: values(&paths),
                dialect,
            })
        }
        Kind::Route => route(tokens, dialect, at),
        Kind::Param => {
            let names = literals(kind, tokens)?;
            if names.is_empty() {
                return Err(syn::Error::new_spanned(
                    at,
                    "missing parameter name: write `#[param(\"id\")]`",
                ));
            }
            let mut errors = Errors::default();
            for name in &names {
                errors.add(paths::check_param_name(name));
            }
            errors.finish()?;
            Ok(Spec {
                kind,
                method: None,
                values: values(&names),
                dialect,
            })
        }
        Kind::ErrorHandler | Kind::Middleware => {
            let paths = literals(kind, tokens)?;
            let mut errors = Errors::default();
            for p in &paths {
                errors.add(paths::check_path(p, PathUse::Mount, dialect));
            }
            errors.finish()?;
            Ok(Spec {
                kind,
                method: None,
                values: values(&paths),
                dialect,
            })
        }
    }
}

fn values(lits: &[LitStr]) -> Vec<String> {
    lits.iter().map(LitStr::value).collect()
}

/// Route paths: at least one, each a valid pattern, and the list as a whole
/// valid (as `Pattern::many` compiles it at run time).
fn checked_paths(
    kind: Kind,
    paths: &[LitStr],
    how: PathUse,
    dialect: Dialect,
    at: &TokenStream,
) -> syn::Result<()> {
    if paths.is_empty() {
        let example = match kind {
            Kind::Route => "`#[route(method = \"m-search\", path = \"/path\")]`".to_owned(),
            _ => format!("`#[{}(\"/path\")]`", kind.name()),
        };
        return Err(syn::Error::new_spanned(
            at,
            format!("missing route path: write {example}"),
        ));
    }
    let mut errors = Errors::default();
    for p in paths {
        errors.add(paths::check_path(p, how, dialect));
    }
    errors.finish()?;
    paths::check_many(paths, dialect)
}

/// A comma-separated list of string literals.
fn literals(kind: Kind, tokens: TokenStream) -> syn::Result<Vec<LitStr>> {
    let list = Punctuated::<Expr, Token![,]>::parse_terminated
        .parse2(tokens)
        .map_err(|e| syn::Error::new(e.span(), not_a_literal(kind)))?;
    let mut out = Vec::new();
    let mut errors = Errors::default();
    for expr in list {
        match literal(&expr) {
            Some(lit) => out.push(lit),
            None => errors.push(syn::Error::new_spanned(&expr, not_a_literal(kind))),
        }
    }
    errors.finish()?;
    Ok(out)
}

fn literal(expr: &Expr) -> Option<LitStr> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) if s.suffix().is_empty() => Some(s.clone()),
        Expr::Group(g) => literal(&g.expr),
        _ => None,
    }
}

fn not_a_literal(kind: Kind) -> String {
    match kind {
        Kind::Param => "expected a string literal parameter name, e.g. `#[param(\"id\")]`".into(),
        Kind::ErrorHandler | Kind::Middleware => format!(
            "expected a string literal mount path, e.g. `#[{}(\"/api\")]`",
            kind.name()
        ),
        Kind::Route => "expected a string literal route path, e.g. `path = \"/users/:id\"`; \
             paths are checked at compile time, so a computed path must be registered by hand: \
             `app.method(\"m-search\", PATH, handler)`"
            .into(),
        Kind::Method(_) | Kind::All => format!(
            "expected a string literal route path, e.g. `#[{0}(\"/users/:id\")]`; \
             paths are checked at compile time, so a computed path must be registered by hand: \
             `app.{0}(PATH, handler)`",
            kind.name()
        ),
    }
}

/// `#[route(method = "m-search", path = "/a", path = "/b")]`.
fn route(tokens: TokenStream, dialect: Dialect, at: &TokenStream) -> syn::Result<Spec> {
    const EXPECTED: &str = "expected `method = \"...\"` or `path = \"...\"`, \
                            e.g. `#[route(method = \"m-search\", path = \"/\")]`";
    let list = Punctuated::<Meta, Token![,]>::parse_terminated
        .parse2(tokens)
        .map_err(|e| syn::Error::new(e.span(), EXPECTED))?;
    let mut method: Option<(String, LitStr)> = None;
    let mut paths = Vec::new();
    let mut errors = Errors::default();
    for meta in list {
        let Meta::NameValue(nv) = &meta else {
            errors.push(syn::Error::new_spanned(&meta, EXPECTED));
            continue;
        };
        let key = nv
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "method" => {
                let Some(lit) = literal(&nv.value) else {
                    errors.push(syn::Error::new_spanned(
                        &nv.value,
                        "expected a string literal method, e.g. `method = \"m-search\"`",
                    ));
                    continue;
                };
                if method.is_some() {
                    errors.push(syn::Error::new_spanned(
                        &nv.path,
                        "duplicate `method`: a `#[route]` has one method; \
                         add another `#[route(..)]` attribute for the next one",
                    ));
                    continue;
                }
                match check_method(&lit) {
                    Ok(m) => method = Some((m, lit)),
                    Err(e) => errors.push(e),
                }
            }
            "path" => match literal(&nv.value) {
                Some(lit) => paths.push(lit),
                None => errors.push(syn::Error::new_spanned(
                    &nv.value,
                    not_a_literal(Kind::Route),
                )),
            },
            _ => errors.push(syn::Error::new_spanned(
                &nv.path,
                format!("unknown argument `{}`: {EXPECTED}", path_str(&nv.path)),
            )),
        }
    }
    errors.finish()?;
    let Some((method, _)) = method else {
        return Err(syn::Error::new_spanned(
            at,
            "missing `method = \"...\"`: write `#[route(method = \"m-search\", path = \"/path\")]`",
        ));
    };
    checked_paths(Kind::Route, &paths, PathUse::Route, dialect, at)?;
    Ok(Spec {
        kind: Kind::Route,
        method: Some(method),
        values: values(&paths),
        dialect,
    })
}

fn path_str(path: &syn::Path) -> String {
    quote::quote!(#path).to_string().replace(' ', "")
}

/// A method of Express's list, any case; returns it in lower case.
fn check_method(lit: &LitStr) -> syn::Result<String> {
    let m = lit.value().to_ascii_lowercase();
    if HTTP_METHODS.contains(&m.as_str()) {
        return Ok(m);
    }
    if m == "all" || m == "*" {
        return Err(syn::Error::new_spanned(
            lit,
            format!(
                "`{}` is not an HTTP method: use `#[all(\"/path\")]` to match every method",
                lit.value()
            ),
        ));
    }
    let guess = HTTP_METHODS
        .iter()
        .map(|known| (distance(&m, known), known))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, known)| format!("did you mean `{known}`? "))
        .unwrap_or_default();
    Err(syn::Error::new_spanned(
        lit,
        format!(
            "unknown HTTP method `{}`: {guess}expected one of Express's methods: {}",
            lit.value(),
            HTTP_METHODS.join(", ")
        ),
    ))
}

/// Levenshtein distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// Several errors reported together.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }

    pub(crate) fn add<T>(&mut self, r: syn::Result<T>) -> Option<T> {
        r.map_err(|e| self.push(e)).ok()
    }

    pub(crate) fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }

    pub(crate) fn take(self) -> Option<syn::Error> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::distance;

    #[test]
    fn edit_distance() {
        assert_eq!(distance("gte", "get"), 2);
        assert_eq!(distance("purg", "purge"), 1);
        assert_eq!(distance("get", "get"), 0);
        assert_eq!(distance("", "abc"), 3);
    }
}
