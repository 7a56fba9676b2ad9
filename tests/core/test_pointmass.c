/* Point masses (a body's point_mass setting): no rotational inertia, their
 * rotation no degree of freedom. A compound pendulum — an arm on a revolute
 * joint with a point-mass bob on a spherical joint at its tip — swings with
 * the period of a rigid pendulum of I = I_arm + m_bob L², 4√(I/(M g l))·K(sin θ0/2)
 * (AGM); the bob's frame never turns; a point mass refuses a joint that
 * would hold its rotation, and a spin. */
#include <string.h>

#include "motus/edit.h"
#include "mt_test.h"

static const double ma = 1.0, Ia = 0.05, la = 0.4, mb = 2.0, L = 0.8, g = 9.81;

typedef struct {
    int n;
    double t[20000], th[20000], thd[20000], qb[4];
} Trace;

static int record(void *user, MtState *st)
{
    Trace *tr = user;
    if (tr->n == 20000) return 1;
    tr->t[tr->n] = st->t;
    tr->th[tr->n] = mt_joint_coordinate(st, st->q, 0);
    tr->thd[tr->n] = st->u[5];
    memcpy(tr->qb, st->q + 7 + 3, sizeof tr->qb); /* the bob's quaternion */
    tr->n++;
    return 0;
}

static const char *model(char *text, size_t n, double th0, const char *bob_joint, const char *extra)
{
    double c = cos(th0), s = sin(th0);
    snprintf(text, n,
             "gravity 0 -9.81 0\n"
             "solver method dp54 step 1e-3 until 6 rtol 1e-11 atol 1e-13 ts 0.05 xi 1\n"
             "ground\n marker pivot\nend\n"
             "body arm\n mass %.17g\n com 0 %.17g 0\n inertia %.17g %.17g %.17g\n orientation axis 0 0 1 %.17g\n"
             " marker hinge\n marker tip at 0 %.17g 0\nend\n"
             "body bob\n mass %.17g\n inertia 0 0 0\n point_mass\n position %.17g %.17g 0\n%s marker c\nend\n"
             "joint pin revolute arm.hinge ground.pivot\n"
             "joint hold %s bob.c arm.tip\n",
             ma, -la, Ia, Ia, Ia, th0, -L, mb, L * s, -L * c, extra, bob_joint);
    return text;
}

int main(void)
{
    static Trace tr;
    char text[4096];
    const double th0 = 2 * M_PI / 3;
    const double I = Ia + ma * la * la + mb * L * L, Mgl = g * (ma * la + mb * L);
    const double Tex = 2 * M_PI * sqrt(I / Mgl) / mt_test_agm(1, cos(th0 / 2));

    MtSystem *s = mt_test_system(model(text, sizeof text, th0, "spherical", ""));
    MtRunStats stats;
    MtState *st = mt_test_run(s, record, &tr, &stats);
    double c[4];
    int n = mt_test_down_crossings(tr.t, tr.th, tr.thd, tr.n, c, 4);
    CHECK(n >= 3, "three downward crossings (found %d)", n);
    double T = n >= 3 ? 0.5 * (c[2] - c[0]) : NAN;
    printf("  dp54 rtol 1e-11: %ld evaluations, period %.15g s, closed form %.15g s, relative error %.2g\n", stats.evals, T,
           Tex, fabs(T - Tex) / Tex);
    CHECK_REL(T, Tex, 1e-9, "compound pendulum with a point-mass bob, 120 deg [s]");
    CHECK(tr.qb[0] == 1 && tr.qb[1] == 0 && tr.qb[2] == 0 && tr.qb[3] == 0, "the point mass never turned: q = %g %g %g %g",
          tr.qb[0], tr.qb[1], tr.qb[2], tr.qb[3]);
    mt_state_free(st);
    mt_system_free(s);

    /* what a point mass lacks is neither written nor editable: no inertia line, inertia fields read-only */
    MtError perr = {0};
    MtModel *pm = mt_model_parse(model(text, sizeof text, th0, "spherical", ""), "pm.motus.txt", &perr);
    char *out = NULL;
    size_t outlen = 0;
    FILE *mem = open_memstream(&out, &outlen);
    if (pm && mem) mt_model_write(pm, mem, &perr);
    if (mem) fclose(mem);
    const char *bob = out ? strstr(out, "body bob") : NULL;
    const char *end = bob ? strstr(bob, "\nend") : NULL;
    int has_inertia = 0;
    for (const char *c = bob; c && c < end; c++) has_inertia |= !strncmp(c, "inertia", 7);
    CHECK(bob && end && strstr(bob, "point_mass") && !has_inertia, "the bob's block has point_mass and no inertia line");
    MtFieldInfo fl[MT_FIELD_MAX];
    int nf = pm ? mt_edit_fields(pm, MT_EDIT_BODY, 1, fl, MT_FIELD_MAX) : 0, ro = 0, seen = 0;
    for (int k = 0; k < nf; k++)
        if (!strncmp(fl[k].name, "inertia.", 8)) seen++, ro += (fl[k].flags & MT_FIELD_READONLY) != 0;
    CHECK(seen == 6 && ro == 6, "the inspector shows the bob's inertia read-only (%d of %d)", ro, seen);
    free(out);
    mt_model_free(pm);

    /* refusals naming the entity */
    MtError err = {0};
    MtModel *m = mt_model_parse(model(text, sizeof text, th0, "revolute", ""), "pm.motus.txt", &err);
    MtSystem *bad = m ? mt_system_compile(m, &err) : NULL;
    CHECK(!bad && strstr(err.msg, "hold") && strstr(err.msg, "point mass"), "revolute on a point mass refused: %s", err.msg);
    mt_system_free(bad);
    mt_model_free(m);
    err = (MtError){0};
    m = mt_model_parse(model(text, sizeof text, th0, "spherical", " omega 0 0 1\n"), "pm.motus.txt", &err);
    bad = m ? mt_system_compile(m, &err) : NULL;
    CHECK(!bad && strstr(err.msg, "bob") && strstr(err.msg, "point mass"), "a spinning point mass refused: %s", err.msg);
    mt_system_free(bad);
    mt_model_free(m);
    return mt_test_done();
}
