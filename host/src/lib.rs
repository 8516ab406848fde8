//! Quire: the host. See ARCHITECTURE.md for the map.

pub mod accounts;
pub mod api;
pub mod app;
pub mod background;
pub mod body_memory;
pub mod cli;
pub mod config;
pub mod documents;
pub mod error;
pub mod file_kinds;
pub mod fonts;
pub mod forms;
pub mod http;
pub mod mail;
pub mod metrics;
pub mod page_urls;
pub mod runtime;
pub mod schema;
pub mod server;
pub mod sessions;
pub mod store;
pub mod throttle;
pub mod usage;
pub mod web;
pub mod webhooks;
