//! Page pictures, for the account holders' pages (a document's pages and thumbnails) and
//! for the public form page: each (document, version, page) is drawn once however many
//! visitors ask for it at the same moment, kept in memory within a byte budget, and
//! answered as one kind of response.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};

use axum::http::header;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use quire_sdk::{Asset, Document};
use tokio::sync::OnceCell;

use crate::api::error::ApiError;
use crate::app::App;

/// Resolution of page pictures: sharp on a laptop screen, small enough to load fast. The
/// document page and the public form page draw at the same one, so they share pictures.
pub const PAGE_DPI: u32 = 96;

/// Document (or form) id, its version, page number.
pub type PageKey = (String, i64, u32);

/// Pictures kept at once, and the bytes they may hold together (a popular form is viewed
/// far more often than it changes; a 10,000-page one must not fill the memory).
const CACHE_PAGES: usize = 256;
const CACHE_BYTES: usize = 64 << 20;

struct Slot {
    picture: Arc<OnceCell<Bytes>>,
    /// Counted against the budget once drawn.
    size: usize,
}

#[derive(Default)]
struct Cache {
    slots: HashMap<PageKey, Slot>,
    order: VecDeque<PageKey>,
    bytes: usize,
}

impl Cache {
    /// The slot for `key`, made if new. A new version of a form makes the pictures of its
    /// older versions unreachable (their URLs carry the version), so they go.
    fn slot(&mut self, key: &PageKey) -> Arc<OnceCell<Bytes>> {
        if let Some(slot) = self.slots.get(key) {
            return slot.picture.clone();
        }
        let stale: Vec<PageKey> = self
            .slots
            .keys()
            .filter(|k| k.0 == key.0 && k.1 != key.1)
            .cloned()
            .collect();
        for k in stale {
            self.remove(&k);
        }
        let picture = Arc::new(OnceCell::new());
        self.slots.insert(
            key.clone(),
            Slot {
                picture: picture.clone(),
                size: 0,
            },
        );
        self.order.push_back(key.clone());
        self.evict();
        picture
    }

    fn remove(&mut self, key: &PageKey) {
        if let Some(slot) = self.slots.remove(key) {
            self.bytes -= slot.size;
            self.order.retain(|k| k != key);
        }
    }

    fn drawn(&mut self, key: &PageKey, picture: &Arc<OnceCell<Bytes>>, size: usize) {
        if let Some(slot) = self.slots.get_mut(key) {
            if slot.size == 0 && Arc::ptr_eq(&slot.picture, picture) {
                slot.size = size;
                self.bytes += size;
                self.evict();
            }
        }
    }

    fn evict(&mut self) {
        while self.slots.len() > CACHE_PAGES || self.bytes > CACHE_BYTES {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if let Some(slot) = self.slots.remove(&oldest) {
                self.bytes -= slot.size;
            }
        }
    }
}

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The picture for `key`: from memory, or drawn by `draw`. Callers that ask while it is
/// being drawn wait for that drawing instead of starting their own; a failed drawing is
/// not kept, so the next caller tries again.
async fn get_or_draw<F, Fut, E>(key: PageKey, draw: F) -> Result<Bytes, E>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Bytes, E>>,
{
    let picture = match cache().lock() {
        Ok(mut c) => c.slot(&key),
        Err(_) => Arc::new(OnceCell::new()), // poisoned: draw without the cache
    };
    let bytes = picture.get_or_try_init(draw).await?.clone();
    if let Ok(mut c) = cache().lock() {
        c.drawn(&key, &picture, bytes.len());
    }
    Ok(bytes)
}

/// Who may keep a picture once it is sent.
#[derive(Debug, Clone, Copy)]
pub enum Audience {
    /// The signed-in owner: only their browser keeps it, for a day (the URL carries the
    /// version, so a new version is a new URL).
    Owner,
    /// Anyone with a form's link: shared caches may keep it, briefly, since the form page
    /// asks for the current version and the owner may change it at any time.
    LinkHolders,
}

impl Audience {
    fn cache_control(self) -> &'static str {
        match self {
            Audience::Owner => "private, max-age=86400",
            Audience::LinkHolders => "public, max-age=300",
        }
    }
}

/// The page number a picture's file name asks for: `{n}.png` gives n.
pub fn page_of_file(file: &str) -> Option<u32> {
    file.strip_suffix(".png")?.parse().ok()
}

/// Page `page` of `document`, as the PNG exporter draws it at `dpi`.
pub async fn draw(
    app: &App,
    document: &Document,
    assets: &[Asset],
    page: u32,
    dpi: u32,
) -> Result<Bytes, ApiError> {
    let out = app
        .plugins
        .export(document, assets, "png", Some(page), Some(dpi))
        .await?;
    Ok(Bytes::from(out.value.bytes))
}

/// The picture for `key` as a PNG response for `audience`: from memory, or drawn by
/// `drawing` (see [`get_or_draw`]).
pub async fn respond<F, Fut>(
    key: PageKey,
    audience: Audience,
    drawing: F,
) -> Result<Response, ApiError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Bytes, ApiError>>,
{
    let bytes = get_or_draw(key, drawing).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, audience.cache_control()),
        ],
        bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn concurrent_misses_draw_once() {
        let draws = Arc::new(AtomicUsize::new(0));
        let key: PageKey = ("single-flight".into(), 2, 1);
        let mut waiting = Vec::new();
        for _ in 0..8 {
            let (draws, key) = (draws.clone(), key.clone());
            waiting.push(tokio::spawn(async move {
                get_or_draw(key, || async {
                    draws.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    Ok::<_, ()>(Bytes::from_static(b"png"))
                })
                .await
            }));
        }
        for w in waiting {
            assert_eq!(w.await.unwrap().unwrap(), Bytes::from_static(b"png"));
        }
        assert_eq!(draws.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn the_budget_holds_in_bytes_and_entries() {
        let mut c = Cache::default();
        for n in 0..40u32 {
            let key: PageKey = ("big".into(), 2, n);
            let cell = c.slot(&key);
            c.drawn(&key, &cell, 4 << 20);
            assert!(c.bytes <= CACHE_BYTES, "{} bytes held", c.bytes);
        }
        assert_eq!(c.slots.len(), CACHE_BYTES / (4 << 20));
        // A new version drops the old one's pictures.
        let key: PageKey = ("big".into(), 3, 0);
        c.slot(&key);
        assert_eq!(c.slots.len(), 1);
        assert_eq!(c.bytes, 0);
        for n in 0..(CACHE_PAGES as u32 + 10) {
            c.slot(&("many".into(), 2, n));
        }
        assert!(c.slots.len() <= CACHE_PAGES);
    }
}
