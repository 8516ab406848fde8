//! What one operation of the public API is, as the route table states it: method, path,
//! summary, status, bodies, reply and handler. The table itself is `routes::ROUTES`; this
//! module names no handler, so the handlers and the documents made from a table (the
//! surface, the OpenAPI document) can use these types without depending on the table.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use axum::Json;
use serde::Serialize;

use super::error::ApiError;
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

/// The JSON schema of a reply body, for the OpenAPI document.
pub type SchemaOf = fn(&mut schemars::SchemaGenerator) -> schemars::Schema;

/// One operation: method, path (OpenAPI style, which axum shares), summary, success
/// status, what it reads, and its handler. The status and the reply's schema are read from
/// the type the handler returns (see [`Reply`]), so the table cannot promise one answer
/// while the handler gives another.
pub struct Route {
    pub method: &'static str,
    pub path: &'static str,
    pub summary: &'static str,
    pub status: u16,
    pub takes: Takes,
    /// Its query parameters, described from the type the handler reads them into.
    pub query: Option<fn() -> Vec<serde_json::Value>>,
    /// The schema of its JSON reply; `None` for the operations that answer a file, CSV or
    /// a schema.
    pub gives: Option<SchemaOf>,
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
}

/// What a handler answers on success: its status and the schema of its body. Every API
/// handler returns a `Reply` (wrapped in `Result<_, ApiError>`), and the route table reads
/// both from the handler's type.
pub trait Reply: IntoResponse {
    const STATUS: u16;
    const GIVES: Option<SchemaOf>;
}

impl<T: Serialize + schemars::JsonSchema> Reply for Json<T> {
    const STATUS: u16 = 200;
    const GIVES: Option<SchemaOf> = Some(json::<T>);
}

impl<R: Reply> Reply for Result<R, ApiError> {
    const STATUS: u16 = R::STATUS;
    const GIVES: Option<SchemaOf> = R::GIVES;
}

/// A reply wrapper that answers `R` with another success status.
macro_rules! status_reply {
    ($(#[$doc:meta])* $name:ident, $status:ident) => {
        $(#[$doc])*
        pub struct $name<R>(pub R);

        impl<R: Reply> IntoResponse for $name<R> {
            fn into_response(self) -> Response {
                (StatusCode::$status, self.0).into_response()
            }
        }

        impl<R: Reply> Reply for $name<R> {
            const STATUS: u16 = StatusCode::$status.as_u16();
            const GIVES: Option<SchemaOf> = R::GIVES;
        }
    };
}

status_reply!(
    /// 201: a resource was made.
    Created,
    CREATED
);
status_reply!(
    /// 202: work was queued.
    Accepted,
    ACCEPTED
);

/// A reply about one version of a document: `ETag` names the version (the `If-Match` a
/// replace takes).
pub struct Versioned<R> {
    pub version: i64,
    pub reply: R,
}

impl<R: Reply> IntoResponse for Versioned<R> {
    fn into_response(self) -> Response {
        ([etag(self.version)], self.reply).into_response()
    }
}

impl<R: Reply> Reply for Versioned<R> {
    const STATUS: u16 = R::STATUS;
    const GIVES: Option<SchemaOf> = R::GIVES;
}

/// The `ETag` of a document's version.
pub fn etag(version: i64) -> (header::HeaderName, String) {
    (header::ETAG, format!("\"{version}\""))
}

/// A 200 whose body no JSON schema of ours describes: a file, CSV, a schema, the OpenAPI
/// document. The OpenAPI document names its media type instead (see `openapi`).
pub struct Untyped(pub Response);

impl IntoResponse for Untyped {
    fn into_response(self) -> Response {
        self.0
    }
}

impl Reply for Untyped {
    const STATUS: u16 = 200;
    const GIVES: Option<SchemaOf> = None;
}

/// An async function of these arguments whose future resolves to a [`Reply`]: what an axum
/// handler is, seen from its return type.
pub trait Handles<Args> {
    type Reply: Reply;
}

macro_rules! handles {
    ($($arg:ident),*) => {
        impl<F, Fut, $($arg),*> Handles<($($arg,)*)> for F
        where
            F: FnOnce($($arg),*) -> Fut,
            Fut: std::future::Future,
            Fut::Output: Reply,
        {
            type Reply = Fut::Output;
        }
    };
}

handles!();
handles!(A1);
handles!(A1, A2);
handles!(A1, A2, A3);
handles!(A1, A2, A3, A4);
handles!(A1, A2, A3, A4, A5);
handles!(A1, A2, A3, A4, A5, A6);
handles!(A1, A2, A3, A4, A5, A6, A7);

/// The success status and reply schema of `handler`, read from its return type.
pub(super) const fn reply_of<H: Handles<Args>, Args>(handler: H) -> (u16, Option<SchemaOf>) {
    // Handlers are function items (nothing to drop), but a const fn may not drop a generic.
    std::mem::forget(handler);
    (<H::Reply as Reply>::STATUS, <H::Reply as Reply>::GIVES)
}

/// One entry of the route table: `route!(POST "/api/v1/pdfs", "summary", takes, handler)`.
/// The status and reply schema come from the handler's return type; the method names
/// both the entry and axum's method router.
macro_rules! route {
    (GET $($rest:tt)+) => { $crate::api::contract::route!(@ "GET", get, $($rest)+) };
    (POST $($rest:tt)+) => { $crate::api::contract::route!(@ "POST", post, $($rest)+) };
    (PUT $($rest:tt)+) => { $crate::api::contract::route!(@ "PUT", put, $($rest)+) };
    (PATCH $($rest:tt)+) => { $crate::api::contract::route!(@ "PATCH", patch, $($rest)+) };
    (DELETE $($rest:tt)+) => { $crate::api::contract::route!(@ "DELETE", delete, $($rest)+) };
    (@ $method:literal, $router:ident, $path:literal, $summary:expr, $takes:expr, $handler:expr $(,)?) => {{
        let (status, gives) = $crate::api::contract::reply_of($handler);
        $crate::api::contract::Route {
            method: $method,
            path: $path,
            summary: $summary,
            status,
            takes: $takes,
            query: None,
            gives,
            handler: Some(|| axum::routing::$router($handler)),
        }
    }};
}
pub(super) use route;

pub(super) fn json<T: schemars::JsonSchema>(
    generator: &mut schemars::SchemaGenerator,
) -> schemars::Schema {
    generator.subschema_for::<T>()
}

/// The route table the router was built from, handed to the handlers that describe it
/// (the surface and the OpenAPI document) as a request extension.
#[derive(Clone, Copy)]
pub struct RouteTable(pub &'static [Route]);
