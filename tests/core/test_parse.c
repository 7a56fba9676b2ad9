/* Text model format: canonical round trip, messages that name the entity and
 * the line for bad input, and a mutation fuzz that must never crash. */
#include <string.h>

#include "mt_test.h"

static const char *good =
    "# slider-crank\nmotus-model 1\ntitle \"Slider crank\"\ngravity 0 -9.81 0\n"
    "solver method rk4 step 1e-3 until 1 ts 0.02 correct both\n"
    "ground\n marker o\n marker rail z 1 0 0\nend\n"
    "body crank\n mass 1\n com 0.05 0 0\n inertia 1e-4 8.4e-4 8.4e-4\n marker o\n marker pin at 0.1 0 0\nend\n"
    "body rod\n mass 2\n com 0.15 0 0\n inertia 1e-4 0.015 0.015 0 0 1e-5\n position 0.1 0 0\n marker a\n"
    " marker b at 0.3 0 0 z 0 0 1 x 1 1 0\nend\n"
    "body slider\n mass 0.5\n inertia 1e-4 1e-4 1e-4\n position 0.4 0 0\n orientation quat 1 0 0 0\n velocity 0 0 0\n"
    " omega 0 0 0\n marker b\n marker s z 1 0 0\nend\n"
    "joint pivot revolute crank.o ground.o\njoint crank_pin revolute rod.a crank.pin\n"
    "joint wrist revolute slider.b rod.b\njoint slide prismatic slider.s ground.rail\n"
    "driver spin pivot rate 10 start 0\nspring sp crank.pin ground.o k 100 c 0.5\n"
    "plot slide.disp against pivot.angle\nplot sp.force crank.wz rod.x\n"
    "derived F magnitude pivot.Fx pivot.Fy pivot.Fz\n"
    "derived v_slide derivative slide.disp\nderived smooth lowpass v_slide 12.5\nderived half scale F 0.5\n";

/* The message must mention every fragment. */
static void expect_error(const char *what, const char *text, const char *frag1, const char *frag2)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "bad.motus.txt", &err);
    int ok = !m && err.code != MT_OK && strstr(err.msg, frag1) && (!frag2 || strstr(err.msg, frag2));
    CHECK(ok, "%s: expected an error mentioning '%s'%s%s, got: %s", what, frag1, frag2 ? " and " : "", frag2 ? frag2 : "",
          m ? "(parsed without error)" : err.msg);
    if (ok) printf("ok   %s -> %s\n", what, err.msg);
    mt_model_free(m);
}

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static unsigned next(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (unsigned)(rng >> 33);
}

int main(void)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(good, "good", &err);
    CHECK(m != NULL, "good model parses: %s", err.msg);
    if (!m) return mt_test_done();
    CHECK(m->nbody == 3 && m->nmarker == 8 && m->njoint == 4 && m->ndriver == 1 && m->nspring == 1,
          "entity counts 3/8/4/1/1, got %d/%d/%d/%d/%d", m->nbody, m->nmarker, m->njoint, m->ndriver, m->nspring);
    CHECK(fabs(m->spring[0].length - 0.1) < 1e-15, "spring free length defaults to the initial distance (%g)", m->spring[0].length);
    char *t1 = mt_test_model_text(m);
    MtModel *m2 = mt_model_parse(t1, "t1", &err);
    CHECK(m2 != NULL, "canonical text parses again: %s", err.msg);
    char *t2 = m2 ? mt_test_model_text(m2) : strdup("");
    CHECK(!strcmp(t1, t2), "text -> model -> text -> model -> text is identical");
    CHECK(m2 && !memcmp(m->body, m2->body, sizeof *m->body * (size_t)m->nbody) &&
              !memcmp(m->marker, m2->marker, sizeof *m->marker * (size_t)m->nmarker),
          "numbers survive the round trip bit for bit");
    free(t1); free(t2);
    mt_model_free(m2);

    /* plots: what the lines say, kept in the round trip above and in the project's form */
    CHECK(m->nplot == 2 && !strcmp(m->plot[0].x, "pivot.angle") && m->plot[0].ncurve == 1 &&
              !strcmp(m->plot[0].curve[0], "slide.disp") && !m->plot[1].x[0] && m->plot[1].ncurve == 3 &&
              !strcmp(m->plot[1].curve[2], "rod.x"),
          "two plot lines: an X-Y plot and three curves against time");
    CHECK(m->nderived == 4 && m->derived[0].op == MT_DERIVED_MAGNITUDE && m->derived[0].narg == 3 &&
              !strcmp(m->derived[0].arg[2], "pivot.Fz") && m->derived[2].op == MT_DERIVED_LOWPASS &&
              m->derived[2].param == 12.5 && !strcmp(m->derived[2].arg[0], "v_slide") && m->derived[3].param == 0.5,
          "four derived lines: a magnitude, a derivative, a low-pass of it (12.5 Hz) and a scale (0.5)");
    char *json = mt_plots_to_json(m->plot, m->nplot, m->derived, m->nderived, 1);
    printf("  plots as the project keeps them: %s\n", json);
    MtPlotSpec back[MT_PLOT_MAX];
    MtDerivedSpec dback[MT_DERIVED_MAX];
    int nback = -1, active = -1, ndback = -1;
    CHECK(json && !mt_plots_from_json(json, back, &nback, dback, &ndback, &active) && nback == 2 && active == 1 &&
              !memcmp(back, m->plot, sizeof back[0] * 2),
          "the project's form reads back to the same plots");
    CHECK(ndback == 4, "and the same four derived curves (%d)", ndback);
    for (int k = 0; k < ndback && k < 4; k++)
        CHECK(!strcmp(dback[k].name, m->derived[k].name) && dback[k].op == m->derived[k].op &&
                  dback[k].narg == m->derived[k].narg && dback[k].param == m->derived[k].param &&
                  !memcmp(dback[k].arg, m->derived[k].arg, sizeof dback[k].arg),
              "derived curve %d reads back", k);
    free(json);
    CHECK(mt_plots_from_json("{\"plots\": [{\"x\": \"a\\\"b\", \"curves\": [\"ok.x\", \"bad name\", \"b.y\"]}]}", back, &nback,
                             NULL, NULL, &active) == 0 &&
              nback == 1 && !back[0].x[0] && back[0].ncurve == 2 && !strcmp(back[0].curve[1], "b.y") && active == 0,
          "names that are no column names are dropped when read");
    CHECK(mt_plots_from_json("not a layout", back, &nback, NULL, NULL, &active) == -1, "a text that is no layout is refused");
    expect_error("derived of an unknown operation", "derived d root a.x\n", "d", "magnitude, sum");
    expect_error("derived magnitude of one", "derived d magnitude a.x\n", "d", "2 to 3");
    expect_error("derived low-pass at 0 Hz", "derived d lowpass a.x 0\n", "d", "above 0 Hz");
    expect_error("derived scale without a number", "derived d scale a.x b\n", "d", "not a number");
    expect_error("derived twice", "derived d sum a.x b.x\nderived d sum a.x b.x\n", "d", "used twice");
    expect_error("plot without columns", "plot\n", "plot", "COLUMN");
    expect_error("plot of a bad name", "plot a;b\n", "plot", "'a;b'");
    expect_error("plot against nothing", "plot a.x against\n", "plot", "against COLUMN");
    expect_error("plot against two", "plot a.x against b.y c.z\n", "plot", "against COLUMN");
    {
        char many[1024] = "plot";
        for (int i = 0; i < MT_PLOT_CURVES + 1; i++) snprintf(many + strlen(many), sizeof many - strlen(many), " c%d.x", i);
        expect_error("too many curves", many, "plot", "at most");
        char nine[512] = "";
        for (int i = 0; i < MT_PLOT_MAX + 1; i++) strcat(nine, "plot a.x\n");
        expect_error("too many plots", nine, "plot", "at most");
    }

    expect_error("unknown joint type", "ground\n marker o\nend\nbody b\n marker o\nend\njoint j1 hinge b.o ground.o\n", "j1", "hinge");
    expect_error("line number", "ground\n marker o\nend\nbody b\n marker o\nend\njoint j1 hinge b.o ground.o\n", ":7:", NULL);
    expect_error("missing body", "ground\n marker o\nend\njoint j2 revolute arm.o ground.o\n", "j2", "arm.o");
    expect_error("zero inertia", "body arm\n inertia 0 0 0\nend\n", "arm", "positive definite");
    expect_error("triangle inequality", "body arm\n inertia 1 1 5\nend\n", "arm", "triangle");
    expect_error("negative mass", "body arm\n mass -1\nend\n", "arm", "mass");
    expect_error("NaN mass", "body arm\n mass nan\nend\n", "arm", "nan");
    expect_error("non-number", "body arm\n com 0 x 0\nend\n", "arm", "'x'");
    expect_error("duplicate body", "body arm\nend\nbody arm\nend\n", "arm", "already");
    expect_error("unclosed block", "body arm\n mass 1\n", "arm", "end");
    expect_error("joint on one body", "body arm\n marker a\n marker b\nend\njoint j3 revolute arm.a arm.b\n", "j3", "two different bodies");
    expect_error("driver on spherical", "ground\n marker o\nend\nbody b\n marker o\nend\njoint j4 spherical b.o ground.o\ndriver d4 j4 rate 1\n", "d4", "spherical");
    expect_error("unknown statement", "bodi arm\n", "bodi", ":1:");
    expect_error("newer format", "motus-model 7\n", "version", NULL);
    expect_error("bad solver", "solver method verlet\n", "verlet", NULL);
    /* unknown words of every solver keyword list (an alias search once read past the end of two lists) */
    expect_error("bad start", "solver start somewhere\n", "somewhere", NULL);
    expect_error("bad loops", "solver loops rubber\n", "rubber", NULL);
    expect_error("bad correct", "solver correct always\n", "always", NULL);
    expect_error("negative step", "solver step -1\n", "step", NULL);
    expect_error("binary-ish", "body \"unterminated\n", "quoted", NULL);

    /* fuzz: random byte edits, deletions and truncations of the good text */
    size_t n = strlen(good);
    char *buf = malloc(n + 64);
    int parsed = 0, rejected = 0, silent = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(buf, good, n + 1);
        size_t len = n;
        int edits = 1 + (int)(next() % 4);
        for (int e = 0; e < edits; e++) {
            size_t pos = next() % len;
            switch (next() % 4) {
            case 0: buf[pos] = (char)(next() % 256 ? next() % 256 : 'x'); break;
            case 1: memmove(buf + pos, buf + pos + 1, len - pos); len--; break;
            case 2: buf[pos] = " \n.#\"-e9"[next() % 8]; break;
            case 3: buf[pos] = 0; len = pos; break;
            }
            if (len == 0) break;
        }
        MtError fe = {0};
        MtModel *fm = mt_model_parse(buf, "fuzz", &fe);
        if (fm) parsed++;
        else if (fe.msg[0]) rejected++;
        else silent++;
        mt_model_free(fm);
    }
    free(buf);
    printf("  fuzz: 3000 mutated texts, %d parsed, %d rejected with a message\n", parsed, rejected);
    CHECK(silent == 0, "every rejected text has a message (%d without)", silent);
    CHECK(rejected > 100, "the fuzz exercised the error paths (%d rejections)", rejected);
    mt_model_free(m);
    return mt_test_done();
}
