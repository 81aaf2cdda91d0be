//! Passwords of powers: stored as argon2id hashes (PHC strings) in `game.toml`, never in clear, never
//! logged. The mail ingest and `check` both authenticate orders here.
//!
//! Verifying costs memory (argon2's parameters, 19 MiB by default) and time, and anyone can mail a
//! password to check: so a hash asking more than [`MAX_MEMORY_KIB`] or [`MAX_PASSES`] matches
//! nothing (and `game.toml` is refused with it), every check on a thread reuses one block buffer
//! (freed memory of that size is not reliably given back to the system, and a flood of forged
//! messages would keep a new one per message), and while a [`VerifyCache`] lives a sender gets at
//! most [`MAX_FAILED_PER_SENDER`] failed checks; further checks for him are [`Verdict::Refused`].

use argon2::password_hash::{PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// The most memory one password check may use, in KiB (argon2's `m`): 64 MiB.
pub const MAX_MEMORY_KIB: u32 = 64 * 1024;
/// The most passes one password check may make (argon2's `t`).
pub const MAX_PASSES: u32 = 16;
/// The most lanes (argon2's `p`).
pub const MAX_LANES: u32 = 8;
/// The most failed checks per sender in one run (an ingest): a flood of forged messages costs at
/// most this many argon2 runs per From address.
pub const MAX_FAILED_PER_SENDER: u32 = 8;

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

/// What checking a password gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Match,
    NoMatch,
    /// Not checked: the sender of the run already had [`MAX_FAILED_PER_SENDER`] failed checks.
    Refused,
}

/// Whether `password` matches the stored PHC string. A malformed hash, or one over the bounds,
/// matches nothing. While a [`VerifyCache`] lives on this thread, a pair that matched once is not
/// checked again.
pub fn verify_password(hash: &str, password: &str) -> bool {
    check_password(hash, password) == Verdict::Match
}

/// As [`verify_password`], telling a check refused for the current sender (see [`VerifyCache`]).
pub fn check_password(hash: &str, password: &str) -> Verdict {
    let key = STATE.with_borrow(|v| v.is_some().then(|| cache_key(hash, password)));
    if let Some(k) = &key {
        let (known, failed, refused) = STATE.with_borrow(|v| {
            v.as_ref().map_or((false, false, false), |s| {
                (
                    s.verified.contains(k),
                    s.failed.contains(k),
                    s.current_failures() >= MAX_FAILED_PER_SENDER,
                )
            })
        });
        if known {
            return Verdict::Match;
        }
        if failed {
            return Verdict::NoMatch;
        }
        if refused {
            return Verdict::Refused;
        }
    }
    let ok = argon2_matches(hash, password);
    STATE.with_borrow_mut(|v| {
        if let (Some(s), Some(k)) = (v.as_mut(), key) {
            if ok {
                s.verified.insert(k);
            } else {
                s.failed.insert(k);
                *s.failures.entry(s.sender.clone()).or_default() += 1;
                if let Some(shared) = s.shared.clone() {
                    *s.failures.entry(shared).or_default() += 1;
                }
            }
        }
    });
    if ok {
        Verdict::Match
    } else {
        Verdict::NoMatch
    }
}

/// Whether a PHC string's parameters are within the bounds of this module; `None` when it is not
/// an argon2 PHC string at all.
pub fn within_bounds(hash: &str) -> Option<bool> {
    let parsed = PasswordHash::new(hash).ok()?;
    let params = Params::try_from(&parsed).ok()?;
    Some(
        params.m_cost() <= MAX_MEMORY_KIB
            && params.t_cost() <= MAX_PASSES
            && params.p_cost() <= MAX_LANES,
    )
}

/// Runs argon2 for `hash`'s parameters and salt into the thread's one block buffer, and compares.
fn argon2_matches(hash: &str, password: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    let (Some(expected), Some(salt)) = (parsed.hash, parsed.salt) else {
        return false;
    };
    if within_bounds(hash) != Some(true) {
        return false;
    }
    let (Ok(params), Ok(algorithm)) = (
        Params::try_from(&parsed),
        Algorithm::try_from(parsed.algorithm),
    ) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let mut salt_buf = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let blocks = params.block_count();
    let argon = Argon2::new(algorithm, version, params);
    let mut out = vec![0u8; expected.len()];
    let done = BLOCKS.with_borrow_mut(|buf| {
        if buf.len() < blocks {
            // Grown once per thread to the largest hash checked (bounded by MAX_MEMORY_KIB).
            *buf = vec![Block::default(); blocks];
        }
        argon.hash_password_into_with_memory(
            password.as_bytes(),
            salt,
            &mut out,
            &mut buf[..blocks],
        )
    });
    // Compared in constant time: the number of equal bytes is never observable.
    done.is_ok()
        && out
            .iter()
            .zip(expected.as_bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

thread_local! {
    /// The one argon2 buffer of this thread, reused by every check.
    static BLOCKS: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
    /// What the checks on this thread remember while a [`VerifyCache`] lives.
    static STATE: RefCell<Option<CacheState>> = const { RefCell::new(None) };
}

/// The pairs verified and the failures per sender, while a [`VerifyCache`] lives.
#[derive(Default)]
struct CacheState {
    verified: BTreeSet<[u8; 32]>,
    /// The pairs that did not match: a wrong password sent again costs nothing.
    failed: BTreeSet<[u8; 32]>,
    failures: BTreeMap<String, u32>,
    /// The sender whose checks run now ([`VerifyCache::set_sender`]).
    sender: String,
    /// A budget the current sender shares with others ([`VerifyCache::share_budget`]).
    shared: Option<String>,
}

impl CacheState {
    fn current_failures(&self) -> u32 {
        let of = |k: &String| self.failures.get(k).copied().unwrap_or(0);
        of(&self.sender).max(self.shared.as_ref().map_or(0, of))
    }
}

/// While it lives, [`verify_password`] on this thread remembers the (hash, password) pairs that
/// matched, as SHA-256 digests (never the password), and answers them again without argon2: an
/// ingest of a thousand messages from 24 powers checks 24 passwords, not a thousand (each check
/// costs tens of milliseconds with argon2's default parameters). A pair that failed fails again without
/// argon2; a sender (as set by [`VerifyCache::set_sender`]) gets at most [`MAX_FAILED_PER_SENDER`]
/// failed checks, after which his checks are [`Verdict::Refused`].
pub struct VerifyCache {
    outer: Option<CacheState>,
}

impl VerifyCache {
    /// Starts remembering, until the value is dropped.
    #[must_use = "the cache lives as long as this value"]
    pub fn start() -> VerifyCache {
        let outer = STATE.with_borrow_mut(|v| v.replace(CacheState::default()));
        VerifyCache { outer }
    }

    /// The checks from now on are for `sender` (an address, or "" for a message without one).
    pub fn set_sender(&self, sender: &str) {
        STATE.with_borrow_mut(|v| {
            if let Some(s) = v.as_mut() {
                sender.clone_into(&mut s.sender);
                s.shared = None;
            }
        });
    }

    /// The checks from now on also count against `budget`, which other senders share (issue 34:
    /// every sender not registered for a power shares one budget for it), until the next
    /// [`set_sender`](Self::set_sender): a check is refused once either has
    /// [`MAX_FAILED_PER_SENDER`] failures.
    pub fn share_budget(&self, budget: &str) {
        STATE.with_borrow_mut(|v| {
            if let Some(s) = v.as_mut() {
                s.shared = Some(budget.to_string());
            }
        });
    }

    /// How many checks failed for `sender` so far.
    pub fn failures(&self, sender: &str) -> u32 {
        STATE.with_borrow(|v| {
            v.as_ref()
                .and_then(|s| s.failures.get(sender).copied())
                .unwrap_or(0)
        })
    }
}

impl Drop for VerifyCache {
    fn drop(&mut self) {
        let outer = self.outer.take();
        STATE.with_borrow_mut(|v| *v = outer);
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
            STATE.with_borrow(|v| {
                v.as_ref()
                    .is_some_and(|s| s.verified.contains(&cache_key(h, p)))
            })
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
    fn a_sender_gets_a_bounded_number_of_failed_checks() {
        let h = hash_password("eagle").unwrap();
        let cache = VerifyCache::start();
        cache.set_sender("forger@example.org");
        for i in 0..MAX_FAILED_PER_SENDER {
            assert_eq!(check_password(&h, &format!("guess-{i}")), Verdict::NoMatch);
        }
        assert_eq!(
            check_password(&h, "guess-0"),
            Verdict::NoMatch,
            "known failure"
        );
        assert_eq!(check_password(&h, "another"), Verdict::Refused);
        assert_eq!(cache.failures("forger@example.org"), MAX_FAILED_PER_SENDER);
        cache.set_sender("france@example.org");
        assert_eq!(check_password(&h, "wrong"), Verdict::NoMatch);
        assert_eq!(check_password(&h, "eagle"), Verdict::Match);
        cache.set_sender("forger@example.org");
        assert_eq!(check_password(&h, "eagle"), Verdict::Match, "a known match");
    }

    #[test]
    fn a_hash_over_the_bounds_matches_nothing() {
        let salt = SaltString::encode_b64(&[7u8; 16]).unwrap();
        let big = Params::new(MAX_MEMORY_KIB + 8, 1, 1, None).unwrap();
        let h = Argon2::new(Algorithm::Argon2id, Version::V0x13, big)
            .hash_password(b"eagle", &salt)
            .unwrap()
            .to_string();
        assert_eq!(within_bounds(&h), Some(false));
        assert!(!verify_password(&h, "eagle"));
        assert_eq!(within_bounds(&hash_password("x").unwrap()), Some(true));
        assert_eq!(within_bounds("x"), None);
    }

    #[test]
    fn checks_reuse_one_buffer() {
        let h = hash_password("eagle").unwrap();
        assert!(verify_password(&h, "eagle"));
        let first = BLOCKS.with_borrow(|b| (b.as_ptr(), b.len()));
        assert!(!verify_password(&h, "other"));
        assert_eq!(BLOCKS.with_borrow(|b| (b.as_ptr(), b.len())), first);
        assert_eq!(first.1, 19 * 1024);
    }

    #[test]
    fn fresh_passwords_differ() {
        let a = fresh_password().unwrap();
        assert_eq!(a.len(), 19);
        assert_ne!(a, fresh_password().unwrap());
    }
}
