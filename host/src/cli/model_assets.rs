//! The pictures of a model written by `quire convert --to json`: files in a directory beside
//! the model (`doc.json` -> `doc.assets/`), named as the model names them, so the model can
//! be edited and converted again with its pictures (`quire convert doc.json --to pdf`).

use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context};
use quire_sdk::image_probe::ImageKind;
use quire_sdk::Asset;

/// More pictures than any document holds; a directory past it is not a model's.
const MAX_FILES: usize = 10_000;
/// What the pictures of one model may add up to.
const MAX_TOTAL_BYTES: u64 = 1 << 30;
/// Sub-directories an asset name may open (`img/icons/a.png`).
const MAX_DEPTH: usize = 8;

/// Where the pictures of the model at `model` are kept.
pub fn dir_of(model: &Path) -> PathBuf {
    model.with_extension("assets")
}

/// Writes `assets` into `dir` (created when there is any). A name that is not a relative
/// path of plain components is refused rather than written outside the directory.
pub fn write(dir: &Path, assets: &[Asset]) -> anyhow::Result<()> {
    for asset in assets {
        let relative = Path::new(&asset.name);
        let plain = relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
        if asset.name.is_empty() || !plain {
            bail!(
                "the picture name `{}` is not a plain relative file name; it was not written",
                asset.name
            );
        }
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, &asset.bytes)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The pictures kept in `dir`, none when it does not exist. Each is named by its path
/// below `dir` (with `/`), its media type read from its first bytes.
pub fn read(dir: &Path) -> anyhow::Result<Vec<Asset>> {
    let mut assets = Vec::new();
    if dir.is_dir() {
        let mut total = 0;
        read_into(dir, "", 0, &mut assets, &mut total)?;
        assets.sort_by(|a, b| a.name.cmp(&b.name));
    }
    Ok(assets)
}

fn read_into(
    dir: &Path,
    prefix: &str,
    depth: usize,
    assets: &mut Vec<Asset>,
    total: &mut u64,
) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else {
            bail!("{}: a picture's name is not UTF-8", entry.path().display());
        };
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            if depth + 1 >= MAX_DEPTH {
                bail!("{}: pictures are nested too deep", path.display());
            }
            read_into(&path, &format!("{prefix}{name}/"), depth + 1, assets, total)?;
            continue;
        }
        if assets.len() >= MAX_FILES {
            bail!("{} holds more than {MAX_FILES} pictures", dir.display());
        }
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        *total += bytes.len() as u64;
        if *total > MAX_TOTAL_BYTES {
            bail!("the pictures beside the model add up to more than 1 GiB");
        }
        let media_type = ImageKind::of(&bytes)
            .map_or("application/octet-stream", ImageKind::media_type)
            .to_string();
        assets.push(Asset {
            name: format!("{prefix}{name}"),
            media_type,
            bytes,
        });
    }
    Ok(())
}
