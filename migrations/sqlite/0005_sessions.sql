-- People in the browser: one-time sign-in links and sessions. Both keep only sha256
-- digests of 256-bit random values (as credentials do), so a database leak opens nothing.
CREATE TABLE login_links (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created    REAL NOT NULL,
    expires    REAL NOT NULL,
    used_at    REAL
);
CREATE INDEX login_links_account ON login_links (account_id, created);

CREATE TABLE sessions (
    id_hash    TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    -- The synchronizer token every change from a page must carry.
    csrf       TEXT NOT NULL,
    created    REAL NOT NULL,
    expires    REAL NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
