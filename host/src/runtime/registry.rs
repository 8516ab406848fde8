//! Which converter versions exist and which one is active per name. The truth lives in the
//! database (wasm in the blob store), so every host of a cluster converges on the same set;
//! each host keeps the active set compiled in memory and swaps it atomically.

use std::collections::BTreeMap;

use anyhow::Context;
use quire_sdk::{Format, Kind, OptionSpec, PluginInfo};
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::store::{now, Blobs, Db};

/// One row of `quire plugins list`.
#[derive(Debug, Clone, Serialize)]
pub struct VersionRow {
    pub name: String,
    pub version: String,
    pub digest: String,
    pub active: bool,
    pub installed_at: f64,
    pub imports: Vec<String>,
    pub exports: Vec<String>,
}

/// `PluginInfo` as stored in the `info` column.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredInfo {
    pub name: String,
    pub version: String,
    pub imports: Vec<(String, String)>,
    pub exports: Vec<(String, String)>,
    pub options: Vec<(String, String)>,
    /// Export media type -> the kinds it fits, for the exports that do not fit every kind
    /// (rows written before 1.2.0 have none: every export fits every kind).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub export_kinds: Vec<(String, Vec<Kind>)>,
}

impl From<&PluginInfo> for StoredInfo {
    fn from(i: &PluginInfo) -> Self {
        let f = |v: &[Format]| {
            v.iter()
                .map(|f| (f.media_type.clone(), f.extension.clone()))
                .collect()
        };
        StoredInfo {
            name: i.name.clone(),
            version: i.version.clone(),
            imports: f(&i.imports),
            exports: f(&i.exports),
            options: i
                .options
                .iter()
                .map(|o| (o.name.clone(), o.description.clone()))
                .collect(),
            export_kinds: i
                .exports
                .iter()
                .filter(|f| !f.kinds.is_empty())
                .map(|f| (f.media_type.clone(), f.kinds.clone()))
                .collect(),
        }
    }
}

impl From<StoredInfo> for PluginInfo {
    fn from(s: StoredInfo) -> Self {
        let kinds_of = |media_type: &str| {
            s.export_kinds
                .iter()
                .find(|(m, _)| m == media_type)
                .map(|(_, kinds)| kinds.clone())
                .unwrap_or_default()
        };
        let f = |v: Vec<(String, String)>, with_kinds: bool| {
            v.into_iter()
                .map(|(m, e)| Format {
                    kinds: if with_kinds { kinds_of(&m) } else { Vec::new() },
                    media_type: m,
                    extension: e,
                })
                .collect()
        };
        PluginInfo {
            name: s.name,
            version: s.version,
            imports: f(s.imports, false),
            exports: f(s.exports, true),
            options: s
                .options
                .into_iter()
                .map(|(name, description)| OptionSpec { name, description })
                .collect(),
        }
    }
}

/// What the database says is active: name -> (version, digest, info), plus a serial that
/// rises with every activation so hosts can tell cheaply whether to reload.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActiveRows {
    pub serial: i64,
    pub plugins: BTreeMap<String, (String, String, PluginInfo)>,
}

pub struct Registry {
    db: Db,
    blobs: Blobs,
}

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("{0}")]
    Refused(String),
    /// Another active converter holds what this one would claim.
    #[error("{0}")]
    Conflict(String),
    #[error("no plugin {0} is installed")]
    NotFound(String),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for RegistryError {
    fn from(e: sqlx::Error) -> Self {
        RegistryError::Internal(e.into())
    }
}

impl Registry {
    pub fn new(db: Db, blobs: Blobs) -> Registry {
        Registry { db, blobs }
    }

    /// Records a described component. Installing the same bytes again is a no-op; the same
    /// name and version with other bytes is refused, because a version names one build.
    pub async fn record(&self, wasm: &[u8], info: &PluginInfo) -> Result<String, RegistryError> {
        let mut pin = crate::store::Pin::new();
        let digest = pin
            .put(&self.db, &self.blobs, wasm)
            .await
            .map_err(anyhow::Error::from)?;
        let outcome = self.record_pinned(&pin, &digest, info).await;
        if outcome.is_err() {
            pin.abandon(&self.db, &self.blobs).await;
        }
        outcome.map(|()| digest)
    }

    async fn record_pinned(
        &self,
        pin: &crate::store::Pin,
        digest: &str,
        info: &PluginInfo,
    ) -> Result<(), RegistryError> {
        let mut tx = self.db.begin().await?;
        let existing: Option<String> = sqlx::query_scalar(
            "SELECT digest FROM plugin_versions WHERE name = $1 AND version = $2",
        )
        .bind(&info.name)
        .bind(&info.version)
        .fetch_optional(&mut *tx)
        .await?;
        match existing {
            Some(d) if d == digest => {}
            Some(_) => {
                return Err(RegistryError::Refused(format!(
                    "{}@{} is already installed with different contents; give the new build a new version",
                    info.name, info.version
                )))
            }
            None => {
                let stored =
                    serde_json::to_string(&StoredInfo::from(info)).context("encoding info")?;
                sqlx::query(
                    "INSERT INTO plugin_versions (name, version, digest, info, installed_at) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&info.name)
                .bind(&info.version)
                .bind(digest)
                .bind(stored)
                .bind(now())
                .execute(&mut *tx)
                .await?;
            }
        }
        pin.release_in(&mut tx).await.map_err(anyhow::Error::from)?;
        tx.commit().await?;
        Ok(())
    }

    /// The stored wasm and info of `name@version`.
    pub async fn version(
        &self,
        name: &str,
        version: &str,
    ) -> Result<(Vec<u8>, PluginInfo), RegistryError> {
        let row = sqlx::query(
            "SELECT digest, info FROM plugin_versions WHERE name = $1 AND version = $2",
        )
        .bind(name)
        .bind(version)
        .fetch_optional(&self.db.pool)
        .await?
        .ok_or_else(|| RegistryError::NotFound(format!("{name}@{version}")))?;
        let digest: String = row.try_get("digest")?;
        let info: String = row.try_get("info")?;
        let info: StoredInfo =
            serde_json::from_str(&info).context("decoding stored plugin info")?;
        Ok((
            self.blobs.get(&digest).await.map_err(anyhow::Error::from)?,
            info.into(),
        ))
    }

    /// Makes `name@version` the active one, in one transaction.
    pub async fn activate(&self, name: &str, version: &str) -> Result<(), RegistryError> {
        let mut tx = self.begin_history().await?;
        let exists: Option<String> = sqlx::query_scalar(
            "SELECT digest FROM plugin_versions WHERE name = $1 AND version = $2",
        )
        .bind(name)
        .bind(version)
        .fetch_optional(&mut *tx)
        .await?;
        if exists.is_none() {
            return Err(RegistryError::NotFound(format!("{name}@{version}")));
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO plugin_activations (name, version, activated_at) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(name)
        .bind(version)
        .bind(now())
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO plugin_active (name, version, serial) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET version = excluded.version, serial = excluded.serial",
        )
        .bind(name)
        .bind(version)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A transaction that changes the active set: hosts poll `MAX(id)` of the history, so
    /// ids must become visible in order.
    async fn begin_history(&self) -> sqlx::Result<crate::store::Tx<'static>> {
        self.db.begin_in_id_order("plugin_activations").await
    }

    /// Takes `name` out of the active set (its formats stop being readable or servable on
    /// every host); its versions stay installed. Returns the version that was active.
    pub async fn deactivate(&self, name: &str) -> Result<String, RegistryError> {
        let mut tx = self.begin_history().await?;
        let active: Option<String> =
            sqlx::query_scalar("SELECT version FROM plugin_active WHERE name = $1")
                .bind(name)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(version) = active else {
            return Err(RegistryError::NotFound(format!("an active {name}")));
        };
        // An empty version in the history marks "none active": it raises the serial every
        // host polls, and rollback skips it.
        sqlx::query(
            "INSERT INTO plugin_activations (name, version, activated_at) VALUES ($1, '', $2)",
        )
        .bind(name)
        .bind(now())
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM plugin_active WHERE name = $1")
            .bind(name)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(version)
    }

    /// The version that was active before the current one of `name`; with none active, the
    /// last one that was.
    pub async fn previous(&self, name: &str) -> Result<String, RegistryError> {
        let history: Vec<String> = sqlx::query_scalar(
            "SELECT version FROM plugin_activations WHERE name = $1 AND version <> '' ORDER BY id DESC",
        )
        .bind(name)
        .fetch_all(&self.db.pool)
        .await?;
        let active: Option<String> =
            sqlx::query_scalar("SELECT version FROM plugin_active WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.db.pool)
                .await?;
        let Some(current) = active else {
            return history
                .first()
                .cloned()
                .ok_or_else(|| RegistryError::NotFound(name.to_string()));
        };
        history
            .iter()
            .find(|v| **v != current)
            .cloned()
            .ok_or_else(|| {
                RegistryError::Refused(format!(
                    "{name} has no earlier version to roll back to (only {current} was ever active)"
                ))
            })
    }

    pub async fn active_rows(&self) -> anyhow::Result<ActiveRows> {
        // The serial first: a change landing between the two reads leaves the serial older
        // than the rows, so the next poll reloads again rather than never.
        let serial = self.active_serial().await?;
        let rows = sqlx::query(
            "SELECT a.name, a.version, v.digest, v.info FROM plugin_active a
             JOIN plugin_versions v ON v.name = a.name AND v.version = a.version",
        )
        .fetch_all(&self.db.pool)
        .await?;
        let mut out = ActiveRows {
            serial,
            ..ActiveRows::default()
        };
        for row in rows {
            let name: String = row.try_get("name")?;
            let info: String = row.try_get("info")?;
            let info: StoredInfo = serde_json::from_str(&info)?;
            out.plugins.insert(
                name,
                (row.try_get("version")?, row.try_get("digest")?, info.into()),
            );
        }
        Ok(out)
    }

    /// The id of the newest activation or deactivation; it only rises, and it is cheap
    /// enough to poll.
    pub async fn active_serial(&self) -> anyhow::Result<i64> {
        let serial: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM plugin_activations")
            .fetch_one(&self.db.pool)
            .await?;
        Ok(serial.unwrap_or(0))
    }

    pub async fn blob(&self, digest: &str) -> anyhow::Result<Vec<u8>> {
        Ok(self.blobs.get(digest).await?)
    }

    pub async fn list(&self) -> anyhow::Result<Vec<VersionRow>> {
        let active = self.active_rows().await?;
        let rows = sqlx::query(
            "SELECT name, version, digest, info, installed_at FROM plugin_versions ORDER BY name, installed_at",
        )
        .fetch_all(&self.db.pool)
        .await?;
        let mut out = Vec::new();
        for row in rows {
            let name: String = row.try_get("name")?;
            let version: String = row.try_get("version")?;
            let info: StoredInfo = serde_json::from_str(&row.try_get::<String, _>("info")?)?;
            let is_active = active
                .plugins
                .get(&name)
                .is_some_and(|(v, _, _)| *v == version);
            out.push(VersionRow {
                name,
                version,
                digest: row.try_get("digest")?,
                active: is_active,
                installed_at: row.try_get("installed_at")?,
                imports: info.imports.into_iter().map(|(m, _)| m).collect(),
                exports: info.exports.into_iter().map(|(m, _)| m).collect(),
            });
        }
        Ok(out)
    }
}

/// Checks a description before anything is recorded: a name to route by, a version, and at
/// least one format.
pub fn check_info(info: &PluginInfo) -> Result<(), String> {
    let name_ok = !info.name.is_empty()
        && info.name.len() <= 64
        && info
            .name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !name_ok {
        return Err(format!(
            "its describe() gave the name `{}`; a name is 1-64 characters of a-z, 0-9, - and _",
            info.name
        ));
    }
    let version_ok = !info.version.is_empty()
        && info.version.len() <= 64
        && info
            .version
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
    if !version_ok {
        return Err(format!(
            "its describe() gave the version `{}`; use a version like 1.2.0",
            info.version
        ));
    }
    if info.imports.is_empty() && info.exports.is_empty() {
        return Err("its describe() lists no format it imports or exports".into());
    }
    for f in info.imports.iter().chain(&info.exports) {
        if !f.media_type.contains('/') || f.extension.is_empty() || f.extension.contains(['.', '/'])
        {
            return Err(format!(
                "its describe() lists the format `{}` `.{}`; a format is a media type and a bare extension",
                f.media_type, f.extension
            ));
        }
    }
    Ok(())
}

/// Puts what a component's `kinds` export said onto its export formats. Every media type
/// must be one of its exports and every kind one the host knows, or the component is
/// refused: a misspelt kind would otherwise hide a download or offer it everywhere.
pub fn apply_export_kinds(
    info: &mut PluginInfo,
    said: Vec<(String, Vec<String>)>,
) -> Result<(), String> {
    for (media_type, names) in said {
        let Some(format) = info
            .exports
            .iter_mut()
            .find(|f| f.media_type.eq_ignore_ascii_case(&media_type))
        else {
            return Err(format!(
                "its export-kinds() names `{media_type}`, which its describe() does not export"
            ));
        };
        let mut kinds = Vec::new();
        for name in names {
            let kind = Kind::from_name(&name).ok_or_else(|| {
                let known: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
                format!(
                    "its export-kinds() gives `{media_type}` the kind `{name}`; kinds are {}",
                    known.join(", ")
                )
            })?;
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        if kinds.is_empty() {
            return Err(format!(
                "its export-kinds() gives `{media_type}` no kind; leave a format out to let it fit every kind"
            ));
        }
        format.kinds = kinds;
    }
    Ok(())
}

#[cfg(test)]
mod kinds_tests {
    use super::*;

    fn writer() -> PluginInfo {
        PluginInfo {
            name: "mermaid".into(),
            version: "1.2.0".into(),
            imports: vec![Format::new("text/vnd.mermaid", "mmd")],
            exports: vec![
                Format::new("text/vnd.mermaid", "mmd"),
                Format::new("application/pdf", "pdf"),
            ],
            options: Vec::new(),
        }
    }

    fn said(media_type: &str, kinds: &[&str]) -> Vec<(String, Vec<String>)> {
        vec![(
            media_type.into(),
            kinds.iter().map(|k| k.to_string()).collect(),
        )]
    }

    #[test]
    fn declared_kinds_narrow_only_their_format_and_survive_the_database_row() {
        let mut info = writer();
        apply_export_kinds(&mut info, said("TEXT/VND.MERMAID", &["diagram", "diagram"])).unwrap();
        assert_eq!(info.exports[0].kinds, [Kind::Diagram]);
        assert!(!info.exports[0].fits(Kind::Paged) && info.exports[0].fits(Kind::Diagram));
        assert!(info.exports[1].fits(Kind::Paged) && info.exports[1].fits(Kind::Diagram));

        let row = serde_json::to_string(&StoredInfo::from(&info)).unwrap();
        let back: PluginInfo = serde_json::from_str::<StoredInfo>(&row).unwrap().into();
        assert_eq!(back, info);
        // A row written before kinds existed reads as "every export fits every kind".
        let old = r#"{"name":"mermaid","version":"1.1.0","imports":[],"exports":[["text/vnd.mermaid","mmd"]],"options":[]}"#;
        let old: PluginInfo = serde_json::from_str::<StoredInfo>(old).unwrap().into();
        assert!(old.exports[0].kinds.is_empty() && old.exports[0].fits(Kind::Paged));
    }

    #[test]
    fn an_unknown_kind_a_format_not_exported_or_no_kind_refuse_the_component() {
        let why =
            apply_export_kinds(&mut writer(), said("text/vnd.mermaid", &["diagrams"])).unwrap_err();
        assert!(
            why.contains("the kind `diagrams`; kinds are pdf, diagram"),
            "{why}"
        );
        let why = apply_export_kinds(&mut writer(), said("image/png", &["pdf"])).unwrap_err();
        assert!(
            why.contains("`image/png`, which its describe() does not export"),
            "{why}"
        );
        let why = apply_export_kinds(&mut writer(), said("application/pdf", &[])).unwrap_err();
        assert!(why.contains("no kind"), "{why}");
    }
}
