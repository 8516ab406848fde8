//! The pieces every page is made of: escaping, the frame with its navigation, and the
//! small formatting helpers (times, sizes, paging). Pages are plain HTML that works
//! without JavaScript; styles come from /assets/pages.css (the page policy allows no
//! inline style or script).

use std::fmt::Write as _;

use crate::sessions::Session;

/// Text made safe for HTML text and quoted attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

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
pub fn csrf_input(session: &Session) -> String {
    format!(
        "<input type=\"hidden\" name=\"_csrf\" value=\"{}\">",
        esc(&session.csrf)
    )
}

/// A one-button form that posts to `action` (actions change state, so they are never
/// links a prefetcher could follow).
pub fn post_button(session: &Session, action: &str, label: &str, class: &str) -> String {
    format!(
        "<form method=\"post\" action=\"{}\" class=\"inline\">{}<button type=\"submit\" class=\"{class}\">{}</button></form>",
        esc(action),
        csrf_input(session),
        esc(label)
    )
}

/// A whole page for a signed-in person: navigation, then `body`, which is already HTML.
pub fn page(session: &Session, section: Section, title: &str, body: &str) -> String {
    let mut nav = String::new();
    for (s, href, label) in NAV {
        let current = if s == section {
            " aria-current=\"page\""
        } else {
            ""
        };
        let _ = write!(nav, "<li><a href=\"{href}\"{current}>{label}</a></li>");
    }
    let signout = post_button(session, "/signout", "Sign out", "link");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{} · Quire</title><link rel=\"icon\" href=\"/assets/favicon.svg\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"/assets/pages.css\"></head><body><a class=\"skip\" href=\"#main\">Skip to content</a><header><a class=\"brand\" href=\"/documents\">Quire</a><nav aria-label=\"Main\"><ul>{nav}</ul></nav><div class=\"who\"><span>{}</span> {signout}</div></header><main id=\"main\">{body}</main></body></html>",
        esc(title),
        esc(&session.account.email),
    )
}

/// A page for someone not signed in (sign-in, its outcome, errors before sign-in).
pub fn bare_page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{} · Quire</title><link rel=\"icon\" href=\"/assets/favicon.svg\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"/assets/pages.css\"></head><body><header><span class=\"brand\">Quire</span></header><main id=\"main\" class=\"narrow\">{body}</main></body></html>",
        esc(title)
    )
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
pub fn pager(path: &str, query: &str, n: i64, per_page: i64, total: i64) -> String {
    let pages = ((total + per_page - 1) / per_page).max(1);
    if pages <= 1 {
        return String::new();
    }
    let link = |to: i64, label: &str, rel: &str| {
        let sep = if query.is_empty() { "" } else { "&" };
        format!("<a rel=\"{rel}\" href=\"{path}?{query}{sep}page={to}\">{label}</a>")
    };
    let mut out = String::from("<nav class=\"pager\" aria-label=\"Pages\">");
    if n > 1 {
        out.push_str(&link(n - 1, "Previous", "prev"));
    }
    let _ = write!(out, "<span>Page {n} of {pages}</span>");
    if n < pages {
        out.push_str(&link(n + 1, "Next", "next"));
    }
    out.push_str("</nav>");
    out
}

/// A notice at the top of a page (what the last action did), announced to screen readers.
pub fn notice(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    format!("<p class=\"notice\" role=\"status\">{}</p>", esc(text))
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
    fn escaping_covers_attributes() {
        assert_eq!(
            esc("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn pager_keeps_the_query() {
        let p = pager("/documents", "q=x", 2, 10, 35);
        assert!(p.contains("href=\"/documents?q=x&page=1\""), "{p}");
        assert!(p.contains("href=\"/documents?q=x&page=3\""), "{p}");
        assert!(p.contains("Page 2 of 4"), "{p}");
        assert_eq!(pager("/documents", "", 1, 10, 10), "");
    }
}
