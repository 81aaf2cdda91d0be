//! France's orders in every wrapping the ingest tests feed pbem beside tests/corpus/: forwarded by
//! each client (tests/mail_wrapped.rs), with a greeting and a sign-off, a reply whose original holds
//! them, a body whose headers lie about its bytes, and the UTF-16 of tests/mail_clients.rs; and
//! beyond them, the wrappings an auditor tries (`beyond`). Each is a whole message (CRLF) from
//! france@example.org; tests/verify_page_orders.rs gives each to `pbem verify --orders` and to
//! verify.html, which must read it alike.

use base64::Engine;

/// How a wrapping holds the orders it wraps, as pbem reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// The orders, exactly: their digest is theirs.
    Orders,
    /// The orders and other lines of the player's (a greeting, a sign-off, blank lines): their
    /// entropy is theirs, their digest is not.
    OrdersAndProse,
    /// No orders pbem reads.
    Nothing,
}

/// One wrapping: its name, the message, and what pbem reads in it.
pub struct Wrapped {
    pub name: &'static str,
    pub mail: Vec<u8>,
    pub holds: Holds,
}

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";

/// A message from France with `subject` whose one part is `content_type` with `body` (LF lines made
/// CRLF), after `extra` header lines.
pub fn message(subject: &str, extra: &str, content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "Received: from mail.example.net by mx.referee.example; {ON_TIME}\r\n\
         From: france@example.org\r\nTo: referee@referee.example\r\nSubject: {subject}\r\n\
         Message-ID: <wrapped@example.org>\r\nMIME-Version: 1.0\r\n{extra}Content-Type: {content_type}\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

fn base64_lines(bytes: &[u8]) -> String {
    let text = base64::engine::general_purpose::STANDARD.encode(bytes);
    text.as_bytes()
        .chunks(76)
        .map(|c| format!("{}\n", std::str::from_utf8(c).unwrap()))
        .collect()
}

fn utf16(text: &str, little: bool, bom: bool) -> Vec<u8> {
    let mut bytes = match (bom, little) {
        (false, _) => vec![],
        (true, true) => vec![0xFF, 0xFE],
        (true, false) => vec![0xFE, 0xFF],
    };
    for unit in text.replace('\n', "\r\n").encode_utf16() {
        bytes.extend(if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        });
    }
    bytes
}

/// `orders` (France's, LF lines) in every wrapping.
pub fn wrappings(orders: &str) -> Vec<Wrapped> {
    let o = orders;
    let plain = "text/plain; charset=utf-8";
    let gmail = |above: &str| {
        format!("{above}\n---------- Forwarded message ---------\nFrom: Jean <jean@home.example>\nDate: Sat, Dec 5, 2026 at 5:00 PM\nSubject: orders\nTo: <france@example.org>\n\n{o}")
    };
    let outlook = |mark: &str| {
        format!("\n\n{mark}\nFrom: Jean <jean@home.example>\nSent: Saturday, December 5, 2026 5:00 PM\nTo: france@example.org\nSubject: orders\n\n{o}")
    };
    let inner_mail = |body: &str| {
        format!("From: Jean <jean@home.example>\nTo: france@example.org\nSubject: orders\nMessage-ID: <inner@home.example>\nContent-Type: text/plain; charset=utf-8\n\n{body}")
    };
    let attached = |inner: &str| {
        format!("--b1\nContent-Type: text/plain; charset=utf-8\n\nforwarding my orders\n--b1\nContent-Type: message/rfc822\nContent-Disposition: attachment; filename=\"orders.eml\"\n\n{inner}\n--b1--\n")
    };
    let quoted: String = o.lines().map(|l| format!("> {l}\n")).collect();
    let html: String = o.lines().map(|l| format!("{l}<br>\n")).collect::<String>();
    let mut out = vec![
        Wrapped {
            name: "gmail-forward",
            mail: message("Fwd: orders", "", plain, &gmail("")),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "gmail-forward-by-a-friend",
            mail: message(
                "Fwd: orders",
                "",
                plain,
                &gmail("Jean asked me to send these.\n"),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "gmail-forward-alternative",
            mail: message(
                "Fwd: orders",
                "",
                "multipart/alternative; boundary=\"a1\"",
                &format!(
                    "--a1\nContent-Type: text/plain; charset=utf-8\n\n{}\n--a1\nContent-Type: text/html; charset=utf-8\n\n<div dir=\"ltr\"><br><div class=\"gmail_quote\">---------- Forwarded message ---------<br>From: <strong>Jean</strong> &lt;jean@home.example&gt;<br>Date: Sat, Dec 5, 2026 at 5:00 PM<br>Subject: orders<br>To: &lt;france@example.org&gt;<br><br><br>{html}</div></div>\n--a1--\n",
                    gmail("")
                ),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "gmail-forward-of-a-forward",
            mail: message(
                "Fwd: Fwd: orders",
                "",
                plain,
                &format!("\n---------- Forwarded message ---------\nFrom: Marie <marie@home.example>\nDate: Sat, Dec 5, 2026 at 5:30 PM\nSubject: Fwd: orders\nTo: <france@example.org>\n\n{}", gmail("")),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "outlook-forward",
            mail: message(
                "FW: orders",
                "",
                plain,
                &outlook("-----Original Message-----"),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "outlook-forward-rule",
            mail: message(
                "WG: Befehle",
                "",
                plain,
                &outlook("________________________________"),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "outlook-forward-encoded-subject",
            mail: message(
                "=?utf-8?Q?FW=3A_orders?=",
                "",
                plain,
                &outlook("-----Original Message-----"),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "apple-mail-forward",
            mail: message(
                "Fwd: orders",
                "",
                plain,
                &format!("\n\nBegin forwarded message:\n\nFrom: Jean <jean@home.example>\nSubject: orders\nDate: 5 December 2026 at 17:00:00 CET\nTo: france@example.org\n\n{o}"),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "thunderbird-forward-flowed",
            mail: message(
                "Fwd: orders",
                "",
                "text/plain; charset=UTF-8; format=flowed",
                &format!("\n\n\n-------- Forwarded Message --------\nSubject: \torders\nDate: \tSat, 5 Dec 2026 17:00:00 +0100\nFrom: \tJean <jean@home.example>\nTo: \tfrance@example.org\n\n\n{o}"),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "forwarded-as-an-attachment",
            mail: message(
                "Fwd: orders",
                "",
                "multipart/mixed; boundary=\"b1\"",
                &attached(&inner_mail(o)),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "greeting-and-sign-off",
            mail: message(
                "my orders",
                "",
                plain,
                &format!("Hi ref, here are my orders:\n\n{o}\nThanks, and good luck to all.\nJean\n"),
            ),
            holds: Holds::OrdersAndProse,
        },
        Wrapped {
            name: "outlook-reply-original",
            mail: message(
                "RE: orders",
                "",
                plain,
                &format!("What does the chit do?\n\n-----Original Message-----\nFrom: Jean\nSent: Saturday\nTo: referee@referee.example\nSubject: orders\n\n{o}"),
            ),
            holds: Holds::Nothing,
        },
        Wrapped {
            name: "quoted-reply",
            mail: message(
                "Re: orders",
                "",
                plain,
                &format!("What does the chit do?\n\nOn Sat, 5 Dec 2026, Jean wrote:\n{quoted}"),
            ),
            holds: Holds::Nothing,
        },
        Wrapped {
            name: "labelled-base64-and-not",
            mail: message("orders", "Content-Transfer-Encoding: base64\r\n", plain, o),
            holds: Holds::Nothing,
        },
        Wrapped {
            name: "labelled-utf16-and-not",
            mail: message("orders", "", "text/plain; charset=utf-16", o),
            holds: Holds::Nothing,
        },
    ];
    // tests/mail_clients.rs: UTF-16 as Notepad saves it, with its mark and without.
    let attachment = |bytes: &[u8]| {
        format!("--b1\nContent-Type: text/plain; charset=utf-8\n\nmy orders attached\n--b1\nContent-Type: text/plain\nContent-Disposition: attachment; filename=\"orders.txt\"\nContent-Transfer-Encoding: base64\n\n{}--b1--\n", base64_lines(bytes))
    };
    let mixed = "multipart/mixed; boundary=\"b1\"";
    let base64 = "Content-Transfer-Encoding: base64\r\n";
    out.extend([
        Wrapped {
            name: "notepad-unicode-attachment",
            mail: message("orders", "", mixed, &attachment(&utf16(o, true, true))),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "utf16-big-endian-body",
            mail: message(
                "orders",
                base64,
                "text/plain",
                &base64_lines(&utf16(o, false, true)),
            ),
            holds: Holds::Orders,
        },
        Wrapped {
            name: "utf16-without-its-mark-attachment",
            mail: message("orders", "", mixed, &attachment(&utf16(o, true, false))),
            holds: Holds::Nothing,
        },
        Wrapped {
            name: "utf16-without-its-mark-body",
            mail: message(
                "orders",
                base64,
                "text/plain",
                &base64_lines(&utf16(o, true, false)),
            ),
            holds: Holds::Nothing,
        },
    ]);
    out.extend(beyond(o));
    out
}

/// Wrappings no ingest test feeds, as an auditor tries them: the clients' marks and subjects in
/// other languages, Outlook's bold labels and HTML, a forward in an HTML body, subjects folded,
/// encoded, in 8-bit or given twice, a forwarded message in base64, inline or holding an attachment,
/// lines that end in CR CR LF, attachments named in RFC 2231 or encoded words or as a path, a mail
/// saved from an mbox.
fn beyond(o: &str) -> Vec<Wrapped> {
    let plain = "text/plain; charset=utf-8";
    let block = "From: Jean <jean@home.example>\nDate: Sat, Dec 5, 2026 at 5:00 PM\nSubject: orders\nTo: <france@example.org>\n";
    let marked = |mark: &str| format!("\n{mark}\n{block}\n{o}");
    let html: String = o.lines().map(|l| format!("{l}<br>\n")).collect();
    let inner = format!("From: Jean <jean@home.example>\nTo: france@example.org\nSubject: orders\nMessage-ID: <inner@home.example>\nContent-Type: text/plain; charset=utf-8\n\n{o}");
    let encoded = base64_lines(inner.replace('\n', "\r\n").as_bytes());
    let attached = |headers: &str, inner: &str| {
        format!("--b1\nContent-Type: text/plain; charset=utf-8\n\nforwarding my orders\n--b1\n{headers}\n{inner}\n--b1--\n")
    };
    let mixed = "multipart/mixed; boundary=\"b1\"";
    let named_attachment = |content_type: &str, disposition: &str, text: &str| {
        let disposition = match disposition {
            "" => String::new(),
            d => format!("Content-Disposition: attachment; {d}\n"),
        };
        format!("--b1\nContent-Type: text/plain; charset=utf-8\n\nattached\n--b1\nContent-Type: {content_type}\n{disposition}\n{text}\n--b1--\n")
    };
    let w = |name: &'static str, mail: Vec<u8>, holds: Holds| Wrapped { name, mail, holds };
    // Outlook's forward under each language's subject, and a forward naming its sender in each.
    let outlook = |sender: &str| {
        format!("\n-----Original Message-----\n{sender} Jean <jean@home.example>\nSent: Saturday\nSubject: orders\n\n{o}")
    };
    let mut out: Vec<Wrapped> = [
        ("outlook-forward-italian", "I: ordini", "From:"),
        ("outlook-forward-portuguese", "ENC: ordens", "From:"),
        ("outlook-forward-dutch", "Doorst: orders", "Van:"),
        ("outlook-forward-norwegian", "VS: ordrer", "Fra:"),
        ("outlook-forward-swedish", "VS: order", "Från:"),
        ("outlook-forward-italian-sender", "I: ordini", "Da:"),
    ]
    .into_iter()
    .map(|(name, subject, sender)| {
        w(
            name,
            message(subject, "", plain, &outlook(sender)),
            Holds::Orders,
        )
    })
    .collect();
    out.extend([
        w("gmail-forward-german", message("WG: Befehle", "", plain, &marked("---------- Weitergeleitete Nachricht ---------")), Holds::Orders),
        w("gmail-forward-spanish", message("RV: orders", "", plain, &marked("---------- Mensaje reenviado ---------")), Holds::Orders),
        w("thunderbird-forward-french", message("TR: ordres", "", plain, &marked("-------- Message transféré --------")), Holds::Orders),
        w("apple-mail-forward-french", message("TR: ordres", "", plain, &marked("Début du message réexpédié :")), Holds::Orders),
        w("apple-mail-forward-german", message("WG: Befehle", "", plain, &marked("Anfang der weitergeleiteten Nachricht:")), Holds::Orders),
        w("outlook-forward-french", message("TR: ordres", "", plain, &format!("\n________________________________\nDe : Jean <jean@home.example>\nEnvoyé : samedi 5 décembre 2026 17:00\nÀ : france@example.org\nObjet : ordres\n\n{o}")), Holds::Orders),
        w("outlook-forward-bold-labels", message("FW: orders", "", plain, &format!("\n*From:* Jean <jean@home.example>\n*Sent:* Saturday, December 5, 2026 5:00 PM\n*To:* france@example.org\n*Subject:* orders\n\n{o}")), Holds::Orders),
        // A reply from Outlook: the orders above its original, whose labels are in bold; what
        // the original says (the report, a power line of its own) is not the player's.
        w("outlook-reply-bold-labels", message("RE: report", "", plain, &format!("{o}\n*From:* referee <referee@ulm-1805.invalid>\n*Sent:* Saturday, December 5, 2026 5:00 PM\n*To:* france@example.org\n*Subject:* report\n\npower austria\nentropy not mine\n")), Holds::Orders),
        w("outlook-forward-no-mark", message("FW: orders", "", plain, &format!("\nFrom: Jean <jean@home.example>\nSent: Saturday, December 5, 2026 5:00 PM\nTo: france@example.org\n\n{o}")), Holds::Orders),
        w("outlook-forward-html-only", message("FW: orders", "", "text/html; charset=utf-8", &format!("<html><body><p>&nbsp;</p><div style=\"border-top:solid #E1E1E1 1.0pt\"><p><b>From:</b> Jean &lt;jean@home.example&gt;<br><b>Sent:</b> Saturday, December 5, 2026 5:00 PM<br><b>To:</b> france@example.org<br><b>Subject:</b> orders</p></div><p>{html}</p></body></html>\n")), Holds::Orders),
        w("gmail-forward-blank-text-part", message("Fwd: orders", "", "multipart/alternative; boundary=\"a1\"", &format!("--a1\nContent-Type: text/plain; charset=utf-8\n\n\n--a1\nContent-Type: text/html; charset=utf-8\n\n<div>---------- Forwarded message ---------<br>From: Jean &lt;jean@home.example&gt;<br>Date: Sat, Dec 5, 2026<br>Subject: orders<br>To: &lt;france@example.org&gt;<br><br>{html}</div>\n--a1--\n")), Holds::Orders),
        w("forward-under-a-list-tag", message("[ulm] Re: FW: orders", "", plain, &format!("\n-----Original Message-----\n{block}\n{o}")), Holds::Orders),
        w("forward-subject-in-8bit", message("TR: ordres réécrits", "", plain, &format!("\n-----Original Message-----\n{block}\n{o}")), Holds::Orders),
        w("forward-subject-folded", message("\r\n FW: orders", "", plain, &format!("\n-----Original Message-----\n{block}\n{o}")), Holds::Orders),
        w("forward-subject-encoded-latin1", message("=?iso-8859-1?q?TR=3A_ordres_r=E9=E9crits?=", "", plain, &format!("\n-----Original Message-----\n{block}\n{o}")), Holds::Orders),
        w("forward-subject-given-twice", message("orders", "Subject: FW: orders\r\n", plain, &format!("\n-----Original Message-----\n{block}\n{o}")), Holds::Orders),
        w("reply-subject-given-after-a-forward", message("FW: orders", "Subject: RE: orders\r\n", plain, &format!("\n-----Original Message-----\n{block}\n{o}")), Holds::Nothing),
        w("forward-flowed-delsp", message("Fwd: orders", "", "text/plain; charset=utf-8; format=flowed; delsp=yes", &marked("-------- Forwarded Message --------")), Holds::Orders),
        w("forward-crlf-latin1", message("Fwd: ordres", "Content-Transfer-Encoding: 8bit\r\n", "text/plain; charset=iso-8859-1", &marked("---------- Forwarded message ---------")), Holds::Orders),
        w("forward-without-a-sender", message("Fwd: orders", "", plain, &format!("\n---------- Forwarded message ---------\nDate: Sat, Dec 5, 2026\nSubject: orders\n\n{o}")), Holds::Nothing),
        w("forwarded-as-an-attachment-in-base64", message("Fwd: orders", "", mixed, &attached("Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=\"orders.eml\"\n", &encoded)), Holds::Orders),
        w("forwarded-inline-no-name", message("Fwd: orders", "", mixed, &attached("Content-Type: message/rfc822\n", &inner)), Holds::Orders),
        w("forwarded-message-global", message("Fwd: orders", "", mixed, &attached("Content-Type: message/global\n", &inner)), Holds::Orders),
        w("forwarded-with-an-attachment", message("Fwd: orders", "", mixed, &attached("Content-Type: message/rfc822\n", &format!("From: Jean <jean@home.example>\nSubject: orders\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"c1\"\n\n--c1\nContent-Type: text/plain\n\nattached\n--c1\nContent-Type: text/plain; name=\"france.txt\"\nContent-Disposition: attachment; filename=\"france.txt\"\n\n{o}\n--c1--\n"))), Holds::Orders),
        w("forwarded-in-a-forwarded-attachment", message("Fwd: orders", "", mixed, &attached("Content-Type: message/rfc822\n", &format!("From: Marie <marie@home.example>\nSubject: Fwd: orders\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"c1\"\n\n--c1\nContent-Type: text/plain\n\nsee attached\n--c1\nContent-Type: message/rfc822\n\n{inner}\n--c1--\n"))), Holds::Orders),
        w("own-orders-and-other-forwarded", message("Fwd: orders", "", mixed, &format!("--b1\nContent-Type: text/plain; charset=utf-8\n\n{o}\n--b1\nContent-Type: message/rfc822\n\n{}\n--b1--\n", inner.replace("attack Ulm", "attack Munich"))), Holds::Nothing),
        w("own-orders-and-the-same-forwarded", message("Fwd: orders", "", mixed, &format!("--b1\nContent-Type: text/plain; charset=utf-8\n\n{o}\n--b1\nContent-Type: message/rfc822\n\n{inner}\n--b1--\n")), Holds::Orders),
        w("crcrlf-body", message("orders", "", plain, &o.replace('\n', "\r\n")), Holds::OrdersAndProse),
        w("crcrlf-body-in-parts", message("orders", "", "multipart/mixed; boundary=\"b1\"", &format!("--b1\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n{}\n--b1--\n", o.replace('\n', "\r\n"))), Holds::OrdersAndProse),
        w("crcrlf-body-quoted-printable", message("orders", "Content-Transfer-Encoding: quoted-printable\r\n", plain, &o.replace('\n', "\r\n")), Holds::Orders),
        w("crcrlf-attachment", message("orders", "", mixed, &format!("--b1\nContent-Type: text/plain; charset=utf-8\n\nattached\n--b1\nContent-Type: text/plain; charset=utf-8\nContent-Disposition: attachment; filename=\"orders.txt\"\n\n{}\n--b1--\n", o.replace('\n', "\r\n"))), Holds::OrdersAndProse),
        w("attachment-named-in-rfc2231", message("orders", "", mixed, &named_attachment("application/octet-stream", "filename*=UTF-8''ordres%20%C3%A9t%C3%A9.TXT", o)), Holds::Orders),
        w("attachment-named-in-encoded-words", message("orders", "", mixed, &named_attachment("application/octet-stream; name=\"=?utf-8?q?ordres_=C3=A9t=C3=A9.txt?=\"", "", o)), Holds::Orders),
        w("attachment-named-as-a-path", message("orders", "", mixed, &named_attachment("text/plain", "filename=\"../orders.txt\"", o)), Holds::Nothing),
        w("attachment-named-as-a-path-in-rfc2231", message("orders", "", mixed, &named_attachment("text/plain", "filename*=UTF-8''..%2Forders.txt", o)), Holds::Nothing),
        w("mbox-from-line", [b"From france@example.org Sat Dec  5 18:00:00 2026\r\n".to_vec(), message("orders", "", plain, o)].concat(), Holds::Orders),
    ]);
    out
}
