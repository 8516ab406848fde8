//! A write as data: portable statements with the values they bind and the row counts they
//! must meet, run as one transaction by whichever executor suits the backend.
//!
//! Written once, a script runs inside a caller's [`Tx`] (several writes that commit
//! together), or alone through [`Db::write`](super::Db::write), which on SQLite hands it to
//! the writer thread ([`super::writer`]) that commits scripts in groups without a hand-off
//! per statement. The SQL is the same text either way: `$n` placeholders, read by both
//! databases and by both SQLite drivers.

use std::borrow::Cow;

use super::Tx;
use crate::metrics::Serial;

/// One bound value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// Why a script stopped short: a statement changed another number of rows than the write
/// needs. The whole script is rolled back; the caller turns this into its domain's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The collector may have taken a blob the write stored before it committed: its pins
    /// lapsed, or a collection of it began after the write looked (see `store::pins`).
    BlobsTaken,
    /// The account's storage quota would be exceeded.
    OverQuota,
    /// A compare-and-swap found its row changed (another write got there first).
    Moved,
}

/// The rows a statement must change, and what it means when it does not.
#[derive(Debug, Clone, Copy)]
pub struct Expect {
    pub rows: u64,
    pub refusal: Refusal,
}

/// What a statement's [`Expect`] is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The rows it changed (an insert, update or delete).
    Changes,
    /// The integer in the first column of the one row it returns (a `SELECT COUNT`): a
    /// condition the write checks inside its transaction without changing a page.
    Count,
}

#[derive(Debug, Clone)]
pub struct Statement {
    pub sql: Cow<'static, str>,
    pub args: Vec<Value>,
    pub expect: Option<Expect>,
    pub measure: Measure,
    /// From this statement to the end, the transaction holds a lock other writers queue on
    /// (Postgres: an account's row), counted as this section's serial time once taken. On SQLite the
    /// write turn already counts the whole transaction.
    pub serial_from_here: Option<Serial>,
}

impl Statement {
    pub fn new(sql: impl Into<Cow<'static, str>>, args: Vec<Value>) -> Statement {
        Statement {
            sql: sql.into(),
            args,
            expect: None,
            measure: Measure::Changes,
            serial_from_here: None,
        }
    }

    /// A query whose one row's first column is the number [`Statement::expecting`] checks.
    pub fn count(sql: impl Into<Cow<'static, str>>, args: Vec<Value>) -> Statement {
        Statement {
            measure: Measure::Count,
            ..Statement::new(sql, args)
        }
    }

    /// Refuses the whole script unless this statement changes exactly `rows` rows.
    pub fn expecting(mut self, rows: u64, refusal: Refusal) -> Statement {
        self.expect = Some(Expect { rows, refusal });
        self
    }

    pub fn serial_from_here(mut self, section: Serial) -> Statement {
        self.serial_from_here = Some(section);
        self
    }

    /// Checks the rows this statement changed (or counted) against what it expects.
    pub fn check(&self, changed: u64) -> Result<(), ScriptError> {
        match self.expect {
            Some(expect) if expect.rows != changed => Err(ScriptError::Refused {
                refusal: expect.refusal,
                changed,
            }),
            _ => Ok(()),
        }
    }
}

/// Statements that commit together or not at all.
#[derive(Debug, Clone, Default)]
pub struct Script {
    pub statements: Vec<Statement>,
}

impl Script {
    pub fn new() -> Script {
        Script::default()
    }

    pub fn push(&mut self, statement: Statement) {
        self.statements.push(statement);
    }
}

impl From<Statement> for Script {
    fn from(statement: Statement) -> Script {
        Script {
            statements: vec![statement],
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("a statement changed {changed} rows: {refusal:?}")]
    Refused { refusal: Refusal, changed: u64 },
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// SQLite through the writer thread's own connection.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
}

impl ScriptError {
    /// The refusal, if the script stopped at a row count rather than a database error.
    pub fn refusal(&self) -> Option<Refusal> {
        match self {
            ScriptError::Refused { refusal, .. } => Some(*refusal),
            _ => None,
        }
    }
}

impl Tx<'_> {
    /// Runs `script` inside this transaction, statement by statement.
    pub async fn run(&mut self, script: &Script) -> Result<(), ScriptError> {
        for statement in &script.statements {
            let mut query = sqlx::query(&statement.sql);
            for value in &statement.args {
                query = match value {
                    Value::Null => query.bind(None::<String>),
                    Value::Int(v) => query.bind(*v),
                    Value::Real(v) => query.bind(*v),
                    Value::Text(v) => query.bind(v.as_str()),
                };
            }
            let changed = match statement.measure {
                Measure::Changes => query.execute(&mut **self).await?.rows_affected(),
                Measure::Count => {
                    use sqlx::Row;
                    let counted: i64 = query.fetch_one(&mut **self).await?.try_get(0)?;
                    counted.max(0) as u64
                }
            };
            // Counted from when the lock is held, not while it is waited for: a wait is
            // queueing behind another writer's serial time, which that writer counts.
            if let Some(section) = statement.serial_from_here {
                self.serial_until_end(section);
            }
            statement.check(changed)?;
        }
        Ok(())
    }
}
