/* mt_rail.c — the wheel–rail force element: track geometry (straight,
 * clothoid transitions, circle, cant) and irregularities (tables or the
 * German track spectra), wheel and rail profiles (cone with flange and a
 * two-radius rail head, or tables), the contact search per wheel, the
 * Hertzian normal force and Kalker's linear creep forces saturated by
 * Shen–Hedrick–Elkins. What and why: docs/rail.md. The data built here at
 * compile time is read without allocation at every evaluation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mt_flex.h"
#include "mt_forces.h"
#include "mt_i18n.h"
#include "mt_kin.h"
#include "mt_rail.h"

const char *const mt_rail_wheel_cols[MT_RAIL_WHEEL] = {"N", "Fx", "Fy", "w", "r", "sx", "sy", "sp", "rad", "angle", "np"};
const char *const mt_rail_track_cols[3] = {"s", "y", "yaw"};

_Static_assert(MT_FOUT >= 9 + MT_RAIL_OUT, "a wheelrail record fits MT_FOUT");

#define NPIECE 5  /* straight, transition, circle, transition, straight */
#define NHARM 128 /* harmonics of a generated irregularity */
#define NSAMP 96  /* samples of a wheel profile in the contact search */

typedef struct { /* a natural cubic spline through a model table */
    int n;
    const double *x, *y;
    double *m; /* second derivatives */
} Spline;

struct MtRail {
    int npiece;
    double ps[NPIECE], pl[NPIECE], pk0[NPIECE], pk1[NPIECE], pth[NPIECE], pc0[NPIECE], pc1[NPIECE];
    double send, thend, xend, yend, cend, sgn;
    int nnode;
    double *ns, *nx, *ny; /* centreline nodes in the x–y plane of marker j */
    int ni;               /* generated irregularity: Hermite samples every ih from s = 0 */
    double ih, *iz, *izd, *iy, *iyd;
    const MtTableSpec *tv, *tl;
    Spline wheel, rail;
    double xia, xib; /* the wheel profile's extent */
    double zc, uc, zcc, u1, z0; /* built-in head: crown top ζ, corner circle centre, crown–corner boundary, lift */
};

/* ---- splines and tables ----------------------------------------------------- */

static int spline_build(Spline *sp, const MtTableSpec *t)
{
    int n = t->n;
    sp->n = n;
    sp->x = t->x;
    sp->y = t->y;
    sp->m = calloc((size_t)n + 1, 2 * sizeof(double));
    if (!sp->m) return -1;
    double *c = sp->m + n; /* Thomas algorithm for the natural spline, c = scratch */
    for (int i = 1; i < n - 1; i++) {
        double h0 = t->x[i] - t->x[i - 1], h1 = t->x[i + 1] - t->x[i];
        double r = 6 * ((t->y[i + 1] - t->y[i]) / h1 - (t->y[i] - t->y[i - 1]) / h0);
        double dg = 2 * (h0 + h1) - (i > 1 ? h0 * c[i - 1] : 0);
        sp->m[i] = (r - (i > 1 ? h0 * sp->m[i - 1] : 0)) / dg;
        c[i] = h1 / dg;
    }
    for (int i = n - 3; i >= 1; i--) sp->m[i] -= c[i] * sp->m[i + 1];
    return 0;
}

static double spline_eval(const Spline *sp, double x, double *d)
{
    const double *X = sp->x, *Y = sp->y;
    int lo = 0, hi = sp->n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (X[mid] <= x) lo = mid;
        else hi = mid;
    }
    double h = X[hi] - X[lo], a = (X[hi] - x) / h, b = 1 - a, ml = sp->m[lo], mh = sp->m[hi];
    *d = (Y[hi] - Y[lo]) / h + h * ((3 * b * b - 1) * mh - (3 * a * a - 1) * ml) / 6;
    return a * Y[lo] + b * Y[hi] + h * h * ((a * a * a - a) * ml + (b * b * b - b) * mh) / 6;
}

/* Linear interpolation of a table and its slope (held at the ends). */
static double table_eval(const MtTableSpec *t, double x, double *d)
{
    if (x <= t->x[0]) { *d = 0; return t->y[0]; }
    if (x >= t->x[t->n - 1]) { *d = 0; return t->y[t->n - 1]; }
    int lo = 0, hi = t->n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (t->x[mid] <= x) lo = mid;
        else hi = mid;
    }
    *d = (t->y[hi] - t->y[lo]) / (t->x[hi] - t->x[lo]);
    return t->y[lo] + *d * (x - t->x[lo]);
}

/* ---- profiles --------------------------------------------------------------- */

/* Wheel radius at ξ (from the tape circle, + toward the flange) and dr/dξ. */
static double wheel_r(const MtRail *R, const double *p, double xi, double *dr)
{
    if (R->wheel.n) {
        if (xi <= R->wheel.x[0] || xi >= R->wheel.x[R->wheel.n - 1]) {
            *dr = 0;
            return xi <= R->wheel.x[0] ? R->wheel.y[0] : R->wheel.y[R->wheel.n - 1];
        }
        return spline_eval(&R->wheel, xi, dr);
    }
    double f0 = p[WR_FLANGE], tf = tan(p[WR_FANGLE]);
    if (xi <= f0) { *dr = p[WR_CONE]; return p[WR_R0] + p[WR_CONE] * xi; }
    double h = tf * (xi - f0);
    if (h < p[WR_FHEIGHT]) { *dr = tf; return p[WR_R0] + p[WR_CONE] * f0 + h; }
    *dr = 0;
    return p[WR_R0] + p[WR_CONE] * f0 + p[WR_FHEIGHT];
}

/* Rail head height at ζ (from the nominal contact point, + toward the track
 * centre) and its slope; far below (−1 m) where there is no rail. */
static double rail_z(const MtRail *R, const double *p, double zeta, double *dz)
{
    *dz = 0;
    if (R->rail.n) {
        if (zeta <= R->rail.x[0] || zeta >= R->rail.x[R->rail.n - 1]) return -1;
        return spline_eval(&R->rail, zeta, dz);
    }
    double u = zeta - R->zc, au = fabs(u), Rc = p[WR_CROWN], Rg = p[WR_CORNER];
    if (au <= R->u1) {
        double w = sqrt(Rc * Rc - u * u);
        *dz = -u / w;
        return w - Rc + R->z0;
    }
    if (au >= p[WR_HEAD]) return -1;
    double dd = au - R->uc, w = sqrt(fmax(Rg * Rg - dd * dd, 1e-14));
    *dz = -(u > 0 ? 1 : -1) * dd / w;
    return R->zcc + w + R->z0;
}

/* ---- track geometry --------------------------------------------------------- */

static double piece_theta(const MtRail *R, int i, double s)
{
    double x = s - R->ps[i];
    return R->pth[i] + R->pk0[i] * x + (R->pk1[i] - R->pk0[i]) * x * x / (2 * R->pl[i]);
}

static int piece_of(const MtRail *R, double s)
{
    int i = 0;
    while (i + 1 < R->npiece && s >= R->ps[i + 1]) i++;
    return i;
}

/* Centreline point (x, y in marker j's plane), heading, curvature and cant height at s. */
static void centre(const MtRail *R, double s, double *x, double *y, double *th, double *kap, double *cant)
{
    if (s <= 0) { *x = s; *y = 0; *th = 0; *kap = 0; *cant = R->pc0[0]; return; }
    if (s >= R->send) {
        *th = R->thend;
        *x = R->xend + (s - R->send) * cos(*th);
        *y = R->yend + (s - R->send) * sin(*th);
        *kap = 0;
        *cant = R->cend;
        return;
    }
    int lo = 0, hi = R->nnode - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (R->ns[mid] <= s) lo = mid;
        else hi = mid;
    }
    /* three-point Gauss from the node: the heading is quadratic within a piece and nodes sit on piece ends */
    static const double gx[3] = {-0.7745966692414834, 0, 0.7745966692414834}, gw[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    double a = R->ns[lo], hh = 0.5 * (s - a), X = R->nx[lo], Y = R->ny[lo];
    int pc = piece_of(R, 0.5 * (a + s));
    for (int g = 0; g < 3; g++) {
        double t = piece_theta(R, pc, a + hh * (1 + gx[g]));
        X += hh * gw[g] * cos(t);
        Y += hh * gw[g] * sin(t);
    }
    int i = piece_of(R, s);
    double f = (s - R->ps[i]) / R->pl[i];
    *x = X;
    *y = Y;
    *th = piece_theta(R, i, s);
    *kap = R->pk0[i] + (R->pk1[i] - R->pk0[i]) * f;
    *cant = R->pc0[i] + (R->pc1[i] - R->pc0[i]) * f;
}

static void add_piece(MtRail *R, double len, double k0, double k1, double c0, double c1)
{
    if (!(len > 0)) return;
    int i = R->npiece++;
    R->ps[i] = i ? R->ps[i - 1] + R->pl[i - 1] : 0;
    R->pth[i] = i ? R->pth[i - 1] + 0.5 * (R->pk0[i - 1] + R->pk1[i - 1]) * R->pl[i - 1] : 0;
    R->pl[i] = len;
    R->pk0[i] = k0;
    R->pk1[i] = k1;
    R->pc0[i] = c0;
    R->pc1[i] = c1;
}

static int build_track(MtRail *R, const double *p)
{
    double L1 = p[WR_STRAIGHT], LT = p[WR_TRANS], Rad = p[WR_RADIUS], LC = p[WR_CURVE], len = p[WR_LENGTH], C = p[WR_CANT];
    if (Rad == 0) add_piece(R, len, 0, 0, 0, 0);
    else {
        double k = 1 / Rad;
        add_piece(R, L1, 0, 0, 0, 0);
        add_piece(R, LT, 0, k, 0, C);
        add_piece(R, LC > 0 ? LC : fmax(len - L1 - LT, 1), k, k, C, C);
        if (LC > 0) {
            add_piece(R, LT, k, 0, C, 0);
            add_piece(R, len - L1 - 2 * LT - LC, 0, 0, 0, 0);
        }
    }
    if (!R->npiece) add_piece(R, 1, 0, 0, 0, 0);
    R->sgn = Rad < 0 ? -1 : 1;
    int n = 1;
    for (int i = 0; i < R->npiece; i++) n += (int)ceil(R->pl[i]);
    R->ns = malloc(sizeof(double) * 3 * (size_t)n);
    if (!R->ns) return -1;
    R->nx = R->ns + n;
    R->ny = R->nx + n;
    R->ns[0] = R->nx[0] = R->ny[0] = 0;
    R->nnode = 1;
    int last = R->npiece - 1;
    R->send = R->ps[last] + R->pl[last];
    for (int i = 0; i < R->npiece; i++) {
        int m = (int)ceil(R->pl[i]);
        for (int j = 1; j <= m; j++) {
            double s = R->ps[i] + R->pl[i] * j / m, x, y, th, kap, c;
            if (j == m && i == last) s = R->send * (1 - 1e-15); /* inside the table */
            R->nnode++; /* centre() integrates from the previous node */
            R->ns[R->nnode - 1] = 2 * R->send; /* not yet a node: keeps the search below it */
            centre(R, s, &x, &y, &th, &kap, &c);
            R->ns[R->nnode - 1] = s;
            R->nx[R->nnode - 1] = x;
            R->ny[R->nnode - 1] = y;
        }
    }
    R->thend = R->pth[last] + 0.5 * (R->pk0[last] + R->pk1[last]) * R->pl[last];
    R->xend = R->nx[R->nnode - 1];
    R->yend = R->ny[R->nnode - 1];
    R->cend = R->pc1[last];
    return 0;
}

/* ---- irregularities --------------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The German track spectra (ORE B176): S(Ω) = A·Ωc² / ((Ω² + Ωr²)(Ω² + Ωc²)), m²/(rad/m). */
static const double OMC = 0.8246, OMR = 0.0206;
static double psd_A(int psd, int lat)
{
    static const double A[2][2] = {{4.032e-7, 2.119e-7}, {1.080e-6, 6.125e-7}}; /* [low, high][vertical, lateral] */
    return A[psd == 2][lat];
}
static double psd_S(int psd, int lat, double w) { return psd_A(psd, lat) * OMC * OMC / ((w * w + OMR * OMR) * (w * w + OMC * OMC)); }

double mt_rail_psd_variance(int psd, int lat, double lmin, double lmax)
{
    double a = 2 * M_PI / lmax, b = 2 * M_PI / lmin, k = psd_A(psd, lat) * OMC * OMC / (OMC * OMC - OMR * OMR);
    return k * ((atan(b / OMR) - atan(a / OMR)) / OMR - (atan(b / OMC) - atan(a / OMC)) / OMC);
}

/* Harmonics Ω_k (uniform over the band), amplitudes √(2 S ΔΩ) and phases from the seed. */
static void harmonics(int psd, int lat, double seed, double lmin, double lmax, double *w, double *amp, double *ph)
{
    uint64_t st = (uint64_t)llround(fabs(seed)) * 2 + (uint64_t)lat + 0x5EEDull;
    double a = 2 * M_PI / lmax, b = 2 * M_PI / lmin, dw = (b - a) / NHARM;
    for (int k = 0; k < NHARM; k++) {
        w[k] = a + (k + 0.5) * dw;
        amp[k] = sqrt(2 * psd_S(psd, lat, w[k]) * dw);
        ph[k] = 2 * M_PI * (double)(splitmix(&st) >> 11) / 9007199254740992.0;
    }
}

void mt_rail_irregularity_sample(int psd, double seed, double lmin, double lmax, int n, const double *s, double *zv, double *yl)
{
    double w[NHARM], amp[NHARM], ph[NHARM];
    for (int lat = 0; lat < 2; lat++) {
        double *out = lat ? yl : zv;
        harmonics(psd, lat, seed, lmin, lmax, w, amp, ph);
        for (int i = 0; i < n; i++) {
            double v = 0;
            for (int k = 0; k < NHARM; k++) v += amp[k] * cos(w[k] * s[i] + ph[k]);
            out[i] = v;
        }
    }
}

static int build_irregularity(MtRail *R, const double *p)
{
    int psd = (int)p[WR_PSD];
    if (psd != 1 && psd != 2) return 0;
    R->ih = p[WR_LMIN] / 8;
    R->ni = (int)ceil(p[WR_LENGTH] / R->ih) + 2;
    R->iz = malloc(sizeof(double) * 4 * (size_t)R->ni);
    if (!R->iz) return -1;
    R->izd = R->iz + R->ni;
    R->iy = R->izd + R->ni;
    R->iyd = R->iy + R->ni;
    double w[NHARM], amp[NHARM], ph[NHARM];
    for (int lat = 0; lat < 2; lat++) {
        double *v = lat ? R->iy : R->iz, *d = lat ? R->iyd : R->izd;
        harmonics(psd, lat, p[WR_SEED], p[WR_LMIN], p[WR_LMAX], w, amp, ph);
        for (int i = 0; i < R->ni; i++) {
            double s = i * R->ih, a = 0, b = 0;
            for (int k = 0; k < NHARM; k++) {
                a += amp[k] * cos(w[k] * s + ph[k]);
                b -= amp[k] * w[k] * sin(w[k] * s + ph[k]);
            }
            /* faded in over the first `fade` metres, so a vehicle put on the track starts on smooth rails */
            double t = p[WR_FADE] > 0 ? fmin(s / p[WR_FADE], 1) : 1, f = t * t * (3 - 2 * t), df = p[WR_FADE] > 0 && t < 1 ? 6 * t * (1 - t) / p[WR_FADE] : 0;
            v[i] = f * a;
            d[i] = f * b + df * a;
        }
    }
    return 0;
}

/* Vertical and lateral irregularity at s and their slopes. */
static void irregularity(const MtRail *R, double s, double *zv, double *zd, double *yl, double *yd)
{
    *zv = *zd = *yl = *yd = 0;
    if (R->ni && s > 0 && s < (R->ni - 1) * R->ih) { /* cubic Hermite between samples */
        int i = (int)(s / R->ih);
        double t = s / R->ih - i, h = R->ih, t2 = t * t, t3 = t2 * t;
        double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
        double g00 = (6 * t2 - 6 * t) / h, g10 = 3 * t2 - 4 * t + 1, g01 = (-6 * t2 + 6 * t) / h, g11 = 3 * t2 - 2 * t;
        *zv = h00 * R->iz[i] + h10 * h * R->izd[i] + h01 * R->iz[i + 1] + h11 * h * R->izd[i + 1];
        *zd = g00 * R->iz[i] + g10 * R->izd[i] + g01 * R->iz[i + 1] + g11 * R->izd[i + 1];
        *yl = h00 * R->iy[i] + h10 * h * R->iyd[i] + h01 * R->iy[i + 1] + h11 * h * R->iyd[i + 1];
        *yd = g00 * R->iy[i] + g10 * R->iyd[i] + g01 * R->iy[i + 1] + g11 * R->iyd[i + 1];
    }
    double d;
    if (R->tv) { *zv += table_eval(R->tv, s, &d); *zd += d; }
    if (R->tl) { *yl += table_eval(R->tl, s, &d); *yd += d; }
}

/* ---- compile ---------------------------------------------------------------- */

static const MtTableSpec *named_table(const MtModel *m, const char *name) { return name[0] ? &m->table[mt_model_find_table(m, name)] : NULL; }

int mt_rail_compile(MtSystem *s, int k, MtError *err)
{
    const MtModel *m = s->model;
    const MtForceSpec *fs = &m->force[k];
    const double *p = fs->p;
    for (int t = 0; t < 4; t++) /* mt_model_validate has said which */
        if (fs->expr[t][0] && mt_model_find_table(m, fs->expr[t]) < 0)
            return mt_error_set(err, MT_ERR_MODEL, fs->name, MT_("force '%s': no table '%s' (define it with 'table NAME' … 'end')"), fs->name,
                                fs->expr[t]);
    MtRail *R = calloc(1, sizeof *R);
    if (!R) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    s->rail[k] = R;
    R->tv = named_table(m, fs->expr[WR_T_VERT]);
    R->tl = named_table(m, fs->expr[WR_T_LAT]);
    if ((fs->expr[WR_T_WHEEL][0] && spline_build(&R->wheel, named_table(m, fs->expr[WR_T_WHEEL]))) ||
        (fs->expr[WR_T_RAIL][0] && spline_build(&R->rail, named_table(m, fs->expr[WR_T_RAIL]))) || build_track(R, p) ||
        build_irregularity(R, p))
        return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    if (R->wheel.n) {
        R->xia = R->wheel.x[0];
        R->xib = R->wheel.x[R->wheel.n - 1];
    } else {
        R->xia = -0.065;
        R->xib = p[WR_FLANGE] + p[WR_FHEIGHT] / tan(p[WR_FANGLE]) + 0.005;
    }
    /* the built-in head: crown circle, then gauge-corner circle tangent to it, the cone's contact at ζ = 0 */
    double Rc = p[WR_CROWN], Rg = p[WR_CORNER], s1 = (p[WR_HEAD] - Rg) / (Rc - Rg), c1 = sqrt(1 - s1 * s1);
    R->zc = R->wheel.n ? 0 : -Rc * sin(atan(p[WR_CONE]));
    R->u1 = Rc * s1;
    R->uc = (Rc - Rg) * s1;
    R->zcc = -Rc + (Rc - Rg) * c1;
    R->z0 = Rc - sqrt(Rc * Rc - R->zc * R->zc); /* the nominal contact point at the track plane's height */
    return MT_OK;
}

void mt_rail_free(MtRail *R)
{
    if (!R) return;
    free(R->wheel.m);
    free(R->rail.m);
    free(R->ns);
    free(R->iz);
    free(R);
}

/* ---- the wheelset on the track ---------------------------------------------- */

typedef struct {
    double T0[3], t[3], l[3], n[3]; /* track point and frame (project axes) at the wheelset's distance */
    double O[3], a[3], d[3];        /* wheelset centre, axle (to the left), up across the axle */
    double s;
} Geo;

/* Track distance of point P from the hint s (Newton on (P − C(s))·t(s) = 0). */
static double project(const MtRail *R, const MtMk *J, const double *P, double s, int have_hint)
{
    double d[3];
    mt_v3_sub(d, P, J->p);
    double X = mt_v3_dot(d, J->ax[0]), Y = mt_v3_dot(d, J->ax[1]);
    if (!have_hint) { /* nearest node */
        double best = X * X + Y * Y;
        s = 0;
        for (int i = 0; i < R->nnode; i++) {
            double e = (X - R->nx[i]) * (X - R->nx[i]) + (Y - R->ny[i]) * (Y - R->ny[i]);
            if (e < best) { best = e; s = R->ns[i]; }
        }
        if (X < 0 && s == 0) s = X;
    }
    for (int it = 0; it < 20; it++) {
        double x, y, th, kap, c;
        centre(R, s, &x, &y, &th, &kap, &c);
        double dx = X - x, dy = Y - y, al = dx * cos(th) + dy * sin(th), la = -dx * sin(th) + dy * cos(th);
        double ds = al / (1 - kap * la);
        s += ds;
        if (fabs(ds) < 1e-11) break;
    }
    return s;
}

static void geometry(const MtRail *R, const double *p, const MtMk *I, const MtMk *J, double hint, int have_hint, Geo *g)
{
    g->s = project(R, J, I->p, hint, have_hint);
    double x, y, th, kap, cant, zv, zd, yl, yd;
    centre(R, g->s, &x, &y, &th, &kap, &cant);
    irregularity(R, g->s, &zv, &zd, &yl, &yd);
    double phi = R->sgn * asin(fmax(-1, fmin(1, cant / (2 * p[WR_B])))), t0[3], l0[3], n0[3];
    double ct = cos(th), st = sin(th), cp = cos(phi), sp = sin(phi);
    for (int c = 0; c < 3; c++) { /* marker j axes → project axes; cant turns the plane about the tangent */
        t0[c] = ct * J->ax[0][c] + st * J->ax[1][c];
        double lp = -st * J->ax[0][c] + ct * J->ax[1][c];
        n0[c] = cp * J->ax[2][c] + sp * lp;
        l0[c] = cp * lp - sp * J->ax[2][c];
        g->T0[c] = J->p[c] + x * J->ax[0][c] + y * J->ax[1][c] + yl * l0[c] + zv * n0[c];
    }
    /* the irregularity's slopes turn the frame */
    for (int c = 0; c < 3; c++) {
        g->t[c] = t0[c] + yd * l0[c] + zd * n0[c];
        g->l[c] = l0[c] - yd * t0[c];
    }
    mt_v3_scale(g->t, g->t, 1 / mt_v3_norm(g->t));
    mt_v3_axpy(g->l, -mt_v3_dot(g->l, g->t), g->t);
    mt_v3_scale(g->l, g->l, 1 / mt_v3_norm(g->l));
    mt_v3_cross(g->n, g->t, g->l);
    mt_v3_copy(g->O, I->p);
    mt_v3_copy(g->a, I->ax[1]);
    mt_v3_copy(g->d, g->n);
    mt_v3_axpy(g->d, -mt_v3_dot(g->n, g->a), g->a);
    mt_v3_scale(g->d, g->d, 1 / mt_v3_norm(g->d));
}

/* Vertical gap between the lowest point of the wheel circle at ξ and the rail
 * of side sg (+1 left, −1 right); the wheel point, the rail's ζ and slope. */
static double gap(const MtRail *R, const double *p, const Geo *g, int sg, double xi, double *P, double *zeta, double *slope)
{
    double dr, r = wheel_r(R, p, xi, &dr), rel[3];
    double eta = sg * (p[WR_B] - xi);
    for (int c = 0; c < 3; c++) P[c] = g->O[c] + eta * g->a[c] - r * g->d[c];
    mt_v3_sub(rel, P, g->T0);
    *zeta = p[WR_B] - sg * mt_v3_dot(rel, g->l);
    return mt_v3_dot(rel, g->n) - rail_z(R, p, *zeta, slope);
}

/* The contact patches of one wheel: up to two local minima of the gap with
 * penetration, refined by golden sections; returns how many. */
static int search(const MtRail *R, const double *p, const Geo *g, int sg, double xi_out[2], double gap_out[2])
{
    double gs[NSAMP], P[3], z, sl, h = (R->xib - R->xia) / (NSAMP - 1);
    for (int i = 0; i < NSAMP; i++) gs[i] = gap(R, p, g, sg, R->xia + i * h, P, &z, &sl);
    int n = 0;
    for (int i = 0; i < NSAMP; i++) {
        if ((i > 0 && gs[i] >= gs[i - 1]) || (i + 1 < NSAMP && gs[i] > gs[i + 1]) || gs[i] > 1e-3) continue;
        double a = R->xia + (i > 0 ? i - 1 : i) * h, b = R->xia + (i + 1 < NSAMP ? i + 1 : i) * h;
        const double gr = 0.6180339887498949;
        double c = b - gr * (b - a), e = a + gr * (b - a);
        double fc = gap(R, p, g, sg, c, P, &z, &sl), fe = gap(R, p, g, sg, e, P, &z, &sl);
        for (int it = 0; it < 48 && b - a > 1e-12; it++) {
            if (fc < fe) { b = e; e = c; fe = fc; c = b - gr * (b - a); fc = gap(R, p, g, sg, c, P, &z, &sl); }
            else { a = c; c = e; fc = fe; e = a + gr * (b - a); fe = gap(R, p, g, sg, e, P, &z, &sl); }
        }
        double xm = 0.5 * (a + b), gm = gap(R, p, g, sg, xm, P, &z, &sl);
        if (gm >= 0) continue;
        if (n < 2) { xi_out[n] = xm; gap_out[n] = gm; n++; }
        else { /* keep the two deepest */
            int w = gap_out[0] > gap_out[1] ? 0 : 1;
            if (gm < gap_out[w]) { xi_out[w] = xm; gap_out[w] = gm; }
        }
    }
    return n;
}

/* Sums of one patch into the element's totals. */
typedef struct {
    double F[3], M[3], pwr, E, dmax;
} Tot;

/* Normal and creep forces of one patch at ξ, applied to the wheelset and the track. */
static void patch(MtState *st, const MtForceSpec *fs, const MtRail *R, const Geo *g, int sg, double xi, const double *q,
                  const MtMk *I, const MtMk *J, double V, double *rec, Tot *tot)
{
    const double *p = fs->p;
    const MtSystem *s = st->sys;
    int bi = s->mbody[fs->mi], bj = s->mbody[fs->mj];
    double P[3], zeta, R1, nc[3], lc[3], ri[3], vi[3], vj[3] = {0, 0, 0}, vr[3], wr[3], dr;
    double gv = gap(R, p, g, sg, xi, P, &zeta, &R1);
    double cs = 1 / sqrt(1 + R1 * R1), dn = -gv * cs;
    for (int c = 0; c < 3; c++) nc[c] = (sg * R1 * g->l[c] + g->n[c]) * cs;
    mt_v3_cross(lc, nc, g->t);
    mt_v3_sub(ri, P, q + 7 * bi);
    mt_v3_cross(vi, I->w, ri);
    mt_v3_add(vi, vi, I->v);
    mt_v3_copy(wr, I->w);
    if (bj >= 0) {
        double rj[3];
        mt_v3_sub(rj, P, q + 7 * bj);
        mt_v3_cross(vj, J->w, rj);
        mt_v3_add(vj, vj, J->v);
        mt_v3_sub(wr, wr, J->w);
    }
    mt_v3_sub(vr, vi, vj);
    double N = p[WR_KN] * dn * sqrt(dn) - p[WR_CN] * mt_v3_dot(vr, nc);
    if (N < 0) N = 0;
    double nux = mt_v3_dot(vr, g->t) / V, nuy = mt_v3_dot(vr, lc) / V, phi = mt_v3_dot(wr, nc) / V;
    double f11 = p[WR_F11], f22 = p[WR_F22], f23 = p[WR_F23], f33 = p[WR_F33];
    if (p[WR_N0] > 0) { /* Kalker's coefficients grow with the contact area, ab ∝ N^(2/3) */
        double gg = N / p[WR_N0], g23 = cbrt(gg * gg);
        f11 *= g23;
        f22 *= g23;
        f23 *= gg;
        f33 *= g23 * g23;
    }
    double Fx = -f11 * nux, Fy = -f22 * nuy - f23 * phi, Mz = f23 * nuy - f33 * phi, Fr = hypot(Fx, Fy);
    if (p[WR_SAT] != 0 && Fr > 0) { /* Shen, Hedrick and Elkins 1983 */
        double muN = p[WR_MU] * N, beta = muN > 0 ? Fr / muN : INFINITY;
        double Fs = beta < 3 ? muN * (beta - beta * beta / 3 + beta * beta * beta / 27) : muN, sc = Fs / Fr;
        Fx *= sc;
        Fy *= sc;
        Mz *= sc;
    }
    double F[3], T[3], rO[3], m[3];
    mt_v3_scale(F, nc, N);
    mt_v3_axpy(F, Fx, g->t);
    mt_v3_axpy(F, Fy, lc);
    mt_v3_scale(T, nc, Mz);
    mt_apply_load(st, q, fs->mi, P, F, T, 1);
    mt_apply_load(st, q, fs->mj, P, F, T, -1);
    mt_v3_add(tot->F, tot->F, F);
    mt_v3_sub(rO, P, I->p);
    mt_v3_cross(m, rO, F);
    mt_v3_add(tot->M, tot->M, m);
    mt_v3_add(tot->M, tot->M, T);
    tot->pwr += mt_v3_dot(F, vr) + Mz * mt_v3_dot(wr, nc);
    tot->E += p[WR_KN] * dn * dn * sqrt(dn) / 2.5;
    tot->dmax = fmax(tot->dmax, dn);
    /* the wheel's record: forces summed, the rest from the patch that carries more */
    int main_patch = N >= rec[0];
    rec[0] += N;
    rec[1] += Fx;
    rec[2] += Fy;
    rec[10] += 1;
    if (main_patch) {
        double rr = wheel_r(R, p, xi, &dr);
        rec[3] = xi;
        rec[4] = zeta;
        rec[5] = nux;
        rec[6] = nuy;
        rec[7] = phi;
        rec[8] = rr;
        rec[9] = atan(-R1);
    }
}

double mt_rail_distance(MtState *st, int k)
{
    const MtForceSpec *fs = &st->sys->model->force[k];
    MtMk I, J;
    mt_marker_eval(st, st->q, st->u, fs->mi, &I);
    mt_marker_eval(st, st->q, st->u, fs->mj, &J);
    return project(st->sys->rail[k], &J, I.p, st->fdisc[2 * k], st->fdisc[2 * k + 1] != 0);
}

void mt_rail_force(MtState *st, int k, const double *q, const MtMk *I, const MtMk *J)
{
    const MtForceSpec *fs = &st->sys->model->force[k];
    const MtRail *R = st->sys->rail[k];
    const double *p = fs->p;
    double *o = st->fout + MT_FOUT * k;
    memset(o, 0, MT_FOUT * sizeof(double));
    Geo g;
    geometry(R, p, I, J, st->fdisc[2 * k], st->fdisc[2 * k + 1] != 0, &g);
    double vrel[3];
    mt_v3_copy(vrel, I->vp);
    if (st->sys->mbody[fs->mj] >= 0) mt_v3_sub(vrel, vrel, J->vp);
    double V = fmax(fabs(mt_v3_dot(vrel, g.t)), p[WR_VMIN]);
    Tot tot = {{0, 0, 0}, {0, 0, 0}, 0, 0, 0};
    for (int side = 0; side < 2; side++) {
        int sg = side ? -1 : 1;
        double xi[2], gp[2], *rec = o + 9 + MT_RAIL_WHEEL * side;
        int n = search(R, p, &g, sg, xi, gp);
        for (int c = 0; c < n; c++) patch(st, fs, R, &g, sg, xi[c], q, I, J, V, rec, &tot);
    }
    mt_v3_copy(o, tot.F);
    mt_v3_copy(o + 3, tot.M);
    o[6] = tot.dmax;
    o[7] = tot.pwr;
    o[8] = tot.E;
    double rel[3];
    mt_v3_sub(rel, g.O, g.T0);
    o[9 + 2 * MT_RAIL_WHEEL] = g.s;
    o[10 + 2 * MT_RAIL_WHEEL] = mt_v3_dot(rel, g.l);
    o[11 + 2 * MT_RAIL_WHEEL] = atan2(-mt_v3_dot(g.a, g.t), mt_v3_dot(g.a, g.l));
}
