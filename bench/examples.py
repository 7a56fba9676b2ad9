#!/usr/bin/env python3
"""Wall time per simulated second of the worked examples (bench/RESULTS.md,
"Worked examples"): each variant is the example with some `parameter` lines
replaced, run by `motus-cli run` with the model's own solver settings; the
best of --repeat runs is reported. The wall time is the run's own, as
motus-cli reports it: reading the model and reducing flexible bodies are not
in it. Run it on an idle machine.

    python3 bench/examples.py [--cli build/app/motus-cli] [--repeat 3]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (example, label, {parameter: value}); parameters absent from the file are an error
VARIANTS = [
    ("manipulator-flex", "as shipped (8 elements, 4 modes per link)", {}),
    ("manipulator-flex", "links 1e6 times stiffer", {"stiff": "1e6"}),
    ("railcar-flex", "rigid carbody (modes 0)", {"modes": "0"}),
    ("railcar-flex", "6 modes", {"modes": "6"}),
    ("railcar-flex", "24 modes", {"modes": "24"}),
    ("railcar-flex", "70 modes", {"modes": "70"}),
]


def variant_text(path, params):
    text = open(path, encoding="utf-8").read()
    for name, value in params.items():
        pat = re.compile(r"^parameter %s .*$" % re.escape(name), re.M)
        if not pat.search(text):
            sys.exit("%s has no parameter %s" % (path, name))
        text = pat.sub("parameter %s %s" % (name, value), text)
    return text


def run(cli, text):
    # next to the examples: their meshes are found relative to the model
    with tempfile.NamedTemporaryFile("w", suffix=".motus.txt", dir=os.path.join(ROOT, "projects"), delete=False,
                                     encoding="utf-8") as f:
        f.write(text)
        name = f.name
    try:
        out = subprocess.run([cli, "run", name], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(name)
    m = re.search(r"^done: (\S+) to t = (\S+) s, (\d+) steps .*?, (\d+) evaluations, .*?, ([0-9.]+) s wall", out, re.M)
    if not m:
        sys.exit("no summary line in:\n" + out)
    return m.group(1), float(m.group(2)), int(m.group(3)), int(m.group(4)), float(m.group(5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "motus-cli"))
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print("| example | variant | method | steps | evaluations | simulated s | wall s (best of %d) | wall per simulated s |" % a.repeat)
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for ex, label, params in VARIANTS:
        text = variant_text(os.path.join(ROOT, "projects", ex + ".motus.txt"), params)
        best = None
        for _ in range(a.repeat):
            r = run(a.cli, text)
            if best is None or r[4] < best[4]:
                best = r
        method, t, steps, evals, wall = best
        print("| %s | %s | %s | %d | %d | %g | %.3f | %.3f |" % (ex, label, method, steps, evals, t, wall, wall / t))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
