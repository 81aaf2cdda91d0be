//! Certificates of the tests' own (the openssl CLI): a CA and a server certificate signed by it, which
//! pbem trusts through `ca_file`; rustls refuses a self-signed certificate used directly.

use std::path::Path;
use std::process::{Command as Process, Stdio};

/// Makes a CA (`ca.pem`) and a server certificate for 127.0.0.1 signed by it (`cert.pem`, `key.pem`)
/// in `d`; false when the openssl CLI could not.
pub fn make(d: &Path) -> bool {
    std::fs::write(
        d.join("ext.cnf"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    let steps: [&[&str]; 3] = [
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=pbem test CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
        ],
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=localhost",
            "-keyout",
            "key.pem",
            "-out",
            "server.csr",
        ],
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
            "-out",
            "cert.pem",
        ],
    ];
    steps.iter().all(|args| {
        Process::new("openssl")
            .args(*args)
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}
