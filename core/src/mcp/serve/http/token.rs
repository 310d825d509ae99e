//! The bearer token, kept and compared as a SHA-256 digest.
//!
//! Policy: comparing the token's own bytes in constant time still leaks its length (a
//! comparison of unequal lengths ends at once); two digests are always 32 bytes, so
//! comparing them says nothing of the token but whether it matched. The token itself is not
//! kept past start, so no `Debug` of the running server can show it.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The digest of the token every request must carry.
#[derive(Clone)]
pub(super) struct TokenDigest([u8; 32]);

impl TokenDigest {
    pub(super) fn of(token: &str) -> TokenDigest {
        TokenDigest(Sha256::digest(token.as_bytes()).into())
    }

    /// Whether `header` (an `Authorization` value) carries the token as a bearer token. The
    /// scheme is case-insensitive (RFC 6750 §2.1 uses RFC 7235's `auth-scheme`, a
    /// case-insensitive token); the token is compared by digest, in constant time.
    pub(super) fn admits(&self, header: Option<&[u8]>) -> bool {
        let Some(header) = header else {
            return false;
        };
        let Some((scheme, given)) = header.split_at_checked(7) else {
            return false;
        };
        let given: [u8; 32] = Sha256::digest(given).into();
        scheme.eq_ignore_ascii_case(b"Bearer ") & bool::from(given.ct_eq(&self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::TokenDigest;

    #[test]
    fn a_bearer_token_is_the_whole_token_under_a_case_insensitive_scheme() {
        let token = TokenDigest::of("s3cret");
        assert!(token.admits(Some(b"Bearer s3cret")));
        assert!(token.admits(Some(b"bearer s3cret")));
        assert!(!token.admits(Some(b"Bearer s3cre")));
        assert!(!token.admits(Some(b"Bearer s3cretx")));
        assert!(!token.admits(Some(b"Basic s3cret")));
        assert!(!token.admits(Some(b"Bear")));
        assert!(!token.admits(None));
    }
}
