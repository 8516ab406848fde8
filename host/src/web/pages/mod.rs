//! The people's side: pages for account holders, signed in with a one-time link.
//!
//! Every route here but sign-in needs a session (the `quire_session` cookie); a request
//! without one is sent to /signin (a page) or answered 401 (the editor's JSON calls).
//! Every change (any method but GET and HEAD) must carry the session's synchronizer token,
//! as the `_csrf` form field or the `X-CSRF-Token` header: the check is in [`gate`], so
//! no handler can forget it. Lists and forms work without JavaScript; the editor at
//! /d/{id} is the one page that needs it.

mod assets;
mod credentials;
mod document;
mod editor;
mod forms;
pub mod html;
mod library;
mod reference;
mod share;
mod signin;
mod source;
mod upload;
mod webhooks;

use axum::body::Body;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{from_fn, from_fn_with_state, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::api::callers::Caller;
pub(crate) use crate::api::callers::{session_cookie, SESSION_COOKIE};
use crate::api::error::ApiError;
use crate::app::App;
use crate::sessions::{self, Session};

/// Pages may load our own scripts, styles and pictures (and page pictures the editor makes
/// as blob: URLs), talk to us, and post to us; nothing else, and nothing may frame them.
const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/// The most a page's form post may carry (settings, a list of addresses); the editor's
/// model goes through its own limit.
const FORM_BODY: usize = 256 << 10;

/// The routes of the pages. Sign-in is open; the rest pass [`gate`].
pub fn router(app: App) -> Router<App> {
    let signed_in = Router::new()
        .route("/", get(library::home))
        .route("/documents", get(library::documents).post(upload::create))
        .route("/documents/{id}/thumbnail.png", get(library::thumbnail))
        .route("/bin", get(library::bin))
        .route("/bin/{id}/restore", post(library::restore))
        .route("/bin/{id}/purge", post(library::purge))
        .route("/usage", get(library::usage))
        .route("/d/{id}", get(document::show))
        .route("/d/{id}/pages/{file}", get(document::page_picture))
        .route("/d/{id}/download/{file}", get(document::download))
        .route("/d/{id}/versions/{version}", get(document::version))
        .route(
            "/d/{id}/versions/{version}/restore",
            post(document::restore_version),
        )
        .route("/d/{id}/bin", post(document::bin))
        .route("/d/{id}/replace", post(upload::replace))
        .route("/d/{id}/source", get(source::show).post(source::save))
        .route(
            "/d/{id}/source/preview",
            post(editor::preview::<source::Text>),
        )
        .route("/d/{id}/model", get(editor::model).put(editor::save))
        .route("/d/{id}/preview", post(editor::preview::<editor::Draft>))
        .route("/forms", get(forms::list))
        .route("/forms/{id}", get(forms::show))
        .route("/forms/{id}/settings", post(forms::settings))
        .route("/forms/{id}/make", post(forms::make))
        .route("/forms/{id}/invitations", post(forms::invite))
        .route("/forms/{id}/invitations/remove", post(forms::uninvite))
        .route("/forms/{id}/qr.svg", get(share::qr))
        .route("/forms/{id}/responses.csv", get(forms::csv))
        .route("/forms/{id}/responses/{rid}", get(forms::response))
        .route(
            "/credentials",
            get(credentials::list).post(credentials::create),
        )
        .route("/credentials/{client_id}/rotate", post(credentials::rotate))
        .route("/credentials/{client_id}/revoke", post(credentials::revoke))
        .route("/credentials/{client_id}/scopes", post(credentials::scopes))
        .route("/webhooks", get(webhooks::list).post(webhooks::create))
        .route("/webhooks/{id}", get(webhooks::show))
        .route("/webhooks/{id}/test", post(webhooks::send_test))
        .route("/webhooks/{id}/rotate", post(webhooks::rotate))
        .route("/webhooks/{id}/delete", post(webhooks::delete))
        .route("/reference", get(reference::show))
        .route("/reference/openapi.json", get(reference::openapi))
        .route("/signout", post(signin::sign_out))
        .route_layer(from_fn_with_state(app.clone(), gate));
    Router::new()
        .route("/signin", get(signin::form).post(signin::request_link))
        .route("/signin/{token}", get(signin::confirm).post(signin::redeem))
        .route("/assets/{file}", get(assets::serve))
        .merge(signed_in)
        .route_layer(from_fn(page_headers))
        .layer(from_fn(mark_page_paths))
}

/// Marks a 405 as a page path's, so that `server` (which writes every 405's body, outside
/// the router, where axum's `Allow` is known) answers it with a page.
#[derive(Clone, Copy)]
pub struct PagePath;

async fn mark_page_paths(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    if response.status() == StatusCode::METHOD_NOT_ALLOWED {
        response.extensions_mut().insert(PagePath);
    }
    response
}

/// A wrong method on a page's path, refused with a page.
pub fn method_not_allowed(refusal: ApiError) -> Response {
    let mut page = PageError(refusal).into_response();
    let headers = page.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(PAGE_POLICY),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    page
}

/// Pages set their own policy (anything else they answer, downloads and pictures, keeps
/// the data policy every other answer gets) and are never cached by a shared cache: they
/// show one person's documents.
async fn page_headers(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    let is_page = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if is_page {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(PAGE_POLICY),
        );
    }
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("private, no-cache"));
    response
}

/// Spends one conversion made for a page, as the API spends a call: from the plan's daily
/// allowance when the plan has the API (a browser is no way around the allowance), and
/// under a per-account rate when it does not (pages are that plan's whole service, so they
/// are not refused for an API allowance it never had; a script driving them still is).
/// Pictures served from the cache cost nothing and spend nothing.
pub(super) async fn spend_conversion(app: &App, session: &Session) -> Result<(), ApiError> {
    let account = &session.account;
    if account.plan.api {
        app.allowance
            .count_call(&app.db, &account.id, account.plan.daily_calls)
            .await?;
        return Ok(());
    }
    app.page_conversions.take(&account.id).map_err(|wait| {
        ApiError::from(crate::error::Error::TooMany {
            detail: "too many conversions in a minute from these pages; try again shortly"
                .to_string(),
            retry_after: wait.as_secs().max(1),
        })
    })?;
    app.allowance
        .count_call(&app.db, &account.id, None)
        .await
        .map_err(ApiError::from)
}

/// A page's plain form post.
const FORM_MEDIA_TYPE: &str = "application/x-www-form-urlencoded";

/// Whether a request's body is of `media_type` (its Content-Type names it, parameters aside).
fn sends(headers: &HeaderMap, media_type: &str) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with(media_type))
}

/// Whether the request comes from a script (the editor) rather than a page navigation:
/// such a caller gets JSON refusals instead of pages.
fn wants_json(headers: &HeaderMap) -> bool {
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    !accept.contains("text/html") && headers.contains_key("x-csrf-token")
        || accept.starts_with("application/json")
}

/// The session check and the CSRF check, before any signed-in route.
async fn gate(State(app): State<App>, req: Request, next: Next) -> Response {
    let json = wants_json(req.headers());
    let session = match session_cookie(req.headers()) {
        Some(cookie) => match sessions::find(&app.db, cookie).await {
            Ok(s) => s,
            Err(e) => return PageError::from(ApiError::from(e)).respond(json),
        },
        None => None,
    };
    let Some(session) = session else {
        if json || req.method() != Method::GET {
            return ApiError::new(
                StatusCode::UNAUTHORIZED,
                "sign in first: this page needs a session (your sign-in may have expired)",
            )
            .into_response();
        }
        let next_path = req
            .uri()
            .path_and_query()
            .map(|p| p.as_str())
            .unwrap_or("/");
        return Redirect::to(&format!("/signin?next={}", html::url_part(next_path)))
            .into_response();
    };
    let req = if matches!(*req.method(), Method::GET | Method::HEAD) {
        req
    } else {
        match check_csrf(&session, req).await {
            Ok(req) => req,
            Err(refusal) => return refusal.respond(json),
        }
    };
    let mut req = req;
    req.extensions_mut().insert(session);
    next.run(req).await
}

/// A change must carry the session's token: in `X-CSRF-Token`, as `_csrf` in a posted
/// form (whose body is read here, within [`FORM_BODY`], and handed on unchanged), or for
/// a file upload (whose body is the API's to read) as `?_csrf=`.
async fn check_csrf(session: &Session, req: Request) -> Result<Request, PageError> {
    let refused = || {
        PageError(ApiError::new(
            StatusCode::FORBIDDEN,
            "this change did not carry the page's security token; reload the page and try again",
        ))
    };
    if let Some(sent) = req.headers().get("x-csrf-token") {
        let sent = sent.to_str().unwrap_or("");
        return if sessions::csrf_matches(session, sent) {
            Ok(req)
        } else {
            Err(refused())
        };
    }
    if let Some(sent) = upload::csrf_in_query(req.headers(), req.uri().query()) {
        return if sessions::csrf_matches(session, &sent) {
            Ok(req)
        } else {
            Err(refused())
        };
    }
    if !sends(req.headers(), FORM_MEDIA_TYPE) {
        return Err(refused());
    }
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, FORM_BODY).await.map_err(|_| {
        PageError(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a page's form may send at most {FORM_BODY} bytes"),
        ))
    })?;
    let sent = form_urlencoded::parse(&bytes)
        .find(|(k, _)| k == "_csrf")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    if !sessions::csrf_matches(session, &sent) {
        return Err(refused());
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// The signed-in person, for handlers behind [`gate`].
pub struct Signed(pub Session);

impl FromRequestParts<App> for Signed {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, _: &App) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Session>()
            .cloned()
            .map(Signed)
            .ok_or_else(|| PageError(ApiError::new(StatusCode::UNAUTHORIZED, "sign in first")))
    }
}

/// A signed-in person calls as their session and is refused with a page.
impl Caller for Session {
    type Refusal = PageError;

    fn account(&self) -> &crate::accounts::Account {
        &self.account
    }
}

/// A refusal on a page: the API's error (same status, same words), drawn as a page.
#[derive(Debug)]
pub struct PageError(pub ApiError);

impl From<ApiError> for PageError {
    fn from(e: ApiError) -> Self {
        PageError(e)
    }
}

impl From<crate::error::Error> for PageError {
    fn from(e: crate::error::Error) -> Self {
        PageError(e.into())
    }
}

impl PageError {
    fn respond(self, json: bool) -> Response {
        if json {
            self.0.into_response()
        } else {
            self.into_response()
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let ApiError {
            status,
            detail,
            headers,
            ..
        } = self.0;
        let title = status.canonical_reason().unwrap_or("Refused");
        let body = maud::html! {
            h1 { (title) }
            p class="problem" role="alert" { (detail) }
            p { a href="/documents" { "Back to your documents" } }
        };
        let mut response = (status, html::bare_page(title, body)).into_response();
        for (name, value) in headers {
            if let Ok(v) = HeaderValue::from_str(&value) {
                response.headers_mut().insert(name, v);
            }
        }
        response
    }
}

/// A page answer, or a refusal drawn as a page.
pub type PageResult = Result<Response, PageError>;

/// After a change made from a form: back to a page, with what happened to say there. The
/// notice travels in the URL with a tag made from the session's secret token, so a link
/// from elsewhere cannot put words on a person's page.
pub fn see_other(session: &Session, path: &str, notice: &str) -> Response {
    let sep = if path.contains('?') { '&' } else { '?' };
    let to = if notice.is_empty() {
        path.to_string()
    } else {
        format!(
            "{path}{sep}notice={}&tag={}",
            html::url_part(notice),
            notice_tag(session, notice)
        )
    };
    Redirect::to(&to).into_response()
}

fn notice_tag(session: &Session, notice: &str) -> String {
    use hmac::Mac as _;
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(session.csrf.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(notice.as_bytes());
    hex::encode(&mac.finalize().into_bytes()[..16])
}

/// The `?notice=` a redirect brought, if its tag is this session's.
pub fn notice_of(session: &Session, query: &std::collections::HashMap<String, String>) -> String {
    match (query.get("notice"), query.get("tag")) {
        (Some(notice), Some(tag)) if notice.len() <= 2000 => {
            let expected = notice_tag(session, notice);
            if crate::accounts::same_secret(&expected, tag) {
                notice.clone()
            } else {
                String::new()
            }
        }
        _ => String::new(),
    }
}
