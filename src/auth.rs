//! Passwords of powers: stored as argon2id hashes (PHC strings) in `game.toml`, never in clear, never
//! logged. The mail ingest and `check` both authenticate orders here.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// The PHC string of `password`, with a fresh random salt.
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let mut salt = [0u8; 16];
    getrandom::getrandom(&mut salt).map_err(std::io::Error::other)?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("cannot hash a password: {e}"))?
        .to_string())
}

/// Whether `password` matches the stored PHC string. A malformed hash matches nothing. While a
/// [`VerifyCache`] lives on this thread, a pair that matched once is not checked again.
pub fn verify_password(hash: &str, password: &str) -> bool {
    let key = VERIFIED.with_borrow(|v| v.is_some().then(|| cache_key(hash, password)));
    if let Some(k) = &key {
        if VERIFIED.with_borrow(|v| v.as_ref().is_some_and(|set| set.contains(k))) {
            return true;
        }
    }
    let ok = PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    });
    if let (true, Some(k)) = (ok, key) {
        VERIFIED.with_borrow_mut(|v| {
            if let Some(set) = v {
                set.insert(k);
            }
        });
    }
    ok
}

thread_local! {
    /// The pairs verified on this thread while a [`VerifyCache`] lives.
    static VERIFIED: RefCell<Option<BTreeSet<[u8; 32]>>> = const { RefCell::new(None) };
}

/// While it lives, [`verify_password`] on this thread remembers the (hash, password) pairs that
/// matched, as SHA-256 digests (never the password), and answers them again without argon2: an
/// ingest of a thousand messages from 24 powers checks 24 passwords, not a thousand (each check
/// costs tens of milliseconds with argon2's default parameters). Failures are always checked again.
pub struct VerifyCache {
    outer: Option<BTreeSet<[u8; 32]>>,
}

impl VerifyCache {
    /// Starts remembering, until the value is dropped.
    #[must_use = "the cache lives as long as this value"]
    pub fn start() -> VerifyCache {
        let outer = VERIFIED.with_borrow_mut(|v| v.replace(BTreeSet::new()));
        VerifyCache { outer }
    }
}

impl Drop for VerifyCache {
    fn drop(&mut self) {
        let outer = self.outer.take();
        VERIFIED.with_borrow_mut(|v| *v = outer);
    }
}

/// SHA-256 of the hash's length, the hash and the password: one key per pair, no password kept.
fn cache_key(hash: &str, password: &str) -> [u8; 32] {
    let digest = Sha256::new()
        .chain_update((hash.len() as u64).to_le_bytes())
        .chain_update(hash.as_bytes())
        .chain_update(password.as_bytes())
        .finalize();
    let mut key = [0u8; 32];
    key.copy_from_slice(&digest);
    key
}

/// A fresh password for a new game: 4 groups of 4 letters and digits, easy to type from a mail.
pub fn fresh_password() -> anyhow::Result<String> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes).map_err(std::io::Error::other)?;
    let chars: Vec<char> = bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect();
    Ok(chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let h = hash_password("eagle").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password(&h, "eagle"));
        assert!(!verify_password(&h, "Eagle"));
        assert!(!verify_password("not a hash", "eagle"));
    }

    #[test]
    fn the_cache_remembers_matches_only_and_only_while_it_lives() {
        let h = hash_password("eagle").unwrap();
        let other = hash_password("eagle").unwrap();
        let known = |h: &str, p: &str| {
            VERIFIED.with_borrow(|v| v.as_ref().is_some_and(|s| s.contains(&cache_key(h, p))))
        };
        {
            let _cache = VerifyCache::start();
            assert!(!verify_password(&h, "Eagle"));
            assert!(!known(&h, "Eagle"));
            assert!(verify_password(&h, "eagle"));
            assert!(known(&h, "eagle"));
            assert!(!known(&other, "eagle"));
            assert!(verify_password(&h, "eagle"));
            assert!(!verify_password(&h, "Eagle"));
            assert!(!verify_password("not a hash", "eagle"));
            {
                let _inner = VerifyCache::start();
                assert!(!known(&h, "eagle"));
            }
            assert!(known(&h, "eagle"));
        }
        assert!(!known(&h, "eagle"));
        assert!(verify_password(&h, "eagle"));
        assert!(!known(&h, "eagle"));
    }

    #[test]
    fn fresh_passwords_differ() {
        let a = fresh_password().unwrap();
        assert_eq!(a.len(), 19);
        assert_ne!(a, fresh_password().unwrap());
    }
}
