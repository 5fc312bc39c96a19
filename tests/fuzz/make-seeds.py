#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Regenerate the seed corpora in tests/fuzz/corpus/ from the unit-test
fixtures and a few hand-written cases.  Run from the repository root; the
output is committed, so CI needs no Python for fuzzing."""
import glob
import hashlib
import os

ROOT = "tests/fuzz/corpus"


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def argv(*a):
    return b"\0".join(x.encode() if isinstance(x, str) else x for x in a)


# profiles: every unit-test fixture
for p in sorted(glob.glob("tests/unit/fixtures/profiles/**/*.profile", recursive=True)):
    with open(p, "rb") as f:
        put("fuzz_profile", f.read())
put("fuzz_profile", "default errno EPERM\ninclude common\ninclude groups\n@more allow\n")
put("fuzz_profile", "default allow\ninclude self\n")
put("fuzz_profile", "default allow\ninclude bad\n")
put("fuzz_profile", "include dflt\nbadarch kill\nopenat errno EACCES if arg2 &= 3 == 1\n")

# policies
for t in [
    "# a comment\n\ndeny-exec curl\n  deny-exec\twget  \ndeny-exec mkfs.*\nallow-exec rm\r\n"
    "allow-inline-code\nallow-metachar  \nallow-path /opt/data\nallow-path /srv/my dir  \n",
    "deny-exec curl\nallow-exec rm\n",
    "bogus x\n",
    "deny-exec rm # why\n",
    "allow-path /a/../b\n",
    "allow-path relative\n",
    "metachar strict\nmetachar syntax\nmetachar off\nmetachar bogus\n",
    "",
    "wrapper w run=env skip=1 dash adjust lenient input-args input-commands shell subst={ "
    "end=::: -a -b= -c? -d! -e. -f@ -g?@ -h% --aa --bb= --cc? --dd! --ee. --ff@ --gg?@ --hh%\n"
    "deny-mode find -delete\ndeny-mode git clean -f\ndeny-mode cmake -E remove*\n",
    "wrapper nice -z\nwrapper\nwrapper w run=x\n",
    "deny-mode t 1 2 3 4 5 6 7 8 9\n",
]:
    put("fuzz_policy", t)

# protected paths and secrets (protect, mask, mask-key)
for t in [
    "protect .git\nprotect .github/workflows\nmask .env.*\nmask-key id_*\nmask secrets/[a-z]?.json\n",
    "protect /etc\nmask a//b\nmask-key ../x\nmask two words\n",
]:
    put("fuzz_policy", t)

# command lines (argv[1..], NUL-separated)
for a in [
    argv("--", "/bin/true"),
    argv("--ro", "input", "--rw", "out", "--", "python3", "script.py"),
    argv("--ro", "/data:/mnt/data", "--tmpfs", "/scratch:16M", "--env", "FOO", "--env", "X=1", "--", "sh"),
    argv("--memory", "64M", "--pids", "32", "--cpus", "0.5", "--timeout", "2.5", "--kill-after", "1", "--", "ls"),
    argv("--max-output", "1K", "--capture", "--result-fd", "3", "--", "echo", "hi"),
    argv("--no-project", "--chdir", "/tmp", "--hostname", "box", "--share-net", "--", "id"),
    argv("--project", "sub", "--tmp-size", "8M", "--cgroup-parent", "/sys/fs/cgroup/x", "--require-cgroup", "--", "id"),
    argv("--seccomp", "strict", "--seccomp-export", "out.bpf", "--", "true"),
    argv("--rw-git", "--no-protect", "--mask", "*.pem", "--mask", ".aws/credentials", "--no-mask", "--", "true"),
    argv("--help"),
    argv("--version"),
    argv("--ro"),
    argv("--tmpfs", "/x:99999999999999999999T", "--", "x"),
    argv("--isolation", "landlock", "--share-net", "--", "true"),
    argv("--isolation", "auto", "--isolation", "bogus", "--", "true"),
]:
    put("fuzz_cli", a)

# gate: switches byte, then argv
for sw, a in [
    (0, argv("python3", "script.py", "input/data.txt")),
    (0, argv("rm", "-rf", "/")),
    (0, argv("env", "FOO=1", "rm", "x")),
    (0, argv("timeout", "5", "xargs", "rm")),
    (0, argv("python3", "-c", "print(1)")),
    (0, argv("sh", "-c", "ls")),
    (0, argv("cat", "/etc/passwd")),
    (0, argv("cat", "chain1", "etc-link/shadow", "loop1", "dangling", "up/.ssh/id_rsa")),
    (0, argv("cat", "file:///etc/shadow", "PATH=/etc:/usr", "--file=/etc/passwd")),
    (0, argv("ls", "a|b", "$(id)", "x;y", "`z`")),
    (3, argv("busybox", "ash", "-c", "rm")),
    (0, argv("ash", "-c", "x")),
    (0, argv("./zap", "~/.ssh/id_rsa")),
    (8, argv("cat", "../out/x", "/work/out/esc/id_rsa")),
    (0, argv("mkfs.ext4", "/dev/sda")),
    (0, argv("del", "x")),
    (4, argv("env", "-S", "curl x")),
    (128, argv("find", ".", "-exec", "env", "{}", ";")),
    (128, argv("xargs", "-I%", "nice", "%")),
    (128, argv("env", "PATH=bin", "zap", "x")),
    (128, argv("parallel", "rm {}", ":::", "a")),
    (128, argv("watch", "-n", "1", "ls; rm x")),
    (128, argv("git", "-C", "x", "clean", "-fdx")),
    (128, argv("coreutils", "--coreutils-prog=rm", "x")),
    (0, argv("gcc", "-xvf/etc/x", "-Wl,-rpath,/etc", "@/etc/shadow", "src:etc-link")),
    (0, argv("sed", "-n", "-e", "p;r /etc/shadow", "-es/a/b/w /etc/x", "/main/p")),
    (0, argv("tar", "-C", "/usr", "-c", "../etc/shadow", "file://127.0.0.1/etc/passwd")),
    (0, argv("cat", "/dev/fd/../root/etc/shadow", "/proc/self/cwd/../x", "/proc/1/fd/0/x")),
    (0, argv("ls", "|", "2>&1", ">out", "ls;", "<div>", "<<<<<<<", "pkg>=2", "${x}")),
    (128, argv("grep", "-E", "a|b", "x")),
    (0, argv("ls", "-x")),
]:
    put("fuzz_gate", bytes([sw]) + a)

# json: mode byte, then a script (even) or strings cut at 0xff (odd)
put("fuzz_json", bytes([1]) + b"plain\xffquote\" back\\ ctl\x01\x1f\x7f\xffutf8 \xc3\xa9 \xf0\x9f\x98\x80\xff\x00nul")
put("fuzz_json", bytes([1]) + b"bad \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \x80 \xe2\x82")
put("fuzz_json", bytes([3]) + b"x" * 40)
put("fuzz_json", bytes([0, 0, 4, 3]) + b"key" + bytes([5, 3]) + b"val" + bytes([4, 1]) + b"n" + bytes([6]) + b"\x80\0\0\0\0\0\0\0" + bytes([1]))
put("fuzz_json", bytes([0, 2, 2, 9, 8, 24, 7]) + b"\xff" * 8 + bytes([3, 10, 3]))
put("fuzz_json", bytes([0]) + bytes([2]) * 40)

# sizes: max selector byte, then the string
for i, s in enumerate(["0", "1", "64M", "64MiB", "1g", "1B", "1KB", "1iB", "18446744073709551615",
                       "18446744073709551616", "16E", "0.5", "1.250", "1.", ".5", "1.2345",
                       "99999999999999999999x", "17179869184G", "", "-1", " 1", "1 "]):
    for m in (0, 6, 10):
        put("fuzz_size", bytes([(i + m) % 12]) + s.encode())

# shell-option rows (policy) and the interpreter / shell-option rules (gate)
put("fuzz_policy", "shell-option git -c alias.*=*!*\nshell-option sed %1 @sed\n"
    "shell-option tmux:new-session *\nshell-option env LESSOPEN=\nshell-option vim + !(+([0-9])|/*|)\n"
    "shell-option x:y * z\nshell-option git -c=x\nshell-option bad @perl\n")
for a in [
    argv("python3", "-m", "cProfile", "-m", "timeit", "1"),
    argv("perl", "-MFoo;system 1", "x"),
    argv("node", "--import=data:text/javascript,1", "x"),
    argv("sh", "-s"),
    argv("python3"),
    argv("git", "-c", "alias.x=!id", "x"),
    argv("sed", "-n", "/x/{e\n}", "f"),
    argv("tar", "--checkpoint-action=exec=id", "-cf", "x", "y"),
    argv("env", "LESSOPEN=|id", "less", "f"),
    argv("ssh", "-oProxyCommand=id", "h"),
]:
    put("fuzz_gate", bytes([0]) + a)

# ask rules (issue 17): every kind, consequences, limits, errors
put("fuzz_policy", "ask argv git push : publishes commits to a remote\nask exec npm\n"
    "ask side-effect network :  reaches hosts outside \nask exec mkfs.*\n"
    "ask argv npm publish : uploads a package\ndeny-exec npm\n")
put("fuzz_policy", "ask\nask exec\nask exec a b\nask argv g*t x\nask side-effect Net\n"
    "ask exec git :\nask exec git : a\tb\nask run x\n")
put("fuzz_policy", "ask argv a 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
    "ask exec x : " + "c" * 201 + "\n")
put("fuzz_policy", "".join("ask exec t%d : c%d\n" % (i, i) for i in range(65)))
