//! The one route table of the public API: the router is built from it, and so are the
//! surface description (GET /api/v1), the OpenAPI document and the `Allow` header of a 405,
//! so none of them can name a route the others lack.

use axum::Extension;

use super::contract::{json, route, Route, RouteTable, Takes};
use super::documents::{self, Diagrams, Pdfs};
use super::upload::{FormSourceQuery, SourceQuery, DIAGRAMS, FORMS, PDFS};
use super::{form_responses, forms, meta, webhooks};
use crate::app::App;

use super::queries::{self, describe};
use super::requests::{Answers, FormSettings, Invitation, PlaceFields};
use Takes::{Nothing, Source};

pub static ROUTES: &[Route] = &[
    route!(GET "/api/v1", "Describe the API surface", Nothing, meta::surface),
    route!(GET "/api/v1/openapi.json", "This OpenAPI 3.1 document", Nothing, meta::openapi),
    route!(
        GET "/api/v1/model.schema.json",
        "JSON Schema of the document model",
        Nothing,
        meta::model_schema
    ),
    route!(GET "/api/v1/usage", "Calls and storage used today", Nothing, meta::usage),
    route!(
        POST "/api/v1/pdfs",
        "Create a PDF-kind document from Markdown, HTML, an image, a PDF or a model",
        Source(PDFS),
        documents::create::<Pdfs>
    )
    .reads(describe::<SourceQuery>),
    route!(
        PUT "/api/v1/pdfs/{id}",
        "Replace a PDF-kind document (version raised, history kept)",
        Source(PDFS),
        documents::replace::<Pdfs>
    )
    .reads(describe::<SourceQuery>),
    route!(
        POST "/api/v1/diagrams",
        "Create a diagram from mermaid, SVG, draw.io, Visio or a model",
        Source(DIAGRAMS),
        documents::create::<Diagrams>
    )
    .reads(describe::<SourceQuery>),
    route!(
        PUT "/api/v1/diagrams/{id}",
        "Replace a diagram (version raised, history kept)",
        Source(DIAGRAMS),
        documents::replace::<Diagrams>
    )
    .reads(describe::<SourceQuery>),
    route!(
        GET "/api/v1/documents",
        "List documents",
        Nothing,
        documents::list
    )
    .reads(describe::<queries::DocumentList>),
    route!(
        GET "/api/v1/documents/{id}",
        "One document (include=model adds the model)",
        Nothing,
        documents::get
    )
    .reads(describe::<queries::DocumentRead>),
    Route {
        method: "GET",
        path: "/api/v1/documents/{id}.{format}",
        summary: "Download in any format an active exporter writes, or the model as json",
        status: 200,
        takes: Nothing,
        query: Some(describe::<queries::Download>),
        gives: None,
        handler: None,
    },
    route!(
        DELETE "/api/v1/documents/{id}",
        "Move a document to the bin",
        Nothing,
        documents::delete
    ),
    route!(
        POST "/api/v1/forms",
        "Create a form from any PDF source, with placed or detected fields",
        Source(FORMS),
        forms::create
    )
    .reads(describe::<FormSourceQuery>),
    route!(
        GET "/api/v1/forms",
        "List forms (state, limit, offset)",
        Nothing,
        forms::list
    )
    .reads(describe::<queries::FormList>),
    route!(GET "/api/v1/forms/{id}", "One form with its schema", Nothing, forms::get),
    route!(
        PUT "/api/v1/forms/{id}",
        "Replace what a form is made of (answers kept, version raised)",
        Source(FORMS),
        forms::replace
    )
    .reads(describe::<FormSourceQuery>),
    route!(
        PATCH "/api/v1/forms/{id}",
        "Close, reopen or configure a form (open, multiple, notify, confirm). With multiple: false, answers are keyed by the address the respondent types (`as`), which is not verified: it stops repeats by mistake, not a person with a second address",
        Takes::Json(json::<FormSettings>),
        forms::patch
    ),
    route!(GET "/api/v1/forms/{id}/fields", "The form's questions", Nothing, forms::get_fields),
    route!(
        PUT "/api/v1/forms/{id}/fields",
        "Place fields (at most 500; keep appends)",
        Takes::Json(json::<PlaceFields>),
        forms::put_fields
    ),
    route!(
        GET "/api/v1/forms/{id}/suggest",
        "Suggested fields found on the pages (page)",
        Nothing,
        forms::suggest
    )
    .reads(describe::<queries::OnePage>),
    route!(
        GET "/api/v1/forms/{id}/responses",
        "Responses, newest first (limit, offset)",
        Nothing,
        form_responses::list
    )
    .reads(describe::<queries::ResponseList>),
    route!(
        POST "/api/v1/forms/{id}/responses",
        "Submit answers (answers, as)",
        Takes::Json(json::<Answers>),
        form_responses::submit
    ),
    route!(
        GET "/api/v1/forms/{id}/responses.csv",
        "All responses as CSV",
        Nothing,
        form_responses::csv_download
    ),
    route!(GET "/api/v1/forms/{id}/responses/{rid}", "One response", Nothing, form_responses::one),
    route!(
        DELETE "/api/v1/forms/{id}/responses/{rid}",
        "Delete a response (its filled copy binned unless keepDocument=1)",
        Nothing,
        form_responses::delete
    )
    .reads(describe::<queries::ResponseDelete>),
    route!(
        POST "/api/v1/forms/{id}/shares",
        "Invite someone by email to fill the form",
        Takes::Json(json::<Invitation>),
        form_responses::add_share
    ),
    route!(
        GET "/api/v1/forms/{id}/shares",
        "Who the form was sent to",
        Nothing,
        form_responses::list_shares
    ),
    route!(
        DELETE "/api/v1/forms/{id}/shares",
        "Withdraw an invitation (email)",
        Nothing,
        form_responses::remove_share
    )
    .reads(describe::<queries::ShareRemove>),
    route!(
        POST "/api/v1/webhooks",
        "Register a webhook endpoint (url, events); its secret is in this answer only",
        Takes::Json(json::<webhooks::NewWebhook>),
        webhooks::create
    ),
    route!(GET "/api/v1/webhooks", "The account's webhook endpoints", Nothing, webhooks::list),
    route!(GET "/api/v1/webhooks/{id}", "One webhook endpoint", Nothing, webhooks::one),
    route!(
        DELETE "/api/v1/webhooks/{id}",
        "Delete a webhook endpoint and its delivery log",
        Nothing,
        webhooks::delete
    ),
    route!(
        POST "/api/v1/webhooks/{id}/secret",
        "Rotate the endpoint's secret (the old one signs too for a day)",
        Nothing,
        webhooks::rotate
    ),
    route!(
        GET "/api/v1/webhooks/{id}/deliveries",
        "The endpoint's latest 100 deliveries, newest first",
        Nothing,
        webhooks::deliveries
    ),
    route!(
        POST "/api/v1/webhooks/{id}/test",
        "Send the endpoint a webhook.test event",
        Nothing,
        webhooks::send_test
    ),
];

/// The API's routes, each path's methods merged into one axum route.
/// The handlers that describe the API find this table in their request.
pub fn api_router() -> axum::Router<App> {
    ROUTES
        .iter()
        .filter_map(|r| Some((r.path, (r.handler?)())))
        .fold(axum::Router::new(), |router, (path, handler)| {
            router.route(path, handler)
        })
        .layer(Extension(RouteTable(ROUTES)))
}

/// Whether a concrete path segment fits a pattern segment: `{x}` is one segment without a
/// dot (ids have none), `{x}.{y}` one with a dot, anything else itself.
fn segment_fits(pattern: &str, segment: &str) -> bool {
    if !pattern.starts_with('{') {
        return pattern == segment;
    }
    let dotted = pattern.contains("}.{");
    !segment.is_empty() && segment.contains('.') == dotted
}

/// The methods the route table has for a concrete path.
pub fn allowed_methods(path: &str) -> Vec<&'static str> {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let mut out: Vec<&'static str> = Vec::new();
    for r in ROUTES {
        let pattern: Vec<&str> = r.path.split('/').collect();
        let fits = pattern.len() == segments.len()
            && pattern
                .iter()
                .zip(&segments)
                .all(|(p, s)| segment_fits(p, s));
        if fits && !out.contains(&r.method) {
            out.push(r.method);
            if r.method == "GET" {
                out.push("HEAD");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_download_path_takes_get_only() {
        assert_eq!(
            allowed_methods("/api/v1/documents/abc.pdf"),
            ["GET", "HEAD"]
        );
        assert_eq!(
            allowed_methods("/api/v1/documents/abc"),
            ["GET", "HEAD", "DELETE"]
        );
        assert_eq!(
            allowed_methods("/api/v1/forms/abc"),
            ["GET", "HEAD", "PUT", "PATCH"]
        );
        assert!(allowed_methods("/api/v1/nothing").is_empty());
    }

    #[test]
    fn each_status_comes_from_the_handlers_reply_type() {
        let status = |method: &str, path: &str| {
            ROUTES
                .iter()
                .find(|r| r.method == method && r.path == path)
                .map(|r| r.status)
        };
        // Creates answer 201 (`Created`), the queued test event 202 (`Accepted`).
        for path in [
            "/api/v1/pdfs",
            "/api/v1/diagrams",
            "/api/v1/forms",
            "/api/v1/webhooks",
        ] {
            assert_eq!(status("POST", path), Some(201), "POST {path}");
        }
        assert_eq!(status("POST", "/api/v1/webhooks/{id}/test"), Some(202));
        assert_eq!(status("PUT", "/api/v1/pdfs/{id}"), Some(200));
        assert_eq!(status("POST", "/api/v1/forms/{id}/responses"), Some(200));
        let others = ROUTES.iter().filter(|r| ![201, 202].contains(&r.status));
        assert_eq!(others.count(), ROUTES.len() - 5);
    }

    #[test]
    fn every_json_reply_names_its_type() {
        for r in ROUTES.iter().filter(|r| r.gives.is_none()) {
            let file = r.path.ends_with(".{format}")
                || r.path.ends_with(".csv")
                || r.path.ends_with("model.schema.json")
                || r.path.ends_with("openapi.json");
            assert!(
                file,
                "{} {} answers JSON of no named type",
                r.method, r.path
            );
        }
    }

    #[test]
    fn every_path_has_a_handler_for_each_of_its_methods() {
        for r in ROUTES.iter().filter(|r| r.handler.is_none()) {
            // Served by the same path without its `.{format}`, with the same method.
            let owner = r.path.replace(".{format}", "");
            assert!(
                ROUTES
                    .iter()
                    .any(|o| o.path == owner && o.method == r.method && o.handler.is_some()),
                "{} {} has no handler",
                r.method,
                r.path
            );
        }
    }
}
