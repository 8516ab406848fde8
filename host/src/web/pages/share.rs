//! Sharing a form from its page: the link with a copy button, its QR code (for paper and
//! posters), and a snippet that embeds the public page in the owner's own site, which the
//! operator allows per site with `QUIRE_FRAME_ANCESTORS`.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use qrcode::render::svg;
use qrcode::QrCode;

use super::html::esc;
use super::PageResult;
use crate::api::callers::FormsCaller;
use crate::api::error::ApiError;
use crate::api::urls::Urls;
use crate::app::App;
use crate::config::FrameAncestors;
use crate::forms;
use crate::page_urls::PageUrls as _;
use crate::sessions::Session;

/// Side of the QR picture in pixels: readable by a phone from a screen or a printed page.
const QR_SIZE: u32 = 240;

/// The link as a QR code, an SVG picture with its quiet zone.
fn qr_svg(link: &str) -> Result<String, ApiError> {
    let code = QrCode::new(link.as_bytes())
        .map_err(|e| ApiError::internal(format!("drawing the QR code: {e}")))?;
    Ok(code
        .render::<svg::Color>()
        .min_dimensions(QR_SIZE, QR_SIZE)
        .build())
}

/// The HTML a site owner pastes to show the form inside one of their pages.
fn embed_snippet(link: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{link}\" title=\"{}\" width=\"100%\" height=\"900\" style=\"border:0\" loading=\"lazy\"></iframe>",
        title.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
    )
}

/// The Share section of a form's page.
pub fn section(id: &str, title: &str, urls: Urls<'_>, frames: &FrameAncestors) -> String {
    let link = urls.fill(id);
    let eid = esc(id);
    let elink = esc(&link);
    let embed = if frames.origins().is_empty() {
        "<p class=\"hint\" id=\"embed-off\">Embedding is off on this server: the operator lists the sites allowed to show forms in their pages with <code>QUIRE_FRAME_ANCESTORS</code>.</p>".to_string()
    } else {
        format!(
            "<label for=\"embed\">Embed in your site</label><div class=\"copy-row\"><textarea id=\"embed\" readonly rows=\"3\">{}</textarea><button type=\"button\" data-copy=\"embed\">Copy snippet</button></div><p class=\"hint\">Pages on {} may show this form.</p>",
            esc(&embed_snippet(&link, title)),
            frames
                .origins()
                .iter()
                .map(|o| format!("<code>{}</code>", esc(o)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    format!(
        "<section aria-labelledby=\"share\" class=\"share\"><h2 id=\"share\">Share</h2>\
<div class=\"share-grid\"><div>\
<label for=\"form-link\">Link for respondents</label><div class=\"copy-row\"><input type=\"text\" id=\"form-link\" class=\"fill-link\" readonly value=\"{elink}\"><button type=\"button\" data-copy=\"form-link\">Copy link</button></div>\
<p class=\"hint\"><a href=\"{elink}\" target=\"_blank\" rel=\"noopener\">Open the form</a> as a respondent sees it.</p>\
{embed}<p class=\"status\" role=\"status\" id=\"copied\"></p></div>\
<figure class=\"qr\"><img src=\"/forms/{eid}/qr.svg\" width=\"{QR_SIZE}\" height=\"{QR_SIZE}\" alt=\"QR code of the link {elink}\"><figcaption><a href=\"/forms/{eid}/qr.svg\" download=\"form-{eid}-qr.svg\">Download the QR code</a></figcaption></figure>\
</div></section><script type=\"module\" src=\"/assets/share.js\"></script>"
    )
}

/// GET /forms/{id}/qr.svg: the form's link as a QR code.
pub async fn qr(
    State(app): State<App>,
    Path(id): Path<String>,
    FormsCaller(session): FormsCaller<Session>,
) -> PageResult {
    let form = forms::get(&app.db, &session.account.id, &id).await?;
    let picture = qr_svg(&Urls(&app.config.base_url).fill(&form.doc.id))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "private, max-age=3600"),
        ],
        picture,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_frames_the_link_and_escapes_the_title() {
        let s = embed_snippet("https://q.example/f/abc", "Sign \"up\" & <go>");
        assert!(
            s.starts_with("<iframe src=\"https://q.example/f/abc\""),
            "{s}"
        );
        assert!(
            s.contains("title=\"Sign &quot;up&quot; &amp; &lt;go>\""),
            "{s}"
        );
    }

    #[test]
    fn the_qr_code_is_an_svg_picture() {
        let svg = qr_svg("https://q.example/f/abc").unwrap();
        assert!(svg.contains("<svg") && svg.contains("<path"), "{svg}");
    }
}
