//! The expansion shared by every function attribute.
//!
//! ```text
//! #[get("/a")] #[post("/b", "/c")]
//! fn show(req: &mut Request, res: &mut Response) -> Result { … }
//! ```
//! becomes
//! ```text
//! fn show(req: &mut Request, res: &mut Response) -> Result { … }   // untouched
//!
//! #[allow(non_camel_case_types, dead_code)] #[doc(hidden)]
//! struct show {}                                                   // type namespace only
//! const _: () = {
//!     impl ::webfw::Handler for show { /* calls the fn show */ }
//!     impl ::webfw::__private::Mountable for show {
//!         fn add_to(routes: &mut ::webfw::Routes) {
//!             // `true`: the one path is simple (no regex engine at run time)
//!             ::webfw::__private::route::<true, _>(routes, "show", Some("get"), &["/a"], show {});
//!             ::webfw::__private::route::<false, _>(routes, "show", Some("post"), &["/b", "/c"], show {});
//!         }
//!     }
//! };
//! ```
//! The outermost webfw attribute expands first and takes every other webfw
//! attribute off the function, so one struct describes all of them.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{Attribute, Item, ItemFn, Meta};

use crate::args::{self, Errors, Spec};
use crate::kind::{Class, Kind};
use crate::paths::{self, Dialect};
use crate::signature;

/// Expands the attribute `kind` with arguments `args` on `item`.
pub(crate) fn attribute(
    kind: Kind,
    dialect: Dialect,
    args: TokenStream,
    item: TokenStream,
) -> TokenStream {
    let mut func = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(f)) => f,
        Ok(other) => {
            let e = syn::Error::new(
                item_span(&other),
                format!(
                    "{} can only be applied to functions: annotate a `fn` with the signature {}",
                    kind.shown(),
                    kind.class().arguments()
                ),
            );
            return with_item(e, item);
        }
        Err(_) => {
            let e = syn::Error::new(
                Span::call_site(),
                format!("{} can only be applied to functions", kind.shown()),
            );
            return with_item(e, item);
        }
    };

    let mut errors = Errors::default();
    let mut specs: Vec<Spec> = Vec::new();
    let here = quote!(here);
    if let Some(spec) = errors.add(args::parse(kind, dialect, args, &here)) {
        specs.push(spec);
    }

    // the other webfw attributes on the same function, in source order
    let mut kept: Vec<Attribute> = Vec::new();
    for attr in std::mem::take(&mut func.attrs) {
        let Some((other, other_dialect)) = webfw_kind(&attr) else {
            kept.push(attr);
            continue;
        };
        // A bare name (`#[post]` imported from `webfw::express5`) speaks
        // the dialect of the attribute that expands.
        let other_dialect = other_dialect.unwrap_or(dialect);
        if other.class() != kind.class() {
            errors.push(syn::Error::new_spanned(
                &attr,
                format!(
                    "{} cannot be combined with {}: {} takes {}, {} takes {}",
                    other.shown(),
                    kind.shown(),
                    other.noun(),
                    other.class().arguments(),
                    kind.noun(),
                    kind.class().arguments()
                ),
            ));
            continue;
        }
        let tokens = match &attr.meta {
            Meta::Path(_) => TokenStream::new(),
            Meta::List(list) => list.tokens.clone(),
            Meta::NameValue(nv) => {
                errors.push(syn::Error::new_spanned(
                    nv,
                    format!("expected `#[{}(...)]`", other.name()),
                ));
                continue;
            }
        };
        let at = quote!(#attr);
        if let Some(spec) = errors.add(args::parse(other, other_dialect, tokens, &at)) {
            specs.push(spec);
        }
    }
    func.attrs = kept;

    errors.add(signature::check(&func.sig, kind));

    match errors.take() {
        Some(e) => {
            let mut out = e.to_compile_error();
            // a method is inside an `impl`, where a struct cannot go
            let method = func.sig.receiver().is_some();
            if !method {
                out.extend(placeholder(&func));
            }
            out.extend(quote!(#func));
            out
        }
        None => generate(&func, kind.class(), &specs),
    }
}

/// The compile errors followed by the item as written, so that later code
/// and IDEs still see it.
fn with_item(e: syn::Error, item: TokenStream) -> TokenStream {
    let mut out = e.to_compile_error();
    out.extend(item);
    out
}

/// The name of a non-function item, for "can only be applied to functions".
fn item_span(item: &Item) -> Span {
    match item {
        Item::Struct(i) => i.ident.span(),
        Item::Enum(i) => i.ident.span(),
        Item::Union(i) => i.ident.span(),
        Item::Const(i) => i.ident.span(),
        Item::Static(i) => i.ident.span(),
        Item::Mod(i) => i.ident.span(),
        Item::Trait(i) => i.ident.span(),
        Item::Type(i) => i.ident.span(),
        Item::Impl(i) => i.impl_token.span,
        Item::Use(i) => i.use_token.span,
        _ => Span::call_site(),
    }
}

/// A webfw attribute: `#[get(..)]`, `#[webfw::get(..)]`,
/// `#[webfw_macros::get(..)]`, and the Express 5 ones
/// (`#[webfw::express5::get(..)]`, `#[express5::get(..)]`,
/// `#[webfw_macros::get5(..)]`), whose dialect is known from the path;
/// `None` for a bare name.
fn webfw_kind(attr: &Attribute) -> Option<(Kind, Option<Dialect>)> {
    let segments: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let names: Vec<&str> = segments.iter().map(String::as_str).collect();
    let (last, five_path) = match names.as_slice() {
        [one] if attr.path().leading_colon.is_none() => (*one, false),
        ["webfw" | "webfw_macros", one] => (*one, false),
        ["express5", one] | ["webfw", "express5", one] => (*one, true),
        _ => return None,
    };
    let (name, five_name) = match last.strip_suffix('5') {
        Some(base) => (base, true),
        None => (last, false),
    };
    let kind = Kind::from_name(name)?;
    if five_name && !kind.has_express5() {
        return None;
    }
    let dialect = (five_path || five_name).then_some(Dialect::Express5);
    Some((kind, dialect))
}

/// The struct and an empty registration, emitted next to an erroneous
/// function so that `routes![f]` elsewhere does not add errors of its own.
fn placeholder(func: &ItemFn) -> TokenStream {
    let ident = &func.sig.ident;
    let vis = &func.vis;
    quote! {
        #[allow(non_camel_case_types, dead_code)]
        #[doc(hidden)]
        #vis struct #ident {}
        impl ::webfw::__private::Mountable for #ident {
            fn add_to(_: &mut ::webfw::Routes) {}
        }
    }
}

fn generate(func: &ItemFn, class: Class, specs: &[Spec]) -> TokenStream {
    let ident = &func.sig.ident;
    let vis = &func.vis;
    let name = ident.to_string();
    let name = name.strip_prefix("r#").unwrap_or(&name);
    let spans = signature::spans(&func.sig);
    let is_async = func.sig.asyncness.is_some();

    // the call of the user's function, its arguments located at the user's
    // argument types so that a type mismatch points there
    let arg = |i: usize, name: &str| {
        let span = spans.args.get(i).copied().unwrap_or_else(Span::call_site);
        proc_macro2::Ident::new(name, Span::call_site().located_at(span))
    };
    let call_args = match class {
        Class::Handler => {
            let (q, s) = (arg(0, "__webfw_req"), arg(1, "__webfw_res"));
            quote!(#q, #s)
        }
        Class::Param => {
            let (q, s, v) = (
                arg(0, "__webfw_req"),
                arg(1, "__webfw_res"),
                arg(2, "__webfw_value"),
            );
            quote!(#q, #s, #v)
        }
        Class::Error => {
            let (e, q, s) = (
                arg(0, "__webfw_err"),
                arg(1, "__webfw_req"),
                arg(2, "__webfw_res"),
            );
            quote!(#e, #q, #s)
        }
    };
    let out_span = Span::call_site().located_at(spans.output);
    let call = quote_spanned!(out_span=> #ident(#call_args));
    // the user's return type, so that a wrong one is reported there
    let ret = match &func.sig.output {
        syn::ReturnType::Type(_, ty) => quote!(#ty),
        syn::ReturnType::Default => quote!(()),
    };
    let body = if is_async {
        quote_spanned!(out_span=> <#ret as ::webfw::__private::HandlerResult>::boxed(#call))
    } else {
        quote_spanned!(out_span=> <#ret as ::webfw::__private::HandlerResult>::ready(#call))
    };

    let handler_impl = match class {
        Class::Handler => quote! {
            impl ::webfw::Handler for #ident {
                fn call<'__webfw>(
                    &'__webfw self,
                    __webfw_req: &'__webfw mut ::webfw::Request,
                    __webfw_res: &'__webfw mut ::webfw::Response,
                ) -> ::webfw::HandlerFuture<'__webfw> {
                    #body
                }
            }
        },
        Class::Param => quote! {
            impl ::webfw::ParamHandler for #ident {
                fn call<'__webfw>(
                    &'__webfw self,
                    __webfw_req: &'__webfw mut ::webfw::Request,
                    __webfw_res: &'__webfw mut ::webfw::Response,
                    __webfw_value: &'__webfw str,
                ) -> ::webfw::HandlerFuture<'__webfw> {
                    #body
                }
            }
        },
        Class::Error => quote! {
            impl ::webfw::ErrorHandler for #ident {
                fn call<'__webfw>(
                    &'__webfw self,
                    __webfw_err: ::webfw::Error,
                    __webfw_req: &'__webfw mut ::webfw::Request,
                    __webfw_res: &'__webfw mut ::webfw::Response,
                ) -> ::webfw::HandlerFuture<'__webfw> {
                    #body
                }
            }
        },
    };

    let registrations = specs.iter().map(|spec| {
        let values = &spec.values;
        let simple = paths::simple(values, spec.dialect);
        let five = spec.dialect == Dialect::Express5;
        match spec.kind {
            Kind::Method(_) | Kind::All | Kind::Route => {
                let method = match &spec.method {
                    Some(m) => quote!(::core::option::Option::Some(#m)),
                    None => quote!(::core::option::Option::None),
                };
                if five {
                    quote! {
                        ::webfw::__private::route_in::<#simple, _>(__webfw_routes, ::webfw::Dialect::Express5, #name, #method, &[#(#values),*], #ident {});
                    }
                } else {
                    quote! {
                        ::webfw::__private::route::<#simple, _>(__webfw_routes, #name, #method, &[#(#values),*], #ident {});
                    }
                }
            }
            Kind::Middleware if five => quote! {
                ::webfw::__private::middleware_in::<#simple, _>(__webfw_routes, ::webfw::Dialect::Express5, #name, &[#(#values),*], #ident {});
            },
            Kind::Param => quote! {
                ::webfw::__private::param(__webfw_routes, #name, &[#(#values),*], #ident {});
            },
            Kind::Middleware => quote! {
                ::webfw::__private::middleware::<#simple, _>(__webfw_routes, #name, &[#(#values),*], #ident {});
            },
            Kind::ErrorHandler => quote! {
                ::webfw::__private::error_handler::<#simple, _>(__webfw_routes, #name, &[#(#values),*], #ident {});
            },
        }
    });

    quote! {
        #func

        #[allow(non_camel_case_types, dead_code)]
        #[doc(hidden)]
        #vis struct #ident {}

        const _: () = {
            #handler_impl

            impl ::webfw::__private::Mountable for #ident {
                fn add_to(__webfw_routes: &mut ::webfw::Routes) {
                    #(#registrations)*
                }
            }
        };
    }
}
