#!/usr/bin/env python3
"""Flexible-body reduction against CalculiX (issue 7, bench/RESULTS.md "Flexible-body reduction").

The steel cantilever block 1.0 x 0.1 x 0.05 m of the CalculiX peer harness (beam.geo in --peers DIR/ccx),
meshed by gmsh with 10-node tetrahedra at the peer harness's three sizes
(about 20k, 100k and 300k DOF), on the same machine, side by side:

  (a) the task CalculiX does: the lowest 10 eigenpairs with the x = 0 face
      clamped.  ccx *FREQUENCY (SPOOLES + ARPACK) through run_ccx.py, and
      `motus-cli reduce JOB --method free --modes 10` on the very same job
      file (mesh, *BOUNDARY, material and section read from it);
  (b) a full Craig-Bampton reduction: one interface node at the x = 0 face
      through an RBE2 spider, 20 fixed-interface modes, all outputs (inertia
      invariants, display surface with modal stresses), written to a file:
      `motus-cli reduce CBJOB --method cb --spider FIX --modes 20 --out F`.

Every run is timed with /usr/bin/time -v (wall, user+sys, peak RSS). Motus runs
with OPENBLAS_NUM_THREADS = 1 and 2 (the supernodal factorisation's BLAS calls
are where the threads work), ccx with 1 and 2 threads as run_ccx.py sets them.
Runs alternate ccx, Motus (a), Motus (b) within each repetition, so that a
change in the machine's load hits both programs alike; the 1-minute load
average is sampled around every run and reported (other users share the
machine).  Repetitions: --reps (default 3; 1 when a run takes more than 150 s),
medians reported.  The frequency difference is the largest relative
difference of the ten lowest frequencies from ccx's, for (a) the normal modes
and for (b) the fixed-interface modes (the face held by the spider whose
reference node is the interface is the clamped face).  Prints Markdown tables
and writes bench/results/reduce.csv.

Usage: python3 bench/reduce_bench.py [--lc 0.02,0.0107,0.0072] [--threads 1,2]
         [--reps N] [--work DIR] [--cli build/app/motus-cli] [--peers DIR] [--out CSV]
"""
import argparse, os, re, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


LOADS = []


def timed(cmd, env, cwd):
    LOADS.append(os.getloadavg()[0])
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    tv = p.stderr
    el = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", tv).group(1)
    parts = [float(x) for x in el.split(":")]
    wall = parts[-1] + 60 * parts[-2] + (3600 * parts[-3] if len(parts) == 3 else 0)
    cpu = float(re.search(r"User time \(seconds\): (\S+)", tv).group(1)) + \
        float(re.search(r"System time \(seconds\): (\S+)", tv).group(1))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", tv).group(1)) / 1024
    LOADS.append(os.getloadavg()[0])
    return wall, cpu, rss, p.stdout


def motus_freqs(out):
    """Frequencies of the first table ('normal modes' or 'fixed-interface modes')."""
    f, on = [], False
    for line in out.splitlines():
        if "modes (Hz)" in line:
            on = True
            continue
        if on:
            m = re.match(r"\s+(\d+)\s+([0-9.eE+-]+)", line)
            if m and "sum" not in line:
                f.append(float(m.group(2)))
            elif f:
                break
    return f


def stages(out):
    m = re.search(r"factorisation ([0-9.]+) s, eigenvalues ([0-9.]+) s", out)
    return (float(m.group(1)), float(m.group(2))) if m else (float("nan"), float("nan"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lc", default="0.02,0.0107,0.0072")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--work", default=os.path.join(os.getcwd(), "reduce_bench_work"))
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "motus-cli"))
    ap.add_argument("--peers", default=os.environ.get("PEERS_DIR", ""), help="folder of the peer programs (default $PEERS_DIR)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "reduce.csv"))
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.peers, "ccx"))
    import run_ccx  # the peer harness: meshing and the ccx run
    os.makedirs(a.work, exist_ok=True)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    cli = os.path.abspath(a.cli)
    threads = [int(t) for t in a.threads.split(",")]
    rows = []
    for lc in a.lc.split(","):
        job, nn, nfix, tmesh = run_ccx.mesh(lc, a.work)
        cbjob = os.path.join(a.work, f"cb_{lc}.inp")  # same mesh, no *BOUNDARY: clamped through the spider
        with open(job) as f, open(cbjob, "w") as g:
            g.write(f.read().replace("*BOUNDARY\nFIX, 1, 3\n", ""))
        for th in threads:
            env = dict(os.environ, OPENBLAS_NUM_THREADS=str(th), OMP_NUM_THREADS=str(th))
            out = os.path.join(a.work, f"cb_{lc}.mtflex")
            ccx, ra, rb = [], [], []
            del LOADS[:]
            for rep in range(a.reps):
                LOADS.append(os.getloadavg()[0])
                ccx.append(run_ccx.run_ccx(job, th, a.work))
                ra.append(timed([cli, "reduce", os.path.basename(job), "--method", "free", "--modes", "10",
                                 "--no-surface", "--no-stress"], env, a.work))
                rb.append(timed([cli, "reduce", os.path.basename(cbjob), "--method", "cb", "--spider", "FIX",
                                 "--modes", "20", "--out", out], env, a.work))
                if max(ccx[-1][0], ra[-1][0], rb[-1][0]) > 150:
                    break
            ref = ccx[-1][3]
            fa, fb = motus_freqs(ra[-1][3]), motus_freqs(rb[-1][3])
            da = max((abs(x / y - 1) for x, y in zip(fa[:10], ref)), default=float("nan"))
            db = max((abs(x / y - 1) for x, y in zip(fb[:10], ref)), default=float("nan"))
            ndof = re.search(r"(\d+) free DOF", ra[-1][3]).group(1)
            med = lambda runs, i: statistics.median(x[i] for x in runs)
            r = dict(lc=lc, nodes=nn, dofs=3 * nn, free_dofs=int(ndof), threads=th, reps=len(ccx),
                     load_min=min(LOADS), load_max=max(LOADS),
                     ccx_wall=med(ccx, 0), ccx_cpu=med(ccx, 1), ccx_rss=max(x[2] for x in ccx),
                     a_wall=med(ra, 0), a_cpu=med(ra, 1), a_rss=max(x[2] for x in ra),
                     a_fact=stages(ra[-1][3])[0], a_eig=stages(ra[-1][3])[1], a_df=da,
                     b_wall=med(rb, 0), b_cpu=med(rb, 1), b_rss=max(x[2] for x in rb),
                     b_fact=stages(rb[-1][3])[0], b_eig=stages(rb[-1][3])[1], b_df=db,
                     f1=fa[0] if fa else float("nan"), ccx_f1=ref[0] if ref else float("nan"),
                     b_f1=fb[0] if fb else float("nan"))
            rows.append(r)
            print(f"lc={lc} threads={th}: ccx {r['ccx_wall']:.2f} s {r['ccx_rss']:.0f} MB; Motus (a) {r['a_wall']:.2f} s "
                  f"{r['a_rss']:.0f} MB, (b) {r['b_wall']:.2f} s {r['b_rss']:.0f} MB; max freq diff (a) "
                  f"{100 * da:.4f} %, (b) {100 * db:.4f} %; load {r['load_min']:.1f}..{r['load_max']:.1f}",
                  file=sys.stderr, flush=True)
    with open(a.out, "w") as f:
        keys = list(rows[0])
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join(str(r[k]) for k in keys) + "\n")
    print("(a) lowest 10 modes, x = 0 face clamped (ccx *FREQUENCY; motus-cli reduce --method free --modes 10)\n")
    print("| DOFs (free) | threads | reps | load | ccx s | ccx MB | Motus s | Motus MB | factor + Lanczos s | "
          "ccx / Motus time | Motus / ccx memory | max Δf vs ccx |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dofs']} ({r['free_dofs']}) | {r['threads']} | {r['reps']} | {r['load_min']:.1f}–{r['load_max']:.1f} | "
              f"{r['ccx_wall']:.2f} | {r['ccx_rss']:.0f} | {r['a_wall']:.2f} | {r['a_rss']:.0f} | "
              f"{r['a_fact']:.1f} + {r['a_eig']:.1f} | {r['ccx_wall'] / r['a_wall']:.2f} | "
              f"{r['a_rss'] / r['ccx_rss']:.2f} | {100 * r['a_df']:.5f} % |")
    print("\n(b) Craig-Bampton: spider at the x = 0 face, 20 fixed-interface modes, all outputs, body file written "
          "(motus-cli reduce --method cb --spider FIX --modes 20 --out F)\n")
    print("| DOFs (free) | threads | Motus s | Motus MB | factor + Lanczos s | vs ccx (a) time | vs ccx (a) memory | "
          "max Δf vs ccx (10 modes) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dofs']} ({r['free_dofs']}) | {r['threads']} | {r['b_wall']:.2f} | {r['b_rss']:.0f} | "
              f"{r['b_fact']:.1f} + {r['b_eig']:.1f} | {r['ccx_wall'] / r['b_wall']:.2f} | "
              f"{r['b_rss'] / r['ccx_rss']:.2f} | {100 * r['b_df']:.5f} % |")
    print()
    for r in rows:
        if r["threads"] == threads[0]:
            print(f"lc={r['lc']}: f1 ccx {r['ccx_f1']:.4f} Hz, Motus (a) {r['f1']:.4f} Hz, (b) {r['b_f1']:.4f} Hz")


if __name__ == "__main__":
    main()
