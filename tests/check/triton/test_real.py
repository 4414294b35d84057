"""The Triton record hook with the real Triton on a GPU: real/app.py recorded
as the original twice and as a port whose scale kernel adds another bias,
the logs checked, and compared by hipport where it runs (else the
recordings are left in TMP_DIR for `hipport check compare`).
usage: test_real.py HIPPORT SOURCE_DIR TMP_DIR (run by test-real.sh)"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import failed, finish, read_log, truth  # noqa: E402

hipport, src, tmp = (os.path.abspath(a) for a in sys.argv[1:4])
hook = os.path.join(src, "share", "check", "triton")
app = os.path.join(src, "tests", "check", "triton", "real", "app.py")

shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
env = dict(os.environ, PYTHONPATH=os.pathsep.join([hook] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
for side in ("ref", "ref2", "port"):
    d = os.path.join(tmp, side)
    os.makedirs(d)
    p = subprocess.run([sys.executable, app], cwd=tmp, env=dict(env, HIPPORT_RECORD_DIR=d, SIDE=side[:4]),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    print("%s: %s" % (side, p.stdout.strip()))
    truth("%s: ran" % side, p.returncode == 0 and "checks: True True True" in p.stdout, p.stdout)

log = read_log(os.path.join(tmp, "ref"))
names = [l[0][2] for l in log]
truth("warmup, do_bench and autotuning's launches not recorded",
      names == ["add", "add", "scale", "biased", "cast", "tuned", "tuned"], str(names))
by = {}
for l in log:
    by.setdefault(l[0][2], []).append(l)
if not failed:
    truth("add: a grid from its callable", by["add"][0][0][4:8] == ["grid", "40", "1", "1"], " ".join(by["add"][0][0]))
    truth("add: two views of one buffer", " ".join(by["add"][1][1][2]) == "arg 2 pointer f32 same 0 40000",
          str(by["add"][1][1]))
    truth("scale: a float", " ".join(by["scale"][0][1][3]) == "arg 3 scalar f32 0000003f",
          str(by["scale"][0][1]))
    truth("biased: None", " ".join(by["biased"][0][1][1]) == "arg 1 pointer u8 unknown",
          str(by["biased"][0][1]))
    truth("cast: an f16 output", " ".join(by["cast"][0][1][1]).startswith("arg 1 pointer f16 0 20000 "),
          str(by["cast"][0][1]))
    truth("cast: a dtype constexpr", " ".join(by["cast"][0][1][3]).startswith("arg 3 scalar u8 "),
          str(by["cast"][0][1]))
    truth("tuned: BLOCK not an argument", all(len(l[1]) == 3 for l in by["tuned"]))
    with open(os.path.join(tmp, "ref", by["tuned"][0][0][1] + ".config")) as f:
        config = f.read()
    truth("tuned: its config kept aside", "BLOCK=" in config and "num_warps=" in config, config)

try:
    p = subprocess.run([hipport, "check", "compare", os.path.join(tmp, "ref"), os.path.join(tmp, "port"),
                        os.path.join(tmp, "ref2")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    ran = "KERNEL" in p.stdout
except OSError:
    ran = False
if ran:
    print(p.stdout)
    lines = {l.split()[0]: l.split()[1] for l in p.stdout.splitlines() if len(l.split()) > 1}
    truth("compare: scale diverges", lines.get("scale") == "fail", p.stdout)
    truth("compare: the others pass", all(lines.get(k) == "pass" for k in ("add", "biased", "cast", "tuned")),
          p.stdout)
    truth("compare: the first divergence named", "first divergence: scale (" in p.stdout, p.stdout)
else:
    print("hipport does not run here: compare %s/ref, port and ref2 where it does" % tmp)
finish()
