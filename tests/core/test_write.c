/* test_write.c — the text writer (mt_model_write, core/model/mt_parse.c): numbers
 * are written in the shortest form that reads back as the same double, and
 * what the user typed comes back whole. */
#include <float.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "motus/store.h"
#include "mt_test.h"
#include "motus/units.h"

static int same_bits(double a, double b) { return !memcmp(&a, &b, sizeof a); }

/* v written by mt_double_str reads back bit for bit, no longer than %.17g, and as want when given */
static void exact(double v, const char *want)
{
    char buf[MT_DOUBLE_BUF], full[40];
    mt_double_str(v, buf);
    snprintf(full, sizeof full, "%.17g", v);
    double r = strtod(buf, NULL);
    CHECK(same_bits(r, v) && strlen(buf) <= strlen(full) && (!want || !strcmp(buf, want)),
          "%.17g written as '%s' (want %s), read back %.17g", v, buf, want ? want : "exact", r);
}

static MtModel *parse(const char *text)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "<test>", &err);
    CHECK(m != NULL, "model parses: %s", err.msg);
    return m;
}

int main(void)
{
    exact(0.1, "0.1");
    exact(9.81, "9.81");
    exact(-9.81, "-9.81");
    exact(1.0 / 3.0, "0.3333333333333333");
    exact(2.0 / 3.0, NULL);
    exact(1e-300, "1e-300");
    exact(DBL_MIN / 3, NULL);      /* subnormal */
    exact(4.9406564584124654e-324, NULL); /* the smallest subnormal */
    exact(DBL_MAX, NULL);
    exact(0.0, "0");
    exact(-0.0, "-0");
    exact(M_PI, "3.141592653589793");
    exact(0.1 + 0.2, "0.30000000000000004"); /* needs all 17 digits */
    uint64_t bits = 0x3FF0000000000001ULL;     /* 1 + 2^-52 */
    double one_ulp;
    memcpy(&one_ulp, &bits, sizeof one_ulp);
    exact(one_ulp, NULL);
    /* many random doubles: every one reads back exactly */
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        double v;
        memcpy(&v, &x, sizeof v);
        if (!isfinite(v)) continue;
        char buf[MT_DOUBLE_BUF];
        if (!same_bits(strtod(mt_double_str(v, buf), NULL), v)) bad++;
    }
    CHECK(bad == 0, "100000 random bit patterns read back exactly (%d did not)", bad);

    /* the model writer: 9.81 stays 9.81, and every number survives write -> parse bit for bit */
    const char *text = "motus-model 1\ngravity 0 -9.81 0\nground\n marker o\nend\n"
                       "body b\n mass 0.1\n com 5e-324 -0 1e-300\n inertia 0.33333333333333331 0.33333333333333331 0.30000000000000004\n"
                       " position 2.2250738585072014e-308 0.30000000000000004 9.81\n marker o\nend\n"
                       "joint j revolute b.o ground.o\n";
    MtModel *m = parse(text);
    if (!m) return mt_test_done();
    char *t1 = mt_test_model_text(m);
    printf("%s", t1);
    CHECK(strstr(t1, "gravity 0 -9.81 0\n") != NULL, "gravity written as 'gravity 0 -9.81 0'");
    CHECK(strstr(t1, "0.3333333333333333 0.3333333333333333 0.30000000000000004") && strstr(t1, "e-324 -0 1e-300\n"), "shortest forms of 1/3, -0, 1e-300");
    MtModel *m2 = parse(t1);
    if (m2) {
        CHECK(same_bits(m2->gravity[1], -9.81), "gravity reads back as -9.81 exactly");
        CHECK(!memcmp(m->body, m2->body, sizeof *m->body * (size_t)m->nbody), "body numbers survive write -> parse bit for bit");
        CHECK(same_bits(m2->body[0].com[1], -0.0), "-0 stays -0");
        char *t2 = mt_test_model_text(m2);
        CHECK(!strcmp(t1, t2), "text -> model -> text is a fixed point");
        free(t2);
    }
    mt_model_free(m2);
    free(t1);
    mt_model_free(m);

    /* 'parameter theta0 90deg': the deg suffix that any number may carry (it was refused) */
    m = parse("parameter theta0 90deg\nparameter a -12.5deg\nparameter b {2*theta0}\n"
              "ground\n marker o\nend\nbody r\n mass 1\n inertia 1 1 1\n orientation axis 0 0 1 90deg\n marker o\nend\n"
              "body s\n mass 1\n inertia 1 1 1\n orientation axis 0 0 1 {theta0}\n marker o\nend\n"
              "joint j revolute r.o ground.o\njoint k revolute s.o ground.o\n");
    if (m) {
        CHECK(m->nparam == 3 && same_bits(m->param[0].value, 90 * (M_PI / 180.0)) &&
                  same_bits(m->param[1].value, -12.5 * (M_PI / 180.0)) && same_bits(m->param[2].value, 2 * m->param[0].value),
              "90deg, -12.5deg are pi/2 and -12.5 pi/180 (%.17g, %.17g)", m->param[0].value, m->param[1].value);
        CHECK(!memcmp(m->body[0].rot, m->body[1].rot, sizeof m->body[0].rot), "a parameter 90deg turns a body as the number 90deg does");
        t1 = mt_test_model_text(m);
        CHECK(strstr(t1, "parameter theta0 90 deg\n") && strstr(t1, "parameter a -12.5 deg\n"), "written as 'parameter theta0 90 deg'");
        m2 = parse(t1);
        CHECK(m2 && same_bits(m2->param[0].value, m->param[0].value), "and read back to the same value");
        mt_model_free(m2);
        free(t1);
    }
    mt_model_free(m);
    /* an expression of 200 terms (399 characters) comes back whole: it was cut to 255, n = 128 */
    char expr[1200] = "";
    for (int i = 0; i < 200; i++) strcat(expr, i ? "+1" : "1");
    char *src = malloc(4096);
    snprintf(src, 4096, "parameter n {%s}\nparameter g {n/1e3}\ngravity 0 {-(%s)} 0\n", expr, expr);
    m = parse(src);
    if (m) {
        CHECK(m->nparam == 2 && !strcmp(m->param[0].expr, expr) && m->param[0].value == 200, "n = %g from %zu characters kept whole",
              m->param[0].value, strlen(m->param[0].expr));
        CHECK(m->gravity[1] == -200, "a field's expression of 200 terms too: gravity y = %g", m->gravity[1]);
        t1 = mt_test_model_text(m);
        m2 = parse(t1);
        CHECK(m2 && !strcmp(m2->param[0].expr, expr) && m2->param[0].value == 200 && m2->gravity[1] == -200,
              "parse -> write -> parse: n = %g", m2 ? m2->param[0].value : NAN);
        char *t2 = m2 ? mt_test_model_text(m2) : NULL;
        CHECK(t2 && !strcmp(t1, t2), "and the text is the same");
        free(t2);
        mt_model_free(m2);
        /* and through a project */
        char path[] = "/tmp/mt_write_XXXXXX";
        int fd = mkstemp(path);
        if (fd >= 0) close(fd);
        unlink(path);
        MtError se = {0};
        MtStore *st = mt_store_open(path, MT_STORE_CREATE, &se);
        long ver = 0;
        CHECK(st && mt_store_save_model(st, m, &ver, &se) == MT_OK, "saved in a project: %s", se.msg);
        MtModel *b = st ? mt_store_load_model(st, &ver, &se) : NULL;
        CHECK(b && b->nparam == 2 && !strcmp(b->param[0].expr, expr) && b->param[0].value == 200 && b->gravity[1] == -200,
              "project: the 200 terms come back, n = %g (%s)", b ? b->param[0].value : NAN, se.msg);
        char *t3 = b ? mt_test_model_text(b) : NULL;
        CHECK(t3 && !strcmp(t1, t3), "project: the same text");
        free(t3);
        mt_model_free(b);
        mt_store_close(st);
        unlink(path);
        free(t1);
    }
    mt_model_free(m);
    /* longer than the limit: refused naming the parameter and the line, never cut */
    char *big = malloc(8192);
    strcpy(big, "# a comment\nparameter huge {1");
    for (int i = 0; i < 1000; i++) strcat(big, "+1");
    strcat(big, "}\n");
    MtError err = {0};
    m = mt_model_parse(big, "big.txt", &err);
    CHECK(!m && strstr(err.msg, "big.txt:2") && strstr(err.msg, "'huge'") && strstr(err.msg, "2001 bytes long"),
          "a 2001-character expression is refused: %s", err.msg);
    mt_model_free(m);
    snprintf(big, 8192, "gravity 0 {1");
    for (int i = 0; i < 1000; i++) strcat(big, "+1");
    strcat(big, "} 0\n");
    m = mt_model_parse(big, "big.txt", &err);
    CHECK(!m && strstr(err.msg, "big.txt:1") && strstr(err.msg, "gravity"), "and in a field: %s", err.msg);
    mt_model_free(m);
    /* other words typed: a title, a joint name, a sensor unit; refused whole, not cut */
    snprintf(big, 8192, "title \"%0200d\"\n", 7);
    m = mt_model_parse(big, "t.txt", &err);
    CHECK(!m && strstr(err.msg, "t.txt:1") && strstr(err.msg, "title") && strstr(err.msg, "202 bytes") == NULL &&
              strstr(err.msg, "200 bytes long"), "a 200-byte title: %s", err.msg);
    mt_model_free(m);
    free(big);
    free(src);

    m = mt_model_parse("parameter t 90deg rad\n", "deg.txt", &err);
    CHECK(!m && strstr(err.msg, "deg.txt:1") && strstr(err.msg, "'t'") && strstr(err.msg, "'90deg'"),
          "a unit after 90deg is refused naming the parameter: %s", err.msg);
    mt_model_free(m);
    return mt_test_done();
}
