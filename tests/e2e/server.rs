//! A real `quire serve` on loopback, driven over real HTTP, with the CLI beside it.

use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::plugins_dir;

pub struct Server {
    pub base: String,
    pub admin_base: String,
    pub data: tempfile::TempDir,
    pub database_url: Option<String>,
    child: Option<Child>,
    pub port: u16,
    pub admin_port: u16,
}

/// The compile cache every server and CLI run of this test process shares, as the
/// installations of one operator may (`QUIRE_CACHE_DIR`): a fresh data directory then
/// loads the converters instead of compiling them, which takes 20 seconds on two cores.
/// Emptied once per run, so artifacts of earlier builds do not pile up.
pub fn compile_cache() -> &'static std::path::Path {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-compile-cache");
        match std::fs::remove_dir_all(&dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                panic!("emptying {}: {e}", dir.display())
            }
            _ => dir,
        }
    })
}

/// A loopback port for a server of this test process to listen on.
///
/// Not one the kernel hands out (`bind(0)` picks from the ephemeral range, 32768-60999
/// on Linux): a port picked that way and released is free for the kernel to give to
/// the next outgoing connection of any parallel test, and a server that binds it a
/// moment later fails with "address already in use" (seen in CI). Ports below the
/// ephemeral range are only ever taken by a listener that asks for them, and this
/// process hands each out once; the start is spread by process id so two test runs on
/// one machine rarely meet, and a port someone holds is skipped.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    const FIRST: u32 = 20_000;
    const COUNT: u32 = 12_000;
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let start = std::process::id().wrapping_mul(2_654_435_761) % COUNT;
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        assert!(
            n < COUNT,
            "no free loopback port left below the ephemeral range"
        );
        let port = (FIRST + (start + n) % COUNT) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

pub struct Resp {
    pub status: u16,
    pub headers: ureq::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// Any request; `body` is sent as-is with `content_type`.
pub fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, Vec<u8>)>,
) -> Resp {
    let mut b = ureq::http::Request::builder().method(method).uri(url);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let result = match body {
        Some((ct, bytes)) => agent().run(b.header("content-type", ct).body(bytes).unwrap()),
        None => agent().run(b.body(()).unwrap()),
    };
    let mut r = result.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let body = r
        .body_mut()
        .with_config()
        .limit(256 << 20)
        .read_to_vec()
        .unwrap();
    Resp {
        status,
        headers,
        body,
    }
}

/// An account with one credential.
#[derive(Clone, Debug)]
pub struct Account {
    pub id: String,
    pub client_id: String,
    pub secret: String,
}

impl Server {
    pub fn start(env: &[(&str, &str)]) -> Server {
        Self::start_with_db(None, env)
    }

    pub fn start_with_db(database_url: Option<String>, env: &[(&str, &str)]) -> Server {
        let mut s = Self::stopped(database_url);
        s.spawn(env);
        s
    }

    /// A server on a fresh data directory that is not started yet (for `cli` set-up such
    /// as a restore); [`Server::spawn`] starts it.
    pub fn stopped(database_url: Option<String>) -> Server {
        let data = tempfile::tempdir().unwrap();
        let (port, admin_port) = (free_port(), free_port());
        Server {
            base: format!("http://127.0.0.1:{port}"),
            admin_base: format!("http://127.0.0.1:{admin_port}"),
            data,
            database_url,
            child: None,
            port,
            admin_port,
        }
    }

    fn command(&self) -> Command {
        self.configure(Command::new(env!("CARGO_BIN_EXE_quire")))
    }

    /// `cmd` with this server's settings in its environment, so a `quire` it runs (a
    /// script's, say) works on this server's data.
    pub fn configure(&self, mut cmd: Command) -> Command {
        cmd.env("QUIRE_DATA", self.data.path())
            .env("QUIRE_PLUGINS_DIR", plugins_dir())
            .env("QUIRE_CACHE_DIR", compile_cache())
            .env("QUIRE_ADDR", format!("127.0.0.1:{}", self.port))
            .env("QUIRE_ADMIN_ADDR", format!("127.0.0.1:{}", self.admin_port))
            .env("QUIRE_BASE_URL", &self.base)
            .env("QUIRE_ADMIN_TOKEN", "operator-secret-for-tests")
            .env("QUIRE_LOG", "warn")
            // Blobs in the data directory unless a test says otherwise.
            .env_remove("QUIRE_BLOBS");
        match &self.database_url {
            Some(url) => cmd.env("DATABASE_URL", url),
            None => cmd.env_remove("DATABASE_URL"),
        };
        cmd
    }

    /// (Re)starts the server process on the same data and ports.
    pub fn spawn(&mut self, env: &[(&str, &str)]) {
        self.spawn_logging_to(env, Stdio::inherit());
    }

    /// [`Server::spawn`] with the server's log (its stderr) sent to `log`.
    pub fn spawn_logging_to(&mut self, env: &[(&str, &str)], log: Stdio) {
        let mut cmd = self.command();
        cmd.arg("serve")
            .env("QUIRE_EXIT_ON_STDIN_EOF", "1")
            .stdin(Stdio::piped())
            .stderr(log);
        for (k, v) in env {
            cmd.env(k, v);
        }
        self.spawn_command(cmd);
    }

    /// Starts `cmd`, a `quire serve` listening on this server's port, and waits until it
    /// accepts connections.
    pub fn spawn_command(&mut self, mut cmd: Command) {
        self.child = Some(cmd.spawn().expect("starting quire serve"));
        let started = Instant::now();
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                panic!("quire serve exited early: {status}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "server did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("server running").id()
    }

    /// SIGTERM, as a service manager stops it; returns how it exited.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let mut c = self.child.take().expect("server running");
        let sent = Command::new("kill")
            .args(["-TERM", &c.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = c.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not stop after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL, as a crash would (a no-op on a process already dead), and reap it.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Runs a `quire` subcommand against this server's data; returns its output.
    pub fn cli_output(&self, args: &[&str]) -> std::process::Output {
        self.command().args(args).output().unwrap()
    }

    /// Runs a `quire` subcommand against this server's data; returns stdout, panics on failure.
    pub fn cli(&self, args: &[&str]) -> String {
        let out = self.command().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "quire {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn cli_json(&self, args: &[&str]) -> Value {
        serde_json::from_str(self.cli(args).trim()).unwrap()
    }

    pub fn account(&self, plan: &str) -> Account {
        let email = format!("{}@example.com", rand_hex());
        let id = self.cli_json(&[
            "admin", "account", "create", "--email", &email, "--plan", plan, "--json",
        ])["id"]
            .as_str()
            .unwrap()
            .to_string();
        let c = self.cli_json(&["admin", "credential", "create", "--account", &id, "--json"]);
        Account {
            id,
            client_id: c["client_id"].as_str().unwrap().into(),
            secret: c["client_secret"].as_str().unwrap().into(),
        }
    }

    pub fn token_response(&self, client_id: &str, secret: &str, scope: Option<&str>) -> Resp {
        let mut form =
            format!("grant_type=client_credentials&client_id={client_id}&client_secret={secret}");
        if let Some(s) = scope {
            form.push_str(&format!("&scope={}", s.replace(' ', "+")));
        }
        request(
            "POST",
            &format!("{}/auth/oauth/token", self.base),
            &[],
            Some(("application/x-www-form-urlencoded", form.into_bytes())),
        )
    }

    pub fn token(&self, a: &Account) -> String {
        let r = self.token_response(&a.client_id, &a.secret, None);
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()["access_token"].as_str().unwrap().to_string()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn get(&self, token: &str, path: &str) -> Resp {
        request(
            "GET",
            &self.url(path),
            &[("authorization", &format!("Bearer {token}"))],
            None,
        )
    }

    pub fn send_json(&self, method: &str, token: &str, path: &str, body: &Value) -> Resp {
        request(
            method,
            &self.url(path),
            &[("authorization", &format!("Bearer {token}"))],
            Some(("application/json", serde_json::to_vec(body).unwrap())),
        )
    }

    pub fn send_raw(
        &self,
        method: &str,
        token: &str,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> Resp {
        request(
            method,
            &self.url(path),
            &[("authorization", &format!("Bearer {token}"))],
            Some((content_type, body)),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn rand_hex() -> String {
    let mut b = [0u8; 8];
    getrandom(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn getrandom(buf: &mut [u8]) {
    use std::hash::{BuildHasher, Hasher};
    for chunk in buf.chunks_mut(8) {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(Instant::now().elapsed().as_nanos());
        let v = h.finish().to_le_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}

/// One SQLite-backed server shared by the tests that only need isolation by account.
pub fn shared() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start(&[]))
}

/// One Postgres-backed server shared the same way, or `None` when this run has no Postgres
/// on purpose (see [`postgres_database`]).
pub fn shared_postgres() -> Option<&'static Server> {
    static SERVER: OnceLock<Option<Server>> = OnceLock::new();
    SERVER
        .get_or_init(|| postgres_database().map(|url| Server::start_with_db(Some(url), &[])))
        .as_ref()
}

/// A fresh database on the test Postgres (`QUIRE_TEST_POSTGRES_URL`, started by
/// `scripts/test-postgres.sh`, which `make test` runs). Without it the test fails, unless
/// `QUIRE_SKIP_POSTGRES=1` says on purpose that this run has no Postgres.
pub fn postgres_database() -> Option<String> {
    let Ok(url) = std::env::var("QUIRE_TEST_POSTGRES_URL") else {
        if std::env::var("QUIRE_SKIP_POSTGRES").is_ok_and(|v| v == "1") {
            eprintln!("QUIRE_SKIP_POSTGRES=1: the Postgres half of this test is skipped");
            return None;
        }
        panic!("QUIRE_TEST_POSTGRES_URL is not set: run `make test` (it starts Postgres), or set QUIRE_SKIP_POSTGRES=1");
    };
    let name = format!("quire_test_{}", rand_hex());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Executor;
        sqlx::any::install_default_drivers();
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&url)
            .await
            .expect("connecting to the test Postgres");
        conn.execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .unwrap();
    });
    let base = url.rsplit_once('/').map(|(b, _)| b).unwrap_or(&url);
    Some(format!("{base}/{name}"))
}
