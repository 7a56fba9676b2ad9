/* The model check (core/analysis/mt_check.c): the planar four-bar's degrees
 * of freedom (Grübler −2, rank 1) and its 3 redundant equations named at
 * their joint; a body connected to nothing (and one held by a bushing); markers nothing uses; a welded
 * body without a driver (no degree of freedom); a model whose initial
 * configuration cannot be assembled, reported as an error naming its joint. */
#include <string.h>

#include "motus/check.h"
#include "mt_test.h"

#define FOURBAR                                                                                   \
    "gravity 0 -9.81 0\n"                                                                         \
    "ground\n marker a\n marker d at 0.4 0 0\nend\n"                                              \
    "body crank\n mass 1\n inertia 1e-3 1e-4 1e-3\n marker a\n marker b at 0 0.1 0\nend\n"        \
    "body coupler\n mass 1\n inertia 1e-4 4e-3 4e-3\n position 0 0.1 0\n marker b\n"              \
    " marker c at 0.4 0 0\nend\n"                                                                 \
    "body rocker\n mass 1\n inertia 1e-3 1e-4 1e-3\n position 0.4 0 0\n marker d\n"               \
    " marker c at 0 0.1 0\nend\n"                                                                 \
    "joint ja revolute crank.a ground.a\njoint jb revolute coupler.b crank.b\n"                   \
    "joint jc revolute rocker.c coupler.c\njoint jd revolute rocker.d ground.d\n"

static MtCheckReport check(const char *text)
{
    MtError err = {0};
    MtCheckReport r = {0};
    MtModel *m = mt_model_parse(text, "check", &err);
    CHECK(m != NULL, "parses: %s", err.msg);
    if (m) CHECK(mt_check_model(m, &r, &err) == MT_OK, "checks: %s", err.msg);
    mt_model_free(m);
    return r;
}

static const MtCheckItem *find(const MtCheckReport *r, MtCheckLevel level, const char *words)
{
    for (int i = 0; i < r->nitem; i++)
        if (r->item[i].level == level && strstr(r->item[i].text, words)) return &r->item[i];
    return NULL;
}

int main(void)
{
    MtCheckReport r = check(FOURBAR);
    CHECK(r.compiled && r.info.dof_grubler == -2 && r.info.dof_rank == 1 && r.info.nrow == 20 && r.info.ndep == 3,
          "four-bar: 20 equations, 3 redundant, Gruebler -2, rank 1 (%d %d %d %d)", r.info.nrow, r.info.ndep,
          r.info.dof_grubler, r.info.dof_rank);
    const MtCheckItem *it = find(&r, MT_CHECK_WARNING, "3 of its 5 equations");
    CHECK(it && it->kind == MT_ENT_JOINT && it->index == 2 && strstr(it->text, "joint 'jc' (revolute)") &&
              strstr(it->text, "act in one plane (parallel axes)"),
          "four-bar: the redundant equations named at joint jc and explained: %s", it ? it->text : "(none)");
    CHECK(mt_check_count(&r, MT_CHECK_WARNING) == 1 && mt_check_count(&r, MT_CHECK_ERROR) == 0 &&
              mt_check_count(&r, MT_CHECK_INFO) == 0,
          "four-bar: one warning, nothing else (%d items)", r.nitem);
    mt_check_free(&r);

    /* a stone connected to nothing, and a marker no one uses */
    r = check(FOURBAR "body stone\n mass 2\n inertia 1 1 1\n position 1 1 0\n marker top\nend\n");
    it = find(&r, MT_CHECK_WARNING, "'stone' is connected to ground by no joint");
    CHECK(it && it->kind == MT_ENT_BODY && it->index == 3, "the free body named: %s", it ? it->text : "(none)");
    it = find(&r, MT_CHECK_INFO, "1 markers are used by no joint");
    CHECK(it && strstr(it->text, "stone.top"), "the unused marker named: %s", it ? it->text : "(none)");
    CHECK(r.item[r.nitem - 1].level == MT_CHECK_INFO && r.item[0].level == MT_CHECK_WARNING, "warnings before information");
    mt_check_free(&r);

    /* the stone on a bushing to ground is held (as a wheel on its rail or a strut is), a drag on it is not */
    r = check(FOURBAR "body stone\n mass 2\n inertia 1 1 1\n position 1 1 0\n marker top\nend\n"
                      "force mount bushing stone.top ground.a kx 1e4 ky 1e4 kz 1e4 ktx 1e3 kty 1e3 ktz 1e3\n");
    CHECK(!find(&r, MT_CHECK_WARNING, "'stone' is connected to ground"), "a body on a bushing is not called free");
    mt_check_free(&r);

    /* welded to ground and nothing drives it: a structure */
    r = check("ground\n marker o\nend\nbody b\n mass 1\n inertia 1 1 1\n marker o\nend\njoint w fixed b.o ground.o\n");
    CHECK(r.info.dof_rank == 0 && find(&r, MT_CHECK_WARNING, "nothing can move"), "a welded body: no degree of freedom said");
    mt_check_free(&r);

    /* two distance joints that cannot both hold: not assembled, an error naming the joint */
    r = check("ground\n marker a\n marker b\nend\nbody ball\n mass 1\n inertia 0.01 0.01 0.01\n position 2 0 0\n"
              " marker m\nend\njoint rod distance ball.m ground.a length 0.5\n"
              "joint rod2 distance ball.m ground.b length 1.5\n");
    CHECK(r.nitem >= 1 && r.item[0].level == MT_CHECK_ERROR && strstr(r.item[0].text, "rod"),
          "contradictory joints: the initial assembly fails, an error first: %s", r.nitem ? r.item[0].text : "(none)");
    CHECK(r.nitem >= 1 && r.item[0].kind == MT_ENT_JOINT && r.item[0].index >= 0, "the error points at a joint (%d %d)",
          r.nitem ? (int)r.item[0].kind : -1, r.nitem ? r.item[0].index : -1);
    mt_check_free(&r);
    return mt_test_done();
}
