/* mt_view.c — the `view` line: how the 3D view shows the model's flexible
 * bodies (deformation scale, colour field and range) and where it looks
 * (a standard camera, a body framed), kept with the model so that it opens
 * the way its author left it. Declared in motus/model.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/model.h"
#include "mt_i18n.h"

static const char *const fields[] = {"none", "displacement", "stress"};
static const char *const ranges[] = {"run", "frame"};
static const char *const cameras[] = {"", "front", "right", "top", "iso"};

static int lookup(const char *w, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (names[i][0] && !strcmp(w, names[i])) return i;
    return -1;
}

/* A finite number, the whole word. */
static int number(const char *w, double *x)
{
    char *end;
    *x = strtod(w, &end);
    return end != w && !*end && isfinite(*x);
}

MtStatus mt_view_parse(MtViewSpec *v, char *const *word, int n, MtError *err)
{
    MtViewSpec out;
    memset(&out, 0, sizeof out); /* padding too: views are compared whole */
    out.set = 1, out.deformation = 1, out.field = MT_VIEW_FIELD_NONE, out.range = MT_VIEW_RANGE_RUN;
    out.camera = MT_VIEW_CAMERA_KEEP;
    if (n == 0) return mt_error_set(err, MT_ERR_SYNTAX, "view", "%s", MT_("view: write 'view [deformation S] [colour none|displacement|stress] [range run|frame|LO HI] [camera front|right|top|iso] [focus BODY] [follow BODY] [meter COLUMN]…'"));
    for (int i = 0; i < n; i += 2) { /* KEY VALUE pairs (a fixed range takes one word more) */
        const char *k = word[i], *a = i + 1 < n ? word[i + 1] : NULL;
        int c;
        if (!a) return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: '%s' needs a value after it"), k);
        if (!strcmp(k, "deformation")) {
            if (!number(a, &out.deformation) || !(out.deformation > 0))
                return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: the deformation scale '%s' must be a number above 0"), a);
        } else if (!strcmp(k, "colour") || !strcmp(k, "color")) {
            if ((c = lookup(a, fields, 3)) < 0)
                return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: colour '%s' is none, displacement or stress"), a);
            out.field = (MtViewField)c;
        } else if (!strcmp(k, "range")) {
            if ((c = lookup(a, ranges, 2)) >= 0)
                out.range = (MtViewRange)c;
            else if (i + 2 < n && number(a, &out.lo) && number(word[i + 2], &out.hi) && out.lo < out.hi) {
                out.range = MT_VIEW_RANGE_FIXED;
                i++;
            } else
                return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: range '%s' is run, frame or two numbers LO HI (SI) with LO < HI"), a);
        } else if (!strcmp(k, "camera")) {
            if ((c = lookup(a, cameras, 5)) < 0)
                return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: camera '%s' is front, right, top or iso"), a);
            out.camera = (MtViewCamera)c;
        } else if (!strcmp(k, "meter")) {
            if (out.nmeter >= MT_VIEW_METERS)
                return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: at most %d meters"), MT_VIEW_METERS);
            if (!mt_plot_name_ok(a))
                return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: meter '%s' is not a result column name"), a);
            snprintf(out.meter[out.nmeter++], sizeof out.meter[0], "%s", a);
        } else if (!strcmp(k, "focus")) {
            if (strlen(a) >= sizeof out.focus)
                return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: focus '%s' is not a body name"), a);
            strcpy(out.focus, a);
        } else if (!strcmp(k, "follow")) {
            if (strlen(a) >= sizeof out.follow)
                return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: follow '%s' is not a body name"), a);
            strcpy(out.follow, a);
        } else
            return mt_error_set(err, MT_ERR_SYNTAX, "view", MT_("view: unknown setting '%s' (deformation, colour, range, camera, focus, follow, meter)"), k);
    }
    memcpy(v, &out, sizeof out);
    return MT_OK;
}

/* The shortest of %.15g and %.17g that reads back to x. */
static void num(char *out, size_t n, double x)
{
    snprintf(out, n, "%.15g", x);
    if (strtod(out, NULL) != x) snprintf(out, n, "%.17g", x);
}

void mt_view_format(const MtViewSpec *v, char *buf, size_t n)
{
    if (!v->set) {
        if (n) buf[0] = 0;
        return;
    }
    char a[32], b[32];
    num(a, sizeof a, v->deformation);
    int k = snprintf(buf, n, "view deformation %s colour %s", a, fields[v->field]);
    if (k >= 0 && (size_t)k < n) {
        num(a, sizeof a, v->lo), num(b, sizeof b, v->hi);
        if (v->range == MT_VIEW_RANGE_FIXED) k += snprintf(buf + k, n - (size_t)k, " range %s %s", a, b);
        else k += snprintf(buf + k, n - (size_t)k, " range %s", ranges[v->range]);
    }
    if (k >= 0 && (size_t)k < n && v->camera != MT_VIEW_CAMERA_KEEP) k += snprintf(buf + k, n - (size_t)k, " camera %s", cameras[v->camera]);
    if (k >= 0 && (size_t)k < n && v->focus[0]) k += snprintf(buf + k, n - (size_t)k, " focus %s", v->focus);
    if (k >= 0 && (size_t)k < n && v->follow[0]) k += snprintf(buf + k, n - (size_t)k, " follow %s", v->follow);
    for (int i = 0; i < v->nmeter && k >= 0 && (size_t)k < n; i++) k += snprintf(buf + k, n - (size_t)k, " meter %s", v->meter[i]);
}
