#!/usr/bin/env python3
"""Checks the findings of `hipport scan` against the `expect:` marks of the
analyzer's test cases, and optionally that the cases build after all fixes.

usage: run.py [--fixes] [--hipcc PATH] [--arch ARCH] [--keep DIR] HIPPORT CASES_DIR

For every CASES_DIR/*.cu and *.py (Triton), `HIPPORT scan --no-cache --format json FILE` is run
(exit status 0 or 1 is fine, 2 or more is a failure). Its findings, less the
API-* ones, are compared as (line, id) pairs with the marks of the file:
`// expect: ID[, ID...]` or `/* expect: ID[, ID...] */` (`# expect: ...` in
Python) on the line where the finding's range starts. Every mark without a finding is printed as
`FILE:LINE: missing ID`, every finding without a mark as
`FILE:LINE: unexpected ID (message)`.

With --fixes, each file named in CASES_DIR/fixes.txt is also translated with
`HIPPORT translate --fix=all FILE -o OUT.hip.cpp` and compiled with
`hipcc --offload-arch=ARCH -std=c++17 -c OUT -o /dev/null` (skipped, with a
message, when hipcc is not found); a Python file is compiled by python3
instead (its syntax: Triton itself needs a GPU).

Exit status: 0 all good, 1 a difference or a failed command, 2 bad usage.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 120  # seconds, per command
ID = r"[A-Z]+-[0-9]{3}"
# `expect:` right after the opening of a // or /* comment.
MARK = re.compile(r"(?://|/\*|#)\s*expect:\s*([^*\n]*)")
MARK_IDS = re.compile(r"^\s*(" + ID + r"(?:\s*,\s*" + ID + r")*)\s*,?\s*(?:\*/.*)?$")


class Failure(Exception):
    """A command that did not do its job; the message says why."""


def file_args(path, key):
    """The arguments a case asks for on a line "// KEY: ARGS" (e.g. args, hipcc-args)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for text in f:
            m = re.match(r"\s*//\s*%s:\s*(.*)$" % re.escape(key), text)
            if m:
                return m.group(1).split()
    return []


def parse_marks(path):
    """Returns ({(line, id)}, [problems]) for the expect: marks of a file."""
    marks, problems = set(), []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, text in enumerate(f, 1):
            for m in MARK.finditer(text):
                rest = text[m.start(1):].rstrip("\n")
                ids = MARK_IDS.match(rest)
                if not ids:
                    problems.append("%s:%d: malformed mark: %s" % (path, number, text[m.start():].strip()))
                    continue
                for i in re.split(r"\s*,\s*", ids.group(1).strip()):
                    marks.add((number, i))
    return marks, problems


def run(cmd, what):
    """Runs cmd; returns (returncode, stdout, stderr); raises Failure on a timeout or a missing program."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Failure("%s: timed out after %d s: %s" % (what, TIMEOUT, " ".join(cmd)))
    except OSError as e:
        raise Failure("%s: cannot run %s: %s" % (what, cmd[0], e))
    return (p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"))


def tail(text, lines=10):
    text = text.strip()
    if not text:
        return ""
    return "\n".join("    " + line for line in text.splitlines()[-lines:])


# fixes offered only from what a review session keeps, and where they are tested
SESSION_FIXES = {
    # a tuning run's table (.git/hipport/tune.json): the fix's output is
    # checked, and compiled as Python, by tests/check/triton/test_tune.py
    "TRITON-009": "tests/check/triton/test_tune.py",
}

# file name -> ids of the findings that offered a fix
OFFERED = {}


def scan_findings(hipport, path):
    """Returns {(line, id): message} of the non-API findings of one file."""
    # the expect: marks are for HIP 5.2 unless a case's args name a target (its own come last and win),
    # whichever HIP is installed
    cmd = [hipport, "scan", "--no-cache", "--format", "json", "--target-hip=5.2"] + file_args(path, "args") + [path]
    code, out, err = run(cmd, "scan " + path)
    if code not in (0, 1):
        raise Failure("%s: scan exited with status %d\n%s" % (path, code, tail(err)))
    try:
        report = json.loads(out)
    except ValueError as e:
        raise Failure("%s: scan output is not JSON (%s)\n%s" % (path, e, tail(out or err)))
    if not isinstance(report, dict) or report.get("schema") != "hipport-scan":
        raise Failure("%s: scan output is not a hipport-scan report" % path)
    files = report.get("files") or []
    name = os.path.basename(path)
    entries = [f for f in files if isinstance(f, dict) and
               os.path.basename(str(f.get("path", ""))) == name]
    if len(entries) != 1:
        if len(files) == 1 and isinstance(files[0], dict):
            entries = files
        else:
            raise Failure("%s: the report has %d file entries for it (paths: %s)" %
                          (path, len(entries), ", ".join(str(f.get("path")) for f in files
                                                         if isinstance(f, dict)) or "none"))
    found = {}
    OFFERED.setdefault(name, set()).update(
        f.get("id") for f in entries[0].get("findings") or [] if isinstance(f, dict) and f.get("fix"))
    for f in entries[0].get("findings") or []:
        fid, line = f.get("id"), f.get("line")
        if not isinstance(fid, str) or not isinstance(line, int):
            raise Failure("%s: finding without id or line: %r" % (path, f))
        if fid.startswith("API-"):
            continue
        key = (line, fid)
        msg = str(f.get("message", ""))
        found[key] = msg if key not in found else found[key] + " | " + msg
    return found


def check_file(hipport, path, display, marks, problems):
    """Compares one file with its marks; returns (matched count, [difference lines])."""
    found = scan_findings(hipport, path)
    diffs = list(problems)
    rows = []
    for line, fid in marks - set(found):
        rows.append((line, fid, "%s:%d: missing %s" % (display, line, fid)))
    for (line, fid), msg in found.items():
        if (line, fid) not in marks:
            rows.append((line, fid, "%s:%d: unexpected %s (%s)" % (display, line, fid, msg)))
        # the analyzer parses the file under a name of its own; a message never shows it
        if ".hipport-analysis" in msg:
            rows.append((line, fid, "%s:%d: %s names the analyzer's own file (%s)" % (display, line, fid, msg)))
    diffs += [r[2] for r in sorted(rows)]
    return len(marks & set(found)), diffs


def read_fix_list(cases):
    path = os.path.join(cases, "fixes.txt")
    if not os.path.exists(path):
        raise Failure("%s: not found (the files expected to build after all fixes)" % path)
    names = []
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            text = text.split("#", 1)[0].strip()
            if not text:
                continue
            if not os.path.isfile(os.path.join(cases, text)):
                raise Failure("%s:%d: no such case file: %s" % (path, number, text))
            names.append(text)
    return names


def check_fix(hipport, hipcc, arch, path, display, tmp):
    """Translates one file with all fixes and compiles it; returns [] or [difference lines]."""
    if path.endswith(".py"):
        return check_python_fix(hipport, path, display, tmp)
    out = os.path.join(tmp, os.path.splitext(os.path.basename(path))[0] + ".hip.cpp")
    # the gfx942 lane (tests/lane-gfx942.sh) translates for its HIP: the last --target-hip wins
    target = ["--target-hip=" + os.environ["HIPPORT_TEST_HIP"]] if os.environ.get("HIPPORT_TEST_HIP") else []
    code, _, err = run([hipport, "translate", "--fix=all"] + file_args(path, "args") + target + [path, "-o", out],
                       "translate " + display)
    if code not in (0, 1) or not os.path.isfile(out):
        return ["%s: translate --fix=all failed (exit status %d)\n%s" % (display, code, tail(err))]
    extra = [a.replace("CASES_DIR", os.path.dirname(os.path.abspath(path))) for a in file_args(path, "hipcc-args")]
    extra += os.environ.get("HIPPORT_TEST_HIPCC_FLAGS", "").split()
    code, stdout, err = run([hipcc, "--offload-arch=" + arch, "-std=c++17"] + extra + ["-c", out, "-o", os.devnull],
                            "hipcc " + display)
    if code != 0:
        errors = [l for l in (stdout + err).splitlines() if "error" in l]
        return ["%s: does not build after all fixes (%s, hipcc exit status %d)\n%s" %
                (display, out, code, tail("\n".join(errors) or stdout + err, 15))]
    return []


def check_python_fix(hipport, path, display, tmp):
    """A Triton file with all fixes must still be Python, and differ from the original."""
    out = os.path.join(tmp, os.path.basename(path))
    code, _, err = run([hipport, "translate", "--fix=all", path, "-o", out], "translate " + display)
    if code not in (0, 1) or not os.path.isfile(out):
        return ["%s: translate --fix=all failed (exit status %d)\n%s" % (display, code, tail(err))]
    with open(path, encoding="utf-8") as a, open(out, encoding="utf-8") as b:
        if a.read() == b.read():
            return ["%s: translate --fix=all changed nothing" % display]
    code, stdout, err = run([sys.executable, "-m", "py_compile", out], "python3 " + display)
    if code != 0:
        return ["%s: not Python after all fixes (%s)\n%s" % (display, out, tail(stdout + err, 15))]
    return []


def main():
    ap = argparse.ArgumentParser(description="Check hipport scan findings against expect: marks.")
    ap.add_argument("hipport", metavar="HIPPORT", help="the hipport binary")
    ap.add_argument("cases", metavar="CASES_DIR", help="directory of *.cu cases (and fixes.txt)")
    ap.add_argument("--fixes", action="store_true",
                    help="also check that the files of fixes.txt build with hipcc after --fix=all")
    ap.add_argument("--hipcc", default=os.environ.get("HIPCC", "hipcc"), help="hipcc to use (default: hipcc on PATH)")
    ap.add_argument("--arch", default=os.environ.get("HIPPORT_TEST_ARCH", "gfx90a"),
                    help="offload architecture (default gfx90a)")
    ap.add_argument("--keep", metavar="DIR", help="write the fixed translations to DIR and keep them")
    ap.add_argument("--patches", metavar="DIR",
                    help="with --fixes: every template DIR/ID.fix must be offered in a file of fixes.txt")
    args = ap.parse_args()

    hipport = args.hipport
    if os.sep in hipport or (os.altsep and os.altsep in hipport):
        hipport = os.path.abspath(hipport)
        if not (os.path.isfile(hipport) and os.access(hipport, os.X_OK)):
            print("run.py: %s is not an executable file" % args.hipport, file=sys.stderr)
            return 2
    elif not shutil.which(hipport):
        print("run.py: %s not found on PATH" % hipport, file=sys.stderr)
        return 2
    if not os.path.isdir(args.cases):
        print("run.py: %s is not a directory" % args.cases, file=sys.stderr)
        return 2
    cases = sorted(n for n in os.listdir(args.cases) if n.endswith(".cu") or n.endswith(".py"))
    if not cases:
        print("run.py: no *.cu files in %s" % args.cases, file=sys.stderr)
        return 2

    failed_files, expected, matched, ndiff = 0, 0, 0, 0
    for name in cases:
        path = os.path.join(args.cases, name)
        marks, problems = parse_marks(path)
        expected += len(marks)
        try:
            ok, diffs = check_file(hipport, path, path, marks, problems)
        except Failure as e:
            print("%s" % e)
            failed_files += 1
            continue
        matched += ok
        ndiff += len(diffs)
        for d in diffs:
            print(d)
        if diffs:
            failed_files += 1
    print("scan: %d files, %d expected findings, %d found, %d differences, %d files failing" %
          (len(cases), expected, matched, ndiff, failed_files))
    status = 1 if failed_files else 0

    if args.fixes:
        try:
            names = read_fix_list(args.cases)
        except Failure as e:
            print(e)
            return 1
        if args.patches:
            offered = set()
            for name in names:
                offered |= OFFERED.get(name, set())
            templates = sorted(n[:-4] for n in os.listdir(args.patches) if n.endswith(".fix"))
            untested = [t for t in templates if t not in offered and t not in SESSION_FIXES]
            for t in untested:
                print("fixes: %s.fix is offered in no file of fixes.txt: its fix is not build-tested" % t)
            if untested:
                status = 1
        hipcc = shutil.which(args.hipcc)
        if not hipcc:
            print("fixes: skipped: %s not found (set --hipcc or HIPCC)" % args.hipcc)
            if status == 0:
                status = 77  # ctest's skip
        else:
            built, broken = 0, 0
            tmp = args.keep or tempfile.mkdtemp(prefix="hipport-analyze-")
            os.makedirs(tmp, exist_ok=True)
            try:
                for name in names:
                    path = os.path.join(args.cases, name)
                    try:
                        diffs = check_fix(hipport, hipcc, args.arch, path, path, tmp)
                    except Failure as e:
                        diffs = [str(e)]
                    for d in diffs:
                        print(d)
                    if diffs:
                        broken += 1
                    else:
                        built += 1
            finally:
                if not args.keep:
                    shutil.rmtree(tmp, ignore_errors=True)
            print("fixes: %d of %d files build after --fix=all (%s, %s)" %
                  (built, len(names), os.path.basename(hipcc), args.arch))
            if broken:
                status = 1
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
