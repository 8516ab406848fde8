//! What one operation of the public API is, as the route table states it: method, path,
//! summary, status, bodies, reply and handler. The table itself is `routes::ROUTES`; this
//! module names no handler, so the handlers and the documents made from a table (the
//! surface, the OpenAPI document) can use these types without depending on the table.

use axum::routing::MethodRouter;

use super::upload::Endpoint;
use crate::app::App;

/// What an operation reads from its request body, for the OpenAPI document.
#[derive(Clone, Copy)]
pub enum Takes {
    /// No body.
    Nothing,
    /// A create or replace at this endpoint: JSON with one source field (its schema derived
    /// from `upload::SourceBody`), multipart, or the file itself.
    Source(Endpoint),
    /// A JSON object of this type (its schema is derived from the type).
    Json(fn(&mut schemars::SchemaGenerator) -> schemars::Schema),
}

/// One operation: method, path (OpenAPI style, which axum shares), summary, success
/// status, what it reads, and its handler.
pub struct Route {
    pub method: &'static str,
    pub path: &'static str,
    pub summary: &'static str,
    pub status: u16,
    pub takes: Takes,
    /// Its query parameters, described from the type the handler reads them into.
    pub query: Option<fn() -> Vec<serde_json::Value>>,
    /// The schema of its JSON reply, derived from the type the handler returns (see
    /// `replies`); `None` for the operations that answer a file, CSV or a schema.
    pub gives: Option<fn(&mut schemars::SchemaGenerator) -> schemars::Schema>,
    /// `None` where another entry's handler serves the path: `{id}.{format}` is one axum
    /// segment, read by GET `{id}`, which splits it at the dot.
    pub(super) handler: Option<fn() -> MethodRouter<App>>,
}

impl Route {
    /// The route, reading its query string into `Q` (see `queries`).
    pub(super) const fn reads(mut self, query: fn() -> Vec<serde_json::Value>) -> Route {
        self.query = Some(query);
        self
    }

    /// The route, answering JSON of the type `schema` describes.
    pub(super) const fn gives(
        mut self,
        schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
    ) -> Route {
        self.gives = Some(schema);
        self
    }
}

pub(super) const fn route(
    method: &'static str,
    path: &'static str,
    summary: &'static str,
    status: u16,
    takes: Takes,
    handler: fn() -> MethodRouter<App>,
) -> Route {
    Route {
        method,
        path,
        summary,
        status,
        takes,
        query: None,
        gives: None,
        handler: Some(handler),
    }
}

pub(super) fn json<T: schemars::JsonSchema>(
    generator: &mut schemars::SchemaGenerator,
) -> schemars::Schema {
    generator.subschema_for::<T>()
}

/// The route table the router was built from, handed to the handlers that describe it
/// (the surface and the OpenAPI document) as a request extension.
#[derive(Clone, Copy)]
pub struct RouteTable(pub &'static [Route]);
