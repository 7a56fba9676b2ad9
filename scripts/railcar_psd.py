#!/usr/bin/env python3
"""PSD plot of a result column for several runs (docs/examples.md, the railcar).

    python3 scripts/railcar_psd.py COLUMN T0 T1 OUT.svg LABEL=RUN.csv ...

Welch's method as mt_signal_psd computes it (docs/studies.md: segments of
n / 4.5 samples overlapping by half, each mean removed and Hann-windowed,
one-sided periodograms averaged), drawn as an SVG with a logarithmic PSD axis
(convert it to PNG with any SVG renderer). Plain Python: no NumPy needed.
"""
import cmath
import csv
import math
import sys


def column(path, name, t0, t1):
    with open(path) as f:
        r = csv.reader(f)
        head = next(r)
        i = head.index(name)
        return [float(x[i]) for x in r if t0 <= float(x[0]) <= t1], None


def times(path, t0, t1):
    with open(path) as f:
        r = csv.reader(f)
        next(r)
        return [float(x[0]) for x in r if t0 <= float(x[0]) <= t1]


def fft(x):
    n = len(x)
    if n == 1:
        return x
    if n % 2:
        return [sum(x[j] * cmath.exp(-2j * math.pi * j * k / n) for j in range(n)) for k in range(n)]
    e, o = fft(x[0::2]), fft(x[1::2])
    w = [cmath.exp(-2j * math.pi * k / n) * o[k] for k in range(n // 2)]
    return [e[k] + w[k] for k in range(n // 2)] + [e[k] - w[k] for k in range(n // 2)]


def welch(v, fs):
    n = len(v)
    L = max(16, int(n / 4.5))
    step = L // 2
    win = [0.5 - 0.5 * math.cos(2 * math.pi * j / L) for j in range(L)]
    s2 = sum(w * w for w in win)
    acc = [0.0] * (L // 2 + 1)
    nseg = 0
    for a in range(0, n - L + 1, step):
        seg = v[a:a + L]
        m = sum(seg) / L
        X = fft([(x - m) * w for x, w in zip(seg, win)])
        for k in range(L // 2 + 1):
            c = 1 if k == 0 or 2 * k == L else 2
            acc[k] += c * abs(X[k]) ** 2 / (fs * s2)
        nseg += 1
    return [fs / L * k for k in range(L // 2 + 1)], [p / nseg for p in acc]


def main():
    col, t0, t1, out = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    curves = []
    for arg in sys.argv[5:]:
        label, path = arg.split("=", 1)
        t = times(path, t0, t1)
        v, _ = column(path, col, t0, t1)
        fs = (len(t) - 1) / (t[-1] - t[0])
        f, p = welch(v, fs)
        curves.append((label, f, p))
    fmax = 40.0
    W, H, l, r, top, bot = 760, 440, 80, 150, 30, 50
    lo = math.floor(math.log10(min(min(x for fk, x in zip(f, p) if 0.5 <= fk <= fmax and x > 0) for _, f, p in curves)))
    hi = math.ceil(math.log10(max(max(p) for _, _, p in curves)))
    X = lambda fk: l + (W - l - r) * fk / fmax
    Y = lambda pk: top + (H - top - bot) * (hi - math.log10(max(pk, 10 ** lo))) / (hi - lo)
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="13">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>']
    for d in range(lo, hi + 1):
        s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (l, W - r, Y(10 ** d), Y(10 ** d)))
        s.append('<text x="%d" y="%.1f" text-anchor="end">1e%d</text>' % (l - 6, Y(10 ** d) + 4, d))
    for fk in range(0, int(fmax) + 1, 5):
        s.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ddd"/>' % (X(fk), X(fk), top, H - bot))
        s.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (X(fk), H - bot + 18, fk))
    s.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' % (l, top, W - l - r, H - top - bot))
    s.append('<text x="%d" y="%d" text-anchor="middle">frequency, Hz</text>' % ((l + W - r) // 2, H - 12))
    s.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">PSD of %s, (m/s²)²/Hz</text>'
             % ((top + H - bot) // 2, (top + H - bot) // 2, col))
    colours = ["black", "#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    for c, (label, f, p) in enumerate(curves):
        pts = " ".join("%.1f,%.1f" % (X(fk), Y(pk)) for fk, pk in zip(f, p) if fk <= fmax)
        s.append('<polyline fill="none" stroke="%s" stroke-width="1.6" points="%s"/>' % (colours[c % 5], pts))
        s.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>' % (W - r + 12, W - r + 36, top + 12 + 20 * c,
                                                                                        top + 12 + 20 * c, colours[c % 5]))
        s.append('<text x="%d" y="%d">%s</text>' % (W - r + 42, top + 16 + 20 * c, label))
    s.append('</svg>')
    with open(out, "w") as fo:
        fo.write("\n".join(s) + "\n")


if __name__ == "__main__":
    main()
