//! What every blob store shares: a blob's name (the sha256 digest of its bytes, in
//! lowercase hex) and why storing or reading one failed.

/// Why a blob operation failed, in the terms callers act on.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    /// The store cannot be reached or refused to work (network, timeouts, 5xx): the request
    /// may succeed later, so the API answers 503 with Retry-After.
    #[error("the blob store is unavailable: {0}")]
    Unavailable(String),
    /// The store has no room (a full disk or quota): 507 until an operator frees space.
    #[error("the blob store is full: {0}")]
    Full(String),
    #[error("blob {0} is missing from the blob store")]
    Missing(String),
    #[error("blob {0} is corrupt (its bytes do not match its name)")]
    Corrupt(String),
    #[error("not a blob digest: {0}")]
    BadDigest(String),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<std::io::Error> for BlobError {
    fn from(e: std::io::Error) -> Self {
        use std::io::ErrorKind;
        match e.kind() {
            ErrorKind::StorageFull | ErrorKind::QuotaExceeded => BlobError::Full(e.to_string()),
            // An operator's mistake (a read-only mount, wrong owner), not the request's.
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => {
                BlobError::Unavailable(e.to_string())
            }
            _ => BlobError::Other(e.into()),
        }
    }
}

/// Whether `digest` is a blob's name: 64 lowercase hex digits.
pub fn valid_digest(digest: &str) -> bool {
    digest.len() == 64
        && digest
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}
