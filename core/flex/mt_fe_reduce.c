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
    free(b->sv_id), free(b->sv_x), free(b->st), free(b->seg), free(b->sv_H), free(b->sv_vm), free(b->sv_sig), free(b->Kg);
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

MtFlexBody *mt_flex_reduce(MtFeModel *m, const MtReduceOptions *opt, MtReduceStats *stats, MtError *err)
{
    MtReduceStats st_local;
    MtReduceStats *st = stats ? stats : &st_local;
    memset(st, 0, sizeof *st);
    const MtFeProgress *pr = &opt->progress;
    MtFeDofs *d = NULL;
    MtFeCsc A = {0};
    MtFeChol *F = NULL;
    MtFlexBody *b = NULL;
    double *H = NULL, *HR = NULL, *Phi = NULL, *lam = NULL, *lam_all = NULL, *Psi = NULL, *Xg = NULL;
    int method = opt->method;
    if (method < MT_REDUCE_MODES || method > MT_REDUCE_ATTACH) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("unknown reduction method"));
        return NULL;
    }
    if (mt_fe_validate(m, err)) return NULL;
    if ((method == MT_REDUCE_CB || method == MT_REDUCE_GUYAN || method == MT_REDUCE_ATTACH) && opt->nif <= 0) {
        mt_error_set(err, MT_ERR_ARG, "",
                     MT_("this reduction needs interface nodes (where joints and forces attach): give them"));
        return NULL;
    }
    if (opt->nmodes < 0 || (method == MT_REDUCE_MODES && opt->nmodes < 1)) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("the number of modes must be positive"));
        return NULL;
    }
    if (opt->stiffening && method != MT_REDUCE_CB && method != MT_REDUCE_GUYAN) {
        mt_error_set(err, MT_ERR_ARG, "",
                     MT_("geometric stiffening needs the body held at its interface: use the cb or guyan reduction"));
        return NULL;
    }
    for (int e = 0; opt->stiffening && e < m->nelem; e++)
        if (m->elem[e].type == MT_FE_TRIA3 || m->elem[e].type == MT_FE_QUAD4) {
            mt_error_set(err, MT_ERR_ARG, "",
                         MT_("geometric stiffening is available for beams and solids; element %d is a shell: turn "
                             "stiffening off for this body"), m->elem[e].id);
            return NULL;
        }
    double t0 = now();
    int boundary = method == MT_REDUCE_CB || method == MT_REDUCE_GUYAN;
    d = mt_fe_dofs_new(m, boundary ? opt->nif : 0, boundary ? opt->ifnodes : NULL, err);
    if (!d) goto fail;
    if (!boundary)
        for (int i = 0; i < opt->nif; i++)
            if (opt->ifnodes[i] < 0 || opt->ifnodes[i] >= m->nnode || d->dnode_of[opt->ifnodes[i]] < 0) {
                mt_error_set(err, MT_ERR_MODEL, "", MT_("interface node %d has no free degree of freedom"),
                             opt->ifnodes[i] >= 0 && opt->ifnodes[i] < m->nnode ? m->nid[opt->ifnodes[i]] : -1);
                goto fail;
            }
    int n = d->ndof, nr = d->nrigid;
    st->ndof = n, st->ni = d->ni, st->nb = d->nb;
    if (n == 0) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("the model has no free degree of freedom"));
        goto fail;
    }
    if (mt_fe_order(m, d, pr, err) || mt_fe_assemble(m, d, &A, pr, err)) goto fail;
    st->nnz = A.nnz;
    st->t_assemble = now() - t0;
    double sigma = opt->sigma != 0 ? opt->sigma : -(TWO_PI * TWO_PI);
    /* large models: keep only the matrix the factorisation or the Lanczos
     * steps need next to the factor, and assemble the other again later */
    int lean = opt->lean > 0 || (opt->lean == 0 && n > MT_REDUCE_LEAN);
    b = calloc(1, sizeof *b);
    if (!b) goto oom;
    b->method = method;
    int N = 0, q = 0, nfix = 0;
    double *fixPhi = NULL;
    int fixlen = 0;
    if (method == MT_REDUCE_MODES || method == MT_REDUCE_ATTACH) {
        int nev = opt->nmodes + nr;
        if (nev > n) {
            mt_error_set(err, MT_ERR_ARG, "", MT_("%d modes asked for, but the model has only %d degrees of freedom"),
                         opt->nmodes, n - nr);
            goto fail;
        }
        double t1 = now();
        if (lean) { /* K − σM in K's place, M dropped while the factor is made; K dropped after */
            for (size_t k = 0; k < A.nnz; k++) A.k[k] -= sigma * A.m[k];
            mt_fe_csc_drop(&A, 2);
            F = mt_fe_chol_new(&A, n, 0, m, d, pr, err);
            if (!F) goto fail;
            mt_fe_csc_drop(&A, 1);
            if (mt_fe_assemble_values(m, d, &A, 2, pr, err)) goto fail;
        } else {
            F = mt_fe_chol_new(&A, n, sigma, m, d, pr, err);
            if (!F) goto fail;
        }
        st->nnz_L = mt_fe_chol_nnz(F), st->flops = mt_fe_chol_flops(F);
        snprintf(st->ordering, sizeof st->ordering, "%s", mt_fe_chol_ordering(F));
        st->t_factor = now() - t1;
        t1 = now();
        lam = malloc(sizeof(double) * (size_t)nev);
        if (!lam) goto oom;
        MtFeEigInfo ei;
        if (mt_fe_eigs(&A, n, nev, sigma, F, m, d, lam, &Phi, pr, &ei, err)) goto fail;
        st->eig_residual = ei.residual, st->lanczos_ops = ei.nop;
        st->t_eigen = now() - t1;
        nfix = nev, fixPhi = Phi, fixlen = n;
        b->nfix = nfix;
        b->fix_freq = malloc(sizeof(double) * (size_t)nfix);
        if (!b->fix_freq) goto oom;
        for (int k = 0; k < nfix; k++) b->fix_freq[k] = hz(lam[k]);
        t1 = now();
        if (method == MT_REDUCE_MODES) {
            if (lean) { /* the factor goes, K comes back (residual) */
                mt_fe_chol_free(F), F = NULL;
                if (mt_fe_assemble_values(m, d, &A, 1, pr, err)) goto fail;
                st->eig_residual = mt_fe_eig_residual(&A, n, nev, lam, Phi);
            }
            int drop = opt->keep_rigid ? 0 : nr;
            N = nev - drop;
            HR = malloc(sizeof(double) * (size_t)n * (size_t)(N > 0 ? N : 1));
            lam_all = malloc(sizeof(double) * (size_t)nev);
            if (!HR || !lam_all) goto oom;
            memcpy(HR, Phi + (size_t)drop * n, sizeof(double) * (size_t)n * (size_t)N);
            memcpy(lam_all, lam, sizeof(double) * (size_t)nev);
            q = nev;
        } else {
            /* attachment modes for every free DOF of the interface nodes */
            int na = 0;
            for (int i = 0; i < opt->nif; i++)
                for (int c = 0; c < 6; c++) na += d->dof[6 * opt->ifnodes[i] + c] >= 0;
            q = nev + na;
            H = calloc((size_t)n * (size_t)q, sizeof(double));
            if (!H) goto oom;
            memcpy(H, Phi, sizeof(double) * (size_t)n * (size_t)nev);
            double *Att = H + (size_t)n * nev;
            int k = 0;
            for (int i = 0; i < opt->nif; i++)
                for (int c = 0; c < 6; c++) {
                    int g = d->dof[6 * opt->ifnodes[i] + c];
                    if (g >= 0) Att[(size_t)(k++) * n + g] = 1;
                }
            if (mt_fe_chol_solve(F, na, Att, n, err)) goto fail;
            if (lean) {
                mt_fe_chol_free(F), F = NULL;
                if (mt_fe_assemble_values(m, d, &A, 1, pr, err)) goto fail;
                st->eig_residual = mt_fe_eig_residual(&A, n, nev, lam, Phi);
            }
            int kept = m_orthogonalise(&A, Phi, nev, Att, na, err);
            if (kept < 0) goto fail;
            q = nev + kept;
            lam_all = malloc(sizeof(double) * (size_t)q);
            if (!lam_all) goto oom;
            int drop = opt->keep_rigid ? 0 : nr;
            if (orthonormalise(&A, H, q, drop, &HR, lam_all, err)) goto fail;
            N = q - drop;
        }
        st->t_reduce = now() - t1;
    } else { /* CB, GUYAN */
        int ni = d->ni, nb = d->nb;
        int nm = method == MT_REDUCE_CB ? opt->nmodes : 0;
        if (nm > ni) nm = ni;
        q = nb + nm;
        /* constraint modes first (n×nb); the full basis H is made once the factor is gone */
        Psi = calloc((size_t)n * (size_t)nb + 1, sizeof(double));
        if (!Psi) goto oom;
        for (int j = 0; j < nb; j++) Psi[(size_t)j * n + ni + j] = 1;
        double t1 = now();
        if (ni > 0) {
            /* right-hand sides −K_ib: the boundary rows of the interior columns (lower triangle) */
            for (int col = 0; col < ni; col++)
                for (int p = A.p[col + 1] - 1; p >= A.p[col] && A.i[p] >= ni; p--)
                    Psi[(size_t)(A.i[p] - ni) * n + col] = -A.k[p];
            if (lean) mt_fe_csc_drop(&A, 2); /* M is not needed for the factor */
            F = mt_fe_chol_new(&A, ni, 0, m, d, pr, err);
            if (!F) goto fail;
            if (lean) {
                mt_fe_csc_drop(&A, 1);
                if (mt_fe_assemble_values(m, d, &A, 2, pr, err)) goto fail;
            }
            st->nnz_L = mt_fe_chol_nnz(F), st->flops = mt_fe_chol_flops(F);
            snprintf(st->ordering, sizeof st->ordering, "%s", mt_fe_chol_ordering(F));
            st->t_factor = now() - t1;
            t1 = now();
            if (mt_fe_chol_solve(F, nb, Psi, n, err)) goto fail;
            if (mt_fe_progress(pr, "constraint modes", 1, err)) goto fail;
            if (opt->stiffening && !(Xg = mt_fe_geom_loads(m, d, F, err))) goto fail;
            st->t_reduce += now() - t1;
            if (nm > 0) {
                t1 = now();
                lam = malloc(sizeof(double) * (size_t)nm);
                if (!lam) goto oom;
                MtFeEigInfo ei;
                if (mt_fe_eigs(&A, ni, nm, 0, F, m, d, lam, &Phi, pr, &ei, err)) goto fail;
                st->eig_residual = ei.residual, st->lanczos_ops = ei.nop;
                st->t_eigen = now() - t1;
                nfix = nm, fixPhi = Phi, fixlen = ni;
                b->nfix = nfix;
                b->fix_freq = malloc(sizeof(double) * (size_t)nfix);
                if (!b->fix_freq) goto oom;
                for (int k = 0; k < nfix; k++) b->fix_freq[k] = hz(lam[k]);
            }
            mt_fe_chol_free(F), F = NULL;
            if (lean) {
                if (mt_fe_assemble_values(m, d, &A, 1, pr, err)) goto fail;
                if (nm > 0) st->eig_residual = mt_fe_eig_residual(&A, ni, nm, lam, Phi);
            }
        }
        H = calloc((size_t)n * (size_t)q + 1, sizeof(double));
        if (!H) goto oom;
        memcpy(H, Psi, sizeof(double) * (size_t)n * (size_t)nb);
        free(Psi), Psi = NULL;
        for (int k = 0; k < nm; k++) memcpy(H + (size_t)(nb + k) * n, Phi + (size_t)k * ni, sizeof(double) * (size_t)ni);
        t1 = now();
        lam_all = malloc(sizeof(double) * (size_t)q);
        if (!lam_all) goto oom;
        int drop = opt->keep_rigid ? 0 : nr;
        if (drop > q) drop = q;
        if (orthonormalise(&A, H, q, drop, &HR, lam_all, err)) goto fail;
        N = q - drop;
        st->t_reduce += now() - t1;
    }
    double t2 = now();
    if (nfix > 0) {
        b->fix_meff = calloc(6 * (size_t)nfix, sizeof(double));
        if (!b->fix_meff) goto oom;
        if (effective_mass(m, d, &A, fixPhi, fixlen, nfix, b->fix_meff, err)) goto fail;
    }
    int drop = opt->keep_rigid ? 0 : (nr < q ? nr : q);
    b->nmode = N;
    b->nrigid = drop;
    b->freq = malloc(sizeof(double) * (size_t)(N + 1));
    b->zeta = malloc(sizeof(double) * (size_t)(N + 1));
    b->Kr = calloc((size_t)N * N + 1, sizeof(double));
    b->Mr = calloc((size_t)N * N + 1, sizeof(double));
    b->rigid_freq = malloc(sizeof(double) * (size_t)(drop + 1));
    if (!b->freq || !b->zeta || !b->Kr || !b->Mr || !b->rigid_freq) goto oom;
    for (int k = 0; k < drop; k++) b->rigid_freq[k] = hz(lam_all[k]);
    for (int k = 0; k < N; k++) {
        double l = lam_all[drop + k];
        b->freq[k] = hz(l);
        b->zeta[k] = opt->zeta;
        b->Kr[(size_t)k * N + k] = l;
        b->Mr[(size_t)k * N + k] = 1;
    }
    /* interface */
    b->nif = opt->nif;
    b->if_id = malloc(sizeof(int) * (size_t)(opt->nif + 1));
    b->if_x = malloc(sizeof(double) * 3 * (size_t)(opt->nif + 1));
    b->if_H = malloc(sizeof(double) * 6 * (size_t)(opt->nif + 1) * (size_t)(N + 1));
    double *rows = malloc(sizeof(double) * 6 * (size_t)(N + 1));
    if (!b->if_id || !b->if_x || !b->if_H || !rows) {
        free(rows);
        goto oom;
    }
    for (int i = 0; i < opt->nif; i++) {
        int node = opt->ifnodes[i];
        b->if_id[i] = m->nid[node];
        memcpy(b->if_x + 3 * i, m->x + 3 * node, sizeof(double) * 3);
        mt_fe_node_rows(d, node, HR, N, rows);
        for (int j = 0; j < N; j++)
            for (int r = 0; r < 6; r++) b->if_H[(size_t)j * 6 * opt->nif + 6 * i + r] = rows[r + 6 * j];
    }
    free(rows);
    if (mt_flex_invariants(m, d, HR, N, b, err)) goto fail;
    if (opt->stiffening) {
        if (!Xg && !(Xg = mt_fe_geom_loads(m, d, NULL, err))) goto fail; /* no interior: no pre-stress */
        b->Kg = malloc(sizeof(double) * MT_FLEX_NKG * (size_t)N * (size_t)N + 1);
        if (!b->Kg) goto oom;
        if (mt_fe_geom_project(m, d, Xg, HR, N, b->Kg, err)) goto fail;
    }
    if (opt->surface && mt_flex_surface(m, d, HR, N, opt->stress, b, pr, err)) goto fail;
    st->t_output = now() - t2;
    mt_fe_chol_free(F);
    free(H), free(HR), free(Phi), free(lam), free(lam_all), free(Xg);
    mt_fe_csc_free(&A);
    mt_fe_dofs_free(d);
    return b;
oom:
    nomem(err);
fail:
    mt_fe_chol_free(F);
    free(H), free(HR), free(Phi), free(lam), free(lam_all), free(Psi), free(Xg);
    mt_fe_csc_free(&A);
    mt_fe_dofs_free(d);
    mt_flex_body_free(b);
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
