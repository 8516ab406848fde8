-- A credential's name (which software holds it) and when it was last used: a token issued
-- to it or an API call made with one, recorded at most every few minutes.
ALTER TABLE credentials ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE credentials ADD COLUMN last_used REAL;
