//! Signature checks: one error on the offending token, with the fix, instead
//! of the trait-bound errors a wrong handler would otherwise produce.
//!
//! The checks are syntactic (the types must be spelled `&mut Request`,
//! `&mut Response`, `&str`, `Error`, `Result`, with any path in front); the
//! generated call of the function then lets the compiler confirm that the
//! names mean webfw's types, with the error spanned on the user's type.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{FnArg, GenericArgument, GenericParam, Pat, PathArguments, ReturnType, Signature, Type};

use crate::args::Errors;
use crate::kind::{Class, Kind};

/// The argument roles, in the order `class` wants them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Request,
    Response,
    Value,
    Error,
}

fn roles(class: Class) -> &'static [Role] {
    match class {
        Class::Handler => &[Role::Request, Role::Response],
        Class::Param => &[Role::Request, Role::Response, Role::Value],
        Class::Error => &[Role::Error, Role::Request, Role::Response],
    }
}

/// How an argument type is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Mut,
    Shared,
    Owned,
}

/// `(access, last path segment)` of a type: `&mut webfw::Request` →
/// `(Mut, "Request")`.
fn shape(ty: &Type) -> (Access, Option<String>) {
    match ty {
        Type::Reference(r) => {
            let access = if r.mutability.is_some() {
                Access::Mut
            } else {
                Access::Shared
            };
            (access, last_name(&r.elem))
        }
        Type::Paren(p) => shape(&p.elem),
        Type::Group(g) => shape(&g.elem),
        other => (Access::Owned, last_name(other)),
    }
}

fn last_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last()?;
            matches!(seg.arguments, PathArguments::None).then(|| seg.ident.to_string())
        }
        Type::Paren(p) => last_name(&p.elem),
        Type::Group(g) => last_name(&g.elem),
        _ => None,
    }
}

/// A type as the user would write it: `&mut Request`, `Result<(), Error>`.
pub(crate) fn show(tokens: &impl ToTokens) -> String {
    let mut s = tokens.to_token_stream().to_string();
    for (from, to) in [
        ("& mut ", "&mut "),
        ("& '", "&'"),
        ("& ", "&"),
        (" :: ", "::"),
        (":: ", "::"),
        (" < ", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ,", ","),
        ("( ", "("),
        (" )", ")"),
    ] {
        s = s.replace(from, to);
    }
    s
}

fn expected(role: Role) -> &'static str {
    match role {
        Role::Request => "&mut Request",
        Role::Response => "&mut Response",
        Role::Value => "&str",
        Role::Error => "Error",
    }
}

/// The name a role's type has (`Request`, `str`, …).
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Request => "Request",
        Role::Response => "Response",
        Role::Value => "str",
        Role::Error => "Error",
    }
}

fn role_access(role: Role) -> Access {
    match role {
        Role::Request | Role::Response => Access::Mut,
        Role::Value => Access::Shared,
        Role::Error => Access::Owned,
    }
}

/// An error spanning from `start` to `end` (stable Rust cannot join spans;
/// syn renders the range from the first and last token).
pub(crate) fn error_between(start: Span, end: Span, msg: impl std::fmt::Display) -> syn::Error {
    let tokens: TokenStream = [
        TokenTree::Ident(proc_macro2::Ident::new("start", start)),
        TokenTree::Ident(proc_macro2::Ident::new("end", end)),
    ]
    .into_iter()
    .collect();
    syn::Error::new_spanned(tokens, msg)
}

/// Checks `sig` against what `kind` requires; returns every problem found.
pub(crate) fn check(sig: &Signature, kind: Kind) -> syn::Result<()> {
    let mut errors = Errors::default();
    let attr = kind.shown();
    let noun = kind.noun();
    if let syn::Safety::Unsafe(u) = &sig.safety {
        errors.push(syn::Error::new_spanned(
            u,
            format!("{noun} cannot be an `unsafe fn`: remove `unsafe` (use an `unsafe {{ }}` block inside)"),
        ));
    }
    if let Some(abi) = &sig.abi {
        errors.push(syn::Error::new_spanned(
            abi,
            format!("{noun} cannot have an `extern` ABI: remove it"),
        ));
    }
    if let Some(v) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            v,
            format!("{noun} cannot be variadic"),
        ));
    }
    let generic = sig
        .generics
        .params
        .iter()
        .find(|p| !matches!(p, GenericParam::Lifetime(_)));
    if let Some(p) = generic {
        errors.push(syn::Error::new_spanned(
            p,
            format!(
                "{noun} cannot be generic: {attr} registers one concrete function; \
                 remove the type parameter (lifetimes are fine)"
            ),
        ));
    }
    if let Some(recv) = sig.inputs.iter().find(|a| matches!(a, FnArg::Receiver(_))) {
        errors.push(syn::Error::new_spanned(
            recv,
            format!("{noun} must be a free function, not a method: remove `self`"),
        ));
        return errors.finish();
    }
    errors.add(check_inputs(sig, kind));
    errors.add(check_output(sig, kind));
    errors.finish()
}

fn typed(sig: &Signature) -> Vec<(&Pat, &Type)> {
    sig.inputs
        .iter()
        .filter_map(|a| match a {
            FnArg::Typed(t) => Some((&*t.pat, &*t.ty)),
            FnArg::Receiver(_) => None,
        })
        .collect()
}

fn pat_name(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(i) => Some(i.ident.to_string()),
        _ => None,
    }
}

/// Express's `next` argument.
fn is_next(pat: &Pat, ty: &Type) -> bool {
    let named = pat_name(pat).is_some_and(|n| n.trim_start_matches('_') == "next");
    let fn_bound = |b: &syn::TypeParamBound| match b {
        syn::TypeParamBound::Trait(t) => t
            .path
            .segments
            .last()
            .is_some_and(|s| matches!(s.ident.to_string().as_str(), "Fn" | "FnMut" | "FnOnce")),
        _ => false,
    };
    let typed_fn = match ty {
        Type::FnPtr(_) => true,
        Type::ImplTrait(i) => i.bounds.iter().any(fn_bound),
        other => last_name(other).is_some_and(|n| n == "Next"),
    };
    named || typed_fn
}

fn check_inputs(sig: &Signature, kind: Kind) -> syn::Result<()> {
    let class = kind.class();
    let args = typed(sig);
    let inputs_span = sig.paren_token.span.join();
    let attr = kind.shown();
    let noun = kind.noun();
    if let Some((pat, ty)) = args.iter().find(|(p, t)| is_next(p, t)) {
        let next_span = quote::quote!(#pat: #ty);
        return Err(syn::Error::new_spanned(
            next_span,
            format!(
                "webfw handlers have no `next` argument: return `next()` to pass control on \
                 (`next_route()`, `next_router()`, `Err(err)` for Express's `next('route')`, \
                 `next('router')`, `next(err)`); {noun} takes {}",
                class.arguments()
            ),
        ));
    }
    if args.len() != class.arity() {
        // a function that fits another attribute
        let shapes: Vec<_> = args.iter().map(|(_, t)| shape(t)).collect();
        let is = |i: usize, role: Role| {
            shapes.get(i).is_some_and(|(a, n)| {
                *a == role_access(role) && n.as_deref() == Some(role_name(role))
            })
        };
        let msg = match class {
            Class::Handler if args.len() == 3 && is(0, Role::Error) => format!(
                "this is an error handler `(err: Error, req, res)`: use `#[error_handler]` instead of {attr}"
            ),
            Class::Handler if args.len() == 3 && is(2, Role::Value) => format!(
                "this is a param callback `(req, res, value: &str)`: use `#[param(\"name\")]` instead of {attr}"
            ),
            Class::Param if args.len() == 2 => format!(
                "{noun} takes the parameter's value as its third argument: {}",
                class.arguments()
            ),
            Class::Error if args.len() == 2 => format!(
                "{noun} takes the error as its first argument: {}",
                class.arguments()
            ),
            _ => format!(
                "{noun} takes {} arguments {}, found {}",
                class.arity(),
                class.arguments(),
                args.len()
            ),
        };
        return Err(syn::Error::new(inputs_span, msg));
    }
    let want = roles(class);
    // swapped request and response
    let names: Vec<Option<String>> = args.iter().map(|(_, t)| shape(t).1).collect();
    let pos = |role: Role| want.iter().position(|r| *r == role);
    if let (Some(q), Some(s)) = (pos(Role::Request), pos(Role::Response))
        && names[q].as_deref() == Some("Response")
        && names[s].as_deref() == Some("Request")
    {
        return Err(syn::Error::new(
            inputs_span,
            format!(
                "the request comes before the response: {noun} takes {}",
                class.arguments()
            ),
        ));
    }
    if class == Class::Error
        && names[0].as_deref() != Some("Error")
        && names[2].as_deref() == Some("Error")
    {
        return Err(syn::Error::new(
            inputs_span,
            format!("the error comes first: {noun} takes {}", class.arguments()),
        ));
    }
    let mut errors = Errors::default();
    for (&(_, ty), &role) in args.iter().zip(want) {
        errors.add(check_arg(ty, role));
    }
    errors.finish()
}

fn check_arg(ty: &Type, role: Role) -> syn::Result<()> {
    let (access, name) = shape(ty);
    let want = role_access(role);
    let exp = expected(role);
    let found = show(ty);
    if name.as_deref() == Some(role_name(role)) {
        if access == want {
            return Ok(());
        }
        let why = match role {
            Role::Request => "handlers borrow the request mutably",
            Role::Response => "handlers borrow the response mutably",
            Role::Value => {
                "the value is borrowed from the request's params; call `.to_owned()` for a `String`"
            }
            Role::Error => "the error is passed by value",
        };
        return Err(syn::Error::new_spanned(
            ty,
            format!("expected `{exp}`, found `{found}`: {why}; write `{exp}`"),
        ));
    }
    let hint = match (role, name.as_deref()) {
        (Role::Value, Some("String")) => {
            "; the value is borrowed from the request's params: take `&str` and call `.to_owned()` for a `String`"
        }
        (Role::Error, _) => {
            "; error handlers receive webfw's `Error` by value (`err.message()`, `err.status()`)"
        }
        _ => "",
    };
    Err(syn::Error::new_spanned(
        ty,
        format!("expected `{exp}`, found `{found}`{hint}"),
    ))
}

fn check_output(sig: &Signature, kind: Kind) -> syn::Result<()> {
    let noun = kind.noun();
    let ty = match &sig.output {
        ReturnType::Default => {
            return Err(error_between(
                sig.fn_token.span,
                sig.paren_token.span.close(),
                format!(
                    "{noun} must return `Result` (`webfw::Result`): add `-> Result` and end with \
                     `next()` or a response method such as `res.send(..)`"
                ),
            ));
        }
        ReturnType::Type(_, ty) => &**ty,
    };
    let found = show(ty);
    if matches!(ty, Type::ImplTrait(_)) {
        return Err(syn::Error::new_spanned(
            ty,
            format!(
                "{noun} returns `Result`, found `{found}`: for an asynchronous handler write \
                 `async fn ...(..) -> Result`"
            ),
        ));
    }
    let wrong = |why: &str| {
        syn::Error::new_spanned(
            ty,
            format!(
                "{noun} must return `Result` (`webfw::Result`, i.e. `Result<Flow, Error>`), found `{found}`{why}"
            ),
        )
    };
    let Type::Path(p) = ty else {
        return Err(wrong(""));
    };
    let Some(seg) = p.path.segments.last().filter(|_| p.qself.is_none()) else {
        return Err(wrong(""));
    };
    if seg.ident != "Result" {
        return Err(wrong(""));
    }
    match &seg.arguments {
        PathArguments::None => Ok(()),
        PathArguments::AngleBracketed(a) => {
            let types: Vec<&Type> = a
                .args
                .iter()
                .filter_map(|g| match g {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .collect();
            let ok_flow = types
                .first()
                .is_some_and(|t| last_name(t).as_deref() == Some("Flow"));
            let ok_err = types
                .get(1)
                .is_none_or(|t| last_name(t).as_deref() == Some("Error"));
            if types.len() == a.args.len() && (1..=2).contains(&types.len()) && ok_flow && ok_err {
                Ok(())
            } else {
                Err(wrong(
                    "; flow control is the return value: `Ok(Flow::Next)` is `next()`, \
                     `Err(e)` is `next(e)`",
                ))
            }
        }
        PathArguments::Parenthesized(_) => Err(wrong("")),
    }
}

/// The spans the generated call uses to point type errors at the user's
/// argument types and return type.
pub(crate) struct Spans {
    pub(crate) args: Vec<Span>,
    pub(crate) output: Span,
}

pub(crate) fn spans(sig: &Signature) -> Spans {
    let args = typed(sig)
        .iter()
        .map(|(_, t)| {
            t.to_token_stream()
                .into_iter()
                .last()
                .map_or(Span::call_site(), |t| t.span())
        })
        .collect();
    let output = match &sig.output {
        ReturnType::Type(_, ty) => ty
            .to_token_stream()
            .into_iter()
            .next()
            .map_or(sig.ident.span(), |t| t.span()),
        ReturnType::Default => sig.ident.span(),
    };
    Spans { args, output }
}
