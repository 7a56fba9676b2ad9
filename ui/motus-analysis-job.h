/* motus-analysis-job.h — the analyses of the window (statics, kinematics,
 * modes) as jobs of the run bridge's worker (MotusRunJob,
 * motus-run-bridge.h): the core's mt_statics, mt_kinematics and mt_modes on
 * the worker's own state, their frames handed on like a run's, and what a
 * frame does not carry (stability, the mode table, the modes' animation)
 * kept in a MotusAnalysis for the GTK thread to read once the bridge says
 * "finished". */
#ifndef MOTUS_ANALYSIS_JOB_H
#define MOTUS_ANALYSIS_JOB_H

#include <glib.h>

#include "motus-run-bridge.h"
#include "motus/analysis.h"

G_BEGIN_DECLS

typedef enum { MOTUS_ANALYSIS_STATICS, MOTUS_ANALYSIS_KINEMATICS, MOTUS_ANALYSIS_MODES } MotusAnalysisKind;

/* Phases of one period of an animated mode, and the modes animated at most. */
#define MOTUS_MODE_PHASES 48
#define MOTUS_MODE_ANIMATED 64

typedef struct {
    MotusAnalysisKind kind;
    gboolean relax;    /* statics: settle downhill first (motus-cli statics --relax) */
    double size;       /* the model's size, m (animated modes move about a twentieth of it) */
    /* modes: shown again from the project (not linearised): its path and the stored modes' id (0: compute) */
    char *project;
    long stored_id;
    /* results, written by the worker, read after "finished" */
    MtStaticsInfo statics; /* statics; modes: the equilibrium they are about */
    MtKinStats kin;
    MtModes *modes;
    int nbody, nrow;
    /* per joint the reaction on marker i's body (Fx Fy Fz Tx Ty Tz, project axes), per driver its
     * effort, per spring length and tension, per body its position and, for flexible bodies, the
     * largest elastic displacement and von Mises stress (NAN: no stresses) */
    double *reaction, *effort, *spring, *body_pos, *flex_max;
    /* modes: per animated mode (nanim) and phase the body poses (7·nbody) then the flexible bodies'
     * modal coordinates in the view's order (nview: specs with a reduction, in order) */
    int nanim, nview;
    double *anim;
    /* per animated mode the largest elastic displacement (m) and von Mises stress (Pa, 0 without) of its
     * flexible bodies, at the phases 0 and a quarter period: the colour map's range while it animates */
    double *anim_max;
} MotusAnalysis;

MotusAnalysis *motus_analysis_new(MotusAnalysisKind kind);
void motus_analysis_free(MotusAnalysis *a);
/* The bridge's job for a (the worker's until "finished"). */
MotusRunJob motus_analysis_job(MotusAnalysis *a);
/* Poses and modal coordinates of animated mode k at phase p (NULL when not animated). */
const double *motus_analysis_mode_frame(const MotusAnalysis *a, int k, int p);

G_END_DECLS

#endif
