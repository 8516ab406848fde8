-- Blobs are shared by content, so a blob no row names may be named again at any moment by
-- a write that found it already stored. A writer pins each blob (a committed row here)
-- before it stores it and drops the pins in the transaction that names the blobs; a
-- collector marks a blob with a tombstone before it checks for names and pins, and a
-- writer that sees a tombstone waits for it to go and then stores the blob again. Each
-- side writes before it reads, so one of the two always sees the other.
CREATE TABLE blob_pins (
    pin     TEXT NOT NULL,
    digest  TEXT NOT NULL,
    expires DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (pin, digest)
);
CREATE INDEX blob_pins_digest ON blob_pins (digest);

CREATE TABLE blob_tombstones (
    digest TEXT PRIMARY KEY,
    since  DOUBLE PRECISION NOT NULL
);

-- The collector asks "does any row name this blob?" once per blob.
CREATE INDEX document_versions_model_blob ON document_versions (model_blob);
CREATE INDEX document_versions_source_blob ON document_versions (source_blob);
CREATE INDEX document_assets_blob ON document_assets (blob);
CREATE INDEX plugin_versions_digest ON plugin_versions (digest);

-- When the last invitation went to this address: inviting again within a day sends no
-- second mail, so the shares endpoint cannot be used to mail one address over and over.
ALTER TABLE form_shares ADD COLUMN last_sent DOUBLE PRECISION;

-- Mail a relay refused for good (5xx, an address it will never take) or that waited too
-- long is kept for the operator, marked, and not tried again.
ALTER TABLE outbox ADD COLUMN failed_at DOUBLE PRECISION;

-- Which host process holds a claim, so a host that stops gives back only its own.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
