#!/usr/bin/env python3
"""Wall time per simulated second of the worked examples (bench/RESULTS.md,
"Worked examples"): each variant is the example with some `parameter` lines
replaced, run by `motus-cli run` with the model's own solver settings; the
best of --repeat runs is reported. The wall time is the run's own, as
motus-cli reports it: reading the model and reducing flexible bodies are not
in it. A model that starts from the static equilibrium (`start statics`) is
timed from its assembled start (the integration alone), and the search for
the equilibrium is given apart (the difference of the two runs). Run it on
an idle machine.

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


def run(cli, text, extra=()):
    # next to the examples: their meshes are found relative to the model
    with tempfile.NamedTemporaryFile("w", suffix=".motus.txt", dir=os.path.join(ROOT, "projects"), delete=False,
                                     encoding="utf-8") as f:
        f.write(text)
        name = f.name
    try:
        out = subprocess.run([cli, "run", name, *extra], capture_output=True, text=True, check=True).stdout
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
    print("| example | variant | method | steps | evaluations | simulated s | run s (best of %d) | run per simulated s | "
          "static start s |" % a.repeat)
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for ex, label, params in VARIANTS:
        text = variant_text(os.path.join(ROOT, "projects", ex + ".motus.txt"), params)
        statics = re.search(r"^solver .*\bstart statics\b", text, re.M) is not None
        best = None
        first = None
        for _ in range(a.repeat):
            r = run(a.cli, text, ("--start", "assembled"))  # the integration alone
            if best is None or r[4] < best[4]:
                best = r
            if statics:  # the model's own start: the static equilibrium first
                w = run(a.cli, text)[4]
                first = w if first is None or w < first else first
        method, t, steps, evals, wall = best
        st = "%.3f" % max(first - wall, 0.0) if statics else "—"
        print("| %s | %s | %s | %d | %d | %g | %.3f | %.3f | %s |" % (ex, label, method, steps, evals, t, wall, wall / t, st))
        sys.stdout.flush()

if __name__ == "__main__":
    main()
