/* mt_fe_fix.c — supports from a text specification, shared by `motus-cli
 * reduce --fix` and the model's `flexible mesh FILE … fix SPEC` (docs/
 * flexible-bodies.md, "Supports"). A specification is NODES[:DIGITS]:
 * NODES a comma-separated list of node labels and node-set names (ALL or
 * NALL: every node, as CalculiX's NALL), DIGITS the held components in the
 * notation of Nastran's SPC cards (1 2 3 = ux uy uz, 4 5 6 = rx ry rz; no
 * digits: all six; "1-3" ranges as Abaqus's *BOUNDARY first and last DOF).
 * Several specifications are separated by ';'. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "motus/fe.h"
#include "mt_i18n.h"

/* s without leading and trailing blanks (in place). */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
    return s;
}

/* Components of a digit string, Nastran's "1235" or with Abaqus-like ranges
 * "1-3" (digits 1-6); -1 if it is not one (a set name may contain ':'). */
static int digit_mask(const char *s)
{
    int mask = 0;
    if (!*s) return -1;
    for (; *s; s++) {
        if (*s < '1' || *s > '6') return -1;
        int lo = *s - '1', hi = lo;
        if (s[1] == '-') {
            if (s[2] < '1' || s[2] > '6' || s[2] - '1' < lo) return -1;
            hi = s[2] - '1', s += 2;
        }
        for (int c = lo; c <= hi; c++) mask |= 1 << c;
    }
    return mask;
}

static int fix_nodes(MtFeModel *m, char *list, int mask, MtError *err)
{
    int nfix = 0;
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        tok = trim(tok);
        if (!*tok) continue;
        char *e;
        long id = strtol(tok, &e, 10);
        if (!*e && e != tok) {
            int k = mt_fe_node_index(m, (int)id);
            if (k < 0)
                return mt_error_set(err, MT_ERR_MODEL, "", MT_("support: node %ld is not in the mesh"), id), -1;
            if (mt_fe_add_spc(m, k, mask, err) < 0) return -1;
            nfix++;
            continue;
        }
        int s = mt_fe_find_set(m, tok, MT_FE_SET_NODE);
        if (s < 0 && (!strcasecmp(tok, "ALL") || !strcasecmp(tok, "NALL"))) { /* every node */
            for (int k = 0; k < m->nnode; k++)
                if (mt_fe_add_spc(m, k, mask, err) < 0) return -1;
            nfix += m->nnode;
            continue;
        }
        if (s < 0)
            return mt_error_set(err, MT_ERR_MODEL, "",
                                MT_("support: '%s' is neither a node number nor a node set of the mesh"), tok),
                   -1;
        for (int i = 0; i < m->set[s].n; i++)
            if (mt_fe_add_spc(m, m->setitem[m->set[s].first + i], mask, err) < 0) return -1;
        nfix += m->set[s].n;
    }
    return nfix;
}

int mt_fe_fix_spec(MtFeModel *m, const char *spec, MtError *err)
{
    char *copy = strdup(spec ? spec : "");
    if (!copy) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")), -1;
    int total = 0;
    char *save = NULL;
    for (char *one = strtok_r(copy, ";", &save); one; one = strtok_r(NULL, ";", &save)) {
        one = trim(one);
        if (!*one) continue;
        int mask = MT_FE_ALL;
        char *colon = strrchr(one, ':');
        if (colon) {
            int d = digit_mask(trim(colon + 1));
            if (d < 0) {
                mt_error_set(err, MT_ERR_MODEL, "",
                             MT_("support '%s': the components after ':' are digits 1-6 (1 2 3 = ux uy uz, "
                                 "4 5 6 = rx ry rz), as in Nastran's SPC"),
                             one);
                free(copy);
                return -1;
            }
            mask = d, *colon = 0;
        }
        int n = fix_nodes(m, one, mask, err);
        if (n < 0) {
            free(copy);
            return -1;
        }
        total += n;
    }
    free(copy);
    return total;
}
