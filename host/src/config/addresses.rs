//! Lists of IP addresses and CIDR blocks in settings (`QUIRE_TRUST_PROXY`,
//! `QUIRE_WEBHOOK_ALLOW`).

use std::net::IpAddr;

/// Addresses and CIDR blocks, comma-separated: `127.0.0.1, 10.0.0.0/8, ::1`.
#[derive(Debug, Clone, Default)]
pub struct AddressBlocks(Vec<(IpAddr, u8)>);

impl AddressBlocks {
    pub fn parse(setting: &str, list: &str) -> anyhow::Result<AddressBlocks> {
        let mut blocks = Vec::new();
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (addr, bits) = match item.split_once('/') {
                Some((a, b)) => (a, Some(b)),
                None => (item, None),
            };
            let addr: IpAddr = addr
                .parse()
                .map_err(|e| anyhow::anyhow!("{setting} `{item}`: {e}"))?;
            let max = if addr.is_ipv4() { 32 } else { 128 };
            let bits = match bits {
                Some(b) => b
                    .parse::<u8>()
                    .ok()
                    .filter(|b| *b <= max)
                    .ok_or_else(|| anyhow::anyhow!("{setting} `{item}`: bad prefix"))?,
                None => max,
            };
            blocks.push((canonical(addr), bits));
        }
        Ok(AddressBlocks(blocks))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|&(block, bits)| match (block, ip) {
            (IpAddr::V4(b), IpAddr::V4(a)) => {
                let mask = u32::MAX.checked_shl(32 - bits as u32).unwrap_or(0);
                u32::from(b) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(b), IpAddr::V6(a)) => {
                let mask = u128::MAX.checked_shl(128 - bits as u32).unwrap_or(0);
                u128::from(b) & mask == u128::from(a) & mask
            }
            _ => false,
        })
    }
}

/// An IPv4 address in IPv6 clothing (`::ffff:10.0.0.1`, as dual-stack sockets report it)
/// is the IPv4 address.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_match_addresses_and_blocks() {
        let t =
            AddressBlocks::parse("QUIRE_TRUST_PROXY", "127.0.0.1, 10.0.0.0/8,fd00::/16").unwrap();
        let has = |a: &str| t.contains(a.parse().unwrap());
        assert!(has("127.0.0.1") && has("::ffff:127.0.0.1"));
        assert!(!has("127.0.0.2"));
        assert!(has("10.200.3.4") && !has("11.0.0.1"));
        assert!(has("fd00:1::5") && !has("fd01::5"));
        assert!(AddressBlocks::parse("QUIRE_TRUST_PROXY", "0.0.0.0/0")
            .unwrap()
            .contains("8.8.8.8".parse().unwrap()));
        assert!(AddressBlocks::parse("QUIRE_TRUST_PROXY", "")
            .unwrap()
            .is_empty());
        for bad in ["10.0.0.0/33", "proxy.local", "10.0.0.1/x"] {
            assert!(
                AddressBlocks::parse("QUIRE_TRUST_PROXY", bad).is_err(),
                "{bad}"
            );
        }
    }
}
