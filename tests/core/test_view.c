/* The `view` line (core/model/mt_view.c): read, written back canonically,
 * kept in a project (plots table, row "view") and read back equal; a model
 * without one writes none and a project saved after it was removed loses
 * the row; bad settings are refused naming the word and what to write. */
#include <string.h>
#include <unistd.h>

#include "motus/store.h"
#include "mt_test.h"

#define MODEL "ground\nend\nbody housing\n mass 1\n inertia 1 1 1\nend\n"

static MtModel *parse(const char *text, MtError *err) { return mt_model_parse(text, "view", err); }

int main(void)
{
    MtError err = {0};
    MtModel *m = parse(MODEL "view deformation 0.1 colour stress range 0 6e7 camera right focus housing follow housing meter system.kinetic meter momentum\n", &err);
    CHECK(m != NULL, "parses: %s", err.msg);
    char line[256];
    mt_view_format(&m->view, line, sizeof line);
    CHECK(!strcmp(line, "view deformation 0.1 colour stress range 0 60000000 camera right focus housing follow housing meter system.kinetic meter momentum"), "canonical: %s", line);
    CHECK(m->view.set && m->view.deformation == 0.1 && m->view.field == MT_VIEW_FIELD_STRESS &&
              m->view.range == MT_VIEW_RANGE_FIXED && m->view.hi == 6e7 && m->view.camera == MT_VIEW_CAMERA_RIGHT && !strcmp(m->view.follow, "housing"),
          "every setting read");
    char *text = mt_test_model_text(m);
    CHECK(text && strstr(text, "\nview deformation 0.1 colour stress range 0 60000000 camera right focus housing follow housing meter system.kinetic meter momentum\n"),
          "written with the model");
    free(text);

    char path[] = "/tmp/motus-view-XXXXXX";
    close(mkstemp(path));
    unlink(path);
    MtStore *s = mt_store_open(path, MT_STORE_CREATE, &err);
    CHECK(s && mt_store_save_model(s, m, NULL, &err) == MT_OK, "saved in a project: %s", err.msg);
    MtModel *back = s ? mt_store_load_model(s, NULL, &err) : NULL;
    char l2[256] = "";
    if (back) mt_view_format(&back->view, l2, sizeof l2);
    CHECK(back && !memcmp(&back->view, &m->view, sizeof m->view), "read back from the project equal: %s", l2);
    mt_model_free(back);
    memset(&m->view, 0, sizeof m->view); /* the author removed it */
    CHECK(mt_store_save_model(s, m, NULL, &err) == MT_OK, "saved again: %s", err.msg);
    back = mt_store_load_model(s, NULL, &err);
    CHECK(back && !back->view.set, "no view after it was removed");
    text = back ? mt_test_model_text(back) : NULL;
    CHECK(text && !strstr(text, "view "), "and none written");
    free(text);
    mt_model_free(back);
    mt_store_close(s);
    unlink(path);
    mt_model_free(m);

    static const struct {
        const char *line, *words;
    } bad[] = {{"view colour red\n", "colour 'red' is none, displacement or stress"},
               {"view deformation -3\n", "deformation scale '-3' must be a number above 0"},
               {"view range 5 1\n", "range '5' is run, frame or two numbers"},
               {"view camera side\n", "camera 'side' is front, right, top or iso"},
               {"view zoom 2\n", "unknown setting 'zoom'"},
               {"view deformation\n", "'deformation' needs a value"},
               {"view focus nobody\n", "focus 'nobody' names no body"},
               {"view follow nobody\n", "follow 'nobody' names no moving body"},
               {"view follow ground\n", "follow 'ground' names no moving body"},
               {"view meter a meter b meter c meter d meter e meter f meter g meter h meter i\n", "at most 8 meters"},
               {"view meter {x}\n", "meter '{x}' is not a result column name"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char t[512];
        snprintf(t, sizeof t, MODEL "%s", bad[i].line);
        memset(&err, 0, sizeof err);
        m = parse(t, &err);
        CHECK(!m && strstr(err.msg, bad[i].words), "refused: %s", err.msg);
        mt_model_free(m);
    }
    return mt_test_done();
}
