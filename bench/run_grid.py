#!/usr/bin/env python3
"""Grid benchmark: Motus (bench/grid) against Simbody (the peer program simbody_grid in PEERS_DIR),
an R x C lattice of plates with spherical joints (closed loops), run side by side on
this machine. Prints a Markdown table, the fitted exponent alpha of time ~ bodies^alpha
and the comparison with the targets of issue 3, item 9. See bench/RESULTS.md ("Grid").

Simbody runs where it can (as the peers' own harness runs it): 3x3, 5x5 and 8x8 over 1 s,
12x12 over its first 0.1 s (it goes NaN at t ~ 0.14 s) with the time scaled to 1 s;
not above 12x12. Its failures (non-zero exit, NaN, failed projections) are reported.

Usage: bench/run_grid.py [--build DIR] [--peers-bin DIR] [--sizes 3x3,5x5,...]
                         [--peer-sizes 3x3,5x5,8x8,12x12@0.1] [--reps K] [--ts TS]
                         [--no-nan-trace]
"""
import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.environ.get("PEERS_DIR", "")  # the peer programs are not in this repository
# Simbody settings of run_mbs.py: consTol 1e-8, accuracy 1e-3, rotation-vector springs.
PEER_ARGS = ["springs", "1e-8", "1e-3"]


def sh(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, **kw)


def build_motus(build):
    sh(["cmake", "-S", ROOT, "-B", build], stdout=subprocess.DEVNULL)
    sh(["cmake", "--build", build, "-j2", "--target", "grid"], stdout=subprocess.DEVNULL)
    return os.path.join(build, "bench", "grid")


def build_simbody(outdir):
    exe = os.path.join(outdir, "simbody_grid")
    if not PEERS or not os.path.isdir(PEERS):
        sys.exit("set PEERS_DIR to the folder of the peer programs (simbody_*.cpp and build.sh), "
                 "or give --peers-bin with simbody_* already built")
    src = os.path.join(PEERS, "simbody_grid.cpp")
    if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src):
        return exe
    os.makedirs(outdir, exist_ok=True)
    # build.sh stops with an error when libode-dev is missing (ode_chain), after
    # the Simbody programs are built.
    r = subprocess.run(["sh", os.path.join(PEERS, "build.sh"), outdir])
    if r.returncode != 0:
        print(f"note: build.sh exited {r.returncode} (ode_chain needs libode-dev); "
              "only simbody_grid is needed here", file=sys.stderr)
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        # same command line as build.sh
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "simbody"], check=True,
                               capture_output=True, text=True).stdout.split()
        sh(["g++", "-O2", "-DNDEBUG", "-o", exe, src] + flags)
    return exe


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd):
    """Runs one program; returns its key=value line as a dict, with _rc, _err, _line and
    _cpu (user + system CPU seconds of the whole process, setup included)."""
    c0 = child_cpu()
    p = subprocess.run(cmd, capture_output=True, text=True)
    c1 = child_cpu()
    lines = [l for l in p.stdout.splitlines() if l.startswith("code=")]
    kv = dict(tok.split("=", 1) for tok in lines[-1].split() if "=" in tok) if lines else {}
    kv["_rc"] = p.returncode
    kv["_err"] = p.stderr.strip()
    kv["_line"] = lines[-1] if lines else ""
    kv["_cpu"] = c1 - c0
    return kv


def vec(s):
    return [float(x) for x in s.split(",")]


def fit_alpha(ns, ts):
    xs = [math.log(n) for n in ns]
    ys = [math.log(t) for t in ts]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else float("nan")


def parse_sizes(s):
    out = []
    for tok in s.split(","):
        tok = tok.strip()
        if not tok:
            continue
        tf = None
        if "@" in tok:
            tok, t = tok.split("@")
            tf = float(t)
        r, c = (int(x) for x in tok.lower().split("x"))
        out.append((r, c, tf))
    return out


def peer_status(k):
    """Plain-words status of one Simbody run."""
    if k["_rc"] != 0:
        return "failed (exit %d: %s)" % (k["_rc"], k["_err"].splitlines()[-1] if k["_err"] else "no message")
    bad = []
    if any(not math.isfinite(x) for x in vec(k["last_centre"])) or k.get("qerr_norm", "").lower() in ("nan", "-nan"):
        bad.append("NaN")
    if int(k.get("proj_failures", 0)) > 0:
        bad.append(f"{k['proj_failures']} failed projections")
    # springs and dampers only dissipate: a gain of energy means the run diverged
    de = float(k.get("energy_change", "nan"))
    if de > 1.0:
        bad.append("diverged")
    return (", ".join(bad) if bad else "ok") + f"; ΔE = {de:+.3g} J, qerr {k.get('qerr_norm', '?')}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--peers-bin", default=None, help="where to build simbody_grid (default BUILD/peers-bin)")
    ap.add_argument("--sizes", default="3x3,5x5,8x8,12x12,16x16,20x20")
    ap.add_argument("--peer-sizes", default="3x3,5x5,8x8,12x12@0.1",
                    help="Simbody sizes; RxC@T runs T seconds and scales the time to 1 s")
    ap.add_argument("--reps", type=int, default=3, help="Motus repetitions per size (median)")
    ap.add_argument("--peer-reps", type=int, default=3, help="Simbody repetitions for runs under 10 s (else 1)")
    ap.add_argument("--ts", type=float, default=0.01, help="Motus Baumgarte period Ts (s; 0 = off)")
    ap.add_argument("--h", type=float, default=1e-3)
    ap.add_argument("--tfinal", type=float, default=1.0)
    ap.add_argument("--no-nan-trace", action="store_true",
                    help="skip the traced Simbody run that locates the NaN of the largest peer size")
    a = ap.parse_args()
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    os.environ["OMP_NUM_THREADS"] = "1"
    t_start = time.time()

    grid = build_motus(a.build)
    sizes = [(r, c) for r, c, _ in parse_sizes(a.sizes)]
    peer = {(r, c): tf for r, c, tf in parse_sizes(a.peer_sizes)}
    # --peer-sizes '' measures Motus alone: Simbody is not needed then
    simbody = build_simbody(a.peers_bin or os.path.join(a.build, "peers-bin")) if peer else None
    hs = repr(a.h)

    rows = []
    for (r, c) in sizes:
        nb = r * c
        tm, cm, ks_all = [], [], []
        km_check = None
        peer_tf = (peer[(r, c)] or a.tfinal) if (r, c) in peer else None
        peer_reps = 0
        for rep in range(a.reps):  # alternate the two codes so that drift hits both alike
            # first repetition also does the untimed check run (violation sampled every 10 steps)
            km = run([grid, str(r), str(c), hs, repr(a.tfinal), "1", repr(a.ts), "1" if rep == 0 else "0"])
            if km["_rc"] != 0:
                print(f"{r}x{c}: Motus FAILED (exit {km['_rc']}): {km['_err']}", file=sys.stderr, flush=True)
                break
            if rep == 0:
                km_check = km
            tm.append(float(km["wall_s"]))
            cm.append(float(km["cpu_s"]))
            if peer_tf is not None and rep == 0:
                # setup CPU of the peer (model build, topology): a 1-step run, subtracted below
                kp = run([simbody, str(r), str(c), hs, hs] + PEER_ARGS)
                peer_setup = max(0.0, kp["_cpu"] - float(kp.get("wall_s", 0))) if kp["_rc"] == 0 else 0.0
            if peer_tf is not None and (rep == 0 or rep < peer_reps):
                ks = run([simbody, str(r), str(c), hs, repr(peer_tf)] + PEER_ARGS)
                ks_all.append(ks)
                if rep == 0:
                    w = float(ks.get("wall_s", "inf")) if ks["_rc"] == 0 else float("inf")
                    peer_reps = a.peer_reps if w / (peer_tf or 1) < 10 else 1
        row = dict(r=r, c=c, n=nb, motus=None, ok=bool(tm) and km_check is not None)
        if row["ok"]:
            row.update(motus=statistics.median(tm), mmin=min(tm), reps=len(tm), km=km_check,
                       mcpu=statistics.median(cm),
                       us=1e6 * statistics.median(tm) / int(km_check["evals"]) / nb)
        else:
            row.update(err=km["_err"])
        if ks_all:
            good = [k for k in ks_all if k["_rc"] == 0]
            tsim = float(good[0]["t"]) if good else float("nan")
            row.update(ks=ks_all[-1], peer_tf=peer_tf, peer_reps=len(ks_all), peer_status=peer_status(ks_all[-1]),
                       simbody=statistics.median(float(k["wall_s"]) / tsim for k in good) if good else None,
                       scpu=statistics.median(max(k["_cpu"] - peer_setup, 1e-9) / tsim for k in good) if good else None,
                       peer_extrap=peer_tf < a.tfinal)
        rows.append(row)
        msg = f"{r}x{c}: motus {row['motus']:.4f} s" if row["ok"] else f"{r}x{c}: motus FAILED"
        if row.get("simbody"):
            msg += f"  simbody {row['simbody']:.3f} s/sim-s ({row['peer_status']})"
        print(msg, file=sys.stderr, flush=True)

    # Where does the largest Simbody run go wrong? A traced run to a little past the timed span.
    nan_trace = None
    extrap = [k for k, tf in peer.items() if tf is not None and tf < a.tfinal]
    if extrap and not a.no_nan_trace:
        r, c = max(extrap, key=lambda rc: rc[0] * rc[1])
        t_end = 0.16
        p = subprocess.run([simbody, str(r), str(c), hs, repr(t_end)] + PEER_ARGS + ["0.01"],
                           capture_output=True, text=True)
        first_nan = None
        for line in p.stderr.splitlines():
            if line.startswith("t=") and "nan" in line.lower():
                first_nan = line
                break
        msg = " ".join(l.strip() for l in p.stderr.splitlines() if l.strip() and not l.startswith("t="))
        trace = [l for l in p.stderr.splitlines() if l.startswith("t=")]
        nan_trace = (r, c, t_end, p.returncode, first_nan, (trace[-1] if trace else "") + (" — " + msg if msg else ""))

    # ---- report ------------------------------------------------------------
    print(f"\nGrid benchmark, h = {a.h:g} s, 1 s simulated; Motus RK4 (4 evaluations/step), Baumgarte "
          f"Ts = {a.ts:g} s, ξ = 1, no projection, median of {a.reps} runs; Simbody RK-Merson fixed step, "
          "projection consTol 1e-8 (run_mbs.py settings). Seconds per simulated second of the stepping only: "
          "wall time median (min), and CPU time (Motus: process CPU time of mt_run; Simbody: CPU time of the "
          "process less its setup, measured by a 1-step run). \\|g\\| is sampled every 10 steps over the run.\n")
    print("| size | bodies | Motus wall s | Motus CPU s | Simbody wall s | Simbody CPU s | Simbody/Motus wall "
          "| Simbody/Motus CPU | Motus µs/body/eval (wall) | Motus max \\|g\\| kept rows | max \\|g\\| removed rows "
          "| ndep | Simbody run |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for w in rows:
        size = f"{w['r']}×{w['c']}"
        if not w["ok"]:
            print(f"| {size} | {w['n']} | FAILED | | | | | | | | | | {w['err']} |")
            continue
        km = w["km"]
        sim, scpu = w.get("simbody"), w.get("scpu")
        tag = f" ({w['peer_tf']:g} s run, scaled)" if w.get("peer_extrap") else ""
        sims = "—" if sim is None else f"{sim:.3f}{tag}"
        scpus = "—" if scpu is None else f"{scpu:.3f}"
        ratio = "—" if sim is None else f"{sim / w['motus']:.1f}"
        ratio_c = "—" if scpu is None else f"{scpu / w['mcpu']:.1f}"
        status = w.get("peer_status", "not run")
        print(f"| {size} | {w['n']} | {w['motus']:.4f} ({w['mmin']:.4f}) | {w['mcpu']:.4f} | {sims} | {scpus} | "
              f"{ratio} | {ratio_c} | {w['us']:.3f} | {km['gmax_run']} m | {km['gmax_all_run']} m | {km['ndep']} "
              f"| {status} |")

    ok = [w for w in rows if w["ok"]]
    print("\n| fitted α (time ∝ bodies^α) | Motus wall | Motus CPU | Simbody wall | Simbody CPU |")
    print("|---|---:|---:|---:|---:|")
    alphas = {}
    for label, lo in (("all sizes", 0), ("bodies ≥ 25", 25), ("bodies ≥ 64", 64)):
        sel = [w for w in ok if w["n"] >= lo]
        ps = [w for w in sel if w.get("simbody")]
        f = lambda ws, key: fit_alpha([w["n"] for w in ws], [w[key] for w in ws]) if len(ws) >= 2 else float("nan")
        alphas[label] = (f(sel, "motus"), f(sel, "mcpu"))
        print(f"| {label} | {alphas[label][0]:.3f} | {alphas[label][1]:.3f} | {f(ps, 'simbody'):.3f} | "
              f"{f(ps, 'scpu'):.3f} |")

    print("\nFinal centre of plate (R−1, C−1), m (Motus h = %g; Simbody where it finished):\n" % a.h)
    print("| size | Motus | Simbody | \\|Motus − Simbody\\| |")
    print("|---|---|---|---:|")
    for w in ok:
        ks = w.get("ks")
        sb, d = "", ""
        if ks and ks["_rc"] == 0 and not w.get("peer_extrap"):
            sb = ks["last_centre"]
            pm, ps = vec(w["km"]["last_centre"]), vec(sb)
            d = f"{math.dist(pm, ps):.3e}" if all(map(math.isfinite, ps)) else "NaN"
        print(f"| {w['r']}×{w['c']} | {w['km']['last_centre']} | {sb} | {d} |")

    print("\nMotus runs (check run, first repetition):\n")
    for w in ok:
        print("    " + w["km"]["_line"])
    print("\nSimbody runs (last repetition):\n")
    for w in rows:
        if w.get("ks"):
            k = w["ks"]
            print("    " + (k["_line"] or f"(no output) exit {k['_rc']}: {k['_err']}"))
            if k["_err"]:
                print("      stderr: " + k["_err"].replace("\n", " | ")[:400])
    if nan_trace:
        r, c, t_end, rc, first_nan, last = nan_trace
        print(f"\nSimbody {r}×{c} traced to t = {t_end:g} s (exit {rc}): first NaN sample: {first_nan or 'none'}; "
              f"last trace line and message: {last}")

    # ---- targets -----------------------------------------------------------
    print("\n| target | measured | met? |")
    print("|---|---|---|")
    allrun = all(w["ok"] for w in rows) and len(rows) == len(sizes)
    gk = max((float(w["km"]["gmax_run"]) for w in ok), default=float("nan"))
    ga = max((float(w["km"]["gmax_all_run"]) for w in ok), default=float("nan"))
    print(f"| every size runs to the end, bounded constraint error | {'all sizes ran' if allrun else 'a size FAILED'}; "
          f"max \\|g\\| over kept rows {gk:.2e} m; over all rows (incl. the removed ones) {ga:.2e} m | "
          f"{'yes' if allrun and gk < 1e-4 else 'no'} (kept rows){'' if ga < 1e-4 else '; removed rows open up: no'} |")
    am, amc = alphas["all sizes"]
    print(f"| α ≤ 1.10 (published absolute-coordinate code 1.22) | wall {am:.3f}, CPU {amc:.3f} (all sizes); "
          f"wall {alphas['bodies ≥ 64'][0]:.3f}, CPU {alphas['bodies ≥ 64'][1]:.3f} (≥ 64 bodies) | "
          f"{'yes' if max(am, amc) <= 1.10 else 'no'} |")
    w12 = next((w for w in ok if (w["r"], w["c"]) == (12, 12)), None)
    if w12 and w12.get("simbody"):
        ratio, ratio_c = w12["simbody"] / w12["motus"], w12["scpu"] / w12["mcpu"]
        print(f"| ≥ 50× less time than Simbody at 12×12 | wall {ratio:.1f}×, CPU {ratio_c:.1f}× (Simbody "
              f"{w12['simbody']:.1f} s wall, {w12['scpu']:.1f} s CPU per simulated s, scaled from "
              f"{w12['peer_tf']:g} s; Motus {w12['motus']:.2f} s wall, {w12['mcpu']:.2f} s CPU) | "
              f"{'yes' if min(ratio, ratio_c) >= 50 else 'no'} |")
    else:
        print("| ≥ 50× less time than Simbody at 12×12 | not measured | — |")
    print(f"\nScript wall time {time.time() - t_start:.0f} s.")


if __name__ == "__main__":
    main()
