//! The end-to-end suite: the `quire` binary as users run it, driven over real HTTP (and its
//! command line), with real components built by `make plugins`, real databases, a real
//! SMTP server, headless Chromium and real files. One binary, one module per area
//! (wasmtime's layout). It is built as an integration test of the host package so that
//! Cargo builds the binary first and names it (`CARGO_BIN_EXE_quire`).

mod api;
mod authors;
mod backup;
mod browser;
mod clients;
mod cluster;
mod common;
mod convert_cli;
mod corpus;
mod deploy;
mod editor;
mod exhaustion;
mod faults;
mod fidelity;
mod first_steps;
mod fonts;
mod formats;
mod forms;
mod golden;
mod hostile;
mod hostile_web;
mod limits;
mod mail;
mod make_documents;
mod openapi;
mod pages;
mod schema;
mod server;
mod service;
mod sharing;
mod soak;
mod text;
mod uploads;
mod webhooks;
