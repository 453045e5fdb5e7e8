//! `routes![a, b, c]`: the registrations of annotated functions, in order.
//!
//! Each name is looked up in the type namespace, where the attributes put
//! the generated struct (the function itself lives in the value namespace):
//! `routes![a, m::b]` becomes
//! ```text
//! {
//!     let mut routes = ::webfw::Routes::new();
//!     ::webfw::__private::add::<a>(&mut routes);
//!     ::webfw::__private::add::<m::b>(&mut routes);
//!     routes
//! }
//! ```

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, PathArguments, Token};

use crate::args::Errors;

const EXPECTED: &str = "`routes!` takes the names of functions annotated with `#[get(\"/path\")]` \
                        (or another method attribute), `#[route(..)]`, `#[param(\"name\")]`, \
                        `#[error_handler]` or `#[middleware]`, e.g. `routes![index, show]`";

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match parse(input) {
        Ok(paths) => {
            let adds = paths.iter().map(|p| {
                quote! { ::webfw::__private::add::<#p>(&mut __webfw_routes); }
            });
            quote! {{
                #[allow(unused_mut)]
                let mut __webfw_routes = ::webfw::Routes::new();
                #(#adds)*
                __webfw_routes
            }}
        }
        Err(e) => {
            let err = e.to_compile_error();
            quote! {{
                #err
                ::webfw::Routes::new()
            }}
        }
    }
}

fn parse(input: TokenStream) -> syn::Result<Vec<syn::Path>> {
    let list = Punctuated::<Expr, Token![,]>::parse_terminated
        .parse2(input)
        .map_err(|e| syn::Error::new(e.span(), EXPECTED))?;
    let mut errors = Errors::default();
    let mut out = Vec::new();
    for expr in list {
        match check(&expr) {
            Ok(p) => out.push(p),
            Err(e) => errors.push(e),
        }
    }
    errors.finish()?;
    Ok(out)
}

fn check(expr: &Expr) -> syn::Result<syn::Path> {
    let msg = match expr {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => {
            let generic = p
                .path
                .segments
                .iter()
                .find(|s| !matches!(s.arguments, PathArguments::None));
            match generic {
                None => return Ok(p.path.clone()),
                Some(seg) => {
                    return Err(syn::Error::new_spanned(
                        &seg.arguments,
                        "a route is named without generic arguments: handlers are not generic",
                    ));
                }
            }
        }
        Expr::Call(c) => {
            let callee = crate::signature::show(&c.func);
            format!("pass the function's name, not a call: `{callee}` instead of `{callee}(..)`")
        }
        Expr::Closure(_) => "closures cannot carry route attributes: write a `fn`, annotate it \
                             (e.g. `#[get(\"/path\")]`) and pass its name"
            .to_owned(),
        Expr::Lit(_) => {
            format!("expected the name of an annotated function, found a literal; {EXPECTED}")
        }
        Expr::Reference(r) => {
            let inner = crate::signature::show(&r.expr);
            format!("pass the function's name without `&`: `{inner}`")
        }
        Expr::Group(g) => return check(&g.expr),
        _ => EXPECTED.to_owned(),
    };
    Err(syn::Error::new_spanned(expr, msg))
}
