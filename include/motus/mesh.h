/* motus/mesh.h — reading finite-element meshes into an MtFeModel (issue 7):
 *
 *   Gmsh .msh        ASCII format 2.2 and 4.0/4.1: nodes, elements (line2,
 *                    tri3, quad4, tet4, tet10, hex8), physical groups as
 *                    node and element sets. Only the elements of the highest
 *                    dimension present are structural; lower-dimensional
 *                    elements (boundary faces, edges, points) only define
 *                    sets. No materials: mt_fe_default_props supplies them.
 *   Abaqus/CalculiX  .inp: *NODE, *ELEMENT (C3D4, C3D10, C3D8, S3, S4, B31,
 *                    B33, MASS, ROTARYI), *NSET, *ELSET (GENERATE), *MATERIAL
 *                    with *ELASTIC and *DENSITY, *SOLID, *SHELL and *BEAM SECTION
 *                    (RECT, CIRC, PIPE), *BEAM GENERAL SECTION, *MASS,
 *                    *ROTARY INERTIA, *BOUNDARY (zero values), *RIGID BODY,
 *                    *KINEMATIC COUPLING, *SURFACE (node-based) with *COUPLING
 *                    + *KINEMATIC or *DISTRIBUTING, *INCLUDE.
 *   Nastran bulk     .bdf/.nas/.dat: GRID, CTETRA (4/10), CHEXA (8), CQUAD4,
 *                    CTRIA3, CBAR, CBEAM, MAT1, PSOLID, PSHELL, PBAR, PBARL
 *                    (ROD, BAR, TUBE), PBEAM, CONM2, RBE2, RBE3, SPC1 (and
 *                    SPC with zero values), INCLUDE; small, large (*) and free
 *                    (comma) field format with continuations.
 *
 * Unknown keywords and cards are skipped and counted (model->nskip, their
 * names in model->skipped). Every error names the file and the line; a
 * malformed file never crashes the reader (tests/core/test_fe_mesh.c fuzzes
 * all three). */
#ifndef MOTUS_MESH_H
#define MOTUS_MESH_H

#include <stddef.h>

#include "motus/fe.h"

typedef enum { MT_MESH_AUTO, MT_MESH_MSH, MT_MESH_INP, MT_MESH_BDF } MtMeshFormat;

/* Reads a file; format from the extension (.msh, .inp, .bdf/.nas/.dat/.fem/
 * .blk) or, failing that, from the content. */
MtFeModel *mt_mesh_read(const char *path, MtError *err);
/* Reads text held in memory; name is used in messages and as the base for
 * include files (may be NULL: includes are then refused). */
MtFeModel *mt_mesh_read_text(const char *text, size_t len, const char *name, MtMeshFormat fmt, MtError *err);

/* Guesses the format of text (MT_MESH_AUTO if it cannot tell). */
MtMeshFormat mt_mesh_guess(const char *name, const char *text, size_t len);

#endif
