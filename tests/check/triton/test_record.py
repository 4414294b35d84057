"""The Triton record hook (share/check/triton/, docs/checks.md "Triton
kernels: record and compare") over a stand-in Triton (stub/) and CPU tensors:
app/test.py recorded as the original twice and as a port whose shift kernel
computes otherwise, then compared by hipport; the log's lines for configs,
constexprs, shared storage, None, a launch that raises, autotuning's and
do_bench's launches; nothing without HIPPORT_RECORD_DIR; and a bundle's
record.sh running it through PYTHON.
usage: test_record.py HIPPORT SOURCE_DIR TMP_DIR (run by test.sh)"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import failed, finish, read_log, truth  # noqa: E402

hipport, src, tmp = (os.path.abspath(a) for a in sys.argv[1:4])
here = os.path.join(src, "tests", "check", "triton")
hook = os.path.join(src, "share", "check", "triton")
stub = os.path.join(here, "stub")

def run(args, cwd, env, check=True):
    p = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if check and p.returncode != 0:
        print("FAIL running %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stdout))
        sys.exit(1)
    return p


def of(launches, kernel):
    return [l for l in launches if l[0][2] == kernel]


shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
app = os.path.join(tmp, "app")
shutil.copytree(os.path.join(here, "app"), app)
usersite = os.path.join(tmp, "usersite")
os.makedirs(usersite)
with open(os.path.join(usersite, "sitecustomize.py"), "w") as f:
    f.write("import os\nos.environ['USER_SITECUSTOMIZE'] = 'yes'\n")
base = dict(os.environ, PYTHONPATH=os.pathsep.join([hook, stub, usersite]), PYTHONDONTWRITEBYTECODE="1",
            HIPPORT_RECORD_LAUNCHES="3")
for k in ("HIPPORT_RECORD_DIR", "HIPPORT_RECORD_MAX", "SIDE"):
    base.pop(k, None)

# the original twice and the port, each RUN two processes
out = {}
for side in ("ref", "ref2", "port"):
    d = os.path.join(tmp, side)
    os.makedirs(d)
    env = dict(base, HIPPORT_RECORD_DIR=d, SIDE="port" if side == "port" else "ref")
    out[side] = run([sys.executable, "test.py"], app, env).stdout
    run([sys.executable, "test.py", "tail"], app, env)
ref, port = read_log(os.path.join(tmp, "ref")), read_log(os.path.join(tmp, "port"))
dref, dport = os.path.join(tmp, "ref"), os.path.join(tmp, "port")

truth("hooked", "hooked: True" in out["ref"], out["ref"])
truth("the user's sitecustomize still runs", "user sitecustomize: yes" in out["ref"], out["ref"])
truth("the program's own output", "failing raised: out of resources" in out["ref"] and "result:" in out["ref"])
truth("seq counts on over a RUN's processes", [int(l[0][1]) for l in ref] == list(range(len(ref))),
      str([l[0][1] for l in ref]))
truth("launch order", [l[0][2] for l in ref] ==
      ["scale", "spread", "shift", "consume", "tuned", "tuned", "failing"] + ["tick"] * 5 + ["scale"],
      str([l[0][2] for l in ref]))

# scale: warmup and do_bench's launches not recorded; the grid the callable gave
scale = of(ref, "scale")[0]
truth("scale: site", scale[0][3] == "test.py:19", scale[0][3])
truth("scale: grid and block", scale[0][4:14] == "grid 4 1 1 block 256 1 1 shared 0".split(), " ".join(scale[0]))
truth("scale: status", scale[0][14:17] == ["status", "0", "0"], " ".join(scale[0]))
args = [" ".join(a) for a in scale[1]]
truth("scale: tensors", args[0].startswith("arg 0 pointer f32 0 64 ") and args[0].endswith(" 0.0.bin"), args[0])
truth("scale: an int", args[2] == "arg 2 scalar i64 1000000000000000", args[2])
truth("scale: a float as fp32", args[3] == "arg 3 scalar f32 0000003f", args[3])
truth("scale: a bool", args[4] == "arg 4 scalar u8 01", args[4])
truth("scale: an int constexpr", args[5] == "arg 5 scalar i64 0400000000000000", args[5])
truth("scale: six arguments", len(args) == 6, str(args))
truth("scale: the output kept", os.path.getsize(os.path.join(dref, "0.1.bin")) == 64)
with open(os.path.join(dref, "0.config")) as f:
    truth("scale: launch options kept aside", f.read() == "num_warps=8\n")

# spread: two views of one storage, a None
spread = [" ".join(a) for a in of(ref, "spread")[0][1]]
truth("spread: grid", of(ref, "spread")[0][0][4:8] == ["grid", "2", "3", "1"])
truth("spread: the storage whole", spread[0].startswith("arg 0 pointer f32 0 128 "), spread[0])
truth("spread: a view into it: same", spread[1] == "arg 1 pointer f32 same 0 64", spread[1])
truth("spread: None", spread[2] == "arg 2 pointer u8 unknown", spread[2])

# shift: a tl.dtype constexpr, the same bytes on both sides
sr, sp = of(ref, "shift")[0][1][3], of(port, "shift")[0][1][3]
truth("shift: a dtype constexpr hashed", sr[:4] == ["arg", "3", "scalar", "u8"] and len(sr[4]) == 16 and sr == sp,
      "%s / %s" % (sr, sp))

# tuned: 2 launches of the program, not the benchmarks'; BLOCK from the config aside
tr, tp = of(ref, "tuned"), of(port, "tuned")
truth("tuned: benchmarks not recorded", len(tr) == 2 and len(tp) == 2, "%d, %d" % (len(tr), len(tp)))
truth("tuned: the config's constexpr not an argument", all(len(l[1]) == 3 for l in tr + tp))
truth("tuned: each side's num_warps", tr[0][0][9] == "64" and tp[0][0][9] == "256", "%s / %s" % (tr[0][0], tp[0][0]))
for d, block, warps in ((dref, 2, 2), (dport, 4, 8)):
    seq = (tr if d == dref else tp)[0][0][1]
    with open(os.path.join(d, seq + ".config")) as f:
        config = f.read().split()
    truth("tuned: config kept (%s)" % os.path.basename(d),
          "BLOCK=%d" % block in config and "num_warps=%d" % warps in config, str(config))

# failing: raised in the kernel, logged with its status, raised to the program
fl = of(ref, "failing")[0]
truth("failing: status 1", fl[0][14:17] == ["status", "1", "0"], " ".join(fl[0]))

# tick: past HIPPORT_RECORD_LAUNCHES, status only
ticks = of(ref, "tick")
truth("tick: the first 3 captured", all(len(l[1]) == 1 and "uncaptured" not in l[0] for l in ticks[:3]))
truth("tick: then uncaptured", all(l[0][-1] == "uncaptured" and not l[1] for l in ticks[3:]))

# hipport compares the two as it compares CUDA recordings
p = run([hipport, "check", "compare", dref, dport, os.path.join(tmp, "ref2")], tmp, base, check=False)
lines = {l.split()[0]: l.split()[1] for l in p.stdout.splitlines() if len(l.split()) > 1}
truth("compare: shift diverges", lines.get("shift") == "fail", p.stdout)
truth("compare: the unchanged kernels pass",
      all(lines.get(k) == "pass" for k in ("scale", "spread", "tuned", "tick")), p.stdout)
truth("compare: after shift, other inputs", lines.get("consume") == "inputs-differ", p.stdout)
truth("compare: the first divergence named", "first divergence: shift (test.py:30)" in p.stdout, p.stdout)
p = run([hipport, "check", "compare", dref, os.path.join(tmp, "ref2")], tmp, base, check=False)
truth("compare: the original with itself", "no kernel's outputs diverged" in p.stdout, p.stdout)

# without HIPPORT_RECORD_DIR: nothing hooked, nothing written
quiet = os.path.join(tmp, "quiet")
shutil.copytree(os.path.join(here, "app"), quiet)
p = run([sys.executable, "test.py"], quiet, base)
truth("unset: not hooked", "hooked: False" in p.stdout, p.stdout)
truth("unset: the user's sitecustomize still runs", "user sitecustomize: yes" in p.stdout, p.stdout)
truth("unset: nothing written", sorted(os.listdir(quiet)) == ["test.py"], str(os.listdir(quiet)))
# set: nothing imported before the program imports it
probe = "import sys; print(sorted(m for m in ('torch', 'triton') if m in sys.modules))"
p = run([sys.executable, "-c", probe], tmp, dict(base, HIPPORT_RECORD_DIR=os.path.join(tmp, "probe")))
truth("set: torch and triton not imported early", p.stdout.strip() == "[]", p.stdout)
truth("set: no launch, no log", not os.path.exists(os.path.join(tmp, "probe")))

# a bundle: record/triton carried, record.sh's runs hooked through PYTHONPATH
# and PYTHON's python3 (nvcc, which record.sh asks for, is a stand-in)
repo = os.path.join(tmp, "repo")
os.makedirs(os.path.join(repo, ".hipport"))
shutil.copytree(os.path.join(here, "app"), os.path.join(repo, "app"))
shutil.copytree(os.path.join(stub, "triton"), os.path.join(repo, "app", "triton"))
with open(os.path.join(repo, ".hipport", "config"), "w") as f:
    f.write('[record "app"]\n\tbuild = true\n\trun = python3 test.py && python3 test.py tail\n')
git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
run(git + ["init", "-q", "."], repo, base)
run(git + ["add", "-A"], repo, base)
run(git + ["commit", "-qm", "app"], repo, base)
bundle = os.path.join(tmp, "b")
run([hipport, "-C", repo, "check", "bundle", bundle], repo, base)
for name in ("sitecustomize.py", "hipport_triton.py"):
    with open(os.path.join(bundle, "record", "triton", name)) as f, open(os.path.join(hook, name)) as g:
        truth("bundle: record/triton/" + name, f.read() == g.read())
# in a toolkit of its own: record.sh links the toolkit's other entries
nvcc = os.path.join(tmp, "cuda", "bin", "nvcc")
os.makedirs(os.path.dirname(nvcc))
with open(nvcc, "w") as f:
    f.write("#!/bin/sh\nexit 0\n")
os.chmod(nvcc, 0o755)
env = dict(base, PYTHON=sys.executable, NVCC=nvcc, PORT_PLATFORM="nvidia-proxy", NVCC_ARCH="sm_90")
env.pop("PYTHONPATH")
p = run(["sh", os.path.join(bundle, "record.sh"), "app", "true", "python3 test.py && python3 test.py tail"], tmp, env,
        check=False)
work = os.path.join(bundle, "work", "record", "app")
truth("record.sh: recorded", p.returncode == 0, p.stdout)
with open(os.path.join(work, "ref.run.log")) as f:
    text = f.read()
truth("record.sh: python3 is PYTHON", "python: %s\n" % sys.executable in text, text)
truth("record.sh: hooked", "hooked: True" in text, text)
p = run([hipport, "check", "compare", os.path.join(work, "ref"), os.path.join(work, "port"), os.path.join(work, "ref2")],
        tmp, base, check=False)
truth("record.sh: the divergence found", "first divergence: shift (test.py:30)" in p.stdout, p.stdout)

# inputs drawn without a seed are the same in every run: Python's random at
# once, NumPy's (a stand-in here) as it is imported; HIPPORT_RECORD_SEED=none leaves them
mods = os.path.join(tmp, "mods", "numpy")
os.makedirs(mods)
with open(os.path.join(mods, "__init__.py"), "w") as f:
    f.write("from . import random\n")
with open(os.path.join(mods, "random.py"), "w") as f:
    f.write("seeded = None\ndef seed(s):\n    global seeded\n    seeded = s\n")
draw = "import random, numpy; print(random.random(), numpy.random.seeded)"
seeds = dict(base, PYTHONPATH=os.pathsep.join([hook, stub, os.path.dirname(mods)]), HIPPORT_RECORD_DIR=os.path.join(tmp, "seeds"))
os.makedirs(seeds["HIPPORT_RECORD_DIR"])
a, b = (run([sys.executable, "-c", draw], tmp, seeds).stdout for _ in range(2))
truth("seeds: the same draws in each run", a == b and a.endswith(" 0\n"), a + b)
seeds["HIPPORT_RECORD_SEED"] = "none"
a, b = (run([sys.executable, "-c", draw], tmp, seeds).stdout for _ in range(2))
truth("seeds: none leaves them", a != b and a.endswith(" None\n"), a + b)

finish()
