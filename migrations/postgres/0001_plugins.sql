-- Converter registry: every installed version, which one is active per name, and the
-- activation history that `rollback` walks back through.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE plugin_versions (
    name         TEXT NOT NULL,
    version      TEXT NOT NULL,
    digest       TEXT NOT NULL,
    info         TEXT NOT NULL,
    installed_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (name, version)
);

CREATE TABLE plugin_activations (
    id           BIGSERIAL PRIMARY KEY,
    name         TEXT NOT NULL,
    version      TEXT NOT NULL,
    activated_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX plugin_activations_name ON plugin_activations (name, id);

CREATE TABLE plugin_active (
    name    TEXT PRIMARY KEY,
    version TEXT NOT NULL,
    serial  BIGINT NOT NULL
);
