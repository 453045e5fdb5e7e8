//! Express's verbs (`router.get`, `router.post`, …: the `methods`
//! package's list): the one list that [`Router`](crate::Router),
//! [`RouteBuilder`](crate::RouteBuilder) and [`App`](crate::App) make their
//! verb methods from.

/// Calls `$then!` with the verbs, each as `/// doc` `name => "method";`.
macro_rules! each_verb {
    ($then:ident) => {
        $then! {
            /// GET handlers (they also answer HEAD unless a HEAD handler comes first).
            get => "get";
            /// POST handlers.
            post => "post";
            /// PUT handlers.
            put => "put";
            /// DELETE handlers.
            delete => "delete";
            /// PATCH handlers.
            patch => "patch";
            /// HEAD handlers.
            head => "head";
            /// OPTIONS handlers (otherwise OPTIONS is answered automatically).
            options => "options";
            /// CHECKOUT handlers.
            checkout => "checkout";
            /// COPY handlers.
            copy => "copy";
            /// LOCK handlers.
            lock => "lock";
            /// MERGE handlers.
            merge => "merge";
            /// MKACTIVITY handlers.
            mkactivity => "mkactivity";
            /// MKCOL handlers.
            mkcol => "mkcol";
            /// MOVE handlers.
            move_ => "move";
            /// M-SEARCH handlers.
            m_search => "m-search";
            /// NOTIFY handlers.
            notify => "notify";
            /// PURGE handlers.
            purge => "purge";
            /// REPORT handlers.
            report => "report";
            /// SEARCH handlers.
            search => "search";
            /// SUBSCRIBE handlers.
            subscribe => "subscribe";
            /// TRACE handlers.
            trace => "trace";
            /// UNLOCK handlers.
            unlock => "unlock";
            /// UNSUBSCRIBE handlers.
            unsubscribe => "unsubscribe";
        }
    };
}
pub(crate) use each_verb;
