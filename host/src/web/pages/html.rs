//! The pieces every page is made of: the frame with its navigation, the parts many pages
//! share (forms that post, tables, notices, the page that shows a secret once) and the
//! small formatting helpers (times, sizes, counts, paging). Pages are maud templates, so
//! every value put into one is escaped by construction; a piece returns `Markup`, which a
//! template takes as it is because maud made it. Pages are plain HTML that works without
//! JavaScript; styles come from /assets/pages.css (the page policy allows no inline style
//! or script).

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use maud::{html, Markup, DOCTYPE};

use crate::sessions::Session;

/// A query-string value.
pub fn url_part(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// Where a page belongs in the navigation.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Documents,
    Forms,
    Bin,
    Credentials,
    Webhooks,
    Usage,
}

const NAV: [(Section, &str, &str); 6] = [
    (Section::Documents, "/documents", "Documents"),
    (Section::Forms, "/forms", "Forms"),
    (Section::Bin, "/bin", "Bin"),
    (Section::Credentials, "/credentials", "API credentials"),
    (Section::Webhooks, "/webhooks", "Webhooks"),
    (Section::Usage, "/usage", "Usage"),
];

/// The hidden input that carries the session's synchronizer token in every form.
pub fn csrf_input(session: &Session) -> Markup {
    html! { input type="hidden" name="_csrf" value=(session.csrf); }
}

/// A one-button form that posts to `action` (actions change state, so they are never
/// links a prefetcher could follow).
pub fn post_button(session: &Session, action: &str, label: &str, class: &str) -> Markup {
    html! {
        form method="post" action=(action) class="inline" {
            (csrf_input(session))
            button type="submit" class=(class) { (label) }
        }
    }
}

/// The `<head>` every page shares, with the sheets a page adds after pages.css.
fn head(title: &str, stylesheets: &[&str]) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) " · Quire" }
            link rel="icon" href="/assets/favicon.svg" type="image/svg+xml";
            link rel="stylesheet" href="/assets/pages.css";
            @for sheet in stylesheets {
                link rel="stylesheet" href=(sheet);
            }
        }
    }
}

/// A whole page for a signed-in person: navigation, then `body`.
pub fn page(session: &Session, section: Section, title: &str, body: Markup) -> Markup {
    page_styled(session, section, title, &[], body)
}

/// [`page`] with more style sheets than pages.css (the editor's).
pub fn page_styled(
    session: &Session,
    section: Section,
    title: &str,
    stylesheets: &[&str],
    body: Markup,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title, stylesheets))
            body {
                a class="skip" href="#main" { "Skip to content" }
                header {
                    a class="brand" href="/documents" { "Quire" }
                    nav aria-label="Main" {
                        ul {
                            @for (s, href, label) in NAV {
                                li { a href=(href) aria-current=[(s == section).then_some("page")] { (label) } }
                            }
                        }
                    }
                    div class="who" {
                        span { (session.account.email) }
                        " "
                        (post_button(session, "/signout", "Sign out", "link"))
                    }
                }
                main id="main" { (body) }
            }
        }
    }
}

/// A page for someone not signed in (sign-in, its outcome, errors before sign-in).
pub fn bare_page(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title, &[]))
            body {
                header { span class="brand" { "Quire" } }
                main id="main" class="narrow" { (body) }
            }
        }
    }
}

/// A page that shows a secret once, as `<dt>`/`<dd>` pairs in `secrets`, with `after`
/// below it: never cached, never kept in history by the browser.
pub fn secret_page(
    session: &Session,
    section: Section,
    what: &str,
    secrets: Markup,
    after: Markup,
) -> Response {
    let body = html! {
        h1 { (what) }
        p role="status" { "Copy the secret now: it is shown this once and cannot be shown again." }
        dl class="secret" { (secrets) }
        (after)
    };
    let mut response = page(session, section, what, body).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A table's head row: one column header each, and when `actions`, a last column for the
/// row's buttons that only screen readers name.
pub fn columns(names: &[&str], actions: bool) -> Markup {
    html! {
        thead {
            tr {
                @for name in names {
                    th scope="col" { (name) }
                }
                @if actions {
                    th scope="col" { span class="visually-hidden" { "Actions" } }
                }
            }
        }
    }
}

/// `n` things: `1 page`, `3 pages` (nouns that take an s).
pub fn counted(n: impl Into<i64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// A Unix time as `2026-11-25 19:30 UTC`.
pub fn time(unix: f64) -> String {
    let secs = unix.max(0.0) as i64;
    let days = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// Days since 1970-01-01 as a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A byte count for people, in the binary units plans are set in: `5.0 GiB`.
pub fn bytes(n: i64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = n.max(0) as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{} bytes", n.max(0))
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Page `n` (1-based) of `total` rows shown `per_page` at a time: previous/next links that
/// keep the other query parameters (`query` is already URL-encoded, without `page`).
pub fn pager(path: &str, query: &str, n: i64, per_page: i64, total: i64) -> Markup {
    let pages = ((total + per_page - 1) / per_page).max(1);
    let sep = if query.is_empty() { "" } else { "&" };
    let href = |to: i64| format!("{path}?{query}{sep}page={to}");
    html! {
        @if pages > 1 {
            nav class="pager" aria-label="Pages" {
                @if n > 1 {
                    a rel="prev" href=(href(n - 1)) { "Previous" }
                }
                span { "Page " (n) " of " (pages) }
                @if n < pages {
                    a rel="next" href=(href(n + 1)) { "Next" }
                }
            }
        }
    }
}

/// A notice at the top of a page (what the last action did), announced to screen readers.
pub fn notice(text: &str) -> Markup {
    html! {
        @if !text.is_empty() {
            p class="notice" role="status" { (text) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_calendar_dates() {
        assert_eq!(time(0.0), "1970-01-01 00:00 UTC");
        assert_eq!(time(951_782_400.0), "2000-02-29 00:00 UTC");
        assert_eq!(time(1_795_635_000.0), "2026-11-25 19:30 UTC");
    }

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(bytes(999), "999 bytes");
        assert_eq!(bytes(1_400_000), "1.3 MiB");
        assert_eq!(bytes(5_368_709_120), "5.0 GiB");
    }

    #[test]
    fn values_are_escaped_in_text_and_attributes() {
        let page = bare_page("<b>\"Q&A\"</b>", notice("'<script>'")).into_string();
        assert!(
            page.contains("<title>&lt;b&gt;&quot;Q&amp;A&quot;&lt;/b&gt; · Quire</title>"),
            "{page}"
        );
        assert!(page.contains(">'&lt;script&gt;'</p>"), "{page}");
        let nav = pager("/forms/\"x", "", 1, 10, 20).into_string();
        assert!(nav.contains("href=\"/forms/&quot;x?page=2\""), "{nav}");
    }

    #[test]
    fn pager_keeps_the_query() {
        let p = pager("/documents", "q=x", 2, 10, 35).into_string();
        assert!(p.contains("href=\"/documents?q=x&amp;page=1\""), "{p}");
        assert!(p.contains("href=\"/documents?q=x&amp;page=3\""), "{p}");
        assert!(p.contains("Page 2 of 4"), "{p}");
        assert_eq!(pager("/documents", "", 1, 10, 10).into_string(), "");
    }

    #[test]
    fn counts_read_naturally() {
        assert_eq!(counted(1, "page"), "1 page");
        assert_eq!(counted(0, "response"), "0 responses");
    }
}
