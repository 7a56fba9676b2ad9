/* test_store.c — projects in SQLite (include/motus/store.h): every entity kind and
 * field round trips; text → project → text is identical for every example;
 * runs stream frames in bounded memory (10⁶ frames) and read back in constant
 * time; result columns are computed from stored frames, also for a sensor
 * added after the run; older schemas (versions 1 and 2) are migrated; damaged, truncated,
 * foreign, newer and read-only files are refused unchanged; SIGKILL of a
 * child in the middle of a run (motus-cli) and of a save loop leaves an
 * intact project. Environment: MOTUS_CLI (motus-cli), MOTUS_SOURCE_DIR. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "motus/results.h"
#include "mt_flexmodel.h"
#include "motus/store.h"
#include "mt_test.h"

const char *mt_store_schema_v1_sql(int i); /* mt_store_schema.c, for this test */
const char *mt_store_schema_v2_sql(int i);
const char *mt_store_schema_v3_sql(int i);
const char *mt_store_schema_v4_sql(int i);
const char *mt_store_schema_v5_sql(int i);
const char *mt_store_schema_v6_sql(int i);

static char tmpdir[256];

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *tpath(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static void rm_project(const char *path)
{
    char p[600];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[700];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        chmod(p, 0644);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static char *read_file(const char *path, long *len)
{
    struct stat sb;
    if (len) *len = 0;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) b[n] = 0;
    if (len) *len = n;
    return b;
}

static MtModel *parse_or_die(const char *text)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "<test>", &err);
    if (!m) {
        printf("FAIL model: %s\n", err.msg);
        exit(1);
    }
    return m;
}

static long vm_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && line[kl] == ':') v = strtol(line + kl + 1, NULL, 10);
    fclose(f);
    return v;
}

static sqlite3 *raw_open(const char *path, int ro)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        printf("FAIL raw open %s: %s\n", path, sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_busy_timeout(db, 5000);
    return db;
}

static void raw_exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        printf("FAIL raw exec '%.80s': %s\n", sql, msg);
        sqlite3_free(msg);
        exit(1);
    }
}

static long long raw_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    return v;
}

/* ---- models ------------------------------------------------------------------- */

static const char *const pendulum =
    "motus-model 1\n"
    "title \"Pendulum\"\n"
    "gravity 0 -9.81 0\n"
    "solver method dp54 step 0.01 until 1 rtol 1e-10 atol 1e-12\n"
    "ground\n  marker pivot at 0 0 0\nend\n"
    "body bob\n  mass 1\n  com 0 -1 0\n  inertia 1e-3 1e-3 1e-3\n  orientation axis 0 0 1 60deg\n  marker hinge at 0 0 0\nend\n"
    "joint pin revolute bob.hinge ground.pivot\n";

/* The pendulum with a marker and a sensor added (same bodies and equations). */
static const char *const pendulum_tip =
    "motus-model 1\n"
    "title \"Pendulum\"\n"
    "gravity 0 -9.81 0\n"
    "solver method dp54 step 0.01 until 1 rtol 1e-10 atol 1e-12\n"
    "ground\n  marker pivot at 0 0 0\nend\n"
    "body bob\n  mass 1\n  com 0 -1 0\n  inertia 1e-3 1e-3 1e-3\n  orientation axis 0 0 1 60deg\n  marker hinge at 0 0 0\n"
    "  marker tip at 0 -1 0\nend\n"
    "joint pin revolute bob.hinge ground.pivot\n"
    "sensor tip_y position bob.tip component y\n";

/* Every kind of entity with (nearly) every field set away from its default. */
static const char *const every =
    "motus-model 1\n"
    "title \"Every entity and field\"\n"
    "units length mm angle deg\n"
    "table cam\n  0 0\n  0.5 0.1 1 0.4 \\\n  1.5 0.9  # a statement goes on after a backslash\nend\n"
    "parameter L 0.5\nparameter M {2*L} kg\nparameter g 9.81\nparameter h 0.001\nparameter P {spline(0.75, cam) + table(0.25, cam)}\n"
    "gravity 0 {-g} 0\n"
    "solver method rk4 step {h} until 1 every 2 rtol 1e-7 atol 1e-9 ts 0.05 xi 0.9 alpha -0.1 rho 0.7 loops mlf nu {1000*L}"
    " correct both\n"
    "ground\n"
    "  shape box 1 0.1 1 at 0 -0.05 0 color 0.5 0.25 0.125\n"
    "  marker o at 0 0 0\n  marker g at 0 0 0 z 1 0 0\n  marker plane at 0 -1 0\n"
    "end\n"
    "body arm\n  mass {M}\n  com {L/2} 0 -0\n  inertia 0.001 0.02 0.02 0.0001 0 0\n  position 0 0 0\n"
    "  orientation axis 0 0 {1} {0.35*L}\n  omega 0 0 1\n"
    "  shape bar 0.01 from 0 0 0 to {L} 0 0\n  shape mesh \"meshes/arm part.stl\" scale {0.002*L}\n"
    "  marker o at 0 0 0\n  marker tip at {L} 0 0\nend\n"
    "body disc\n  density 7800\n  position 1 0 0\n  velocity 0.1 0 0\n"
    "  shape cylinder {L/5} 0.02 at 0 0 0 z 0 0 1 color 1 0 0\n  shape sphere 0.02 at 0 0 {L/10}\n"
    "  shape capsule 0.01 0.05 at 0 0 -0.05 z 1 {2*L} 0 x 0 0 1\n"
    "  marker c at 0 0 0\n  marker p at 0.1 0 0 quat 0.9 {0.2*L} 0.2 0.3\nend\n"
    "body slider\n  mass 0.5\n  inertia 1e-3 1e-3 1e-3\n  position 0.2 0 0\n  marker g at 0 0 0 z 1 0 0\nend\n"
    "body wheel\n  mass 3\n  inertia 0.1 0.1 0.2\n  position 2 -0.7 0\n  marker c at 0 0 0\nend\n"
    "joint j_rev revolute arm.o ground.o\n"
    "joint j_sph spherical disc.c arm.tip\n"
    "joint j_pri prismatic slider.g ground.g\n"
    "joint j_cyl cylindrical disc.c ground.o\n"
    "joint j_uni universal disc.c arm.o\n"
    "joint j_fix fixed disc.p arm.tip\n"
    "joint j_pla planar disc.c ground.o\n"
    "joint j_scr screw disc.c ground.o pitch 0.01\n"
    "joint j_inl inline disc.c ground.o\n"
    "joint j_inp inplane disc.c ground.o\n"
    "joint j_dis distance disc.p ground.o length 1.2\n"
    "joint j_dis2 distance arm.tip ground.o\n"
    "joint j_rol rolling wheel.c ground.plane radius 0.3\n"
    "driver d_poly j_rev.angle disp poly 0 1 0.5\n"
    "driver d_rate j_pri vel rate 2 start 0.1\n"
    "driver d_harm j_cyl.disp harmonic 0.1 6.28 phase 0.5 offset 0.01\n"
    "driver d_step j_scr acc step 0 0 1 2\n"
    "driver d_tab j_pla.x table 0 0 1 0.5 2 0.7\n"
    "driver d_const j_inl const 0.25\n"
    "driver d_mk markers disc.p ground.o az vel poly 0.1 0.2\n"
    "driver d_expr markers wheel.c ground.o y acc expr {0.1*sin(2*t) + L*spline(t, cam)}\n"
    "gear g1 j_rev j_cyl radius 0.1 {2*L/5} internal\n"
    "rack r1 j_scr j_pri radius 0.05\n"
    "coupler c1 j_inl.disp 1 j_inp.x 2 j_inp.y -0.5\n"
    "initial j_rev.angle 0.2\ninitial j_pri rate 0.3\ninitial j_cyl.disp 0.01 rate {h*20}\n"
    "spring s1 arm.tip ground.o k 100 c 2 length 0.4 preload 5\n"
    "spring s2 disc.p ground.o k {2*M} curve {100*x + 3*v}\n"
    "force f_tor torsion j_rev k 10 c 0.1 angle0 0.2 preload 1\n"
    "force f_bush bushing disc.c arm.tip kx 1 ky 2 kz 3 ktx 4 kty 5 ktz 6 cx 0.1 cy 0.2 cz 0.3 ctx 0.4 cty 0.5 ctz 0.6"
    " k12 0.5 k61 {L} c21 0.05\n"
    "force f_fric friction j_pri mu 0.3 radius 0.01 sigma0 1e5 sigma1 300\n"
    "force f_con contact wheel.c ground.plane sphere-plane radius 0.3 k 1e6\n"
    "force f_strut strut disc.p ground.o area 0.01 pressure 1e6 volume 0.01 stroke 0.3 orifice 1e-4\n"
    "force f_tyre tyre wheel.c ground.plane radius 0.3 kr 2e5 cr 1e3\n"
    "force f_act actuator disc.c ground.o fx {10*sin(time)} tz {1}\n"
    "force f_drag drag arm.tip cd {1.1*L} area 0.02\n"
    "sensor s_pos position arm.tip rel ground.o frame ground.o component x unit mm\n"
    "sensor s_vel velocity arm.tip component mag\n"
    "sensor s_acc acceleration disc.p component y\n"
    "sensor s_w angvel arm.o rel disc.c component z\n"
    "sensor s_e angacc disc.c\n"
    "sensor s_d distance arm.tip disc.p unit mm\n"
    "sensor s_r reaction j_rev part constraint component fy\n"
    "sensor s_en energy arm kinetic\n"
    "sensor s_sys energy system\n"
    "sensor s_x expr {s_pos * 2}\n"
    "sensor s_f force f_bush component tz frame ground.o\n"
    "sensor s_sp force s1 component energy\n"
    "sensor s_el energy arm elastic\n"
    "sensor s_ang angle arm.tip rel disc.p component y\n"
    "sensor s_jr joint j_pri.disp component rate\n"
    "control c_pid pid input {j_rev.angle} setpoint {0.1*L} kp {100*L} ki 5 kd 0.5 tf 0.01 limit {-40*L} 20\n"
    "control c_lag lag input {c_pid} k 2 tau 0.05 disabled\n"
    "event e_lock at {L/2} do lock j_rev\n"
    "event e_off when {j_rev.angle_rate} crosses {3*L} rising do disable f_act\n";

/* Controls of every kind and events on every kind of target. */
static const char *const controlled =
    "motus-model 1\n"
    "title \"Controls and events\"\n"
    "gravity 0 -9.81 0\n"
    "solver method rk4 step 0.001 until 1 loops penalty\n"
    "ground\n  marker pivot at 0 0 0\n  marker o at 0 -2 0\nend\n"
    "body bob\n  mass 1\n  com 0 -1 0\n  inertia 1e-3 1e-3 1e-3\n  marker hinge at 0 0 0\n  marker tip at 0 -1 0\nend\n"
    "joint pin revolute bob.hinge ground.pivot\n"
    "driver d1 pin.angle disp poly 0 1\n"
    "spring s1 bob.tip ground.o k 10 length 1\n"
    "force f1 torsion pin k 1\n"
    "control c2 second input {pin.angle} k 1.5 wn 20 zeta 0.5 limit -1 1\n"
    "control c3 pid input {pin.angle} kp 1 ki 0 kd -0 tf 0.002\n"
    "control c4 lag input {c2 + c3} k -1 tau 0.5 limit -1e300 0.25\n"
    "event e1 when {c2} crosses 0.5 do enable s1\n"
    "event e2 at 0 do disable d1\n"
    "event e3 at 0.5 do break pin\n"
    "event e4 when {time} crosses 0.9 rising do disable c2\n"
    "event e5 at 1 do stop\n"
    "event e6 when {pin.angle} crosses -0 falling do enable f1\n";

/* ---- field-by-field comparison ------------------------------------------------ */

static int ndiff;
static void diff_note(const char *what, int i)
{
    mt_test_checks++;
    ndiff++;
    mt_test_fails++;
    if (ndiff <= 20) printf("FAIL round trip: %s of entity %d differs\n", what, i);
}
/* doubles compared bit for bit (-0.0 and NaN included) */
#define D(a, b, what)                                                        \
    do {                                                                     \
        if (memcmp(&(a), &(b), sizeof(double))) diff_note(what, i);          \
    } while (0)
#define DV(a, b, n, what)                                                    \
    do {                                                                     \
        for (int k_ = 0; k_ < (n); k_++) D((a)[k_], (b)[k_], what);         \
    } while (0)
#define I(a, b, what)                                                        \
    do {                                                                     \
        if ((a) != (b)) diff_note(what, i);                                  \
    } while (0)
#define S(a, b, what)                                                        \
    do {                                                                     \
        if (strcmp((a), (b))) diff_note(what, i);                            \
    } while (0)

static void compare_models(const MtModel *a, const MtModel *b)
{
    int i = 0;
    ndiff = 0;
    S(a->title, b->title, "title");
    DV(a->gravity, b->gravity, 3, "gravity");
    const MtSolverSpec *sa = &a->solver, *sb = &b->solver;
    I(sa->method, sb->method, "solver.method");
    D(sa->step, sb->step, "solver.step");
    D(sa->until, sb->until, "solver.until");
    I(sa->every, sb->every, "solver.every");
    D(sa->rtol, sb->rtol, "solver.rtol");
    D(sa->atol, sb->atol, "solver.atol");
    D(sa->stab_period, sb->stab_period, "solver.ts");
    D(sa->stab_damping, sb->stab_damping, "solver.xi");
    I((sa->correct & MT_CORRECT_POS), (sb->correct & MT_CORRECT_POS), "(solver.correct & MT_CORRECT_POS)");
    I((sa->correct & MT_CORRECT_VEL), (sb->correct & MT_CORRECT_VEL), "(solver.correct & MT_CORRECT_VEL)");
    D(sa->hht_alpha, sb->hht_alpha, "solver.alpha");
    D(sa->rho_inf, sb->rho_inf, "solver.rho");
    I(a->nbody, b->nbody, "body count");
    I(a->nmarker, b->nmarker, "marker count");
    I(a->njoint, b->njoint, "joint count");
    I(a->ndriver, b->ndriver, "driver count");
    I(a->nspring, b->nspring, "spring count");
    I(a->ncouple, b->ncouple, "coupling count");
    I(a->ninitial, b->ninitial, "initial count");
    I(a->nparam, b->nparam, "parameter count");
    I(a->nbinding, b->nbinding, "binding count");
    I(a->nunit, b->nunit, "unit count");
    I(a->nshape, b->nshape, "shape count");
    I(a->nforce, b->nforce, "force count");
    I(a->nsensor, b->nsensor, "sensor count");
    I(a->ncontrol, b->ncontrol, "control count");
    I(a->nevent, b->nevent, "event count");
    I(a->solver.loops, b->solver.loops, "loops");
    D(a->solver.loop_freq, b->solver.loop_freq, "loop_freq");
    if (ndiff) return;
    for (i = 0; i < a->nbody; i++) {
        const MtBodySpec *x = &a->body[i], *y = &b->body[i];
        S(x->name, y->name, "body.name");
        D(x->mass, y->mass, "body.mass");
        D(x->density, y->density, "body.density");
        DV(x->com, y->com, 3, "body.com");
        DV(x->inertia, y->inertia, 6, "body.inertia");
        DV(x->pos, y->pos, 3, "body.pos");
        DV(x->rot, y->rot, 9, "body.rot");
        I(x->ori.form, y->ori.form, "body.ori.form");
        DV(x->ori.w, y->ori.w, mt_orient_nwords(x->ori.form), "body.ori.w");
        DV(x->vel, y->vel, 3, "body.vel");
        DV(x->omega, y->omega, 3, "body.omega");
    }
    for (i = 0; i < a->nmarker; i++) {
        const MtMarkerSpec *x = &a->marker[i], *y = &b->marker[i];
        S(x->name, y->name, "marker.name");
        I(x->body, y->body, "marker.body");
        DV(x->pos, y->pos, 3, "marker.pos");
        DV(x->rot, y->rot, 9, "marker.rot");
        I(x->ori.form, y->ori.form, "marker.ori.form");
        DV(x->ori.w, y->ori.w, mt_orient_nwords(x->ori.form), "marker.ori.w");
    }
    for (i = 0; i < a->nshape; i++) {
        const MtShapeSpec *x = &a->shape[i], *y = &b->shape[i];
        I(x->body, y->body, "shape.body");
        I(x->kind, y->kind, "shape.kind");
        DV(x->size, y->size, 3, "shape.size");
        DV(x->pos, y->pos, 3, "shape.pos");
        DV(x->rot, y->rot, 9, "shape.rot");
        I(x->ori.form, y->ori.form, "shape.ori.form");
        DV(x->ori.w, y->ori.w, mt_orient_nwords(x->ori.form), "shape.ori.w");
        DV(x->end, y->end, 3, "shape.end");
        for (int k = 0; k < 3; k++) I(x->color[k], y->color[k], "shape.color");
        S(x->mesh, y->mesh, "shape.mesh");
    }
    for (i = 0; i < a->njoint; i++) {
        const MtJointSpec *x = &a->joint[i], *y = &b->joint[i];
        S(x->name, y->name, "joint.name");
        I(x->type, y->type, "joint.type");
        I(x->mi, y->mi, "joint.mi");
        I(x->mj, y->mj, "joint.mj");
        D(x->param, y->param, "joint.param");
    }
    for (i = 0; i < a->ndriver; i++) {
        const MtDriverSpec *x = &a->driver[i], *y = &b->driver[i];
        S(x->name, y->name, "driver.name");
        I(x->joint, y->joint, "driver.joint");
        I(x->coord, y->coord, "driver.coord");
        I(x->mi, y->mi, "driver.mi");
        I(x->mj, y->mj, "driver.mj");
        I(x->comp, y->comp, "driver.comp");
        I(x->level, y->level, "driver.level");
        I(x->kind, y->kind, "driver.kind");
        I(x->ncoef, y->ncoef, "driver.ncoef");
        DV(x->coef, y->coef, MT_POLY_MAX, "driver.coef");
        I(x->ntab, y->ntab, "driver.ntab");
        if (x->ntab == y->ntab) DV(x->tab, y->tab, 2 * x->ntab, "driver.tab");
        S(x->expr, y->expr, "driver.expr");
    }
    for (i = 0; i < a->ncouple; i++) {
        const MtCoupleSpec *x = &a->couple[i], *y = &b->couple[i];
        S(x->name, y->name, "coupling.name");
        I(x->kind, y->kind, "coupling.kind");
        I(x->n, y->n, "coupling.n");
        for (int k = 0; k < x->n; k++) {
            I(x->joint[k], y->joint[k], "coupling.joint");
            I(x->coord[k], y->coord[k], "coupling.coord");
            D(x->coef[k], y->coef[k], "coupling.coef");
        }
    }
    for (i = 0; i < a->nspring; i++) {
        const MtSpringSpec *x = &a->spring[i], *y = &b->spring[i];
        S(x->name, y->name, "spring.name");
        I(x->mi, y->mi, "spring.mi");
        I(x->mj, y->mj, "spring.mj");
        D(x->k, y->k, "spring.k");
        D(x->c, y->c, "spring.c");
        D(x->length, y->length, "spring.length");
        D(x->preload, y->preload, "spring.preload");
        S(x->curve, y->curve, "spring.curve");
    }
    for (i = 0; i < a->nforce; i++) {
        const MtForceSpec *x = &a->force[i], *y = &b->force[i];
        S(x->name, y->name, "force.name");
        I(x->kind, y->kind, "force.kind");
        I(x->mi, y->mi, "force.mi");
        I(x->mj, y->mj, "force.mj");
        I(x->joint, y->joint, "force.joint");
        I(x->geom, y->geom, "force.geom");
        const char *const *pn = mt_force_param_names(x->kind);
        for (int q = 0; pn[q]; q++) D(x->p[q], y->p[q], "force.p");
        for (int c = 0; c < 6; c++) S(x->expr[c], y->expr[c], "force.expr");
    }
    for (i = 0; i < a->nsensor; i++) {
        const MtSensorSpec *x = &a->sensor[i], *y = &b->sensor[i];
        S(x->name, y->name, "sensor.name");
        I(x->kind, y->kind, "sensor.kind");
        I(x->mi, y->mi, "sensor.mi");
        I(x->mj, y->mj, "sensor.mj");
        I(x->mframe, y->mframe, "sensor.mframe");
        I(x->comp, y->comp, "sensor.comp");
        I(x->joint, y->joint, "sensor.joint");
        I(x->part, y->part, "sensor.part");
        I(x->body, y->body, "sensor.body");
        I(x->energy, y->energy, "sensor.energy");
        S(x->unit, y->unit, "sensor.unit");
        S(x->expr, y->expr, "sensor.expr");
        I(x->force, y->force, "sensor.force");
        I(x->spring, y->spring, "sensor.spring");
        I(x->coord, y->coord, "sensor.coord");
    }
    I(a->ntable, b->ntable, "table count");
    for (i = 0; i < a->ntable && i < b->ntable; i++) {
        const MtTableSpec *x = &a->table[i], *y = &b->table[i];
        S(x->name, y->name, "table.name");
        I(x->n, y->n, "table.n");
        if (x->n == y->n) {
            DV(x->x, y->x, x->n, "table.x");
            DV(x->y, y->y, x->n, "table.y");
        }
    }
    for (i = 0; i < a->ncontrol; i++) {
        const MtControlSpec *x = &a->control[i], *y = &b->control[i];
        S(x->name, y->name, "control.name");
        I(x->kind, y->kind, "control.kind");
        S(x->input, y->input, "control.input");
        S(x->setpoint, y->setpoint, "control.setpoint");
        DV(x->p, y->p, 6, "control.p");
        I(x->disabled, y->disabled, "control.disabled");
    }
    for (i = 0; i < a->nevent; i++) {
        const MtEventSpec *x = &a->event[i], *y = &b->event[i];
        S(x->name, y->name, "event.name");
        I(x->trigger, y->trigger, "event.trigger");
        D(x->time, y->time, "event.time");
        S(x->expr, y->expr, "event.expr");
        D(x->value, y->value, "event.value");
        I(x->direction, y->direction, "event.direction");
        I(x->action, y->action, "event.action");
        I(x->target_kind, y->target_kind, "event.target_kind");
        I(x->target, y->target, "event.target");
    }
    for (i = 0; i < a->ninitial; i++) {
        const MtInitialSpec *x = &a->initial[i], *y = &b->initial[i];
        I(x->joint, y->joint, "initial.joint");
        I(x->coord, y->coord, "initial.coord");
        I(x->has_value, y->has_value, "initial.has_value");
        I(x->has_rate, y->has_rate, "initial.has_rate");
        if (x->has_value) D(x->value, y->value, "initial.value");
        if (x->has_rate) D(x->rate, y->rate, "initial.rate");
    }
    for (i = 0; i < a->nparam; i++) {
        const MtParamSpec *x = &a->param[i], *y = &b->param[i];
        S(x->name, y->name, "parameter.name");
        S(x->expr, y->expr, "parameter.expr");
        S(x->unit, y->unit, "parameter.unit");
        D(x->value, y->value, "parameter.value");
    }
    for (i = 0; i < a->nbinding; i++) {
        const MtBinding *x = &a->binding[i], *y = &b->binding[i];
        I(x->kind, y->kind, "binding.kind");
        if (x->kind != MT_ENT_GRAVITY && x->kind != MT_ENT_SOLVER) I(x->index, y->index, "binding.index");
        S(x->field, y->field, "binding.field");
        S(x->expr, y->expr, "binding.expr");
    }
    for (i = 0; i < a->nunit; i++) {
        S(a->unit[i].quantity, b->unit[i].quantity, "unit.quantity");
        S(a->unit[i].unit, b->unit[i].unit, "unit.unit");
    }
}

/* ---- round trips ------------------------------------------------------------------- */

static void test_every_field(void)
{
    printf("-- every entity and field\n");
    MtModel *m = parse_or_die(every);
    /* a negative zero must survive (SQLite REAL columns would make it +0) */
    CHECK(signbit(m->body[0].com[2]) && m->body[0].com[2] == 0, "the model has com.z = -0");
    CHECK(m->nshape == 6 && m->nforce == 8 && m->nsensor == 15 && m->nbinding >= 8 && m->nunit == 2 && m->ncontrol == 2 &&
              m->nevent == 2 && m->ntable == 1 && m->table[0].n == 4,
          "every kind is present (shapes %d, forces %d, sensors %d, bindings %d, controls %d, events %d)", m->nshape, m->nforce,
          m->nsensor, m->nbinding, m->ncontrol, m->nevent);
    CHECK(m->solver.loops == MT_LOOPS_MLF && m->solver.loop_freq == 500, "loops mlf, nu 500");
    CHECK(m->control[0].kind == MT_CONTROL_PID && m->control[0].p[4] == -20 && m->control[0].p[5] == 20 &&
              m->control[1].kind == MT_CONTROL_LAG && isinf(m->control[1].p[2]) && m->control[1].disabled,
          "a limited PID and an unlimited, disabled lag");
    CHECK(m->event[0].trigger == MT_EVENT_AT && m->event[0].action == MT_ACTION_LOCK && m->event[0].target_kind == MT_TARGET_JOINT &&
              m->joint[m->event[0].target].type == MT_JOINT_REVOLUTE && m->event[1].trigger == MT_EVENT_CROSSES &&
              m->event[1].action == MT_ACTION_DISABLE && m->event[1].target_kind == MT_TARGET_FORCE,
          "an event at a time locking a revolute joint, one on a crossing disabling a force");
    const char *p = tpath("every.motus");
    MtError err = {0};
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    CHECK(s != NULL, "create: %s", err.msg);
    long v = 0;
    CHECK(mt_store_save_model(s, m, &v, &err) == MT_OK && v == 1, "save: version %ld %s", v, err.msg);
    MtModel *b = mt_store_load_model(s, &v, &err);
    CHECK(b && v == 1, "load: %s", err.msg);
    if (b) {
        compare_models(m, b);
        CHECK(ndiff == 0, "every field equal after save and load (%d differ)", ndiff);
        CHECK(signbit(b->body[0].com[2]), "-0 kept");
        char *t1 = mt_test_model_text(m), *t2 = mt_test_model_text(b);
        CHECK(!strcmp(t1, t2), "canonical text identical after the round trip");
        CHECK(strstr(t2, "  orientation axis 0 0 {1} {0.35*L}\n") && strstr(t2, " z 1 {2*L} 0 x 0 0 1") &&
                  strstr(t2, " quat 0.9 {0.2*L} 0.2 0.3\n"),
              "orientations typed with expressions come back as typed");
        free(t1);
        free(t2);
        mt_model_free(b);
    }
    /* the version counts saves */
    CHECK(mt_store_save_model(s, m, &v, &err) == MT_OK && v == 2, "second save is version 2 (%ld)", v);
    CHECK(mt_store_model_version(s, &err) == 2, "model version read back");
    mt_store_close(s);
    /* a fresh handle sees the same */
    s = mt_store_open(p, 0, &err);
    b = s ? mt_store_load_model(s, &v, &err) : NULL;
    CHECK(b && v == 2, "reopened: version %ld %s", v, err.msg);
    if (b) {
        compare_models(m, b);
        CHECK(ndiff == 0, "equal after reopening");
        mt_model_free(b);
    }
    /* plot layouts */
    CHECK(mt_store_save_plot(s, "energy", "{\"curves\": [\"system.energy\"]}", &err) == MT_OK, "save plot");
    CHECK(mt_store_save_plot(s, "energy", "{\"curves\": [\"system.kinetic\"]}", &err) == MT_OK, "replace plot");
    char *lay = mt_store_load_plot(s, "energy", &err);
    CHECK(lay && !strcmp(lay, "{\"curves\": [\"system.kinetic\"]}"), "plot layout read back");
    free(lay);
    CHECK(mt_store_delete_plot(s, "energy", &err) == MT_OK && !mt_store_load_plot(s, "energy", &err), "plot deleted");
    /* an invalid model is refused and changes nothing */
    MtModel *bad = mt_model_copy(m);
    bad->body[1].mass = -1;
    bad->body[1].density = 0;
    MtStatus rc = mt_store_save_model(s, bad, &v, &err);
    printf("invalid save: %s\n", err.msg);
    CHECK(rc != MT_OK && strstr(err.msg, "disc") && strstr(err.msg, "mass"), "invalid model refused naming the body");
    CHECK(mt_store_model_version(s, &err) == 2, "version unchanged by the refused save");
    mt_model_free(bad);
    mt_store_close(s);
    mt_model_free(m);
    /* what the file holds: names of the text format, NULL for settings of
     * other kinds, for absent limits and for the other trigger's fields */
    sqlite3 *db = raw_open(p, 1);
    CHECK(raw_int(db, "SELECT count(*) FROM solver WHERE loops = 'mlf' AND nu = 500") == 1, "solver.loops and solver.nu");
    CHECK(raw_int(db, "SELECT count(*) FROM controls WHERE name = 'c_pid' AND kind = 'pid' AND setpoint = '0.1*L' AND kp = 50"
                      " AND ki = 5 AND kd = 0.5 AND tf = 0.01 AND k IS NULL AND tau IS NULL AND wn IS NULL AND zeta IS NULL"
                      " AND lo = -20 AND hi = 20 AND disabled = 0") == 1,
          "the PID row");
    CHECK(raw_int(db, "SELECT count(*) FROM controls WHERE name = 'c_lag' AND kind = 'lag' AND input = 'c_pid' AND k = 2"
                      " AND tau = 0.05 AND kp IS NULL AND lo IS NULL AND hi IS NULL AND disabled = 1") == 1,
          "the lag row (no limits: NULL)");
    CHECK(raw_int(db, "SELECT count(*) FROM events e JOIN joints j ON j.id = e.joint_id WHERE e.name = 'e_lock' AND e.kind = 'at'"
                      " AND e.time = 0.25 AND e.expr IS NULL AND e.action = 'lock' AND j.name = 'j_rev'"
                      " AND e.force_id IS NULL AND e.spring_id IS NULL AND e.driver_id IS NULL AND e.control_id IS NULL") == 1,
          "the event at a time refers to its joint");
    CHECK(raw_int(db, "SELECT count(*) FROM events e JOIN forces f ON f.id = e.force_id WHERE e.name = 'e_off'"
                      " AND e.kind = 'crosses' AND e.time IS NULL AND e.expr = 'j_rev.angle_rate' AND e.value = 1.5"
                      " AND e.direction = 'rising' AND e.action = 'disable' AND f.name = 'f_act' AND e.joint_id IS NULL") == 1,
          "the event on a crossing refers to its force element");
    sqlite3_close(db);
}

static void test_controls_events(void)
{
    printf("-- controls of every kind, events on every kind of target\n");
    MtModel *m = parse_or_die(controlled);
    CHECK(m->ncontrol == 3 && m->nevent == 6 && m->solver.loops == MT_LOOPS_PENALTY && m->solver.loop_freq == 0,
          "the model (controls %d, events %d)", m->ncontrol, m->nevent);
    CHECK(signbit(m->control[1].p[2]) && signbit(m->event[5].value), "kd = -0 and a crossing of -0");
    const char *p = tpath("controlled.motus");
    MtError err = {0};
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    CHECK(s && mt_store_save_model(s, m, NULL, &err) == MT_OK, "saved: %s", err.msg);
    MtModel *b = s ? mt_store_load_model(s, NULL, &err) : NULL;
    CHECK(b != NULL, "loaded: %s", err.msg);
    if (b) {
        compare_models(m, b);
        CHECK(ndiff == 0, "every field equal after save and load (%d differ)", ndiff);
        CHECK(signbit(b->control[1].p[2]) && signbit(b->event[5].value), "-0 kept");
        int kinds = 0;
        for (int i = 0; i < b->nevent; i++) kinds |= 1 << b->event[i].target_kind;
        CHECK(kinds == 0x3f, "targets none, joint, force, spring, driver and control (%#x)", kinds);
        char *t1 = mt_test_model_text(m), *t2 = mt_test_model_text(b);
        CHECK(!strcmp(t1, t2), "canonical text identical after the round trip");
        free(t1);
        free(t2);
        mt_model_free(b);
    }
    /* removing the controls and events removes their rows */
    MtModel *plain = mt_model_copy(m);
    plain->ncontrol = plain->nevent = 0;
    plain->solver.loops = MT_LOOPS_BAUMGARTE;
    CHECK(s && mt_store_save_model(s, plain, NULL, &err) == MT_OK, "saved without controls and events: %s", err.msg);
    b = s ? mt_store_load_model(s, NULL, &err) : NULL;
    CHECK(b && b->ncontrol == 0 && b->nevent == 0 && b->solver.loops == MT_LOOPS_BAUMGARTE, "none loaded");
    mt_model_free(b);
    mt_model_free(plain);
    CHECK(s && mt_store_save_model(s, m, NULL, &err) == MT_OK, "saved with them again: %s", err.msg);
    mt_store_close(s);
    mt_model_free(m);
    /* the file refuses what the model could not mean */
    sqlite3 *db = raw_open(p, 0);
    raw_exec(db, "PRAGMA foreign_keys = ON");
    static const char *const refused[][2] = {
        {"UPDATE solver SET loops = 'magic'", "an unknown loops method"},
        {"UPDATE solver SET nu = -1", "a negative nu"},
        {"INSERT INTO controls(name, kind, input) VALUES ('x', 'pi', 'time')", "an unknown kind of control"},
        {"INSERT INTO controls(name, kind, input, k, tau) VALUES ('x', 'pid', 'time', 1, 1)", "a PID without its gains"},
        {"INSERT INTO controls(name, kind, input, k, tau, kp) VALUES ('x', 'lag', 'time', 1, 1, 3)", "a lag with a PID gain"},
        {"INSERT INTO controls(name, kind, input, k, tau) VALUES ('x', 'lag', 'time', 1, 0)", "a lag with tau = 0"},
        {"INSERT INTO controls(name, kind, input, k, wn, zeta, lo, hi) VALUES ('x', 'second', 'time', 1, 1, 1, 2, 1)",
         "limits the wrong way round"},
        {"INSERT INTO controls(name, kind, input, k, tau) VALUES ('c2', 'lag', 'time', 1, 1)", "a second control c2"},
        {"INSERT INTO events(name, kind, time, action) VALUES ('x', 'at', 1, 'explode')", "an unknown action"},
        {"INSERT INTO events(name, kind, time, action) VALUES ('x', 'when', 1, 'stop')", "an unknown trigger"},
        {"INSERT INTO events(name, kind, time, expr, action) VALUES ('x', 'at', 1, 'time', 'stop')", "an event at a time with an expression"},
        {"INSERT INTO events(name, kind, expr, value, action) VALUES ('x', 'crosses', 'time', 1, 'stop')", "a crossing without direction"},
        {"INSERT INTO events(name, kind, time, action, force_id) VALUES ('x', 'at', 1, 'stop', 1)", "stop with a target"},
        {"INSERT INTO events(name, kind, time, action) VALUES ('x', 'at', 1, 'lock')", "lock without a joint"},
        {"INSERT INTO events(name, kind, time, action, force_id) VALUES ('x', 'at', 1, 'break', 1)", "break of a force element"},
        {"INSERT INTO events(name, kind, time, action, joint_id) VALUES ('x', 'at', 1, 'enable', 1)", "enable of a joint"},
        {"INSERT INTO events(name, kind, time, action, force_id, spring_id) VALUES ('x', 'at', 1, 'enable', 1, 1)", "two targets"},
        {"INSERT INTO events(name, kind, time, action, control_id) VALUES ('x', 'at', 1, 'enable', 99)", "a missing control"},
        {"INSERT INTO events(name, kind, time, action) VALUES ('x', 'at', -1, 'stop')", "a negative time"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
        CHECK(sqlite3_exec(db, refused[k][0], NULL, NULL, NULL) != SQLITE_OK, "refused by the file: %s", refused[k][1]);
    CHECK(sqlite3_exec(db, "INSERT INTO events(name, kind, time, action, control_id) VALUES ('x', 'at', 1, 'enable', 1)", NULL, NULL,
                       NULL) == SQLITE_OK,
          "while a well-formed event is accepted");
    sqlite3_close(db);
}

/* Changes the project file p with sql behind the store's back, then opens it
 * and loads its model: NULL when refused (err says why, and is printed). The
 * store is left open in *sp for further checks. */
static MtModel *edit_and_load(const char *p, const char *sql, MtStore **sp, MtError *err)
{
    sqlite3 *db = raw_open(p, 0);
    raw_exec(db, sql);
    sqlite3_close(db);
    *sp = mt_store_open(p, 0, err);
    MtModel *m = *sp ? mt_store_load_model(*sp, NULL, err) : NULL;
    printf("message: %s\n", err->msg);
    return m;
}

static void test_load_messages(void)
{
    printf("-- loading checks every row and names the entity\n");
    const char *p = tpath("msgs.motus");
    MtModel *m = parse_or_die(every);
    MtError err = {0};
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    mt_store_save_model(s, m, NULL, &err);
    mt_store_close(s);
    mt_model_free(m);
    m = edit_and_load(p, "UPDATE bodies SET mass = 'heavy' WHERE name = 'slider'", &s, &err);
    CHECK(!m && strstr(err.msg, "bodies") && strstr(err.msg, "slider") && strstr(err.msg, "'mass'"),
          "a text in a number column: the table, row and column are named");
    mt_store_close(s);
    m = edit_and_load(p, "UPDATE bodies SET mass = 0.5 WHERE name = 'slider';"
                          "UPDATE springs SET name = 'j_rev' WHERE name = 's1'", &s, &err);
    CHECK(!m && strstr(err.msg, "spring 'j_rev'"), "a spring named like a joint: the spring is named");
    mt_store_close(s);
    m = edit_and_load(p, "UPDATE springs SET name = 's1' WHERE name = 'j_rev'; PRAGMA foreign_keys = OFF;"
                          "UPDATE joints SET marker_i = 999 WHERE name = 'j_cyl'", &s, &err);
    CHECK(!m && strstr(err.msg, "j_cyl") && strstr(err.msg, "marker_i"), "a dangling reference: joint and column named");
    CHECK(mt_store_check(s, &err) != MT_OK && strstr(err.msg, "joints"), "check finds the broken reference: %s", err.msg);
    mt_store_close(s);
    m = edit_and_load(p, "PRAGMA foreign_keys = OFF; UPDATE joints SET marker_i = 3 WHERE name = 'j_cyl';"
                          "UPDATE joints SET type = 'hinge' WHERE name = 'j_uni'", &s, &err);
    CHECK(!m && strstr(err.msg, "j_uni") && strstr(err.msg, "'type' holds the unknown name 'hinge'"), "an unknown joint type is named");
    mt_store_close(s);
    m = edit_and_load(p, "UPDATE joints SET type = 'universal' WHERE name = 'j_uni';"
                          "UPDATE markers SET orientation = 'quat 0.9 0.1 0.2' WHERE name = 'p'", &s, &err);
    CHECK(!m && strstr(err.msg, "markers") && strstr(err.msg, "'orientation' is not an orientation") && strstr(err.msg, "quat 0.9 0.1 0.2"),
          "an orientation with a word missing: table, column and text named");
    mt_store_close(s);
    /* the vocabulary tables refuse unknown kinds */
    sqlite3 *db = raw_open(p, 0);
    raw_exec(db, "UPDATE markers SET orientation = 'quat 0.9 0.1 0.2 0.3' WHERE name = 'p';"
                 "PRAGMA foreign_keys = ON; UPDATE joints SET type = 'universal' WHERE name = 'j_uni'");
    int rc = sqlite3_exec(db, "UPDATE joints SET type = 'hinge' WHERE name = 'j_rev'", NULL, NULL, NULL);
    CHECK(rc != SQLITE_OK, "an unknown joint type is refused by the file itself");
    rc = sqlite3_exec(db, "UPDATE bodies SET mass = -1 WHERE name = 'wheel'", NULL, NULL, NULL);
    CHECK(rc != SQLITE_OK, "a negative mass is refused by the file itself");
    sqlite3_close(db);
    /* controls and events: a row written past the file's checks makes the file damaged */
    db = raw_open(p, 0);
    raw_exec(db, "PRAGMA ignore_check_constraints = ON; UPDATE controls SET tau = NULL WHERE name = 'c_lag'");
    sqlite3_close(db);
    s = mt_store_open(p, 0, &err);
    printf("message: %s\n", err.msg);
    CHECK(!s && strstr(err.msg, "damaged") && strstr(err.msg, "controls"), "a lag without tau: the file is refused, the table named");
    mt_store_close(s);
    m = edit_and_load(p, "UPDATE controls SET tau = 0.05 WHERE name = 'c_lag'; PRAGMA foreign_keys = OFF;"
                          "UPDATE events SET joint_id = 999 WHERE name = 'e_lock'", &s, &err);
    CHECK(!m && strstr(err.msg, "events") && strstr(err.msg, "e_lock") && strstr(err.msg, "'joint_id' refers to a row that does not exist"),
          "an event on a missing joint: event and column named");
    mt_store_close(s);
    m = edit_and_load(p, "UPDATE events SET joint_id = 1 WHERE name = 'e_lock';"
                          "UPDATE controls SET name = 's_pos' WHERE name = 'c_lag'", &s, &err);
    CHECK(!m && strstr(err.msg, "control 's_pos'"), "a control named like a sensor: the control is named");
    mt_store_close(s);
    /* a column renamed by another program: what is missing named, and what to do */
    m = edit_and_load(p, "UPDATE controls SET name = 'c_lag' WHERE name = 's_pos';"
                          "ALTER TABLE springs RENAME COLUMN curve TO law", &s, &err);
    CHECK(!m && strstr(err.msg, "not as Motus writes them") && strstr(err.msg, "curve") && strstr(err.msg, "backup"),
          "a renamed column: the file's tables said to be changed, the column named, a backup suggested");
    mt_store_close(s);
}

static void test_examples(void)
{
    printf("-- text -> project -> text for every example\n");
    const char *src = getenv("MOTUS_SOURCE_DIR");
    if (!src) {
        printf("MOTUS_SOURCE_DIR not set: examples skipped\n");
        return;
    }
    char dir[600];
    snprintf(dir, sizeof dir, "%s/projects", src);
    DIR *d = opendir(dir);
    CHECK(d != NULL, "projects/ readable");
    if (!d) return;
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 10 || strcmp(e->d_name + len - 10, ".motus.txt")) continue;
        char path[900];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        MtError err = {0};
        MtModel *m = mt_model_load(path, &err);
        CHECK(m != NULL, "%s loads: %s", e->d_name, err.msg);
        if (!m) continue;
        const char *p = tpath("example.motus");
        rm_project(p);
        MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
        MtModel *b = NULL;
        if (s && mt_store_save_model(s, m, NULL, &err) == MT_OK) b = mt_store_load_model(s, NULL, &err);
        mt_store_close(s);
        CHECK(b != NULL, "%s through a project: %s", e->d_name, err.msg);
        if (b) {
            char *t1 = mt_test_model_text(m), *t2 = mt_test_model_text(b);
            CHECK(!strcmp(t1, t2), "%s: text -> project -> text identical", e->d_name);
            compare_models(m, b);
            CHECK(ndiff == 0, "%s: every field equal", e->d_name);
            free(t1);
            free(t2);
            mt_model_free(b);
        }
        mt_model_free(m);
        n++;
    }
    closedir(d);
    printf("%d examples\n", n);
    CHECK(n >= 2, "the examples were found");
}

/* ---- runs ------------------------------------------------------------------------------ */

static MtModel *big_model(int n);

typedef struct {
    MtRun *run;
    MtCsv *csv;
    int ncol;
    double *vals; /* frames × ncol, as computed during the run */
    long n, cap;
} Capture;

static int capture(void *user, MtState *st)
{
    Capture *c = user;
    if (mt_store_run_frame(c->run, st)) return 1;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 256;
        c->vals = realloc(c->vals, sizeof(double) * (size_t)c->cap * (size_t)c->ncol);
    }
    mt_frame_values(c->csv, st, c->vals + (size_t)c->n * (size_t)c->ncol);
    c->n++;
    return 0;
}

static void test_runs(void)
{
    printf("-- runs: frames stored, read back, columns recomputed\n");
    const char *p = tpath("runs.motus");
    MtError err = {0};
    MtModel *m = parse_or_die(pendulum);
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    mt_store_save_model(s, m, NULL, &err);
    mt_store_set_chunk_frames(s, 16); /* several chunks and a partial last one */
    MtSystem *sys = mt_system_compile(m, &err);
    if (sys && mt_system_assemble(sys, &err)) { mt_system_free(sys); sys = NULL; }
    MtState *st = mt_state_new(sys, &err);
    Capture cap = {0};
    cap.csv = mt_csv_new(sys, NULL, &err);
    cap.ncol = mt_csv_ncols(cap.csv);
    cap.run = mt_store_run_begin(s, sys, &sys->solver, &err);
    CHECK(cap.run != NULL, "run begun: %s", err.msg);
    long id1 = mt_store_run_id(cap.run);
    MtRunInfo ri;
    CHECK(mt_store_run_info(s, id1, &ri, &err) == MT_OK && ri.status == MT_RUN_RUNNING && ri.writer_alive == 1,
          "a run is 'running' while it computes, its writer alive");
    MtRunStats stats;
    MtStatus rc = mt_run(st, &sys->solver, capture, &cap, NULL, &stats, &err);
    CHECK(rc == MT_OK, "run: %s", err.msg);
    CHECK(mt_store_run_log(cap.run, "info", 0.5, "half way", &err) == MT_OK, "log line");
    CHECK(mt_store_run_end(cap.run, MT_OK, "", &err) == MT_OK, "run ended: %s", err.msg);
    CHECK(mt_store_run_info(s, id1, &ri, &err) == MT_OK, "info");
    CHECK(ri.status == MT_RUN_FINISHED && ri.frames == cap.n && ri.frames == stats.frames && ri.ended[0] && ri.started[0],
          "finished with %ld frames (expected %ld), started %s, ended %s", ri.frames, cap.n, ri.started, ri.ended);
    CHECK(ri.model_version == 1 && ri.solver.method == MT_METHOD_DP54 && ri.solver.step == 0.01 && ri.solver.rtol == 1e-10,
          "solver settings and model version recorded");
    CHECK(ri.nbody == 1 && ri.nrow == 5 && ri.frame_len == MT_FRAME_LEN(1, 5) && ri.chunk_frames == 16, "frame layout recorded");
    CHECK_ABS(ri.t_first, 0, 0, "first frame time");
    CHECK_ABS(ri.t_last, 1, 1e-12, "last frame time");

    /* frames read back and every result column recomputed from them */
    MtFrameReader *fr = mt_frames_open(s, id1, &err);
    CHECK(fr && mt_frames_count(fr) == cap.n, "reader sees every frame");
    MtSystem *sys2 = mt_store_run_system(s, id1, &err);
    CHECK(sys2 != NULL, "the run's own model compiles: %s", err.msg);
    MtState *st2 = mt_state_new(sys2, &err);
    MtCsv *csv2 = mt_csv_new(sys2, NULL, &err);
    double *v2 = calloc((size_t)cap.ncol, sizeof(double));
    double worst = 0;
    long exact = 0, total = 0;
    for (long f = 0; fr && f < cap.n; f++) {
        const double *fv = mt_frames_get(fr, f, &err);
        if (!fv) {
            CHECK(0, "frame %ld: %s", f, err.msg);
            break;
        }
        mt_state_from_frame(st2, fv, 1, 5, &err);
        mt_frame_values(csv2, st2, v2);
        const double *v1 = cap.vals + (size_t)f * (size_t)cap.ncol;
        for (int k = 0; k < cap.ncol; k++) {
            double d = fabs(v1[k] - v2[k]) / (1 + fabs(v1[k]));
            if (d > worst) worst = d;
            exact += v1[k] == v2[k];
            total++;
        }
    }
    printf("columns recomputed from frames: %ld of %ld values bit-identical, worst relative difference %.3g\n", exact, total, worst);
    CHECK(worst <= 1e-12, "result columns from stored frames equal those of the run");
    const double *bad = fr ? mt_frames_get(fr, cap.n, &err) : NULL;
    CHECK(!bad && strstr(err.msg, "no frame"), "a frame past the end is refused: %s", err.msg);

    /* a sensor added after the run: computed from its frames with the current model */
    MtModel *m3 = parse_or_die(pendulum_tip);
    MtSystem *sys3 = mt_system_compile(m3, &err);
    if (sys3 && mt_system_assemble(sys3, &err)) { mt_system_free(sys3); sys3 = NULL; }
    MtState *st3 = mt_state_new(sys3, &err);
    MtCsv *csv3 = mt_csv_new(sys3, NULL, &err);
    int kcol = -1;
    for (int k = 0; k < mt_csv_ncols(csv3); k++)
        if (!strcmp(mt_csv_colname(csv3, k), "tip_y")) kcol = k;
    CHECK(kcol >= 0, "the new sensor is a column");
    double *v3 = calloc((size_t)mt_csv_ncols(csv3), sizeof(double)), werr = 0;
    for (long f = 0; fr && kcol >= 0 && f < cap.n; f++) {
        const double *fv = mt_frames_get(fr, f, &err);
        if (mt_state_from_frame(st3, fv, 1, 5, &err)) break;
        mt_frame_values(csv3, st3, v3);
        werr = fmax(werr, fabs(v3[kcol] - fv[MT_FRAME_Q(1) + 1])); /* the tip is the centre of mass */
    }
    CHECK_ABS(werr, 0, 1e-12, "sensor added after the run = stored centre of mass y");
    MtSystem *other = mt_test_system("motus-model 1\nbody a\n marker m at 0 0 0\nend\nbody b\nend\n");
    MtState *sto = mt_state_new(other, &err);
    CHECK(mt_state_from_frame(sto, mt_frames_get(fr, 0, &err), 1, 5, &err) != MT_OK, "frames of another layout are refused: %s",
          err.msg);
    mt_state_free(sto);
    mt_system_free(other);
    free(v3);
    mt_csv_free(csv3);
    mt_state_free(st3);
    mt_system_free(sys3);
    mt_model_free(m3);
    free(v2);
    mt_csv_free(csv2);
    mt_state_free(st2);
    mt_system_free(sys2);
    mt_frames_close(fr);

    /* a failed run, a second finished one; delete; compact */
    MtRun *r2 = mt_store_run_begin(s, sys, &sys->solver, &err);
    double q[7] = {0, 0, 0, 1, 0, 0, 0}, u[6] = {0}, acc[6] = {0}, lam[5] = {0};
    for (int f = 0; f < 40; f++) mt_store_run_add(r2, 0.01 * f, q, u, acc, lam, &err);
    long id2 = mt_store_run_id(r2);
    mt_store_run_end(r2, MT_ERR_SOLVE, "solver: the solution became non-finite at t = 0.4 s", &err);
    CHECK(mt_store_run_info(s, id2, &ri, &err) == MT_OK && ri.status == MT_RUN_FAILED && strstr(ri.message, "non-finite") &&
              ri.frames == 40,
          "a failed run keeps its message and frames");
    mt_store_set_chunk_frames(s, 256);
    MtRun *r3 = mt_store_run_begin(s, sys, &sys->solver, &err);
    for (int f = 0; f < 20000; f++) {
        q[0] = f;
        mt_store_run_add(r3, 1e-3 * f, q, u, acc, lam, &err);
    }
    long id3 = mt_store_run_id(r3);
    mt_store_run_end(r3, MT_OK, "", &err);
    MtRunInfo *list;
    int n = mt_store_list_runs(s, &list, &err);
    CHECK(n == 3 && list[0].id == id1 && list[1].id == id2 && list[2].id == id3 && list[2].frames == 20000, "three runs listed");
    free(list);
    struct stat a, b;
    stat(p, &a);
    CHECK(mt_store_delete_run(s, id3, &err) == MT_OK, "delete run");
    CHECK(mt_store_run_info(s, id3, &ri, &err) != MT_OK && strstr(err.msg, "no run"), "deleted run is gone");
    CHECK(mt_store_delete_run(s, id3, &err) != MT_OK, "deleting it again fails: %s", err.msg);
    CHECK(mt_store_compact(s, &err) == MT_OK, "compact: %s", err.msg);
    stat(p, &b);
    printf("file %lld bytes before deleting and compacting, %lld after\n", (long long)a.st_size, (long long)b.st_size);
    CHECK(b.st_size < a.st_size / 2, "compacting gave the space back");
    CHECK(mt_store_check(s, &err) == MT_OK, "integrity after compacting");
    r3 = mt_store_run_begin(s, sys, &sys->solver, &err);
    CHECK(r3 && mt_store_run_id(r3) > id3, "run ids are not reused");
    mt_store_run_end(r3, MT_OK, "", &err);
    n = mt_store_list_runs(s, &list, &err);
    CHECK(n == 3, "runs 1, 2 and the new one");
    free(list);
    /* large frames: chunks stay within 1 MiB */
    MtModel *bm = big_model(1000);
    MtSystem *bs = mt_system_compile(bm, &err);
    if (bs && mt_system_assemble(bs, &err)) { mt_system_free(bs); bs = NULL; }
    CHECK(bs != NULL, "1000-body chain compiles: %s", err.msg);
    if (bs) {
        MtRun *rb = mt_store_run_begin(s, bs, &bs->solver, &err);
        int fl = MT_FRAME_LEN(bs->nbody, bs->nrow);
        double *fq = calloc((size_t)fl, sizeof(double));
        for (int f = 0; f < 12; f++) {
            fq[0] = f;
            mt_store_run_add(rb, f, fq, fq, fq, fq, &err);
            CHECK(mt_store_run_buffered(rb) * fl * 8 <= (1 << 20), "frame %d: at most 1 MiB buffered", f);
        }
        long idb = mt_store_run_id(rb);
        mt_store_run_end(rb, MT_OK, "", &err);
        CHECK(mt_store_run_info(s, idb, &ri, &err) == MT_OK && ri.chunk_frames == (1 << 20) / (8 * fl) && ri.frames == 12,
              "%d doubles per frame: %d frames per chunk", fl, ri.chunk_frames);
        MtFrameReader *br = mt_frames_open(s, idb, &err);
        const double *b11 = br ? mt_frames_get(br, 11, &err) : NULL;
        CHECK(b11 && b11[0] == 11 && b11[1] == 11, "last large frame read back");
        mt_frames_close(br);
        free(fq);
        mt_system_free(bs);
    }
    mt_model_free(bm);
    mt_store_close(s);
    free(cap.vals);
    mt_csv_free(cap.csv);
    mt_state_free(st);
    mt_system_free(sys);
    mt_model_free(m);
}

/* 10⁶ frames of a pendulum-sized system: bounded memory, write and read speed. */
static void test_million(void)
{
    printf("-- 10^6 frames\n");
    const char *p = tpath("million.motus");
    MtError err = {0};
    MtModel *m = parse_or_die(pendulum);
    MtSystem *sys = mt_system_compile(m, &err);
    if (sys && mt_system_assemble(sys, &err)) { mt_system_free(sys); sys = NULL; }
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    mt_store_save_model(s, m, NULL, &err);
    FILE *cr = fopen("/proc/self/clear_refs", "w"); /* resets VmHWM to the current RSS */
    if (cr) {
        fputs("5", cr);
        fclose(cr);
    }
    long rss0 = vm_kib("VmRSS"), hwm0 = vm_kib("VmHWM");
    const long N = 1000000;
    double q[7], u[6], acc[6], lam[5];
    MtRun *r = mt_store_run_begin(s, sys, &sys->solver, &err);
    int maxbuf = 0;
    double t0 = now_s();
    for (long i = 0; i < N; i++) {
        double x = (double)i;
        for (int k = 0; k < 7; k++) q[k] = x + k;
        for (int k = 0; k < 6; k++) u[k] = -x - k, acc[k] = 0.5 * x + k;
        for (int k = 0; k < 5; k++) lam[k] = 2 * x + k;
        if (mt_store_run_add(r, 1e-3 * x, q, u, acc, lam, &err)) {
            CHECK(0, "frame %ld: %s", i, err.msg);
            break;
        }
        if (mt_store_run_buffered(r) > maxbuf) maxbuf = mt_store_run_buffered(r);
    }
    long id = mt_store_run_id(r);
    CHECK(mt_store_run_end(r, MT_OK, "", &err) == MT_OK, "end: %s", err.msg);
    double tw = now_s() - t0;
    long hwm1 = vm_kib("VmHWM");
    struct stat sb;
    stat(p, &sb);
    printf("wrote %ld frames (%d doubles each) in %.2f s: %.0f frames/s, %.0f MB/s; file %.1f MB, %.1f bytes per frame\n", N,
           MT_FRAME_LEN(1, 5), tw, N / tw, N * 8.0 * MT_FRAME_LEN(1, 5) / tw / 1e6, sb.st_size / 1e6, (double)sb.st_size / N);
    printf("memory: VmRSS %ld KiB before, peak VmHWM %ld KiB (was %ld), growth %ld KiB; writer held at most %d frames\n", rss0,
           hwm1, hwm0, hwm1 - (hwm0 > rss0 ? hwm0 : rss0), maxbuf);
    CHECK(maxbuf <= MT_STORE_CHUNK_FRAMES, "the writer holds at most one chunk");
#ifdef __SANITIZE_ADDRESS__
    printf("(AddressSanitizer keeps freed memory in quarantine: the memory bound is not checked)\n");
#else
    CHECK(hwm1 - (hwm0 > rss0 ? hwm0 : rss0) < 16 * 1024, "peak memory grew by less than 16 MiB while writing 200 MB");
#endif

    MtFrameReader *fr = mt_frames_open(s, id, &err);
    CHECK(fr && mt_frames_count(fr) == N, "all frames committed");
    /* random access: one chunk read per frame */
    uint64_t seed = 12345;
    int bad = 0;
    const int R = 5000;
    t0 = now_s();
    for (int j = 0; j < R && fr; j++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        long i = (long)((seed >> 33) % (uint64_t)N);
        const double *f = mt_frames_get(fr, i, &err);
        double x = (double)i;
        if (!f || f[0] != 1e-3 * x || f[1] != x || f[7] != x + 6 || f[8] != -x || f[14] != 0.5 * x || f[20] != 2 * x ||
            f[24] != 2 * x + 4)
            bad++;
    }
    double tr = (now_s() - t0) / R;
    CHECK(bad == 0, "random frames read back exactly (%d wrong)", bad);
    /* in order: each chunk read once */
    t0 = now_s();
    double sum = 0;
    for (long i = 0; i < N && fr; i++) {
        const double *f = mt_frames_get(fr, i, &err);
        if (!f) {
            bad++;
            break;
        }
        sum += f[0];
    }
    double ts = (now_s() - t0) / N;
    CHECK(bad == 0 && fabs(sum - 1e-3 * (double)N * (N - 1) / 2) < 1e-3, "every frame read in order");
    /* early, middle and late frames cost the same */
    double tpos[3];
    long at[3] = {0, N / 2, N - 1};
    for (int k = 0; k < 3; k++) {
        t0 = now_s();
        for (int j = 0; j < 200; j++) {
            mt_frames_close(fr);
            fr = mt_frames_open(s, id, &err);
            mt_frames_get(fr, at[k] - (j % 2), &err);
        }
        tpos[k] = (now_s() - t0) / 200;
    }
    printf("read: random frame %.1f us, in order %.3f us per frame (%.0f frames/s); opening a reader and reading frame 0 / "
           "N/2 / N-1: %.1f / %.1f / %.1f us\n",
           tr * 1e6, ts * 1e6, 1 / ts, tpos[0] * 1e6, tpos[1] * 1e6, tpos[2] * 1e6);
    CHECK(tpos[2] < 5 * tpos[0] + 50e-6, "reading the last frame costs about as much as the first");
    mt_frames_close(fr);
    mt_store_close(s);
    rm_project(p);
    mt_system_free(sys);
    mt_model_free(m);
}

/* ---- migration --------------------------------------------------------------------------- */

static void column_set(sqlite3 *db, const char *table, char *out, size_t n)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info('%s') ORDER BY name", table);
    sqlite3_stmt *st;
    out[0] = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL)) return;
    size_t len = 0;
    while (sqlite3_step(st) == SQLITE_ROW && len < n)
        len += (size_t)snprintf(out + len, n - len, "%s ", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
}

/* Every table of a new project has the same columns in db. */
static void same_tables_as_fresh(sqlite3 *db)
{
    const char *fresh_path = tpath("fresh.motus");
    rm_project(fresh_path);
    MtError err = {0};
    MtStore *fresh = mt_store_open(fresh_path, MT_STORE_CREATE, &err);
    mt_store_close(fresh);
    sqlite3 *dbf = raw_open(fresh_path, 1);
    sqlite3_stmt *tl;
    sqlite3_prepare_v2(dbf, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", -1, &tl,
                       NULL);
    int ntab = 0, same = 0;
    while (sqlite3_step(tl) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(tl, 0);
        char c1[2048], c2[2048];
        column_set(dbf, t, c1, sizeof c1);
        column_set(db, t, c2, sizeof c2);
        ntab++;
        if (!strcmp(c1, c2)) same++;
        else printf("table %s: fresh [%s] migrated [%s]\n", t, c1, c2);
    }
    sqlite3_finalize(tl);
    CHECK(ntab >= 20 && same == ntab, "every table of a fresh project has the same columns after migration (%d of %d)", same, ntab);
    sqlite3_close(dbf);
}

/* A flexible body: its spec, the marker nodes and its reduction saved in the
 * project (the mesh is not needed to open it again); runs hold the modal
 * coordinates, and every result column is computed again from the frames. */
static void test_flexible(void)
{
    printf("-- flexible bodies: reduction stored with the project, modal coordinates in the frames\n");
    const char *mesh = tpath("arm.inp"), *p = tpath("flex.motus");
    FILE *f = fopen(mesh, "w");
    fprintf(f, "*NODE\n");
    for (int i = 0; i <= 8; i++) fprintf(f, "%d, %.17g, 0, 0\n", i + 1, 0.5 * i / 8);
    fprintf(f, "*ELEMENT, TYPE=B31, ELSET=ARM\n");
    for (int i = 1; i <= 8; i++) fprintf(f, "%d, %d, %d\n", i, i, i + 1);
    fprintf(f, "*MATERIAL, NAME=AL\n*ELASTIC\n7e10, 0.33\n*DENSITY\n2700\n"
               "*BEAM SECTION, ELSET=ARM, MATERIAL=AL, SECTION=RECT\n0.02, 0.01\n0, 1, 0\n");
    fclose(f);
    char text[2048];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nsolver method dp54 step 0.005 until 0.2 rtol 1e-9 atol 1e-12\n"
             "ground\n marker o\nend\n"
             "body arm\n flexible mesh \"%s\" method cb modes 3 zeta 0.02\n marker pin node 1\n marker tip at 0.5 0 0\nend\n"
             "body arm2\n flexible beam length 0.4 elements 6 section tube 0.02 0.016 E 2.1e11 nu 0.3 rho 7850 modes 2 stiffening\n"
             " position 0.5 0 0\n marker a node 1\nend\n"
             "joint pin revolute arm.pin ground.o\njoint elbow revolute arm2.a arm.tip\n"
             "sensor bend deformation arm.tip component y\n", mesh);
    MtModel *m = parse_or_die(text);
    MtError err = {0};
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    CHECK(s && mt_store_save_model(s, m, NULL, &err) == MT_OK, "a model with two flexible bodies saved: %s", err.msg);
    mt_store_close(s);
    remove(mesh); /* the project must not need the mesh any more */
    s = mt_store_open(p, 0, &err);
    MtModel *b = s ? mt_store_load_model(s, NULL, &err) : NULL;
    CHECK(b != NULL, "loaded without the mesh file: %s", err.msg);
    if (!b) {
        mt_model_free(m);
        mt_store_close(s);
        return;
    }
    char *t1 = mt_test_model_text(m), *t2 = mt_test_model_text(b);
    CHECK(!strcmp(t1, t2), "canonical text identical after the round trip");
    free(t1);
    free(t2);
    CHECK(b->nflex == 2 && b->flex[0].data && b->flex[1].data, "both reductions came with the project");
    if (b->nflex == 2 && b->flex[0].data) {
        const MtFlexBody *x = m->flex[0].data->body, *y = b->flex[0].data->body;
        int same = x->nmode == y->nmode && x->nif == y->nif && !memcmp(x->freq, y->freq, sizeof(double) * (size_t)x->nmode) &&
                   !memcmp(x->if_H, y->if_H, sizeof(double) * 6 * (size_t)x->nif * (size_t)x->nmode) && x->mass == y->mass;
        CHECK(same, "the stored reduction is bit-identical (%d modes, %d interface nodes)", y->nmode, y->nif);
        CHECK(b->body[0].mass == m->body[0].mass && !memcmp(b->body[0].inertia, m->body[0].inertia, sizeof m->body[0].inertia),
              "mass properties from the FE model kept");    }
    if (b->nflex == 2 && b->flex[1].data) {
        const MtFlexBody *x = m->flex[1].data->body, *y = b->flex[1].data->body;
        size_t nk = (size_t)MT_FLEX_NKG * (size_t)x->nmode * (size_t)x->nmode;
        CHECK(b->flex[1].stiffening && x->Kg && y->Kg && !memcmp(x->Kg, y->Kg, sizeof(double) * nk),
              "geometric stiffening kept, its matrices bit-identical");
    }
    /* a run stores w, ẇ, ẅ; columns recomputed from frames match the run's own */
    MtSystem *sys = mt_system_compile(b, &err);
    if (sys && mt_system_assemble(sys, &err)) { mt_system_free(sys); sys = NULL; }
    MtState *st = sys ? mt_state_new(sys, &err) : NULL;
    CHECK(sys && st && sys->nmodal > 0, "compiles: %d modal coordinates (%s)", sys ? sys->nmodal : -1, err.msg);
    if (st) {
        Capture cap = {0};
        cap.csv = mt_csv_new(sys, NULL, &err);
        cap.ncol = mt_csv_ncols(cap.csv);
        cap.run = mt_store_run_begin(s, sys, &sys->solver, &err);
        MtRunStats stats;
        CHECK(mt_run(st, &sys->solver, capture, &cap, NULL, &stats, &err) == MT_OK, "run: %s", err.msg);
        long id = mt_store_run_id(cap.run);
        mt_store_run_end(cap.run, MT_OK, "", &err);
        MtRunInfo ri;
        mt_store_run_info(s, id, &ri, &err);
        CHECK(ri.nmodal == sys->nmodal && ri.frame_len == MT_FRAME_LEN_FLEX(sys->nbody, sys->nrow, sys->nmodal),
              "frames of %d doubles with %d modal coordinates", ri.frame_len, ri.nmodal);
        MtFrameReader *fr = mt_frames_open(s, id, &err);
        MtSystem *sys2 = mt_store_run_system(s, id, &err);
        CHECK(fr && sys2, "frames and the run's model: %s", err.msg);
        double worst = 0, wmax = 0;
        if (fr && sys2) {
            MtState *st2 = mt_state_new(sys2, &err);
            MtCsv *csv2 = mt_csv_new(sys2, NULL, &err);
            double *v2 = calloc((size_t)cap.ncol, sizeof(double));
            for (long k = 0; k < cap.n; k++) {
                const double *fv = mt_frames_get(fr, k, &err);
                if (!fv || mt_state_from_frame(st2, fv, sys2->nbody, sys2->nrow, &err)) break;
                mt_frame_values(csv2, st2, v2);
                const double *v1 = cap.vals + (size_t)k * (size_t)cap.ncol;
                for (int c = 0; c < cap.ncol; c++) {
                    double d = fabs(v1[c] - v2[c]) / (1 + fabs(v1[c]));
                    if (d > worst) {
                        worst = d;
                        if (d > 1e-12) printf("     frame %ld column %s: %.17g against %.17g\n", k, mt_csv_colname(cap.csv, c), v1[c], v2[c]);
                    }
                }
                wmax = fmax(wmax, fabs(fv[MT_FRAME_MODAL(sys2->nbody, sys2->nrow)]));
            }
            free(v2);
            mt_csv_free(csv2);
            mt_state_free(st2);
        }
        CHECK(wmax > 0, "the modal coordinates in the frames move (max |w1| = %.3g)", wmax);
        CHECK_ABS(worst, 0, 1e-12, "every column (sensors and modal coordinates too) recomputed from the stored frames");
        mt_frames_close(fr);
        mt_system_free(sys2);
        free(cap.vals);
        mt_csv_free(cap.csv);
    }
    mt_state_free(st);
    mt_system_free(sys);
    mt_model_free(b);
    mt_model_free(m);
    mt_store_close(s);
}

static void test_migration(void)
{
    printf("-- a version 1 project is migrated\n");
    const char *p = tpath("v1.motus");
    sqlite3 *db = raw_open(p, 0);
    raw_exec(db, "BEGIN");
    for (int i = 0; mt_store_schema_v1_sql(i); i++) raw_exec(db, mt_store_schema_v1_sql(i));
    raw_exec(db,
             "INSERT INTO joint_types VALUES ('revolute', 5); INSERT INTO solver_methods VALUES ('rk4'), ('dp54');"
             "INSERT INTO entity_kinds VALUES ('body');"
             "INSERT INTO project(id, title, gravity_x, gravity_y, gravity_z, model_version, created)"
             " VALUES (1, 'Old pendulum', 0, -9.81, 0, 7, '2026-01-01T00:00:00.000Z');"
             "INSERT INTO solver VALUES (1, 'dp54', 0.01, 1.0, 1, 1e-9, 1e-11, 0.1, 1.0, 'none', -0.05, 0.8);"
             "INSERT INTO bodies VALUES (0, 'ground', 0, 0, 0,0,0, 0,0,0,0,0,0, 0,0,0, 1,0,0,0,1,0,0,0,1, 0,0,0, 0,0,0);"
             "INSERT INTO bodies VALUES (1, 'bob', 2.0, 0, 0,-1,0, 1e-3,1e-3,1e-3,0,0,0, 0,0,0, 1,0,0,0,1,0,0,0,1, 0,0,0, 0,0,0);"
             "INSERT INTO markers VALUES (1, 0, 'pivot', 0,0,0, 1,0,0,0,1,0,0,0,1);"
             "INSERT INTO markers VALUES (2, 1, 'hinge', 0,0,0, 1,0,0,0,1,0,0,0,1);"
             "INSERT INTO joints VALUES (1, 'pin', 'revolute', 2, 1, 0);"
             "INSERT INTO springs VALUES (1, 'spr', 2, 1, 10, 0, 0.5, 0);"
             "INSERT INTO parameters VALUES (1, 'm', '2', 2.0, 'kg');"
             "INSERT INTO bindings VALUES (1, 'body', 1, 'mass', 'm');"
             "INSERT INTO runs(id, status, message, model_version, model_text, method, step, until, every, rtol, atol, ts, xi,"
             " correct, alpha, rho, started, ended, nbody, nrow, frame_doubles, chunk_frames, frames, t_first, t_last)"
             " VALUES (1, 'finished', '', 7, 'motus-model 1', 'dp54', 0.01, 1, 1, 1e-9, 1e-11, 0.1, 1, 'none', -0.05, 0.8,"
             " '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', 1, 5, 25, 256, 2, 0, 0.01);"
             "INSERT INTO runs(id, status, message, model_version, model_text, method, step, until, every, rtol, atol, ts, xi,"
             " correct, alpha, rho, started, nbody, nrow, frame_doubles, chunk_frames, frames)"
             " VALUES (2, 'running', '', 7, 'motus-model 1', 'dp54', 0.01, 1, 1, 1e-9, 1e-11, 0.1, 1, 'none', -0.05, 0.8,"
             " '2026-01-01T00:00:03.000Z', 1, 5, 25, 256, 0);");
    double frames[50];
    for (int k = 0; k < 50; k++) frames[k] = k;
    frames[25] = 0.01;
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "INSERT INTO run_frames VALUES (1, 0, 2, 0, 0.01, ?1)", -1, &st, NULL);
    sqlite3_bind_blob(st, 1, frames, sizeof frames, SQLITE_STATIC);
    CHECK(sqlite3_step(st) == SQLITE_DONE, "v1 frames inserted");
    sqlite3_finalize(st);
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d", MT_STORE_APPLICATION_ID);
    raw_exec(db, sql);
    raw_exec(db, "PRAGMA user_version = 1; COMMIT");
    sqlite3_close(db);

    long len0;
    char *before = read_file(p, &len0);
    MtError err = {0};
    MtStore *s = mt_store_open(p, MT_STORE_READONLY, &err);
    printf("read-only: %s\n", err.msg);
    CHECK(!s && strstr(err.msg, "older project format 1"), "read-only opening of an old format asks for an upgrade");
    long len1;
    char *after = read_file(p, &len1);
    CHECK(len0 == len1 && !memcmp(before, after, (size_t)len0), "the old file is unchanged by that");
    free(before);
    free(after);

    s = mt_store_open(p, 0, &err);
    CHECK(s != NULL, "opened for writing: %s", err.msg);
    if (!s) return;
    CHECK(mt_store_recovered_runs(s) == 1, "the old 'running' run (no writer recorded) is marked interrupted");
    long v = 0;
    MtModel *m = mt_store_load_model(s, &v, &err);
    CHECK(m && v == 7 && m->nbody == 1 && m->njoint == 1 && m->nspring == 1 && !strcmp(m->spring[0].curve, "") &&
              m->nbinding == 1 && m->body[0].mass == 2,
          "the old model loads after the migration: %s", err.msg);
    CHECK(m && !strcmp(m->title, "Old pendulum"), "title kept");
    MtRunInfo ri;
    CHECK(mt_store_run_info(s, 1, &ri, &err) == MT_OK && ri.status == MT_RUN_FINISHED && ri.frames == 2, "old run kept");
    MtFrameReader *fr = mt_frames_open(s, 1, &err);
    const double *f = fr ? mt_frames_get(fr, 1, &err) : NULL;
    CHECK(f && f[0] == 0.01 && f[24] == 49, "old frames read");
    mt_frames_close(fr);
    CHECK(mt_store_run_info(s, 2, &ri, &err) == MT_OK && ri.status == MT_RUN_INTERRUPTED, "run 2 interrupted");
    /* the migrated file works like a new one */
    if (m) {
        m->body[0].mass = 3;
        mt_model_bind(m, MT_ENT_BODY, 0, "mass", "1.5*m", &err);
        CHECK(mt_store_save_model(s, m, &v, &err) == MT_OK && v == 8, "saving into the migrated file: %s", err.msg);
        mt_model_free(m);
    }
    CHECK(mt_store_check(s, &err) == MT_OK, "integrity of the migrated file");
    mt_store_close(s);
    db = raw_open(p, 1);
    CHECK(raw_int(db, "PRAGMA user_version") == MT_STORE_SCHEMA_VERSION, "user_version is now %d", MT_STORE_SCHEMA_VERSION);
    same_tables_as_fresh(db);
    sqlite3_close(db);
}

/* What a version 3 project could hold: no named tables, load sensors or
 * elastic energies (and, before version 3, no controls, events or loops). */
static void strip_to_version(MtModel *m, int version)
{
    /* before version 10 no driver's law was an expression (d_expr, the last driver, goes) */
    CHECK(m->ndriver > 0 && m->driver[m->ndriver - 1].kind == MT_DRIVER_EXPR, "version %d: the expression driver removed", version);
    m->ndriver--;
    /* before version 7 no orientation was typed with expressions (the rotations stay) */
    int nb0 = m->nbinding;
    for (int i = 0; i < m->nbody; i++) mt_model_orient_clear(m, MT_ENT_BODY, i);
    for (int i = 0; i < m->nmarker; i++) mt_model_orient_clear(m, MT_ENT_MARKER, i);
    for (int i = 0; i < m->nshape; i++) mt_model_orient_clear(m, MT_ENT_SHAPE, i);
    CHECK(nb0 - m->nbinding == 4, "version %d: the 4 bindings of orientations removed (%d)", version, nb0 - m->nbinding);
    if (version >= 6) return;
    /* before version 6 no shape, control, event or loop frequency was bound to an expression (the values stay) */
    int nb = 0;
    for (int k = 0; k < m->nbinding; k++)
        if (m->binding[k].kind < MT_ENT_SHAPE && !(m->binding[k].kind == MT_ENT_SOLVER && !strcmp(m->binding[k].field, "nu")))
            m->binding[nb++] = m->binding[k];
    CHECK(m->nbinding - nb == 9, "version %d: the 9 bindings of shapes, controls, events and nu removed (%d)", version,
          m->nbinding - nb);
    m->nbinding = nb;
    if (version >= 4) return; /* version 4 lacks only geometric stiffening, which 'every' does not use */
    mt_model_free_tables(m);
    int n = 0;
    for (int k = 0; k < m->nsensor; k++)
        if (m->sensor[k].kind != MT_SENSOR_FORCE && m->sensor[k].kind != MT_SENSOR_ANGLE && m->sensor[k].kind != MT_SENSOR_JOINT &&
            !(m->sensor[k].kind == MT_SENSOR_ENERGY && m->sensor[k].energy == 3))
            m->sensor[n++] = m->sensor[k];
    m->nsensor = n;
    for (int k = 0; k < m->nparam; k++) /* a parameter that read a table */
        if (strstr(m->param[k].expr, "cam")) snprintf(m->param[k].expr, sizeof m->param[k].expr, "0.5");
    if (version < 3) {
        m->ncontrol = m->nevent = 0;
        m->solver.loops = MT_LOOPS_BAUMGARTE;
        m->solver.loop_freq = 0;
    }
    MtError err = {0};
    CHECK(mt_model_eval_params(m, &err) == MT_OK, "the version %d model evaluates: %s", version, err.msg);
}

/* A version 2, 3 or 4 file, made with the statements of that version and filled
 * with the rows of a current project (the tables the version had; version 2:
 * the solver without loops and nu), is migrated to the current version. */
static void test_migration_old(int version)
{
    printf("-- a version %d project is migrated\n", version);
    MtModel *full = parse_or_die(every), *old = parse_or_die(every);
    strip_to_version(old, version);
    char srcname[32], dstname[32];
    snprintf(srcname, sizeof srcname, "v%d-source.motus", version);
    snprintf(dstname, sizeof dstname, "v%d.motus", version);
    const char *src = tpath(srcname), *p = tpath(dstname);
    MtError err = {0};
    MtStore *s = mt_store_open(src, MT_STORE_CREATE, &err);
    CHECK(s && mt_store_save_model(s, old, NULL, &err) == MT_OK, "source saved: %s", err.msg);
    mt_store_close(s);

    sqlite3 *db = raw_open(p, 0);
    char sql[1024];
    snprintf(sql, sizeof sql, "ATTACH '%s' AS src", src);
    raw_exec(db, sql);
    raw_exec(db, "BEGIN");
    int nstmt = 0;
    const char *(*schema)(int) = version == 2   ? mt_store_schema_v2_sql
                                 : version == 3 ? mt_store_schema_v3_sql
                                 : version == 4 ? mt_store_schema_v4_sql
                                 : version == 5 ? mt_store_schema_v5_sql
                                                : mt_store_schema_v6_sql;
    for (; schema(nstmt); nstmt++) raw_exec(db, schema(nstmt));
    if (version == 2)
        CHECK(raw_int(db, "SELECT count(*) FROM sqlite_schema WHERE name IN ('controls', 'events')") == 0 &&
                  raw_int(db, "SELECT count(*) FROM pragma_table_info('solver') WHERE name IN ('loops', 'nu')") == 0,
              "version 2 has no controls, events, loops or nu (%d statements)", nstmt);
    if (version < 4)
        CHECK(raw_int(db, "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'lookup_table%'") == 0 &&
                  raw_int(db, "SELECT count(*) FROM pragma_table_info('sensors') WHERE name IN ('force_id', 'spring_id')") == 0,
              "version %d has no named tables and no load sensors", version);
    else if (version == 4)
        CHECK(raw_int(db, "SELECT count(*) FROM pragma_table_info('flexible_bodies') WHERE name = 'stiffening'") == 0,
              "version 4 has no geometric stiffening");
    CHECK(raw_int(db, "SELECT count(*) FROM pragma_table_info('bodies') WHERE name = 'orientation'") +
                  raw_int(db, "SELECT count(*) FROM pragma_table_info('markers') WHERE name = 'orientation'") +
                  raw_int(db, "SELECT count(*) FROM pragma_table_info('shapes') WHERE name = 'orientation'") ==
              0,
          "version %d keeps no orientation as typed", version);
    sqlite3_stmt *tl;
    sqlite3_prepare_v2(db, "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", -1, &tl, NULL);
    int ncopied = 0;
    while (sqlite3_step(tl) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(tl, 0);
        if (version < 4 && !strcmp(t, "flexible_bodies")) continue; /* reserved and empty until version 4 */
        /* the columns version 2 had (later versions added some) */
        char q[256], cols[1024] = "";
        snprintf(q, sizeof q, "SELECT group_concat(name, ', ') FROM pragma_table_info('%s', 'main')", t);
        sqlite3_stmt *ci;
        sqlite3_prepare_v2(db, q, -1, &ci, NULL);
        if (sqlite3_step(ci) == SQLITE_ROW && sqlite3_column_text(ci, 0))
            snprintf(cols, sizeof cols, "%s", (const char *)sqlite3_column_text(ci, 0));
        sqlite3_finalize(ci);
        char ins[3200];
        snprintf(ins, sizeof ins, "INSERT INTO main.%s(%s) SELECT %s FROM src.%s", t, cols, cols, t);
        raw_exec(db, ins);
        ncopied++;
    }
    sqlite3_finalize(tl);
    if (version < 6) /* the entity kinds of version 6 */
        raw_exec(db, "DELETE FROM main.entity_kinds WHERE name IN ('shape', 'control', 'event')");
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d", MT_STORE_APPLICATION_ID);
    raw_exec(db, sql);
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d; COMMIT; DETACH src", version);
    raw_exec(db, sql);
    CHECK(raw_int(db, "SELECT count(*) FROM forces") == 8 && raw_int(db, "SELECT model_version FROM project") == 1,
          "version %d file made (%d tables)", version, ncopied);
    sqlite3_close(db);

    s = mt_store_open(p, MT_STORE_READONLY, &err);
    printf("read-only: %s\n", err.msg);
    char older[32];
    snprintf(older, sizeof older, "older project format %d", version);
    CHECK(!s && strstr(err.msg, older), "read-only opening of format %d asks for an upgrade", version);
    s = mt_store_open(p, 0, &err);
    CHECK(s != NULL, "opened for writing: %s", err.msg);
    if (!s) {
        mt_model_free(full);
        mt_model_free(old);
        return;
    }
    long v = 0;
    MtModel *b = mt_store_load_model(s, &v, &err);
    CHECK(b && v == 1, "the version %d model loads after the migration: %s", version, err.msg);
    if (b) {
        compare_models(old, b);
        CHECK(ndiff == 0 && (version > 2 || (b->solver.loops == MT_LOOPS_BAUMGARTE && b->solver.loop_freq == 0 && !signbit(b->solver.loop_freq))),
              "every field equal%s (%d differ)", version > 2 ? "" : "; loops baumgarte, nu 0", ndiff);
        char *t1 = mt_test_model_text(old), *t2 = mt_test_model_text(b);
        CHECK(!strcmp(t1, t2), "canonical text identical");
        free(t1);
        free(t2);
        mt_model_free(b);
    }
    /* what the old version could not hold goes into the migrated file */
    CHECK(mt_store_save_model(s, full, &v, &err) == MT_OK && v == 2, "saving every entity into it: %s", err.msg);
    b = mt_store_load_model(s, &v, &err);
    CHECK(b != NULL, "and loading them: %s", err.msg);
    if (b) {
        compare_models(full, b);
        CHECK(ndiff == 0, "every field equal (%d differ)", ndiff);
        char *t1 = mt_test_model_text(full), *t2 = mt_test_model_text(b);
        CHECK(!strcmp(t1, t2), "canonical text identical");
        free(t1);
        free(t2);
        mt_model_free(b);
    }
    CHECK(mt_store_check(s, &err) == MT_OK, "integrity of the migrated file: %s", err.msg);
    mt_store_close(s);
    db = raw_open(p, 0);
    CHECK(raw_int(db, "PRAGMA user_version") == MT_STORE_SCHEMA_VERSION, "user_version is now %d", MT_STORE_SCHEMA_VERSION);
    CHECK(sqlite3_exec(db, "UPDATE solver SET loops = 'magic'", NULL, NULL, NULL) != SQLITE_OK &&
              sqlite3_exec(db, "UPDATE solver SET nu = -1", NULL, NULL, NULL) != SQLITE_OK,
          "the added solver columns keep their checks");
    CHECK(sqlite3_exec(db, "UPDATE sensors SET component = 11", NULL, NULL, NULL) != SQLITE_OK &&
              sqlite3_exec(db, "UPDATE sensors SET force_id = NULL, spring_id = NULL WHERE kind = 'force'", NULL, NULL, NULL) !=
                  SQLITE_OK &&
              raw_int(db, "SELECT count(*) FROM sensors WHERE kind = 'force'") == 2,
          "the rebuilt sensors table keeps its checks and rows");
    same_tables_as_fresh(db);
    sqlite3_close(db);
    mt_model_free(full);
    mt_model_free(old);
}

static void test_migration_v2(void) { test_migration_old(2); }
static void test_migration_v3(void) { test_migration_old(3); }
static void test_migration_v4(void) { test_migration_old(4); }
static void test_migration_v5(void) { test_migration_old(5); }
static void test_migration_v6(void) { test_migration_old(6); }

/* ---- files that are not usable projects ------------------------------------------------------ */

static void expect_refused(const char *what, const char *path, int flags, const char *needle)
{
    long n0 = 0, n1 = 0;
    char *b0 = read_file(path, &n0);
    MtError err = {0};
    MtStore *s = mt_store_open(path, flags, &err);
    if (s) {
        /* opened: then reading the model or checking must fail */
        MtModel *m = mt_store_load_model(s, NULL, &err);
        if (m) {
            mt_model_free(m);
            if (mt_store_check(s, &err) == MT_OK) err.msg[0] = 0;
        }
        mt_store_close(s);
    }
    char *b1 = read_file(path, &n1);
    printf("%s: %s\n", what, err.msg);
    CHECK(err.msg[0] && !strchr(err.msg, '\n') && strstr(err.msg, path), "%s: refused with one line naming the file", what);
    CHECK(strstr(err.msg, needle) != NULL, "%s: the message says '%s'", what, needle);
    CHECK(n0 == n1 && (!b0 || !memcmp(b0, b1, (size_t)n0)), "%s: the file is unchanged", what);
    char side[600];
    snprintf(side, sizeof side, "%s-wal", path);
    struct stat sb;
    CHECK(stat(side, &sb) != 0 || sb.st_size == 0, "%s: no write-ahead log left with content", what);
    free(b0);
    free(b1);
}

static void make_project(const char *path, int runs)
{
    rm_project(path);
    MtError err = {0};
    MtModel *m = parse_or_die(every);
    MtStore *s = mt_store_open(path, MT_STORE_CREATE, &err);
    mt_store_save_model(s, m, NULL, &err);
    if (runs) {
        MtModel *pm = parse_or_die(pendulum);
        MtSystem *sys = mt_system_compile(pm, &err);
        if (sys && mt_system_assemble(sys, &err)) { mt_system_free(sys); sys = NULL; }
        MtRun *r = mt_store_run_begin(s, sys, &sys->solver, &err);
        double q[7] = {0}, u[6] = {0}, a[6] = {0}, l[5] = {0};
        for (int i = 0; i < 3000; i++) mt_store_run_add(r, i * 1e-3, q, u, a, l, &err);
        mt_store_run_end(r, MT_OK, "", &err);
        mt_system_free(sys);
        mt_model_free(pm);
    }
    mt_store_close(s);
    mt_model_free(m);
}

static void test_bad_files(void)
{
    printf("-- files that are not usable projects\n");
    const char *p = tpath("bad.motus");
    FILE *f = fopen(p, "w");
    fputs("motus-model 1\nbody a\nend\n", f);
    fclose(f);
    expect_refused("a text file", p, 0, "not an SQLite database");
    expect_refused("a text file, creating", p, MT_STORE_CREATE, "not an SQLite database");

    unlink(p);
    sqlite3 *db = raw_open(p, 0);
    raw_exec(db, "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'x')");
    sqlite3_close(db);
    expect_refused("another program's database", p, 0, "another program");
    expect_refused("another program's database, creating", p, MT_STORE_CREATE, "another program");
    db = raw_open(p, 0);
    raw_exec(db, "PRAGMA application_id = 1234");
    sqlite3_close(db);
    expect_refused("a database with a foreign application id", p, 0, "0x000004d2");

    unlink(p);
    f = fopen(p, "w");
    fclose(f);
    expect_refused("an empty file", p, 0, "empty");
    MtError err = {0};
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    CHECK(s != NULL, "an empty file may become a project when creating: %s", err.msg);
    mt_store_close(s);

    make_project(p, 0);
    db = raw_open(p, 0);
    raw_exec(db, "PRAGMA user_version = 99");
    sqlite3_close(db);
    expect_refused("a newer format", p, 0, "newer Motus");
    expect_refused("a newer format, read-only", p, MT_STORE_READONLY, "newer Motus");

    make_project(p, 1);
    struct stat sb;
    stat(p, &sb);
    CHECK(truncate(p, sb.st_size / 2) == 0, "truncate");
    expect_refused("a file truncated to half", p, 0, "truncated");
    make_project(p, 1);
    stat(p, &sb);
    CHECK(truncate(p, sb.st_size / 2 / 4096 * 4096) == 0, "truncate");
    expect_refused("a file truncated to half, on a page boundary", p, 0, "truncated");
    make_project(p, 1);
    CHECK(truncate(p, 1000) == 0, "truncate");
    expect_refused("a file truncated to 1000 bytes", p, 0, "truncated");
    make_project(p, 1);
    CHECK(truncate(p, 50) == 0, "truncate");
    expect_refused("a file truncated inside its header", p, 0, "truncated");

    /* garbage over everything but the header page */
    make_project(p, 1);
    stat(p, &sb);
    int fd = open(p, O_WRONLY);
    char junk[4096];
    memset(junk, 0x5a, sizeof junk);
    for (off_t o = 4096; o < sb.st_size; o += 4096)
        if (pwrite(fd, junk, sizeof junk, o) != (ssize_t)sizeof junk) break;
    close(fd);
    expect_refused("a file overwritten with garbage", p, 0, "damaged");
    /* garbage over the first page after the 100-byte header (the schema's root) */
    make_project(p, 1);
    fd = open(p, O_WRONLY);
    CHECK(pwrite(fd, junk, 4096 - 100, 100) == 4096 - 100, "write");
    close(fd);
    expect_refused("a damaged schema page", p, 0, "damaged");
    /* a page of run frames damaged: opening works, the full check finds it */
    make_project(p, 1);
    stat(p, &sb);
    fd = open(p, O_WRONLY);
    CHECK(pwrite(fd, junk, 4096, sb.st_size - 8 * 4096) == 4096, "write");
    close(fd);
    expect_refused("damaged frames", p, 0, "damaged");

    make_project(p, 1);
    chmod(p, 0444);
    expect_refused("a read-only file", p, 0, "read-only");
    long n0, n1;
    char *b0 = read_file(p, &n0);
    s = mt_store_open(p, MT_STORE_READONLY, &err);
    MtModel *m = s ? mt_store_load_model(s, NULL, &err) : NULL;
    MtRunInfo *runs = NULL;
    int nr = s ? mt_store_list_runs(s, &runs, &err) : -1;
    CHECK(m && nr == 1, "a read-only file opens read-only: %s", err.msg);
    CHECK(s && mt_store_save_model(s, m, NULL, &err) != MT_OK && strstr(err.msg, "read-only"), "and refuses to save");
    mt_model_free(m);
    free(runs);
    mt_store_close(s);
    char *b1 = read_file(p, &n1);
    char side[600];
    snprintf(side, sizeof side, "%s-shm", p);
    CHECK(n0 == n1 && !memcmp(b0, b1, (size_t)n0) && stat(side, &sb) != 0, "reading it changed nothing, not even beside it");
    free(b0);
    free(b1);
    chmod(p, 0644);

    expect_refused("a directory", tmpdir, 0, "directory");
    s = mt_store_open(tpath("absent.motus"), 0, &err);
    CHECK(!s && strstr(err.msg, "cannot open"), "an absent file is not created without MT_STORE_CREATE: %s", err.msg);
    CHECK(access(tpath("absent.motus"), F_OK) != 0, "and nothing was created");
    rm_project(p);
}

/* ---- SIGKILL ------------------------------------------------------------------------------------ */

/* Polls a column of the project until it reaches min; -1 on timeout. */
static long long poll_value(const char *path, const char *sql, long long min, double timeout)
{
    double t0 = now_s();
    while (now_s() - t0 < timeout) {
        sqlite3 *db = NULL;
        if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
            sqlite3_busy_timeout(db, 1000);
            long long v = raw_int(db, sql);
            sqlite3_close(db);
            if (v >= min) return v;
        } else sqlite3_close(db);
        usleep(5000);
    }
    return -1;
}

static void test_kill_run(void)
{
    printf("-- SIGKILL of motus-cli during a run\n");
    const char *cli = getenv("MOTUS_CLI");
    if (!cli) {
        printf("MOTUS_CLI not set: skipped\n");
        return;
    }
    const char *p = tpath("kill-run.motus");
    MtError err = {0};
    MtModel *m = parse_or_die(pendulum);
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    mt_store_save_model(s, m, NULL, &err);
    mt_store_close(s);
    mt_model_free(m);
    static const int delays_ms[] = {0, 37, 150};
    for (int it = 0; it < 3; it++) {
        pid_t pid = fork();
        if (pid == 0) {
            int fd = open("/dev/null", O_WRONLY);
            dup2(fd, 1);
            dup2(fd, 2);
            execl(cli, cli, "run", p, "--until", "1e6", "--step", "1e-3", "--quiet", (char *)NULL);
            _exit(127);
        }
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT frames FROM runs WHERE id = (SELECT max(id) FROM runs) AND status = 'running'");
        long long fr = poll_value(p, sql, 1, 20.0);
        CHECK(fr > 0, "run %d: frames were committed while it runs (%lld)", it + 1, fr);
        usleep((useconds_t)delays_ms[it] * 1000);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "run %d: the child was killed", it + 1);
        /* reopen: integrity, status, frames */
        sqlite3 *db = raw_open(p, 1);
        sqlite3_stmt *st;
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL);
        int ok = sqlite3_step(st) == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(st, 0), "ok");
        sqlite3_finalize(st);
        sqlite3_close(db);
        CHECK(ok, "run %d: PRAGMA integrity_check is ok after the kill", it + 1);
        s = mt_store_open(p, 0, &err);
        CHECK(s != NULL, "reopened: %s", err.msg);
        if (!s) return;
        CHECK(mt_store_recovered_runs(s) == 1, "run %d: the killed run was found", it + 1);
        MtRunInfo *runs;
        int n = mt_store_list_runs(s, &runs, &err);
        CHECK(n == it + 1, "%d runs stored", n);
        if (n < 1) { /* the child never started a run (motus-cli missing?): nothing to look at */
            mt_store_close(s);
            return;
        }
        MtRunInfo *ri = &runs[n - 1];
        printf("run %ld: %s, %ld frames, t %g .. %g: %s\n", ri->id, mt_run_status_name(ri->status), ri->frames, ri->t_first,
               ri->t_last, ri->message);
        CHECK(ri->status == MT_RUN_INTERRUPTED && ri->frames > 0 && ri->message[0], "run %d: interrupted with its frames", it + 1);
        MtFrameReader *frd = mt_frames_open(s, ri->id, &err);
        long nf = frd ? mt_frames_count(frd) : 0, bad = 0;
        double tprev = -1;
        for (long i = 0; i < nf; i++) {
            const double *f = mt_frames_get(frd, i, &err);
            if (!f || !(f[0] > tprev) || !isfinite(f[4])) bad++;
            if (f) tprev = f[0];
        }
        CHECK(nf == ri->frames && bad == 0 && fabs(tprev - ri->t_last) < 1e-12, "run %d: all %ld frames read back in time order",
              it + 1, nf);
        mt_frames_close(frd);
        CHECK(mt_store_check(s, &err) == MT_OK, "check: %s", err.msg);
        MtModel *mm = mt_store_load_model(s, NULL, &err);
        CHECK(mm != NULL, "the model is intact");
        mt_model_free(mm);
        free(runs);
        mt_store_close(s);
    }
}

/* A model of n bodies on a line, each hinged to the previous one. */
static MtModel *big_model(int n)
{
    MtModel *m = mt_model_new();
    MtError err = {0};
    double z[3] = {0, 0, 0}, x[3] = {0.1, 0, 0};
    int prev = mt_model_add_marker(m, MT_GROUND, "o", z, NULL, &err);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "b%d", i);
        int b = mt_model_add_body(m, name, &err);
        m->body[b].pos[0] = 0.1 * i;
        m->body[b].com[0] = 0.05;
        int a = mt_model_add_marker(m, b, "a", z, NULL, &err);
        int t = mt_model_add_marker(m, b, "t", x, NULL, &err);
        snprintf(name, sizeof name, "j%d", i);
        mt_model_add_joint(m, name, MT_JOINT_REVOLUTE, a, prev, &err);
        prev = t;
    }
    m->gravity[1] = -9.81;
    return m;
}

static void test_kill_save(void)
{
    printf("-- SIGKILL during a loop of large saves\n");
    const char *p = tpath("kill-save.motus");
    const int NB = 1000;
    MtError err = {0};
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    mt_store_close(s);
    static const int delays_ms[] = {3, 17, 41, 89};
    for (int it = 0; it < 4; it++) {
        long v0 = 0;
        s = mt_store_open(p, MT_STORE_READONLY, &err);
        v0 = mt_store_model_version(s, &err);
        mt_store_close(s);
        pid_t pid = fork();
        if (pid == 0) { /* the child saves again and again */
            MtError e = {0};
            MtModel *m = big_model(NB);
            MtStore *cs = mt_store_open(p, 0, &e);
            if (!cs) _exit(3);
            for (;;) {
                long v = mt_store_model_version(cs, &e);
                snprintf(m->title, sizeof m->title, "save %ld", v + 1);
                m->body[v % NB].mass = 1 + (double)(v % 7);
                long nv;
                if (mt_store_save_model(cs, m, &nv, &e) || nv != v + 1) _exit(4);
            }
        }
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT model_version FROM project");
        long long got = poll_value(p, sql, v0 + 2, 30.0);
        CHECK(got >= v0 + 2, "kill %d: the child saved (version %lld)", it + 1, got);
        usleep((useconds_t)delays_ms[it] * 1000);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        CHECK(WIFSIGNALED(status), "kill %d: the child was killed in its loop (status %d)", it + 1, status);
        s = mt_store_open(p, 0, &err);
        CHECK(s != NULL, "reopened: %s", err.msg);
        if (!s) return;
        CHECK(mt_store_check(s, &err) == MT_OK, "kill %d: integrity: %s", it + 1, err.msg);
        long v = 0;
        MtModel *m = mt_store_load_model(s, &v, &err);
        char want[32];
        snprintf(want, sizeof want, "save %ld", v);
        CHECK(m && m->nbody == NB && m->njoint == NB && !strcmp(m->title, want) && m->body[(v - 1) % NB].mass == 1 + (double)((v - 1) % 7),
              "kill %d: the last committed save (version %ld) is there whole: %s", it + 1, v, m ? m->title : err.msg);
        mt_model_free(m);
        mt_store_close(s);
    }
    s = mt_store_open(p, 0, &err);
    MtModel *m = big_model(NB);
    double t0 = now_s();
    mt_store_save_model(s, m, NULL, &err);
    double tsave = now_s() - t0;
    t0 = now_s();
    MtModel *b = mt_store_load_model(s, NULL, &err);
    double tload = now_s() - t0;
    printf("model of %d bodies, %d markers, %d joints: save %.1f ms, load %.1f ms\n", NB, 2 * NB + 1, NB, 1e3 * tsave, 1e3 * tload);
    mt_model_free(b);
    mt_model_free(m);
    mt_store_close(s);
}

/* The model's plots are the project's plot layout: saved with the model, read
 * back with it; a layout that does not read leaves the model without plots. */
static void test_plots(void)
{
    printf("-- plots saved with the model\n");
    const char *p = tpath("plots.motus");
    rm_project(p);
    char text[2048];
    snprintf(text, sizeof text, "%sderived F magnitude pin.Fx pin.Fy\nderived Fs lowpass F 20\nplot pin.angle pin.wz\nplot pin.Fx Fs against pin.angle\n", pendulum);
    MtModel *m = parse_or_die(text);
    MtError err = {0};
    MtStore *s = mt_store_open(p, MT_STORE_CREATE, &err);
    CHECK(s && mt_store_save_model(s, m, NULL, &err) == MT_OK, "saved: %s", err.msg);
    char *layout = s ? mt_store_load_plot(s, "layout", &err) : NULL;
    printf("layout: %s\n", layout ? layout : "(none)");
    CHECK(layout && strstr(layout, "\"pin.wz\"") && strstr(layout, "\"x\": \"pin.angle\""),
          "the plots are the project's layout");
    free(layout);
    mt_store_close(s);
    s = mt_store_open(p, 0, &err);
    MtModel *back = s ? mt_store_load_model(s, NULL, &err) : NULL;
    CHECK(back && back->nplot == 2 && !memcmp(back->plot, m->plot, 2 * sizeof m->plot[0]), "read back the same: %s", err.msg);
    CHECK(back && back->nderived == 2 && !memcmp(back->derived, m->derived, 2 * sizeof m->derived[0]),
          "and the same derived curves (%d)", back ? back->nderived : -1);
    mt_model_free(back);
    /* the window's layout replaced by something unreadable: the model still loads, without plots */
    CHECK(s && mt_store_save_plot(s, "layout", "garbage", &err) == MT_OK, "layout overwritten");
    back = s ? mt_store_load_model(s, NULL, &err) : NULL;
    CHECK(back && back->nplot == 0, "an unreadable layout: the model loads without plots (%s)", err.msg);
    mt_model_free(back);
    mt_store_close(s);
    mt_model_free(m);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/motus-store-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    /* test_million first: its memory bound is measured from a small process */
    void (*const tests[])(void) = {test_million,   test_every_field,  test_controls_events, test_load_messages,
                                   test_examples,  test_runs,         test_migration,       test_migration_v2,     test_migration_v3, test_migration_v4, test_migration_v5, test_migration_v6,
                                   test_bad_files, test_kill_run,     test_kill_save,       test_flexible, test_plots};
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        double t0 = now_s();
        tests[i]();
        printf("(%.2f s)\n", now_s() - t0);
    }
    if (!mt_test_fails) rm_tree(tmpdir);
    else printf("files kept in %s\n", tmpdir);
    return mt_test_done();
}
