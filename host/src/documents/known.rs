//! Documents' rows remembered per host, so reading one costs no database round trip.

use super::{get, DocRow};
use crate::error::Result;
use crate::store::memo::{ChangesSeen, Memo};
use crate::store::Db;

/// Documents' rows remembered as the API last read them (see `store::memo`): a replace, a
/// rename or a move to the bin raises the change serial, and the next read asks again.
pub struct KnownDocuments(Memo<(String, String), DocRow>);

/// Rows remembered per host: a bound, not a size that matters (forgetting costs a read).
const DOCUMENTS_REMEMBERED: usize = 50_000;

impl Default for KnownDocuments {
    fn default() -> Self {
        KnownDocuments(Memo::new(DOCUMENTS_REMEMBERED))
    }
}

impl KnownDocuments {
    /// [`get`], without a database round trip while nothing changed.
    pub async fn get(
        &self,
        db: &Db,
        seen: ChangesSeen,
        account_id: &str,
        id: &str,
    ) -> Result<DocRow> {
        let ChangesSeen(Some(serial)) = seen else {
            return get(db, account_id, id).await;
        };
        let key = (account_id.to_string(), id.to_string());
        if let Some(row) = self.0.get(&key, serial) {
            return Ok(row);
        }
        let row = get(db, account_id, id).await?;
        self.0.put(key, serial, row.clone());
        Ok(row)
    }
}
