/* mt_bchol.c — block sparse Cholesky: AMD ordering on the block graph,
 * elimination-tree symbolic factor, right-looking numeric factor whose Schur
 * updates are a precomputed list of (source, source, target) block triples. */
#include "mt_bchol.h"
#include "mt_bchol_super.h"

#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <suitesparse/amd.h>

#include "mt_i18n.h"
#include "mt_lanes.h"
#include "mt_math.h"

struct MtBchol {
    int n, nrows;
    int *size, *off;     /* per original block */
    int *perm, *iperm;   /* position -> block, block -> position */
    int *dval;           /* per position: offset of the diagonal block in val */
    int *colptr;         /* per position: below-diagonal entries colptr[c]..colptr[c+1) */
    int *rowpos, *voff;  /* per entry: row position, offset in val */
    int *updptr;         /* per position: updates updptr[c]..updptr[c+1) */
    int *upd_a, *upd_b, *upd_t; /* entry a, entry b (a row ≥ b row), target offset */
    int *psize, *poff;   /* per position: block size and offset in the solution vector */
    int *esize, *eoff;   /* per entry: row block size and its offset in the solution vector */
    int *xoff;           /* per entry: offset of its X in xs (within its column) */
    int nfill, *fill;    /* entries that are fill-in (not blocks of A): offset in val and length, 2 ints each */
    int *upd_ma, *upd_mb; /* sizes of the two entries of an update */
    unsigned char *dep;  /* per global row: marked dependent */
    double *dinv;        /* per global row: 1 / L_jj (0 for dependent rows), for the solves */
    double *val;
    double *diag0;       /* scratch: original diagonal for detection */
    unsigned char *ldl;  /* per position: column factored as block LDLᵀ (1) or Cholesky (0) */
    double *xs;          /* scratch: X = B D⁻¹ of one column's below blocks */
    double *pan;         /* scratch for columns of 3-row blocks with several below blocks: the
                          * blocks as one panel, B·C transposed, and their product (see panel_column) */
    int nval, nnz;
    int nreg; /* pivots regularised by the last factorisation */
    unsigned char *isfill; /* per entry: fill-in (zero in A), skipped by mt_bchol_mulv */
    double *cg;          /* scratch of mt_bchol_pcg: 5 vectors of nrows */
    int *c3;             /* per position: 5 offsets of a chain column (chain_column), c3[5c] = -1 otherwise */
    unsigned char *dsave; /* per position, when no column has two below blocks (else NULL): which original
                           * diagonals the column saves as it starts (1 its own, 2 its parent's) */
    MtBsuper *sup;       /* supernodal panels (mt_bchol_super.c) where the structure says they pay, else NULL */
    int sup_on;          /* the last factor was made by the panels */
    int d0given;         /* diag0 was written with A (mt_bchol_diag0_given) */
};

int mt_bchol_regularised(const MtBchol *b) { return b->nreg; }

int mt_bchol_offset(const MtBchol *b, int k) { return b->off[k]; }
int mt_bchol_rows(const MtBchol *b) { return b->nrows; }
int mt_bchol_row_dependent(const MtBchol *b, int r) { return b->dep[r]; }
int mt_bchol_nnz_blocks(const MtBchol *b) { return b->nnz; }

void mt_bchol_free(MtBchol *b)
{
    if (!b) return;
    free(b->size); free(b->off); free(b->perm); free(b->iperm); free(b->dval); free(b->colptr);
    free(b->rowpos); free(b->voff); free(b->updptr); free(b->upd_a); free(b->upd_b); free(b->upd_t);
    free(b->dep); free(b->val); free(b->diag0); free(b->psize); free(b->poff); free(b->esize); free(b->eoff);
    free(b->upd_ma); free(b->upd_mb); free(b->dinv); free(b->ldl); free(b->xs); free(b->pan); free(b->xoff); free(b->fill);
    free(b->isfill); free(b->cg); free(b->c3); free(b->dsave);
    mt_bsuper_free(b->sup);
    free(b);
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Growable int array. */
typedef struct { int *v; int n, cap; } IVec;
static int iv_push(IVec *a, int x)
{
    if (a->n == a->cap) {
        int nc = a->cap ? 2 * a->cap : 16;
        int *p = realloc(a->v, (size_t)nc * sizeof *p);
        if (!p) return -1;
        a->v = p;
        a->cap = nc;
    }
    a->v[a->n++] = x;
    return 0;
}

/* Block graphs that are forests (chains of joints) factor with no fill in
 * any order that eliminates a block once at most one neighbour is left. AMD
 * takes a chain from one end: one serial dependency from column to column
 * through the factor and both substitutions, so their cost is the latency of
 * a column. Peeling the leaves in turn (a queue) takes a chain from both ends
 * at once: consecutive columns are independent and the processor overlaps
 * them. Returns 0 with the order in queue, or -1 (the graph has a cycle).
 * deg and queue: n ints each; Ai sorted per block. */
static int forest_order(int n, const int *Ap, const int *Ai, int *deg, int *queue)
{
    int head = 0, tail = 0;
    for (int k = 0; k < n; k++) {
        deg[k] = 0;
        for (int a = Ap[k]; a < Ap[k + 1]; a++) deg[k] += a == Ap[k] || Ai[a] != Ai[a - 1]; /* duplicate pairs once */
        if (deg[k] <= 1) queue[tail++] = k;
    }
    for (; head < tail; head++) {
        int k = queue[head];
        deg[k] = -1; /* eliminated */
        for (int a = Ap[k]; a < Ap[k + 1]; a++) {
            int w = Ai[a];
            if ((a > Ap[k] && w == Ai[a - 1]) || deg[w] < 0) continue;
            if (--deg[w] == 1) queue[tail++] = w;
        }
    }
    return head == n ? 0 : -1;
}

/* ---- mt_bchol_new: the steps of the symbolic factor ---- */

/* Block sizes and row offsets; -1 without memory, -2 for a bad size (err set). */
static int bchol_sizes(MtBchol *b, int n, const int *size, MtError *err)
{
    b->n = n;
    b->size = malloc(sizeof(int) * (size_t)(n + 1));
    b->off = malloc(sizeof(int) * (size_t)(n + 1));
    b->perm = malloc(sizeof(int) * (size_t)(n + 1));
    b->iperm = malloc(sizeof(int) * (size_t)(n + 1));
    b->dval = malloc(sizeof(int) * (size_t)(n + 1));
    b->colptr = calloc((size_t)n + 1, sizeof(int));
    b->updptr = calloc((size_t)n + 1, sizeof(int));
    if (!b->size || !b->off || !b->perm || !b->iperm || !b->dval || !b->colptr || !b->updptr) return -1;
    for (int k = 0; k < n; k++) {
        if (size[k] < 1 || size[k] > MT_BLOCK_MAX) {
            mt_error_set(err, MT_ERR_ARG, "", MT_("block %d has %d rows (1..6 allowed)"), k, size[k]);
            return -2;
        }
        b->size[k] = size[k];
        b->off[k] = b->nrows;
        b->nrows += size[k];
    }
    return 0;
}

/* The block graph as CSC for AMD (both directions, no self loops, sorted
 * rows) and the degree of every block; -1 without memory. */
static int block_graph(int n, int nedge, const int *edge, int **Ap_out, int **Ai_out, int **deg_out)
{
    int *deg = calloc((size_t)n + 1, sizeof(int)), *Ap = calloc((size_t)n + 1, sizeof(int)), *Ai = NULL, *fill = NULL;
    *Ap_out = Ap;
    *deg_out = deg;
    if (!deg || !Ap) return -1;
    for (int e = 0; e < nedge; e++)
        if (edge[2 * e] != edge[2 * e + 1]) { deg[edge[2 * e]]++; deg[edge[2 * e + 1]]++; }
    for (int k = 0; k < n; k++) Ap[k + 1] = Ap[k] + deg[k];
    *Ai_out = Ai = malloc(sizeof(int) * (size_t)(Ap[n] + 1));
    fill = calloc((size_t)n + 1, sizeof(int));
    if (!Ai || !fill) { free(fill); return -1; }
    for (int e = 0; e < nedge; e++) {
        int k = edge[2 * e], l = edge[2 * e + 1];
        if (k == l) continue;
        Ai[Ap[k] + fill[k]++] = l;
        Ai[Ap[l] + fill[l]++] = k;
    }
    free(fill);
    for (int k = 0; k < n; k++)
        if (deg[k] > 1) qsort(Ai + Ap[k], (size_t)deg[k], sizeof(int), cmp_int);
    return 0;
}

/* Fill-reducing order: leaves peeled first for a forest, AMD otherwise. */
static void order_blocks(MtBchol *b, const int *Ap, const int *Ai, int *deg)
{
    int n = b->n;
    if (n > 0 && forest_order(n, Ap, Ai, deg, b->perm)) {
        int st = amd_order(n, Ap, Ai, b->perm, NULL, NULL);
        if (st != AMD_OK && st != AMD_OK_BUT_JUMBLED) {
            for (int k = 0; k < n; k++) b->perm[k] = k; /* fall back to natural order */
        }
    }
    for (int c = 0; c < n; c++) b->iperm[b->perm[c]] = c;
}

/* Symbolic factor: struct(c) = adj(c)∩(>c) ∪ children's structs minus c,
 * column c's rows in sidx from sptr[c]; -1 without memory. */
static int symbolic(const MtBchol *b, const int *Ap, const int *Ai, IVec *sptr, IVec *sidx)
{
    int n = b->n, rc = -1;
    int *parent = malloc(sizeof(int) * (size_t)(n + 1)), *mark = malloc(sizeof(int) * (size_t)(n + 1));
    int *child_head = malloc(sizeof(int) * (size_t)(n + 1)), *child_next = malloc(sizeof(int) * (size_t)(n + 1));
    if (!parent || !mark || !child_head || !child_next) goto out;
    for (int c = 0; c < n; c++) { mark[c] = -1; child_head[c] = -1; }
    if (iv_push(sptr, 0)) goto out;
    for (int c = 0; c < n; c++) {
        int k = b->perm[c];
        int start = sidx->n;
        mark[c] = c;
        for (int a = Ap[k]; a < Ap[k + 1]; a++) {
            int r = b->iperm[Ai[a]];
            if (r > c && mark[r] != c) { mark[r] = c; if (iv_push(sidx, r)) goto out; }
        }
        for (int ch = child_head[c]; ch >= 0; ch = child_next[ch])
            for (int e = sptr->v[ch]; e < sptr->v[ch + 1]; e++) {
                int r = sidx->v[e];
                if (r > c && mark[r] != c) { mark[r] = c; if (iv_push(sidx, r)) goto out; }
            }
        if (sidx->n > start) qsort(sidx->v + start, (size_t)(sidx->n - start), sizeof(int), cmp_int);
        if (iv_push(sptr, sidx->n)) goto out;
        parent[c] = sidx->n > start ? sidx->v[start] : -1;
        if (parent[c] >= 0) { child_next[c] = child_head[parent[c]]; child_head[parent[c]] = c; }
    }
    rc = 0;
out:
    free(parent); free(mark); free(child_head); free(child_next);
    return rc;
}

/* Values laid out per column (the diagonal block, then the blocks below), the
 * update lists' room and the factor's scratch; -1 without memory. */
static int layout_values(MtBchol *b, const IVec *sptr, const IVec *sidx)
{
    int n = b->n;
    b->nnz = sidx->n;
    b->rowpos = malloc(sizeof(int) * (size_t)(sidx->n + 1));
    b->voff = malloc(sizeof(int) * (size_t)(sidx->n + 1));
    if (!b->rowpos || !b->voff) return -1;
    int nval = 0, nupd = 0;
    for (int c = 0; c < n; c++) {
        int mc = b->size[b->perm[c]];
        b->dval[c] = nval;
        nval += mc * mc;
        b->colptr[c] = sptr->v[c];
        for (int e = sptr->v[c]; e < sptr->v[c + 1]; e++) {
            b->rowpos[e] = sidx->v[e];
            b->voff[e] = nval;
            nval += b->size[b->perm[sidx->v[e]]] * mc;
        }
        int nb = sptr->v[c + 1] - sptr->v[c];
        nupd += nb * (nb + 1) / 2;
    }
    b->colptr[n] = sidx->n;
    b->nval = nval;
    b->val = calloc((size_t)nval + 1, sizeof(double));
    b->dep = calloc((size_t)b->nrows + 1, 1);
    b->diag0 = calloc((size_t)b->nrows + 1, sizeof(double));
    b->upd_a = malloc(sizeof(int) * (size_t)(nupd + 1));
    b->upd_b = malloc(sizeof(int) * (size_t)(nupd + 1));
    b->upd_t = malloc(sizeof(int) * (size_t)(nupd + 1));
    b->upd_ma = malloc(sizeof(int) * (size_t)(nupd + 1));
    b->upd_mb = malloc(sizeof(int) * (size_t)(nupd + 1));
    b->psize = malloc(sizeof(int) * (size_t)(n + 1));
    b->poff = malloc(sizeof(int) * (size_t)(n + 1));
    b->esize = malloc(sizeof(int) * (size_t)(sidx->n + 1));
    b->eoff = malloc(sizeof(int) * (size_t)(sidx->n + 1));
    b->dinv = calloc((size_t)b->nrows + 1, sizeof(double));
    b->ldl = calloc((size_t)n + 1, 1);
    int maxcol = 0;
    for (int c = 0; c < n; c++) {
        int w = 0;
        for (int e = sptr->v[c]; e < sptr->v[c + 1]; e++) w += b->size[b->perm[sidx->v[e]]] * b->size[b->perm[c]];
        maxcol = w > maxcol ? w : maxcol;
    }
    b->xs = malloc(sizeof(double) * (size_t)(maxcol + 1));
    int maxnb = 0;
    for (int c = 0; c < n; c++) maxnb = sptr->v[c + 1] - sptr->v[c] > maxnb ? sptr->v[c + 1] - sptr->v[c] : maxnb;
    b->pan = malloc(sizeof(double) * (size_t)(27 * maxnb + 1));
    b->xoff = malloc(sizeof(int) * (size_t)(sidx->n + 1));
    if (!b->pan || !b->ldl || !b->xs || !b->xoff) return -1;
    for (int c = 0; c < n; c++)
        for (int e = sptr->v[c], x = 0; e < sptr->v[c + 1]; e++) {
            b->xoff[e] = x;
            x += b->size[b->perm[sidx->v[e]]] * b->size[b->perm[c]];
        }
    if (!b->upd_ma || !b->upd_mb || !b->psize || !b->poff || !b->esize || !b->eoff || !b->dinv) return -1;
    for (int c = 0; c < n; c++) { b->psize[c] = b->size[b->perm[c]]; b->poff[c] = b->off[b->perm[c]]; }
    for (int e = 0; e < sidx->n; e++) { b->esize[e] = b->size[b->perm[sidx->v[e]]]; b->eoff[e] = b->off[b->perm[sidx->v[e]]]; }
    if (!b->val || !b->dep || !b->diag0 || !b->upd_a || !b->upd_b || !b->upd_t) return -1;
    return 0;
}

/* Updates of column c: for below entries a ≥ b, L(ra,rb) -= X_a X_bᵀ. The
 * target (ra, rb) exists in column rb because struct(c)\{rb} ⊂ struct(rb).
 * -2 (err set) if one is missing. */
static int plan_updates(MtBchol *b, MtError *err)
{
    int u = 0;
    for (int c = 0; c < b->n; c++) {
        b->updptr[c] = u;
        for (int ea = b->colptr[c]; ea < b->colptr[c + 1]; ea++)
            for (int eb = b->colptr[c]; eb <= ea; eb++) {
                int ra = b->rowpos[ea], rb = b->rowpos[eb];
                int t = -1;
                if (ra == rb) t = b->dval[rb];
                else {
                    int lo = b->colptr[rb], hi = b->colptr[rb + 1] - 1;
                    while (lo <= hi) {
                        int mid = (lo + hi) / 2;
                        if (b->rowpos[mid] == ra) { t = b->voff[mid]; break; }
                        if (b->rowpos[mid] < ra) lo = mid + 1; else hi = mid - 1;
                    }
                }
                if (t < 0) { mt_error_set(err, MT_ERR_SOLVE, "", "%s", MT_("internal error: symbolic factor incomplete")); return -2; }
                b->upd_a[u] = ea;
                b->upd_b[u] = eb;
                b->upd_t[u] = t;
                b->upd_ma[u] = b->size[b->perm[ra]];
                b->upd_mb[u] = b->size[b->perm[rb]];
                u++;
            }
    }
    b->updptr[b->n] = u;
    return 0;
}

/* Chains: columns of 3 rows with one block below (c3), and when every column
 * updates at most its parent's diagonal block, which columns save a diagonal
 * block before it is updated (dsave); -1 without memory. */
static int plan_chains(MtBchol *b)
{
    int n = b->n;
    b->c3 = malloc(sizeof(int) * (size_t)(5 * n + 1));
    if (!b->c3) return -1;
    for (int c = 0; c < n; c++) {
        int e = b->colptr[c], *o = b->c3 + 5 * c;
        o[0] = -1;
        if (b->psize[c] != 3 || b->colptr[c + 1] != e + 1 || b->esize[e] != 3) continue;
        o[0] = b->dval[c]; o[1] = b->poff[c]; o[2] = b->voff[e]; o[3] = b->dval[b->rowpos[e]]; o[4] = b->eoff[e];
    }
    int single = 1; /* each column updates at most its parent's diagonal block */
    for (int c = 0; c < n; c++) single &= b->colptr[c + 1] - b->colptr[c] <= 1;
    if (single) {
        b->dsave = calloc((size_t)n + 1, 1);
        if (!b->dsave) return -1;
        for (int c = 0; c < n; c++) b->dsave[c] = 1; /* no child yet: the column saves its own */
        for (int c = 0; c < n; c++)
            if (b->colptr[c + 1] > b->colptr[c]) {
                int p = b->rowpos[b->colptr[c]];
                if (b->dsave[p] & 1) b->dsave[c] |= 2; /* the first child saves its parent's, before updating it */
                b->dsave[p] &= (unsigned char)~1;
            }
    }
    return 0;
}

/* Fill-in entries: A has no block there, so mt_bchol_zero_fill clears them
 * before each factor; -1 without memory. */
static int mark_fill(MtBchol *b, const int *Ap, const int *Ai)
{
    int n = b->n;
    int *mark = malloc(sizeof(int) * (size_t)(n + 1));
    b->fill = malloc(sizeof(int) * (size_t)(2 * b->nnz + 1));
    b->isfill = calloc((size_t)b->nnz + 1, 1);
    b->cg = malloc(sizeof(double) * (size_t)(5 * b->nrows + 1));
    if (!mark || !b->fill || !b->isfill || !b->cg) { free(mark); return -1; }
    for (int c = 0; c < n; c++) mark[c] = -1;
    for (int c = 0; c < n; c++) {
        int k = b->perm[c];
        for (int a = Ap[k]; a < Ap[k + 1]; a++) mark[b->iperm[Ai[a]]] = c;
        for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++)
            if (mark[b->rowpos[e]] != c) {
                b->fill[2 * b->nfill] = b->voff[e];
                b->fill[2 * b->nfill + 1] = b->esize[e] * b->psize[c];
                b->nfill++;
                b->isfill[e] = 1;
            }
    }
    free(mark);
    return 0;
}

MtBchol *mt_bchol_new(int n, const int *size, int nedge, const int *edge, MtError *err)
{
    MtBchol *b = calloc(1, sizeof *b);
    int *deg = NULL, *Ap = NULL, *Ai = NULL, rc = -1;
    IVec sptr = {0}, sidx = {0};
    if (!b) goto out;
    if ((rc = bchol_sizes(b, n, size, err)) || (rc = block_graph(n, nedge, edge, &Ap, &Ai, &deg))) goto out;
    order_blocks(b, Ap, Ai, deg);
    if ((rc = symbolic(b, Ap, Ai, &sptr, &sidx)) || (rc = layout_values(b, &sptr, &sidx)) || (rc = plan_updates(b, err)) ||
        (rc = plan_chains(b)) || (rc = mark_fill(b, Ap, Ai)))
        goto out;
    rc = mt_bsuper_new(n, b->nrows, b->psize, b->poff, b->colptr, b->rowpos, 0, &b->sup) ? -1 : 0;
out:
    if (rc == -1) mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory building the constraint factorisation"));
    free(deg); free(Ap); free(Ai); free(sptr.v); free(sidx.v);
    if (rc) { mt_bchol_free(b); return NULL; }
    return b;
}

double *mt_bchol_block(MtBchol *b, int k, int l, int *swap)
{
    int pk = b->iperm[k], pl = b->iperm[l];
    *swap = 0;
    if (pk == pl) return b->val + b->dval[pk];
    int r = pk, c = pl;
    if (pk < pl) { r = pl; c = pk; *swap = 1; }
    for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++)
        if (b->rowpos[e] == r) return b->val + b->voff[e];
    return NULL;
}

void mt_bchol_zero(MtBchol *b) { memset(b->val, 0, sizeof(double) * (size_t)b->nval); }

void mt_bchol_zero_fill(MtBchol *b)
{
    for (int i = 0; i < b->nfill; i++) memset(b->val + b->fill[2 * i], 0, sizeof(double) * (size_t)b->fill[2 * i + 1]);
}

static inline void save_diag_col(MtBchol *b, int c)
{
    int m = b->psize[c];
    const double *D = b->val + b->dval[c];
    double *d0 = b->diag0 + b->poff[c];
    if (m == 3) { /* spherical joints: unrolled */
        d0[0] = D[0]; d0[1] = D[4]; d0[2] = D[8];
        return;
    }
    for (int j = 0; j < m; j++) d0[j] = D[j * m + j];
}

static void save_diag(MtBchol *b)
{
    for (int c = 0; c < b->n; c++) save_diag_col(b, c);
}

void mt_bchol_set_dependent(MtBchol *b, int row, int dep) { b->dep[row] = (unsigned char)(dep != 0); }

/* Kernels are written for a block size m known at compile time (they are
 * instantiated for m = 1..6 through the switch below), so the compiler fully
 * unrolls them: the generic loops cost several times more on small blocks. */
#define INLINE static inline __attribute__((always_inline))

/* Cholesky of the diagonal block in place (lower triangle), skipping dependent rows. */
INLINE int chol_diag(double *L, unsigned char *dep, const double *d0, int detect, double tol, int *nreg, const int m)
{
    for (int j = 0; j < m; j++) {
        double d = L[j * m + j];
        for (int q = 0; q < j; q++) d -= L[j * m + q] * L[j * m + q];
        if (detect && !(d > tol * d0[j])) dep[j] = 1;
        else if (!detect && tol > 0 && !dep[j] && !(d > tol * d0[j]) && d0[j] > 0 && isfinite(d)) {
            d = tol * d0[j]; /* near a singular configuration: a compliant row instead of a breakdown */
            (*nreg)++;
        }
        if (dep[j]) {
            for (int i = 0; i < m; i++) { L[i * m + j] = 0; L[j * m + i] = 0; }
            L[j * m + j] = 1;
            continue;
        }
        if (!(d > 0)) return -1;
        double ljj = sqrt(d), inv = 1 / ljj;
        L[j * m + j] = ljj;
        for (int i = j + 1; i < m; i++) {
            double s = L[i * m + j];
            for (int q = 0; q < j; q++) s -= L[i * m + q] * L[j * m + q];
            L[i * m + j] = s * inv;
        }
    }
    return 0;
}

/* X = B L⁻ᵀ for a below block of mr rows. */
INLINE void below_solve(double *X, const double *L, const double *inv, const int mr, const int m)
{
    for (int r = 0; r < mr; r++)
        for (int j = 0; j < m; j++) {
            double s = X[r * m + j];
            for (int q = 0; q < j; q++) s -= X[r * m + q] * L[j * m + q];
            X[r * m + j] = s * inv[j];
        }
}

/* T -= Xa Xbᵀ */
INLINE void schur(double *restrict T, const double *restrict Xa, const int ma, const double *restrict Xb, const int mb, const int m)
{
    for (int i = 0; i < ma; i++)
        for (int j = 0; j < mb; j++) {
            double s = 0;
            for (int q = 0; q < m; q++) s += Xa[i * m + q] * Xb[j * m + q];
            T[i * mb + j] -= s;
        }
}

INLINE int factor_column(MtBchol *b, int c, int detect, double tol, const int m)
{
    int o = b->poff[c];
    double *L = b->val + b->dval[c];
    unsigned char *dep = b->dep + o;
    b->ldl[c] = 0;
    if (chol_diag(L, dep, b->diag0 + o, detect, tol, &b->nreg, m)) return -1;
    double *dinv = b->dinv + o;
    for (int j = 0; j < m; j++) dinv[j] = dep[j] ? 0 : 1 / L[j * m + j];
    for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++) {
        if (b->esize[e] == m) below_solve(b->val + b->voff[e], L, dinv, m, m);
        else below_solve(b->val + b->voff[e], L, dinv, b->esize[e], m);
    }
    for (int u = b->updptr[c]; u < b->updptr[c + 1]; u++) {
        double *T = b->val + b->upd_t[u];
        const double *Xa = b->val + b->voff[b->upd_a[u]], *Xb = b->val + b->voff[b->upd_b[u]];
        if (b->upd_ma[u] == m && b->upd_mb[u] == m) schur(T, Xa, m, Xb, m, m); /* unrolled for equal sizes */
        else schur(T, Xa, b->upd_ma[u], Xb, b->upd_mb[u], m);
    }
    return 0;
}

/* Block LDLᵀ columns (blocks of 1–3 rows): the diagonal block is inverted by
 * cofactors with a single division instead of m square roots and divisions.
 * The factor of a chain is one serial dependency from column to column, so
 * this latency is most of its cost. A column takes this path only when its
 * LDLᵀ pivots are all above LDL_MIN of their diagonal (and above tol of the
 * original diagonal when regularising); otherwise it is factored by the
 * Cholesky path, which regularises or detects. The cofactor inverse loses
 * accuracy on ill-conditioned blocks: with 1e-6 here the flat 12 × 12 lattice
 * of bench/grid (near-dependent rows next to rows out of the solve) diverged
 * at t = 0.71 s; with 1e-3 every size to 20 × 20 runs, and chains (pivot
 * ratios near 1) are unaffected. */
#define LDL_MIN 1e-3

/* Adjugate C (full, row-major) and 1/det of the symmetric block whose lower
 * triangle is in D, so that D⁻¹ = C/det; 0 if the pivots pass. The caller
 * forms the Schur updates from C and scales them by 1/det afterwards, so the
 * division runs alongside instead of on the column-to-column critical path. */
INLINE int adj_small(double *C, double *id, const double *D, const double *d0, double tol, const int m)
{
    if (m == 1) {
        double a = D[0];
        if (!(a > 0) || (tol > 0 && !(a > tol * d0[0]))) return 1;
        C[0] = 1;
        *id = 1 / a;
        return 0;
    }
    if (m == 2) {
        double a00 = D[0], a10 = D[2], a11 = D[3], det = a00 * a11 - a10 * a10;
        if (!(a00 > 0) || !(det > LDL_MIN * a11 * a00)) return 1;
        if (tol > 0 && (!(a00 > tol * d0[0]) || !(det > tol * d0[1] * a00))) return 1;
        C[0] = a11; C[1] = C[2] = -a10; C[3] = a00;
        *id = 1 / det;
        return 0;
    }
    double a00 = D[0], a10 = D[3], a11 = D[4], a20 = D[6], a21 = D[7], a22 = D[8];
    double c22 = a00 * a11 - a10 * a10, c00 = a11 * a22 - a21 * a21, c10 = a21 * a20 - a10 * a22;
    double c20 = a10 * a21 - a11 * a20, c11 = a00 * a22 - a20 * a20, c21 = a10 * a20 - a00 * a21;
    double det = a00 * c00 + a10 * c10 + a20 * c20;
    if (!(a00 > 0) || !(c22 > LDL_MIN * a11 * a00) || !(det > LDL_MIN * a22 * c22)) return 1;
    if (tol > 0 && (!(a00 > tol * d0[0]) || !(c22 > tol * d0[1] * a00) || !(det > tol * d0[2] * c22))) return 1;
    C[0] = c00; C[1] = C[3] = c10; C[2] = C[6] = c20;
    C[4] = c11; C[5] = C[7] = c21; C[8] = c22;
    *id = 1 / det;
    return 0;
}

/* X = B D⁻¹ for a below block of mr rows. */
INLINE void xmul(double *restrict X, const double *restrict B, const double *restrict Di, const int mr, const int m)
{
    for (int r = 0; r < mr; r++)
        for (int j = 0; j < m; j++) {
            double v = 0;
            for (int q = 0; q < m; q++) v += B[r * m + q] * Di[q * m + j];
            X[r * m + j] = v;
        }
}

/* T -= (Ba Xbᵀ)·id */
INLINE void schur_s(double *restrict T, const double *restrict Xa, const int ma, const double *restrict Xb, const int mb,
                    double id, const int m)
{
    for (int i = 0; i < ma; i++)
        for (int j = 0; j < mb; j++) {
            double v = 0;
            for (int q = 0; q < m; q++) v += Xa[i * m + q] * Xb[j * m + q];
            T[i * mb + j] -= v * id;
        }
}

/* A column of 3-row blocks with nb ≥ 4 below blocks (fill-in of loopy graphs):
 * the below blocks are gathered into one 3nb × 3 panel B, P = B·C is kept
 * transposed, and the Schur updates (B Pᵀ)/det are formed as one dense lower
 * product whose inner loop runs along contiguous memory (the compiler
 * vectorises it), then subtracted from their targets. Same arithmetic as the
 * block-by-block updates; 0 if some below block is not 3 rows (caller does it). */
INLINE int panel_column(MtBchol *b, int c, const double *C, double id)
{
    int e0 = b->colptr[c], nb = b->colptr[c + 1] - e0, w = 3 * nb;
    for (int e = 0; e < nb; e++)
        if (b->esize[e0 + e] != 3) return 0;
    double *restrict Bp = b->pan, *restrict PT = Bp + 9 * nb, *restrict Q = PT + 9 * nb;
    for (int e = 0; e < nb; e++) {
        const double *B = b->val + b->voff[e0 + e];
        for (int i = 0; i < 9; i++) Bp[9 * e + i] = B[i];
    }
    for (int i = 0; i < w; i++) /* PT[j][i] = (B C)[i][j] */
        for (int j = 0; j < 3; j++) PT[j * w + i] = Bp[3 * i] * C[j] + Bp[3 * i + 1] * C[3 + j] + Bp[3 * i + 2] * C[6 + j];
    int u = b->updptr[c];
    for (int a = 0; a < nb; a++) { /* block row a of the lower product, in a small buffer: Q[i][j] = Σ_q B[3a+i][q] PT[q][j] */
        int end = 3 * a + 3;
        for (int i = 0; i < 3; i++) {
            const double *Bi = Bp + 3 * (3 * a + i);
            double *Qi = Q + (size_t)i * w, b0 = Bi[0], b1 = Bi[1], b2 = Bi[2];
            for (int j = 0; j < end; j++) Qi[j] = b0 * PT[j] + b1 * PT[w + j] + b2 * PT[2 * w + j];
        }
        for (int bb = 0; bb <= a; bb++, u++) {
            double *T = b->val + b->upd_t[u];
            const double *Qa = Q + 3 * bb;
            if (a == bb)
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j <= i; j++) T[3 * i + j] -= Qa[(size_t)i * w + j] * id;
            else
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++) T[3 * i + j] -= Qa[(size_t)i * w + j] * id;
        }
    }
    for (int e = 0; e < nb; e++) { /* X̃ = B C in place of B */
        double *B = b->val + b->voff[e0 + e];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) B[3 * i + j] = PT[j * w + 3 * e + i];
    }
    return 1;
}

/* 1: not taken (use factor_column). LDLᵀ columns are stored unscaled: the
 * adjugate C in the diagonal slot, X̃ = B C in place of each below block, and
 * 1/det in dinv[first row]; D⁻¹ = C/det and L = X̃/det. Row-block sizes equal
 * to m (spherical joints next to spherical joints) get unrolled kernels, and a
 * column with a single below block (chains, tree branches) needs no scratch. */
INLINE int ldl_column(MtBchol *b, int c, double tol, const int m)
{
    int o = b->poff[c], ndep = 0;
    const unsigned char *dep = b->dep + o;
    for (int j = 0; j < m; j++) ndep += dep[j];
    double *D = b->val + b->dval[c], C[9], id;
    if (ndep) { /* rows out of the solve: unit pivots, no coupling, and no updates flow from them */
        if (ndep == m) return 1;
        double Dm[9];
        for (int i = 0; i < m * m; i++) Dm[i] = D[i];
        for (int j = 0; j < m; j++)
            if (dep[j]) {
                for (int i = 0; i < m; i++) Dm[i * m + j] = Dm[j * m + i] = 0;
                Dm[j * m + j] = 1;
            }
        double d0[3];
        for (int j = 0; j < m; j++) d0[j] = dep[j] ? 1 : b->diag0[o + j];
        if (adj_small(C, &id, Dm, d0, tol, m)) return 1;
        for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++) {
            double *B = b->val + b->voff[e];
            for (int r = 0; r < b->esize[e]; r++)
                for (int j = 0; j < m; j++)
                    if (dep[j]) B[r * m + j] = 0;
        }
    } else if (adj_small(C, &id, D, b->diag0 + o, tol, m)) return 1;
    b->ldl[c] = 1;
    b->dinv[o] = id;
    for (int i = 0; i < m * m; i++) D[i] = C[i];
    int e0 = b->colptr[c], e1 = b->colptr[c + 1];
    if (e1 == e0 + 1 && b->esize[e0] == m) { /* one below block: T -= (B X̃ᵀ)/det, lower triangle */
        double *B = b->val + b->voff[e0], X[9], *T = b->val + b->upd_t[b->updptr[c]];
        xmul(X, B, C, m, m);
        for (int i = 0; i < m; i++)
            for (int j = 0; j <= i; j++) {
                double v = 0;
                for (int q = 0; q < m; q++) v += B[i * m + q] * X[j * m + q];
                T[i * m + j] -= v * id;
            }
        for (int i = 0; i < m * m; i++) B[i] = X[i];
        return 0;
    }
    if (m == 3 && e1 - e0 >= 4 && panel_column(b, c, C, id)) return 0;
    double *xs = b->xs;
    for (int e = e0; e < e1; e++) { /* B C */
        if (b->esize[e] == m) xmul(xs + b->xoff[e], b->val + b->voff[e], C, m, m);
        else xmul(xs + b->xoff[e], b->val + b->voff[e], C, b->esize[e], m);
    }
    for (int u = b->updptr[c]; u < b->updptr[c + 1]; u++) { /* T -= B_a D⁻¹ B_bᵀ = (B_a (B_b C)ᵀ)/det */
        double *T = b->val + b->upd_t[u];
        const double *Ba = b->val + b->voff[b->upd_a[u]], *Xb = xs + b->xoff[b->upd_b[u]];
        if (b->upd_ma[u] == m && b->upd_mb[u] == m) schur_s(T, Ba, m, Xb, m, id, m);
        else schur_s(T, Ba, b->upd_ma[u], Xb, b->upd_mb[u], id, m);
    }
    for (int e = e0; e < e1; e++) {
        double *B = b->val + b->voff[e];
        const double *X = xs + b->xoff[e];
        if (b->esize[e] == m)
            for (int i = 0; i < m * m; i++) B[i] = X[i];
        else
            for (int i = 0, ni = b->esize[e] * m; i < ni; i++) B[i] = X[i];
    }
    return 0;
}

/* The factor by the panels (mt_bchol_super.c); A stays in val. */
static int super_factor(MtBchol *b, int detect, double tol, int *bad_block)
{
    int pos = 0;
    b->sup_on = 1;
    if (mt_bsuper_factor(b->sup, b->val, b->dval, b->voff, b->isfill, b->dep, b->diag0, detect, tol, &b->nreg, &pos)) {
        if (bad_block) *bad_block = b->perm[pos];
        return -1;
    }
    return 0;
}

int mt_bchol_use_panels(MtBchol *b, int on)
{
    if (!on) {
        mt_bsuper_free(b->sup);
        b->sup = NULL;
        b->sup_on = 0;
        return 0;
    }
    if (b->sup) return 0;
    return mt_bsuper_new(b->n, b->nrows, b->psize, b->poff, b->colptr, b->rowpos, 1, &b->sup);
}

int mt_bchol_has_panels(const MtBchol *b) { return b->sup != NULL; }

MT_HOT int mt_bchol_factor(MtBchol *b, int detect, double tol, int *bad_block)
{
    if (b->sup) return super_factor(b, detect, tol, bad_block);
    b->sup_on = 0;
    if (detect || tol > 0) save_diag(b); /* detect keeps rows already marked: they stay out */
    b->nreg = 0;
    for (int c = 0; c < b->n; c++) {
        int rc;
        switch (b->psize[c]) {
        /* detecting: a block whose pivots all pass tol has no dependent row, so the LDLᵀ path serves */
        case 1: rc = ldl_column(b, c, tol, 1) ? factor_column(b, c, detect, tol, 1) : 0; break;
        case 2: rc = ldl_column(b, c, tol, 2) ? factor_column(b, c, detect, tol, 2) : 0; break;
        case 3: rc = ldl_column(b, c, tol, 3) ? factor_column(b, c, detect, tol, 3) : 0; break;
        case 4: rc = factor_column(b, c, detect, tol, 4); break;
        case 5: rc = factor_column(b, c, detect, tol, 5); break;
        default: rc = factor_column(b, c, detect, tol, 6); break;
        }
        if (rc) {
            if (bad_block) *bad_block = b->perm[c];
            return -1;
        }
    }
    return 0;
}

/* LDLᵀ column: forward x_e -= X_e y_c, then z_c = D⁻¹ y_c; backward x_c = z_c − Σ X_eᵀ x_e. */
INLINE void xsub(double *restrict xr, const double *restrict X, const double *restrict y, const int mr, const int m)
{
    for (int r = 0; r < mr; r++) {
        double s = 0;
        for (int q = 0; q < m; q++) s += X[r * m + q] * y[q];
        xr[r] -= s;
    }
}

INLINE void xtsub(double *restrict xc, const double *restrict X, const double *restrict xr, const int mr, const int m)
{
    for (int r = 0; r < mr; r++)
        for (int q = 0; q < m; q++) xc[q] -= X[r * m + q] * xr[r];
}

INLINE void fwd_ldl(const MtBchol *b, int c, double *x, const int m)
{
    const double *Ci = b->val + b->dval[c];
    const unsigned char *dep = b->dep + b->poff[c];
    double *xc = x + b->poff[c], y[3], id = b->dinv[b->poff[c]];
    for (int j = 0; j < m; j++) y[j] = dep[j] ? 0 : xc[j] * id; /* rows out of the solve: x = 0 */
    for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++) {
        if (b->esize[e] == m) xsub(x + b->eoff[e], b->val + b->voff[e], y, m, m);
        else xsub(x + b->eoff[e], b->val + b->voff[e], y, b->esize[e], m);
    }
    for (int j = 0; j < m; j++) {
        double s = 0;
        for (int q = 0; q < m; q++) s += Ci[j * m + q] * y[q];
        xc[j] = s;
    }
}

INLINE void bwd_ldl(const MtBchol *b, int c, double *x, const int m)
{
    double *xc = x + b->poff[c], t[3] = {0, 0, 0}, id = b->dinv[b->poff[c]];
    for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++) {
        if (b->esize[e] == m) xtsub(t, b->val + b->voff[e], x + b->eoff[e], m, m);
        else xtsub(t, b->val + b->voff[e], x + b->eoff[e], b->esize[e], m);
    }
    for (int q = 0; q < m; q++) xc[q] += t[q] * id;
}

INLINE void fwd_column(const MtBchol *b, int c, double *x, const int m)
{
    const double *L = b->val + b->dval[c], *dinv = b->dinv + b->poff[c];
    double *xc = x + b->poff[c];
    for (int j = 0; j < m; j++) { /* dependent rows: dinv = 0 and zero L columns give x = 0 */
        double s = xc[j];
        for (int q = 0; q < j; q++) s -= L[j * m + q] * xc[q];
        xc[j] = s * dinv[j];
    }
    for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++) {
        const double *X = b->val + b->voff[e];
        double *xr = x + b->eoff[e];
        for (int r = 0, mr = b->esize[e]; r < mr; r++) {
            double s = 0;
            for (int q = 0; q < m; q++) s += X[r * m + q] * xc[q];
            xr[r] -= s;
        }
    }
}

INLINE void bwd_column(const MtBchol *b, int c, double *x, const int m)
{
    const double *L = b->val + b->dval[c], *dinv = b->dinv + b->poff[c];
    double *xc = x + b->poff[c];
    for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++) {
        const double *X = b->val + b->voff[e];
        const double *xr = x + b->eoff[e];
        for (int r = 0, mr = b->esize[e]; r < mr; r++)
            for (int q = 0; q < m; q++) xc[q] -= X[r * m + q] * xr[r];
    }
    for (int j = m - 1; j >= 0; j--) {
        double s = xc[j];
        for (int q = j + 1; q < m; q++) s -= L[q * m + j] * xc[q];
        xc[j] = s * dinv[j];
    }
}

#define DISPATCH(fn, m, ...)                      \
    switch (m) {                                  \
    case 1: fn(__VA_ARGS__, 1); break;            \
    case 2: fn(__VA_ARGS__, 2); break;            \
    case 3: fn(__VA_ARGS__, 3); break;            \
    case 4: fn(__VA_ARGS__, 4); break;            \
    case 5: fn(__VA_ARGS__, 5); break;            \
    default: fn(__VA_ARGS__, 6); break;           \
    }

INLINE void fwd_any(const MtBchol *b, int c, double *x)
{
    if (b->ldl[c]) {
        switch (b->psize[c]) {
        case 1: fwd_ldl(b, c, x, 1); break;
        case 2: fwd_ldl(b, c, x, 2); break;
        default: fwd_ldl(b, c, x, 3); break;
        }
    } else DISPATCH(fwd_column, b->psize[c], b, c, x)
}

/* Chain columns: a 3-row block with one below block of 3 rows (a chain or a
 * branch of spherical joints), factored as LDLᵀ and its forward step done in
 * one go, in vectors of four lanes holding one row or column of a 3 × 3
 * block (lane 3 is never stored). Every lane performs the operations of ldl_column and
 * fwd_ldl on one entry in the same order, the zero start of their sums
 * included, so the results are theirs to the last bit. The generic path cost
 * about 380 instructions per column, most of them index arithmetic, scalar
 * loops and dispatch: the column was bound by instructions more than by the
 * latency of its dependency on the previous column. */
/* macros, not functions: a vector argument or result changes the ABI of the baseline clone */
#define LD3(p) ((MtLanes){(p)[0], (p)[1], (p)[2], (p)[2]}) /* lane 3: any finite number, never stored */
/* three entries: a 4-lane store would write the next block's first entry */
#define ST3(p, v) do { MtLanes v_ = (v); (p)[0] = v_[0]; (p)[1] = v_[1]; (p)[2] = v_[2]; } while (0)

/* o: the column's offsets (MtBchol.c3); ds: its MtBchol.dsave flags (0 when
 * not saving), whose diagonals it saves first. 1: not taken (rows out of the
 * solve, or pivots that need the general path), nothing else changed then. */
INLINE int chain_column(MtBchol *b, int c, const int *o, double tol, double *x, int ds)
{
    double *D = b->val + o[0], *T = b->val + o[3], C[9], id;
    if (ds & 1) { double *d0 = b->diag0 + o[1]; d0[0] = D[0]; d0[1] = D[4]; d0[2] = D[8]; }
    if (ds & 2) { double *d0 = b->diag0 + o[4]; d0[0] = T[0]; d0[1] = T[4]; d0[2] = T[8]; }
    const unsigned char *dep = b->dep + o[1];
    if (dep[0] | dep[1] | dep[2]) return 1;
    if (adj_small(C, &id, D, b->diag0 + o[1], tol, 3)) return 1;
    b->ldl[c] = 1;
    b->dinv[o[1]] = id;
    double *B = b->val + o[2], *xc = x + o[1], *xr = x + o[4];
    const MtLanes z = {0, 0, 0, 0};
    MtLanes C0 = LD3(C), C1 = LD3(C + 3), C2 = LD3(C + 6); /* rows = columns: C is symmetric */
    ST3(D, C0); ST3(D + 3, C1); ST3(D + 6, C2);
    MtLanes B0 = LD3(B), B1 = LD3(B + 3), B2 = LD3(B + 6); /* rows of B */
    /* X̃ = B C: rows (stored in place of B), and columns for T and the forward step (a transposition) */
    MtLanes X0 = ((z + B0[0] * C0) + B0[1] * C1) + B0[2] * C2;
    MtLanes X1 = ((z + B1[0] * C0) + B1[1] * C1) + B1[2] * C2;
    MtLanes X2 = ((z + B2[0] * C0) + B2[1] * C1) + B2[2] * C2;
    const MtMask lo = {0, 4, 1, 5}, k0 = {0, 1, 4, 4}, k1 = {2, 3, 5, 5}, k2 = {2, 6, 2, 2}; /* 3 x 3 transposition */
    MtLanes t01 = __builtin_shuffle(X0, X1, lo);                    /* X0[0] X1[0] X0[1] X1[1] */
    MtLanes Xc0 = __builtin_shuffle(t01, X2, k0), Xc1 = __builtin_shuffle(t01, X2, k1);
    MtLanes t2 = __builtin_shuffle(X0, X1, k2);                     /* X0[2] X1[2] X0[2] X0[2] */
    const MtMask k3 = {0, 1, 6, 6};
    MtLanes Xc2 = __builtin_shuffle(t2, X2, k3);
    /* T -= (B X̃ᵀ)/det, lower triangle (row i, entries j ≤ i) as ldl_column */
    MtLanes T0 = LD3(T), T1 = LD3(T + 3), T2 = LD3(T + 6);
    T0 -= (((z + B0[0] * Xc0) + B0[1] * Xc1) + B0[2] * Xc2) * id;
    T1 -= (((z + B1[0] * Xc0) + B1[1] * Xc1) + B1[2] * Xc2) * id;
    T2 -= (((z + B2[0] * Xc0) + B2[1] * Xc1) + B2[2] * Xc2) * id;
    T[0] = T0[0];
    T[3] = T1[0]; T[4] = T1[1];
    T[6] = T2[0]; T[7] = T2[1]; T[8] = T2[2];
    ST3(B, X0); ST3(B + 3, X1); ST3(B + 6, X2);
    /* forward: y = x_c/det, x_r -= X̃ y, x_c = C y */
    MtLanes y = LD3(xc) * id;
    MtLanes r = LD3(xr);
    r -= ((z + Xc0 * y[0]) + Xc1 * y[1]) + Xc2 * y[2];
    ST3(xr, r);
    ST3(xc, ((z + C0 * y[0]) + C1 * y[1]) + C2 * y[2]);
    return 0;
}

/* Backward step of a chain column: x_c += (−X̃ᵀ x_r)/det, as bwd_ldl. */
INLINE void chain_bwd(const MtBchol *b, const int *o, double *x)
{
    const double *X = b->val + o[2], *xr = x + o[4];
    double *xc = x + o[1], id = b->dinv[o[1]];
    const MtLanes z = {0, 0, 0, 0};
    MtLanes t = ((z - LD3(X) * xr[0]) - LD3(X + 3) * xr[1]) - LD3(X + 6) * xr[2];
    ST3(xc, LD3(xc) + t * id);
}

MT_HOT static void bwd_all(const MtBchol *b, double *x)
{
    for (int c = b->n - 1; c >= 0; c--) {
        const int *o = b->c3 + 5 * c;
        if (o[0] >= 0 && b->ldl[c]) {
            chain_bwd(b, o, x);
            continue;
        }
        if (b->ldl[c]) {
            switch (b->psize[c]) {
            case 1: bwd_ldl(b, c, x, 1); break;
            case 2: bwd_ldl(b, c, x, 2); break;
            default: bwd_ldl(b, c, x, 3); break;
            }
        } else DISPATCH(bwd_column, b->psize[c], b, c, x)
    }
}

MT_HOT int mt_bchol_factor_solve(MtBchol *b, double tol, int *bad_block, double *x)
{
    if (b->sup) {
        if (super_factor(b, 0, tol, bad_block)) return -1;
        mt_bsuper_solve(b->sup, x);
        return 0;
    }
    /* the original diagonal: given by the caller, or saved column by column where each
     * column has one parent (no pass of its own over the blocks) */
    int given = b->d0given;
    b->d0given = 0;
    const unsigned char *dsave = tol > 0 && !given ? b->dsave : NULL;
    if (tol > 0 && !dsave && !given) save_diag(b);
    b->nreg = 0;
    for (int c = 0; c < b->n; c++) {
        const int *o = b->c3 + 5 * c, ds = dsave ? dsave[c] : 0;
        if (o[0] >= 0) {
            if (!chain_column(b, c, o, tol, x, ds)) continue;
        } else if (ds) { /* chain_column saves its own, taken or not */
            if (ds & 1) save_diag_col(b, c);
            if (ds & 2) save_diag_col(b, b->rowpos[b->colptr[c]]);
        }
        int rc;
        switch (b->psize[c]) {
        case 1: rc = ldl_column(b, c, tol, 1) ? factor_column(b, c, 0, tol, 1) : 0; break;
        case 2: rc = ldl_column(b, c, tol, 2) ? factor_column(b, c, 0, tol, 2) : 0; break;
        case 3: rc = ldl_column(b, c, tol, 3) ? factor_column(b, c, 0, tol, 3) : 0; break;
        case 4: rc = factor_column(b, c, 0, tol, 4); break;
        case 5: rc = factor_column(b, c, 0, tol, 5); break;
        default: rc = factor_column(b, c, 0, tol, 6); break;
        }
        if (rc) {
            if (bad_block) *bad_block = b->perm[c];
            return -1;
        }
        fwd_any(b, c, x); /* column c is final: its forward step runs alongside the next column's factor */
    }
    bwd_all(b, x);
    return 0;
}

MT_HOT void mt_bchol_solve(const MtBchol *b, double *x)
{
    if (b->sup_on) {
        mt_bsuper_solve(b->sup, x);
        return;
    }
    for (int c = 0; c < b->n; c++) fwd_any(b, c, x);
    bwd_all(b, x);
}


/* ---- stale factor as preconditioner ---------------------------------- */

double *mt_bchol_values(MtBchol *b) { return b->val; }
double *mt_bchol_diag0(MtBchol *b) { return b->diag0; }
void mt_bchol_diag0_given(MtBchol *b, int given) { b->d0given = given; }

double *mt_bchol_swap_factor(MtBchol *a, MtBchol *b)
{
    double *t = a->val; a->val = b->val; b->val = t;
    t = a->dinv; a->dinv = b->dinv; b->dinv = t;
    t = a->diag0; a->diag0 = b->diag0; b->diag0 = t; /* the pivots' reference (mt_bchol_pivot_ratios) */
    unsigned char *l = a->ldl; a->ldl = b->ldl; b->ldl = l;
    if (a->sup && b->sup) mt_bsuper_swap(a->sup, b->sup);
    int on = a->sup_on; a->sup_on = b->sup_on; b->sup_on = on;
    memcpy(b->dep, a->dep, (size_t)a->nrows);
    b->nreg = a->nreg;
    return a->val;
}

/* Pivots read back from the stored factor: a Cholesky column keeps L_jj =
 * √pivot; an LDLᵀ column keeps the adjugate C of its Schur-complemented
 * diagonal block D and 1/det, and D's pivots follow from C (C = det·D⁻¹, so
 * adj(C) = det·D). */
void mt_bchol_pivot_ratios(const MtBchol *b, double *ratio)
{
    if (b->sup_on) {
        mt_bsuper_pivot_ratios(b->sup, b->dep, b->diag0, ratio);
        return;
    }
    for (int c = 0; c < b->n; c++) {
        int m = b->psize[c], o = b->poff[c];
        const double *F = b->val + b->dval[c];
        double p[MT_BLOCK_MAX];
        if (b->ldl[c]) {
            double det = 1 / b->dinv[o];
            if (m == 1) p[0] = det;
            else if (m == 2) {
                p[0] = F[3];
                p[1] = det / F[3];
            } else {
                p[0] = (F[4] * F[8] - F[5] * F[7]) / det;
                p[1] = F[8] / p[0];
                p[2] = det / F[8];
            }
        } else
            for (int j = 0; j < m; j++) p[j] = F[j * m + j] * F[j * m + j];
        for (int j = 0; j < m; j++) ratio[o + j] = b->dep[o + j] ? 1 : p[j] / b->diag0[o + j];
    }
}

int mt_bchol_same_dependent(const MtBchol *a, const MtBchol *b)
{
    return a->nrows == b->nrows && !memcmp(a->dep, b->dep, (size_t)a->nrows);
}

/* y = A x over the stored lower blocks of A (diagonal blocks: lower triangle). */
INLINE void mulv_column(const MtBchol *b, int c, const double *restrict x, double *restrict y, const int m)
{
    const double *D = b->val + b->dval[c];
    const double *xc = x + b->poff[c];
    double yc[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < m; i++) {
        yc[i] += D[i * m + i] * xc[i];
        for (int j = 0; j < i; j++) {
            yc[i] += D[i * m + j] * xc[j];
            yc[j] += D[i * m + j] * xc[i];
        }
    }
    for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++) {
        if (b->isfill[e]) continue;
        const double *B = b->val + b->voff[e];
        const double *xr = x + b->eoff[e];
        double *yr = y + b->eoff[e];
        for (int r = 0, mr = b->esize[e]; r < mr; r++) {
            double s = 0;
            for (int q = 0; q < m; q++) {
                s += B[r * m + q] * xc[q];
                yc[q] += B[r * m + q] * xr[r];
            }
            yr[r] += s;
        }
    }
    double *ycol = y + b->poff[c];
    for (int i = 0; i < m; i++) ycol[i] += yc[i];
}

MT_HOT void mt_bchol_mulv(const MtBchol *b, const double *x, double *y)
{
    memset(y, 0, sizeof(double) * (size_t)b->nrows);
    for (int c = 0; c < b->n; c++) DISPATCH(mulv_column, b->psize[c], b, c, x, y)
    for (int r = 0; r < b->nrows; r++)
        if (b->dep[r]) y[r] = 0; /* rows out of the solve: the operator is A restricted to the others */
}

static double dotn(const double *a, const double *b, int n)
{
    double s[4] = {0, 0, 0, 0};
    int i = 0;
    for (; i + 4 <= n; i += 4)
        for (int j = 0; j < 4; j++) s[j] += a[i + j] * b[i + j];
    for (; i < n; i++) s[0] += a[i] * b[i];
    return (s[0] + s[1]) + (s[2] + s[3]);
}

/* Conjugate gradients on A restricted to the rows not marked dependent,
 * preconditioned by the factor in p (the same rows marked). With x0 = 0,
 * rᵀP⁻¹r estimates ‖x − x*‖²_A and r0ᵀP⁻¹r0 = bᵀP⁻¹b estimates ‖x*‖²_A; for
 * A = G M⁻¹ Gᵀ, ‖δλ‖_A is the M-norm of the error in the accelerations, so
 * the test bounds the relative error of the constraint forces' effect. */
MT_HOT int mt_bchol_pcg(MtBchol *a, const MtBchol *p, double *x, double tol, int maxit)
{
    int n = a->nrows;
    double *bb = a->cg, *r = bb + n, *z = r + n, *d = z + n, *q = d + n;
    for (int i = 0; i < n; i++) {
        bb[i] = a->dep[i] ? 0 : x[i];
        r[i] = bb[i];
        z[i] = bb[i];
        x[i] = 0;
    }
    mt_bchol_solve(p, z);
    double rz = dotn(r, z, n), rz0 = rz, tol2 = tol * tol;
    if (!(rz0 > 0)) {
        if (rz0 == 0) return 0; /* b = 0: x = 0 */
        memcpy(x, bb, sizeof(double) * (size_t)n);
        return -1;
    }
    memcpy(d, z, sizeof(double) * (size_t)n);
    for (int it = 1; it <= maxit; it++) {
        mt_bchol_mulv(a, d, q);
        double dq = dotn(d, q, n);
        if (!(dq > 0)) break; /* A not positive on the rows kept: the caller refactors */
        double al = rz / dq;
        for (int i = 0; i < n; i++) {
            x[i] += al * d[i];
            r[i] -= al * q[i];
            z[i] = r[i];
        }
        mt_bchol_solve(p, z);
        double rzn = dotn(r, z, n);
        if (rzn <= tol2 * rz0) return it;
        if (!isfinite(rzn)) break;
        double be = rzn / rz;
        rz = rzn;
        for (int i = 0; i < n; i++) d[i] = z[i] + be * d[i];
    }
    memcpy(x, bb, sizeof(double) * (size_t)n); /* right-hand side back for the direct solve */
    return -1;
}

/* Multiply–adds of one factorisation and of one PCG iteration (a forward and
 * backward solve with the factor plus a product with A), from the structure. */
void mt_bchol_costs(const MtBchol *b, double *factor, double *iteration)
{
    double f = 0, it = 0;
    for (int c = 0; c < b->n; c++) {
        int m = b->psize[c];
        f += m * m * m;
        it += 3 * m * m;
        for (int e = b->colptr[c]; e < b->colptr[c + 1]; e++) {
            int mr = b->esize[e];
            f += mr * m * m;          /* B D⁻¹ */
            it += 2 * mr * m;         /* forward and backward */
            if (!b->isfill[e]) it += 2 * mr * m; /* A x */
        }
        for (int u = b->updptr[c]; u < b->updptr[c + 1]; u++) f += b->upd_ma[u] * b->upd_mb[u] * m;
    }
    it += 12 * b->nrows; /* vector operations */
    *factor = f;
    *iteration = it;
}
