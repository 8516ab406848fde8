//! Suggested fields: the `detect` converter (sandboxed, since scanned pages are untrusted
//! pictures) finds blanks; this side reads its answer and fits it to the form.

use quire_sdk::{Asset, Document, Field};
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::runtime::Plugins;

/// The export format the detector writes.
pub const FORMAT: &str = "application/vnd.quire.fields+json";

#[derive(Deserialize)]
struct Detected {
    fields: Vec<Field>,
}

/// Blanks found on `page` (or every page), in reading order, keyed `field_<n>` from
/// `first_number` on. Labels are the words beside each blank where the page has text.
pub async fn find(
    plugins: &Plugins,
    document: &Document,
    assets: &[Asset],
    page: Option<u32>,
    first_number: usize,
) -> Result<Vec<Field>> {
    let out = plugins
        .export(document, assets, FORMAT, page, None)
        .await
        .map_err(Error::from)?;
    let detected: Detected = serde_json::from_slice(&out.value.bytes).map_err(|e| {
        anyhow::anyhow!(
            "the detector {} answered something unreadable: {e}",
            out.plugin
        )
    })?;
    let mut fields = Vec::with_capacity(detected.fields.len());
    for mut f in detected.fields {
        let fits = document
            .pages
            .get((f.page as usize).wrapping_sub(1))
            .is_some_and(|p| {
                f.frame.w > 0.0
                    && f.frame.h > 0.0
                    && f.frame.x >= -0.5
                    && f.frame.y >= -0.5
                    && f.frame.x + f.frame.w <= p.width + 0.5
                    && f.frame.y + f.frame.h <= p.height + 0.5
            });
        if !fits {
            continue; // a detector bug must not become a field the form cannot hold
        }
        f.key = format!("field_{}", first_number + fields.len());
        f.required = false;
        f.value = None;
        if !f.field_type.chooses() {
            f.options.clear();
        }
        fields.push(f);
    }
    Ok(fields)
}

/// The first `n` for which no key `field_<n>` or later is taken, so detected keys never
/// collide with placed ones.
pub fn next_number(existing: &[Field]) -> usize {
    existing
        .iter()
        .filter_map(|f| f.key.strip_prefix("field_")?.parse::<usize>().ok())
        .max()
        .map_or(1, |n| n + 1)
}
