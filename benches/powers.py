#!/usr/bin/env python3
"""Issue 18's rows: a turn of 24 and of 1,000 powers at 10,000 and 100,000 units, as processes.

For each size: `cargo run --release --example synth` writes the game; `pbem resolve` resolves turn 1
of three fresh copies of it for the first time, as the referee does, under /usr/bin/time: the median
wall time, CPU time and peak memory; then the last copy once more with `--turn 1 --force` (which also
removes what the first resolution wrote). The floor is what any program must do for the same turn: read every input file (game,
map, state, orders) and write every byte the turn wrote (the reports and mail of each power, the
state, the log, the summary), each file created anew in a new folder, then one sync of the file system. Also: the
bytes of the largest report of a power (its four forms and its mail) and how many units it sees.

    cargo build --release --bin pbem && cargo build --example synth   (or --release for both)
    python3 benches/powers.py [--quick] [--dir /tmp/pbem-powers]

Each game is written with `[mail] map_png = false` (synth's `--map-png false`, as a referee of
hundreds of powers sets it: the PNG of each mail costs about 45 ms a power); `--map-png` keeps it.
--quick: the 10,000-unit sizes only; --runs 1: one resolution and one floor of each; --sizes 24x417,1000x10: the sizes given (powers x units each). Needs 50 GB of free disk for all four sizes:
on a disk the copies and floors are kept until every size is measured (an ext4 that has just
deleted thousands of files creates new ones slower), on /dev/shm each size goes once measured. On a
disk, measure at least 6 minutes after deleting a large folder there (an earlier run's included):
ext4 without a journal skips the inodes freed in the last 1-6 minutes at each file it creates.
"""
import json, os, shutil, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PBEM = os.path.join(ROOT, "target/release/pbem")
SYNTH = next((p for p in (os.path.join(ROOT, f"target/{b}/examples/synth") for b in ("release", "debug"))
              if os.path.exists(p)), "synth")
SIZES = [(24, 417), (1000, 10), (24, 4167), (1000, 100)]
# Resolutions of each turn (the first, then `--force`) and floors measured; `--runs N` to change.
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3


def timed(cmd):
    """Wall seconds, peak RSS (MiB) and CPU seconds (user + system) of a command, from /usr/bin/time."""
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S"] + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{cmd} failed:\n{out.stderr}")
    wall, kb, user, system = out.stderr.strip().splitlines()[-1].split()
    return float(wall), int(kb) / 1024, float(user) + float(system)


def files(d):
    for base, _, names in os.walk(d):
        for n in names:
            yield os.path.join(base, n)


def floor(game, written, out):
    """Reads the inputs, writes the bytes of `written` (paths in `game`) under `out`, syncs once:
    (wall seconds, CPU seconds of this process)."""
    start = time.monotonic()
    cpu = sum(os.times()[:2])
    inputs = ["game.toml", "map.toml", "tables.toml", "turns/1/state.toml"]
    inputs += [os.path.join("orders/1", n) for n in os.listdir(os.path.join(game, "orders/1"))]
    for rel in inputs:
        with open(os.path.join(game, rel), "rb") as f:
            f.read()
    for rel in written:
        with open(os.path.join(game, rel), "rb") as f:
            data = f.read()
        target = os.path.join(out, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
    fd = os.open(out, os.O_RDONLY)
    os.syncfs(fd) if hasattr(os, "syncfs") else os.sync()
    os.close(fd)
    return time.monotonic() - start, sum(os.times()[:2]) - cpu


def powers_sizes(game):
    """(bytes of its four reports and mail, units it sees, power) of every power."""
    reports = os.path.join(game, "turns/1/reports")
    out = []
    for n in os.listdir(reports):
        if not n.endswith(".json"):
            continue
        p = n[:-5]
        size = sum(os.path.getsize(os.path.join(reports, f"{p}.{e}")) for e in ["txt", "html", "json", "svg"])
        size += os.path.getsize(os.path.join(game, f"mail/outbox/t0001-report-{p}.eml"))
        with open(os.path.join(reports, n)) as f:
            j = json.load(f)
        out.append((size, len(j["units"]) + len(j["sees"]["units"]), p))
    return out


def largest_power(game):
    """(power, bytes of its four reports and mail, units it sees) of the power with the most bytes,
    and the most bytes of a power that sees 100 units or fewer."""
    sizes = powers_sizes(game)
    size, seen, p = max(sizes)
    upto100 = max((s for s, n, _ in sizes if n <= 100), default=0)
    return p, size, seen, upto100


def main():
    quick = "--quick" in sys.argv
    base = sys.argv[sys.argv.index("--dir") + 1] if "--dir" in sys.argv else "/tmp/pbem-powers"
    rows = []
    sizes = SIZES[:2] if quick else SIZES
    if "--sizes" in sys.argv:  # "24x417,1000x10": powers x units per power
        arg = sys.argv[sys.argv.index("--sizes") + 1]
        sizes = [tuple(int(n) for n in s.split("x")) for s in arg.split(",")]
    # On a disk every folder is kept until all sizes are measured: an ext4 that has deleted
    # thousands of files in the last minutes is slower to create new ones (it skips the inodes it
    # freed), which would count one run's cleanup in the next. On /dev/shm each goes once measured.
    keep = not base.startswith("/dev/shm")
    shutil.rmtree(base, ignore_errors=True)
    for powers, per in sizes:
        size_dir = os.path.join(base, f"{powers}x{per}")
        unresolved = os.path.join(size_dir, "unresolved")
        png = "true" if "--map-png" in sys.argv else "false"
        subprocess.run([SYNTH, unresolved, "--powers", str(powers), "--units-per-power", str(per),
                        "--map-png", png], check=True, capture_output=True)
        before = set(os.path.relpath(p, unresolved) for p in files(unresolved))
        # Each run resolves a fresh copy for the first time, as the referee does.
        runs, games = [], []
        for i in range(RUNS):
            game = os.path.join(size_dir, f"game-{i}")
            shutil.copytree(unresolved, game)
            os.sync()
            runs.append(timed([PBEM, "resolve", game]))
            games.append(game)
            if not keep and i + 1 < RUNS:
                shutil.rmtree(game)
        game = games[-1]
        # Resolving again (`--force`) also removes what the first resolution wrote.
        again = timed([PBEM, "resolve", game, "--turn", "1", "--force"])
        written = sorted(os.path.relpath(p, game) for p in files(game)
                         if os.path.relpath(p, game) not in before and not p.endswith(".lock"))
        total = sum(os.path.getsize(os.path.join(game, r)) for r in written)
        floors = []
        for i in range(RUNS):
            out = os.path.join(size_dir, f"floor-{i}")
            floors.append(floor(game, written, out))
            if not keep:
                shutil.rmtree(out)
        wall = statistics.median(r[0] for r in runs)
        rss = statistics.median(r[1] for r in runs)
        cpu = statistics.median(r[2] for r in runs)
        fl = statistics.median(f[0] for f in floors)
        flcpu = statistics.median(f[1] for f in floors)
        p, size, seen, upto100 = largest_power(game)
        rows.append((powers, powers * per, wall, cpu, rss, fl, flcpu, len(written), total, p, size, seen,
                     upto100, again[0]))
        print(f"{powers} powers, {powers * per} units: {wall:.2f} s ({cpu:.2f} s CPU), {rss:.0f} MiB, "
              f"again with --force {again[0]:.2f} s, "
              f"floor {fl:.2f} s ({flcpu:.2f} s CPU), {len(written)} files, {total / 1e6:.1f} MB; "
              f"largest power {p}: {size / 1e6:.2f} MB, sees {seen} units; at most 100 units seen: "
              f"{upto100 / 1e6:.2f} MB", flush=True)
        if not keep:
            shutil.rmtree(size_dir)
    shutil.rmtree(base, ignore_errors=True)
    print()
    print(f"| powers | units | turn: wall, CPU (median of {RUNS}) | again with --force: wall | floor: wall, CPU | ratio (wall, CPU) | peak RSS | files written | bytes written | largest power's reports and mail (units it sees) | largest of a power seeing at most 100 units |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for powers, units, wall, cpu, rss, fl, flcpu, n, total, p, size, seen, upto100, again in rows:
        print(f"| {powers:,} | {units:,} | {wall:.2f} s, {cpu:.2f} s | {again:.2f} s | {fl:.2f} s, {flcpu:.2f} s | "
              f"{wall / fl:.1f}, {cpu / max(flcpu, 0.01):.1f} | {rss:.0f} MiB | {n:,} | {total / 1e6:,.0f} MB | "
              f"{size / 1e6:.2f} MB ({seen}) | {upto100 / 1e6:.2f} MB |")


if __name__ == "__main__":
    main()
