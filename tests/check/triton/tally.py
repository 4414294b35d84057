"""What the Triton hook's tests share: their tally of checks and the reader
of a recording's launches.log."""
import os
import sys

failed = []
passed = 0


def truth(name, ok, detail=""):
    global passed
    if ok:
        passed += 1
    else:
        failed.append(name)
        print("FAIL %s%s" % (name, ": %s" % (detail,) if detail else ""))


def read_log(d):
    """launches.log as [(fields of the launch line, [fields of each arg line])]."""
    launches = []
    with open(os.path.join(d, "launches.log")) as f:
        for line in f:
            words = line.split()
            if words[0] == "launch":
                launches.append((words, []))
            else:
                launches[-1][1].append(words)
    return launches


def finish():
    print("%d passed, %d failed" % (passed, len(failed)))
    sys.exit(1 if failed else 0)
