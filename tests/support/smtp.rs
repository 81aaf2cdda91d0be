//! The local SMTP server of the mail tests (`smtp_server.py`, aiosmtpd on 127.0.0.1), for tests that
//! need it without exception: a missing python3 or aiosmtpd fails the test.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running server, killed when dropped.
pub struct Smtp {
    child: Child,
    pub port: u16,
    dir: PathBuf,
}

impl Drop for Smtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Smtp {
    /// Starts the server recording into `dir`; panics, saying why, when it cannot.
    pub fn start(dir: &Path, lifetime_seconds: u32) -> Smtp {
        Smtp::start_with(dir, lifetime_seconds, &[])
    }

    /// As [`Smtp::start`], with the script's flags (`--tls starttls --cert c.pem --key k.pem`).
    pub fn start_with(dir: &Path, lifetime_seconds: u32, flags: &[&str]) -> Smtp {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/smtp_server.py");
        let mut child = Command::new("python3")
            .arg(script)
            .arg("--dir")
            .arg(dir)
            .args(["--lifetime", &lifetime_seconds.to_string()])
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("this test needs python3 with aiosmtpd (python3 -m pip install aiosmtpd)");
        let mut line = String::new();
        let _ = BufReader::new(child.stdout.take().unwrap()).read_line(&mut line);
        let Some(port) = line
            .strip_prefix("PORT ")
            .and_then(|p| p.trim().parse().ok())
        else {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "this test needs python3 with aiosmtpd (python3 -m pip install aiosmtpd): {line}"
            );
        };
        Smtp {
            child,
            port,
            dir: dir.to_path_buf(),
        }
    }

    /// The messages received so far: (bytes, recipients), in order of arrival.
    pub fn received(&self) -> Vec<(Vec<u8>, Vec<String>)> {
        let mut out = Vec::new();
        for n in 1.. {
            let Ok(bytes) = fs::read(self.dir.join(format!("{n}.eml"))) else {
                break;
            };
            let meta: serde_json::Value = serde_json::from_str(
                &fs::read_to_string(self.dir.join(format!("{n}.json"))).unwrap(),
            )
            .unwrap();
            let rcpts = meta["rcpt_tos"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            out.push((bytes, rcpts));
        }
        out
    }
}
