-- Endpoints an account registered for events, and the outbox of deliveries to them, which
-- every host reads (a delivery is claimed before it is sent, as mail is).
CREATE TABLE webhooks (
    id           TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL,
    url          TEXT NOT NULL,
    -- The chosen event types, comma-separated, with a comma at each end (",a,b,") so one
    -- type is found with LIKE on either database.
    events       TEXT NOT NULL,
    -- whsec_ and base64; kept whole because every delivery is signed with it.
    secret       TEXT NOT NULL,
    -- After a rotation the old secret signs too, until previous_until, so a receiver can
    -- change over without losing a delivery.
    previous_secret TEXT,
    previous_until  DOUBLE PRECISION,
    created      DOUBLE PRECISION NOT NULL
);
CREATE INDEX webhooks_account ON webhooks (account_id, created);

CREATE TABLE webhook_deliveries (
    -- Also the webhook-id header: the same on every attempt, so receivers can drop repeats.
    id            TEXT PRIMARY KEY,
    webhook_id    TEXT NOT NULL,
    account_id    TEXT NOT NULL,
    event         TEXT NOT NULL,
    payload       TEXT NOT NULL,
    created       DOUBLE PRECISION NOT NULL,
    attempts      BIGINT NOT NULL DEFAULT 0,
    next_attempt  DOUBLE PRECISION NOT NULL,
    claimed_until DOUBLE PRECISION,
    claimed_by    TEXT,
    delivered_at  DOUBLE PRECISION,
    -- Given up: a day of failed attempts.
    failed_at     DOUBLE PRECISION,
    -- The receiver's last status code, or NULL when it was not reached.
    last_status   BIGINT,
    last_error    TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (delivered_at, failed_at, next_attempt);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (webhook_id, created);
