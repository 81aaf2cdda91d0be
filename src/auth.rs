//! Passwords of powers: stored as argon2id hashes (PHC strings) in `game.toml`, never in clear, never
//! logged. The mail ingest and `check` both authenticate orders here.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

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

/// Whether `password` matches the stored PHC string. A malformed hash matches nothing.
pub fn verify_password(hash: &str, password: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
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
    fn fresh_passwords_differ() {
        let a = fresh_password().unwrap();
        assert_eq!(a.len(), 19);
        assert_ne!(a, fresh_password().unwrap());
    }
}
