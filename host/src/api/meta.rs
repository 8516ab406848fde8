//! Usage, the surface description (GET /api/v1, listed from the route table) and the two
//! schema documents' handlers (the OpenAPI document itself is built in `openapi`).

use axum::extract::State;
use axum::response::IntoResponse;
use axum::{Extension, Json};

use super::replies::{self, Succeeded};

use super::contract::{RouteTable, Untyped};
use super::error::ApiError;
use super::formats::Formats;
use super::urls::Urls;
use crate::accounts::{self, Principal};
use crate::app::App;
use crate::store::now;
use crate::usage;

pub async fn usage(
    State(app): State<App>,
    Extension(p): Extension<Principal>,
) -> Result<Json<replies::Usage>, ApiError> {
    // What this host took and did not spend is not spent.
    app.allowance.release(&app.db, &p.account.id).await?;
    let today = usage::calls_today(&app.db, &p.account.id).await?;
    let account = accounts::account(&app.db, &p.account.id).await?;
    let plan = &account.plan;
    Ok(Json(replies::Usage {
        ok: Succeeded,
        day: usage::utc_day(now()),
        calls: replies::Calls {
            today,
            allowed: plan.daily_calls,
            left: plan.daily_calls.map(|a| (a - today).max(0)),
        },
        storage: replies::Storage {
            used: account.storage_used,
            quota: plan.storage_quota,
            left: plan
                .storage_quota
                .map(|q| (q - account.storage_used).max(0)),
            largest_file: plan.max_file,
        },
    }))
}

pub async fn surface(
    State(app): State<App>,
    Extension(RouteTable(routes)): Extension<RouteTable>,
    crate::http::service::BaseUrl(base_url): crate::http::service::BaseUrl,
) -> Result<Json<replies::Surface>, ApiError> {
    // The first answer may open the font library: off the executor. Later ones find the
    // summary made.
    let fonts = match app.fonts.ready_summary() {
        Some(summary) => summary,
        None => {
            let fonts = app.fonts.clone();
            tokio::task::spawn_blocking(move || fonts.summary())
                .await
                .map_err(|e| anyhow::anyhow!("describing the font library: {e}"))?
        }
    };
    let base = &base_url;
    let formats = Formats::of(&app);
    let list = |read: bool| -> Vec<String> {
        routes
            .iter()
            .filter(|r| (r.method == "GET") == read)
            .map(|r| format!("{} {}", r.method, r.path))
            .collect()
    };
    let entry = |extension: &str, media_type: &str| replies::FormatEntry {
        media_type: media_type.to_string(),
        extension: extension.to_string(),
    };
    Ok(Json(replies::Surface {
        ok: Succeeded,
        version: 1,
        docs: Urls(base).openapi(),
        authentication: replies::Authentication {
            grant: "client_credentials".into(),
            token_endpoint: Urls(base).token_endpoint(),
            how: "Authorization: Bearer <ACCESS_TOKEN>".into(),
            scopes: accounts::ALL_SCOPES.map(String::from).to_vec(),
        },
        read: list(true),
        write: list(false),
        formats: replies::SurfaceFormats {
            readable: formats
                .readable
                .iter()
                .map(|f| entry(&f.extension, &f.media_type))
                .collect(),
            downloads: formats
                .servable
                .iter()
                .map(|(e, m)| replies::DownloadEntry {
                    media_type: m.clone(),
                    extension: e.clone(),
                    kinds: formats.kinds_of(e),
                })
                .collect(),
        },
        fonts: replies::SurfaceFonts {
            digest: fonts.digest.clone(),
            families: fonts
                .families
                .iter()
                .map(|f| replies::SurfaceFontFamily {
                    family: f.name.clone(),
                    styles: f.styles.clone(),
                    scripts: f.scripts.clone(),
                })
                .collect(),
            missing: fonts.missing.clone(),
        },
    }))
}

pub async fn model_schema() -> Untyped {
    Untyped(
        (
            [(axum::http::header::CONTENT_TYPE, "application/schema+json")],
            crate::schema::model_schema(),
        )
            .into_response(),
    )
}

pub async fn openapi(
    State(app): State<App>,
    Extension(RouteTable(routes)): Extension<RouteTable>,
    crate::http::service::BaseUrl(base_url): crate::http::service::BaseUrl,
) -> Untyped {
    let document = super::openapi::document(&base_url, &Formats::of(&app), routes);
    Untyped(Json(document).into_response())
}
