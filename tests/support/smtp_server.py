#!/usr/bin/env python3
"""A small SMTP server for pbem's mail tests (aiosmtpd), on 127.0.0.1 only.

It records every message it accepts as <dir>/<n>.eml (the DATA bytes exactly as received, after
dot-unstuffing) and <dir>/<n>.json (mail_from, rcpt_tos), n counting from 1. On start it prints
"PORT <port>" on stdout (it binds a free port) and flushes; it exits by itself after --lifetime seconds.

Flags for the failure tests:
  --drop-after N       after N messages are recorded, close the connection at the next MAIL command
  --exit-after-drop    and then stop listening (further connections are refused)
  --reject ADDR        answer 550 to RCPT TO:<ADDR> (repeatable)
  --auth USER:PASS     require AUTH PLAIN/LOGIN with these credentials (plain text, no TLS: tests only)
  --tls MODE           "starttls" (STARTTLS required before MAIL) or "implicit" (TLS on connect),
                       with --cert and --key (PEM files)
"""

import argparse
import asyncio
import json
import os
import sys

try:
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
except ImportError:  # the Rust tests look for this exit code to skip with a message
    print("NO-AIOSMTPD", flush=True)
    sys.exit(3)


class Recorder:
    def __init__(self, args):
        self.dir = args.dir
        self.drop_after = args.drop_after
        self.exit_after_drop = args.exit_after_drop
        self.reject = {a.lower() for a in args.reject}
        self.count = 0
        self.dropped = False
        self.server = None

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.drop_after is not None and self.count >= self.drop_after and not self.dropped:
            self.dropped = True
            server.transport.close()
            if self.exit_after_drop and self.server is not None:
                self.server.close()
            return "421 4.3.0 closing (test: drop after %d)" % self.drop_after
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.reject:
            return "550 5.1.1 <%s>: mailbox unavailable (test)" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        n = self.count
        path = os.path.join(self.dir, "%d" % n)
        with open(path + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content)
        os.replace(path + ".eml.tmp", path + ".eml")
        with open(path + ".json", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos}, f)
        return "250 2.0.0 queued as %d" % n


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    p.add_argument("--drop-after", type=int)
    p.add_argument("--exit-after-drop", action="store_true")
    p.add_argument("--reject", action="append", default=[])
    p.add_argument("--auth")
    p.add_argument("--lifetime", type=float, default=120.0)
    p.add_argument("--tls", choices=["starttls", "implicit"])
    p.add_argument("--cert")
    p.add_argument("--key")
    args = p.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    handler = Recorder(args)

    kwargs = {}
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (
                isinstance(auth_data, LoginPassword)
                and auth_data.login.decode() == user
                and auth_data.password.decode() == password
            )
            return AuthResult(success=ok, handled=False)

        kwargs = dict(authenticator=authenticator, auth_required=True, auth_require_tls=False)

    ssl_context = None
    if args.tls:
        import ssl

        ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ssl_context.load_cert_chain(args.cert, args.key)
        if args.tls == "starttls":
            kwargs = dict(kwargs, tls_context=ssl_context, require_starttls=True)

    async def run():
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            lambda: SMTP(handler, hostname="pbem-test", decode_data=False, **kwargs),
            host="127.0.0.1",
            port=0,
            ssl=ssl_context if args.tls == "implicit" else None,
        )
        handler.server = server
        port = server.sockets[0].getsockname()[1]
        print("PORT %d" % port, flush=True)
        try:
            await asyncio.sleep(args.lifetime)
        finally:
            server.close()

    asyncio.run(run())


if __name__ == "__main__":
    main()
