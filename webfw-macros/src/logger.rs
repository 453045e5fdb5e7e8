//! `logger!` and `#[logger_token]`: morgan formats checked at compile time.
//!
//! `logger!("fmt")` reads the format with the tokenizer the runtime uses
//! (`webfw_pattern::logfmt`), resolves predefined names, checks every token
//! and its argument, and expands to a plain function that appends literal
//! text and calls webfw's built-in token functions directly, the same
//! functions a run-time compiled format dispatches to. A format that is not a
//! string literal is handed to the run-time `webfw::logger::logger`.
//!
//! Custom tokens are listed: `logger!(":method :trace", tokens = [trace])`,
//! where `trace` implements `webfw::logger::LoggerToken` (written by
//! `#[logger_token("trace")]` on a function). Their names are only known to
//! rustc, so the macro emits a constant that finds each custom token of the
//! format among the listed `NAME`s and fails to compile when none matches.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, FnArg, Ident, ItemFn, Lit, LitStr, Path, ReturnType, Token};
use webfw_pattern::logfmt::{
    self, Builtin, BuiltinArg, DateFormat, Piece, Predefined, Token as FmtToken,
};

/// `logger!(format [, tokens = [path, …]])`.
struct Input {
    format: Expr,
    tokens: Vec<Path>,
}

impl Parse for Input {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(input.error(
                "expected a format: `logger!(\"combined\")` or `logger!(\":method :url :status\")`",
            ));
        }
        let format: Expr = input.parse()?;
        let mut tokens = Vec::new();
        while input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            if key != "tokens" {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown `logger!` option `{key}`: the only option is `tokens = [token, …]`; \
                         set the others on the result: `.stream(…)`, `.skip(…)`, `.immediate(…)`"
                    ),
                ));
            }
            input.parse::<Token![=]>()?;
            let list;
            syn::bracketed!(list in input);
            let paths = Punctuated::<Path, Token![,]>::parse_terminated(&list)?;
            tokens.extend(paths);
        }
        Ok(Input { format, tokens })
    }
}

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let input: Input = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut format = &input.format;
    // A literal passed through a `macro_rules!` fragment arrives grouped.
    while let Expr::Group(g) = format {
        format = &g.expr;
    }
    match format {
        Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        }) => match expand_literal(lit, &input.tokens) {
            Ok(ts) => ts,
            Err(e) => e.to_compile_error(),
        },
        other => expand_runtime(other, &input.tokens),
    }
}

/// A non-literal format: compiled at run time (panics there if invalid).
fn expand_runtime(format: &Expr, tokens: &[Path]) -> TokenStream {
    if tokens.is_empty() {
        return quote! {
            ::webfw::logger::logger(#format, ())
        };
    }
    let entries = tokens.iter().map(|p| {
        quote! {
            (
                <#p as ::webfw::logger::LoggerToken>::NAME,
                ::webfw::logger::__private::token_fn(<#p as ::webfw::logger::LoggerToken>::value),
            )
        }
    });
    quote! {
        ::webfw::logger::__private::logger_with(
            ::core::convert::AsRef::<str>::as_ref(&#format),
            &[#(#entries),*],
        )
    }
}

fn err(lit: &LitStr, msg: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(lit.span(), msg)
}

fn expand_literal(lit: &LitStr, custom: &[Path]) -> syn::Result<TokenStream> {
    let value = lit.value();
    let private = quote!(::webfw::logger::__private);
    let mut consts = Vec::new();
    let (body, timed, source) = if logfmt::is_format_name(&value) {
        match logfmt::predefined(&value) {
            Some(Predefined::String(fmt)) => {
                let (body, timed) = pieces_body(lit, fmt, custom, &mut consts)?;
                (body, timed, quote!(::core::option::Option::Some(#fmt)))
            }
            Some(Predefined::Dev) => {
                let (plain, _) = pieces_body(lit, logfmt::DEV_PLAIN, custom, &mut consts)?;
                let mut arms = Vec::new();
                for color in logfmt::DEV_COLORS {
                    let (b, _) = pieces_body(lit, &logfmt::dev_format(color), custom, &mut consts)?;
                    if color == 0 {
                        arms.push(quote!(_ => { #b }));
                    } else {
                        arms.insert(0, quote!(#color => { #b }));
                    }
                }
                let body = quote! {
                    if #private::no_color() {
                        #plain
                    } else {
                        match #private::dev_color(__res) {
                            #(#arms)*
                        }
                    }
                };
                (body, true, quote!(::core::option::Option::None))
            }
            None => return Err(err(lit, logfmt::unknown_format_message(&value))),
        }
    } else {
        let (body, timed) = pieces_body(lit, &value, custom, &mut consts)?;
        (body, timed, quote!(::core::option::Option::Some(#lit)))
    };
    Ok(quote! {
        {
            #(#consts)*
            fn __webfw_log_line(
                __cx: &#private::Cx,
                __req: &::webfw::Request,
                __res: &::webfw::Response,
                __out: &mut #private::Line,
            ) -> bool {
                let __ov = #private::overrides();
                let _ = (&__cx, &__ov);
                #body
                true
            }
            #private::logger(::webfw::logger::Format::__static(#source, __webfw_log_line, #timed))
        }
    })
}

/// The statements writing one format string, and whether it reads times.
fn pieces_body(
    lit: &LitStr,
    fmt: &str,
    custom: &[Path],
    consts: &mut Vec<TokenStream>,
) -> syn::Result<(TokenStream, bool)> {
    let pieces = logfmt::parse(fmt).map_err(|e| err(lit, e))?;
    let mut out = Vec::new();
    let mut timed = false;
    let mut reqs = ReqHeaders::default();
    for piece in pieces {
        match piece {
            Piece::Literal(s) => out.push(quote!(__out.lit(#s);)),
            Piece::Token(t) => {
                let (stmt, t_timed) = token_stmt(lit, &t, custom, consts, &mut reqs)?;
                timed |= t_timed;
                out.push(stmt);
            }
        }
    }
    let lookup = reqs.lookup();
    Ok((quote!(#lookup #(#out)*), timed))
}

/// The request headers a format reads, looked up together in one walk of
/// the request's headers (`__found[i]` is the first value of `__Q{i}`).
#[derive(Default)]
struct ReqHeaders(Vec<String>);

impl ReqHeaders {
    /// The index of `name` (lowercase) in `__found`.
    fn index(&mut self, name: &str) -> usize {
        match self.0.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.0.push(name.to_owned());
                self.0.len() - 1
            }
        }
    }

    fn found(&mut self, name: &str) -> TokenStream {
        let i = self.index(name);
        quote!(__found[#i])
    }

    fn name(&mut self, name: &str) -> TokenStream {
        let i = self.index(name);
        Self::name_ref(name, i)
    }

    /// The built-in tokens' names: `http`'s constants for the standard ones,
    /// which the compiler sees through (a `static` header name is read from
    /// memory at every comparison).
    fn known(name: &str) -> Option<TokenStream> {
        let private = quote!(::webfw::logger::__private);
        Some(match name {
            "authorization" => quote!(&#private::AUTHORIZATION),
            "referer" => quote!(&#private::REFERER),
            "user-agent" => quote!(&#private::USER_AGENT),
            "referrer" => quote!(&#private::tokens::REFERRER),
            _ => return None,
        })
    }

    /// A reference to header name `name`, the `i`th.
    fn name_ref(name: &str, i: usize) -> TokenStream {
        Self::known(name).unwrap_or_else(|| {
            let q = format_ident!("__Q{i}");
            quote!(&#q)
        })
    }

    fn lookup(&self) -> TokenStream {
        if self.0.is_empty() {
            return quote!();
        }
        let private = quote!(::webfw::logger::__private);
        let statics = self
            .0
            .iter()
            .enumerate()
            .filter(|(_, n)| Self::known(n).is_none())
            .map(|(i, name)| {
                let q = format_ident!("__Q{i}");
                quote!(static #q: #private::HeaderName = #private::HeaderName::from_static(#name);)
            });
        let refs = self.0.iter().enumerate().map(|(i, n)| Self::name_ref(n, i));
        quote! {
            #(#statics)*
            let __found = #private::tokens::req_values(__req, [#(#refs),*]);
        }
    }
}

fn arg_tokens(t: &FmtToken<'_>) -> TokenStream {
    match t.arg {
        Some(a) => {
            let a = logfmt::morgan_arg(a).into_owned();
            quote!(::core::option::Option::Some(#a))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn token_stmt(
    lit: &LitStr,
    t: &FmtToken<'_>,
    custom: &[Path],
    consts: &mut Vec<TokenStream>,
    reqs: &mut ReqHeaders,
) -> syn::Result<(TokenStream, bool)> {
    let private = quote!(::webfw::logger::__private);
    let arg = arg_tokens(t);
    let Some(b) = Builtin::from_name(t.name) else {
        return custom_stmt(lit, t, custom, consts, &arg).map(|s| (s, false));
    };
    let checked = b
        .check_arg(t.arg)
        .map_err(|m| err(lit, format!("{m}\n  in the format {:?}", lit.value())))?;
    let f = format_ident!("{}", b.name().replace('-', "_"));
    let extra = match &checked {
        BuiltinArg::None => quote!(),
        BuiltinArg::Date(d) => {
            let v = match d {
                DateFormat::Clf => quote!(Clf),
                DateFormat::Iso => quote!(Iso),
                DateFormat::Web => quote!(Web),
            };
            quote!(, #private::DateFormat::#v)
        }
        BuiltinArg::Header(h) => {
            quote!(, {
                static __H: #private::HeaderName = #private::HeaderName::from_static(#h);
                &__H
            })
        }
        BuiltinArg::Digits(d) => quote!(, #d),
    };
    let f = match b {
        Builtin::Req => format_ident!("req_header"),
        Builtin::Res => format_ident!("res_header"),
        _ => f,
    };
    let tokens = quote!(#private::tokens);
    // Request headers come from the format's one lookup (`ReqHeaders`).
    let value = match (b, &checked) {
        (Builtin::RemoteUser, _) => {
            let auth = reqs.found("authorization");
            quote!(#tokens::remote_user_of(#auth))
        }
        (Builtin::Referrer, _) => {
            let (a, b) = (reqs.found("referer"), reqs.found("referrer"));
            quote!(#tokens::referrer_of(__req, #a, #b))
        }
        (Builtin::UserAgent, _) => {
            let (n, v) = (reqs.name("user-agent"), reqs.found("user-agent"));
            quote!(#tokens::req_header_of(__req, #n, #v))
        }
        (Builtin::Req, BuiltinArg::Header(h)) => {
            let (n, v) = (reqs.name(h), reqs.found(h));
            quote!(#tokens::req_header_of(__req, #n, #v))
        }
        _ => quote!(#tokens::#f(__cx, __req, __res #extra)),
    };
    let name = b.name();
    let stmt = quote! {
        match __ov.get(#name) {
            ::core::option::Option::Some(__f) => __out.push_custom(__f(__req, __res, #arg)),
            ::core::option::Option::None => __out.push(#value),
        }
    };
    Ok((
        stmt,
        matches!(b, Builtin::ResponseTime | Builtin::TotalTime),
    ))
}

fn custom_stmt(
    lit: &LitStr,
    t: &FmtToken<'_>,
    custom: &[Path],
    consts: &mut Vec<TokenStream>,
    arg: &TokenStream,
) -> syn::Result<TokenStream> {
    if custom.is_empty() {
        let mut message = logfmt::unknown_token_message(t.name, &[]);
        if !message.contains("did you mean") {
            message.push_str(&format!(
                "\n  = help: a custom token is a function marked `#[logger_token(\"{}\")]` \
                 and listed: `logger!(…, tokens = [its_fn])`",
                t.name
            ));
        }
        return Err(err(lit, message));
    }
    // The listed tokens' names are constants only rustc knows: find this one
    // among them while compiling, and fail the build when none matches.
    let idx = format_ident!("__WEBFW_TOKEN_{}", consts.len());
    let name = t.name;
    let listed: Vec<String> = custom.iter().map(path_text).collect();
    let message = format!(
        "logger!: {} and none of `tokens = [{}]` is named `{name}`",
        logfmt::unknown_token_message(name, &[]).replacen("; custom tokens: none", "", 1),
        listed.join(", ")
    );
    let names = custom
        .iter()
        .map(|p| quote!(<#p as ::webfw::logger::LoggerToken>::NAME));
    let n = custom.len();
    consts.push(quote_spanned! {lit.span()=>
        #[allow(non_upper_case_globals)]
        const #idx: usize = {
            let names: [&str; #n] = [#(#names),*];
            let i = ::webfw::logger::__private::find_token(&names, #name);
            if i == usize::MAX {
                panic!(#message);
            }
            i
        };
    });
    let arms = custom.iter().enumerate().map(
        |(i, p)| quote!(#i => <#p as ::webfw::logger::LoggerToken>::value(__req, __res, #arg),),
    );
    Ok(quote! {
        __out.push_custom(match #idx {
            #(#arms)*
            _ => ::core::option::Option::None,
        });
    })
}

fn path_text(p: &Path) -> String {
    quote!(#p).to_string().replace(' ', "")
}

/// `#[logger_token]` / `#[logger_token("name")]` on
/// `fn(req: &Request, res: &Response, arg: Option<&str>) -> Option<String>`.
pub(crate) fn attribute(args: TokenStream, item: TokenStream) -> TokenStream {
    let func: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let e = syn::Error::new(
                Span::call_site(),
                "#[logger_token] goes on a function \
                 `fn(req: &Request, res: &Response, arg: Option<&str>) -> Option<String>`",
            );
            let e = e.to_compile_error();
            return quote!(#e #item);
        }
    };
    match token_impl(args, &func) {
        Ok(ts) => quote!(#func #ts),
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#func #e)
        }
    }
}

fn token_impl(args: TokenStream, func: &ItemFn) -> syn::Result<TokenStream> {
    let ident = &func.sig.ident;
    let name = if args.is_empty() {
        ident.to_string().trim_start_matches("r#").to_owned()
    } else {
        let lit: LitStr = syn::parse2(args.clone()).map_err(|_| {
            syn::Error::new_spanned(
                &args,
                "expected the token's name as a string: `#[logger_token(\"trace-id\")]`",
            )
        })?;
        let v = lit.value();
        check_token_name(&v).map_err(|m| syn::Error::new(lit.span(), m))?;
        v
    };
    if args.is_empty() {
        check_token_name(&name).map_err(|m| syn::Error::new(ident.span(), m))?;
    }
    let sig = &func.sig;
    if let Some(a) = &sig.asyncness {
        return Err(syn::Error::new(
            a.span,
            "a logger token cannot be `async`: it runs while the line is written",
        ));
    }
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.generics,
            "a logger token cannot be generic",
        ));
    }
    if sig.inputs.len() != 3 || sig.inputs.iter().any(|a| matches!(a, FnArg::Receiver(_))) {
        return Err(syn::Error::new_spanned(
            &sig.inputs,
            format!(
                "a logger token takes `(req: &Request, res: &Response, arg: Option<&str>)`, found {} parameter(s)",
                sig.inputs.len()
            ),
        ));
    }
    let returns_option = match &sig.output {
        ReturnType::Type(_, ty) => match &**ty {
            syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Option"),
            _ => false,
        },
        ReturnType::Default => false,
    };
    if !returns_option {
        let msg = "a logger token returns `Option<String>` (`None` prints `-`)";
        return Err(match &sig.output {
            ReturnType::Type(_, ty) => syn::Error::new_spanned(ty, msg),
            ReturnType::Default => syn::Error::new_spanned(sig, msg),
        });
    }
    let ret_span = match &sig.output {
        ReturnType::Type(_, ty) => syn::spanned::Spanned::span(&**ty),
        ReturnType::Default => sig.ident.span(),
    };
    let call = quote_spanned! {ret_span=>
        let value: ::core::option::Option<::std::string::String> = #ident(req, res, arg);
        value
    };
    let vis = &func.vis;
    let doc = format!("The logger token `:{name}` (see `webfw::logger::LoggerToken`).");
    let span = sig.ident.span();
    Ok(quote_spanned! {span=>
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}

        impl ::webfw::logger::LoggerToken for #ident {
            const NAME: &'static str = #name;
            fn value(
                req: &::webfw::Request,
                res: &::webfw::Response,
                arg: ::core::option::Option<&str>,
            ) -> ::core::option::Option<::std::string::String> {
                #call
            }
        }
    })
}

fn check_token_name(name: &str) -> Result<(), String> {
    if !logfmt::is_token_name(name) {
        return Err(format!(
            "`{name}` cannot name a token: use two or more of `A-Z a-z 0-9 _ -`"
        ));
    }
    if Builtin::from_name(name).is_some() {
        return Err(format!(
            "`{name}` is a built-in token; a compile-time token cannot replace it \
             (redefine built-ins at run time with `webfw::logger::token`)"
        ));
    }
    Ok(())
}
