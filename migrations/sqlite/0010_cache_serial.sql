-- The change serial that rows remembered in memory are checked against (store/memo.rs):
-- raised in the same transaction as any update or delete of a row a host remembers, by
-- whoever writes (a host, another host, the CLI). Inserts leave it alone: only rows that
-- exist are remembered. Columns no remembered value holds (a credential's last use, an
-- account's storage used) leave it alone too, or every call would forget everything.
CREATE TABLE cache_serial (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  BIGINT NOT NULL
);
INSERT INTO cache_serial (id, n) VALUES (1, 0);

CREATE TRIGGER tokens_changed AFTER UPDATE ON tokens
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tokens_deleted AFTER DELETE ON tokens
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;

CREATE TRIGGER credentials_changed AFTER UPDATE OF client_id, account_id, scopes, revoked ON credentials
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER credentials_deleted AFTER DELETE ON credentials
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;

CREATE TRIGGER accounts_changed AFTER UPDATE OF id, email, plan, email_confirmed, retention_days ON accounts
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER accounts_deleted AFTER DELETE ON accounts
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;

CREATE TRIGGER plans_changed AFTER UPDATE ON plans
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER plans_deleted AFTER DELETE ON plans
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;

CREATE TRIGGER documents_changed AFTER UPDATE ON documents
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER documents_deleted AFTER DELETE ON documents
BEGIN UPDATE cache_serial SET n = n + 1 WHERE id = 1; END;
