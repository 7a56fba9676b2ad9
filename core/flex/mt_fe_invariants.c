/* mt_fe_invariants.c — the inertia invariants of a reduced flexible body
 * (docs/design.md §4.2, "shifted rigid bodies"): the body is approximated, in the
 * inertial sense, by one small rigid body per node carrying the node's share
 * of the element masses (mt_fe_node_shares): mass m, centre ρ = x + c,
 * inertia J about that centre. The centre moves with the node: its elastic
 * displacement is Φ = Φ_node − [c]× Ψ_node (small rotation Ψ of the node, zero
 * for solid nodes), so Σ (m ΦᵀΦ + ΨᵀJΨ) is exactly the reduced lumped mass
 * matrix. The kinetic energy T = ½ q̇ᵀ M(w) q̇ then needs only the constant
 * sums stored in MtFlexBody (mass, s0, I0, S1, Ir, Mww, I1, I2, Sw). Declared in mt_fe_out.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_fe_out.h"
#include "mt_i18n.h"

void mt_fe_node_rows(const MtFeDofs *d, int n, const double *H, int N, double *out)
{
    size_t nd = (size_t)d->ndof;
    for (int r = 0; r < 6; r++) {
        int key = 6 * n + r;
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int x = d->xp[key]; x < d->xp[key + 1]; x++) s += d->xc[x] * H[(size_t)j * nd + d->xi[x]];
            out[r + 6 * j] = s;
        }
    }
}

int mt_flex_invariants(const MtFeModel *m, const MtFeDofs *d, const double *H, int N, MtFlexBody *b, MtError *err)
{
    size_t nn = (size_t)m->nnode, NN = (size_t)N * N;
    double *mass = malloc(sizeof(double) * (nn + 1)), *first = malloc(sizeof(double) * 3 * (nn + 1));
    double *inert = malloc(sizeof(double) * 9 * (nn + 1)), *rows = malloc(sizeof(double) * 6 * ((size_t)N + 1));
    double *Phi = malloc(sizeof(double) * 3 * ((size_t)N + 1)), *Psi = malloc(sizeof(double) * 3 * ((size_t)N + 1));
    double *JPsi = malloc(sizeof(double) * 3 * ((size_t)N + 1));
    b->S1 = calloc(3 * (size_t)N + 1, sizeof(double));
    b->Ir = calloc(3 * (size_t)N + 1, sizeof(double));
    b->Mww = calloc(NN + 1, sizeof(double));
    b->I1 = calloc(9 * (size_t)N + 1, sizeof(double));
    b->I2 = calloc(9 * NN + 1, sizeof(double));
    b->Sw = calloc(3 * NN + 1, sizeof(double));
    double *G = calloc(9 * NN + 1, sizeof(double)); /* G[(i + N j)·9 + 3a + b] = Σ m φ_i,a φ_j,b */
    int rc = -1;
    if (!mass || !first || !inert || !rows || !Phi || !Psi || !JPsi || !b->S1 || !b->Ir || !b->Mww || !b->I1 ||
        !b->I2 || !b->Sw || !G) {
        mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory computing the inertia invariants"));
        goto done;
    }
    if (mt_fe_node_shares(m, mass, first, inert, err)) goto done;
    b->mass = 0;
    memset(b->s0, 0, sizeof b->s0);
    memset(b->I0, 0, sizeof b->I0);
    for (size_t k = 0; k < nn; k++) {
        double mk = mass[k], c[3] = {0, 0, 0}, J[9];
        memcpy(J, inert + 9 * k, sizeof J);
        if (mk == 0 && J[0] == 0 && J[4] == 0 && J[8] == 0) continue;
        if (mk > 0) {
            for (int i = 0; i < 3; i++) c[i] = first[3 * k + i] / mk;
            double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) J[3 * i + j] -= mk * ((i == j) * cc - c[i] * c[j]);
        }
        double rho[3] = {m->x[3 * k] + c[0], m->x[3 * k + 1] + c[1], m->x[3 * k + 2] + c[2]};
        double rr = rho[0] * rho[0] + rho[1] * rho[1] + rho[2] * rho[2];
        b->mass += mk;
        for (int i = 0; i < 3; i++) {
            b->s0[i] += mk * rho[i];
            for (int j = 0; j < 3; j++) b->I0[3 * i + j] += mk * ((i == j) * rr - rho[i] * rho[j]) + J[3 * i + j];
        }
        if (N == 0) continue;
        mt_fe_node_rows(d, (int)k, H, N, rows);
        int rot = 0;
        for (int j = 0; j < N; j++) {
            double *u = rows + 6 * j, *p = Phi + 3 * j, *s = Psi + 3 * j;
            s[0] = u[3], s[1] = u[4], s[2] = u[5];
            rot |= s[0] != 0 || s[1] != 0 || s[2] != 0;
            /* centre displacement u + θ × c */
            p[0] = u[0] + s[1] * c[2] - s[2] * c[1];
            p[1] = u[1] + s[2] * c[0] - s[0] * c[2];
            p[2] = u[2] + s[0] * c[1] - s[1] * c[0];
        }
        for (int j = 0; j < N; j++) {
            const double *p = Phi + 3 * j, *s = Psi + 3 * j;
            double *S1 = b->S1 + 3 * j, *Ir = b->Ir + 3 * j;
            /* S1 += m φ; Ir += m ρ × φ + J ψ */
            for (int i = 0; i < 3; i++) S1[i] += mk * p[i];
            Ir[0] += mk * (rho[1] * p[2] - rho[2] * p[1]);
            Ir[1] += mk * (rho[2] * p[0] - rho[0] * p[2]);
            Ir[2] += mk * (rho[0] * p[1] - rho[1] * p[0]);
            if (rot) {
                for (int i = 0; i < 3; i++) {
                    double t = J[3 * i] * s[0] + J[3 * i + 1] * s[1] + J[3 * i + 2] * s[2];
                    Ir[i] += t;
                    JPsi[3 * j + i] = t;
                }
            }
            /* I1[j] += m (2 (ρ·φ) 1 − φ ρᵀ − ρ φᵀ) */
            double rp = rho[0] * p[0] + rho[1] * p[1] + rho[2] * p[2], *I1 = b->I1 + 9 * j;
            for (int a = 0; a < 3; a++)
                for (int c2 = 0; c2 < 3; c2++) I1[3 * a + c2] += mk * (2 * rp * (a == c2) - p[a] * rho[c2] - rho[a] * p[c2]);
        }
        /* G and the rotary part of Mww */
        for (int j = 0; j < N; j++) {
            const double *pj = Phi + 3 * j;
            for (int i = 0; i < N; i++) {
                const double *pi = Phi + 3 * i;
                double *g = G + 9 * ((size_t)i + (size_t)N * j);
                for (int a = 0; a < 3; a++) {
                    double ma = mk * pi[a];
                    g[3 * a] += ma * pj[0], g[3 * a + 1] += ma * pj[1], g[3 * a + 2] += ma * pj[2];
                }
                if (rot) {
                    const double *si = Psi + 3 * i, *tj = JPsi + 3 * j;
                    b->Mww[(size_t)i + (size_t)N * j] += si[0] * tj[0] + si[1] * tj[1] + si[2] * tj[2];
                }
            }
        }
    }
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            const double *g = G + 9 * ((size_t)i + (size_t)N * j);
            double tr = g[0] + g[4] + g[8];
            b->Mww[(size_t)i + (size_t)N * j] += tr;
            double *I2 = b->I2 + 9 * ((size_t)i + (size_t)N * j);
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++) I2[3 * a + c] = tr * (a == c) - g[3 * c + a];
            /* Sw[j] column i: Σ m φ_j × φ_i, from G[j][i][a][b] = Σ m φ_j,a φ_i,b */
            const double *h = G + 9 * ((size_t)j + (size_t)N * i);
            double *sw = b->Sw + 3 * ((size_t)N * j + i);
            sw[0] = h[3 * 1 + 2] - h[3 * 2 + 1];
            sw[1] = h[3 * 2 + 0] - h[3 * 0 + 2];
            sw[2] = h[3 * 0 + 1] - h[3 * 1 + 0];
        }
    rc = 0;
done:
    free(mass), free(first), free(inert), free(rows), free(Phi), free(Psi), free(JPsi), free(G);
    return rc;
}
