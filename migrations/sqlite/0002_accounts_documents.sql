-- Plans are data: an operator changes limits without a release. NULL means no limit.
CREATE TABLE plans (
    name            TEXT PRIMARY KEY,
    api             INTEGER NOT NULL,
    daily_calls     INTEGER,
    storage_quota   INTEGER,
    max_file        INTEGER NOT NULL,
    max_credentials INTEGER NOT NULL,
    sharing         INTEGER NOT NULL,
    forms           INTEGER NOT NULL
);
INSERT INTO plans VALUES ('free',       0, NULL,  0,           26214400,  20, 0, 0);
INSERT INTO plans VALUES ('pro',        1, 2000,  5368709120,  536870912, 20, 1, 1);
INSERT INTO plans VALUES ('enterprise', 1, 20000, 26843545600, 536870912, 20, 1, 1);

CREATE TABLE accounts (
    id              TEXT PRIMARY KEY,
    email           TEXT NOT NULL UNIQUE,
    plan            TEXT NOT NULL REFERENCES plans (name),
    email_confirmed INTEGER NOT NULL DEFAULT 0,
    retention_days  INTEGER NOT NULL DEFAULT 30,
    storage_used    BIGINT NOT NULL DEFAULT 0,
    created         REAL NOT NULL
);

-- Secrets and tokens are stored as sha256 digests: both are 256-bit random values, so a
-- fast hash is enough and a database leak reveals neither.
CREATE TABLE credentials (
    client_id          TEXT PRIMARY KEY,
    account_id         TEXT NOT NULL REFERENCES accounts (id),
    secret_hash        TEXT NOT NULL,
    old_secret_hash    TEXT,
    old_secret_expires REAL,
    scopes             TEXT NOT NULL,
    revoked            INTEGER NOT NULL DEFAULT 0,
    created            REAL NOT NULL
);
CREATE INDEX credentials_account ON credentials (account_id);

CREATE TABLE tokens (
    token_hash TEXT PRIMARY KEY,
    client_id  TEXT NOT NULL REFERENCES credentials (client_id),
    scopes     TEXT NOT NULL,
    expires    REAL NOT NULL
);

CREATE TABLE usage (
    account_id TEXT NOT NULL,
    day        TEXT NOT NULL,
    calls      BIGINT NOT NULL,
    PRIMARY KEY (account_id, day)
);

CREATE TABLE documents (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind       TEXT NOT NULL,
    title      TEXT NOT NULL,
    version    BIGINT NOT NULL,
    pages      BIGINT NOT NULL,
    shapes     BIGINT NOT NULL,
    created    REAL NOT NULL,
    updated    REAL NOT NULL,
    binned_at  REAL
);
CREATE INDEX documents_account ON documents (account_id, binned_at, created);

-- Every version of every document; nothing is overwritten. `size` is what the version
-- counts against the account's storage (source + model + assets).
CREATE TABLE document_versions (
    doc_id      TEXT NOT NULL REFERENCES documents (id),
    version     BIGINT NOT NULL,
    title       TEXT NOT NULL,
    model_blob  TEXT NOT NULL,
    source_blob TEXT,
    source_type TEXT,
    pages       BIGINT NOT NULL,
    shapes      BIGINT NOT NULL,
    size        BIGINT NOT NULL,
    created     REAL NOT NULL,
    PRIMARY KEY (doc_id, version)
);

CREATE TABLE document_assets (
    doc_id     TEXT NOT NULL,
    version    BIGINT NOT NULL,
    name       TEXT NOT NULL,
    media_type TEXT NOT NULL,
    blob       TEXT NOT NULL,
    PRIMARY KEY (doc_id, version, name)
);
