//! The S3-compatible blob store (`QUIRE_BLOBS=s3://BUCKET[/PREFIX]`), shared by every host of
//! a cluster. Configured the way every S3 tool is: `AWS_ENDPOINT_URL` (or
//! `AWS_ENDPOINT_URL_S3`; none means AWS itself), `AWS_ACCESS_KEY_ID`,
//! `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN` (optional) and `AWS_REGION` (or
//! `AWS_DEFAULT_REGION`), so AWS, Garage, MinIO and Ceph all work.
//!
//! The client is rusty-s3 (request signing only, no I/O of its own) over ureq: a small,
//! maintained pair that adds no async runtime or HTTP stack beside the ones the host has.
//! Requests carry presigned URLs (SigV4 in the query, unsigned payload) and run on the
//! blocking pool. Every object is one PUT: a blob is at most a plan's file size, and an S3
//! PUT is atomic, so no reader ever sees half a blob.

use std::time::Duration;

use anyhow::Context;
use rusty_s3::actions::{ListObjectsV2, S3Action};
use rusty_s3::{Bucket, Credentials, UrlStyle};

use super::blob::{valid_digest, BlobError};

/// How long a presigned URL stays valid: only for the request about to be sent.
const SIGNED_FOR: Duration = Duration::from_secs(300);
/// The largest object read back (a plan's largest file, with room).
const MAX_OBJECT: u64 = 2 << 30;

pub struct S3Store {
    bucket: Bucket,
    credentials: Credentials,
    prefix: String,
    agent: ureq::Agent,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

impl S3Store {
    pub fn from_env(bucket: &str, prefix: &str) -> anyhow::Result<S3Store> {
        let region = env("AWS_REGION")
            .or_else(|| env("AWS_DEFAULT_REGION"))
            .unwrap_or_else(|| "us-east-1".to_string());
        let (endpoint, style) = match env("AWS_ENDPOINT_URL_S3").or_else(|| env("AWS_ENDPOINT_URL"))
        {
            // Self-hosted stores (Garage, MinIO, Ceph) address buckets by path.
            Some(url) => (url, UrlStyle::Path),
            None => (
                format!("https://s3.{region}.amazonaws.com"),
                UrlStyle::VirtualHost,
            ),
        };
        let endpoint = endpoint
            .parse()
            .with_context(|| format!("AWS_ENDPOINT_URL={endpoint} is not a URL"))?;
        let bucket = Bucket::new(endpoint, style, bucket.to_string(), region)
            .context("the S3 endpoint needs an http or https scheme and a host")?;
        let key =
            env("AWS_ACCESS_KEY_ID").context("QUIRE_BLOBS=s3://... needs AWS_ACCESS_KEY_ID")?;
        let secret = env("AWS_SECRET_ACCESS_KEY")
            .context("QUIRE_BLOBS=s3://... needs AWS_SECRET_ACCESS_KEY")?;
        let credentials = match env("AWS_SESSION_TOKEN") {
            Some(token) => Credentials::new_with_token(key, secret, token),
            None => Credentials::new(key, secret),
        };
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(3)))
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Ok(S3Store {
            bucket,
            credentials,
            prefix: prefix.to_string(),
            agent,
        })
    }

    fn key(&self, digest: &str) -> String {
        format!("{}{digest}", self.prefix)
    }

    fn sign<'a>(&self, action: impl S3Action<'a>) -> String {
        action.sign(SIGNED_FOR).to_string()
    }

    pub fn put(&self, digest: &str, bytes: Vec<u8>) -> Result<(), BlobError> {
        // Content-addressed: an object already there holds these very bytes.
        if self.exists(digest)? {
            return Ok(());
        }
        let url = self.sign(
            self.bucket
                .put_object(Some(&self.credentials), &self.key(digest)),
        );
        let response = retried(|| self.agent.put(&url).send(&bytes[..]))?;
        expect_success("PUT", digest, response).map(|_| ())
    }

    pub fn get(&self, digest: &str) -> Result<Vec<u8>, BlobError> {
        let url = self.sign(
            self.bucket
                .get_object(Some(&self.credentials), &self.key(digest)),
        );
        let response = retried(|| self.agent.get(&url).call())?;
        if response.status().as_u16() == 404 {
            return Err(BlobError::Missing(digest.to_string()));
        }
        let mut response = expect_success("GET", digest, response)?;
        response
            .body_mut()
            .with_config()
            .limit(MAX_OBJECT)
            .read_to_vec()
            .map_err(unreachable)
    }

    pub fn exists(&self, digest: &str) -> Result<bool, BlobError> {
        let url = self.sign(
            self.bucket
                .head_object(Some(&self.credentials), &self.key(digest)),
        );
        let response = retried(|| self.agent.head(&url).call())?;
        if response.status().as_u16() == 404 {
            return Ok(false);
        }
        expect_success("HEAD", digest, response).map(|_| true)
    }

    pub fn remove(&self, digest: &str) -> Result<(), BlobError> {
        let url = self.sign(
            self.bucket
                .delete_object(Some(&self.credentials), &self.key(digest)),
        );
        let response = retried(|| self.agent.delete(&url).call())?;
        if response.status().as_u16() == 404 {
            return Ok(());
        }
        expect_success("DELETE", digest, response).map(|_| ())
    }

    pub fn list(&self) -> Result<Vec<String>, BlobError> {
        let mut out = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut action = ListObjectsV2::new(&self.bucket, Some(&self.credentials));
            if !self.prefix.is_empty() {
                action.with_prefix(self.prefix.as_str());
            }
            if let Some(t) = &token {
                action.with_continuation_token(t.as_str());
            }
            let url = action.sign(SIGNED_FOR).to_string();
            let response = retried(|| self.agent.get(&url).call())?;
            let mut response = expect_success("LIST", "", response)?;
            let text = response
                .body_mut()
                .with_config()
                .limit(64 << 20)
                .read_to_string()
                .map_err(unreachable)?;
            let page = ListObjectsV2::parse_response(&text)
                .map_err(|e| BlobError::Other(anyhow::anyhow!("reading a bucket listing: {e}")))?;
            out.extend(
                page.contents
                    .into_iter()
                    .filter_map(|c| c.key.strip_prefix(&self.prefix).map(str::to_string))
                    .filter(|k| valid_digest(k)),
            );
            match page.next_continuation_token {
                Some(t) if !t.is_empty() => token = Some(t),
                _ => break,
            }
        }
        out.sort();
        Ok(out)
    }

    /// A cheap authenticated request: the bucket exists and the key may read it.
    pub fn ping(&self) -> Result<(), BlobError> {
        let url = self.sign(self.bucket.head_bucket(Some(&self.credentials)));
        let response = self.agent.head(&url).call().map_err(unreachable)?;
        expect_success("HEAD bucket", "", response).map(|_| ())
    }
}

/// Waits before trying a request again that the store answered as busy or failing (5xx,
/// 429, 408): a store under load (Garage's metadata database locked, S3's SlowDown) passes
/// such answers within moments, and every request here is idempotent (objects are named by
/// their digest). A store that is down is not waited for: it refuses the connection, and
/// the caller's 503 says when to come back.
const RETRY_DELAYS: [Duration; 2] = [Duration::from_millis(50), Duration::from_millis(250)];

fn retried(
    mut send: impl FnMut() -> Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<ureq::http::Response<ureq::Body>, BlobError> {
    let mut delays = RETRY_DELAYS.iter();
    loop {
        let response = send().map_err(unreachable)?;
        match delays.next() {
            Some(delay) if transient(response.status().as_u16()) => std::thread::sleep(*delay),
            _ => return Ok(response),
        }
    }
}

/// Overload and outages pass; a refusal (credentials, missing bucket) is configuration.
fn transient(status: u16) -> bool {
    status >= 500 || status == 429 || status == 408
}

/// A transport failure (refused, reset, timed out): the store may come back.
fn unreachable(e: impl std::fmt::Display) -> BlobError {
    BlobError::Unavailable(e.to_string())
}

fn expect_success(
    what: &str,
    digest: &str,
    response: ureq::http::Response<ureq::Body>,
) -> Result<ureq::http::Response<ureq::Body>, BlobError> {
    let status = response.status().as_u16();
    if (200..300).contains(&status) {
        return Ok(response);
    }
    let mut response = response;
    let body = response
        .body_mut()
        .with_config()
        .limit(4096)
        .read_to_string()
        .unwrap_or_default();
    let detail = format!(
        "{what} {digest}: the store answered {status} {}",
        body.chars().take(300).collect::<String>()
    );
    if transient(status) {
        Err(BlobError::Unavailable(detail))
    } else {
        Err(BlobError::Other(anyhow::anyhow!(detail)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    /// A store that answers the given statuses in turn, one connection each; returns its
    /// address and how many requests it saw once done.
    fn store_answering(statuses: &'static [u16]) -> (String, std::thread::JoinHandle<usize>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = format!("http://{}/", listener.local_addr().unwrap());
        let handle = std::thread::spawn(move || {
            for (seen, status) in statuses.iter().enumerate() {
                let Ok((stream, _)) = listener.accept() else {
                    return seen;
                };
                let mut reader = BufReader::new(stream);
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let mut stream = reader.into_inner();
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                );
            }
            statuses.len()
        });
        (address, handle)
    }

    fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into()
    }

    #[test]
    fn a_busy_answer_is_tried_again_and_a_refusal_is_not() {
        let (url, store) = store_answering(&[503, 500, 200]);
        let response = retried(|| agent().get(&url).call()).unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(store.join().unwrap(), 3);

        let (url, store) = store_answering(&[403]);
        let response = retried(|| agent().get(&url).call()).unwrap();
        assert_eq!(response.status().as_u16(), 403);
        assert_eq!(store.join().unwrap(), 1);
    }

    #[test]
    fn a_store_busy_for_longer_is_an_outage_after_three_tries() {
        let (url, store) = store_answering(&[503, 503, 503]);
        let response = retried(|| agent().get(&url).call()).unwrap();
        assert_eq!(response.status().as_u16(), 503);
        assert_eq!(store.join().unwrap(), 3);
        assert!(matches!(
            expect_success("GET", "d", response),
            Err(BlobError::Unavailable(_))
        ));
    }
}
