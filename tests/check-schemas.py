#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validate real nsbox output against schemas/ (make check-schemas).

Runs the built binary from request documents for every outcome this host can
produce, and checks each request, each record and each --check document
against its JSON Schema (draft 2020-12).  oom_killed needs a cgroup memory
controller: it is shown in the VM tests only, and skipped here with the reason.
Usage: check-schemas.py NSBOX [SRCDIR]
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

NSBOX = os.path.abspath(sys.argv[1])
SRC = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def schema(name):
    with open(os.path.join(SRC, "schemas", name + ".schema.json"), encoding="utf-8") as f:
        s = json.load(f)
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


REQUEST, RECORD, CHECK = schema("request"), schema("record"), schema("check")
failures = []


def validate(v, doc, what):
    errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    for e in errs:
        failures.append(f"{what}: {'/'.join(map(str, e.path))}: {e.message}")


def run(req, check=False, valid_request=True, extra=()):
    """One run from a request on stdin; returns the record (or --check document)."""
    if valid_request:
        validate(REQUEST, req, f"request {json.dumps(req)[:80]}")
    else:
        # A refused request must also be refused by the schema.
        if REQUEST.is_valid(req):
            failures.append(f"schema accepts a request nsbox refuses: {json.dumps(req)}")
    r_fd, w_fd = os.pipe()
    args = [NSBOX, "--result-fd", str(w_fd), "--request", "-"] + (["--check"] if check else []) + list(extra)
    p = subprocess.run(args, input=json.dumps(req).encode(), capture_output=True,
                       pass_fds=(w_fd,), cwd=WORK, timeout=60, check=False)
    os.close(w_fd)
    with os.fdopen(r_fd, "rb") as f:
        rec = f.read()
    if check and p.returncode in (0, 123):
        doc = json.loads(p.stdout)
        validate(CHECK, doc, f"--check of {req.get('argv')}")
        return doc
    doc = json.loads(rec)
    validate(RECORD, doc, f"record of {req.get('argv')}")
    return doc


WORK = tempfile.mkdtemp(prefix="nsbox-schemas-")
with open(os.path.join(WORK, "f.txt"), "w", encoding="utf-8") as f:
    f.write("hello\n")
meta = {"actor": "check-schemas", "reason": "schema test", "side_effect": "read_only"}
cases = {
    "exited": {"argv": ["cat", "f.txt"], "capture": True, **meta},
    "signaled": {"argv": ["sh", "-c", "kill -9 $$"], "allow_inline_code": True,
                 "allow_metachar": True},
    "timed_out": {"argv": ["sleep", "10"], "limits": {"timeout": 0.3, "kill_after": 0.2}},
    "denied": {"argv": ["rm", "f.txt"], "deny_exec": ["rm"]},
    "exec_failed": {"argv": ["no-such-command-here"]},
    "setup_failed": {"argv": ["true"], "limits": {"cpus": 0.5}, "require_cgroup": True},
}
seen = {}
for want, req in cases.items():
    rec = run(req)
    seen[want] = rec["status"]
    if rec.get("request") is None and req.get("actor"):
        failures.append("the record lacks the request member")
rec = run({"argv": ["true"], "limits": {"memroy": "1M"}}, valid_request=False)
seen["usage_error"] = rec["status"]
for req in ({"argv": ["true"], "env": {"A=B": "x"}}, {"argv": []},
            {"argv": ["true"], "side_effect": "everything"}, {"argv": ["true"], "reason": "x" * 257}):
    rec = run(req, valid_request=False)
    if rec["status"] != "usage_error":
        failures.append(f"{req}: status {rec['status']}, want usage_error")
for req in (cases["exited"], cases["denied"], {"argv": ["ls"], "ro": ["/etc"], "network": {"allow": ["example.com:443"]},
                                                "limits": {"memory": "256M", "timeout": 5}, **meta}):
    run(req, check=True)

# An ask rule: the --check verdict and its id, the run held without it and
# let through with it (nsbox(1), APPROVALS).
with open(os.path.join(WORK, "ask.policy"), "w", encoding="utf-8") as f:
    f.write("ask exec true : runs true\n")
held = {"argv": ["true"], "policy": os.path.join(WORK, "ask.policy")}
doc = run(held, check=True)
if doc.get("verdict") != "ask":
    failures.append(f"--check of an ask rule: verdict {doc.get('verdict')}")
seen["needs_approval"] = run(held)["status"]
seen["approved"] = run(held, extra=("--approved", doc["approval"]["approval_id"]))["status"]
if seen["approved"] != "exited":
    failures.append(f"the approved run ended as {seen['approved']}")

# The seed requests of the fuzz corpus are requests the tests use too.
corpus = os.path.join(SRC, "tests/fuzz/corpus/fuzz_json_parse")
for name in sorted(os.listdir(corpus)):
    if name.startswith("r-") and name != "r-bad":
        with open(os.path.join(corpus, name), "rb") as f:
            validate(REQUEST, json.loads(f.read()[1:]), f"corpus {name}")

for want, got in seen.items():
    print(f"check-schemas: {want:13} -> status {got}")
    if want in ("exited", "signaled", "timed_out", "denied", "exec_failed", "usage_error",
                "needs_approval") and got != want:
        failures.append(f"{want}: the run ended as {got}")
print("check-schemas: oom_killed skipped: needs a cgroup v2 memory controller (VM tests only)")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
