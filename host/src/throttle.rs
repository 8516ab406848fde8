//! Token buckets keyed by a name (a client address, a form), in memory on each host.
//!
//! A form link holder is anonymous, so answers through the link are limited per client and
//! per form: one client cannot fill an owner's storage or mailbox, and many clients cannot
//! do it faster than the form's own limit. Each host keeps its own buckets; a cluster of N
//! hosts admits up to N times the rate, which bounds the same abuse.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Buckets beyond this are dropped, fullest first (a full bucket carries no state worth
/// keeping), so a flood of distinct keys cannot grow the map without end.
const MAX_KEYS: usize = 100_000;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Up to `burst` events at once, refilled at `per_minute`.
#[derive(Debug)]
pub struct Throttle {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Throttle {
    /// `per_minute` of 0 turns the throttle off.
    pub fn new(per_minute: u32, burst: u32) -> Throttle {
        Throttle {
            per_second: f64::from(per_minute) / 60.0,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key`; when there is none, how long until there is.
    pub fn take(&self, key: &str) -> Result<(), Duration> {
        self.take_at(key, Instant::now())
    }

    /// Whether `key` has a token now, without taking it (to refuse before doing work whose
    /// failure is what [`Throttle::take`] counts).
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let Ok(buckets) = self.buckets.lock() else {
            return Ok(());
        };
        let Some(b) = buckets.get(key) else {
            return Ok(());
        };
        let elapsed = Instant::now().saturating_duration_since(b.at).as_secs_f64();
        let tokens = (b.tokens + elapsed * self.per_second).min(self.burst);
        if tokens >= 1.0 {
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                ((1.0 - tokens) / self.per_second).max(1.0),
            ))
        }
    }

    fn take_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(()); // a poisoned lock must not take the form page down
        };
        if buckets.len() >= MAX_KEYS && !buckets.contains_key(key) {
            self.forget_full(&mut buckets, now);
        }
        let bucket = buckets.entry(key.to_string()).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                ((1.0 - bucket.tokens) / self.per_second).max(1.0),
            ))
        }
    }

    /// Drops the buckets that have refilled (their keys start afresh at `burst` anyway),
    /// and when that is not enough, the half that was idle longest.
    fn forget_full(&self, buckets: &mut HashMap<String, Bucket>, now: Instant) {
        let refill = Duration::from_secs_f64(self.burst / self.per_second);
        buckets.retain(|_, b| now.saturating_duration_since(b.at) < refill);
        if buckets.len() >= MAX_KEYS {
            let mut times: Vec<Instant> = buckets.values().map(|b| b.at).collect();
            times.sort_unstable();
            let cut = times[times.len() / 2];
            buckets.retain(|_, b| b.at > cut);
        }
    }
}

/// The part of a client address that names one client: the whole IPv4 address, or the
/// /64 of an IPv6 one (a host is given a /64 and can pick any address in it).
pub fn client_key(ip: std::net::IpAddr) -> String {
    match ip {
        std::net::IpAddr::V4(v4) => v4.to_string(),
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_rate_and_keys_apart() {
        let t = Throttle::new(60, 3);
        let start = Instant::now();
        for _ in 0..3 {
            assert!(t.take_at("a", start).is_ok());
        }
        let wait = t.take_at("a", start).unwrap_err();
        assert_eq!(wait, Duration::from_secs(1));
        assert!(
            t.take_at("b", start).is_ok(),
            "another key has its own bucket"
        );
        assert!(t.take_at("a", start + Duration::from_millis(1000)).is_ok());
        assert!(t.take_at("a", start + Duration::from_millis(1000)).is_err());
        assert!(Throttle::new(0, 1).take("x").is_ok(), "0 per minute is off");
    }

    #[test]
    fn the_map_stays_bounded() {
        let t = Throttle::new(60, 2);
        let start = Instant::now();
        for i in 0..(MAX_KEYS + 10) {
            let _ = t.take_at(&i.to_string(), start + Duration::from_millis(i as u64));
        }
        assert!(t.buckets.lock().unwrap().len() <= MAX_KEYS);
    }

    #[test]
    fn ipv6_clients_are_their_slash_64() {
        let a: std::net::IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: std::net::IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        let v4: std::net::IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(client_key(v4), "192.0.2.7");
    }
}
