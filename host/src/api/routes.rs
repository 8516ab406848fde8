//! The one route table of the public API: the router is built from it, and so are the
//! surface description (GET /api/v1), the OpenAPI document and the `Allow` header of a 405,
//! so none of them can name a route the others lack.

use axum::routing::{delete, get, patch, post, put};
use axum::Extension;

use super::contract::{json, route, Route, RouteTable, Takes};
use super::upload::{FormSourceQuery, SourceQuery, DIAGRAMS, FORMS, PDFS};
use super::{documents, form_responses, forms, meta, webhooks};
use crate::app::App;

use super::queries::{self, describe};
use super::replies;
use super::requests::{Answers, FormSettings, Invitation, PlaceFields};
use Takes::{Nothing, Source};

pub static ROUTES: &[Route] = &[
    route("GET", "/api/v1", "Describe the API surface", 200, Nothing, || get(meta::surface)).gives(json::<replies::Surface>),
    route("GET", "/api/v1/openapi.json", "This OpenAPI 3.1 document", 200, Nothing, || {
        get(meta::openapi)
    }),
    route(
        "GET",
        "/api/v1/model.schema.json",
        "JSON Schema of the document model",
        200,
        Nothing,
        || get(meta::model_schema),
    ),
    route("GET", "/api/v1/usage", "Calls and storage used today", 200, Nothing, || {
        get(meta::usage)
    }).gives(json::<replies::Usage>),
    route(
        "POST",
        "/api/v1/pdfs",
        "Create a PDF-kind document from Markdown, HTML, an image, a PDF or a model",
        201,
        Source(PDFS),
        || post(documents::create_pdf),
    ).gives(json::<replies::DocumentReply>).reads(describe::<SourceQuery>),
    route(
        "PUT",
        "/api/v1/pdfs/{id}",
        "Replace a PDF-kind document (version raised, history kept)",
        200,
        Source(PDFS),
        || put(documents::replace_pdf),
    ).gives(json::<replies::DocumentReply>).reads(describe::<SourceQuery>),
    route(
        "POST",
        "/api/v1/diagrams",
        "Create a diagram from mermaid, SVG, draw.io, Visio or a model",
        201,
        Source(DIAGRAMS),
        || post(documents::create_diagram),
    ).gives(json::<replies::DocumentReply>).reads(describe::<SourceQuery>),
    route(
        "PUT",
        "/api/v1/diagrams/{id}",
        "Replace a diagram (version raised, history kept)",
        200,
        Source(DIAGRAMS),
        || put(documents::replace_diagram),
    ).gives(json::<replies::DocumentReply>).reads(describe::<SourceQuery>),
    route("GET", "/api/v1/documents", "List documents", 200, Nothing, || {
        get(documents::list)
    }).gives(json::<replies::DocumentList>).reads(describe::<queries::DocumentList>),
    route(
        "GET",
        "/api/v1/documents/{id}",
        "One document (include=model adds the model)",
        200,
        Nothing,
        || get(documents::get),
    ).gives(json::<replies::DocumentReply>).reads(describe::<queries::DocumentRead>),
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
    route(
        "DELETE",
        "/api/v1/documents/{id}",
        "Move a document to the bin",
        200,
        Nothing,
        || delete(documents::delete),
    ).gives(json::<replies::Binned>),
    route(
        "POST",
        "/api/v1/forms",
        "Create a form from any PDF source, with placed or detected fields",
        201,
        Source(FORMS),
        || post(forms::create),
    ).gives(json::<replies::FormReply>).reads(describe::<FormSourceQuery>),
    route("GET", "/api/v1/forms", "List forms (state, limit, offset)", 200, Nothing, || {
        get(forms::list)
    }).gives(json::<replies::FormList>).reads(describe::<queries::FormList>),
    route("GET", "/api/v1/forms/{id}", "One form with its schema", 200, Nothing, || {
        get(forms::get)
    }).gives(json::<replies::FormReply>),
    route(
        "PUT",
        "/api/v1/forms/{id}",
        "Replace what a form is made of (answers kept, version raised)",
        200,
        Source(FORMS),
        || put(forms::replace),
    ).gives(json::<replies::FormReply>).reads(describe::<FormSourceQuery>),
    route(
        "PATCH",
        "/api/v1/forms/{id}",
        "Close, reopen or configure a form (open, multiple, notify, confirm). With multiple: false, answers are keyed by the address the respondent types (`as`), which is not verified: it stops repeats by mistake, not a person with a second address",
        200,
        Takes::Json(json::<FormSettings>),
        || patch(forms::patch),
    ).gives(json::<replies::PatchedForm>),
    route("GET", "/api/v1/forms/{id}/fields", "The form's questions", 200, Nothing, || {
        get(forms::get_fields)
    }).gives(json::<replies::Questions>),
    route(
        "PUT",
        "/api/v1/forms/{id}/fields",
        "Place fields (at most 500; keep appends)",
        200,
        Takes::Json(json::<PlaceFields>),
        || put(forms::put_fields),
    ).gives(json::<replies::PlacedFields>),
    route(
        "GET",
        "/api/v1/forms/{id}/suggest",
        "Suggested fields found on the pages (page)",
        200,
        Nothing,
        || get(forms::suggest),
    ).gives(json::<replies::Suggestions>).reads(describe::<queries::OnePage>),
    route(
        "GET",
        "/api/v1/forms/{id}/responses",
        "Responses, newest first (limit, offset)",
        200,
        Nothing,
        || get(form_responses::list),
    ).gives(json::<replies::ResponseList>).reads(describe::<queries::ResponseList>),
    route(
        "POST",
        "/api/v1/forms/{id}/responses",
        "Submit answers (answers, as)",
        200,
        Takes::Json(json::<Answers>),
        || post(form_responses::submit),
    ).gives(json::<replies::ResponseReply>),
    route(
        "GET",
        "/api/v1/forms/{id}/responses.csv",
        "All responses as CSV",
        200,
        Nothing,
        || get(form_responses::csv_download),
    ),
    route(
        "GET",
        "/api/v1/forms/{id}/responses/{rid}",
        "One response",
        200,
        Nothing,
        || get(form_responses::one),
    ).gives(json::<replies::ResponseReply>),
    route(
        "DELETE",
        "/api/v1/forms/{id}/responses/{rid}",
        "Delete a response (its filled copy binned unless keepDocument=1)",
        200,
        Nothing,
        || delete(form_responses::delete),
    ).gives(json::<replies::ResponseDeleted>).reads(describe::<queries::ResponseDelete>),
    route(
        "POST",
        "/api/v1/forms/{id}/shares",
        "Invite someone by email to fill the form",
        200,
        Takes::Json(json::<Invitation>),
        || post(form_responses::add_share),
    ).gives(json::<replies::Shares>),
    route(
        "GET",
        "/api/v1/forms/{id}/shares",
        "Who the form was sent to",
        200,
        Nothing,
        || get(form_responses::list_shares),
    ).gives(json::<replies::Shares>),
    route(
        "DELETE",
        "/api/v1/forms/{id}/shares",
        "Withdraw an invitation (email)",
        200,
        Nothing,
        || delete(form_responses::remove_share),
    ).gives(json::<replies::Shares>).reads(describe::<queries::ShareRemove>),
    route(
        "POST",
        "/api/v1/webhooks",
        "Register a webhook endpoint (url, events); its secret is in this answer only",
        201,
        Takes::Json(json::<webhooks::NewWebhook>),
        || post(webhooks::create),
    ).gives(json::<webhooks::WebhookReply>),
    route("GET", "/api/v1/webhooks", "The account's webhook endpoints", 200, Nothing, || {
        get(webhooks::list)
    }).gives(json::<webhooks::WebhookList>),
    route("GET", "/api/v1/webhooks/{id}", "One webhook endpoint", 200, Nothing, || {
        get(webhooks::one)
    }).gives(json::<webhooks::WebhookReply>),
    route(
        "DELETE",
        "/api/v1/webhooks/{id}",
        "Delete a webhook endpoint and its delivery log",
        200,
        Nothing,
        || delete(webhooks::delete),
    ).gives(json::<webhooks::WebhookDeleted>),
    route(
        "POST",
        "/api/v1/webhooks/{id}/secret",
        "Rotate the endpoint's secret (the old one signs too for a day)",
        200,
        Nothing,
        || post(webhooks::rotate),
    ).gives(json::<webhooks::WebhookReply>),
    route(
        "GET",
        "/api/v1/webhooks/{id}/deliveries",
        "The endpoint's latest 100 deliveries, newest first",
        200,
        Nothing,
        || get(webhooks::deliveries),
    ).gives(json::<webhooks::DeliveryLog>),
    route(
        "POST",
        "/api/v1/webhooks/{id}/test",
        "Send the endpoint a webhook.test event",
        202,
        Nothing,
        || post(webhooks::send_test),
    ).gives(json::<webhooks::TestQueued>),
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
