#!/usr/bin/env python3
"""Python's standard library reading the mailbox `pbem ingest` reads, for BENCHMARKS.md.

    python3 benches/python_mailbox.py <mbox> [runs]

For each message of the mbox: `mailbox.mbox` splits it out, `email` parses it (policy.default, as
a modern program would), and we take the From address, the Subject and the text of the first
text/plain part. Prints the median time of `runs` runs (default 5) and the messages per second.
Generate a mailbox with `cargo bench --bench table -- --child generate 1000 /tmp/g 1000` (it writes
/tmp/g.mbox) or run `cargo bench --bench table -- --ingest-vs-python`, which runs this script.
"""

import email
import email.policy
import mailbox
import statistics
import sys
import time


def read(path):
    n = 0
    chars = 0
    box = mailbox.mbox(path, factory=None, create=False)
    for key in box.iterkeys():
        msg = email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
        sender = msg["From"]
        address = sender.addresses[0].addr_spec if sender and sender.addresses else ""
        subject = str(msg["Subject"] or "")
        part = msg.get_body(preferencelist=("plain",))
        body = part.get_content() if part is not None else ""
        n += 1
        chars += len(address) + len(subject) + len(body)
    box.close()
    return n, chars


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    times = []
    n = 0
    for _ in range(runs):
        started = time.perf_counter()
        n, _ = read(path)
        times.append(time.perf_counter() - started)
    median = statistics.median(times)
    print(f"python {sys.version.split()[0]} mailbox+email: {n} messages in {median:.4f} s "
          f"(median of {runs}), {n / median:.0f} messages per second")


if __name__ == "__main__":
    main()
