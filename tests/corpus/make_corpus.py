#!/usr/bin/env python3
"""Writes the mail corpus of tests/mail_corpus.rs: orders as real mail clients send them.

Each case is a message shaped as a client writes it (headers, MIME structure, encodings, quoting,
signatures), for turn 1 of the bundled ulm-1805 game, and the orders the player typed, which is what
`pbem ingest` must file (<name>.expected). The .eml files are committed; rerun this script only to
change the corpus:  python3 tests/corpus/make_corpus.py
"""

import base64
import os
import quopri
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))

FRANCE = """game ulm-1805
power france
password eagle-1805
turn 1
entropy Boulogne est vide et les aigles sont sur le Danube, d\u00e9j\u00e0

move Napoleon Stuttgart Ulm
move Lannes Stuttgart Ulm
move FR-V Stuttgart Ulm
move FR-I Nuremberg Regensburg Munich  # Bernadotte comes down by Regensburg to cut the road
attack Ulm
chit Ulm outflank
attack Munich
"""

AUSTRIA = """game ulm-1805
power austria
password danube-1805
turn 1
entropy Mack wartet bei Ulm, sp\u00e4ter kommt Kutusow

chit Ulm counterattack
move AU-IX Verona
move AU-XI Pilsen
standing surrender Munich when outnumbered 3
"""

BRITAIN = """game ulm-1805
power britain
password trident-1805
turn 1
entropy Pitt\u2019s gold & the Channel fleet

standing pursue always
"""

RUSSIA = """game ulm-1805
power russia
password bear-1805
turn 1
entropy \u0418\u0434\u0451\u043c \u043d\u0430 \u0417\u0430\u043f\u0430\u0434

move Kutuzov Passau
move RU-I Passau
move RU-II Passau
attack Passau
chit Passau assault
standing pursue always
"""

REPORT_QUOTE = """Ulm 1805: the Danube campaign (Empires in Arms demo)
Turn 1 (September 1805): orders for France are due Sunday 2026-12-06 20:00 CET.

game ulm-1805
turn 1
The dice commitment of turn 1 is
    51c8f0b0c1d0...
"""


def received(by_time, helo="mail.example.net", ip="192.0.2.7", client_hops=()):
    """The referee's server's Received header (topmost), then the sender side's."""
    lines = [
        "Received: from %s (%s [%s])\r\n\tby mx.referee.example (Postfix) with ESMTPS id 4Qx7Lm2b9Fz\r\n"
        "\tfor <referee@referee.example>; %s" % (helo, helo, ip, by_time)
    ]
    lines += list(client_hops)
    return "\r\n".join(lines) + "\r\n"


def qp(text, charset="utf-8"):
    return quopri.encodestring(text.encode(charset)).decode("ascii")


def b64(data):
    return "\r\n".join(textwrap.wrap(base64.b64encode(data).decode("ascii"), 76))


def flow(text, width=72):
    """format=flowed as Thunderbird writes it: long lines soft-broken after a space, a trailing space
    marking each soft break; lines starting with a space, '>' or 'From ' space-stuffed."""
    out = []
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        prefix, line = line[:depth], line[depth:]
        if line.startswith((" ", "From ")) and not (depth and line.startswith(" ")):
            line = " " + line
        while len(prefix + line) > width and " " in line[: width - depth]:
            cut = line.rfind(" ", 0, width - depth)
            out.append(prefix + line[: cut + 1])
            line = line[cut + 1 :]
        out.append(prefix + line)
    return "\n".join(out)


def crlf(s):
    return s.replace("\r\n", "\n").replace("\n", "\r\n")


def write(name, eml, expected):
    with open(os.path.join(HERE, name + ".eml"), "wb") as f:
        f.write(eml if isinstance(eml, bytes) else eml.encode("utf-8"))
    with open(os.path.join(HERE, name + ".expected"), "w", encoding="utf-8", newline="\n") as f:
        f.write(expected)


def quoted(text, mark="> "):
    return "\n".join((mark + l).rstrip() if l else mark.rstrip() for l in text.rstrip("\n").split("\n"))


cases = []

# 1. Thunderbird: text/plain, UTF-8, 8bit, format=flowed, a long line soft-broken, a signature.
body = flow(FRANCE + "\n-- \nNapol\u00e9on, Empereur des Fran\u00e7ais\n")
write(
    "thunderbird-flowed",
    crlf(
        received("Sat, 5 Dec 2026 18:00:01 +0100 (CET)")
        + "Message-ID: <0b7d3c8e-4f1e-4c55-9a3e-2d5f6f1b0c11@example.org>\n"
        "Date: Sat, 5 Dec 2026 17:59:40 +0100\n"
        "MIME-Version: 1.0\n"
        "User-Agent: Mozilla Thunderbird\n"
        "Content-Language: fr\n"
        "To: pbem referee <referee@referee.example>\n"
        "From: =?UTF-8?Q?Napol=C3=A9on?= <france@example.org>\n"
        "Subject: Ulm 1805 turn 1: orders of France\n"
        "Content-Type: text/plain; charset=UTF-8; format=flowed\n"
        "Content-Transfer-Encoding: 8bit\n\n" + body
    ),
    FRANCE,
)

# 2. Thunderbird reply below the quoted report (bottom-posting), format=flowed, quoted lines.
body = flow(
    "On 05/12/2026 09:00, pbem referee wrote:\n" + quoted(REPORT_QUOTE, ">") + "\n\n" + AUSTRIA
)
write(
    "thunderbird-reply-below-quote",
    crlf(
        received("Sat, 5 Dec 2026 19:12:30 +0100 (CET)")
        + "Message-ID: <a12f9a7e-2b1c-4d8e-8f3a-7c6b5a4d3e21@example.org>\n"
        "Date: Sat, 5 Dec 2026 19:12:10 +0100\n"
        "MIME-Version: 1.0\n"
        "User-Agent: Mozilla Thunderbird\n"
        "Subject: Re: [ulm-1805] turn 1: dice commitment, orders due Sunday 2026-12-06 20:00 CET\n"
        "To: pbem referee <referee@referee.example>\n"
        "References: <t0001-announcement-austria@ulm-1805.pbem>\n"
        "In-Reply-To: <t0001-announcement-austria@ulm-1805.pbem>\n"
        "From: Franz <austria@example.org>\n"
        "Content-Type: text/plain; charset=UTF-8; format=flowed\n"
        "Content-Transfer-Encoding: 8bit\n\n" + body
    ),
    AUSTRIA,
)

# 3. Gmail: multipart/alternative, QP text and HTML, top-posted above the quoted report.
plain = BRITAIN + "\nOn Sat, Dec 5, 2026 at 9:00\u202fAM pbem referee <referee@referee.example> wrote:\n\n" + quoted(REPORT_QUOTE) + "\n"
html = (
    "<div dir=\"ltr\">" + "".join("<div>%s</div>" % (l.replace("&", "&amp;") or "<br>") for l in BRITAIN.rstrip("\n").split("\n")) +
    "</div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Sat, Dec 5, 2026 at 9:00\u202fAM pbem referee &lt;<a href=\"mailto:referee@referee.example\">referee@referee.example</a>&gt; wrote:<br></div>"
    "<blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex\">"
    + "<br>".join(REPORT_QUOTE.rstrip("\n").split("\n")) + "</blockquote></div>\n"
)
write(
    "gmail-alternative-qp",
    crlf(
        received("Sat, 5 Dec 2026 20:30:05 +0100 (CET)", helo="mail-wr1-f54.google.com", ip="209.85.221.54",
                 client_hops=["Received: by mail-wr1-f54.google.com with SMTP id ffacd0b85a97d-3a4f1b2c3d4so12345f8f.1\r\n        for <referee@referee.example>; Sat, 05 Dec 2026 11:30:04 -0800 (PST)"])
        + "MIME-Version: 1.0\n"
        "References: <t0001-announcement-britain@ulm-1805.pbem>\n"
        "In-Reply-To: <t0001-announcement-britain@ulm-1805.pbem>\n"
        "From: William Pitt <britain@example.org>\n"
        "Date: Sat, 5 Dec 2026 20:29:51 +0100\n"
        "Message-ID: <CAHk7x+Yq3=VnZbq9Lw1pQm2Xo8Jr4tE5uI6oP7aS8dF9gH0jK@mail.gmail.com>\n"
        "Subject: Re: [ulm-1805] turn 1: dice commitment, orders due Sunday 2026-12-06 20:00 CET\n"
        "To: pbem referee <referee@referee.example>\n"
        "Content-Type: multipart/alternative; boundary=\"000000000000a1b2c3d4e5f60718\"\n\n"
        "--000000000000a1b2c3d4e5f60718\n"
        "Content-Type: text/plain; charset=\"UTF-8\"\n"
        "Content-Transfer-Encoding: quoted-printable\n\n" + qp(plain) + "\n"
        "--000000000000a1b2c3d4e5f60718\n"
        "Content-Type: text/html; charset=\"UTF-8\"\n"
        "Content-Transfer-Encoding: quoted-printable\n\n" + qp(html) + "\n"
        "--000000000000a1b2c3d4e5f60718--\n"
    ),
    BRITAIN,
)

# 4. Gmail with the orders in a .txt attachment (base64), a two-line body.
write(
    "gmail-txt-attachment",
    crlf(
        received("Sat, 5 Dec 2026 21:05:44 +0100 (CET)", helo="mail-ed1-f47.google.com", ip="209.85.208.47")
        + "MIME-Version: 1.0\n"
        "From: Alexander <russia@example.org>\n"
        "Date: Sat, 5 Dec 2026 21:05:30 +0100\n"
        "Message-ID: <CAJ9vG0b7Lx2mQ4nR6tS8uV0wX2yZ4aB6cD8eF0gH2iJ4kL6mN@mail.gmail.com>\n"
        "Subject: Russia, turn 1\n"
        "To: referee@referee.example\n"
        "Content-Type: multipart/mixed; boundary=\"0000000000001122334455667788\"\n\n"
        "--0000000000001122334455667788\n"
        "Content-Type: multipart/alternative; boundary=\"00000000000099aabbccddeeff00\"\n\n"
        "--00000000000099aabbccddeeff00\n"
        "Content-Type: text/plain; charset=\"UTF-8\"\n\n"
        "My orders are attached.\n\nAlexander\n\n"
        "--00000000000099aabbccddeeff00\n"
        "Content-Type: text/html; charset=\"UTF-8\"\n\n"
        "<div dir=\"ltr\">My orders are attached.<div><br></div><div>Alexander</div></div>\n\n"
        "--00000000000099aabbccddeeff00--\n"
        "--0000000000001122334455667788\n"
        "Content-Type: text/plain; charset=\"UTF-8\"; name=\"russia.txt\"\n"
        "Content-Disposition: attachment; filename=\"russia.txt\"\n"
        "Content-Transfer-Encoding: base64\n"
        "Content-ID: <f_lx1y2z3a0>\n"
        "X-Attachment-Id: f_lx1y2z3a0\n\n" + b64(RUSSIA.encode("utf-8")) + "\n"
        "--0000000000001122334455667788--\n"
    ),
    RUSSIA,
)

# 5. Outlook, HTML only, windows-1252, quoted-printable, MsoNormal paragraphs, the original below.
paras = "".join(
    "<p class=\"MsoNormal\">%s<o:p></o:p></p>\n" % (l.replace("&", "&amp;").replace("  ", "&nbsp; ") if l else "&nbsp;")
    for l in BRITAIN.rstrip("\n").split("\n")
)
html = (
    "<html xmlns:v=\"urn:schemas-microsoft-com:vml\" xmlns:o=\"urn:schemas-microsoft-com:office:office\">\n"
    "<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\">\n"
    "<style><!--\np.MsoNormal {margin:0cm; font-size:11.0pt; font-family:\"Calibri\",sans-serif;}\n--></style>\n"
    "</head>\n<body lang=\"EN-GB\" link=\"#0563C1\" vlink=\"#954F72\">\n<div class=\"WordSection1\">\n"
    + paras +
    "<p class=\"MsoNormal\"><o:p>&nbsp;</o:p></p>\n"
    "<div style=\"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm\">\n"
    "<p class=\"MsoNormal\"><b>From:</b> pbem referee &lt;referee@referee.example&gt; <br>\n"
    "<b>Sent:</b> Saturday, December 5, 2026 9:00 AM<br>\n<b>To:</b> William Pitt &lt;britain@example.org&gt;<br>\n"
    "<b>Subject:</b> [ulm-1805] turn 1: dice commitment<o:p></o:p></p>\n</div>\n"
    + "".join("<p class=\"MsoNormal\">%s<o:p></o:p></p>\n" % l for l in REPORT_QUOTE.rstrip("\n").split("\n"))
    + "</div>\n</body>\n</html>\n"
)
write(
    "outlook-html-only-1252",
    crlf(
        received("Sat, 5 Dec 2026 22:41:19 +0100 (CET)", helo="EUR05-AM6-obe.outbound.protection.outlook.com", ip="40.107.22.98")
        + "From: William Pitt <britain@example.org>\n"
        "To: pbem referee <referee@referee.example>\n"
        "Subject: RE: [ulm-1805] turn 1: dice commitment\n"
        "Thread-Topic: [ulm-1805] turn 1: dice commitment\n"
        "Thread-Index: AdtHc1xQ2m3n4o5p6q7r8s9t0u1v2w==\n"
        "Date: Sat, 5 Dec 2026 21:41:17 +0000\n"
        "Message-ID: <AM6PR10MB2345C1D2E3F4A5B6C7D8E9F0A1B2C@AM6PR10MB2345.EURPRD10.PROD.OUTLOOK.COM>\n"
        "Accept-Language: en-GB, en-US\n"
        "Content-Language: en-GB\n"
        "X-MS-Has-Attach: \n"
        "Content-Type: text/html; charset=\"windows-1252\"\n"
        "Content-Transfer-Encoding: quoted-printable\n"
        "MIME-Version: 1.0\n\n" + qp(html, "cp1252")
    ),
    BRITAIN,
)

# 6. Outlook, multipart/alternative with an iso-8859-1 QP text part, top-posted, the original below.
plain = AUSTRIA + "\n-----Original Message-----\nFrom: pbem referee <referee@referee.example>\nSent: Saturday, December 5, 2026 9:00 AM\nTo: Franz <austria@example.org>\nSubject: report\n\n" + REPORT_QUOTE
html = "<html><body>" + "".join("<p class=MsoNormal>%s</p>" % l for l in AUSTRIA.rstrip("\n").split("\n")) + "</body></html>"
write(
    "outlook-alternative-latin1",
    crlf(
        received("Sat, 5 Dec 2026 23:02:00 +0100 (CET)", helo="EUR02-DB5-obe.outbound.protection.outlook.com", ip="40.107.24.77")
        + "From: Franz <austria@example.org>\n"
        "To: \"referee@referee.example\" <referee@referee.example>\n"
        "Subject: AW: turn 1\n"
        "Date: Sat, 5 Dec 2026 22:01:58 +0000\n"
        "Message-ID: <DB9PR04MB8123AB12CD34EF56AB78CD90EF12AB34@DB9PR04MB8123.eurprd04.prod.outlook.com>\n"
        "Content-Type: multipart/alternative;\n\tboundary=\"_000_DB9PR04MB8123AB12CD34EF56AB78CD90EF12AB34DB9PR04MB8123_\"\n"
        "MIME-Version: 1.0\n\n"
        "--_000_DB9PR04MB8123AB12CD34EF56AB78CD90EF12AB34DB9PR04MB8123_\n"
        "Content-Type: text/plain; charset=\"iso-8859-1\"\n"
        "Content-Transfer-Encoding: quoted-printable\n\n" + qp(plain, "latin-1") + "\n"
        "--_000_DB9PR04MB8123AB12CD34EF56AB78CD90EF12AB34DB9PR04MB8123_\n"
        "Content-Type: text/html; charset=\"iso-8859-1\"\n"
        "Content-Transfer-Encoding: quoted-printable\n\n" + qp(html, "latin-1") + "\n"
        "--_000_DB9PR04MB8123AB12CD34EF56AB78CD90EF12AB34DB9PR04MB8123_--\n"
    ),
    AUSTRIA,
)

# 7. Apple Mail: multipart/alternative, QP, reply with the attribution quoted, "Sent from my iPhone".
plain = RUSSIA + "\nSent from my iPhone\n\n> On 5 Dec 2026, at 09:00, pbem referee <referee@referee.example> wrote:\n> \n" + quoted(REPORT_QUOTE) + "\n"
html = "<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=utf-8\"></head><body dir=\"auto\">" + "<br>".join(RUSSIA.rstrip("\n").split("\n")) + "<br><br><div dir=\"ltr\">Sent from my iPhone</div><div dir=\"ltr\"><br><blockquote type=\"cite\">On 5 Dec 2026, at 09:00, pbem referee &lt;referee@referee.example&gt; wrote:<br><br></blockquote></div><blockquote type=\"cite\"><div dir=\"ltr\">" + "<br>".join(REPORT_QUOTE.rstrip("\n").split("\n")) + "</div></blockquote></body></html>"
write(
    "apple-mail-iphone-reply",
    crlf(
        received("Sun, 6 Dec 2026 08:15:42 +0100 (CET)", helo="mr85p00im-zteg06021501.me.com", ip="17.58.23.185")
        + "Content-Type: multipart/alternative; boundary=Apple-Mail-6E2C1A3B-9F4D-4B7E-8C1A-2D3E4F5A6B7C\n"
        "Content-Transfer-Encoding: 7bit\n"
        "From: Alexander <russia@example.org>\n"
        "Mime-Version: 1.0 (1.0)\n"
        "Date: Sun, 6 Dec 2026 08:15:30 +0100\n"
        "Subject: Re: [ulm-1805] turn 1\n"
        "Message-Id: <8C1A2D3E-4F5A-6B7C-9F4D-4B7E6E2C1A3B@example.org>\n"
        "References: <t0001-announcement-russia@ulm-1805.pbem>\n"
        "In-Reply-To: <t0001-announcement-russia@ulm-1805.pbem>\n"
        "To: pbem referee <referee@referee.example>\n"
        "X-Mailer: iPhone Mail (22B91)\n\n"
        "--Apple-Mail-6E2C1A3B-9F4D-4B7E-8C1A-2D3E4F5A6B7C\n"
        "Content-Type: text/plain;\n\tcharset=utf-8\n"
        "Content-Transfer-Encoding: quoted-printable\n\n" + qp(plain) + "\n"
        "--Apple-Mail-6E2C1A3B-9F4D-4B7E-8C1A-2D3E4F5A6B7C\n"
        "Content-Type: text/html;\n\tcharset=utf-8\n"
        "Content-Transfer-Encoding: quoted-printable\n\n" + qp(html) + "\n"
        "--Apple-Mail-6E2C1A3B-9F4D-4B7E-8C1A-2D3E4F5A6B7C--\n"
    ),
    RUSSIA,
)

# 8. Apple Mail on a Mac with the orders attached as a .txt file (x-unix-mode, no charset).
write(
    "apple-mail-attachment",
    crlf(
        received("Sun, 6 Dec 2026 10:01:12 +0100 (CET)", helo="st43p00im-ztfb10061701.me.com", ip="17.58.63.176")
        + "From: William Pitt <britain@example.org>\n"
        "Content-Type: multipart/mixed;\n\tboundary=\"Apple-Mail=_4A3B2C1D-0E9F-4A8B-9C7D-6E5F4A3B2C1D\"\n"
        "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3826.200.121\\))\n"
        "Subject: Orders\n"
        "Message-Id: <4A3B2C1D-0E9F-4A8B-9C7D-6E5F4A3B2C1D@example.org>\n"
        "Date: Sun, 6 Dec 2026 10:01:05 +0100\n"
        "To: referee@referee.example\n"
        "X-Mailer: Apple Mail (2.3826.200.121)\n\n\n"
        "--Apple-Mail=_4A3B2C1D-0E9F-4A8B-9C7D-6E5F4A3B2C1D\n"
        "Content-Transfer-Encoding: 7bit\n"
        "Content-Type: text/plain;\n\tcharset=us-ascii\n\n"
        "Here you are.\n\n\n"
        "--Apple-Mail=_4A3B2C1D-0E9F-4A8B-9C7D-6E5F4A3B2C1D\n"
        "Content-Disposition: attachment;\n\tfilename=britain.txt\n"
        "Content-Type: text/plain;\n\tx-unix-mode=0644;\n\tname=\"britain.txt\"\n"
        "Content-Transfer-Encoding: base64\n\n" + b64(BRITAIN.encode("utf-8")) + "\n"
        "--Apple-Mail=_4A3B2C1D-0E9F-4A8B-9C7D-6E5F4A3B2C1D--\n"
    ),
    BRITAIN,
)

# 9. mutt: text/plain, iso-8859-1, 8bit (raw Latin-1 bytes), a signature.
eml = (
    received("Sat, 5 Dec 2026 16:20:00 +0100 (CET)", helo="shell.example.org", ip="198.51.100.20")
    + "Date: Sat, 5 Dec 2026 16:19:58 +0100\n"
    "From: Franz von Habsburg <austria@example.org>\n"
    "To: referee@referee.example\n"
    "Subject: Orders turn 1\n"
    "Message-ID: <20261205151958.GA12345@shell.example.org>\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=iso-8859-1\n"
    "Content-Disposition: inline\n"
    "Content-Transfer-Encoding: 8bit\n"
    "User-Agent: NeoMutt/20231103\n\n"
    + AUSTRIA + "\n-- \nFranz\n"
)
write("mutt-latin1-8bit", crlf(eml).encode("latin-1"), AUSTRIA)

# 10. mutt with the orders as an inline text/plain part with a file name (Content-Disposition: inline).
write(
    "mutt-inline-attachment",
    crlf(
        received("Sat, 5 Dec 2026 16:45:10 +0100 (CET)", helo="shell.example.org", ip="198.51.100.20")
        + "Date: Sat, 5 Dec 2026 16:45:08 +0100\n"
        "From: france@example.org\n"
        "To: referee@referee.example\n"
        "Subject: France\n"
        "Message-ID: <20261205154508.GB23456@shell.example.org>\n"
        "MIME-Version: 1.0\n"
        "Content-Type: multipart/mixed; boundary=\"kXr3GpQ7vD2eWm1z\"\n"
        "Content-Disposition: inline\n"
        "User-Agent: Mutt/2.2.12 (2023-09-09)\n\n"
        "--kXr3GpQ7vD2eWm1z\n"
        "Content-Type: text/plain; charset=us-ascii\n"
        "Content-Disposition: inline\n\n"
        "My orders are in the file below.\n\n"
        "--kXr3GpQ7vD2eWm1z\n"
        "Content-Type: text/plain; charset=utf-8\n"
        "Content-Disposition: inline; filename=\"france.txt\"\n"
        "Content-Transfer-Encoding: 8bit\n\n" + FRANCE + "\n"
        "--kXr3GpQ7vD2eWm1z--\n"
    ),
    FRANCE,
)

# 11. An Android client: text/plain, UTF-8, base64, CRLF.
write(
    "android-base64-crlf",
    crlf(
        received("Sun, 6 Dec 2026 12:00:00 +0100 (CET)", helo="mail.example.net", ip="192.0.2.40")
        + "MIME-Version: 1.0\n"
        "Date: Sun, 06 Dec 2026 11:59:58 +0100\n"
        "Message-ID: <k9mail.1733482798.abcdef@example.org>\n"
        "Subject: Russia orders\n"
        "From: russia@example.org\n"
        "To: referee@referee.example\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: base64\n"
        "User-Agent: K-9 Mail for Android\n\n"
        + b64(crlf(RUSSIA).encode("utf-8")) + "\n"
    ),
    RUSSIA,
)

# 12. A webmail, HTML only, UTF-8, base64, <div> lines with a <blockquote> of the report.
html = (
    "<div>" + "</div><div>".join(l.replace("&", "&amp;").replace("  ", "&nbsp; ") if l else "<br>" for l in FRANCE.rstrip("\n").split("\n")) + "</div>"
    "<div><br></div><div>-------- Original Message --------</div><blockquote>" + "<br>".join(REPORT_QUOTE.rstrip("\n").split("\n")) + "</blockquote>"
)
write(
    "webmail-html-only-base64",
    crlf(
        received("Sun, 6 Dec 2026 14:30:00 +0100 (CET)", helo="mail-4316.protonmail.ch", ip="185.70.43.16")
        + "Date: Sun, 06 Dec 2026 13:29:58 +0000\n"
        "To: referee@referee.example\n"
        "From: Napoleon <france@example.org>\n"
        "Subject: Re: turn 1\n"
        "Message-ID: <Xq1Yz2Ab3Cd4Ef5Gh6Ij7Kl8Mn9Op0Qr=@proton.me>\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/html; charset=utf-8\n"
        "Content-Transfer-Encoding: base64\n\n" + b64(html.encode("utf-8")) + "\n"
    ),
    FRANCE,
)

# 13. Orders typed in Notepad ("ANSI": Windows-1252, CRLF) attached as application/octet-stream.
write(
    "notepad-ansi-attachment",
    crlf(
        received("Sun, 6 Dec 2026 15:10:00 +0100 (CET)", helo="smtp.example.net", ip="192.0.2.77")
        + "From: William Pitt <britain@example.org>\n"
        "To: referee@referee.example\n"
        "Subject: orders\n"
        "Date: Sun, 6 Dec 2026 14:09:58 +0000\n"
        "Message-ID: <000001db4f3a$1a2b3c4d$5e6f7a8b$@example.org>\n"
        "MIME-Version: 1.0\n"
        "Content-Type: multipart/mixed; boundary=\"----=_NextPart_000_0001_01DB4F3A.1A2B3C4D\"\n"
        "X-Mailer: Microsoft Outlook 16.0\n\n"
        "This is a multi-part message in MIME format.\n\n"
        "------=_NextPart_000_0001_01DB4F3A.1A2B3C4D\n"
        "Content-Type: text/plain; charset=\"us-ascii\"\n"
        "Content-Transfer-Encoding: 7bit\n\n"
        "See attached.\n\n"
        "------=_NextPart_000_0001_01DB4F3A.1A2B3C4D\n"
        "Content-Type: application/octet-stream; name=\"orders.txt\"\n"
        "Content-Transfer-Encoding: base64\n"
        "Content-Disposition: attachment; filename=\"orders.txt\"\n\n"
        + b64(crlf(BRITAIN).encode("cp1252")) + "\n"
        "------=_NextPart_000_0001_01DB4F3A.1A2B3C4D--\n"
    ),
    BRITAIN,
)

# 14. A phone's webmail app replying in HTML: multipart/alternative whose text/plain part is blank
# (a line of spaces), the orders in the text/html part only (ISO-8859-1, quoted-printable), <p> and
# <br> lines, &nbsp; and entities, a signature, the report quoted in a <blockquote>.
html = (
    "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"></head><body>"
    "<p style=\"margin:0\">" + "<br>\n".join(
        l.replace("&", "&amp;").replace("\u00e4", "&auml;") if l else "" for l in AUSTRIA.rstrip("\n").split("\n")
    ) + "</p>"
    "<p style=\"margin:0\">&nbsp;</p><div id=\"signature\">-- <br>Gr\u00fc\u00dfe, Franz &lt;austria@example.org&gt;</div>"
    "<div class=\"quote\">Am 05.12.2026 um 09:00 schrieb pbem referee:<br>"
    "<blockquote style=\"border-left:2px solid #ccc;padding-left:1ex\">"
    + "<br>".join(REPORT_QUOTE.rstrip("\n").split("\n")) + "</blockquote></div></body></html>"
)
write(
    "phone-alternative-blank-text",
    crlf(
        received("Sat, 5 Dec 2026 20:10:00 +0100 (CET)", helo="mout.gmx.net", ip="212.227.17.21")
        + "From: Franz <austria@example.org>\n"
        "To: referee@referee.example\n"
        "Subject: Re: [ulm-1805] turn 1\n"
        "Date: Sat, 5 Dec 2026 20:09:55 +0100\n"
        "Message-ID: <trinity-5f0c1a2b-3d4e-4f5a-8b6c-7d8e9f0a1b2c-1733425795123@msvc-mesg-gmx001>\n"
        "MIME-Version: 1.0\n"
        "Content-Type: multipart/alternative; boundary=\"--=_alt_5f0c1a2b\"\n"
        "X-Mailer: GMX Mail App Android\n\n"
        "----=_alt_5f0c1a2b\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 7bit\n\n"
        "   \n\n"
        "----=_alt_5f0c1a2b\n"
        "Content-Type: text/html; charset=iso-8859-1\n"
        "Content-Transfer-Encoding: quoted-printable\n\n" + qp(html, "latin-1") + "\n"
        "----=_alt_5f0c1a2b--\n"
    ),
    AUSTRIA,
)
