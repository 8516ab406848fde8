//! Sharing a form from its page: the link with a copy button, its QR code (for paper and
//! posters), and a snippet that embeds the public page in the owner's own site, which the
//! operator allows per site with `QUIRE_FRAME_ANCESTORS`.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use maud::{html, Markup};
use qrcode::render::svg;
use qrcode::QrCode;

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

/// The HTML a site owner pastes to show the form inside one of their pages (text for
/// them to copy; its inline style is on their page, not ours).
fn embed_snippet(link: &str, title: &str) -> String {
    html! {
        iframe src=(link) title=(title) width="100%" height="900" style="border:0" loading="lazy" {}
    }
    .into_string()
}

/// The Share section of a form's page.
pub fn section(id: &str, title: &str, urls: Urls<'_>, frames: &FrameAncestors) -> Markup {
    let link = urls.fill(id);
    html! {
        section aria-labelledby="share" class="share" {
            h2 id="share" { "Share" }
            div class="share-grid" {
                div {
                    label for="form-link" { "Link for respondents" }
                    div class="copy-row" {
                        input type="text" id="form-link" class="fill-link" readonly value=(link);
                        button type="button" data-copy="form-link" { "Copy link" }
                    }
                    p class="hint" {
                        a href=(link) target="_blank" rel="noopener" { "Open the form" }
                        " as a respondent sees it."
                    }
                    @if frames.origins().is_empty() {
                        p class="hint" id="embed-off" {
                            "Embedding is off on this server: the operator lists the sites allowed to show forms in their pages with "
                            code { "QUIRE_FRAME_ANCESTORS" } "."
                        }
                    } @else {
                        label for="embed" { "Embed in your site" }
                        div class="copy-row" {
                            textarea id="embed" readonly rows="3" { (embed_snippet(&link, title)) }
                            button type="button" data-copy="embed" { "Copy snippet" }
                        }
                        p class="hint" {
                            "Pages on "
                            @for (i, origin) in frames.origins().iter().enumerate() {
                                @if i > 0 { ", " }
                                code { (origin) }
                            }
                            " may show this form."
                        }
                    }
                    p class="status" role="status" id="copied" {}
                }
                figure class="qr" {
                    img src={ "/forms/" (id) "/qr.svg" } width=(QR_SIZE) height=(QR_SIZE)
                        alt={ "QR code of the link " (link) };
                    figcaption {
                        a href={ "/forms/" (id) "/qr.svg" } download={ "form-" (id) "-qr.svg" } { "Download the QR code" }
                    }
                }
            }
        }
        script type="module" src="/assets/share.js" {}
    }
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
            s.contains("title=\"Sign &quot;up&quot; &amp; &lt;go&gt;\""),
            "{s}"
        );
    }

    #[test]
    fn the_qr_code_is_an_svg_picture() {
        let svg = qr_svg("https://q.example/f/abc").unwrap();
        assert!(svg.contains("<svg") && svg.contains("<path"), "{svg}");
    }
}
