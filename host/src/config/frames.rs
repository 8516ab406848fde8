//! `QUIRE_FRAME_ANCESTORS`: the sites allowed to show a public form page inside their own
//! pages. Each entry becomes a CSP `frame-ancestors` source, so each is checked to be an
//! origin and nothing more: a stray `;` or quote would otherwise rewrite the policy.

/// Origins (`https://example.com`, `https://*.example.org:8443`), lower-cased, in the
/// order given; empty means no site may frame the form pages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrameAncestors(Vec<String>);

/// More would make a header no proxy accepts, and no site embeds a form in so many others.
const MOST_ORIGINS: usize = 32;

impl FrameAncestors {
    pub fn parse(list: &str) -> anyhow::Result<FrameAncestors> {
        let mut origins = Vec::new();
        for item in list
            .split([',', ' '])
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            let origin = origin(item).ok_or_else(|| {
                anyhow::anyhow!(
                    "QUIRE_FRAME_ANCESTORS `{item}` is not an origin like https://example.com or https://*.example.com (no path, no quotes)"
                )
            })?;
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        if origins.len() > MOST_ORIGINS {
            anyhow::bail!("QUIRE_FRAME_ANCESTORS names more than {MOST_ORIGINS} origins");
        }
        Ok(FrameAncestors(origins))
    }

    pub fn origins(&self) -> &[String] {
        &self.0
    }

    /// The `frame-ancestors` directive's value.
    pub fn directive(&self) -> String {
        if self.0.is_empty() {
            "'none'".to_string()
        } else {
            self.0.join(" ")
        }
    }
}

/// `scheme://host[:port]` with an optional `*.` before the host, lower-cased; `None` for
/// anything else.
fn origin(item: &str) -> Option<String> {
    let item = item.strip_suffix('/').unwrap_or(item).to_ascii_lowercase();
    let (scheme, rest) = item.split_once("://")?;
    if scheme != "https" && scheme != "http" {
        return None;
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (rest, None),
    };
    if let Some(p) = port {
        if p != "*" && (p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit())) {
            return None;
        }
    }
    let bare = host.strip_prefix("*.").unwrap_or(host);
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    if bare.len() > 253 || !bare.split('.').all(label_ok) {
        return None;
    }
    Some(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_kept_and_anything_else_refused() {
        let f = FrameAncestors::parse(
            "https://Example.com/, https://*.example.org:8443 http://localhost:3000",
        )
        .unwrap();
        assert_eq!(
            f.directive(),
            "https://example.com https://*.example.org:8443 http://localhost:3000"
        );
        assert_eq!(FrameAncestors::parse("").unwrap().directive(), "'none'");
        for bad in [
            "example.com",
            "https://example.com/path",
            "https://example.com; script-src *",
            "'self'",
            "ftp://example.com",
            "https://exa_mple.com",
            "https://example.com:99999x",
            "https://*",
        ] {
            assert!(FrameAncestors::parse(bad).is_err(), "{bad} was taken");
        }
    }
}
