/* motus/flexedit.h — making flexible bodies the way the application does, on a
 * model and without GTK: what a mesh file holds (for the import dialog), a
 * body made flexible from a mesh, markers on its nodes or spiders, the
 * surface vertex nearest a point. None of these reduce: the caller reduces
 * afterwards with mt_model_reduce_flex_progress or
 * mt_model_flex_refresh_progress (motus/flex.h), on another thread when it
 * takes long, and commits the model to its editor (mt_editor_commit), which
 * then finds the reduction up to date. */
#ifndef MOTUS_FLEXEDIT_H
#define MOTUS_FLEXEDIT_H

#include "motus/reduce.h"
#include "motus/model.h"

/* What a mesh file holds. */
typedef struct {
    int nnode, nelem;
    int count[MT_FE_NTYPES]; /* elements per type (MtFeType) */
    int nomat;               /* elements without a material: they take the body's E, nu, rho */
    double lo[3], hi[3];     /* box around the nodes, the file's units (SI expected) */
    int nskip;               /* keywords or cards the reader skipped */
    char skipped[160];
} MtMeshInfo;

/* Reads a mesh (.msh, .inp, .bdf …) and describes it; errors name the file and line. */
MtStatus mt_flexedit_mesh_info(const char *path, MtMeshInfo *info, MtError *err);

/* A body made flexible from a mesh file. */
typedef struct {
    char name[MT_NAME_MAX];  /* "" = from the file's name */
    char file[256];          /* absolute, or relative to the model's directory */
    double E, nu, rho;       /* material of elements without one, Pa, -, kg/m³ */
    double thickness;        /* shells without a thickness, m */
    int method;              /* MtReduceMethod */
    int modes;               /* 0 … 500 */
    double zeta;             /* modal damping ratio */
    int stiffening;          /* 1: geometric stiffening (cb or guyan, beams and solids) */
    double pos[3];           /* its origin (the mesh's), project axes, m */
} MtFlexMeshDef;

/* Steel (210 GPa, 0.3, 7850 kg/m³), Craig–Bampton, 10 modes, ζ = 0.02, at the origin. */
void mt_flex_mesh_def_default(MtFlexMeshDef *d);
/* Adds the body (not reduced); returns its index, or -1 with err set (a bad
 * setting named, a name taken). An automatic name is made unique. */
int mt_flexedit_add_mesh_body(MtModel *m, const MtFlexMeshDef *d, MtError *err);
/* A marker on flexible body b: at finite-element node `label` (spider ≤ 0;
 * its position is the node's, p may be NULL), or at point p (body axes) tied
 * rigidly to every node within `spider` of it. name "" = automatic ("n123",
 * "spider1"). Returns the marker's index, or -1 with err set. */
int mt_flexedit_add_marker(MtModel *m, int b, const char *name, int label, const double p[3], double spider,
                           MtError *err);
/* Surface vertex of a reduced body nearest to p (body axes), -1 without surface. */
int mt_flexedit_nearest_vertex(const MtFlexBody *fb, const double p[3]);

#endif
