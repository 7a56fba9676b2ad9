#!/usr/bin/env python3
"""Flexible-body reduction against CalculiX (issue 7, bench/RESULTS.md "Reduction").

The steel cantilever block 1.0 x 0.1 x 0.05 m of ../shared/peers/ccx/beam.geo,
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
with OPENBLAS_NUM_THREADS = 1 and 2 (CHOLMOD's supernodal factorisation is
where the threads work), ccx with 1 and 2 threads as run_ccx.py sets them.
Repetitions: --reps (default 3; 1 when a run takes more than 150 s), medians
reported.  Prints Markdown tables and writes bench/results/reduce.csv.

Usage: python3 bench/reduce_bench.py [--lc 0.02,0.0107,0.0072] [--threads 1,2]
         [--reps N] [--work DIR] [--cli build/app/motus-cli] [--peers DIR]
"""
import argparse, os, re, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def timed(cmd, env, cwd):
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


def repeat(fn, reps):
    runs = [fn()]
    n = reps if runs[0][0] < 150 else 1
    for _ in range(n - 1):
        runs.append(fn())
    return runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lc", default="0.02,0.0107,0.0072")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--work", default=os.path.join(os.getcwd(), "reduce_bench_work"))
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "motus-cli"))
    ap.add_argument("--peers", default=os.path.join(ROOT, "..", "shared", "peers"))
    ap.add_argument("--out", default=os.path.join(HERE, "results", "reduce.csv"))
    ap.add_argument("--skip-ccx", action="store_true")
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
        ccx = {}
        if not a.skip_ccx:
            for th in threads:
                runs = repeat(lambda: run_ccx.run_ccx(job, th, a.work), a.reps)
                ccx[th] = dict(wall=statistics.median(r[0] for r in runs), cpu=statistics.median(r[1] for r in runs),
                               rss=max(r[2] for r in runs), freqs=runs[-1][3], reps=len(runs))
                print(f"lc={lc} ccx threads={th}: {ccx[th]['wall']:.2f} s, {ccx[th]['rss']:.0f} MB", file=sys.stderr,
                      flush=True)
        for th in threads:
            env = dict(os.environ, OPENBLAS_NUM_THREADS=str(th), OMP_NUM_THREADS=str(th))
            ra = repeat(lambda: timed([cli, "reduce", os.path.basename(job), "--method", "free", "--modes", "10",
                                       "--no-surface", "--no-stress"], env, a.work), a.reps)
            out = os.path.join(a.work, f"cb_{lc}.mtflex")
            rb = repeat(lambda: timed([cli, "reduce", os.path.basename(cbjob), "--method", "cb", "--spider", "FIX",
                                       "--modes", "20", "--out", out], env, a.work), a.reps)
            fa = motus_freqs(ra[-1][3])
            ref = ccx.get(th, ccx.get(1, {})).get("freqs", [])
            dmax = max((abs(x / y - 1) for x, y in zip(fa, ref)), default=float("nan"))
            ndof = re.search(r"(\d+) free DOF", ra[-1][3]).group(1)
            r = dict(lc=lc, nodes=nn, dofs=3 * nn, free_dofs=int(ndof), threads=th,
                     ccx_wall=ccx.get(th, {}).get("wall", float("nan")), ccx_rss=ccx.get(th, {}).get("rss", float("nan")),
                     ccx_reps=ccx.get(th, {}).get("reps", 0),
                     a_wall=statistics.median(x[0] for x in ra), a_cpu=statistics.median(x[1] for x in ra),
                     a_rss=max(x[2] for x in ra), a_fact=stages(ra[-1][3])[0], a_eig=stages(ra[-1][3])[1],
                     b_wall=statistics.median(x[0] for x in rb), b_rss=max(x[2] for x in rb),
                     b_fact=stages(rb[-1][3])[0], b_eig=stages(rb[-1][3])[1], reps=len(ra),
                     f1=fa[0] if fa else float("nan"), f2=fa[1] if len(fa) > 1 else float("nan"),
                     ccx_f1=ref[0] if ref else float("nan"), dmax=dmax, cb_f=motus_freqs(rb[-1][3])[:2])
            rows.append(r)
            print(f"lc={lc} motus threads={th}: (a) {r['a_wall']:.2f} s {r['a_rss']:.0f} MB, "
                  f"(b) {r['b_wall']:.2f} s {r['b_rss']:.0f} MB, max freq diff {100 * dmax:.4f} %", file=sys.stderr,
                  flush=True)
    with open(a.out, "w") as f:
        keys = [k for k in rows[0] if k != "cb_f"]
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join(str(r[k]) for k in keys) + "\n")
    print("| DOFs (free) | threads | ccx s | ccx MB | Motus (a) s | (a) MB | factor + Lanczos s | speed-up | "
          "memory | max Δf vs ccx | Motus (b) CB s | (b) MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dofs']} ({r['free_dofs']}) | {r['threads']} | {r['ccx_wall']:.2f} | {r['ccx_rss']:.0f} | "
              f"{r['a_wall']:.2f} | {r['a_rss']:.0f} | {r['a_fact']:.1f} + {r['a_eig']:.1f} | "
              f"{r['ccx_wall'] / r['a_wall']:.2f}x | {r['a_rss'] / r['ccx_rss']:.2f} | {100 * r['dmax']:.4f} % | "
              f"{r['b_wall']:.2f} | {r['b_rss']:.0f} |")
    print()
    for r in rows:
        if r["threads"] == threads[0]:
            print(f"lc={r['lc']}: f1 Motus {r['f1']:.4f} Hz, ccx {r['ccx_f1']:.4f} Hz; "
                  f"CB fixed-interface f1, f2 = {', '.join('%.4f' % x for x in r['cb_f'])} Hz")


if __name__ == "__main__":
    main()
