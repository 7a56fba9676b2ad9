#!/usr/bin/env python3
"""Landing gear with a flexible strut housing (projects/landing-gear-flex.motus.txt):
wall time per simulated second for 10, 30 and 60 modes, explicit (dp54) against
implicit (hht, generalised-alpha) integration (issue 8; bench/RESULTS.md "Flexible
landing gear").

For each number of fixed-interface modes the model is copied with 'modes N'
and without its 'bottomed' event (events are located by rk4 and dp54 only),
checked once (the reduction is timed separately), then run for --until seconds
by each method with `motus-cli run --out`; the script reports wall seconds per
simulated second, steps, evaluations, and the peak ground load, strut stroke
and sideways deflection of the bottom bearing, so that the methods' answers
can be compared. OPENBLAS_NUM_THREADS=1.

Usage: python3 bench/landing_flex.py [--modes 10,30,60] [--until 0.5]
         [--methods dp54,hht,galpha] [--hstep 5e-4] [--cli build/app/motus-cli]
"""
import argparse, csv, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, env):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return wall, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--modes", default="10,30,60")
    ap.add_argument("--until", type=float, default=0.5)
    ap.add_argument("--methods", default="dp54,hht,galpha")
    ap.add_argument("--hstep", type=float, default=5e-4, help="step of the implicit methods (= output step), s")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "motus-cli"))
    a = ap.parse_args()
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    src = open(os.path.join(ROOT, "projects", "landing-gear-flex.motus.txt")).read()
    mesh = os.path.join(ROOT, "projects", "meshes", "strut.msh")
    work = tempfile.mkdtemp(prefix="motus-landing-")
    rows = []
    try:
        for n in [int(x) for x in a.modes.split(",")]:
            text = re.sub(r"modes \d+", f"modes {n}", src, count=1).replace('"meshes/strut.msh"', f'"{mesh}"')
            text = "\n".join(l for l in text.splitlines() if not l.startswith("event bottomed"))
            model = os.path.join(work, f"lg{n}.motus.txt")
            open(model, "w").write(text)
            wred, _ = run([a.cli, "check", model], env)
            for meth in a.methods.split(","):
                if meth in ("hht", "galpha"):
                    solver = f"--method {meth} --step {a.hstep}"
                else:
                    solver = f"--method {meth} --step 0.001"
                out = os.path.join(work, f"lg{n}-{meth}.csv")
                cmd = [a.cli, "run", model, "--until", str(a.until), "--out", out] + solver.split()
                wall, stdout = run(cmd, env)
                m = re.search(r"(\d+) steps.*?(\d+) evaluations.*?([0-9.]+) s wall", stdout)
                steps, evals, solve = (int(m.group(1)), int(m.group(2)), float(m.group(3))) if m else (0, 0, wall)
                r = list(csv.DictReader(open(out)))
                gl = max(float(x["ground_load"]) for x in r)
                st = max(float(x["stroke"]) for x in r)
                bend = max(abs(float(x["bend"])) for x in r)
                rows.append((n, meth, wred, solve, solve / a.until, steps, evals, gl, st, bend))
                print(f"modes {n:3d} {meth:7s}: reduction+check {wred:6.2f} s, run {solve:8.2f} s "
                      f"({solve / a.until:8.2f} s per simulated s), {steps} steps, {evals} evaluations; "
                      f"peak ground load {gl / 1e3:.2f} kN, stroke {st:.4f} m, bend {bend * 1e3:.4f} mm", flush=True)
    finally:
        shutil.rmtree(work)
    print()
    print("| modes | method | step | wall s per simulated s | steps | evaluations | peak ground load kN | max stroke m | max bend mm |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    for n, meth, wred, solve, per, steps, evals, gl, st, bend in rows:
        step = f"{a.hstep:g} s" if meth in ("hht", "galpha") else "adaptive"
        print(f"| {n} | {meth} | {step} | {per:.2f} | {steps} | {evals} | {gl / 1e3:.2f} | {st:.4f} | {bend * 1e3:.4f} |")


if __name__ == "__main__":
    main()
