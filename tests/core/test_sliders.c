/* The `slider` line (core/model/mt_sliders.c): read with its range in the
 * parameter's unit, written back canonically, kept in a project (plots
 * table, row "sliders") and read back equal; given and changed through the
 * editor as fields of the parameter (undoable); bad lines refused naming
 * the parameter and what to write. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "motus/edit.h"
#include "motus/store.h"
#include "mt_test.h"

#define MODEL "ground\nend\nbody arm\n mass 1\n inertia 1 1 1\nend\nparameter n_crank 60 rpm\nparameter L 0.5\n"

static MtModel *parse(const char *text, MtError *err) { return mt_model_parse(text, "sliders", err); }

int main(void)
{
    MtError err = {0};
    MtModel *m = parse(MODEL "slider n_crank 30 120\n", &err);
    CHECK(m != NULL, "parses: %s", err.msg);
    const MtParamSpec *p = m ? &m->param[0] : NULL;
    /* 1 rpm = 2π/60 rad/s */
    CHECK(p && p->slider && fabs(p->slider_lo - M_PI) < 1e-12 && fabs(p->slider_hi - 4 * M_PI) < 1e-12,
          "range in SI: %.15g .. %.15g rad/s (π, 4π)", p ? p->slider_lo : 0, p ? p->slider_hi : 0);
    CHECK(!m->param[1].slider, "L has none");
    char *text = mt_test_model_text(m);
    CHECK(text && strstr(text, "\nslider n_crank 30 120\n"), "written back in rpm");
    free(text);

    char path[] = "/tmp/motus-sliders-XXXXXX";
    close(mkstemp(path));
    unlink(path);
    MtStore *s = mt_store_open(path, MT_STORE_CREATE, &err);
    CHECK(s && mt_store_save_model(s, m, NULL, &err) == MT_OK, "saved in a project: %s", err.msg);
    MtModel *back = s ? mt_store_load_model(s, NULL, &err) : NULL;
    CHECK(back && back->nparam == 2 && back->param[0].slider && back->param[0].slider_lo == m->param[0].slider_lo &&
              back->param[0].slider_hi == m->param[0].slider_hi && !back->param[1].slider,
          "read back from the project equal");

    /* the editor: on with ±50 % of the value, ends typed in the parameter's unit, off; each undoable */
    MtEditor *ed = mt_editor_new(back);
    int L = mt_model_find_param(mt_editor_model(ed), "L");
    char buf[MT_FIELD_TEXT_MAX];
    CHECK(mt_edit_set_field(ed, MT_EDIT_PARAM, L, "slider", "on", &err) == MT_OK, "slider on: %s", err.msg);
    CHECK(mt_edit_get_field(mt_editor_model(ed), MT_EDIT_PARAM, L, "slider.min", buf, sizeof buf, &err) == MT_OK &&
              !strcmp(buf, "0.25"), "from 0.25: %s", buf);
    CHECK(mt_edit_get_field(mt_editor_model(ed), MT_EDIT_PARAM, L, "slider.max", buf, sizeof buf, &err) == MT_OK &&
              !strcmp(buf, "0.75"), "to 0.75: %s", buf);
    CHECK(mt_edit_set_field(ed, MT_EDIT_PARAM, L, "slider.max", "2", &err) == MT_OK &&
              mt_editor_model(ed)->param[L].slider_hi == 2, "to 2: %s", err.msg);
    CHECK(mt_edit_set_field(ed, MT_EDIT_PARAM, L, "slider.min", "3", &err) != MT_OK && strstr(err.msg, "below its end"),
          "a start above the end refused: %s", err.msg);
    CHECK(mt_edit_set_field(ed, MT_EDIT_PARAM, 0, "slider.min", "x", &err) != MT_OK && strstr(err.msg, "not a number"),
          "not a number refused: %s", err.msg);
    CHECK(mt_edit_set_field(ed, MT_EDIT_PARAM, 0, "slider", "off", &err) == MT_OK && !mt_editor_model(ed)->param[0].slider,
          "n_crank's slider off");
    text = mt_test_model_text(mt_editor_model(ed));
    CHECK(text && !strstr(text, "slider n_crank") && strstr(text, "\nslider L 0.25 2\n"), "written: L's only");
    free(text);
    CHECK(mt_editor_undo(ed, &err) == MT_OK && mt_editor_model(ed)->param[0].slider, "undo gives n_crank's back");
    CHECK(mt_edit_set_field(ed, MT_EDIT_PARAM, 0, "expr", "120", &err) == MT_OK &&
              fabs(mt_editor_model(ed)->param[0].value - 4 * M_PI) < 1e-12 && mt_editor_model(ed)->param[0].slider,
          "a new value keeps the slider: %s", err.msg);
    mt_editor_free(ed);
    mt_store_close(s);
    unlink(path);
    mt_model_free(m);

    static const struct {
        const char *line, *words;
    } bad[] = {{"slider n_crank 120 30\n", "MIN < MAX"},
               {"slider n_crank 30\n", "write 'slider PARAMETER MIN MAX'"},
               {"slider speed 1 2\n", "'speed' names no parameter"},
               {"slider L 0 x\n", "MIN and MAX must be numbers"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char t[512];
        snprintf(t, sizeof t, "%s%s", MODEL, bad[i].line);
        MtModel *b = parse(t, &err);
        CHECK(!b && strstr(err.msg, bad[i].words), "refused '%.*s': %s", (int)strlen(bad[i].line) - 1, bad[i].line, err.msg);
        mt_model_free(b);
    }
    return mt_test_done();
}
