/* motus-analysis-job.c — statics, kinematics and modes on the run bridge's
 * worker (see motus-analysis-job.h). Everything here runs on the worker
 * thread and touches only the MotusAnalysis it was given and the worker's
 * own state; the GTK thread reads the results after "finished" (the join
 * orders the memory). */
#include "motus-analysis-job.h"

#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus/flex.h"
#include "motus/store.h"

MotusAnalysis *motus_analysis_new(MotusAnalysisKind kind)
{
    MotusAnalysis *a = g_new0(MotusAnalysis, 1);
    a->kind = kind;
    a->size = 1;
    return a;
}

void motus_analysis_free(MotusAnalysis *a)
{
    if (!a) return;
    mt_modes_free(a->modes);
    g_free(a->project);
    g_free(a->reaction);
    g_free(a->effort);
    g_free(a->spring);
    g_free(a->body_pos);
    g_free(a->flex_max);
    g_free(a->anim);
    g_free(a->anim_max);
    g_free(a);
}

/* What the frame does not list in one place: reactions, efforts, springs, positions, elastic maxima. */
static void collect(MotusAnalysis *a, const MtState *st)
{
    const MtModel *m = mt_system_model(mt_state_system(st));
    a->nbody = m->nbody;
    a->reaction = g_new0(double, 6 * (gsize)m->njoint + 1);
    a->effort = g_new0(double, (gsize)m->ndriver + 1);
    a->spring = g_new0(double, 2 * (gsize)m->nspring + 1);
    a->body_pos = g_new0(double, 3 * (gsize)m->nbody + 1);
    a->flex_max = g_new0(double, 2 * (gsize)m->nbody + 1);
    double Fm[3], Tm[3], rate;
    for (int j = 0; j < m->njoint; j++) mt_joint_reaction(st, j, a->reaction + 6 * j, a->reaction + 6 * j + 3, Fm, Tm);
    for (int d = 0; d < m->ndriver; d++) a->effort[d] = mt_driver_effort(st, d);
    for (int s = 0; s < m->nspring; s++) mt_state_spring(st, s, &a->spring[2 * s], &rate, &a->spring[2 * s + 1]);
    for (int b = 0; b < m->nbody; b++) {
        mt_state_body(st, b, a->body_pos + 3 * b, NULL, NULL);
        if (!mt_state_flex_elastic(st, b, &a->flex_max[2 * b], &a->flex_max[2 * b + 1]))
            a->flex_max[2 * b] = a->flex_max[2 * b + 1] = NAN;
    }
}

/* How far to displace mode k: a twentieth of the model's size (for a flexible body its RMS elastic
 * displacement: its peak is about three times that), a rotation of at most 0.25 rad. */
static double mode_amplitude(const MotusAnalysis *a, const MtMode *md, int nbody)
{
    double rot = 0;
    for (int b = 0; b < nbody; b++)
        for (int i = 3; i < 6; i++) rot = fmax(rot, hypot(md->shape_re[6 * b + i], md->shape_im[6 * b + i]));
    double amp = 0.05 * a->size;
    return rot > 0 ? fmin(amp, 0.25 / rot) : amp;
}

/* The view's modal coordinates (specs with a reduction, in order) from a configuration q. */
static void view_modal(const MtModel *m, const MtModes *md, const double *q, double *w)
{
    int off = 0;
    for (int s = 0; s < m->nflex; s++) {
        const MtFlexBody *fb = mt_model_flex_body(m, s);
        MtFlexInfo fi;
        if (!fb) continue;
        mt_flex_body_info(fb, &fi);
        int b = m->flex[s].body, n = fi.nmode;
        for (int i = 0; i < n; i++) w[off + i] = i < md->nw[b] ? q[md->nbody + md->woff[b] + i] : 0;
        off += n;
    }
}

static int view_count(const MtModel *m)
{
    int n = 0;
    for (int s = 0; s < m->nflex; s++) {
        const MtFlexBody *fb = mt_model_flex_body(m, s);
        MtFlexInfo fi;
        if (!fb) continue;
        mt_flex_body_info(fb, &fi);
        n += fi.nmode;
    }
    return n;
}

/* One period of each of the first modes, as the view draws frames: body poses from the configurations of
 * mt_modes_configuration put into the state (which turns centres of mass into body origins). */
static MtStatus animate(MotusAnalysis *a, MtState *st, const volatile int *cancel, MtError *err)
{
    const MtSystem *sys = mt_state_system(st);
    const MtModel *m = mt_system_model(sys);
    const MtModes *md = a->modes;
    MtSystemInfo in;
    mt_system_info(sys, &in);
    int nb = md->nbody, nmodal = md->nq - 7 * nb;
    a->nview = view_count(m);
    a->nanim = MIN(md->nmode, MOTUS_MODE_ANIMATED);
    gsize stride = 7 * (gsize)nb + (gsize)a->nview;
    a->anim = g_new0(double, (gsize)a->nanim * MOTUS_MODE_PHASES * stride + 1);
    a->anim_max = g_new0(double, 2 * (gsize)a->nanim + 1);
    double *q = g_new(double, md->nq), *f = g_new0(double, MT_FRAME_LEN_FLEX(nb, in.nrow, nmodal));
    MtStatus rc = MT_OK;
    for (int k = 0; k < a->nanim && !rc && !g_atomic_int_get(cancel); k++) {
        double amp = mode_amplitude(a, &md->mode[k], nb);
        for (int p = 0; p < MOTUS_MODE_PHASES && !rc; p++) {
            mt_modes_configuration(md, k, amp, 2 * G_PI * p / MOTUS_MODE_PHASES, q);
            memcpy(f + MT_FRAME_Q(nb), q, sizeof(double) * 7 * (size_t)nb);
            if (nmodal) memcpy(f + MT_FRAME_MODAL(nb, in.nrow), q + 7 * nb, sizeof(double) * (size_t)nmodal);
            rc = mt_state_from_frame(st, f, nb, in.nrow, err);
            double *out = a->anim + ((gsize)k * MOTUS_MODE_PHASES + (gsize)p) * stride;
            for (int b = 0; b < nb && !rc; b++) mt_state_body(st, b, out + 7 * b, out + 7 * b + 3, NULL);
            if (!rc) view_modal(m, md, q, out + 7 * nb);
            for (int b = 0; b < nb && !rc && a->nview && p % (MOTUS_MODE_PHASES / 4) == 0 && p <= MOTUS_MODE_PHASES / 4; b++) {
                double u = 0, s = 0; /* real shapes peak at phase 0, a quarter period later the rest */
                if (!mt_state_flex_elastic(st, b, &u, &s)) continue;
                a->anim_max[2 * k] = fmax(a->anim_max[2 * k], u);
                if (!isnan(s)) a->anim_max[2 * k + 1] = fmax(a->anim_max[2 * k + 1], s);
            }
        }
    }
    if (g_atomic_int_get(cancel)) a->nanim = 0; /* stopped: the table stays, nothing animates */
    g_free(q);
    g_free(f);
    return rc;
}

/* Modes kept in the project, read on the worker through its own handle, and the state put where they were
 * linearised (the equilibrium found again, with its reactions; or the stored configuration), so the view
 * shows it and animates them. */
static MtStatus stored_modes(MotusAnalysis *a, MtState *st, MtError *err)
{
    MtStore *store = mt_store_open(a->project, MT_STORE_READONLY, err);
    if (!store) return err->code;
    MtStatus rc = mt_store_load_modes(store, a->stored_id, &a->modes, err);
    mt_store_close(store);
    if (rc) return rc;
    const MtSystem *sys = mt_state_system(st);
    MtSystemInfo in;
    mt_system_info(sys, &in);
    const MtModes *md = a->modes;
    int nb = md->nbody, nmodal = md->nq - 7 * nb;
    if (nb != mt_system_nbody(sys) || md->njoint != mt_system_model(sys)->njoint)
        return mt_error_set(err, MT_ERR_ARG, a->project, "%s",
                            _("the stored modes belong to another version of the model: compute them again (F9)"));
    if (md->at_equilibrium) { /* the equilibrium again, with its reactions (the frame's columns need them) */
        MtStaticsInfo info;
        return mt_statics(st, NULL, &info, err);
    }
    double *f = g_new0(double, MT_FRAME_LEN_FLEX(nb, in.nrow, nmodal));
    memcpy(f + MT_FRAME_Q(nb), md->q, sizeof(double) * 7 * (size_t)nb);
    if (nmodal) memcpy(f + MT_FRAME_MODAL(nb, in.nrow), md->q + 7 * nb, sizeof(double) * (size_t)nmodal);
    rc = mt_state_from_frame(st, f, nb, in.nrow, err);
    g_free(f);
    return rc;
}

static MtStatus job(MtState *st, MtFrameFn frame, void *fu, const volatile int *cancel, gpointer data, MtError *err)
{
    MotusAnalysis *a = data;
    const MtSolverSpec *sv = mt_system_solver(mt_state_system(st));
    a->nbody = mt_system_nbody(mt_state_system(st));
    MtStatus rc = MT_OK;
    MtStaticsOptions opt = {0};
    opt.relax_first = a->relax;
    opt.cancel = cancel; /* Stop ends the equilibrium search too */
    switch (a->kind) {
    case MOTUS_ANALYSIS_KINEMATICS:
        return mt_kinematics(st, sv->until, sv->step, sv->every, frame, fu, cancel, &a->kin, err);
    case MOTUS_ANALYSIS_STATICS:
        rc = mt_statics(st, &opt, &a->statics, err);
        if (rc) return rc;
        collect(a, st);
        frame(fu, st);
        return MT_OK;
    case MOTUS_ANALYSIS_MODES:
        rc = a->stored_id ? stored_modes(a, st, err) : mt_modes_opt(st, 1, &opt, &a->modes, err);
        if (rc) return rc;
        a->statics = a->modes->statics;
        collect(a, st);
        frame(fu, st); /* the equilibrium: the view and the plots show it */
        return animate(a, st, cancel, err);
    }
    return MT_OK;
}

MotusRunJob motus_analysis_job(MotusAnalysis *a)
{
    /* a stored run says what made it (run_log) */
    static const char *const what[] = {"static equilibrium (statics)", "kinematic analysis (kinematics)", NULL};
    return (MotusRunJob){job, a, what[a->kind], a->kind != MOTUS_ANALYSIS_KINEMATICS};
}

const double *motus_analysis_mode_frame(const MotusAnalysis *a, int k, int p)
{
    if (!a || k < 0 || k >= a->nanim) return NULL;
    gsize stride = 7 * (gsize)a->nbody + (gsize)a->nview;
    return a->anim + ((gsize)k * MOTUS_MODE_PHASES + (gsize)(p % MOTUS_MODE_PHASES)) * stride;
}
