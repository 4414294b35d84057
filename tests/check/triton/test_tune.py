"""The Triton tuning hook (share/check/triton/hipport_tune.py, docs/checks.md
"Tuning Triton kernels") over a stand-in Triton (stub/) and CPU tensors:
tune/app.py run with HIPPORT_TUNE_DIR; each kernel's first launch swept,
each config judged against the program's own launch (ok, differs, failed),
the fastest correct one chosen, and the program's tensors left as its own
launches left them.
usage: test_tune.py HIPPORT SOURCE_DIR TMP_DIR (run by test.sh)"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import finish, truth  # noqa: E402

hipport, src, tmp = (os.path.abspath(a) for a in sys.argv[1:4])
here = os.path.join(src, "tests", "check", "triton")
hook = os.path.join(src, "share", "check", "triton")
stub = os.path.join(here, "stub")
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
tune = os.path.join(tmp, "tune")
env = dict(os.environ, PYTHONPATH=os.pathsep.join([hook, stub]), PYTHONDONTWRITEBYTECODE="1",
           HIPPORT_TUNE_DIR=tune, HIPPORT_TUNE_SWEEP="num_warps=1,4,8,16;num_stages=1,4,6",
           HIPPORT_TUNE_REPEATS="3")
env.pop("HIPPORT_RECORD_DIR", None)
p = subprocess.run([sys.executable, os.path.join(here, "tune", "app.py")], cwd=tmp, env=env,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
truth("the program ran as it would", p.returncode == 0 and "y ok: True" in p.stdout, p.stdout)
truth("a kernel adding into its output was replayed from the saved tensors", "acc ok: True" in p.stdout, p.stdout)
try:
    with open(os.path.join(tune, "tune.json")) as f:
        table = json.load(f)
except (OSError, ValueError) as e:
    table = {"kernels": []}
    truth("tune.json written", False, str(e))
kernels = {k["kernel"]: k for k in table["kernels"]}
truth("the first launch of each kernel tuned, once",
      sorted(kernels) == ["accumulate", "scale", "shift", "untouched"] and len(table["kernels"]) == 4, sorted(kernels))

scale = kernels.get("scale", {"configs": []})
rows = {(r["config"]["num_warps"], r["config"]["num_stages"]): r for r in scale["configs"]}
truth("scale: the site is the def's line", scale.get("path", "").endswith("app.py") and scale.get("line") == 13,
      scale.get("line"))
truth("scale: the program's own options and what it gave", scale.get("given") == {"num_warps": 1, "num_stages": 4}
      and scale.get("program") == {"num_warps": 1, "num_stages": 4}, scale.get("given"))
truth("scale: the program's config first, labelled", scale["configs"] and scale["configs"][0].get("label") == "program",
      scale["configs"][:1])
truth("scale: the whole sweep and the program's config", len(rows) == 12, sorted(rows))
truth("scale: a config whose outputs differ is judged so",
      all(r["status"] == "differs" for k, r in rows.items() if k[0] == 16 and k[1] != 6) and
      "differ" in rows.get((16, 1), {}).get("detail", ""), rows.get((16, 1)))
truth("scale: a config that does not compile failed, with its reason",
      all(r["status"] == "failed" for k, r in rows.items() if k[1] == 6) and
      "out of resource" in rows.get((8, 6), {}).get("detail", ""), rows.get((8, 6)))
truth("scale: correct configs are timed", all("ms" in r for r in rows.values() if r["status"] == "ok") and
      all("ms" not in r for r in rows.values() if r["status"] != "ok"), rows)
truth("scale: the fastest correct config is the best (8 warps, 1 stage)",
      scale.get("best") == {"num_warps": 8, "num_stages": 1}, scale.get("best"))
truth("scale: 8 warps is faster than the program's 1",
      rows.get((8, 1), {}).get("ms", 1e9) < rows.get((1, 4), {}).get("ms", 0), rows)

acc = kernels.get("accumulate", {"configs": []})
truth("accumulate: every config agrees (each replay starts from the saved tensors)",
      acc["configs"] and all(r["status"] == "ok" for r in acc["configs"]), acc["configs"])
truth("accumulate: the default options stand for those it does not give",
      acc.get("given") == {} and acc.get("program") == {"num_warps": 4, "num_stages": 3}, acc.get("program"))
un = kernels.get("untouched", {})
truth("a launch with no tensor is not swept, and says why", un.get("configs") == [] and "no tensor" in un.get("skipped", ""),
      un)

sh = kernels.get("shift", {})
truth("an autotuner's launch: swept around its config, the config kept",
      sh.get("given") == {"num_warps": 1, "num_stages": 2} and sh.get("autotuned", {}).get("BLOCK") == 64 and
      (sh.get("best") or {}).get("num_warps") == 16, sh)

# check tune as a user runs it: a bundle whose record runs tune the port,
# run.sh through PYTHON (nvcc, which record.sh asks for, is a stand-in), the
# results imported: the time table, the session, TRITON-009 and its fix
repo = os.path.join(tmp, "repo")
os.makedirs(os.path.join(repo, ".hipport"))
os.makedirs(os.path.join(repo, "app"))
shutil.copy(os.path.join(here, "tune", "app.py"), os.path.join(repo, "app", "app.py"))
shutil.copytree(os.path.join(stub, "triton"), os.path.join(repo, "app", "triton"))
with open(os.path.join(repo, ".hipport", "config"), "w") as f:
    f.write('[record "app"]\n\tbuild = true\n\trun = python3 app.py\n')
git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
for args in (["init", "-q", "."], ["add", "-A"], ["commit", "-qm", "app"]):
    subprocess.run(git + args, cwd=repo, check=True)
nvcc = os.path.join(tmp, "cuda", "bin", "nvcc")
os.makedirs(os.path.dirname(nvcc))
with open(nvcc, "w") as f:
    f.write("#!/bin/sh\nexit 0\n")
os.chmod(nvcc, 0o755)
bundle = os.path.join(tmp, "b")
user = dict(env, PYTHON=sys.executable, NVCC=nvcc, PORT_PLATFORM="nvidia-proxy", NVCC_ARCH="sm_90")
user.pop("PYTHONPATH")


def hp(*args, cwd=repo):
    return subprocess.run([hipport] + list(args), cwd=cwd, env=user, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)


p = hp("check", "bundle", bundle, "--tune")
truth("check bundle --tune: TUNE set in bundle.conf", p.returncode == 0 and
      "TUNE=${TUNE:-1}" in open(os.path.join(bundle, "bundle.conf")).read(), p.stdout)
truth("check bundle --tune: the tuning hook carried",
      open(os.path.join(bundle, "record", "triton", "hipport_tune.py")).read() ==
      open(os.path.join(hook, "hipport_tune.py")).read())
p = subprocess.run(["sh", os.path.join(bundle, "run.sh")], cwd=tmp, env=user, stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT, universal_newlines=True)
truth("run.sh: the port tuned after its record run", p.returncode == 0 and "record: tune: 4 kernels swept" in p.stdout,
      p.stdout)
p = hp("check", "import", os.path.join(bundle, "results.json"))
out = p.stdout
truth("import: the time table, fastest correct first",
      "tune: scale (app/app.py:13) on cpu (cuda)" in out and
      out.index("  <- fastest correct") < out.index("  <- the program's"), out)
truth("import: a config that differs and one that failed shown with why",
      "differs: 64 of 64 values differ" in out and "failed: RuntimeError: out of resource" in out, out)
truth("import: kept in the session", "recorded 4 tuned kernels in the review session" in out and
      os.path.exists(os.path.join(repo, ".git", "hipport", "tune.json")), out)
# (accumulate is as fast whatever its options: on a loaded machine its
# repeats may still fall apart, so its proposal is left to tests/unit/test_tuned.c)
truth("import: TRITON-009 proposed for scale and shift, not for untouched",
      "TRITON-009 proposed for scale in app/app.py: num_warps 1 -> 8 num_stages 4 -> 1 on cuda" in out and
      "TRITON-009 proposed for shift in app/app.py: num_warps 1 -> 16 num_stages 2 -> 1 on cuda" in out and
      "TRITON-009 proposed for untouched" not in out, out)
p = hp("scan", "app/app.py")
truth("scan: TRITON-009 at the launch", "TRITON-009" in p.stdout and "scale was tuned on cpu" in p.stdout, p.stdout)
p = hp("translate", "--fix=TRITON-009", "app/app.py")
truth("the fix: the tuned options for the platform measured, the other's kept (a comment naming a platform is none)",
      "scale[(1,)](x, y, 64, BLOCK=64, num_warps=(1 if torch.version.hip else 8),  # as on XPU\n"
      "            num_stages=(4 if torch.version.hip else 1))" in p.stdout, p.stdout[-800:])
truth("the fix: options a launch left to the defaults added after its trailing comma, each with its own",
      "scale[(1,)](x, y, 64, BLOCK=64, num_warps=(4 if torch.version.hip else 8), "
      "num_stages=(3 if torch.version.hip else 1))  # Triton's defaults" in p.stdout, p.stdout[-800:])
try:
    compile(p.stdout, "app.py (fixed)", "exec")
    truth("the fix: still Python", True)
except SyntaxError as e:
    truth("the fix: still Python", False, str(e))
truth("the fix: the other launches left alone", "untouched[(1,)](64, BLOCK=64)\n" in p.stdout, p.stdout[-800:])
truth("the fix: an autotuned kernel's config added to its configs, its launch left alone",
      '@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=1, num_stages=2)] + '
      '([] if torch.version.hip else [triton.Config({"BLOCK": 64}, num_warps=16, num_stages=1)]), key=["n"])'
      in p.stdout and "shift[(1,)](x, z, 64)\n" in p.stdout, p.stdout)

# a tune.json that speaks of a file outside the bundle records nothing (exit 2)
tj = os.path.join(bundle, "work", "record", "app", "tune", "tune.json")
with open(tj) as f:
    table = json.load(f)
table["kernels"][0]["path"] = "/x/trees/port/../../../etc/passwd"
with open(tj, "w") as f:
    json.dump(table, f)
os.remove(os.path.join(repo, ".git", "hipport", "tune.json"))
p = hp("check", "import", os.path.join(bundle, "results.json"))
truth("import: a kernel of no file of the bundle refused, exit 2, nothing recorded",
      p.returncode == 2 and "is no file of the bundle's port/" in p.stdout and
      not os.path.exists(os.path.join(repo, ".git", "hipport", "tune.json")), p.stdout)

# without HIPPORT_TUNE_DIR nothing is tuned
env.pop("HIPPORT_TUNE_DIR")
shutil.rmtree(tune)
p = subprocess.run([sys.executable, os.path.join(here, "tune", "app.py")], cwd=tmp, env=env,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
truth("without HIPPORT_TUNE_DIR the program runs untouched", p.returncode == 0 and not os.path.exists(tune), p.stdout)
finish()
