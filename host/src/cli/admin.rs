//! `quire admin ...`: accounts, credentials, plans and the bin, for operators and scripts.
//! With `--json` each command prints one JSON object on stdout.

use serde_json::json;

use anyhow::Context;

use crate::accounts;
use crate::api::urls::Urls;
use crate::config::Config;
use crate::page_urls::PageUrls as _;
use crate::store::{BlobLocation, Blobs, Db};

#[derive(clap::Subcommand, Debug)]
pub enum AdminCommand {
    /// Accounts: make, list, show, move to another plan, sign in.
    #[command(subcommand)]
    Account(AccountCommand),
    /// API credentials (client id and secret) of an account.
    #[command(subcommand)]
    Credential(CredentialCommand),
    /// Plans: what an account may do, and how much.
    #[command(subcommand)]
    Plan(PlanCommand),
    /// Takes a document out of the bin.
    Restore {
        /// The document's id.
        doc_id: String,
        /// Prints one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
    /// The blob store (`QUIRE_BLOBS`).
    #[command(subcommand)]
    Blobs(BlobsCommand),
    /// Writes a consistent copy of this installation (the SQLite database and the blobs it
    /// names) into DIR while the server runs. Again into the same DIR, only new blobs are
    /// copied. Postgres installations back up with pg_dump instead.
    Backup {
        /// Where the copy goes (made if missing).
        dir: std::path::PathBuf,
        /// Prints one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
    /// Brings a backup made by `quire admin backup` back into the data directory
    /// (QUIRE_DATA, which must hold no database yet) and the blob store (QUIRE_BLOBS).
    RestoreBackup {
        /// A directory `quire admin backup` wrote.
        dir: std::path::PathBuf,
        /// Prints one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
    /// Mail waiting to be sent (invitations, submission notices); `--all` adds sent mail
    /// and mail given up (refused for good by the relay, or not taken in 3 days).
    Outbox {
        /// Also mail already sent or given up.
        #[arg(long)]
        all: bool,
        /// Prints one JSON object instead of lines.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Subcommand, Debug)]
pub enum BlobsCommand {
    /// Copies every blob of the configured store (`QUIRE_BLOBS`, by default the data
    /// directory's) to another one, e.g. `--to s3://bucket/prefix` with the `AWS_*`
    /// variables set. Blobs already there are skipped, each copy is checked against its
    /// name, and nothing is deleted: point `QUIRE_BLOBS` at the new store afterwards.
    Migrate {
        /// The store to copy into: a directory, or s3://BUCKET[/PREFIX].
        #[arg(long)]
        to: String,
        /// Prints one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
}

/// `quire admin blobs migrate`: safe to run again after an interruption, and while a
/// single host keeps serving (blobs are immutable; a blob written after the copy started
/// is picked up by running it once more after the host is stopped).
pub async fn migrate_blobs(from: &BlobLocation, to: &str, json: bool) -> anyhow::Result<()> {
    let to_location = BlobLocation::parse(Some(to), std::path::Path::new("."))?;
    anyhow::ensure!(
        &to_location != from,
        "--to names the store blobs are already in ({from})"
    );
    let source = Blobs::open(from)?;
    let target = Blobs::open(&to_location)?;
    target
        .ping()
        .await
        .with_context(|| format!("reaching {to_location}"))?;
    let digests = source.list().await?;
    let (mut copied, mut present, mut bytes) = (0u64, 0u64, 0u64);
    for digest in &digests {
        if target.exists(digest).await? {
            present += 1;
            continue;
        }
        let data = source.get(digest).await?;
        bytes += data.len() as u64;
        let written = target.put(&data).await?;
        anyhow::ensure!(&written == digest, "blob {digest} changed on the way");
        copied += 1;
    }
    say(
        json,
        json!({"from": from.to_string(), "to": to_location.to_string(), "blobs": digests.len(), "copied": copied, "already_there": present, "bytes": bytes}),
        format!(
            "{} blobs in {from}: {copied} copied to {to_location} ({bytes} bytes), {present} already there; now set QUIRE_BLOBS={to_location}",
            digests.len()
        ),
    );
    Ok(())
}

/// `quire admin backup DIR`.
pub async fn backup(config: &Config, dir: &std::path::Path, json: bool) -> anyhow::Result<()> {
    let db = Db::open(config.database_url.as_deref(), &config.data_dir).await?;
    let blobs = Blobs::open(&config.blobs)?;
    let c = crate::store::backup::backup(&db, &blobs, dir).await?;
    let text = format!(
        "backed up into {}: database {} bytes, {} blobs ({} new, {} bytes)",
        c.dir.display(),
        c.database_bytes,
        c.blobs,
        c.blobs - c.already_there,
        c.bytes
    );
    say(json, serde_json::to_value(&c)?, text);
    Ok(())
}

/// `quire admin restore-backup DIR`.
pub async fn restore_backup(
    config: &Config,
    dir: &std::path::Path,
    json: bool,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        config.database_url.is_none(),
        "a backup restores into the embedded SQLite database; unset DATABASE_URL"
    );
    let blobs = Blobs::open(&config.blobs)?;
    let c = crate::store::backup::restore(dir, &config.data_dir, &blobs).await?;
    let text = format!(
        "restored into {}: database {} bytes, {} blobs",
        c.dir.display(),
        c.database_bytes,
        c.blobs
    );
    say(json, serde_json::to_value(&c)?, text);
    Ok(())
}

#[derive(clap::Subcommand, Debug)]
pub enum AccountCommand {
    /// Makes an account; prints its id.
    Create {
        /// The account's email address (unique; sign-in links are mailed to it).
        #[arg(long)]
        email: String,
        /// A plan's name: a row of the plans table (free, pro and enterprise to begin with).
        #[arg(long)]
        plan: String,
        /// Prints one JSON object (`{"id": ...}`) instead of a sentence.
        #[arg(long)]
        json: bool,
    },
    /// Lists the accounts, oldest first: id, email, plan.
    List {
        /// Only accounts whose email contains this text.
        #[arg(long)]
        email: Option<String>,
        /// Prints one JSON object instead of lines.
        #[arg(long)]
        json: bool,
    },
    /// Shows one account, found by its id or its email: plan, storage used, credentials.
    Show {
        /// The account's id or email address.
        account: String,
        /// Prints one JSON object instead of lines.
        #[arg(long)]
        json: bool,
    },
    /// Moves an account to another plan.
    SetPlan {
        /// The account's id.
        id: String,
        /// The plan's name.
        plan: String,
        /// Prints one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
    /// Marks an account's email address as confirmed (as its confirmation link would).
    ConfirmEmail {
        /// The account's id.
        id: String,
        /// Prints one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
    /// Prints a one-time sign-in link for the account's browser pages (valid 15 minutes;
    /// counts against the account's sign-in links per hour like a mailed one), on the base
    /// URL the server last started with on this data directory.
    LoginLink {
        /// The account's id.
        id: String,
        /// Prints one JSON object instead of the link.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Subcommand, Debug)]
pub enum CredentialCommand {
    /// A new credential; its secret is shown once.
    Create {
        /// The id of the account it acts for.
        #[arg(long)]
        account: String,
        /// Space-separated scopes its tokens carry.
        #[arg(long, default_value = "documents:read documents:write")]
        scopes: String,
        /// What to call it (which software holds it), shown on the credentials page.
        #[arg(long, default_value = "")]
        name: String,
        /// Prints one JSON object (`client_id`, `client_secret`) instead of lines.
        #[arg(long)]
        json: bool,
    },
    /// A new secret; the old one stays valid for 24 hours.
    Rotate {
        /// The credential's client id.
        client_id: String,
        /// Prints one JSON object instead of lines.
        #[arg(long)]
        json: bool,
    },
    /// Immediate: the credential and its tokens stop working.
    Revoke {
        /// The credential's client id.
        client_id: String,
        /// Prints one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
    /// Narrows (or widens) the scopes; tokens already issued follow.
    SetScopes {
        /// The credential's client id.
        client_id: String,
        /// Space-separated scopes (documents:read, documents:write).
        scopes: String,
        /// Prints one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Subcommand, Debug)]
pub enum PlanCommand {
    /// Shows a plan's limits, as JSON (sizes in bytes).
    Show {
        /// The plan's name.
        name: String,
    },
    /// Changes a plan's limits; `none` removes a limit. Prints the plan as JSON.
    Set {
        /// The plan's name.
        name: String,
        /// API calls an account may make per day (a number or `none`).
        #[arg(long)]
        daily_calls: Option<String>,
        /// Bytes of documents an account may keep (a number of bytes or `none`).
        #[arg(long)]
        storage: Option<String>,
        /// Largest file an account may send, in bytes.
        #[arg(long)]
        max_file: Option<i64>,
        /// Whether the plan may share forms by email.
        #[arg(long)]
        sharing: Option<bool>,
        /// Whether the plan includes forms at all.
        #[arg(long)]
        forms: Option<bool>,
    },
}

fn limit(v: Option<String>) -> anyhow::Result<Option<Option<i64>>> {
    match v.as_deref() {
        None => Ok(None),
        Some("none") => Ok(Some(None)),
        Some(n) => {
            Ok(Some(Some(n.parse().map_err(|_| {
                anyhow::anyhow!("`{n}` is not a number or `none`")
            })?)))
        }
    }
}

fn say(json_out: bool, value: serde_json::Value, text: String) {
    if json_out {
        println!("{value}");
    } else {
        println!("{text}");
    }
}

pub async fn run(db: &Db, base_url: &str, cmd: AdminCommand) -> anyhow::Result<()> {
    match cmd {
        AdminCommand::Account(AccountCommand::LoginLink { id, json }) => {
            let token = crate::sessions::issue_link(db, &id).await?;
            let url = Urls(base_url).sign_in(&token);
            let minutes = (crate::sessions::LINK_LIFETIME / 60.0) as i64;
            say(
                json,
                json!({"account": id, "url": url, "expires_in": minutes * 60}),
                format!("{url}\n(works once, within {minutes} minutes)"),
            );
        }
        AdminCommand::Account(AccountCommand::List { email, json }) => {
            let list = accounts::list(db, email.as_deref()).await?;
            let rows: Vec<_> = list
                .iter()
                .map(|a| json!({"id": a.id, "email": a.email, "plan": a.plan.name}))
                .collect();
            let text = match list.is_empty() {
                true => "no accounts".to_string(),
                false => list
                    .iter()
                    .map(|a| format!("{}  {}  {}", a.id, a.email, a.plan.name))
                    .collect::<Vec<_>>()
                    .join("\n"),
            };
            say(json, json!({"accounts": rows}), text);
        }
        AdminCommand::Account(AccountCommand::Show { account, json }) => {
            let a = accounts::find(db, &account).await?;
            let credentials = accounts::credentials(db, &a.id).await?;
            let listed: Vec<_> = credentials
                .iter()
                .map(
                    |c| json!({"client_id": c.client_id, "scopes": c.scopes, "revoked": c.revoked}),
                )
                .collect();
            let mut lines = vec![
                format!("account {}", a.id),
                format!(
                    "email {}{}",
                    a.email,
                    if a.email_confirmed {
                        " (confirmed)"
                    } else {
                        ""
                    }
                ),
                format!("plan {}", a.plan.name),
                format!("storage used {} bytes", a.storage_used),
            ];
            lines.extend(credentials.iter().map(|c| {
                format!(
                    "credential {} ({}){}",
                    c.client_id,
                    c.scopes.join(" "),
                    if c.revoked { ", revoked" } else { "" }
                )
            }));
            say(
                json,
                json!({"id": a.id, "email": a.email, "email_confirmed": a.email_confirmed,
                       "plan": a.plan.name, "storage_used": a.storage_used,
                       "retention_days": a.retention_days, "credentials": listed}),
                lines.join("\n"),
            );
        }
        AdminCommand::Account(AccountCommand::Create { email, plan, json }) => {
            let id = accounts::create_account(db, &email, &plan).await?;
            say(
                json,
                json!({"id": id}),
                format!("account {id} ({email}, {plan})"),
            );
        }
        AdminCommand::Account(AccountCommand::SetPlan { id, plan, json }) => {
            accounts::set_plan(db, &id, &plan).await?;
            say(
                json,
                json!({"id": id, "plan": plan}),
                format!("account {id} is on {plan}"),
            );
        }
        AdminCommand::Account(AccountCommand::ConfirmEmail { id, json }) => {
            accounts::confirm_email(db, &id).await?;
            say(
                json,
                json!({"id": id, "email_confirmed": true}),
                format!("account {id}: email confirmed"),
            );
        }
        AdminCommand::Credential(CredentialCommand::Create {
            account,
            scopes,
            name,
            json,
        }) => {
            let (client_id, secret) =
                accounts::create_credential(db, &account, &scopes, &name).await?;
            say(
                json,
                json!({"client_id": client_id, "client_secret": secret}),
                format!(
                    "client_id {client_id}\nclient_secret {secret}\n(the secret is shown only now)"
                ),
            );
        }
        AdminCommand::Credential(CredentialCommand::Rotate { client_id, json }) => {
            let secret = accounts::rotate_secret(db, &client_id).await?;
            say(
                json,
                json!({"client_id": client_id, "client_secret": secret, "old_secret_valid_hours": 24}),
                format!("client_secret {secret}\n(the old secret stays valid for 24 hours)"),
            );
        }
        AdminCommand::Credential(CredentialCommand::Revoke { client_id, json }) => {
            accounts::revoke(db, &client_id).await?;
            say(
                json,
                json!({"client_id": client_id, "revoked": true}),
                format!("{client_id} revoked"),
            );
        }
        AdminCommand::Credential(CredentialCommand::SetScopes {
            client_id,
            scopes,
            json,
        }) => {
            let scopes = accounts::set_scopes(db, &client_id, &scopes).await?;
            say(
                json,
                json!({"client_id": client_id, "scopes": scopes}),
                format!("{client_id}: {}", scopes.join(" ")),
            );
        }
        AdminCommand::Plan(PlanCommand::Show { name }) => {
            println!(
                "{}",
                serde_json::to_string(&accounts::plan(db, &name).await?)?
            );
        }
        AdminCommand::Plan(PlanCommand::Set {
            name,
            daily_calls,
            storage,
            max_file,
            sharing,
            forms,
        }) => {
            let p = accounts::set_plan_limits(
                db,
                &name,
                accounts::PlanChange {
                    daily_calls: limit(daily_calls)?,
                    storage_quota: limit(storage)?,
                    max_file,
                    sharing,
                    forms,
                },
            )
            .await?;
            println!("{}", serde_json::to_string(&p)?);
        }
        AdminCommand::Backup { .. } | AdminCommand::RestoreBackup { .. } => {
            anyhow::bail!("backups need the configuration; run them through `quire admin`")
        }
        AdminCommand::Blobs(BlobsCommand::Migrate { .. }) => {
            anyhow::bail!("`admin blobs` needs the configuration; run it through `quire admin`")
        }
        AdminCommand::Outbox { all, json } => {
            let mail = crate::mail::queued(db, all).await?;
            let text = mail
                .iter()
                .map(|m| {
                    format!(
                        "{} to {} \"{}\": {}",
                        m.id,
                        m.recipient,
                        m.subject,
                        match (&m.sent_at, &m.last_error) {
                            (Some(_), _) => "sent".to_string(),
                            (None, Some(e)) if m.failed_at.is_some() => format!("given up: {e}"),
                            (None, Some(e)) => format!("{} attempt(s), last: {e}", m.attempts),
                            (None, None) => "waiting".to_string(),
                        }
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            say(json, json!({"mail": mail}), text);
        }
        AdminCommand::Restore { doc_id, json } => {
            crate::documents::restore(db, &doc_id).await?;
            say(
                json,
                json!({"restored": doc_id}),
                format!("{doc_id} restored"),
            );
        }
    }
    Ok(())
}
