//! Signing in with a one-time link, and out.
//!
//! Opening a link shows a button instead of signing in at once: mail scanners and link
//! previews fetch links, and a GET that used the link up would sign nobody in. The button
//! posts the token back, which redeems it and sets the session cookie.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect};
use axum::{Extension, Form};
use maud::{html, Markup};

use super::html::{self, bare_page};
use super::{session_cookie, PageResult, SESSION_COOKIE};
use crate::api::error::ApiError;
use crate::api::urls::Urls;
use crate::app::App;
use crate::http::service::Client;
use crate::sessions;

/// Where to go after signing in: a path of ours, never another site. Control characters
/// are refused too: browsers drop tabs and line breaks from a `Location`, so `/\t/evil`
/// would become `//evil`, another site.
fn safe_next(next: Option<&String>) -> String {
    next.filter(|n| {
        n.starts_with('/')
            && !n.starts_with("//")
            && !n.contains('\\')
            && !n.chars().any(char::is_control)
            && n.len() <= 1000
    })
    .cloned()
    .unwrap_or_else(|| "/documents".to_string())
}

/// Whether a sign-in post comes from one of our own pages, not from a form on another
/// site (login CSRF: the victim's browser signed into the attacker's account). Browsers
/// say where a request comes from in `Sec-Fetch-Site`, and older ones in `Origin`, which
/// must then name this service: as the browser reached it (`Host`, or over HTTP/2 the
/// request's authority) or its configured address. A request with neither header is no
/// browser's cross-site request.
fn from_our_pages(headers: &HeaderMap, uri: &Uri, base_url: &str) -> bool {
    let value = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = value(header::HeaderName::from_static("sec-fetch-site")) {
        return matches!(site, "same-origin" | "none");
    }
    let Some(origin) = value(header::ORIGIN) else {
        return true;
    };
    let authority = |url: &str| {
        url.split_once("://")
            .map(|(_, rest)| rest.split('/').next().unwrap_or("").to_ascii_lowercase())
    };
    let Some(from) = authority(origin) else {
        return false;
    };
    let reached = value(header::HOST).or_else(|| uri.authority().map(|a| a.as_str()));
    reached.is_some_and(|h| h.eq_ignore_ascii_case(&from)) || authority(base_url) == Some(from)
}

/// A sign-in post is taken only from our own pages, and within the address's rate.
fn admit(
    app: &App,
    client: Option<Extension<Client>>,
    headers: &HeaderMap,
    uri: &Uri,
) -> Result<(), ApiError> {
    if !from_our_pages(headers, uri, &app.config.base_url) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "sign in from this service's own sign-in page; a form on another site cannot sign you in",
        ));
    }
    let key = client
        .and_then(|Extension(c)| c.ip)
        .map(crate::throttle::client_key)
        .unwrap_or_default();
    app.sign_ins.take(&key).map_err(|wait| {
        let seconds = wait.as_secs().max(1);
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many sign-in attempts from this address; try again in {seconds} s"),
        )
        .header(header::RETRY_AFTER, seconds.to_string())
    })
}

fn sign_in_form(next: &str, notice: &str) -> Markup {
    html! {
        h1 { "Sign in" }
        (html::notice(notice))
        p { "We send a one-time sign-in link to your account's address. It works once, within 15 minutes." }
        form method="post" action="/signin" {
            input type="hidden" name="next" value=(next);
            label for="email" { "Email address" }
            input id="email" name="email" type="email" autocomplete="email" required maxlength="254";
            button type="submit" { "Send me a link" }
        }
    }
}

/// GET /signin.
pub async fn form(Query(q): Query<HashMap<String, String>>) -> Markup {
    let next = safe_next(q.get("next"));
    let notice = if q.contains_key("signed_out") {
        "You are signed out."
    } else {
        ""
    };
    bare_page("Sign in", sign_in_form(&next, notice))
}

/// POST /signin: mails a link if the address has an account; the answer is the same
/// either way, so the page cannot be used to find out who has one.
pub async fn request_link(
    State(app): State<App>,
    client: Option<Extension<Client>>,
    headers: HeaderMap,
    uri: Uri,
    Form(form): Form<HashMap<String, String>>,
) -> PageResult {
    admit(&app, client, &headers, &uri)?;
    let email = form.get("email").map(String::as_str).unwrap_or("");
    sessions::mail_link(&app.db, &Urls(&app.config.base_url), email).await?;
    let next = safe_next(form.get("next"));
    let body = html! {
        h1 { "Check your mail" }
        p role="status" {
            "If " (email) " has an account here, a sign-in link is on its way. It works once, within 15 minutes."
        }
        p { a href={ "/signin?next=" (html::url_part(&next)) } { "Send another" } }
    };
    Ok(bare_page("Check your mail", body).into_response())
}

/// GET /signin/{token}: a button that signs in (see the module comment).
pub async fn confirm(
    Path(token): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Markup {
    let next = safe_next(q.get("next"));
    let body = html! {
        h1 { "Sign in to Quire" }
        form method="post" action={ "/signin/" (html::url_part(&token)) } {
            input type="hidden" name="next" value=(next);
            button type="submit" { "Sign in" }
        }
    };
    bare_page("Sign in", body)
}

/// POST /signin/{token}: uses the link up, opens a session, and sets its cookie.
pub async fn redeem(
    State(app): State<App>,
    client: Option<Extension<Client>>,
    Path(token): Path<String>,
    headers: HeaderMap,
    uri: Uri,
    Form(form): Form<HashMap<String, String>>,
) -> PageResult {
    // Before the link is used up: a refused cross-site post leaves it working.
    admit(&app, client, &headers, &uri)?;
    let opened = match sessions::redeem(&app.db, &token).await {
        Ok(o) => o,
        Err(crate::error::Error::NotFound(detail)) => {
            return Ok((
                StatusCode::NOT_FOUND,
                bare_page(
                    "Link not valid",
                    html! {
                        h1 { "This link does not sign you in" }
                        p role="alert" { (detail) }
                        p { a href="/signin" { "Ask for a new link" } }
                    },
                ),
            )
                .into_response())
        }
        Err(e) => return Err(e.into()),
    };
    let secure = app.config.base_url.starts_with("https://") || app.config.tls.is_some();
    let max_age = (opened.expires - crate::store::now()).max(0.0) as i64;
    let cookie = format!(
        "{SESSION_COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{}",
        opened.cookie,
        if secure { "; Secure" } else { "" }
    );
    let mut response = Redirect::to(&safe_next(form.get("next"))).into_response();
    if let Ok(v) = header::HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(response)
}

/// POST /signout: ends the session here and in the database.
pub async fn sign_out(State(app): State<App>, headers: HeaderMap) -> PageResult {
    if let Some(cookie) = session_cookie(&headers) {
        sessions::end(&app.db, cookie).await?;
    }
    let mut response = Redirect::to("/signin?signed_out=1").into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        header::HeaderValue::from_static(
            "quire_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0",
        ),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::{from_our_pages, safe_next};
    use axum::http::{HeaderMap, Uri};

    #[test]
    fn sign_in_posts_come_from_this_site() {
        let base = "https://docs.example.org";
        let check = |pairs: &[(&'static str, &str)], uri: &str| {
            let mut headers = HeaderMap::new();
            for (name, value) in pairs {
                headers.insert(*name, value.parse().unwrap());
            }
            from_our_pages(&headers, &uri.parse::<Uri>().unwrap(), base)
        };
        assert!(check(&[], "/signin/t"), "no browser headers: a script");
        assert!(check(&[("sec-fetch-site", "same-origin")], "/signin/t"));
        assert!(!check(&[("sec-fetch-site", "cross-site")], "/signin/t"));
        assert!(!check(&[("sec-fetch-site", "same-site")], "/signin/t"));
        // Older browsers: Origin against Host, the HTTP/2 authority, or the base URL.
        let evil = ("origin", "https://evil.example");
        assert!(!check(&[evil, ("host", "docs.example.org")], "/signin/t"));
        assert!(check(
            &[
                ("origin", "http://10.0.0.5:8080"),
                ("host", "10.0.0.5:8080")
            ],
            "/"
        ));
        assert!(check(
            &[("origin", "https://Quire.test")],
            "https://quire.test/signin/t"
        ));
        assert!(check(
            &[("origin", "https://docs.example.org")],
            "/signin/t"
        ));
        assert!(!check(&[("origin", "null")], "/signin/t"));
    }

    #[test]
    fn next_stays_on_this_site() {
        let next = |n: &str| safe_next(Some(&n.to_string()));
        assert_eq!(next("/bin?x=1"), "/bin?x=1");
        for away in [
            "//evil.example/x",
            "/\\evil.example",
            "/\t/evil.example/x",
            "/\n/evil.example",
            "/\r//evil.example",
            "https://evil.example/",
            "evil",
        ] {
            assert_eq!(next(away), "/documents", "{away:?}");
        }
    }
}
