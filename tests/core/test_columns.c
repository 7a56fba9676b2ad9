/* test_columns.c — the result columns listed from a model alone
 * (mt_output_columns, which the window's plot lists use on every edit) are
 * the header a run writes: for every example project, against the header
 * mt_csv_new writes for the compiled system (what 'motus-cli run --out'
 * writes). With --print MODEL it prints the list as a CSV header line, which
 * the ctest cli_columns compares with motus-cli's own output. */
#include <glob.h>
#include <string.h>

#include "motus/results.h"
#include "mt_file.h"
#include "mt_test.h"

/* The list as one CSV header line (malloc'ed), NULL when it cannot be made. */
static char *joined(char **names)
{
    size_t len = 1;
    for (int i = 0; names[i]; i++) len += strlen(names[i]) + 1;
    char *s = calloc(len, 1);
    for (int i = 0; s && names[i]; i++) {
        if (i) strcat(s, ",");
        strcat(s, names[i]);
    }
    return s;
}

/* The header line mt_csv_new writes for the compiled model (malloc'ed). */
static char *written_header(const MtModel *m, MtError *err)
{
    MtSystem *s = mt_system_compile(m, err);
    if (!s) return NULL;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    MtCsv *c = f ? mt_csv_new(s, f, err) : NULL;
    mt_csv_free(c);
    if (f) fclose(f);
    mt_system_free(s);
    if (!c) {
        free(buf);
        return NULL;
    }
    if (size && buf[size - 1] == '\n') buf[size - 1] = 0;
    return buf;
}

static void check_project(const char *path)
{
    MtError err = {0};
    MtModel *m = mt_model_load(path, &err);
    CHECK(m != NULL, "%s: %s", path, err.msg);
    if (!m) return;
    int n = 0;
    char **names = mt_output_columns(m, &n, &err);
    char *listed = names ? joined(names) : NULL, *written = written_header(m, &err);
    CHECK(listed && written, "%s: %s", path, err.msg);
    if (listed && written) {
        CHECK(!strcmp(listed, written), "%s: listed\n  %s\nwritten\n  %s", path, listed, written);
        printf("%s %s: %d columns\n", strcmp(listed, written) ? "FAIL" : "ok  ", path, n);
    }
    /* every column is described in words (mt_column_info) */
    int described = 0;
    for (int i = 0; names && i < n; i++) {
        char w[512];
        MtDim d;
        int ok = mt_column_info(m, names[i], &d, w, sizeof w);
        described += ok && w[0];
        if (!ok || !w[0]) printf("  not described: %s\n", names[i]);
    }
    CHECK(described == n, "%s: %d of %d columns described in words", path, described, n);
    /* read without reducing (mt_model_parse_text): the same list less the modal coordinates */
    if (m->nflex) {
        size_t len;
        char *text = mt_file_read_all(path, &len, &err);
        MtModel *raw = text ? mt_model_parse_text(text, path, &err) : NULL;
        free(text);
        int nraw = 0, nw = 0;
        char **rn = raw ? mt_output_columns(raw, &nraw, &err) : NULL;
        for (int i = 0; names && i < n; i++) {
            const char *dot = strrchr(names[i], '.');
            nw += dot && dot[1] == 'w' && dot[2] >= '1' && dot[2] <= '9';
        }
        CHECK(rn && nraw == n - nw, "%s unreduced: %d columns, expected %d", path, nraw, n - nw);
        free(rn);
        mt_model_free(raw);
    }
    free(listed);
    free(written);
    free(names);
    mt_model_free(m);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--print")) {
        MtError err = {0};
        MtModel *m = mt_model_load(argv[2], &err);
        char **names = m ? mt_output_columns(m, NULL, &err) : NULL;
        char *line = names ? joined(names) : NULL;
        if (line) puts(line);
        else fprintf(stderr, "%s: %s\n", argv[2], err.msg);
        free(line);
        free(names);
        mt_model_free(m);
        return line ? 0 : 1;
    }
    /* what the slider-crank's columns hold */
    {
        MtError err = {0};
        MtModel *m = mt_model_load(MOTUS_PROJECTS_DIR "/slider-crank.motus.txt", &err);
        static const struct {
            const char *col;
            MtDim dim;
            const char *words;
        } c[] = {{"time", MT_DIM_TIME, "time"},
                 {"crank.wz", MT_DIM_ANGVEL, "body crank: angular velocity about z (project axes)"},
                 {"crank.q0", MT_DIM_NONE, "body crank: orientation, quaternion component w"},
                 {"main.Fx", MT_DIM_FORCE, "joint main: reaction force on the body of marker i along x (project axes)"},
                 {"main.Tz_m", MT_DIM_TORQUE, "joint main: reaction torque on the body of marker i about z of marker i"},
                 {"main.angle", MT_DIM_ANGLE, "joint main: angle of marker i about z of marker j"},
                 {"slide.disp", MT_DIM_LENGTH, "joint slide: displacement of marker i along z of marker j"},
                 {"motor.effort", MT_DIM_TORQUE, "driver motor: the torque or force it takes to impose its motion"},
                 {"system.energy", MT_DIM_ENERGY, "total energy of the system"}};
        for (size_t i = 0; m && i < sizeof c / sizeof c[0]; i++) {
            char w[512];
            MtDim d = MT_DIM_ANY;
            int ok = mt_column_info(m, c[i].col, &d, w, sizeof w);
            CHECK(ok && d == c[i].dim && !strcmp(w, c[i].words), "%s: '%s' (%s)", c[i].col, w, mt_dim_name(d));
        }
        CHECK(m && !mt_column_info(m, "nothing.x", NULL, NULL, 0) && !mt_column_info(m, "crank.speed", NULL, NULL, 0),
              "names that are no column: 0");
        mt_model_free(m);
    }
    glob_t g;
    CHECK(glob(MOTUS_PROJECTS_DIR "/*.motus.txt", 0, NULL, &g) == 0 && g.gl_pathc >= 10, "the examples");
    for (size_t i = 0; i < g.gl_pathc; i++) check_project(g.gl_pathv[i]);
    globfree(&g);
    return mt_test_done();
}
