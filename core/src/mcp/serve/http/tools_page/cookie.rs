//! The login cookie: a value derived from the token, so no replica keeps a session a load
//! balancer could send the next request past.
//!
//! Policy (our own caution): the value is HMAC-SHA256 (RFC 2104) of a fixed label keyed by the
//! token, hex. It proves the browser once knew the token, says nothing of the token itself
//! (HMAC is not invertible), is the same on every replica given the same token, and stops
//! working when the token changes: the operator's way to end every login. It is compared in
//! constant time (`subtle`), as the bearer token is.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// The cookie's name.
pub(super) const COOKIE_NAME: &str = "toolwire_tools";

/// What the HMAC is of: a label that names its one use, so the value is no other MAC's.
const LABEL: &[u8] = b"toolwire tools page login v1";

/// The value a logged-in browser's cookie carries.
#[derive(Clone)]
pub(super) struct CookieKey([u8; 32]);

impl CookieKey {
    pub(super) fn of(token: &str) -> CookieKey {
        // HMAC takes a key of any length (RFC 2104 §2), so this never fails.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(token.as_bytes())
            .unwrap_or_else(|_| unreachable!("HMAC accepts keys of every length"));
        mac.update(LABEL);
        CookieKey(mac.finalize().into_bytes().into())
    }

    /// The `Set-Cookie` value a login answers with. `HttpOnly`: no script reads it;
    /// `SameSite=Strict`: no other site's page makes the browser send it (RFC 6265bis §8.8);
    /// `Path=/tools`: the MCP endpoint never sees it (it takes bearer tokens only); `Secure`
    /// when the browser reached the gateway over TLS (a TLS proxy in front says
    /// `X-Forwarded-Proto: https`; the gateway itself serves plain HTTP, where a `Secure`
    /// cookie would be dropped by the browser on any address but localhost). No `Max-Age`:
    /// it ends with the browser session.
    pub(super) fn set_cookie(&self, secure: bool) -> String {
        format!(
            "{COOKIE_NAME}={}; HttpOnly; SameSite=Strict; Path=/tools{}",
            hex(&self.0),
            if secure { "; Secure" } else { "" }
        )
    }

    /// Whether a `Cookie` header carries this value under [`COOKIE_NAME`] (RFC 6265 §4.2.1:
    /// `name=value` pairs separated by `; `).
    pub(super) fn admits(&self, cookie_header: &[u8]) -> bool {
        let mut admitted = false;
        for pair in cookie_header.split(|&b| b == b';') {
            let pair = pair.trim_ascii();
            let Some(value) = pair
                .strip_prefix(COOKIE_NAME.as_bytes())
                .and_then(|rest| rest.strip_prefix(b"="))
            else {
                continue;
            };
            if let Some(given) = unhex(value) {
                admitted |= bool::from(given.ct_eq(&self.0));
            }
        }
        admitted
    }
}

fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &[u8]) -> Option<[u8; 32]> {
    if text.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in text.chunks_exact(2).enumerate() {
        let digit = |c: u8| (c as char).to_digit(16);
        out[i] = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::CookieKey;

    #[test]
    fn the_cookie_is_the_tokens_alone_and_admits_only_its_value() {
        let key = CookieKey::of("s3cret");
        let set = key.set_cookie(false);
        let value = set.split(';').next().unwrap();
        assert!(!set.contains("s3cret"));
        assert!(key.admits(format!("a=b; {value}").as_bytes()));
        // Another replica given the same token admits it; another token does not.
        assert!(CookieKey::of("s3cret").admits(value.as_bytes()));
        assert!(!CookieKey::of("other").admits(value.as_bytes()));
        assert!(!key.admits(b"toolwire_tools=00"));
        assert!(!key.admits(b"xtoolwire_tools=zz"));
        assert!(key.set_cookie(true).ends_with("; Secure"));
    }
}
