"""Runs a command as a grandchild of the test and writes its peak resident memory (ru_maxrss, KiB).

Usage: peak.py OUT_FILE PROGRAM [ARG...]. The kernel counts, in a child's peak, the memory of the
process it was spawned from until it execs; a test binary whose other tests hold hundreds of MiB
would be counted in. This small fresh process forks the program itself, so the peak it writes is
the program's own. Exits with the program's exit status (128 + signal when killed).
"""
import os
import sys

out, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(out, "w") as f:
    f.write(str(usage.ru_maxrss))
if os.WIFEXITED(status):
    sys.exit(os.WEXITSTATUS(status))
sys.exit(128 + os.WTERMSIG(status))
