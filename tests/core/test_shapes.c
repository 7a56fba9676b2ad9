/* Body geometry: mass properties of solid shapes against textbook formulas,
 * a composite body by the parallel-axis theorem, density in the text format,
 * and the round trip of shapes. */
#include <string.h>

#include "mt_test.h"

static MtModel *parse(const char *t)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(t, "<shapes>", &err);
    CHECK(m != NULL, "parse: %s", err.msg);
    return m;
}

int main(void)
{
    const double rho = 7850;
    MtModel *m = parse("body b\n density 7850\n shape box 0.1 0.02 0.03\nend\n");
    if (!m) return mt_test_done();
    double M = rho * 0.1 * 0.02 * 0.03;
    CHECK_REL(m->body[0].mass, M, 1e-14, "box mass rho*a*b*c [kg]");
    CHECK_REL(m->body[0].inertia[0], M * (0.02 * 0.02 + 0.03 * 0.03) / 12, 1e-14, "box Ixx m(b^2+c^2)/12");
    CHECK_REL(m->body[0].inertia[2], M * (0.1 * 0.1 + 0.02 * 0.02) / 12, 1e-14, "box Izz m(a^2+b^2)/12");
    mt_model_free(m);

    m = parse("body b\n density 1000\n shape cylinder 0.05 0.2 at 0 0 0.1\nend\n");
    M = 1000 * M_PI * 0.05 * 0.05 * 0.2;
    CHECK_REL(m->body[0].mass, M, 1e-14, "cylinder mass [kg]");
    CHECK_ABS(m->body[0].com[2], 0.1, 1e-15, "cylinder centre of mass follows 'at' [m]");
    CHECK_REL(m->body[0].inertia[0], M * (3 * 0.05 * 0.05 + 0.2 * 0.2) / 12, 1e-14, "cylinder Ixx m(3r^2+h^2)/12");
    CHECK_REL(m->body[0].inertia[2], 0.5 * M * 0.05 * 0.05, 1e-14, "cylinder Izz m r^2/2");
    mt_model_free(m);

    m = parse("body b\n density 2700\n shape sphere 0.1\nend\n");
    M = 2700 * 4.0 / 3 * M_PI * 1e-3;
    CHECK_REL(m->body[0].mass, M, 1e-14, "sphere mass [kg]");
    CHECK_REL(m->body[0].inertia[1], 0.4 * M * 0.01, 1e-14, "sphere I 2/5 m r^2");
    mt_model_free(m);

    /* capsule = cylinder + sphere split in two hemispheres: mass and axial inertia add up */
    m = parse("body b\n density 1000\n shape capsule 0.1 0.4\nend\n");
    double mc = 1000 * M_PI * 0.01 * 0.4, ms = 1000 * 4.0 / 3 * M_PI * 1e-3;
    CHECK_REL(m->body[0].mass, mc + ms, 1e-14, "capsule mass = cylinder + sphere [kg]");
    CHECK_REL(m->body[0].inertia[2], 0.5 * mc * 0.01 + 0.4 * ms * 0.01, 1e-14, "capsule axial inertia");
    /* transverse: hemisphere centroid 3r/8 from its face; I about its own centre 83/320 m r^2 */
    double mh = ms / 2, d = 0.2 + 3 * 0.1 / 8, Ih = 83.0 / 320 * mh * 0.01;
    CHECK_REL(m->body[0].inertia[0], mc * (3 * 0.01 + 0.16) / 12 + 2 * (Ih + mh * d * d), 1e-12, "capsule transverse inertia");
    mt_model_free(m);

    /* two unit-density cubes side by side: parallel axes */
    m = parse("body b\n density 1\n shape box 1 1 1 at -0.5 0 0\n shape box 1 1 1 at 0.5 0 0\nend\n");
    CHECK_REL(m->body[0].mass, 2, 1e-15, "two cubes: mass");
    CHECK_ABS(m->body[0].com[0], 0, 1e-15, "two cubes: centre");
    CHECK_REL(m->body[0].inertia[1], 2 * (2.0 / 12) + 2 * 0.25, 1e-14, "two cubes: Iyy with parallel axes (= 2x1x1 box)");
    CHECK_REL(m->body[0].inertia[1], 2 * (4.0 + 1.0) / 12, 1e-14, "two cubes: Iyy equals that of a 2x1x1 box");
    mt_model_free(m);

    /* a bar between two points, and a rotated box: products of inertia appear */
    m = parse("body b\n density 1000\n shape bar 0.01 from 0 0 0 to 0.3 0.4 0\nend\n");
    M = 1000 * M_PI * 1e-4 * 0.5;
    CHECK_REL(m->body[0].mass, M, 1e-14, "bar of length 0.5 m: mass");
    CHECK_ABS(m->body[0].com[1], 0.2, 1e-15, "bar centre [m]");
    double It = M * (3e-4 + 0.25) / 12, Ia = 0.5 * M * 1e-4;
    /* along u = (0.6, 0.8, 0): I = Ia u u^T + It (1 - u u^T) */
    CHECK_REL(m->body[0].inertia[3], (Ia - It) * 0.48, 1e-12, "bar product of inertia Ixy (tensor entry)");
    mt_model_free(m);

    /* errors and round trip */
    MtError err = {0};
    MtModel *bad = mt_model_parse("body b\n density 10\n shape mesh part.stl\nend\n", "s", &err);
    CHECK(!bad && strstr(err.msg, "no solid shape"), "density with only a mesh is refused: %s", err.msg);
    bad = mt_model_parse("body b\n shape box 1 -1 1\nend\n", "s", &err);
    CHECK(!bad && strstr(err.msg, "positive"), "negative size refused: %s", err.msg);
    bad = mt_model_parse("body b\n shape cone 1\nend\n", "s", &err);
    CHECK(!bad && strstr(err.msg, "cone"), "unknown shape named: %s", err.msg);
    const char *t = "ground\n shape box 2 0.01 2 at 0 -0.005 0 color 0.5 0.5 0.5\nend\n"
                    "body b\n density 7850\n shape cylinder 0.02 0.1 z 1 0 0 color 1 0 0\n shape mesh \"wheel.obj\" scale 0.001\nend\n";
    m = parse(t);
    char *b1 = NULL, *b2 = NULL;
    size_t l1, l2;
    FILE *f = open_memstream(&b1, &l1);
    mt_model_write(m, f, NULL);
    fclose(f);
    MtModel *m2 = mt_model_parse(b1, "b1", &err);
    CHECK(m2 != NULL, "shapes text parses back: %s", err.msg);
    f = open_memstream(&b2, &l2);
    if (m2) mt_model_write(m2, f, NULL);
    fclose(f);
    CHECK(m2 && !strcmp(b1, b2) && m2->nshape == 3, "shapes round trip exactly (%d shapes)", m2 ? m2->nshape : -1);
    free(b1);
    free(b2);
    mt_model_free(m2);
    mt_model_free(m);
    return mt_test_done();
}
