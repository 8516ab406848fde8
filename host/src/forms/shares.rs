//! Who a form was sent to. Inviting someone mails them the public link; the plan must
//! include sharing and forms, and the account's own address must be confirmed (an
//! unconfirmed account could otherwise mail anyone in the service's name).

use sqlx::Row;

use super::{answer_rules, FormRow};
use crate::accounts::Account;
use crate::error::{Error, Result};
use crate::mail::{self, Mail};
use crate::page_urls::PageUrls;
use crate::store::{now, Db};

#[derive(Debug, Clone)]
pub struct Share {
    pub email: String,
    pub mode: String,
    pub added: f64,
}

pub const FILL: &str = "fill";

pub async fn list(db: &Db, form_id: &str) -> Result<Vec<Share>> {
    let rows = sqlx::query(
        "SELECT email, mode, added FROM form_shares WHERE form_id = $1 ORDER BY added, email",
    )
    .bind(form_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Share {
                email: r.try_get("email")?,
                mode: r.try_get("mode")?,
                added: r.try_get("added")?,
            })
        })
        .collect()
}

/// An address invited again within this many seconds is not mailed again.
const INVITE_AGAIN_AFTER: f64 = 86_400.0;
/// Invitations one account may send in a day, over all its forms: enough for a class or a
/// team, too few to make the service a mailer for someone else's list.
pub const INVITATIONS_PER_DAY: i64 = 200;
/// Addresses one form may be shared with.
pub const MAX_SHARES: i64 = 1_000;

/// Invites `email` to fill the form and queues the invitation in the same transaction.
/// Inviting someone already invited mails them again only after a day.
pub async fn add(
    db: &Db,
    urls: &dyn PageUrls,
    account: &Account,
    form: &FormRow,
    email: &str,
) -> Result<Vec<Share>> {
    if !(account.plan.sharing && account.plan.forms) {
        return Err(Error::PlanRequired(format!(
            "the {} plan does not include sharing forms",
            account.plan.name
        )));
    }
    if !account.email_confirmed {
        return Err(Error::Forbidden(format!(
            "confirm the account's address ({}) before sending invitations",
            account.email
        )));
    }
    let email = email.trim();
    if !answer_rules::is_email(email) {
        return Err(Error::InvalidField {
            field: "email".into(),
            detail: format!("`{email}` is not an email address"),
        });
    }
    let at = now();
    let day_ago = at - INVITE_AGAIN_AFTER;
    let address = email.to_lowercase();
    let mut tx = db.begin().await?;
    // The limits count mail sent (`invitations_sent`), not invitations standing: a
    // withdrawn invitation still counts for the day it was mailed.
    sqlx::query("DELETE FROM invitations_sent WHERE account_id = $1 AND sent_at <= $2")
        .bind(&account.id)
        .bind(day_ago)
        .execute(&mut *tx)
        .await?;
    let mailed_lately: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM invitations_sent WHERE form_id = $1 AND email = $2 AND sent_at > $3",
    )
    .bind(&form.doc.id)
    .bind(&address)
    .bind(day_ago)
    .fetch_one(&mut *tx)
    .await?;
    let mail_now = mailed_lately == 0;
    if mail_now {
        let sent_today: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM invitations_sent WHERE account_id = $1 AND sent_at > $2",
        )
        .bind(&account.id)
        .bind(day_ago)
        .fetch_one(&mut *tx)
        .await?;
        if sent_today >= INVITATIONS_PER_DAY {
            return Err(Error::TooMany {
                detail: format!(
                    "the account has sent {INVITATIONS_PER_DAY} invitations in the last day, the most it may; try again later"
                ),
                retry_after: 3600,
            });
        }
    }
    let known: Option<String> = sqlx::query_scalar(
        "SELECT email FROM form_shares WHERE form_id = $1 AND lower(email) = lower($2)",
    )
    .bind(&form.doc.id)
    .bind(email)
    .fetch_optional(&mut *tx)
    .await?;
    if known.is_none() {
        let shared: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM form_shares WHERE form_id = $1")
            .bind(&form.doc.id)
            .fetch_one(&mut *tx)
            .await?;
        if shared >= MAX_SHARES {
            return Err(Error::Conflict(format!(
                "the form is shared with {MAX_SHARES} addresses, the most it may be; withdraw some first"
            )));
        }
        sqlx::query(
            "INSERT INTO form_shares (form_id, email, mode, added, last_sent) VALUES ($1, $2, $3, $4, $4)",
        )
        .bind(&form.doc.id)
        .bind(email)
        .bind(FILL)
        .bind(at)
        .execute(&mut *tx)
        .await?;
    }
    if !mail_now {
        // Invited (and mailed) within the day: the address is on the list again, but no
        // second mail goes out.
        tx.commit().await?;
        return list(db, &form.doc.id).await;
    }
    sqlx::query(
        "UPDATE form_shares SET last_sent = $1 WHERE form_id = $2 AND lower(email) = lower($3)",
    )
    .bind(at)
    .bind(&form.doc.id)
    .bind(email)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO invitations_sent (account_id, form_id, email, sent_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&account.id)
    .bind(&form.doc.id)
    .bind(&address)
    .bind(at)
    .execute(&mut *tx)
    .await?;
    mail::enqueue(
        &mut tx,
        &account.id,
        Mail {
            to: email.to_string(),
            subject: format!("{} asks you to fill in \"{}\"", account.email, form.doc.title),
            body: format!(
                "{} asks you to fill in the form \"{}\".\n\nOpen it here: {}\n\nYou need no account; the link is all you need.\n",
                account.email,
                form.doc.title,
                urls.fill(&form.doc.id)
            ),
        },
    )
    .await?;
    tx.commit().await?;
    list(db, &form.doc.id).await
}

/// Withdraws an invitation. The link itself stays valid: whoever holds it can still answer
/// while the form is open (close the form to stop that).
pub async fn remove(db: &Db, form_id: &str, email: &str) -> Result<Vec<Share>> {
    let done =
        sqlx::query("DELETE FROM form_shares WHERE form_id = $1 AND lower(email) = lower($2)")
            .bind(form_id)
            .bind(email.trim())
            .execute(&db.pool)
            .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotFound(format!(
            "the form was not shared with {email}"
        )));
    }
    list(db, form_id).await
}
