/* mt_bchol_super.c — supernodal panels for the block Cholesky (see
 * mt_bchol_super.h). Right-looking: every panel starts as A's entries, takes
 * the updates of its descendants, is factored four columns at a time (the
 * columns before the group in one product, the group's triangle a pivot at a
 * time, so the block path's rules for rows out of the solve, detection and
 * regularised pivots apply unchanged), and sends its own update
 * C = L_b L_bᵀ (L_b: its rows below the diagonal block) to its ancestors,
 * one run of consecutive target columns at a time: a dense product (8 × 4
 * register blocks, one load per multiply–add) subtracted in place where the
 * target's rows are consecutive, else formed in a buffer and scattered
 * through the run's precomputed row map. The block path does the same
 * updates 3 × 3 block by 3 × 3 block with an inner dimension of 3 and index
 * work per block; here the inner dimension is the panel's width. */
#include "mt_bchol_super.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_lanes.h"
#include "mt_math.h"

/* Block columns merged into a panel although their row structures differ by
 * at most this many blocks (the panel stores zeros there): wider panels, a
 * few wasted multiply–adds; and only while the panel's below-diagonal
 * blocks are at most 5/4 of its nonzero ones (a chain would otherwise merge
 * into one dense panel). */
#define SUPER_RELAX 2
/* Built (without force) when the factor has at least this many multiply–adds
 * and its panels average at least SUPER_MIN_WIDTH columns, weighted by their
 * update work: below that the block kernels are as fast (measured with
 * bench/grid --kernels, commit 636bbf9 of bench/RESULTS.md, "Supernodal panels"). */
#define SUPER_MIN_MA 5.0e4
#define SUPER_MIN_WIDTH 9.0

struct MtBsuper {
    int n, nrows, ns;
    int *psize, *poff, *colptr, *rowpos; /* the block structure (copies) */
    int *bsn, *lcol;     /* per block position: its panel, its first local column there */
    int *erow;           /* per below entry: local row of its first row in its column's panel */
    int *sfirst;         /* ns + 1: first scalar position of each panel */
    int *sptr, *ls;      /* rows of panel s: ls[sptr[s] .. sptr[s+1]), its own columns first */
    size_t *px;          /* ns + 1: offset of panel s in x (column-major, leading dimension its row count) */
    int *runptr;         /* ns + 1: update runs of panel s */
    int *run_t, *run_a, *run_b, *run_map; /* target panel, below rows [a, b) as its columns, map offset */
    int *maps;           /* per run: local rows in the target of below rows a .. end */
    int *run_seg, *segs; /* per run: where its map is consecutive: segments segs[run_seg[r] ..] (first
                          * index of each, then the end), indices from the run's first row */
    int *sperm, *sblk;   /* per scalar position: original row, block position */
    double *x, *dinv;    /* panels; 1/L_jj per scalar position (0 for rows out) */
    size_t nx;
    double *buf, *y, *t; /* update buffer; solve scratch (t: a panel's rows, padded) */
};

void mt_bsuper_free(MtBsuper *s)
{
    if (!s) return;
    free(s->psize); free(s->poff); free(s->colptr); free(s->rowpos); free(s->bsn); free(s->lcol); free(s->erow);
    free(s->sfirst); free(s->sptr); free(s->ls); free(s->px); free(s->runptr); free(s->run_t); free(s->run_a);
    free(s->run_b); free(s->run_map); free(s->maps); free(s->run_seg); free(s->segs); free(s->sperm); free(s->sblk); free(s->x); free(s->dinv);
    free(s->buf); free(s->y); free(s->t);
    free(s);
}

#define NEW(p, k) ((p) = malloc(sizeof *(p) * (size_t)((k) + 1)))

int mt_bsuper_new(int n, int nrows, const int *psize, const int *poff, const int *colptr, const int *rowpos, int force,
                  MtBsuper **out)
{
    *out = NULL;
    if (n == 0) return 0;
    MtBsuper *s = calloc(1, sizeof *s);
    int *spos = NULL, *where = NULL, *first = NULL;
    if (!s) return -1;
    s->n = n;
    s->nrows = nrows;
    int nnz = colptr[n];
    if (!NEW(s->psize, n) || !NEW(s->poff, n) || !NEW(s->colptr, n + 1) || !NEW(s->rowpos, nnz) || !NEW(s->bsn, n) ||
        !NEW(s->lcol, n) || !NEW(s->erow, nnz) || !NEW(spos, n + 1) || !NEW(first, n + 1))
        goto nomem;
    memcpy(s->psize, psize, sizeof(int) * (size_t)n);
    memcpy(s->poff, poff, sizeof(int) * (size_t)n);
    memcpy(s->colptr, colptr, sizeof(int) * (size_t)(n + 1));
    memcpy(s->rowpos, rowpos, sizeof(int) * (size_t)(nnz + 1 > 1 ? nnz : 0));
    spos[0] = 0;
    for (int c = 0; c < n; c++) spos[c + 1] = spos[c] + psize[c];
    /* Panels: a block column joins the panel of the one before when that one's
     * parent is it and their structures nest up to SUPER_RELAX blocks. */
    int ns = 0;
    long stored = 0, need = 0; /* blocks of the current panel: stored, and nonzero in the factor */
    for (int c = 0; c < n; c++) {
        int p = c - 1, nbc = colptr[c + 1] - colptr[c];
        int join = c > 0 && colptr[p + 1] > colptr[p] && rowpos[colptr[p]] == c;
        if (join) { /* every column already in the panel now stores the parent's structure */
            long k = c - first[ns - 1], extra = nbc + 1 - (colptr[p + 1] - colptr[p]);
            join = extra <= SUPER_RELAX && 4 * (stored + k * extra + nbc) <= 5 * (need + nbc);
            if (join) stored += k * extra;
        }
        if (!join) {
            first[ns++] = c;
            stored = need = 0;
        }
        stored += nbc;
        need += nbc;
        s->bsn[c] = ns - 1;
    }
    first[ns] = n;
    s->ns = ns;
    if (!NEW(s->sfirst, ns + 1) || !NEW(s->sptr, ns + 1) || !NEW(s->px, ns + 1) || !NEW(s->runptr, ns + 1)) goto nomem;
    /* row lists: own columns, then the last block column's below blocks */
    size_t nls = 0;
    for (int k = 0; k < ns; k++) {
        int last = first[k + 1] - 1;
        nls += (size_t)(spos[last + 1] - spos[first[k]]);
        for (int e = colptr[last]; e < colptr[last + 1]; e++) nls += (size_t)psize[rowpos[e]];
    }
    if (!NEW(s->ls, nls) || !NEW(s->sperm, nrows) || !NEW(s->sblk, nrows) || !NEW(where, nrows)) goto nomem;
    size_t nx = 0, q = 0;
    double ma = 0, mw = 0; /* update multiply–adds, and weighted by width */
    for (int k = 0; k < ns; k++) {
        int c0 = first[k], last = first[k + 1] - 1;
        s->sfirst[k] = spos[c0];
        s->sptr[k] = (int)q;
        for (int p = spos[c0]; p < spos[last + 1]; p++) s->ls[q++] = p;
        for (int e = colptr[last]; e < colptr[last + 1]; e++)
            for (int i = 0; i < psize[rowpos[e]]; i++) s->ls[q++] = spos[rowpos[e]] + i;
        s->px[k] = nx;
        int w = spos[last + 1] - spos[c0], ld = (int)q - s->sptr[k], nb = ld - w;
        nx += (size_t)ld * (size_t)w;
        double m = (double)w * w * w / 6 + (double)nb * w * w / 2 + (double)nb * nb * w / 2;
        ma += m;
        mw += m * w;
    }
    s->sfirst[ns] = nrows;
    s->sptr[ns] = (int)q;
    s->px[ns] = nx;
    s->nx = nx;
    if (!force && (ma < SUPER_MIN_MA || mw < SUPER_MIN_WIDTH * ma)) {
        free(spos); free(where); free(first);
        mt_bsuper_free(s);
        return 0;
    }
    for (int c = 0; c < n; c++) {
        s->lcol[c] = spos[c] - spos[first[s->bsn[c]]];
        for (int i = 0; i < psize[c]; i++) {
            s->sperm[spos[c] + i] = poff[c] + i;
            s->sblk[spos[c] + i] = c;
        }
    }
    /* local row of each below entry in its column's panel */
    for (int k = 0; k < ns; k++) {
        for (int i = s->sptr[k]; i < s->sptr[k + 1]; i++) where[s->ls[i]] = i - s->sptr[k];
        for (int c = first[k]; c < first[k + 1]; c++)
            for (int e = colptr[c]; e < colptr[c + 1]; e++) s->erow[e] = where[spos[rowpos[e]]];
    }
    /* update runs: below rows grouped by the panel that owns them as columns */
    int nrun = 0;
    size_t nmap = 0;
    for (int k = 0; k < ns; k++) {
        int w = s->sfirst[k + 1] - s->sfirst[k], *L = s->ls + s->sptr[k] + w, nb = s->sptr[k + 1] - s->sptr[k] - w;
        for (int i = 0; i < nb; i++)
            if (i == 0 || s->bsn[s->sblk[L[i]]] != s->bsn[s->sblk[L[i - 1]]]) {
                nrun++;
                nmap += (size_t)(nb - i);
            }
    }
    if (!NEW(s->run_t, nrun) || !NEW(s->run_a, nrun) || !NEW(s->run_b, nrun) || !NEW(s->run_map, nrun) ||
        !NEW(s->maps, nmap) || !NEW(s->run_seg, nrun) || !NEW(s->segs, nmap + nrun))
        goto nomem;
    int r = 0, maxbuf = 0, maxld = 0, so = 0;
    size_t mo = 0;
    for (int k = 0; k < ns; k++) {
        int w = s->sfirst[k + 1] - s->sfirst[k], *L = s->ls + s->sptr[k] + w, nb = s->sptr[k + 1] - s->sptr[k] - w;
        s->runptr[k] = r;
        maxld = nb + w > maxld ? nb + w : maxld;
        for (int i = 0; i < nb;) {
            int t = s->bsn[s->sblk[L[i]]], j = i;
            while (j < nb && s->bsn[s->sblk[L[j]]] == t) j++;
            for (int a = s->sptr[t]; a < s->sptr[t + 1]; a++) where[s->ls[a]] = a - s->sptr[t];
            s->run_t[r] = t;
            s->run_a[r] = i;
            s->run_b[r] = j;
            s->run_map[r] = (int)mo;
            s->run_seg[r] = so;
            for (int a = i; a < nb; a++) {
                if (a == i || where[L[a]] != where[L[a - 1]] + 1) s->segs[so++] = a - i;
                s->maps[mo++] = where[L[a]];
            }
            s->segs[so++] = nb - i;
            int bsz = (nb - i + 8) * (j - i + 4); /* the kernels' row and column blocks may overrun */
            maxbuf = bsz > maxbuf ? bsz : maxbuf;
            r++;
            i = j;
        }
    }
    s->runptr[ns] = r;
    if (!NEW(s->x, nx + 8) || !NEW(s->dinv, nrows) || !NEW(s->buf, maxbuf) || !NEW(s->y, nrows) || !NEW(s->t, maxld + 4))
        goto nomem;
    memset(s->x, 0, sizeof(double) * (nx + 8)); /* the padding read by masked lanes, and the entries above the diagonals */
    free(spos); free(where); free(first);
    *out = s;
    return 0;
nomem:
    free(spos); free(where); free(first);
    mt_bsuper_free(s);
    return -1;
}

/* the kernels are inlined into the MT_HOT entry points, so each clone has its own */
#define INLINE static inline __attribute__((always_inline))
/* macros, not functions: a vector argument or result changes the ABI of the baseline clone */
#define ld4(p) ({ MtLanes v_; memcpy(&v_, (p), sizeof v_); v_; })
#define st4(p, v) do { MtLanes w_ = (v); memcpy((p), &w_, sizeof w_); } while (0)

/* lanes 0 .. k−1 of four */
static const MtMask tail_mask[5] = {{0, 0, 0, 0}, {-1, 0, 0, 0}, {-1, -1, 0, 0}, {-1, -1, -1, 0}, {-1, -1, -1, -1}};

/* The product kernel of the factor: for rows i in [i0, i1) and the nj (1 or
 * 4) columns j .. j+nj−1, acc(i, j) = Σ_{q < kn} L[i, q]·L[j, q] (L column-
 * major, leading dimension ld), then out(i, j) = acc (sub = 0) or
 * out(i, j) −= acc (sub = 1), out(i, j) at out[i − off + (j − off)·ldo].
 * Rows eight at a time in two vectors, then four, then one: one load of L per
 * multiply–add and per column. */
INLINE void prod(const double *L, size_t ld, int kn, int i0, int i1, int j, const int nj, double *out, size_t ldo,
                 int off, const int sub)
{
    int i = i0;
    const MtLanes z = {0, 0, 0, 0};
    for (; i + 8 <= i1; i += 8) {
        MtLanes c0 = z, c1 = z, d0 = z, d1 = z, e0 = z, e1 = z, g0 = z, g1 = z;
        for (int q = 0; q < kn; q++) {
            const double *Lq = L + (size_t)q * ld;
            MtLanes l0 = ld4(Lq + i), l1 = ld4(Lq + i + 4);
            double v0 = Lq[j];
            c0 += l0 * v0; c1 += l1 * v0;
            if (nj == 4) {
                double v1 = Lq[j + 1], v2 = Lq[j + 2], v3 = Lq[j + 3];
                d0 += l0 * v1; d1 += l1 * v1;
                e0 += l0 * v2; e1 += l1 * v2;
                g0 += l0 * v3; g1 += l1 * v3;
            }
        }
        MtLanes acc[8] = {c0, c1, d0, d1, e0, e1, g0, g1};
        for (int c = 0; c < nj; c++) {
            double *o = out + (size_t)(j + c - off) * ldo + (i - off);
            if (sub) { st4(o, ld4(o) - acc[2 * c]); st4(o + 4, ld4(o + 4) - acc[2 * c + 1]); }
            else { st4(o, acc[2 * c]); st4(o + 4, acc[2 * c + 1]); }
        }
    }
    for (; i < i1; i += 4) { /* four rows, then the last one to three in four lanes: the lanes past i1 read
                              * the next entries of the panels (x is padded at its end) and leave their
                              * targets as they were (a full mask changes nothing) */
        const MtMask mk = tail_mask[i1 - i < 4 ? i1 - i : 4];
        MtLanes c0 = z, d0 = z, e0 = z, g0 = z;
        for (int q = 0; q < kn; q++) {
            const double *Lq = L + (size_t)q * ld;
            MtLanes l0 = ld4(Lq + i);
            c0 += l0 * Lq[j];
            if (nj == 4) { d0 += l0 * Lq[j + 1]; e0 += l0 * Lq[j + 2]; g0 += l0 * Lq[j + 3]; }
        }
        MtLanes acc[4] = {c0, d0, e0, g0};
        for (int c = 0; c < nj; c++) {
            double *o = out + (size_t)(j + c - off) * ldo + (i - off);
            if (sub) st4(o, ld4(o) - MT_AND(mk, acc[c]));
            else st4(o, MT_SEL(mk, acc[c], ld4(o)));
        }
    }
}

/* Panel factor, four columns at a time: the group takes the updates of the
 * columns before it in one product, then each of its columns those of the
 * group's earlier columns, and its pivot is decided as in the block path
 * (chol_diag in mt_bchol.c) and the column below it scaled. */
INLINE int panel_factor(MtBsuper *s, int k, unsigned char *dep, const double *diag0, int detect, double tol, int *nreg,
                        int *bad_pos)
{
    int f = s->sfirst[k], w = s->sfirst[k + 1] - f, ld = s->sptr[k + 1] - s->sptr[k];
    double *P = s->x + s->px[k];
    for (int j0 = 0; j0 < w; j0 += 4) {
        int j1 = j0 + 4 <= w ? j0 + 4 : w;
        if (j0 > 0) {
            if (j1 - j0 == 4) prod(P, (size_t)ld, j0, j0, ld, j0, 4, P, (size_t)ld, 0, 1);
            else
                for (int j = j0; j < j1; j++) prod(P, (size_t)ld, j0, j, ld, j, 1, P, (size_t)ld, 0, 1);
        }
        /* rows of the group's triangle: pivot by pivot; a full group's rows below it are done after, in
         * one pass, the short groups' here */
        int iend = j1 - j0 == 4 ? j1 : ld;
        for (int j = j0; j < j1; j++) {
            double *col = P + (size_t)j * ld;
            for (int q = j0; q < j; q++) {
                const double *Pq = P + (size_t)q * ld;
                double v = Pq[j];
                for (int i = j; i < iend; i++) col[i] -= Pq[i] * v;
            }
            int row = s->sperm[f + j];
            double d = col[j], d0 = diag0[row];
            if (detect && !(d > tol * d0)) dep[row] = 1;
            else if (!detect && tol > 0 && !dep[row] && !(d > tol * d0) && d0 > 0 && isfinite(d)) {
                d = tol * d0; /* near a singular configuration: a compliant row instead of a breakdown */
                (*nreg)++;
            }
            if (dep[row]) {
                for (int i = j + 1; i < ld; i++) col[i] = 0;
                col[j] = 1;
                s->dinv[f + j] = 0;
                continue;
            }
            if (!(d > 0)) {
                *bad_pos = s->sblk[f + j];
                return -1;
            }
            double ljj = sqrt(d), inv = 1 / ljj;
            col[j] = ljj;
            s->dinv[f + j] = inv;
            for (int i = j + 1; i < iend; i++) col[i] *= inv;
        }
        if (j1 - j0 < 4) continue;
        /* the rows below a full group: x_c = (c_c − Σ_{q<c} x_q l_cq)·(1/l_cc), four rows at a time
         * (columns of rows out: 1/l_cc = 0, the column stays 0) */
        double *c0 = P + (size_t)j0 * ld, *c1 = c0 + ld, *c2 = c1 + ld, *c3 = c2 + ld;
        const double *iv = s->dinv + f + j0;
        double l10 = c0[j0 + 1], l20 = c0[j0 + 2], l30 = c0[j0 + 3], l21 = c1[j0 + 2], l31 = c1[j0 + 3], l32 = c2[j0 + 3];
        for (int i = j1; i < ld; i += 4) {
            MtLanes x0 = ld4(c0 + i) * iv[0];
            MtLanes x1 = (ld4(c1 + i) - x0 * l10) * iv[1];
            MtLanes x2 = ((ld4(c2 + i) - x0 * l20) - x1 * l21) * iv[2];
            MtLanes x3 = (((ld4(c3 + i) - x0 * l30) - x1 * l31) - x2 * l32) * iv[3];
            if (i + 4 <= ld) { st4(c0 + i, x0); st4(c1 + i, x1); st4(c2 + i, x2); st4(c3 + i, x3); }
            else { /* the last rows: masked lanes, as in prod */
                const MtMask mk = tail_mask[ld - i];
                st4(c0 + i, MT_SEL(mk, x0, ld4(c0 + i)));
                st4(c1 + i, MT_SEL(mk, x1, ld4(c1 + i)));
                st4(c2 + i, MT_SEL(mk, x2, ld4(c2 + i)));
                st4(c3 + i, MT_SEL(mk, x3, ld4(c3 + i)));
            }
        }
    }
    return 0;
}

/* Panel k's update C = L_b L_bᵀ to its ancestors, run by run: the product
 * into a buffer, then subtracted through the run's row map (a vector
 * subtraction where the target rows are consecutive, as they are unless the
 * target panel has rows this one lacks). */
INLINE void panel_update(MtBsuper *s, int k)
{
    int w = s->sfirst[k + 1] - s->sfirst[k], ld = s->sptr[k + 1] - s->sptr[k], nb = ld - w;
    const double *Lb = s->x + s->px[k] + w;
    for (int r = s->runptr[k]; r < s->runptr[k + 1]; r++) {
        int a = s->run_a[r], b = s->run_b[r], t = s->run_t[r], ldc = nb - a, ldt = s->sptr[t + 1] - s->sptr[t];
        const int *map = s->maps + s->run_map[r];
        double *T = s->x + s->px[t]; /* C(i, j), i, j ≥ a, at buf[i − a + (j − a)·ldc] */
        const int *seg = s->segs + s->run_seg[r];
        int j = a;
        if (seg[1] == ldc) { /* the target's rows are consecutive: subtract in place (the few entries above
                              * its diagonal that the four-column groups also form are never read) */
            double *T0 = T + (size_t)map[0] * ldt + map[0];
            for (; j + 4 <= b; j += 4) prod(Lb, (size_t)ld, w, j, nb, j, 4, T0, (size_t)ldt, a, 1);
            for (; j < b; j++) prod(Lb, (size_t)ld, w, j, nb, j, 1, T0, (size_t)ldt, a, 1);
            continue;
        }
        for (; j + 4 <= b; j += 4) prod(Lb, (size_t)ld, w, j, nb, j, 4, s->buf, (size_t)ldc, a, 0);
        for (; j < b; j++) prod(Lb, (size_t)ld, w, j, nb, j, 1, s->buf, (size_t)ldc, a, 0);
        for (int jj = 0, g = 0; jj < b - a; jj++) {
            double *Tj = T + (size_t)map[jj] * ldt;
            const double *Cj = s->buf + (size_t)jj * ldc;
            while (seg[g + 1] <= jj) g++;
            for (int h = g, i = jj; seg[h] < ldc; h++) { /* consecutive target rows: vector subtractions */
                int e = seg[h + 1];
                double *Tc = Tj + map[seg[h]] - seg[h];
                for (; i + 4 <= e; i += 4) st4(Tc + i, ld4(Tc + i) - ld4(Cj + i));
                if (i < e) st4(Tc + i, ld4(Tc + i) - MT_AND(tail_mask[e - i], ld4(Cj + i))); /* as in prod */
                i = e;
            }
        }
    }
}

MT_HOT int mt_bsuper_factor(MtBsuper *s, const double *val, const int *dval, const int *voff, const unsigned char *isfill,
                            unsigned char *dep, double *diag0, int detect, double tol, int *nreg, int *bad_pos)
{
    /* zeroes from each column's diagonal down (entries above it are never read) */
    for (int k = 0; k < s->ns; k++) {
        int w = s->sfirst[k + 1] - s->sfirst[k], ld = s->sptr[k + 1] - s->sptr[k];
        double *P = s->x + s->px[k];
        for (int j = 0; j < w; j++) memset(P + (size_t)j * ld + j, 0, sizeof(double) * (size_t)(ld - j));
    }
    /* A into the panels; rows out of the solve: a unit diagonal and no coupling */
    for (int c = 0; c < s->n; c++) {
        int k = s->bsn[c], m = s->psize[c], lc = s->lcol[c], o = s->poff[c], ld = s->sptr[k + 1] - s->sptr[k];
        double *P = s->x + s->px[k];
        const double *D = val + dval[c];
        for (int i = 0; i < m; i++) {
            diag0[o + i] = D[i * m + i];
            for (int j = 0; j <= i; j++)
                P[(size_t)(lc + j) * ld + lc + i] = dep[o + i] || dep[o + j] ? (i == j) : D[i * m + j];
        }
        for (int e = s->colptr[c]; e < s->colptr[c + 1]; e++) {
            if (isfill[e]) continue;
            int rb = s->rowpos[e], mr = s->psize[rb], orow = s->poff[rb], lr = s->erow[e];
            const double *B = val + voff[e];
            int out = 0;
            for (int i = 0; i < mr; i++) out |= dep[orow + i];
            for (int j = 0; j < m; j++) out |= dep[o + j];
            double *Pe = P + (size_t)lc * ld + lr;
            if (!out && m == 3 && mr == 3) /* spherical joints */
                for (int j = 0; j < 3; j++) {
                    Pe[(size_t)j * ld] = B[j];
                    Pe[(size_t)j * ld + 1] = B[3 + j];
                    Pe[(size_t)j * ld + 2] = B[6 + j];
                }
            else
                for (int i = 0; i < mr; i++)
                    for (int j = 0; j < m; j++) Pe[(size_t)j * ld + i] = dep[orow + i] || dep[o + j] ? 0 : B[i * m + j];
        }
    }
    *nreg = 0;
    for (int k = 0; k < s->ns; k++) {
        if (panel_factor(s, k, dep, diag0, detect, tol, nreg, bad_pos)) return -1;
        panel_update(s, k);
    }
    return 0;
}

/* Solves: each panel's columns four at a time, its triangle row by row and
 * the rest of the four columns (the triangle's rows below the group, then
 * the rows below the panel, contiguous in memory) in vectors; the panel's
 * values in a work vector wk of its rows, gathered from and scattered to the
 * solution in the factor's order. */
MT_HOT void mt_bsuper_solve(MtBsuper *s, double *x)
{
    double *y = s->y, *wk = s->t;
    const MtLanes z = {0, 0, 0, 0};
    for (int p = 0; p < s->nrows; p++) y[p] = x[s->sperm[p]];
    for (int k = 0; k < s->ns; k++) {
        int f = s->sfirst[k], w = s->sfirst[k + 1] - f, ld = s->sptr[k + 1] - s->sptr[k], nb = ld - w;
        const double *P = s->x + s->px[k];
        const int *L = s->ls + s->sptr[k] + w;
        memcpy(wk, y + f, sizeof(double) * (size_t)w);
        memset(wk + w, 0, sizeof(double) * (size_t)nb);
        for (int j0 = 0; j0 < w; j0 += 4) {
            int jb = w - j0 < 4 ? w - j0 : 4, i = j0 + jb;
            for (int j = j0; j < j0 + jb; j++) {
                const double *col = P + (size_t)j * ld;
                double v = wk[j] * s->dinv[f + j]; /* rows out: 0 */
                wk[j] = v;
                for (int q = j + 1; q < j0 + jb; q++) wk[q] -= col[q] * v;
            }
            /* a group of fewer than four columns: the missing ones read column j0 with a zero weight */
            const double *c0 = P + (size_t)j0 * ld, *c1 = jb > 1 ? c0 + ld : c0, *c2 = jb > 2 ? c0 + 2 * ld : c0;
            const double *c3 = jb > 3 ? c0 + 3 * ld : c0;
            double v0 = wk[j0], v1 = jb > 1 ? wk[j0 + 1] : 0, v2 = jb > 2 ? wk[j0 + 2] : 0, v3 = jb > 3 ? wk[j0 + 3] : 0;
            for (; i + 4 <= ld; i += 4)
                st4(wk + i, ld4(wk + i) - (((ld4(c0 + i) * v0 + ld4(c1 + i) * v1) + ld4(c2 + i) * v2) + ld4(c3 + i) * v3));
            if (i < ld) /* masked lanes, as in prod (wk and x are padded) */
                st4(wk + i, ld4(wk + i) - MT_AND(tail_mask[ld - i], ((ld4(c0 + i) * v0 + ld4(c1 + i) * v1) + ld4(c2 + i) * v2) +
                                                                        ld4(c3 + i) * v3));
        }
        memcpy(y + f, wk, sizeof(double) * (size_t)w);
        for (int i = 0; i < nb; i++) y[L[i]] += wk[w + i];
    }
    for (int k = s->ns - 1; k >= 0; k--) {
        int f = s->sfirst[k], w = s->sfirst[k + 1] - f, ld = s->sptr[k + 1] - s->sptr[k], nb = ld - w;
        const double *P = s->x + s->px[k];
        const int *L = s->ls + s->sptr[k] + w;
        memcpy(wk, y + f, sizeof(double) * (size_t)w);
        for (int i = 0; i < nb; i++) wk[w + i] = y[L[i]];
        for (int j0 = (w - 1) / 4 * 4; j0 >= 0; j0 -= 4) {
            int jb = w - j0 < 4 ? w - j0 : 4, i = j0 + jb;
            {
                /* fewer than four columns: the missing ones read column j0, their sums are not used */
                const double *c0 = P + (size_t)j0 * ld, *c1 = jb > 1 ? c0 + ld : c0, *c2 = jb > 2 ? c0 + 2 * ld : c0;
                const double *c3 = jb > 3 ? c0 + 3 * ld : c0;
                MtLanes a0 = z, a1 = z, a2 = z, a3 = z;
                for (; i + 4 <= ld; i += 4) {
                    MtLanes ti = ld4(wk + i);
                    a0 += ld4(c0 + i) * ti; a1 += ld4(c1 + i) * ti; a2 += ld4(c2 + i) * ti; a3 += ld4(c3 + i) * ti;
                }
                if (i < ld) {
                    MtLanes ti = MT_AND(tail_mask[ld - i], ld4(wk + i)); /* lanes past ld: 0 (finite values times 0) */
                    MtLanes l0 = MT_AND(tail_mask[ld - i], ld4(c0 + i)), l1 = MT_AND(tail_mask[ld - i], ld4(c1 + i));
                    MtLanes l2 = MT_AND(tail_mask[ld - i], ld4(c2 + i)), l3 = MT_AND(tail_mask[ld - i], ld4(c3 + i));
                    a0 += l0 * ti; a1 += l1 * ti; a2 += l2 * ti; a3 += l3 * ti;
                }
                /* the four sums at once: pairwise sums by two transpositions */
                const MtMask ev = {0, 4, 2, 6}, od = {1, 5, 3, 7}, lo = {0, 1, 4, 5}, hi = {2, 3, 6, 7};
                MtLanes u = __builtin_shuffle(a0, a1, ev) + __builtin_shuffle(a0, a1, od);
                MtLanes v = __builtin_shuffle(a2, a3, ev) + __builtin_shuffle(a2, a3, od);
                st4(wk + j0, ld4(wk + j0) - MT_AND(tail_mask[jb], __builtin_shuffle(u, v, lo) + __builtin_shuffle(u, v, hi)));
            }
            for (int j = j0 + jb - 1; j >= j0; j--) {
                const double *col = P + (size_t)j * ld;
                double v = wk[j];
                for (int q = j + 1; q < j0 + jb; q++) v -= col[q] * wk[q];
                wk[j] = v * s->dinv[f + j];
            }
        }
        memcpy(y + f, wk, sizeof(double) * (size_t)w);
    }
    for (int p = 0; p < s->nrows; p++) x[s->sperm[p]] = y[p];
}

void mt_bsuper_pivot_ratios(const MtBsuper *s, const unsigned char *dep, const double *diag0, double *ratio)
{
    for (int k = 0; k < s->ns; k++) {
        int f = s->sfirst[k], w = s->sfirst[k + 1] - f, ld = s->sptr[k + 1] - s->sptr[k];
        const double *P = s->x + s->px[k];
        for (int j = 0; j < w; j++) {
            int row = s->sperm[f + j];
            double l = P[(size_t)j * ld + j];
            ratio[row] = dep[row] ? 1 : l * l / diag0[row];
        }
    }
}

void mt_bsuper_swap(MtBsuper *a, MtBsuper *b)
{
    double *t = a->x; a->x = b->x; b->x = t;
    t = a->dinv; a->dinv = b->dinv; b->dinv = t;
}
