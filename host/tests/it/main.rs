//! The host's integration tests: one binary, one module per area (wasmtime's layout).
//! They use real components built by `make plugins`, a real database and real files.

mod api;
mod authors;
mod backup;
mod browser;
mod cluster;
mod common;
mod convert_cli;
mod corpus;
mod exhaustion;
mod faults;
mod first_steps;
mod formats;
mod forms;
mod golden;
mod hostile;
mod limits;
mod mail;
mod sandbox;
mod schema;
mod server;
mod service;
mod soak;
mod uploads;
