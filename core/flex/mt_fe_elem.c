/* mt_fe_elem.c — dispatch of the element routines by type, and helpers
 * shared by the element families. */
#include <string.h>

#include "mt_fe_elem.h"

int mt_fe_type_ncomp(int type)
{
    return type == MT_FE_BEAM2 || type == MT_FE_TRIA3 || type == MT_FE_QUAD4 || type == MT_FE_QUAD8 ? 6 : 3;
}

int mt_fe_type_membrane(int type) { return type == MT_FE_MEM4 || type == MT_FE_MEM8; }

int mt_fe_type_prop_kind(int type)
{
    if (type == MT_FE_BEAM2) return MT_FE_PROP_BEAM;
    return type == MT_FE_TRIA3 || type == MT_FE_QUAD4 || type == MT_FE_QUAD8 || mt_fe_type_membrane(type) ? MT_FE_PROP_SHELL
                                                                                                       : MT_FE_PROP_SOLID;
}

const MtFeMaterial *mt_fe_elem_mat(const MtFeModel *m, int e) { return &m->mat[m->prop[m->elem[e].prop].mat]; }

void mt_fe_inertia_from_second_moment(double S[9])
{
    double tr = S[0] + S[4] + S[8];
    for (int i = 0; i < 9; i++) S[i] = -S[i];
    S[0] += tr, S[4] += tr, S[8] += tr;
}

int mt_fe_elem_km(const MtFeModel *m, int e, int lumped, double *K, double *M, MtError *err)
{
    double Kt[MT_FE_MAXDOF * MT_FE_MAXDOF];
    if (!K && m->elem[e].type <= MT_FE_QUAD4) K = Kt; /* beams and shells: cheap, computed anyway */
    switch (m->elem[e].type) {
    case MT_FE_BEAM2: return mt_fe_beam_km(m, e, K, M, !lumped, err);
    case MT_FE_TRIA3:
    case MT_FE_QUAD4: return mt_fe_shell_km(m, e, K, M, !lumped, err);
    case MT_FE_MEM4:
    case MT_FE_MEM8: return mt_fe_membrane_km(m, e, K, M, !lumped, err);
    case MT_FE_QUAD8: return mt_fe_shell8_km(m, e, K, M, !lumped, err);
    default: return mt_fe_solid_km(m, e, K, M, !lumped, err);
    }
}

int mt_fe_elem_inertia(const MtFeModel *m, int e, double *mass, double c[3], double Ic[9], double *w, MtError *err)
{
    int r;
    switch (m->elem[e].type) {
    case MT_FE_BEAM2: r = mt_fe_beam_inertia(m, e, mass, c, Ic, w, err); break;
    case MT_FE_TRIA3:
    case MT_FE_QUAD4: r = mt_fe_shell_inertia(m, e, mass, c, Ic, w, err); break;
    case MT_FE_MEM4:
    case MT_FE_MEM8:
    case MT_FE_QUAD8: r = mt_fe_membrane_inertia(m, e, mass, c, Ic, w, err); break;
    default: r = mt_fe_solid_inertia(m, e, mass, c, Ic, w, err); break;
    }
    if (!r) mt_fe_inertia_from_second_moment(Ic);
    return r;
}

int mt_fe_elem_stress(const MtFeModel *m, int e, const double *ue, double *sig)
{
    switch (m->elem[e].type) {
    case MT_FE_BEAM2: return 0;
    case MT_FE_TRIA3:
    case MT_FE_QUAD4: return mt_fe_shell_stress(m, e, ue, sig);
    case MT_FE_MEM4:
    case MT_FE_MEM8: return mt_fe_membrane_stress(m, e, ue, sig);
    case MT_FE_QUAD8: return mt_fe_shell8_stress(m, e, ue, sig);
    default: return mt_fe_solid_stress(m, e, ue, sig);
    }
}
