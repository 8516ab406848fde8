-- Collections are numbered, and a tombstone is kept for an hour after its collection is
-- done, saying whether it removed the blob: a writer on SQLite reads the number before it
-- stores a blob and, in the transaction that names it, checks that no collection that
-- removed it began since, instead of committing a pin first (host/src/store/pins.rs).
-- Tombstones pruned after the hour raise pruned_through, so a write that looked before
-- them is refused rather than trusted.
CREATE TABLE blob_collections (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    n              BIGINT NOT NULL,
    pruned_through BIGINT NOT NULL
);
INSERT INTO blob_collections (id, n, pruned_through) VALUES (1, 0, 0);

ALTER TABLE blob_tombstones ADD COLUMN generation BIGINT NOT NULL DEFAULT 0;
ALTER TABLE blob_tombstones ADD COLUMN done DOUBLE PRECISION;
ALTER TABLE blob_tombstones ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
