#!/usr/bin/env python3
"""Loop-closure methods on the two models of Ivanov & Poloskov (bench/loops.c):
runs lagrange, baumgarte, penalty and mlf on the double pendulum and on the
40-plate lattice, writes the violation histories as CSV, draws them on a log
scale as SVG (no plotting library needed) and prints a Markdown table of CPU
times and violations next to the published ones. See bench/RESULTS.md, "Loops".

Usage: bench/run_loops.py [--build DIR] [--out DIR] [--reps K] [--integrator dp54|rk4]
"""
import argparse
import math
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
METHODS = ["lagrange", "baumgarte", "penalty", "mlf"]
COLOURS = {"lagrange": "#d62728", "baumgarte": "#1f77b4", "penalty": "#2ca02c", "mlf": "#9467bd"}
# Tables 1 and 2 of the paper: CPU seconds (Mathematica NDSolve), methods a, b, c, d (MLF + Baumgarte), e (MLF + PID)
PUBLISHED = {"pendulum": {"lagrange": 2.83, "baumgarte": 3.78, "penalty": 13.63, "mlf+b": 2.19, "mlf": 5.77},
             "lattice": {"lagrange": 17.02, "baumgarte": 19.77, "penalty": 72.83, "mlf+b": 14.17, "mlf": 56.39}}


def run(exe, model, method, integ, csv):
    out = subprocess.run([exe, model, method, integ, csv], check=True, capture_output=True, text=True,
                         env=dict(os.environ, OPENBLAS_NUM_THREADS="1")).stdout.strip().splitlines()[-1]
    return dict(tok.split("=", 1) for tok in out.split() if "=" in tok)


def read_csv(path):
    t, g = [], []
    with open(path) as f:
        next(f)
        for line in f:
            a, b, _ = line.split(",")
            t.append(float(a))
            g.append(float(b))
    return t, g


def svg_plot(path, title, series, tmax):
    """Line plot of max |g| against t, log-scale y, one polyline per method."""
    W, H, L, R, T, B = 720, 420, 70, 130, 40, 50
    vals = [v for _, (_, g) in series for v in g if v > 0]
    lo = math.floor(math.log10(max(min(vals), 1e-16))) if vals else -12
    hi = math.ceil(math.log10(max(vals))) if vals else 0
    if hi <= lo:
        hi = lo + 1
    X = lambda t: L + (W - L - R) * t / tmax
    Y = lambda v: T + (H - T - B) * (hi - math.log10(max(v, 10.0 ** lo))) / (hi - lo)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>']
    for e in range(lo, hi + 1):
        y = Y(10.0 ** e)
        s.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        s.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
    nt = 5
    for i in range(nt + 1):
        t = tmax * i / nt
        s.append(f'<line x1="{X(t):.1f}" y1="{T}" x2="{X(t):.1f}" y2="{H - B}" stroke="#eee"/>')
        s.append(f'<text x="{X(t):.1f}" y="{H - B + 16}" text-anchor="middle">{t:g}</text>')
    s.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="black"/>')
    s.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">t, s</text>')
    s.append(f'<text x="16" y="{(T + H - B) / 2}" text-anchor="middle" transform="rotate(-90 16 {(T + H - B) / 2})">'
             'largest |g| over the joints, m</text>')
    for k, (name, (t, g)) in enumerate(series):
        pts = " ".join(f"{X(a):.1f},{Y(b):.1f}" for a, b in zip(t, g))
        s.append(f'<polyline points="{pts}" fill="none" stroke="{COLOURS[name]}" stroke-width="1.3"/>')
        ly = T + 16 + 18 * k
        s.append(f'<line x1="{W - R + 10}" y1="{ly - 4}" x2="{W - R + 30}" y2="{ly - 4}" stroke="{COLOURS[name]}" stroke-width="2"/>')
        s.append(f'<text x="{W - R + 36}" y="{ly}">{name}</text>')
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(HERE, "loops-results"))
    ap.add_argument("--reps", type=int, default=3, help="runs per method (median CPU time)")
    ap.add_argument("--integrator", default="dp54")
    a = ap.parse_args()
    subprocess.run(["cmake", "--build", a.build, "--target", "loops"], check=True, stdout=subprocess.DEVNULL)
    exe = os.path.join(a.build, "bench", "loops")
    os.makedirs(a.out, exist_ok=True)
    print(f"load average before: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    for model, tmax in (("pendulum", 20.0), ("lattice", 4.0)):
        rows, series = [], []
        for method in METHODS:
            csv = os.path.join(a.out, f"{model}_{method}.csv")
            runs = [run(exe, model, method, a.integrator, csv if r == 0 else "-") for r in range(a.reps)]
            kv = runs[0]
            cpu = statistics.median(float(r["cpu_s"]) for r in runs)
            rows.append((method, cpu, kv))
            series.append((method, read_csv(csv)))
        svg_plot(os.path.join(a.out, f"{model}.svg"),
                 f"{model}: constraint violation ({a.integrator}, rtol 1e-6)", series, tmax)
        base = rows[0][1]
        print(f"\n### {model} ({rows[0][2]['bodies']} bodies, {rows[0][2]['rows']} constraint rows, "
              f"{tmax:g} s, {a.integrator})\n")
        print("| method | CPU s (median of %d) | relative | steps | evaluations | max \\|g\\| m | final \\|g\\| m | "
              "published CPU s | published relative |" % a.reps)
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        pub = PUBLISHED[model]
        for method, cpu, kv in rows:
            p = pub[method]
            print(f"| {method} | {cpu:.3f} | {cpu / base:.2f} | {kv['steps']} | {kv['evals']} | {kv['gmax']} | "
                  f"{kv['gfinal']} | {p:g} | {p / pub['lagrange']:.2f} |")
        print(f"| mlf + Baumgarte (paper's d) | = baumgarte | | | | | | {pub['mlf+b']:g} | "
              f"{pub['mlf+b'] / pub['lagrange']:.2f} |")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
