//! The socket-level integration tests of webfw, one module per subject,
//! linked into one test binary (one link instead of one per file).
//!
//! Run one module with `cargo test --test suite session::`, one test with
//! `cargo test --test suite session::regenerate_destroys_the_old_session_and_sends_the_new_id -- --exact`.
//! Tests that measure or change something process-wide (peak RSS, open
//! descriptors, the global tracing subscriber, logger-wide state) run in a
//! child process of this binary: see [`common::alone`].

mod common;
mod files_fixture;

mod app_mount;
mod app_settings;
mod app_state;
mod body_parsers;
mod browser;
mod cookies;
mod eco_compression;
mod eco_cookie_session;
mod eco_cors;
mod eco_favicon;
mod eco_helmet;
mod eco_interop;
mod eco_method_override;
mod eco_multer;
mod eco_rate_limit;
mod eco_response_time;
mod eco_vhost;
mod error_reporting;
mod express5_core;
mod express5_files;
mod express5_paths;
mod file_streaming;
mod file_times;
mod file_traversal;
mod final_handler;
mod hostile;
mod http1_findings;
mod http1_kept;
mod http1_node;
mod http2_memory;
mod http2_stream_timeout;
mod json_failure_memory;
mod listen;
mod logger;
mod logger_lines;
mod logger_override;
mod logger_stall;
mod macros;
mod mvc;
mod negotiation;
mod nginx;
mod pipelining;
mod raw_targets;
mod request;
mod request_param_or;
mod request_rewrite;
mod response_headers;
mod response_jsonp_links;
mod response_redirect;
mod response_send;
mod response_stream;
mod robustness;
mod router_dispatch;
mod router_params;
mod router_patterns;
mod router_scale;
mod send_file;
mod server;
mod session;
mod session_redis;
mod shutdown;
mod sse;
mod static_files;
mod test_client;
mod tls_config;
mod tower;
mod tracing;
mod trust_proxy;
mod typed_access;
mod views;
mod websocket;
mod workers;
mod write_cost;
