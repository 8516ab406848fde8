-- A form is a document with fields (the fields live in the document's model) plus these
-- settings. `columns` is the JSON array of every key the form has asked, in the order
-- first seen: the CSV's column order, which a later field never reshuffles.
CREATE TABLE forms (
    doc_id     TEXT PRIMARY KEY REFERENCES documents (id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    is_open    BIGINT NOT NULL DEFAULT 1,
    multiple   BIGINT NOT NULL DEFAULT 1,
    notify     BIGINT NOT NULL DEFAULT 0,
    confirm    TEXT,
    configured BIGINT NOT NULL DEFAULT 0,
    questions  BIGINT NOT NULL DEFAULT 0,
    columns    TEXT NOT NULL,
    responses  BIGINT NOT NULL DEFAULT 0,
    created    DOUBLE PRECISION NOT NULL
);
CREATE INDEX forms_account ON forms (account_id, is_open, created);

-- `once_key` is the respondent when the form takes one answer per person, so the unique
-- index refuses a second answer even when two arrive at the same instant (NULLs never
-- collide).
CREATE TABLE form_responses (
    id         TEXT PRIMARY KEY,
    form_id    TEXT NOT NULL REFERENCES forms (doc_id),
    respondent TEXT,
    via        TEXT NOT NULL,
    submitted  DOUBLE PRECISION NOT NULL,
    document   TEXT,
    answers    TEXT NOT NULL,
    summary    TEXT NOT NULL,
    once_key   TEXT
);
CREATE INDEX form_responses_by_time ON form_responses (form_id, submitted);
CREATE UNIQUE INDEX form_responses_once ON form_responses (form_id, once_key);

CREATE TABLE form_shares (
    form_id TEXT NOT NULL REFERENCES forms (doc_id),
    email   TEXT NOT NULL,
    mode    TEXT NOT NULL,
    added   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (form_id, email)
);

-- Mail waits here until an SMTP server has taken it: nothing is lost while SMTP is down
-- or not configured. A sender claims a row for a while so two hosts never both send it.
CREATE TABLE outbox (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL,
    recipient     TEXT NOT NULL,
    subject       TEXT NOT NULL,
    body          TEXT NOT NULL,
    created       DOUBLE PRECISION NOT NULL,
    attempts      BIGINT NOT NULL DEFAULT 0,
    next_attempt  DOUBLE PRECISION NOT NULL,
    claimed_until DOUBLE PRECISION,
    sent_at       DOUBLE PRECISION,
    last_error    TEXT
);
CREATE INDEX outbox_due ON outbox (sent_at, next_attempt);
