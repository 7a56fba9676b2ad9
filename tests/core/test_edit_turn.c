/* test_edit_turn.c — core/edit/mt_edit_turn.c: a body turned about project x, y
 * and z as one edit. A box turned 90° about x carries its y axis onto
 * project z (and a marker on it along); turns compose (30° + 60° about z is
 * the orientation field 90°); 90° about y carries x onto −z; one undo restores the exact text of the model;
 * the ground, a bad axis and a non-finite angle are refused and leave the
 * model as it was. */
#include <string.h>

#include "motus/edit.h"
#include "motus/edit_turn.h"
#include "mt_test.h"

/* Column k (axis k of the body) of a row-major rotation. */
static void column(const double R[9], int k, double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = R[3 * i + k];
}

int main(void)
{
    MtError err = {0};
    MtEditor *e = mt_editor_new(mt_edit_new_model());
    MtBodyDef d;
    mt_body_def_default(&d);
    snprintf(d.name, sizeof d.name, "plate");
    d.size[0] = 0.3, d.size[1] = 0.2, d.size[2] = 0.1;
    d.pos[0] = 1, d.pos[1] = 2, d.pos[2] = 3;
    int b, mk;
    CHECK(mt_edit_add_body(e, &d, &b, &err) == MT_OK, "add a box: %s", err.msg);
    double at[3] = {1, 2.1, 3}; /* 0.1 m along the body's y from its origin */
    CHECK(mt_edit_add_marker(e, b, "top", at, NULL, &mk, &err) == MT_OK, "add a marker: %s", err.msg);
    char *before = mt_test_model_text(mt_editor_model(e));

    /* 90° about project x: body y → project z, body z → −y; origin and marker offset in body axes kept */
    CHECK(mt_edit_turn_body(e, b, 0, M_PI / 2, &err) == MT_OK, "turn about x: %s", err.msg);
    const MtModel *m = mt_editor_model(e);
    double y[3], z[3];
    column(m->body[b].rot, 1, y);
    column(m->body[b].rot, 2, z);
    CHECK_ABS(y[2], 1, 1e-12, "body y along project z after 90 deg about x");
    CHECK_ABS(z[1], -1, 1e-12, "body z along project -y");
    CHECK_ABS(m->body[b].pos[1], 2, 0, "the origin stays (y)");
    CHECK_ABS(m->marker[mk].pos[1], 0.1, 1e-15, "the marker keeps its place in the body");
    CHECK(!strcmp(mt_editor_undo_label(e), "turn body 'plate'"), "undo label '%s'", mt_editor_undo_label(e));

    /* one undo gives the model back, text for text */
    CHECK(mt_editor_undo(e, &err) == MT_OK, "undo: %s", err.msg);
    char *undone = mt_test_model_text(mt_editor_model(e));
    CHECK(!strcmp(before, undone), "undo restores the exact text");
    free(undone);

    /* about z the turn is the third orientation angle; two turns add up */
    CHECK(mt_edit_turn_body(e, b, 2, M_PI / 6, &err) == MT_OK, "turn 30 deg about z: %s", err.msg);
    CHECK(mt_edit_turn_body(e, b, 2, M_PI / 3, &err) == MT_OK, "turn 60 deg about z: %s", err.msg);
    m = mt_editor_model(e);
    CHECK_ABS(atan2(m->body[b].rot[3], m->body[b].rot[0]), M_PI / 2, 1e-12, "angle about z after 30 + 60 deg");
    char buf[64];
    CHECK(mt_edit_get_field(m, MT_EDIT_BODY, b, "orientation.2", buf, sizeof buf, &err) == MT_OK && !strcmp(buf, "1.5708 rad"),
          "the orientation field shows it: '%s'", buf);
    /* back to the start (two undos), then 90° about y: body x → project −z (right-handed) */
    CHECK(mt_editor_undo(e, &err) == MT_OK && mt_editor_undo(e, &err) == MT_OK, "two undos: %s", err.msg);
    CHECK(mt_edit_turn_body(e, b, 1, M_PI / 2, &err) == MT_OK, "turn about y: %s", err.msg);
    m = mt_editor_model(e);
    double x[3];
    column(m->body[b].rot, 0, x);
    CHECK_ABS(x[2], -1, 1e-12, "body x along project -z after 90 deg about y");

    /* refused: the ground, a bad axis, a non-finite angle; nothing changes */
    char *kept = mt_test_model_text(m);
    CHECK(mt_edit_turn_body(e, MT_GROUND, 0, 1, &err) == MT_ERR_ARG, "the ground cannot be turned");
    CHECK(mt_edit_turn_body(e, b, 3, 1, &err) == MT_ERR_ARG, "axis 3 refused");
    CHECK(strstr(err.msg, "plate") != NULL, "the message names the body: '%s'", err.msg);
    CHECK(mt_edit_turn_body(e, b, 1, NAN, &err) == MT_ERR_ARG, "a NaN angle refused");
    char *after = mt_test_model_text(mt_editor_model(e));
    CHECK(!strcmp(kept, after), "refused turns leave the model as it was");
    free(kept), free(after), free(before);
    mt_editor_free(e);
    return mt_test_done();
}
