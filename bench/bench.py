#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The measuring and the arithmetic behind bench/*.sh (Debian's python3 only).

Launch commands come after `--` as groups separated by `:::`, each group a
launcher's name then its argv:

    bench.py time --runs 50 --tag root -- nsbox nsbox -- /bin/true ::: bare /bin/true

Measuring (the CSV goes to stdout; the shell script owns the file):
  time       run the launchers interleaved (A B C A B C ...), one row per
             launch: wall time (spawn to wait4) and the CPU time of the
             launcher and every descendant it reaped (wait4's rusage)
  parallel   TOTAL launches of each launcher with at most JOBS running at a
             time; failures counted, launches per second
  memory     start each launcher with a sleeping payload and read PSS, RSS
             and VmHWM of each of its processes (/proc/PID/smaps_rollup);
             --side-by-side K: K sandboxes of a launcher at once
  strace     turn `strace -f -c -U name,calls,errors` output into rows

Reporting:
  table KIND CSV   print the markdown table of a benchmark's CSV
  summary DIR      the headline numbers of DIR/*.csv beside issue 11's targets
  plot DIR         draw DIR/*.svg from DIR/*.csv with gnuplot

Every launch gets /dev/null as stdin, stdout (unless its output is the
measurement) and descriptor 3 (where nsbox writes its record).  A command
whose first word is @subprocess is started the way a harness in Python
starts one, by subprocess.Popen with its default close_fds=True: descriptors
above 2 closed before exec, so it starts with the smallest descriptor table
(and no descriptor 3).  A launch that
exits non-zero fails the benchmark (after printing its stderr), except in
`parallel`, whose failures are the measurement.
"""

import argparse
import csv
import ctypes
import os
import subprocess
import sys
import tempfile
import time

# ---------------------------------------------------------------- launching


def split_launchers(words):
    """['a', 'x', 'y', ':::', 'b', 'z'] -> [('a', ['x', 'y']), ('b', ['z'])]"""
    groups, cur = [], []
    for w in words + [":::"]:
        if w == ":::":
            if len(cur) < 2:
                sys.exit("bench.py: each launcher needs a name and a command")
            groups.append((cur[0], cur[1:]))
            cur = []
        else:
            cur.append(w)
    return groups


class Launch:
    """One launch's outcome; ru: the rusages of every process reaped."""

    def __init__(self, status, wall, ru, out):
        self.status = status
        self.wall = wall  # seconds
        self.user = sum(r.ru_utime for r in ru)
        self.sys = sum(r.ru_stime for r in ru)
        self.cpu = self.user + self.sys
        self.out = out

    def ok(self):
        return os.WIFEXITED(self.status) and os.WEXITSTATUS(self.status) == 0

    def why(self):
        if os.WIFEXITED(self.status):
            return f"exit {os.WEXITSTATUS(self.status)}"
        if os.WIFSIGNALED(self.status):
            return f"signal {os.WTERMSIG(self.status)}"
        return f"status {self.status}"


PR_SET_CHILD_SUBREAPER = 36


def reap_orphans():
    """Wait for every process left to us; their rusages."""
    rus = []
    while True:
        try:
            _, _, ru = os.wait4(-1, 0)
        except ChildProcessError:
            return rus
        rus.append(ru)


class Spawner:
    """posix_spawn with the standard descriptors; stderr kept per launch.

    We are a child subreaper: a launcher that exits without reaping its
    children (bwrap's monitor leaves its pid 1 to die of its parent-death
    signal) hands them to us, and their CPU time still counts."""

    def __init__(self):
        self.err = tempfile.TemporaryFile()
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            sys.exit(f"bench.py: prctl(PR_SET_CHILD_SUBREAPER): "
                     f"{os.strerror(ctypes.get_errno())}")

    def actions(self, stdout_fd=None):
        fa = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0)]
        if stdout_fd is None:
            fa.append((os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0))
        else:
            fa.append((os.POSIX_SPAWN_DUP2, stdout_fd, 1))
        fa.append((os.POSIX_SPAWN_DUP2, self.err.fileno(), 2))
        fa.append((os.POSIX_SPAWN_OPEN, 3, "/dev/null", os.O_WRONLY, 0))
        return fa

    def spawn(self, argv, stdout_fd=None):
        if argv[0] == "@subprocess":
            p = subprocess.Popen(argv[1:], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL if stdout_fd is None else stdout_fd,
                                 stderr=self.err.fileno())
            # Reaped by our wait4 (its rusage is the measurement): a set
            # returncode keeps Popen from polling it, now in __del__ or
            # later in another Popen's cleanup, and taking its status.
            p.returncode = 0
            return p.pid
        return os.posix_spawnp(argv[0], argv, os.environ, file_actions=self.actions(stdout_fd))

    def run(self, argv, capture=False):
        self.err.seek(0)
        self.err.truncate()
        r = w = None
        if capture:
            r, w = os.pipe()
        t0 = time.perf_counter()
        pid = self.spawn(argv, w)
        out = b""
        if capture:
            os.close(w)
            chunks = []
            while True:
                b = os.read(r, 65536)
                if not b:
                    break
                chunks.append(b)
            os.close(r)
            out = b"".join(chunks)
        _, status, ru = os.wait4(pid, 0)
        t1 = time.perf_counter()
        return Launch(status, t1 - t0, [ru] + reap_orphans(), out)

    def stderr_head(self):
        self.err.seek(0)
        text = self.err.read().decode(errors="replace").splitlines()
        return text[0] if text else ""

    def stderr_tail(self, lines=15):
        self.err.seek(0)
        text = self.err.read().decode(errors="replace").splitlines()
        return "\n".join(text[-lines:])


def fail_launch(sp, name, argv, launch):
    sys.stderr.write(
        f"bench.py: launcher '{name}' failed ({launch.why()}): {' '.join(argv)[:300]}\n"
        f"{sp.stderr_tail()}\n"
    )
    sys.exit(1)


def cmd_time(a):
    launchers = split_launchers(a.cmd)
    sp = Spawner()
    w = csv.writer(sys.stdout, lineterminator="\n")
    if not a.no_header:
        w.writerow(TIME_FIELDS)
    refusable = {k: int(v) for k, v in (r.split("=", 1) for r in a.refusable)}
    refused = set()
    for rnd in range(-a.warmup, a.runs):
        for name, argv in launchers:
            if name in refused:
                continue
            launch = sp.run(argv, capture=a.metric)
            if (not launch.ok() and rnd == -a.warmup and name in refusable
                    and os.WIFEXITED(launch.status)
                    and os.WEXITSTATUS(launch.status) == refusable[name]):
                # its own limit, on its first run: a result, not an error
                why = sp.stderr_head()
                sys.stderr.write(f"{name} refused ({launch.why()}): {why}\n")
                w.writerow([a.tag, a.param, name, 0, "", "", "", "", why, "refused"])
                refused.add(name)
                continue
            if not launch.ok():
                fail_launch(sp, name, argv, launch)
            metric = ""
            if a.metric:
                words = launch.out.decode(errors="replace").split()
                if not words:
                    sys.exit(f"bench.py: '{name}' printed nothing to measure")
                metric = words[0]
            if rnd >= 0:
                w.writerow([a.tag, a.param, name, rnd, f"{launch.wall * 1e3:.4f}",
                            f"{launch.cpu * 1e3:.3f}", f"{launch.user * 1e3:.3f}",
                            f"{launch.sys * 1e3:.3f}", metric, "ok"])
    sys.stdout.flush()


TIME_FIELDS = ["tag", "param", "launcher", "round", "wall_ms", "cpu_ms", "user_ms", "sys_ms",
               "metric", "status"]


def cmd_parallel(a):
    launchers = split_launchers(a.cmd)
    sp = Spawner()
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["tag", "launcher", "jobs", "round", "launches", "failures", "wall_s",
                "per_s", "cpu_s"])
    for rnd in range(a.runs):
        for jobs in a.jobs:
            for name, argv in launchers:
                limit = a.total if jobs == 0 else jobs
                running, started, failures, cpu = set(), 0, 0, 0.0
                first_error = None
                t0 = time.perf_counter()
                while started < a.total or running:
                    while started < a.total and len(running) < limit:
                        started += 1
                        try:
                            running.add(sp.spawn(argv))
                        except OSError as e:
                            failures += 1
                            first_error = first_error or f"spawn: {e}"
                    if not running:
                        continue
                    pid, status, ru = os.wait4(-1, 0)
                    cpu += ru.ru_utime + ru.ru_stime
                    if pid not in running:
                        continue  # an orphan handed to us
                    running.discard(pid)
                    outcome = Launch(status, 0, [], b"")
                    if not outcome.ok():
                        failures += 1
                        first_error = first_error or outcome.why()
                wall = time.perf_counter() - t0
                cpu += sum(r.ru_utime + r.ru_stime for r in reap_orphans())
                if failures:
                    sys.stderr.write(f"bench.py: {name} x{a.total} (jobs {jobs or 'all'}): "
                                     f"{failures} failed, first: {first_error}\n"
                                     f"{sp.stderr_tail(5)}\n")
                w.writerow([a.tag, name, jobs, rnd, a.total, failures, f"{wall:.4f}",
                            f"{a.total / wall:.2f}", f"{cpu:.4f}"])
                sys.stdout.flush()


def proc_table():
    """pid -> (ppid, comm) for every process we can see."""
    procs = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
        except OSError:
            continue
        comm = s[s.index("(") + 1:s.rindex(")")]
        ppid = int(s[s.rindex(")") + 2:].split()[1])
        procs[int(d)] = (ppid, comm)
    return procs


def descendants(root):
    """[(pid, depth, comm)] of root and every process below it, breadth first."""
    procs = proc_table()
    kids = {}
    for pid, (ppid, _) in procs.items():
        kids.setdefault(ppid, []).append(pid)
    out, todo = [], [(root, 0)]
    while todo:
        pid, depth = todo.pop(0)
        if pid not in procs:
            continue
        out.append((pid, depth, procs[pid][1]))
        todo.extend((k, depth + 1) for k in sorted(kids.get(pid, [])))
    return out


def read_kb(path, keys):
    vals = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in keys:
                vals[k] = int(v.split()[0])
    return vals


def wait_payloads(sp, name, argv, pids, a):
    """Wait until every launch in pids shows its payload."""
    deadline = time.monotonic() + a.wait
    trees = {}
    while time.monotonic() < deadline:
        for pid in pids:
            done, status, ru = os.wait4(pid, os.WNOHANG)
            if done == pid:
                launch = Launch(status, 0, [ru], b"")
                if not launch.ok():
                    fail_launch(sp, name, argv, launch)
                sys.exit(f"bench.py: {name} ended before its '{a.payload}' was seen")
            trees[pid] = descendants(pid)
        if all(any(d > 0 and c == a.payload for _, d, c in trees[p]) for p in pids):
            return
        time.sleep(0.005)
    for pid in pids:
        os.kill(pid, 9)
        os.wait4(pid, 0)
    sys.exit(f"bench.py: {name}: no '{a.payload}' payload after {a.wait} s\n"
             f"{sp.stderr_tail()}")


def cmd_memory(a):
    launchers = split_launchers(a.cmd)
    roles = dict(r.split("=", 1) for r in a.roles)
    sp = Spawner()
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["tag", "launcher", "round", "role", "pid", "pss_kb", "rss_kb", "hwm_kb"])
    # Side by side, pages shared by every sandbox (the launcher's text,
    # the libraries) divide among them all: PSS is then what one more
    # sandbox costs.
    tag = a.tag if a.side_by_side == 1 else f"{a.tag}, {a.side_by_side} side by side"
    for rnd in range(a.runs):
        for name, argv in launchers:
            sp.err.seek(0)
            sp.err.truncate()
            pids = [sp.spawn(argv) for _ in range(a.side_by_side)]
            wait_payloads(sp, name, argv, pids, a)
            time.sleep(a.settle)
            names = roles.get(name, "").split(",") if roles.get(name) else []
            rows = []
            for pid in pids:
                for p, depth, comm in descendants(pid):
                    role = "payload" if comm == a.payload and depth > 0 else (
                        names[depth] if depth < len(names) else f"{comm}@{depth}")
                    try:
                        m = read_kb(f"/proc/{p}/smaps_rollup", ("Pss", "Rss"))
                        s = read_kb(f"/proc/{p}/status", ("VmHWM",))
                    except OSError as e:
                        sys.exit(f"bench.py: {name}: read /proc/{p}: {e}")
                    rows.append([tag, name, rnd, role, p, m.get("Pss", 0), m.get("Rss", 0),
                                 s.get("VmHWM", 0)])
            # Every launcher first (reap_orphans would take them too).
            ends = [os.wait4(pid, 0) for pid in pids]
            orphans = reap_orphans()
            for _, status, ru in ends:
                launch = Launch(status, 0, [ru] + orphans, b"")
                if not launch.ok():
                    fail_launch(sp, name, argv, launch)
            w.writerows(rows)
            sys.stdout.flush()


def cmd_strace(a):
    w = csv.writer(sys.stdout, lineterminator="\n")
    with open(a.file) as f:
        for line in f:
            words = line.split()
            if len(words) < 2 or not words[1].isdigit():
                continue
            errors = words[2] if len(words) > 2 else "0"
            w.writerow([a.tag, a.launcher, a.round, words[0], words[1], errors])


# ---------------------------------------------------------------- reporting


def pct(xs, q):
    """q-quantile of xs, linear between the closest ranks."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    i = int(k)
    j = min(i + 1, len(xs) - 1)
    return xs[i] + (xs[j] - xs[i]) * (k - i)


def med(xs):
    return pct(xs, 0.5)


def load(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def groups(rows, *keys):
    """ordered {key tuple: [rows]} in first-seen order."""
    out = {}
    for r in rows:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return out


def numeric(cell):
    text = str(cell).strip("* ").split(" (")[0]
    try:
        float(text)
        return True
    except ValueError:
        return text in ("", "-", "refused")


def md_table(head, rows):
    """A markdown table; columns of numbers align right."""
    right = [all(numeric(r[i]) for r in rows) for i in range(len(head))]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join("---:" if right[i] else "---" for i in range(len(head))) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def ratio(a, b, fmt="{:.2f}"):
    if b is None or a is None or b == 0 or a != a or b != b:
        return "-"
    return fmt.format(a / b)


def spread(xs, digits=2):
    return (f"{med(xs):.{digits}f} ({pct(xs, .1):.{digits}f}-{pct(xs, .9):.{digits}f})")


def paired_ratio(rows, a, b, col="wall_ms"):
    """median over rounds of a's value / b's value in the same round."""
    by = {}
    for r in rows:
        by.setdefault(r["round"], {})[r["launcher"]] = float(r[col])
    rs = [v[a] / v[b] for v in by.values() if a in v and b in v and v[b] > 0]
    return med(rs) if rs else None


def table_latency(rows):
    head = ["user", "launcher", "n", "wall ms: median (p10-p90)", "CPU ms: median (p10-p90)",
            "nsbox / this, wall", "paired", "nsbox / this, CPU"]
    out = []
    for (tag,), rs in groups(rows, "tag").items():
        by = groups(rs, "launcher")
        wall = {k[0]: [float(r["wall_ms"]) for r in v] for k, v in by.items()}
        cpu = {k[0]: [float(r["cpu_ms"]) for r in v] for k, v in by.items()}
        for name in wall:
            out.append([tag, name, len(wall[name]), spread(wall[name]), spread(cpu[name]),
                        ratio(med(wall.get("nsbox", [])), med(wall[name])),
                        ratio(paired_ratio(rs, "nsbox", name), 1) if "nsbox" in wall else "-",
                        ratio(med(cpu.get("nsbox", [])), med(cpu[name]))])
    return md_table(head, out) + (
        "\nwall: from posix_spawn to wait4; CPU: user + system time of every process of the "
        "launch (wait4's rusage; the driver is a child subreaper, so a process the launcher "
        "leaves unreaped counts too); paired: median of the per-round ratios.\n")


def table_syscalls(rows):
    out = []
    head = ["user", "launcher", "syscalls per launch", "errors", "top 5 (calls)",
            "nsbox / this"]
    for (tag,), rs in groups(rows, "tag").items():
        totals = {}
        for (name,), lr in groups(rs, "launcher").items():
            tot = [int(r["calls"]) for r in lr if r["syscall"] == "total"]
            err = [int(r["errors"] or 0) for r in lr if r["syscall"] == "total"]
            per = {}
            for r in lr:
                if r["syscall"] != "total":
                    per.setdefault(r["syscall"], []).append(int(r["calls"]))
            nrounds = len(tot)
            top = sorted(per.items(), key=lambda kv: -sum(kv[1]))[:5]
            totals[name] = (med(tot), med(err),
                            ", ".join(f"{k} {sum(v) / nrounds:.0f}" for k, v in top))
        for name, (t, e, top) in totals.items():
            out.append([tag, name, f"{t:.0f}", f"{e:.0f}", top,
                        ratio(totals.get("nsbox", (None,))[0], t)])
    return md_table(head, out) + "\n`strace -f -c`, median over runs; top 5: mean calls.\n"


def memory_summary(rows):
    """{(tag, launcher): {role: (pss, rss, hwm) medians}} in order, roles in order."""
    res = {}
    for (tag, name), rs in groups(rows, "tag", "launcher").items():
        roles = {}
        for (role,), rr in groups(rs, "role").items():
            roles[role] = tuple(med([float(r[c]) for r in rr if r[c] != ""]) / 1024
                                for c in ("pss_kb", "rss_kb", "hwm_kb"))
        res[(tag, name)] = roles
    return res


def table_memory(rows):
    head = ["user", "sandbox", "process", "PSS MiB", "RSS MiB", "VmHWM MiB"]
    out = []
    sums = {}
    for (tag, name), roles in memory_summary(rows).items():
        pss_sum = 0.0
        for role, (pss, rss, hwm) in roles.items():
            out.append([tag, name, role, f"{pss:.2f}", f"{rss:.2f}", f"{hwm:.2f}"])
            if role != "payload":
                pss_sum += pss
        out.append([tag, name, "**sum without the payload**", f"**{pss_sum:.2f}**", "", ""])
        sums[(tag, name)] = pss_sum
    text = md_table(head, out)
    for tag in dict.fromkeys(t for t, _ in sums):
        n, b = sums.get((tag, "nsbox")), sums.get((tag, "bwrap"))
        text += f"\n{tag}: nsbox / bwrap PSS sum = {ratio(n, b)}"
    return text + ("\n\nRead from /proc/PID/smaps_rollup and /proc/PID/status while the "
                   "payload (`sleep`) runs, 0.3 s after it appears (bench/memory.sh: nsbox "
                   "gives back its setup's pages once a sandbox has lived 100 ms, and while "
                   "every CPU is busy on the first later try that finds one free); medians "
                   "over runs.\n")


def binds_summary(rows):
    """{N: {launcher: median ms, or its status}}, {N: {launcher: us per bind}}"""
    wall, per = {}, {}
    for (n,), rs in groups(rows, "param").items():
        n = int(n)
        by = groups(rs, "launcher")
        for name in ("nsbox", "bwrap"):
            lr = by.get((name,), [])
            if not lr:
                continue
            if lr[0]["status"] != "ok":
                wall.setdefault(n, {})[name] = lr[0]["status"]
                continue
            wall.setdefault(n, {})[name] = med([float(r["wall_ms"]) for r in lr])
            base = {r["round"]: float(r["wall_ms"]) for r in by.get((name + "-0",), [])}
            d = [(float(r["wall_ms"]) - base[r["round"]]) * 1000 / n for r in lr
                 if r["round"] in base]
            if d and n > 0:
                per.setdefault(n, {})[name] = med(d)
    return wall, per


def table_binds(rows):
    head = ["--ro binds", "nsbox ms", "bwrap ms", "nsbox / bwrap", "nsbox us per bind",
            "bwrap us per bind"]
    wall, per = binds_summary(rows)
    out = []
    for n in sorted(wall):
        c = wall[n]
        fmt = [f"{c[k]:.2f}" if isinstance(c.get(k), float) else c.get(k, "-")
               for k in ("nsbox", "bwrap")]
        both = all(isinstance(c.get(k), float) for k in ("nsbox", "bwrap"))
        p = per.get(n, {})
        out.append([n, fmt[0], fmt[1], ratio(c["nsbox"], c["bwrap"]) if both else "-",
                    f"{p['nsbox']:.1f}" if "nsbox" in p else "-",
                    f"{p['bwrap']:.1f}" if "bwrap" in p else "-"])
    return md_table(head, out) + (
        "\nMedian wall time of `/bin/true` with N extra read-only binds of empty directories; "
        "per bind: the median over rounds of (time(N) - time(0)) / N, time(0) taken in the same "
        "round.  refused: the launcher would not run (nsbox's cap, bwrap's 9000 arguments).\n")


def scan_per_entry(rows, tag, entries):
    """median over rounds of (nsbox - scan-off) / entries, in microseconds."""
    by = {}
    for r in rows:
        if r["tag"] == tag and r["param"] == entries and r["status"] == "ok":
            by.setdefault(r["round"], {})[r["launcher"]] = float(r["wall_ms"])
    n = int(entries)
    d = [(v["nsbox"] - v["scan-off"]) * 1e3 / n for v in by.values()
         if n > 0 and "nsbox" in v and "scan-off" in v]
    return med(d) if d else None


def table_scan(rows):
    head = ["user", "entries scanned", "nsbox ms", "scan off ms", "bwrap ms", "nsbox / bwrap",
            "scan us per entry"]
    out = []
    for (tag, entries), rs in groups(rows, "tag", "param").items():
        wall = {k[0]: med([float(r["wall_ms"]) for r in v])
                for k, v in groups(rs, "launcher").items()}
        per = scan_per_entry(rs, tag, entries)
        out.append([tag, entries] + [f"{wall[k]:.2f}" if k in wall else "-"
                                     for k in ("nsbox", "scan-off", "bwrap")]
                   + [ratio(wall.get("nsbox"), wall.get("bwrap")),
                      f"{per:.2f}" if per is not None else "-"])
    return md_table(head, out) + (
        "\nMedian wall time of `/bin/true` run in a project of that many entries (files and "
        "folders, as the record's enforced.masked.scanned counts them); scan off: "
        "`--no-mask --no-protect`; per entry: the median over rounds of (nsbox - scan off) / "
        "entries, both from the same round.\n")


def table_parallel(rows):
    head = ["user", "concurrency", "launcher", "launches", "failures", "wall s",
            "launches/s", "nsbox / this"]
    out = []
    for (tag, jobs), rs in groups(rows, "tag", "jobs").items():
        per = {}
        for (name,), lr in groups(rs, "launcher").items():
            per[name] = (sum(int(r["launches"]) for r in lr), sum(int(r["failures"]) for r in lr),
                         med([float(r["wall_s"]) for r in lr]),
                         med([float(r["per_s"]) for r in lr]))
        for name, (n, f, wall, ps) in per.items():
            out.append([tag, "unbounded" if jobs == "0" else jobs, name, n, f, f"{wall:.2f}",
                        f"{ps:.0f}", ratio(per.get("nsbox", (0, 0, 0, None))[3], ps)])
    return md_table(head, out) + (
        "\nEach round starts the launches as fast as the concurrency allows and waits for all; "
        "medians over rounds, launches and failures summed.\n")


def table_seccomp(rows):
    head = ["system call", "profile", "ns per call: median (p10-p90)",
            "/ one-line `default allow`", "/ floor"]
    out = []
    for (call,), rs in groups(rows, "param").items():
        # make: the wall time of a whole build (ms), not ns per call
        key = "wall_ms" if call == "make" else "metric"
        by = {k[0]: [float(r[key]) for r in v] for k, v in groups(rs, "launcher").items()}
        base = med(by["allow"]) if "allow" in by else None
        floor = med(by["floor"]) if "floor" in by else None
        label = "make -B (ms)" if call == "make" else call
        out += [[label, name, spread(v, 1), ratio(med(v), base, "{:.3f}"),
                 ratio(med(v), floor, "{:.3f}") if floor else "-"]
                for name, v in by.items()]
    return md_table(head, out) + (
        "\nbench/sysloop.c inside the sandbox: a loop of raw calls timed with clock_gettime; "
        "getppid is allowed outright by every profile, fcntl(F_GETFD) is filtered on its "
        "argument by the default profile.  host: no sandbox; none: --seccomp none; floor: the "
        "one-line profile plus the default profile's fcntl rules (the least a filter that "
        "enforces them costs: the kernel's cache skips only filters that ignore arguments).  "
        "make -B: a "
        "7-file C project built inside nsbox (--rw), whole-build wall time.  Medians "
        "over interleaved runs.\n")


def table_pump(rows):
    head = ["mode", "MB/s: median (p10-p90)", "best MB/s", "/ direct"]
    by = {}
    for r in rows:
        by.setdefault(r["launcher"], []).append(int(r["param"]) / (float(r["wall_ms"]) / 1e3)
                                                / 1e6)
    base = med(by["direct"]) if "direct" in by else None
    out = [[name, spread(v, 0), f"{max(v):.0f}", ratio(med(v), base)] for name, v in by.items()]
    return md_table(head, out) + (
        "\nhost: no sandbox; direct: nsbox, the payload writes to the caller's pipe; pump: "
        "nsbox --max-output, through the supervisor; bwrap: the payload writes to the pipe.\n")


GUEST_STEPS = [
    ("syscall", "a system call (getppid)"),
    ("fault_anon", "first write to a fresh anonymous page, per page"),
    ("populate_write", "the same after MADV_POPULATE_WRITE of the pages, per page (populate included)"),
    ("fork_parent", "fork, until it returns in the parent"),
    ("fork_child_runs", "fork, until the child runs (its new address space)"),
    ("exit_reaped", "exit, until the parent's waitpid returns"),
    ("vfork_reaped", "vfork (the child on its parent's memory), until reaped"),
    ("fork_exec_static", "fork, exec of a static program, exit, reaped"),
    ("wake_same_cpu", "wake-up of a process blocked on a pipe, on the waker's CPU"),
    ("wake_other_cpu", "the same on another CPU, idle for 1 ms"),
]


def table_guest(rows):
    head = ["step", "median", "p10", "p90", "unit"]
    by = {r["measure"]: r for r in rows}
    out = []
    for key, what in GUEST_STEPS:
        r = by.get(key)
        if r is None:
            continue
        cells = [r[c] if r[c] == "-" else f"{float(r[c]):.{0 if r['unit'] == 'ns' else 1}f}"
                 for c in ("median", "p10", "p90")]
        out.append([what] + cells + [r["unit"]])
    return md_table(head, out) + (
        "\nbench/guestcost.c, as the caller, outside any sandbox: what this machine charges for "
        "the steps every launcher repeats.  A launch of `/bin/true` execs twice with each "
        "launcher (itself, then the command); besides, nsbox forks once (init) and vforks "
        "once (the command), bwrap forks twice (its pid 1, the command) and `unshare "
        "--fork` once.  Launch ratios move with these from machine to machine.\n")


def summary(d):
    """The headline numbers of every CSV in d, next to issue 11's targets."""
    out = []

    def row(what, n, ref_name, ref, r, target, fmt="{:.2f}"):
        out.append([what, fmt.format(n) if isinstance(n, float) else n,
                    f"{ref_name} " + (fmt.format(ref) if isinstance(ref, float) else str(ref)),
                    r, target])

    if os.path.exists(f"{d}/latency.csv"):
        for (tag,), rs in groups(load(f"{d}/latency.csv"), "tag").items():
            by = groups(rs, "launcher")
            wall = {k[0]: med([float(r["wall_ms"]) for r in v]) for k, v in by.items()}
            cpu = {k[0]: med([float(r["cpu_ms"]) for r in v]) for k, v in by.items()}
            n = wall.get("nsbox")
            if n is None:
                continue
            row(f"launch wall ms, as {tag}", n, "bwrap", wall.get("bwrap", "-"),
                ratio(n, wall.get("bwrap")), "≤ 0.8")
            row(f"launch wall ms, as {tag}", n, "unshare", wall.get("unshare", "-"),
                ratio(n, wall.get("unshare")), "≤ 1.5")
            row(f"launch CPU ms, as {tag}", cpu["nsbox"], "bwrap", cpu.get("bwrap", "-"),
                ratio(cpu["nsbox"], cpu.get("bwrap")), "≤ 1.0")
            if "nsbox-subprocess" in wall:
                row(f"launch wall ms by subprocess.run, as {tag}", wall["nsbox-subprocess"],
                    "bwrap", wall.get("bwrap", "-"),
                    ratio(wall["nsbox-subprocess"], wall.get("bwrap")), "≤ 0.8")
    if os.path.exists(f"{d}/syscalls.csv"):
        for (tag,), rs in groups(load(f"{d}/syscalls.csv"), "tag").items():
            tot = {k[0]: med([int(r["calls"]) for r in v if r["syscall"] == "total"])
                   for k, v in groups(rs, "launcher").items()}
            if "nsbox" in tot and "bwrap" in tot:
                row(f"syscalls per launch, as {tag}", tot["nsbox"], "bwrap", tot["bwrap"],
                    ratio(tot["nsbox"], tot["bwrap"]), "< 1", "{:.0f}")
    if os.path.exists(f"{d}/memory.csv"):
        summ = memory_summary(load(f"{d}/memory.csv"))
        for tag in dict.fromkeys(t for t, _ in summ):
            n, b = summ.get((tag, "nsbox")), summ.get((tag, "bwrap"))
            if not n or not b:
                continue
            ps = {k: sum(v[0] for r, v in m.items() if r != "payload")
                  for k, m in (("nsbox", n), ("bwrap", b))}
            hwm = {k: max(v[2] for r, v in m.items() if r != "payload")
                   for k, m in (("nsbox", n), ("bwrap", b))}
            row(f"PSS MiB, all processes but the payload, as {tag}", ps["nsbox"], "bwrap",
                ps["bwrap"], ratio(ps["nsbox"], ps["bwrap"]), "≤ 1")
            row(f"largest peak RSS (VmHWM) of one process MiB, as {tag}", hwm["nsbox"], "bwrap",
                hwm["bwrap"], "-", "nsbox ≤ 2")
    if os.path.exists(f"{d}/binds.csv"):
        rows = load(f"{d}/binds.csv")
        wall, per = binds_summary(rows)
        ran = sorted(n for n, c in wall.items() if isinstance(c.get("nsbox"), float))
        refused = sorted(n for n, c in wall.items() if c.get("nsbox") == "refused")
        row("most --ro binds nsbox ran", f"{ran[-1] if ran else '-'}", "first refused",
            f"{refused[0] if refused else 'none'}", "-", "≥ 4096")
        for n in (1024, 1000):
            c = wall.get(n, {})
            if all(isinstance(c.get(k), float) for k in ("nsbox", "bwrap")):
                row(f"ms with {n} --ro binds", c["nsbox"], "bwrap", c["bwrap"],
                    ratio(c["nsbox"], c["bwrap"]), "≤ 0.2")
        pn = sorted(n for n, p in per.items() if "nsbox" in p)
        if len(pn) > 1:
            lo, hi = pn[0], pn[-1]
            a, b = per[hi]["nsbox"], per[lo]["nsbox"]
            row(f"nsbox us per bind at {hi} binds", a, f"at {lo}:", b,
                ratio(a, b) if a > 0 and b > 0 else "- (noise)", "≤ 2")
    if os.path.exists(f"{d}/throughput.csv"):
        for (tag, jobs), rs in groups(load(f"{d}/throughput.csv"), "tag", "jobs").items():
            per = {k[0]: (med([float(r["per_s"]) for r in v]),
                          sum(int(r["failures"]) for r in v))
                   for k, v in groups(rs, "launcher").items()}
            if "nsbox" in per and "bwrap" in per:
                conc = "all at once" if jobs == "0" else f"{jobs} at a time"
                row(f"launches/s, {conc}, as {tag} (failures: nsbox {per['nsbox'][1]}, "
                    f"bwrap {per['bwrap'][1]})", per["nsbox"][0], "bwrap", per["bwrap"][0],
                    ratio(per["nsbox"][0], per["bwrap"][0]), "≥ 1, no failure", "{:.0f}")
    if os.path.exists(f"{d}/seccomp.csv"):
        for (call,), rs in groups(load(f"{d}/seccomp.csv"), "param").items():
            # make: a whole build's wall time (issue 13: ≤ 1.01), not ns per call
            key = "wall_ms" if call == "make" else "metric"
            by = {k[0]: med([float(r[key]) for r in v])
                  for k, v in groups(rs, "launcher").items()}
            for prof in ("default", "strict"):
                if prof in by and "allow" in by:
                    what = (f"ms per make -B, {prof} profile" if call == "make"
                            else f"ns per {call}, {prof} profile")
                    row(what, by[prof], "allow", by["allow"],
                        ratio(by[prof], by["allow"], "{:.3f}"),
                        "≤ 1.01" if call == "make" else "≤ 1.02", "{:.1f}")
            if "default" in by and "floor" in by:
                row(f"ns per {call}, default profile, against its floor", by["default"],
                    "floor", by["floor"], ratio(by["default"], by["floor"], "{:.3f}"),
                    "(what the rest of the profile adds)", "{:.1f}")
    if os.path.exists(f"{d}/scan.csv"):
        rows = load(f"{d}/scan.csv")
        for (tag, entries), rs in groups(rows, "tag", "param").items():
            if entries == max((r["param"] for r in rows), key=int) and int(entries) > 0:
                wall = {k[0]: med([float(r["wall_ms"]) for r in v])
                        for k, v in groups(rs, "launcher").items()}
                per = scan_per_entry(rs, tag, entries)
                what = f"launch wall ms in a project of {entries} entries, as {tag}"
                if per is not None:
                    what += f" (the scan: {per:.2f} us per entry)"
                row(what, wall.get("nsbox", "-"), "bwrap", wall.get("bwrap", "-"),
                    ratio(wall.get("nsbox"), wall.get("bwrap")), "(measured, no target)")
    if os.path.exists(f"{d}/pump.csv"):
        by = {}
        for r in load(f"{d}/pump.csv"):
            by.setdefault(r["launcher"], []).append(
                int(r["param"]) / (float(r["wall_ms"]) / 1e3) / 1e6)
        if "pump" in by and "direct" in by:
            row("pump MB/s (--max-output)", med(by["pump"]), "direct", med(by["direct"]),
                ratio(med(by["pump"]), med(by["direct"])), "-", "{:.0f}")
    return md_table(["measure", "nsbox", "reference", "nsbox / reference", "target"], out)


def cmd_summary(a):
    sys.stdout.write(summary(a.dir))


TABLES = {"latency": table_latency, "syscalls": table_syscalls, "memory": table_memory,
          "binds": table_binds, "throughput": table_parallel, "seccomp": table_seccomp,
          "pump": table_pump, "scan": table_scan,
          "guest": table_guest}


def cmd_table(a):
    sys.stdout.write(TABLES[a.kind](load(a.csv)))


# ------------------------------------------------------------------ plots


GP_HEAD = """set terminal svg size {w},{h} dynamic font 'sans,11' background '#ffffff'
set output '{out}'
set grid
set key {key}
"""


def gnuplot(script, out):
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode != 0:
        sys.exit(f"bench.py: gnuplot failed for {out}:\n{r.stderr}")
    print(f"  plot    {out}")


def write_dat(path, blocks):
    """blocks: [(title, [(x, y), ...])], gnuplot index blocks."""
    with open(path, "w") as f:
        for title, pts in blocks:
            f.write(f"# {title}\n")
            for p in pts:
                f.write(" ".join(str(v) for v in p) + "\n")
            f.write("\n\n")


def q(s):
    return "'" + s.replace("'", "") + "'"


def plot_latency(d):
    rows = load(f"{d}/latency.csv")
    tags = list(groups(rows, "tag"))
    s = GP_HEAD.format(w=560 * len(tags), h=420, out=f"{d}/latency.svg",
                       key="bottom right")
    s += "set logscale x\nset xlabel 'wall time per launch of /bin/true (ms, log)'\n"
    s += "set ylabel 'fraction of launches'\nset yrange [0:1]\n"
    s += f"set multiplot layout 1,{len(tags)}\n"
    for (tag,) in tags:
        by = groups([r for r in rows if r["tag"] == tag], "launcher")
        blocks = []
        for (name,), rs in by.items():
            xs = sorted(float(r["wall_ms"]) for r in rs)
            blocks.append((name, [(xs[0], 0)] + [(x, (i + 1) / len(xs))
                                                 for i, x in enumerate(xs)]))
        dat = f"{d}/latency-{tag}.dat"
        write_dat(dat, blocks)
        s += f"set title {q('as ' + tag)}\n"
        s += "plot " + ", ".join(f"{q(dat)} index {i} using 1:2 with steps lw 2 title {q(t)}"
                                 for i, (t, _) in enumerate(blocks)) + "\n"
    s += "unset multiplot\n"
    gnuplot(s, f"{d}/latency.svg")


def plot_binds(d):
    wall, _ = binds_summary(load(f"{d}/binds.csv"))
    blocks = [(name, [(n, c[name]) for n, c in sorted(wall.items())
                      if isinstance(c.get(name), float)]) for name in ("nsbox", "bwrap")]
    dat = f"{d}/binds.dat"
    write_dat(dat, blocks)
    s = GP_HEAD.format(w=640, h=420, out=f"{d}/binds.svg", key="top left")
    s += "set logscale xy\nset xlabel 'number of --ro binds (log)'\n"
    s += "set ylabel 'median wall time per launch (ms, log)'\n"
    s += "plot " + ", ".join(f"{q(dat)} index {i} using 1:2 with linespoints lw 2 pt 7 "
                             f"title {q(t)}" for i, (t, _) in enumerate(blocks)) + "\n"
    gnuplot(s, f"{d}/binds.svg")


def plot_memory(d):
    summ = memory_summary(load(f"{d}/memory.csv"))
    roles_by = {k: [r for r in v if r != "payload"]
                for k, v in summ.items()}
    width = max(len(v) for v in roles_by.values())
    dat = f"{d}/memory.dat"
    with open(dat, "w") as f:
        for (tag, name), roles in roles_by.items():
            vals = [summ[(tag, name)][r][0] for r in roles] + [0] * (width - len(roles))
            f.write(f"\"{name}\\n({tag})\" " + " ".join(f"{v:.3f}" for v in vals) + "\n")
    s = GP_HEAD.format(w=640, h=460, out=f"{d}/memory.svg", key="below")
    s += "set style data histogram\nset style histogram rowstacked\nset bmargin 6\n"
    s += "set style fill solid 0.8 border -1\nset boxwidth 0.6\nset yrange [0:*]\n"
    s += "set ylabel 'PSS while the payload sleeps (MiB)'\n"
    titles = ["supervisor / monitor", "init / pid 1"] + [f"process {i + 1}"
                                                         for i in range(2, width)]
    s += "plot " + ", ".join(f"{q(dat)} using {i + 2}:xtic(1) title {q(titles[i])}"
                             for i in range(width)) + "\n"
    gnuplot(s, f"{d}/memory.svg")


def plot_bars(d, name, ylabel, rows_xy):
    dat = f"{d}/{name}.dat"
    with open(dat, "w") as f:
        for label, y in rows_xy:
            f.write(f"\"{label}\" {y:.3f}\n")
    s = GP_HEAD.format(w=640, h=420, out=f"{d}/{name}.svg", key="off")
    s += "set style fill solid 0.8 border -1\nset boxwidth 0.6\nset yrange [0:*]\n"
    s += f"set ylabel {q(ylabel)}\n"
    s += f"plot {q(dat)} using 0:2:xtic(1) with boxes lc rgb '#4a7fb5', " \
         f"'' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,0.7 notitle\n"
    gnuplot(s, f"{d}/{name}.svg")


def plot_pump(d):
    rows = load(f"{d}/pump.csv")
    by = groups(rows, "launcher")
    plot_bars(d, "pump", "MB/s through a pipe to the caller (median)",
              [(k[0], med([int(r["param"]) / float(r["wall_ms"]) / 1e3 for r in v]))
               for k, v in by.items()])


def plot_parallel(d):
    rows = load(f"{d}/throughput.csv")
    cells = {}
    for (tag, jobs, name), v in groups(rows, "tag", "jobs", "launcher").items():
        label = f"{tag}\\n{'all at once' if jobs == '0' else jobs + ' at a time'}"
        cells.setdefault(label, {})[name] = med([float(r["per_s"]) for r in v])
    names = list(dict.fromkeys(n for c in cells.values() for n in c))
    dat = f"{d}/throughput.dat"
    with open(dat, "w") as f:
        for label, c in cells.items():
            f.write(f"\"{label}\" " + " ".join(f"{c.get(n, 0):.2f}" for n in names) + "\n")
    s = GP_HEAD.format(w=640, h=460, out=f"{d}/throughput.svg", key="below")
    s += "set style data histogram\nset style histogram clustered gap 1\nset bmargin 6\n"
    s += "set style fill solid 0.8 border -1\nset yrange [0:*]\n"
    s += "set ylabel 'launches of /bin/true per second (median)'\n"
    s += "plot " + ", ".join(f"{q(dat)} using {i + 2}:xtic(1) title {q(n)}"
                             for i, n in enumerate(names)) + "\n"
    gnuplot(s, f"{d}/throughput.svg")


def cmd_plot(a):
    d = a.dir
    for name, fn in (("latency", plot_latency), ("binds", plot_binds),
                     ("memory", plot_memory), ("pump", plot_pump),
                     ("throughput", plot_parallel)):
        if os.path.exists(f"{d}/{name}.csv"):
            fn(d)


# ------------------------------------------------------------------- main


def main():
    p = argparse.ArgumentParser(prog="bench.py")
    sub = p.add_subparsers(dest="sub", required=True)
    t = sub.add_parser("time")
    t.add_argument("--runs", type=int, default=10)
    t.add_argument("--warmup", type=int, default=2)
    t.add_argument("--tag", default="")
    t.add_argument("--param", default="")
    t.add_argument("--metric", action="store_true",
                   help="record the first word of each launch's stdout")
    t.add_argument("--no-header", action="store_true")
    t.add_argument("--refusable", action="append", default=[],
                   help="NAME=CODE: NAME exiting with CODE on its first run is a refusal")
    t.set_defaults(fn=cmd_time)
    pa = sub.add_parser("parallel")
    pa.add_argument("--runs", type=int, default=1)
    pa.add_argument("--total", type=int, default=500)
    pa.add_argument("--jobs", type=int, action="append", required=True,
                    help="most launches at a time; 0: all at once")
    pa.add_argument("--tag", default="")
    pa.set_defaults(fn=cmd_parallel)
    m = sub.add_parser("memory")
    m.add_argument("--runs", type=int, default=3)
    m.add_argument("--tag", default="")
    m.add_argument("--payload", default="sleep")
    m.add_argument("--wait", type=float, default=10.0)
    m.add_argument("--settle", type=float, default=0.05)
    m.add_argument("--roles", action="append", default=[],
                   help="LAUNCHER=ROLE,ROLE...: names of its processes by depth")
    m.add_argument("--side-by-side", type=int, default=1,
                   help="start this many sandboxes of a launcher at once and read them all")
    m.set_defaults(fn=cmd_memory)
    s = sub.add_parser("strace")
    s.add_argument("tag")
    s.add_argument("launcher")
    s.add_argument("round")
    s.add_argument("file")
    s.set_defaults(fn=cmd_strace)
    tb = sub.add_parser("table")
    tb.add_argument("kind", choices=sorted(TABLES))
    tb.add_argument("csv")
    tb.set_defaults(fn=cmd_table)
    su = sub.add_parser("summary")
    su.add_argument("dir")
    su.set_defaults(fn=cmd_summary)
    pl = sub.add_parser("plot")
    pl.add_argument("dir")
    pl.set_defaults(fn=cmd_plot)
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = p.parse_args(argv[:cut])
    a.cmd = argv[cut + 1:]
    if a.sub in ("time", "parallel", "memory") and not a.cmd:
        p.error("no launchers after --")
    a.fn(a)


if __name__ == "__main__":
    main()
