#!/usr/bin/env python3
"""Chain benchmark: Motus (bench/chain) against Simbody (the peer program simbody_chain in PEERS_DIR),
run side by side on this machine. Prints a Markdown table, the fitted exponents
alpha of time ~ N^alpha and the accuracy check. See bench/RESULTS.md.

Usage: bench/run_chain.py [--build DIR] [--peers-bin DIR] [--sizes 10,30,...] [--reps K]
                          [--no-ref]
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.environ.get("PEERS_DIR", "")  # the peer programs are not in this repository


def sh(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, **kw)


def build_motus(build):
    sh(["cmake", "-S", ROOT, "-B", build], stdout=subprocess.DEVNULL)
    sh(["make", "-C", build, "chain"], stdout=subprocess.DEVNULL)
    return os.path.join(build, "bench", "chain")


def build_simbody(outdir):
    exe = os.path.join(outdir, "simbody_chain")
    if not PEERS or not os.path.isdir(PEERS):
        sys.exit("set PEERS_DIR to the folder of the peer programs (simbody_*.cpp and build.sh), "
                 "or give --peers-bin with simbody_* already built")
    src = os.path.join(PEERS, "simbody_chain.cpp")
    if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src):
        return exe
    os.makedirs(outdir, exist_ok=True)
    # build.sh also builds simbody_grid and ode_chain; it stops with an error when
    # libode-dev is missing, after the Simbody programs are built.
    r = subprocess.run(["sh", os.path.join(PEERS, "build.sh"), outdir])
    if r.returncode != 0:
        print(f"note: build.sh exited {r.returncode} (ode_chain needs libode-dev); "
              "only simbody_chain is needed here", file=sys.stderr)
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        # same command line as build.sh
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "simbody"], check=True,
                               capture_output=True, text=True).stdout.split()
        sh(["g++", "-O2", "-DNDEBUG", "-o", exe, src] + flags)
    return exe


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    kv = dict(tok.split("=", 1) for tok in out.split() if "=" in tok)
    kv["_line"] = out
    return kv


def origin(kv):
    return [float(x) for x in kv["last_origin"].split(",")]


def fit_alpha(ns, ts):
    xs = [math.log(n) for n in ns]
    ys = [math.log(t) for t in ts]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--peers-bin", default=None, help="where to build simbody_chain (default BUILD/peers-bin)")
    ap.add_argument("--sizes", default="10,30,100,300,1000,3000")
    ap.add_argument("--reps", type=int, default=5, help="repetitions for N <= 300 (3 for N <= 1000, 1 above)")
    ap.add_argument("--ts", type=float, default=0.01, help="Motus Baumgarte period Ts (s; 0 = off)")
    ap.add_argument("--h", type=float, default=1e-3)
    ap.add_argument("--tfinal", type=float, default=1.0)
    ap.add_argument("--ref-n", type=int, default=1000)
    ap.add_argument("--no-ref", action="store_true", help="skip the h/10 reference run")
    a = ap.parse_args()
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    t_start = time.time()

    motus = build_motus(a.build)
    simbody = build_simbody(a.peers_bin or os.path.join(a.build, "peers-bin"))
    sizes = [int(s) for s in a.sizes.split(",")]
    hs, tf = repr(a.h), repr(a.tfinal)

    rows = []
    last = {}
    for n in sizes:
        reps = a.reps if n <= 300 else (min(a.reps, 3) if n <= 1000 else 1)
        tm, ts = [], []
        for _ in range(reps):  # alternate the two codes so that drift hits both alike
            km = run([motus, str(n), hs, tf, "1", repr(a.ts)])
            ks = run([simbody, str(n), hs, tf])
            tm.append(float(km["wall_s"]))
            ts.append(float(ks["wall_s"]))
        evals = int(km["evals"])
        mt, st_ = statistics.median(tm), statistics.median(ts)
        rows.append(dict(n=n, reps=reps, motus=mt, simbody=st_, evals=evals, mmin=min(tm), smin=min(ts),
                         us=1e6 * mt / evals / n, sim_real=int(ks["realizations"]),
                         sus=1e6 * st_ / int(ks["realizations"]) / n))
        last[n] = (km, ks)
        print(f"N={n}: motus {mt:.4f} s  simbody {st_:.4f} s  ({reps} reps)", file=sys.stderr, flush=True)

    print(f"\nChain benchmark, h = {a.h:g} s, t = {a.tfinal:g} s; Motus RK4 (4 evaluations/step, Ts = {a.ts:g} s), "
          "Simbody RK-Merson fixed step (5 realizations/step). Wall time of the stepping only: median (min) of the "
          "repetitions, the two codes alternating.\n")
    print("| N | reps | Motus s | Simbody s | Simbody/Motus | Motus µs/body/eval | Simbody µs/body/realization |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['n']} | {r['reps']} | {r['motus']:.4f} ({r['mmin']:.4f}) | {r['simbody']:.4f} ({r['smin']:.4f}) "
              f"| {r['simbody'] / r['motus']:.2f} | {r['us']:.4f} | {r['sus']:.4f} |")

    print("\n| fitted α (time ∝ N^α) | Motus | Simbody |")
    print("|---|---:|---:|")
    for label, sel in (("N ≥ 100", [r for r in rows if r["n"] >= 100]), ("all N", rows)):
        if len(sel) >= 2:
            am = fit_alpha([r["n"] for r in sel], [r["motus"] for r in sel])
            as_ = fit_alpha([r["n"] for r in sel], [r["simbody"] for r in sel])
            print(f"| {label} | {am:.3f} | {as_:.3f} |")

    print("\nFinal origin of the last body (m):\n")
    print("| N | Motus h | Motus last_origin | Simbody last_origin | |Motus − Simbody| |")
    print("|---:|---:|---|---|---:|")
    for n in sizes:
        km, ks = last[n]
        pm, ps = origin(km), origin(ks)
        print(f"| {n} | {a.h:g} | {km['last_origin']} | {ks['last_origin']} | {math.dist(pm, ps):.3e} |")
    if not a.no_ref and a.ref_n in last:
        n = a.ref_n
        href = a.h / 10
        kr = run([motus, str(n), repr(href), tf, "1", repr(a.ts)])
        pm, pr, ps = origin(last[n][0]), origin(kr), origin(last[n][1])
        print(f"| {n} | {href:g} (reference) | {kr['last_origin']} | | {math.dist(pr, ps):.3e} |")
        d = math.dist(pm, pr)
        print(f"\nAccuracy, N = {n}: |Motus(h={a.h:g}) − Motus(h={href:g})| = {d:.3e} m "
              f"(target 1e-7 m: {'met' if d <= 1e-7 else 'NOT met'}); reference run took {float(kr['wall_s']):.2f} s.")
        k0 = run([motus, str(n), hs, tf, "1", "0"])
        d0 = math.dist(origin(k0), pr)
        print(f"Same with Baumgarte off (Ts = 0) at h = {a.h:g}: |Motus − reference| = {d0:.3e} m "
              f"(gmax={k0['gmax']} m, gdmax={k0['gdmax']} m/s).")
        print(f"Motus constraint violation at the end (h={a.h:g}): gmax={last[n][0]['gmax']} m, "
              f"gdmax={last[n][0]['gdmax']} m/s; (h={href:g}): gmax={kr['gmax']}, gdmax={kr['gdmax']}")
    print(f"\nScript wall time {time.time() - t_start:.0f} s.")


if __name__ == "__main__":
    main()
