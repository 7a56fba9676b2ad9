/* mt_fe_reduce.c — the reduction methods (motus/reduce.h; the layout in mt_fe_reduce.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>

#include "mt_fe_asm.h"
#include "mt_fe_chol.h"
#include "mt_fe_eig.h"
#include "mt_fe_geom.h"
#include "mt_fe_out.h"
#include "mt_fe_reduce.h"
#include "mt_i18n.h"

#define TWO_PI 6.283185307179586
#define MT_REDUCE_LEAN 50000 /* DOFs above which the matrices are re-assembled rather than kept */

void mt_reduce_options_init(MtReduceOptions *o)
{
    memset(o, 0, sizeof *o);
    o->method = MT_REDUCE_CB;
    o->nmodes = 10;
    o->surface = 1;
    o->stress = 1;
    o->zeta = 0.01;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

void mt_flex_body_free(MtFlexBody *b)
{
    if (!b) return;
    free(b->freq), free(b->Kr), free(b->Mr), free(b->zeta), free(b->rigid_freq), free(b->fix_freq), free(b->fix_meff);
    free(b->if_id), free(b->if_x), free(b->if_H);
    free(b->S1), free(b->Ir), free(b->Mww), free(b->I1), free(b->I2), free(b->Sw);
    free(b->sv_id), free(b->sv_x), free(b->st), free(b->seg), free(b->sv_H), free(b->sv_vm), free(b->sv_sig), free(b->Kg), free(b->Kw);
    free(b);
}

static int nomem(MtError *err)
{
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory in the reduction"));
    return -1;
}

static double hz(double lambda) { return sqrt(fmax(lambda, 0)) / TWO_PI; }

/* Rigid-body vectors (n×6): translations, rotations about c. */
static void rigid_vectors(const MtFeModel *m, const MtFeDofs *d, const double c[3], double *R)
{
    int n = d->ndof;
    memset(R, 0, sizeof(double) * 6 * (size_t)n);
    for (int g = 0; g < n; g++) {
        int node = d->dnode[d->dofnode[g]], comp = d->dofcomp[g];
        const double *x = m->x + 3 * node;
        double r[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
        if (comp < 3) {
            R[(size_t)comp * n + g] = 1;
            /* rotation about axis b: (e_b × r)_comp */
            for (int b = 0; b < 3; b++) {
                double e[3] = {0, 0, 0}, v[3];
                e[b] = 1;
                v[0] = e[1] * r[2] - e[2] * r[1];
                v[1] = e[2] * r[0] - e[0] * r[2];
                v[2] = e[0] * r[1] - e[1] * r[0];
                R[(size_t)(3 + b) * n + g] = v[comp];
            }
        } else R[(size_t)comp * n + g] = 1;
    }
}

/* Reduced matrices Hᵀ K H and Hᵀ M H (q×q) of the basis H (n×q). */
static int project(const MtFeCsc *A, const double *H, int q, double *Kb, double *Mb, MtError *err)
{
    size_t n = (size_t)A->n;
    double *Y = malloc(sizeof(double) * n * (size_t)q);
    if (!Y) return nomem(err);
    mt_fe_symm(A, A->k, q, H, Y);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, q, q, (int)n, 1, H, (int)n, Y, (int)n, 0, Kb, q);
    mt_fe_symm(A, A->m, q, H, Y);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, q, q, (int)n, 1, H, (int)n, Y, (int)n, 0, Mb, q);
    free(Y);
    for (int i = 0; i < q; i++) /* exact symmetry */
        for (int j = i + 1; j < q; j++) {
            double a = 0.5 * (Kb[(size_t)i * q + j] + Kb[(size_t)j * q + i]), b = 0.5 * (Mb[(size_t)i * q + j] + Mb[(size_t)j * q + i]);
            Kb[(size_t)i * q + j] = Kb[(size_t)j * q + i] = a;
            Mb[(size_t)i * q + j] = Mb[(size_t)j * q + i] = b;
        }
    return 0;
}

/* Effective masses of nk modes (rows 0..len−1 of Phi, ld n; the rest zero). */
static int effective_mass(const MtFeModel *m, const MtFeDofs *d, const MtFeCsc *A, const double *Phi, int len, int nk,
                          double *meff, MtError *err)
{
    int n = d->ndof;
    double mass, s[3], In[9], c[3] = {0, 0, 0};
    if (mt_fe_mass_properties(m, &mass, s, In, err)) return -1;
    if (mass > 0)
        for (int k = 0; k < 3; k++) c[k] = s[k] / mass;
    double *R = malloc(sizeof(double) * 6 * (size_t)n), *MR = malloc(sizeof(double) * 6 * (size_t)n);
    if (!R || !MR) {
        free(R), free(MR);
        return nomem(err);
    }
    rigid_vectors(m, d, c, R);
    mt_fe_symm(A, A->m, 6, R, MR);
    for (int k = 0; k < nk; k++)
        for (int a = 0; a < 6; a++) {
            double g = 0;
            for (int i = 0; i < len; i++) g += Phi[(size_t)k * len + i] * MR[(size_t)a * n + i];
            meff[6 * k + a] = g * g;
        }
    free(R), free(MR);
    return 0;
}

/* Orthonormalises the basis H (n×q): eigenvectors of (K̄, M̄), drops the
 * nr lowest, and returns H·X (n×N) in *out with the eigenvalues. */
static int orthonormalise(const MtFeCsc *A, const double *H, int q, int nr, double **out, double *lam_all, MtError *err)
{
    size_t n = (size_t)A->n;
    double *Kb = malloc(sizeof(double) * (size_t)q * q), *Mb = malloc(sizeof(double) * (size_t)q * q);
    if (!Kb || !Mb) {
        free(Kb), free(Mb);
        return nomem(err);
    }
    if (project(A, H, q, Kb, Mb, err) || mt_fe_dense_sygv(q, Kb, Mb, lam_all, Kb, err)) {
        free(Kb), free(Mb);
        return -1;
    }
    int N = q - nr;
    double *HR = malloc(sizeof(double) * n * (size_t)(N > 0 ? N : 1));
    if (!HR) {
        free(Kb), free(Mb);
        return nomem(err);
    }
    if (N > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, N, q, 1, H, (int)n, Kb + (size_t)nr * q, q, 0,
                    HR, (int)n);
    free(Kb), free(Mb);
    *out = HR;
    return 0;
}

/* M-orthogonalises the columns of B (n×nb) against Q (n×nq, M-orthonormal)
 * and among themselves (twice, modified Gram–Schmidt), dropping columns that
 * vanish; returns the number kept (packed at the front). */
static int m_orthogonalise(const MtFeCsc *A, const double *Q, int nq, double *B, int nb, MtError *err)
{
    size_t n = (size_t)A->n;
    double *MB = malloc(sizeof(double) * n), *MQ = malloc(sizeof(double) * n * (size_t)(nq > 0 ? nq : 1));
    if (!MB || !MQ) {
        free(MB), free(MQ);
        return nomem(err);
    }
    if (nq) mt_fe_symm(A, A->m, nq, Q, MQ);
    int kept = 0;
    for (int j = 0; j < nb; j++) {
        double *b = B + (size_t)j * n;
        mt_fe_symv(A, A->m, (int)n, b, MB);
        double norm0 = 0;
        for (size_t i = 0; i < n; i++) norm0 += b[i] * MB[i];
        norm0 = sqrt(fmax(norm0, 0));
        for (int pass = 0; pass < 2; pass++) {
            for (int k = 0; k < nq; k++) {
                double s = 0;
                for (size_t i = 0; i < n; i++) s += MQ[(size_t)k * n + i] * b[i];
                for (size_t i = 0; i < n; i++) b[i] -= s * Q[(size_t)k * n + i];
            }
            for (int k = 0; k < kept; k++) {
                double *a = B + (size_t)k * n, s = 0;
                mt_fe_symv(A, A->m, (int)n, a, MB);
                for (size_t i = 0; i < n; i++) s += MB[i] * b[i];
                for (size_t i = 0; i < n; i++) b[i] -= s * a[i];
            }
        }
        mt_fe_symv(A, A->m, (int)n, b, MB);
        double norm = 0;
        for (size_t i = 0; i < n; i++) norm += b[i] * MB[i];
        norm = sqrt(fmax(norm, 0));
        if (!(norm > 1e-8 * norm0) || norm == 0) continue;
        double *dst = B + (size_t)kept * n;
        for (size_t i = 0; i < n; i++) dst[i] = b[i] / norm;
        kept++;
    }
    free(MB), free(MQ);
    return kept;
}

/* One reduction's data, passed between its steps. */
typedef struct {
    MtFeModel *m;
    const MtReduceOptions *opt;
    MtReduceStats *st;
    MtFeDofs *d;
    MtFeCsc A;      /* K and M, assembled sparse (one of them dropped while a large model factors) */
    MtFeChol *F;    /* factor of K − σM (modes) or K_ii (Craig–Bampton, Guyan) */
    MtFlexBody *b;  /* the result */
    int n, nr, lean;
    double sigma;
    double *H, *HR, *Phi, *lam, *lam_all, *Psi, *Xg;
    int N, q;       /* modes kept; basis vectors before the rigid ones are dropped */
    int nfix, fixlen;
    double *fixPhi; /* the eigenvectors whose effective masses are reported */
} Reduce;

/* Refuses options the reduction cannot honour. */
static int check_options(const MtFeModel *m, const MtReduceOptions *opt, MtError *err)
{
    int method = opt->method;
    if (method < MT_REDUCE_MODES || method > MT_REDUCE_ATTACH)
        return mt_error_set(err, MT_ERR_ARG, "", MT_("unknown reduction method")), -1;
    if (mt_fe_validate(m, err)) return -1;
    if ((method == MT_REDUCE_CB || method == MT_REDUCE_GUYAN || method == MT_REDUCE_ATTACH) && opt->nif <= 0)
        return mt_error_set(err, MT_ERR_ARG, "",
                            MT_("this reduction needs interface nodes (where joints and forces attach): give them")), -1;
    if (opt->nmodes < 0 || (method == MT_REDUCE_MODES && opt->nmodes < 1 && opt->keep_rigid))
        return mt_error_set(err, MT_ERR_ARG, "", MT_("the number of modes must be positive")), -1;
    if (opt->stiffening && method != MT_REDUCE_CB && method != MT_REDUCE_GUYAN)
        return mt_error_set(err, MT_ERR_ARG, "",
                            MT_("geometric stiffening needs the body held at its interface: use the cb or guyan reduction")),
               -1;
    return 0;
}

/* Free-free (or supported) normal modes, plus residual attachment modes for
 * MT_REDUCE_ATTACH: shift-invert eigenpairs of K − σM. */
static int reduce_modes(Reduce *r, MtError *err)
{
    MtFeModel *m = r->m;
    const MtReduceOptions *opt = r->opt;
    MtReduceStats *st = r->st;
    const MtFeProgress *pr = &opt->progress;
    MtFeDofs *d = r->d;
    MtFlexBody *b = r->b;
    int n = r->n, nr = r->nr, lean = r->lean;
    double sigma = r->sigma;
    int method = opt->method;
    int nev = opt->nmodes + nr;
    if (nev < 1) /* 0 modes leaves the free body rigid; a held one would keep nothing */
        return mt_error_set(err, MT_ERR_ARG, "", MT_("the number of modes must be positive")), -1;
    if (nev > n) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("%d modes asked for, but the model has only %d degrees of freedom"),
                     opt->nmodes, n - nr);
        return -1;
    }
    double t1 = now();
    if (lean) { /* K − σM in K's place, M dropped while the factor is made; K dropped after */
        for (size_t k = 0; k < r->A.nnz; k++) r->A.k[k] -= sigma * r->A.m[k];
        mt_fe_csc_drop(&r->A, 2);
        r->F = mt_fe_chol_new(&r->A, n, 0, m, d, pr, err);
        if (!r->F) return -1;
        mt_fe_csc_drop(&r->A, 1);
        if (mt_fe_assemble_values(m, d, &r->A, 2, pr, err)) return -1;
    } else {
        r->F = mt_fe_chol_new(&r->A, n, sigma, m, d, pr, err);
        if (!r->F) return -1;
    }
    st->nnz_L = mt_fe_chol_nnz(r->F), st->flops = mt_fe_chol_flops(r->F);
    snprintf(st->ordering, sizeof st->ordering, "%s", mt_fe_chol_ordering(r->F));
    st->t_factor = now() - t1;
    t1 = now();
    r->lam = malloc(sizeof(double) * (size_t)nev);
    if (!r->lam) return nomem(err);
    MtFeEigInfo ei;
    if (mt_fe_eigs(&r->A, n, nev, sigma, r->F, m, d, r->lam, &r->Phi, pr, &ei, err)) return -1;
    st->eig_residual = ei.residual, st->lanczos_ops = ei.nop;
    st->t_eigen = now() - t1;
    r->nfix = nev, r->fixPhi = r->Phi, r->fixlen = n;
    b->nfix = r->nfix;
    b->fix_freq = malloc(sizeof(double) * (size_t)r->nfix);
    if (!b->fix_freq) return nomem(err);
    for (int k = 0; k < r->nfix; k++) b->fix_freq[k] = hz(r->lam[k]);
    t1 = now();
    if (method == MT_REDUCE_MODES) {
        if (lean) { /* the factor goes, K comes back (residual) */
            mt_fe_chol_free(r->F), r->F = NULL;
            if (mt_fe_assemble_values(m, d, &r->A, 1, pr, err)) return -1;
            st->eig_residual = mt_fe_eig_residual(&r->A, n, nev, r->lam, r->Phi);
        }
        int drop = opt->keep_rigid ? 0 : nr;
        r->N = nev - drop;
        r->HR = malloc(sizeof(double) * (size_t)n * (size_t)(r->N > 0 ? r->N : 1));
        r->lam_all = malloc(sizeof(double) * (size_t)nev);
        if (!r->HR || !r->lam_all) return nomem(err);
        memcpy(r->HR, r->Phi + (size_t)drop * n, sizeof(double) * (size_t)n * (size_t)r->N);
        memcpy(r->lam_all, r->lam, sizeof(double) * (size_t)nev);
        r->q = nev;
    } else {
        /* attachment modes for every free DOF of the interface nodes */
        int na = 0;
        for (int i = 0; i < opt->nif; i++)
            for (int c = 0; c < 6; c++) na += d->dof[6 * opt->ifnodes[i] + c] >= 0;
        r->q = nev + na;
        r->H = calloc((size_t)n * (size_t)r->q, sizeof(double));
        if (!r->H) return nomem(err);
        memcpy(r->H, r->Phi, sizeof(double) * (size_t)n * (size_t)nev);
        double *Att = r->H + (size_t)n * nev;
        int k = 0;
        for (int i = 0; i < opt->nif; i++)
            for (int c = 0; c < 6; c++) {
                int g = d->dof[6 * opt->ifnodes[i] + c];
                if (g >= 0) Att[(size_t)(k++) * n + g] = 1;
            }
        if (mt_fe_chol_solve(r->F, na, Att, n, err)) return -1;
        if (lean) {
            mt_fe_chol_free(r->F), r->F = NULL;
            if (mt_fe_assemble_values(m, d, &r->A, 1, pr, err)) return -1;
            st->eig_residual = mt_fe_eig_residual(&r->A, n, nev, r->lam, r->Phi);
        }
        int kept = m_orthogonalise(&r->A, r->Phi, nev, Att, na, err);
        if (kept < 0) return -1;
        r->q = nev + kept;
        r->lam_all = malloc(sizeof(double) * (size_t)r->q);
        if (!r->lam_all) return nomem(err);
        int drop = opt->keep_rigid ? 0 : nr;
        if (orthonormalise(&r->A, r->H, r->q, drop, &r->HR, r->lam_all, err)) return -1;
        r->N = r->q - drop;
    }
    st->t_reduce = now() - t1;
    return 0;
}

/* Craig–Bampton (constraint modes Ψ = −K_ii⁻¹K_ib plus fixed-interface modes)
 * or Guyan (constraint modes only), orthonormalised. */
static int reduce_cb(Reduce *r, MtError *err)
{
    MtFeModel *m = r->m;
    const MtReduceOptions *opt = r->opt;
    MtReduceStats *st = r->st;
    const MtFeProgress *pr = &opt->progress;
    MtFeDofs *d = r->d;
    MtFlexBody *b = r->b;
    int n = r->n, nr = r->nr, lean = r->lean;
    int method = opt->method;
    int ni = d->ni, nb = d->nb;
    int nm = method == MT_REDUCE_CB ? opt->nmodes : 0;
    if (nm > ni) nm = ni;
    r->q = nb + nm;
    /* constraint modes first (n×nb); the full basis r->H is made once the factor is gone */
    r->Psi = calloc((size_t)n * (size_t)nb + 1, sizeof(double));
    if (!r->Psi) return nomem(err);
    for (int j = 0; j < nb; j++) r->Psi[(size_t)j * n + ni + j] = 1;
    double t1 = now();
    if (ni > 0) {
        /* right-hand sides −K_ib: the boundary rows of the interior columns (lower triangle) */
        for (int col = 0; col < ni; col++)
            for (int p = r->A.p[col + 1] - 1; p >= r->A.p[col] && r->A.i[p] >= ni; p--)
                r->Psi[(size_t)(r->A.i[p] - ni) * n + col] = -r->A.k[p];
        if (lean) mt_fe_csc_drop(&r->A, 2); /* M is not needed for the factor */
        r->F = mt_fe_chol_new(&r->A, ni, 0, m, d, pr, err);
        if (!r->F) return -1;
        if (lean) {
            mt_fe_csc_drop(&r->A, 1);
            if (mt_fe_assemble_values(m, d, &r->A, 2, pr, err)) return -1;
        }
        st->nnz_L = mt_fe_chol_nnz(r->F), st->flops = mt_fe_chol_flops(r->F);
        snprintf(st->ordering, sizeof st->ordering, "%s", mt_fe_chol_ordering(r->F));
        st->t_factor = now() - t1;
        t1 = now();
        if (mt_fe_chol_solve(r->F, nb, r->Psi, n, err)) return -1;
        if (mt_fe_progress(pr, "constraint modes", 1, err)) return -1;
        if (opt->stiffening && !(r->Xg = mt_fe_geom_loads(m, d, r->F, err))) return -1;
        st->t_reduce += now() - t1;
        if (nm > 0) {
            t1 = now();
            r->lam = malloc(sizeof(double) * (size_t)nm);
            if (!r->lam) return nomem(err);
            MtFeEigInfo ei;
            if (mt_fe_eigs(&r->A, ni, nm, 0, r->F, m, d, r->lam, &r->Phi, pr, &ei, err)) return -1;
            st->eig_residual = ei.residual, st->lanczos_ops = ei.nop;
            st->t_eigen = now() - t1;
            r->nfix = nm, r->fixPhi = r->Phi, r->fixlen = ni;
            b->nfix = r->nfix;
            b->fix_freq = malloc(sizeof(double) * (size_t)r->nfix);
            if (!b->fix_freq) return nomem(err);
            for (int k = 0; k < r->nfix; k++) b->fix_freq[k] = hz(r->lam[k]);
        }
        mt_fe_chol_free(r->F), r->F = NULL;
        if (lean) {
            if (mt_fe_assemble_values(m, d, &r->A, 1, pr, err)) return -1;
            if (nm > 0) st->eig_residual = mt_fe_eig_residual(&r->A, ni, nm, r->lam, r->Phi);
        }
    }
    r->H = calloc((size_t)n * (size_t)r->q + 1, sizeof(double));
    if (!r->H) return nomem(err);
    memcpy(r->H, r->Psi, sizeof(double) * (size_t)n * (size_t)nb);
    free(r->Psi), r->Psi = NULL;
    for (int k = 0; k < nm; k++) memcpy(r->H + (size_t)(nb + k) * n, r->Phi + (size_t)k * ni, sizeof(double) * (size_t)ni);
    t1 = now();
    r->lam_all = malloc(sizeof(double) * (size_t)r->q);
    if (!r->lam_all) return nomem(err);
    int drop = opt->keep_rigid ? 0 : nr;
    if (drop > r->q) drop = r->q;
    if (orthonormalise(&r->A, r->H, r->q, drop, &r->HR, r->lam_all, err)) return -1;
    r->N = r->q - drop;
    st->t_reduce += now() - t1;
    return 0;
}

/* The reduced body from the basis HR: frequencies, effective masses,
 * interface rows, inertia invariants, geometric stiffness, surface. */
static int fill_body(Reduce *r, MtError *err)
{
    MtFeModel *m = r->m;
    const MtReduceOptions *opt = r->opt;
    const MtFeProgress *pr = &opt->progress;
    MtFeDofs *d = r->d;
    MtFlexBody *b = r->b;
    int nr = r->nr;
    if (r->nfix > 0) {
        b->fix_meff = calloc(6 * (size_t)r->nfix, sizeof(double));
        if (!b->fix_meff) return nomem(err);
        if (effective_mass(m, d, &r->A, r->fixPhi, r->fixlen, r->nfix, b->fix_meff, err)) return -1;
    }
    int drop = opt->keep_rigid ? 0 : (nr < r->q ? nr : r->q);
    b->nmode = r->N;
    b->nrigid = drop;
    b->freq = malloc(sizeof(double) * (size_t)(r->N + 1));
    b->zeta = malloc(sizeof(double) * (size_t)(r->N + 1));
    b->Kr = calloc((size_t)r->N * r->N + 1, sizeof(double));
    b->Mr = calloc((size_t)r->N * r->N + 1, sizeof(double));
    b->rigid_freq = malloc(sizeof(double) * (size_t)(drop + 1));
    if (!b->freq || !b->zeta || !b->Kr || !b->Mr || !b->rigid_freq) return nomem(err);
    for (int k = 0; k < drop; k++) b->rigid_freq[k] = hz(r->lam_all[k]);
    for (int k = 0; k < r->N; k++) {
        double l = r->lam_all[drop + k];
        b->freq[k] = hz(l);
        b->zeta[k] = opt->zeta;
        b->Kr[(size_t)k * r->N + k] = l;
        b->Mr[(size_t)k * r->N + k] = 1;
    }
    /* interface */
    b->nif = opt->nif;
    b->if_id = malloc(sizeof(int) * (size_t)(opt->nif + 1));
    b->if_x = malloc(sizeof(double) * 3 * (size_t)(opt->nif + 1));
    b->if_H = malloc(sizeof(double) * 6 * (size_t)(opt->nif + 1) * (size_t)(r->N + 1));
    double *rows = malloc(sizeof(double) * 6 * (size_t)(r->N + 1));
    if (!b->if_id || !b->if_x || !b->if_H || !rows) {
        free(rows);
        return nomem(err);
    }
    for (int i = 0; i < opt->nif; i++) {
        int node = opt->ifnodes[i];
        b->if_id[i] = m->nid[node];
        memcpy(b->if_x + 3 * i, m->x + 3 * node, sizeof(double) * 3);
        mt_fe_node_rows(d, node, r->HR, r->N, rows);
        for (int j = 0; j < r->N; j++)
            for (int r = 0; r < 6; r++) b->if_H[(size_t)j * 6 * opt->nif + 6 * i + r] = rows[r + 6 * j];
    }
    free(rows);
    if (mt_flex_invariants(m, d, r->HR, r->N, b, err)) return -1;
    if (opt->stiffening) {
        if (!r->Xg && !(r->Xg = mt_fe_geom_loads(m, d, NULL, err))) return -1; /* no interior: no pre-stress */
        b->Kg = malloc(sizeof(double) * MT_FLEX_NKG * (size_t)r->N * (size_t)r->N + 1);
        if (!b->Kg) return nomem(err);
        if (mt_fe_geom_project(m, d, r->Xg, MT_FLEX_NKG, r->HR, r->N, b->Kg, err)) return -1;
        /* the pre-stress of interface loads, from the constraint modes (H's first nb columns) */
        b->Kw = malloc(sizeof(double) * (size_t)r->N * (size_t)r->N * (size_t)r->N + 1);
        if (!b->Kw) return nomem(err);
        if (mt_fe_geom_interface(m, d, r->H, r->HR, r->N, b->Kw, err)) return -1;
    }
    if (opt->surface && mt_flex_surface(m, d, r->HR, r->N, opt->stress, b, pr, err)) return -1;
    return 0;
}

MtFlexBody *mt_flex_reduce(MtFeModel *m, const MtReduceOptions *opt, MtReduceStats *stats, MtError *err)
{
    MtReduceStats st_local;
    MtReduceStats *st = stats ? stats : &st_local;
    memset(st, 0, sizeof *st);
    if (check_options(m, opt, err)) return NULL;
    const MtFeProgress *pr = &opt->progress;
    Reduce r = {.m = m, .opt = opt, .st = st};
    int method = opt->method;
    double t0 = now();
    int boundary = method == MT_REDUCE_CB || method == MT_REDUCE_GUYAN;
    MtFeDofs *d = r.d = mt_fe_dofs_new(m, boundary ? opt->nif : 0, boundary ? opt->ifnodes : NULL, err);
    if (!d) goto fail;
    if (!boundary)
        for (int i = 0; i < opt->nif; i++)
            if (opt->ifnodes[i] < 0 || opt->ifnodes[i] >= m->nnode || d->dnode_of[opt->ifnodes[i]] < 0) {
                mt_error_set(err, MT_ERR_MODEL, "", MT_("interface node %d has no free degree of freedom"),
                             opt->ifnodes[i] >= 0 && opt->ifnodes[i] < m->nnode ? m->nid[opt->ifnodes[i]] : -1);
                goto fail;
            }
    int n = r.n = d->ndof;
    r.nr = d->nrigid;
    st->ndof = n, st->ni = d->ni, st->nb = d->nb;
    if (n == 0) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("the model has no free degree of freedom"));
        goto fail;
    }
    if (mt_fe_order(m, d, pr, err) || mt_fe_assemble(m, d, &r.A, pr, err)) goto fail;
    st->nnz = r.A.nnz;
    st->t_assemble = now() - t0;
    r.sigma = opt->sigma != 0 ? opt->sigma : -(TWO_PI * TWO_PI);
    /* large models: keep only the matrix the factorisation or the Lanczos
     * steps need next to the factor, and assemble the other again later */
    r.lean = opt->lean > 0 || (opt->lean == 0 && n > MT_REDUCE_LEAN);
    r.b = calloc(1, sizeof *r.b);
    if (!r.b) {
        nomem(err);
        goto fail;
    }
    r.b->method = method;
    if (method == MT_REDUCE_MODES || method == MT_REDUCE_ATTACH ? reduce_modes(&r, err) : reduce_cb(&r, err)) goto fail;
    double t2 = now();
    if (fill_body(&r, err)) goto fail;
    st->t_output = now() - t2;
    mt_fe_chol_free(r.F);
    free(r.H), free(r.HR), free(r.Phi), free(r.lam), free(r.lam_all), free(r.Xg);
    mt_fe_csc_free(&r.A);
    mt_fe_dofs_free(d);
    return r.b;
fail:
    mt_fe_chol_free(r.F);
    free(r.H), free(r.HR), free(r.Phi), free(r.lam), free(r.lam_all), free(r.Psi), free(r.Xg);
    mt_fe_csc_free(&r.A);
    mt_fe_dofs_free(r.d);
    mt_flex_body_free(r.b);
    return NULL;
}

void mt_flex_body_info(const MtFlexBody *fb, MtFlexInfo *in)
{
    *in = (MtFlexInfo){.method = fb->method, .nmode = fb->nmode, .freq = fb->freq, .nrigid = fb->nrigid,
                       .rigid_freq = fb->rigid_freq, .nfix = fb->nfix, .fix_freq = fb->fix_freq,
                       .fix_meff = fb->fix_meff, .nif = fb->nif, .mass = fb->mass, .nsv = fb->nsv, .nst = fb->nst,
                       .nseg = fb->nseg, .sv_id = fb->sv_id, .sv_x = fb->sv_x, .st = fb->st, .seg = fb->seg,
                       .sv_H = fb->sv_H, .sv_sig = fb->sv_sig};
    memcpy(in->s0, fb->s0, sizeof in->s0);
    memcpy(in->I0, fb->I0, sizeof in->I0);
}
