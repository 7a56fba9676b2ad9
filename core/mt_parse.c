/* mt_parse.c — the hand-writable text model format (docs/model-format.md):
 * reading it into an MtModel and writing a model back in canonical form. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_math.h"
#include "mt_model.h"

#define MAXTOK 48

typedef struct {
    const char *src;
    int line;
    MtError *err;
    char *tok[MAXTOK];
    int ntok;
} Parser;

static MtStatus perr(Parser *p, const char *entity, const char *fmt, const char *a, const char *b)
{
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    return mt_error_set(p->err, MT_ERR_SYNTAX, entity, "%s:%d: %s", p->src, p->line, msg);
}

/* Splits a line in place: whitespace-separated words, "quoted strings", # comments. */
static int tokenize(Parser *p, char *s)
{
    p->ntok = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\r') s++;
        if (!*s || *s == '#') break;
        if (p->ntok == MAXTOK) return perr(p, "", "too many words on one line (at most %d)%s", "48", NULL);
        if (*s == '"') {
            p->tok[p->ntok++] = ++s;
            while (*s && *s != '"') s++;
            if (*s != '"') return perr(p, "", "unterminated quoted text%s%s", NULL, NULL);
            *s++ = 0;
            continue;
        }
        p->tok[p->ntok++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r') s++;
        if (*s) *s++ = 0;
    }
    return 0;
}

/* A number in SI, or with the suffix "deg" (converted to radians). */
static int num(Parser *p, const char *entity, int i, double *out)
{
    if (i >= p->ntok) return perr(p, entity, "'%s': a number is missing at the end of the line%s", entity, NULL);
    const char *s = p->tok[i];
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s) return perr(p, entity, "'%s': expected a number, found '%s'", entity, s);
    if (!strcmp(end, "deg")) v *= M_PI / 180.0;
    else if (*end) return perr(p, entity, "'%s': '%s' is not a number (units other than 'deg' are not accepted here)", entity, s);
    if (!isfinite(v)) return perr(p, entity, "'%s': '%s' is not a finite number", entity, s);
    *out = v;
    return 0;
}

static int nums(Parser *p, const char *entity, int i, int n, double *out)
{
    for (int k = 0; k < n; k++)
        if (num(p, entity, i + k, &out[k])) return -1;
    return 0;
}

/* Rotation whose z column is along z and x column the part of xhint normal to z. */
static int frame_from_zx(double *R, const double *z0, const double *xhint)
{
    double z[3], x[3], y[3];
    double nz = mt_v3_norm(z0);
    if (!(nz > 1e-12)) return -1;
    mt_v3_scale(z, z0, 1 / nz);
    double h[3];
    if (xhint) mt_v3_copy(h, xhint);
    else mt_v3_set(h, 1, 0, 0);
    mt_v3_axpy(h, -mt_v3_dot(h, z), z);
    if (mt_v3_norm(h) < 1e-6) { /* hint along z: take the project axis least aligned with z */
        int k = fabs(z[0]) <= fabs(z[1]) ? (fabs(z[0]) <= fabs(z[2]) ? 0 : 2) : (fabs(z[1]) <= fabs(z[2]) ? 1 : 2);
        mt_v3_set(h, k == 0, k == 1, k == 2);
        mt_v3_axpy(h, -mt_v3_dot(h, z), z);
        if (xhint) return -2;
    }
    mt_v3_scale(x, h, 1 / mt_v3_norm(h));
    mt_v3_cross(y, z, x);
    for (int r = 0; r < 3; r++) { R[3 * r] = x[r]; R[3 * r + 1] = y[r]; R[3 * r + 2] = z[r]; }
    return 0;
}

/* Parses "z ax ay az [x bx by bz]", "quat w x y z" or "axis ax ay az ANGLE" from word i. */
static int orientation(Parser *p, const char *entity, int i, double *R)
{
    if (i >= p->ntok) return perr(p, entity, "'%s': orientation expects 'z …', 'quat …' or 'axis …'%s", entity, NULL);
    const char *kw = p->tok[i];
    if (!strcmp(kw, "z")) {
        double z[3], x[3];
        int hasx = 0;
        if (nums(p, entity, i + 1, 3, z)) return -1;
        if (p->ntok > i + 4) {
            if (strcmp(p->tok[i + 4], "x") || p->ntok != i + 8)
                return perr(p, entity, "'%s': after 'z ax ay az' only 'x bx by bz' may follow%s", entity, NULL);
            if (nums(p, entity, i + 5, 3, x)) return -1;
            hasx = 1;
        }
        int r = frame_from_zx(R, z, hasx ? x : NULL);
        if (r == -1) return perr(p, entity, "'%s': the z axis has zero length%s", entity, NULL);
        if (r == -2) return perr(p, entity, "'%s': the x axis is parallel to the z axis%s", entity, NULL);
        return 0;
    }
    if (!strcmp(kw, "quat")) {
        double q[4];
        if (nums(p, entity, i + 1, 4, q)) return -1;
        double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(n > 1e-12)) return perr(p, entity, "'%s': quaternion has zero length%s", entity, NULL);
        for (int k = 0; k < 4; k++) q[k] /= n;
        mt_quat_to_m3(R, q);
        return p->ntok == i + 5 ? 0 : perr(p, entity, "'%s': quat takes exactly four numbers%s", entity, NULL);
    }
    if (!strcmp(kw, "axis")) {
        double a[4];
        if (nums(p, entity, i + 1, 4, a)) return -1;
        double n = mt_v3_norm(a);
        if (!(n > 1e-12)) return perr(p, entity, "'%s': rotation axis has zero length%s", entity, NULL);
        double v[3], q[4];
        mt_v3_scale(v, a, a[3] / n);
        mt_quat_from_rotvec(q, v);
        mt_quat_to_m3(R, q);
        return p->ntok == i + 5 ? 0 : perr(p, entity, "'%s': axis takes three components and an angle%s", entity, NULL);
    }
    if (!strcmp(kw, "matrix")) { /* row-major, columns are the axes: exact round trip of any frame */
        if (p->ntok != i + 10) return perr(p, entity, "'%s': matrix takes nine numbers%s", entity, NULL);
        return nums(p, entity, i + 1, 9, R);
    }
    return perr(p, entity, "'%s': unknown orientation form '%s' (use z, quat, axis or matrix)", entity, kw);
}

/* marker NAME [at x y z] [z ax ay az [x bx by bz]] */
static int marker_line(Parser *p, MtModel *m, int body)
{
    if (p->ntok < 2) return perr(p, "", "marker: a name is expected after 'marker'%s%s", NULL, NULL);
    const char *name = p->tok[1];
    double pos[3] = {0, 0, 0}, R[9];
    mt_m3_identity(R);
    int i = 2;
    if (i < p->ntok && !strcmp(p->tok[i], "at")) {
        if (nums(p, name, i + 1, 3, pos)) return -1;
        i += 4;
    }
    if (i < p->ntok && orientation(p, name, i, R)) return -1;
    if (mt_model_add_marker(m, body, name, pos, R, p->err) < 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", p->err->msg);
        return mt_error_set(p->err, MT_ERR_SYNTAX, name, "%s:%d: %s", p->src, p->line, msg);
    }
    return 0;
}

static int expect_n(Parser *p, const char *entity, int n)
{
    if (p->ntok != n) {
        perr(p, entity, n == 2 ? "'%s': '%s' takes one value" : "'%s': '%s' takes three values", entity, p->tok[0]);
        return -1;
    }
    return 0;
}

static int body_line(Parser *p, MtModel *m, int bi)
{
    MtBodySpec *b = &m->body[bi];
    const char *k = p->tok[0];
    if (!strcmp(k, "marker")) return marker_line(p, m, bi);
    if (!strcmp(k, "mass")) return expect_n(p, b->name, 2) || num(p, b->name, 1, &b->mass);
    if (!strcmp(k, "com")) return expect_n(p, b->name, 4) || nums(p, b->name, 1, 3, b->com);
    if (!strcmp(k, "inertia")) {
        if (p->ntok != 4 && p->ntok != 7)
            return perr(p, b->name, "body '%s': inertia takes Ixx Iyy Izz [Ixy Ixz Iyz]%s", b->name, NULL);
        memset(b->inertia, 0, sizeof b->inertia);
        return nums(p, b->name, 1, p->ntok - 1, b->inertia);
    }
    if (!strcmp(k, "position")) return expect_n(p, b->name, 4) || nums(p, b->name, 1, 3, b->pos);
    if (!strcmp(k, "orientation")) return orientation(p, b->name, 1, b->rot);
    if (!strcmp(k, "velocity")) return expect_n(p, b->name, 4) || nums(p, b->name, 1, 3, b->vel);
    if (!strcmp(k, "omega")) return expect_n(p, b->name, 4) || nums(p, b->name, 1, 3, b->omega);
    return perr(p, b->name, "body '%s': unknown property '%s' (mass, com, inertia, position, orientation, velocity, omega, marker)",
                b->name, k);
}

static int marker_ref(Parser *p, MtModel *m, const char *entity, const char *ref, int *out)
{
    *out = mt_model_find_marker(m, ref);
    if (*out < 0) return perr(p, entity, "'%s': unknown marker '%s' (write body.marker; define the body before it is used)", entity, ref);
    return 0;
}

static int solver_line(Parser *p, MtModel *m)
{
    MtSolverSpec *s = &m->solver;
    for (int i = 1; i < p->ntok; i += 2) {
        const char *k = p->tok[i];
        if (i + 1 >= p->ntok) return perr(p, "solver", "solver: '%s' needs a value%s", k, NULL);
        const char *v = p->tok[i + 1];
        double x = 0;
        if (!strcmp(k, "method")) {
            if (mt_method_from_name(v, &s->method)) return perr(p, "solver", "solver: unknown method '%s' (rk4, dp54)%s", v, NULL);
        } else if (!strcmp(k, "correct")) {
            if (!strcmp(v, "none")) s->correct_pos = s->correct_vel = 0;
            else if (!strcmp(v, "positions")) { s->correct_pos = 1; s->correct_vel = 0; }
            else if (!strcmp(v, "velocities")) { s->correct_pos = 0; s->correct_vel = 1; }
            else if (!strcmp(v, "both")) s->correct_pos = s->correct_vel = 1;
            else return perr(p, "solver", "solver: correct takes none, positions, velocities or both, not '%s'%s", v, NULL);
        } else {
            if (num(p, "solver", i + 1, &x)) return -1;
            if (!strcmp(k, "step")) s->step = x;
            else if (!strcmp(k, "until")) s->until = x;
            else if (!strcmp(k, "every")) {
                if (x != floor(x) || x < 1 || x > 1e9) return perr(p, "solver", "solver: every must be a whole number ≥ 1%s%s", NULL, NULL);
                s->every = (int)x;
            } else if (!strcmp(k, "rtol")) s->rtol = x;
            else if (!strcmp(k, "atol")) s->atol = x;
            else if (!strcmp(k, "ts")) s->stab_period = x;
            else if (!strcmp(k, "xi")) s->stab_damping = x;
            else return perr(p, "solver", "solver: unknown setting '%s'%s", k, NULL);
        }
    }
    return 0;
}

static int top_line(Parser *p, MtModel *m, int *block)
{
    const char *k = p->tok[0];
    MtError *err = p->err;
    if (!strcmp(k, "motus-model")) {
        if (p->ntok != 2 || strcmp(p->tok[1], "1"))
            return perr(p, "", "this file is format version '%s'; this Motus reads version 1%s", p->ntok > 1 ? p->tok[1] : "?", NULL);
        return 0;
    }
    if (!strcmp(k, "title")) {
        if (p->ntok != 2) return perr(p, "title", "title: put the title in quotes%s%s", NULL, NULL);
        snprintf(m->title, sizeof m->title, "%s", p->tok[1]);
        return 0;
    }
    if (!strcmp(k, "gravity")) return expect_n(p, "gravity", 4) || nums(p, "gravity", 1, 3, m->gravity);
    if (!strcmp(k, "solver")) return solver_line(p, m);
    if (!strcmp(k, "ground")) {
        if (p->ntok != 1) return perr(p, "ground", "ground: nothing may follow 'ground' on its line%s%s", NULL, NULL);
        *block = -2;
        return 0;
    }
    if (!strcmp(k, "body")) {
        if (p->ntok != 2) return perr(p, "", "body: write 'body NAME' on its own line%s%s", NULL, NULL);
        int b = mt_model_add_body(m, p->tok[1], err);
        if (b < 0) return perr(p, p->tok[1], "%s%s", err->msg, NULL);
        *block = b;
        return 0;
    }
    if (!strcmp(k, "joint")) {
        if (p->ntok != 5) return perr(p, p->ntok > 1 ? p->tok[1] : "", "joint: write 'joint NAME TYPE body.marker_i body.marker_j'%s%s", NULL, NULL);
        const char *name = p->tok[1];
        MtJointType t;
        if (mt_joint_type_from_name(p->tok[2], &t))
            return perr(p, name, "joint '%s': unknown joint type '%s' (spherical, revolute, prismatic, cylindrical, universal, fixed)",
                        name, p->tok[2]);
        int mi, mj;
        if (marker_ref(p, m, name, p->tok[3], &mi) || marker_ref(p, m, name, p->tok[4], &mj)) return -1;
        if (mt_model_add_joint(m, name, t, mi, mj, err) < 0) return perr(p, name, "%s%s", err->msg, NULL);
        return 0;
    }
    if (!strcmp(k, "driver")) {
        if (p->ntok < 5) return perr(p, p->ntok > 1 ? p->tok[1] : "", "driver: write 'driver NAME JOINT rate W [start F0]' or 'driver NAME JOINT poly c0 c1 …'%s%s", NULL, NULL);
        const char *name = p->tok[1];
        int j = mt_model_find_joint(m, p->tok[2]);
        if (j < 0) return perr(p, name, "driver '%s': unknown joint '%s'", name, p->tok[2]);
        double c[MT_POLY_MAX] = {0};
        int n;
        MtDriverKind kind;
        if (!strcmp(p->tok[3], "rate")) {
            kind = MT_DRIVER_RATE;
            n = 2;
            if (num(p, name, 4, &c[1])) return -1;
            if (p->ntok == 7 && !strcmp(p->tok[5], "start")) {
                if (num(p, name, 6, &c[0])) return -1;
            } else if (p->ntok != 5) return perr(p, name, "driver '%s': after 'rate W' only 'start F0' may follow%s", name, NULL);
        } else if (!strcmp(p->tok[3], "poly")) {
            kind = MT_DRIVER_POLY;
            n = p->ntok - 4;
            if (n > MT_POLY_MAX) return perr(p, name, "driver '%s': at most 8 polynomial coefficients%s", name, NULL);
            if (nums(p, name, 4, n, c)) return -1;
        } else return perr(p, name, "driver '%s': unknown law '%s' (rate or poly)", name, p->tok[3]);
        if (mt_model_add_driver(m, name, j, kind, n, c, err) < 0) return perr(p, name, "%s%s", err->msg, NULL);
        return 0;
    }
    if (!strcmp(k, "spring")) {
        if (p->ntok < 4) return perr(p, p->ntok > 1 ? p->tok[1] : "", "spring: write 'spring NAME body.marker_i body.marker_j [k K] [c C] [length L0] [preload F]'%s%s", NULL, NULL);
        const char *name = p->tok[1];
        int mi, mj;
        if (marker_ref(p, m, name, p->tok[2], &mi) || marker_ref(p, m, name, p->tok[3], &mj)) return -1;
        double kk = 0, c = 0, len = 0, pre = 0;
        int have_len = 0;
        for (int i = 4; i < p->ntok; i += 2) {
            double v;
            if (num(p, name, i + 1, &v)) return -1;
            if (!strcmp(p->tok[i], "k")) kk = v;
            else if (!strcmp(p->tok[i], "c")) c = v;
            else if (!strcmp(p->tok[i], "length")) { len = v; have_len = 1; }
            else if (!strcmp(p->tok[i], "preload")) pre = v;
            else return perr(p, name, "spring '%s': unknown property '%s' (k, c, length, preload)", name, p->tok[i]);
        }
        if (!have_len) len = NAN; /* filled in from the initial geometry after parsing */
        if (mt_model_add_spring(m, name, mi, mj, kk, c, len, pre, err) < 0) return perr(p, name, "%s%s", err->msg, NULL);
        return 0;
    }
    return perr(p, "", "unknown statement '%s' (expected title, gravity, solver, ground, body, joint, driver or spring)", k, NULL);
}

/* Free length of a spring without "length": its initial distance. */
static void marker_world(const MtModel *m, int mk, double *p)
{
    const MtMarkerSpec *k = &m->marker[mk];
    if (k->body == MT_GROUND) { mt_v3_copy(p, k->pos); return; }
    const MtBodySpec *b = &m->body[k->body];
    mt_m3_mulv(p, b->rot, k->pos);
    mt_v3_add(p, p, b->pos);
}

MtModel *mt_model_parse(const char *text, const char *source_name, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    mt_error_clear(err);
    MtModel *m = mt_model_new();
    char *buf = strdup(text ? text : "");
    if (!m || !buf) {
        mt_model_free(m);
        free(buf);
        mt_error_set(err, MT_ERR_NOMEM, "", "out of memory");
        return NULL;
    }
    Parser p = {.src = source_name ? source_name : "<text>", .err = err};
    int block = -1; /* -1 top level, -2 ground, ≥ 0 body */
    int fail = 0;
    char *line = buf;
    while (line && !fail) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        p.line++;
        if (strlen(line) > 4000) {
            fail = perr(&p, "", "line too long%s%s", NULL, NULL) || 1;
            break;
        }
        if (tokenize(&p, line)) { fail = 1; break; }
        if (p.ntok) {
            if (!strcmp(p.tok[0], "end")) {
                if (block == -1) fail = perr(&p, "", "'end' without an open ground or body block%s%s", NULL, NULL) || 1;
                block = -1;
            } else if (block == -2) {
                if (strcmp(p.tok[0], "marker")) fail = perr(&p, "ground", "ground: only markers go in the ground block, not '%s'%s", p.tok[0], NULL) || 1;
                else fail = marker_line(&p, m, MT_GROUND) != 0;
            } else if (block >= 0) {
                if (!strcmp(p.tok[0], "body") || !strcmp(p.tok[0], "joint") || !strcmp(p.tok[0], "ground"))
                    fail = perr(&p, m->body[block].name, "body '%s': missing 'end' before '%s'", m->body[block].name, p.tok[0]) || 1;
                else fail = body_line(&p, m, block) != 0;
            } else fail = top_line(&p, m, &block) != 0;
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!fail && block != -1) {
        fail = 1;
        mt_error_set(err, MT_ERR_SYNTAX, block >= 0 ? m->body[block].name : "ground", "%s: block '%s' is not closed with 'end'",
                     p.src, block >= 0 ? m->body[block].name : "ground");
    }
    free(buf);
    if (fail) {
        if (err->code == MT_OK) mt_error_set(err, MT_ERR_SYNTAX, "", "%s:%d: syntax error", p.src, p.line);
        mt_model_free(m);
        return NULL;
    }
    for (int i = 0; i < m->nspring; i++)
        if (isnan(m->spring[i].length)) {
            double a[3], b[3], d[3];
            marker_world(m, m->spring[i].mi, a);
            marker_world(m, m->spring[i].mj, b);
            mt_v3_sub(d, b, a);
            m->spring[i].length = mt_v3_norm(d);
        }
    if (mt_model_validate(m, err) != MT_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", err->msg);
        mt_error_set(err, MT_ERR_MODEL, err->entity, "%s: %s", p.src, msg);
        mt_model_free(m);
        return NULL;
    }
    return m;
}

MtModel *mt_model_load(const char *path, MtError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        mt_error_set(err, MT_ERR_IO, path, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    size_t r;
    while (text && (r = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            if (cap > ((size_t)256 << 20)) { free(text); text = NULL; break; }
            char *t = realloc(text, cap * 2);
            if (!t) { free(text); text = NULL; break; }
            text = t;
            cap *= 2;
        }
    }
    int ioerr = ferror(f);
    fclose(f);
    if (!text || ioerr) {
        free(text);
        mt_error_set(err, MT_ERR_IO, path, "cannot read '%s' (unreadable or larger than 256 MiB)", path);
        return NULL;
    }
    text[n] = 0;
    if (memchr(text, 0, n)) {
        free(text);
        mt_error_set(err, MT_ERR_SYNTAX, path, "'%s' is not a Motus text model (it contains binary data)", path);
        return NULL;
    }
    MtModel *m = mt_model_parse(text, path, err);
    free(text);
    return m;
}

/* "z … x …" when that reproduces R bit for bit, else the exact matrix. */
static void write_frame(FILE *f, const double *R)
{
    double z[3] = {R[2], R[5], R[8]}, x[3] = {R[0], R[3], R[6]}, T[9];
    if (frame_from_zx(T, z, x) == 0 && !memcmp(T, R, sizeof T)) {
        fprintf(f, "z %.17g %.17g %.17g x %.17g %.17g %.17g", z[0], z[1], z[2], x[0], x[1], x[2]);
        return;
    }
    fprintf(f, "matrix");
    for (int k = 0; k < 9; k++) fprintf(f, " %.17g", R[k]);
}

static void write_markers(FILE *f, const MtModel *m, int body)
{
    for (int i = 0; i < m->nmarker; i++) {
        const MtMarkerSpec *k = &m->marker[i];
        if (k->body != body) continue;
        fprintf(f, "  marker %s at %.17g %.17g %.17g ", k->name, k->pos[0], k->pos[1], k->pos[2]);
        write_frame(f, k->rot);
        fputc('\n', f);
    }
}

MtStatus mt_model_write(const MtModel *m, FILE *f, MtError *err)
{
    char a[2 * MT_NAME_MAX + 2], b[2 * MT_NAME_MAX + 2];
    const MtSolverSpec *s = &m->solver;
    fprintf(f, "motus-model 1\n");
    if (m->title[0]) { /* quotes and line breaks cannot be written inside a title */
        fputs("title \"", f);
        for (const char *c = m->title; *c; c++) fputc((*c == '"' || *c == '\n' || *c == '\r') ? '\'' : *c, f);
        fputs("\"\n", f);
    }
    fprintf(f, "gravity %.17g %.17g %.17g\n", m->gravity[0], m->gravity[1], m->gravity[2]);
    fprintf(f, "solver method %s step %.17g until %.17g every %d rtol %.17g atol %.17g ts %.17g xi %.17g correct %s\n",
            mt_method_name(s->method), s->step, s->until, s->every, s->rtol, s->atol, s->stab_period, s->stab_damping,
            s->correct_pos ? (s->correct_vel ? "both" : "positions") : (s->correct_vel ? "velocities" : "none"));
    fprintf(f, "\nground\n");
    write_markers(f, m, MT_GROUND);
    fprintf(f, "end\n");
    for (int i = 0; i < m->nbody; i++) {
        const MtBodySpec *bd = &m->body[i];
        fprintf(f, "\nbody %s\n  mass %.17g\n  com %.17g %.17g %.17g\n", bd->name, bd->mass, bd->com[0], bd->com[1], bd->com[2]);
        fprintf(f, "  inertia %.17g %.17g %.17g %.17g %.17g %.17g\n", bd->inertia[0], bd->inertia[1], bd->inertia[2],
                bd->inertia[3], bd->inertia[4], bd->inertia[5]);
        fprintf(f, "  position %.17g %.17g %.17g\n  orientation ", bd->pos[0], bd->pos[1], bd->pos[2]);
        write_frame(f, bd->rot);
        fprintf(f, "\n  velocity %.17g %.17g %.17g\n  omega %.17g %.17g %.17g\n", bd->vel[0], bd->vel[1], bd->vel[2],
                bd->omega[0], bd->omega[1], bd->omega[2]);
        write_markers(f, m, i);
        fprintf(f, "end\n");
    }
    if (m->njoint) fputc('\n', f);
    for (int i = 0; i < m->njoint; i++) {
        const MtJointSpec *j = &m->joint[i];
        fprintf(f, "joint %s %s %s %s\n", j->name, mt_joint_type_name(j->type), mt_model_marker_ref(m, j->mi, a, sizeof a),
                mt_model_marker_ref(m, j->mj, b, sizeof b));
    }
    for (int i = 0; i < m->ndriver; i++) {
        const MtDriverSpec *d = &m->driver[i];
        fprintf(f, "driver %s %s", d->name, m->joint[d->joint].name);
        if (d->kind == MT_DRIVER_RATE) fprintf(f, " rate %.17g start %.17g\n", d->coef[1], d->coef[0]);
        else {
            fprintf(f, " poly");
            for (int k = 0; k < d->ncoef; k++) fprintf(f, " %.17g", d->coef[k]);
            fputc('\n', f);
        }
    }
    for (int i = 0; i < m->nspring; i++) {
        const MtSpringSpec *sp = &m->spring[i];
        fprintf(f, "spring %s %s %s k %.17g c %.17g length %.17g preload %.17g\n", sp->name,
                mt_model_marker_ref(m, sp->mi, a, sizeof a), mt_model_marker_ref(m, sp->mj, b, sizeof b), sp->k, sp->c,
                sp->length, sp->preload);
    }
    if (ferror(f)) return mt_error_set(err, MT_ERR_IO, "", "write error");
    return MT_OK;
}
