/* test_text.c — texts in fixed buffers (core/model/mt_error.c, core/edit/mt_edit.c): a
 * text cut to fit ends on a whole UTF-8 character with "…" (a label of the
 * Russian solver dialog ended in half a letter), the inspector's labels are
 * not cut at all, and a field's text is given whole or refused, never cut. */
#include <glob.h>
#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "motus/edit.h"
#include "mt_i18n.h"
#include "mt_test.h"

/* 1 when s is well-formed UTF-8 */
static int utf8_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0) return 0;
        p++;
        for (int k = 0; k < n; k++, p++)
            if ((*p & 0xC0) != 0x80) return 0;
    }
    return 1;
}

static const char *kind_names[] = {"body", "marker", "joint", "driver", "spring", "couple", "force", "sensor",
                                   "shape", "param", "control", "event", "gravity", "solver"};

/* Every field label of every entity of m: whole UTF-8, not cut ("…"), as long as its own translation. */
static void check_labels(const MtModel *m, const char *lang)
{
    int nfield = 0, bad = 0;
    for (int k = 0; k < MT_EDIT_NKINDS; k++)
        for (int i = 0; i < mt_edit_count(m, (MtEditKind)k) || (i == 0 && (k == MT_EDIT_GRAVITY || k == MT_EDIT_SOLVER)); i++) {
            MtFieldInfo f[MT_FIELD_MAX];
            int n = mt_edit_fields(m, (MtEditKind)k, i, f, MT_FIELD_MAX);
            for (int q = 0; q < n; q++, nfield++)
                if (!utf8_ok(f[q].label) || strstr(f[q].label, "\xe2\x80\xa6") || strlen(f[q].label) + 1 >= sizeof f[q].label) {
                    printf("FAIL %s: %s %d field %s: label '%s' cut\n", lang, k < 14 ? kind_names[k] : "?", i, f[q].name, f[q].label);
                    bad++;
                }
        }
    CHECK(nfield >= 20 && bad == 0, "%s: %d field labels, %d cut", lang, nfield, bad);
}

int main(void)
{
    /* mt_utf8_prefix and mt_utf8_fmt: "ж" is 2 bytes, "€" 3 */
    const char *s = "ажж€x";
    CHECK(mt_utf8_prefix(s, 1) == 0 && mt_utf8_prefix(s, 2) == 2 && mt_utf8_prefix(s, 3) == 2 && mt_utf8_prefix(s, 5) == 4 &&
              mt_utf8_prefix(s, 7) == 6 && mt_utf8_prefix(s, 8) == 6 && mt_utf8_prefix(s, 9) == 9 && mt_utf8_prefix(s, 100) == 10,
          "prefixes end on whole characters");
    char buf[12];
    int full = mt_utf8_fmt(buf, sizeof buf, "%s", "Параметры");
    CHECK(full == 18 && utf8_ok(buf) && !strcmp(buf, "Пара\xe2\x80\xa6"), "'Параметры' in 12 bytes: '%s' (%d)", buf, full);
    mt_utf8_fmt(buf, sizeof buf, "%s", "short");
    CHECK(!strcmp(buf, "short"), "a text that fits is left alone");
    for (size_t n = 1; n <= sizeof buf; n++) {
        mt_utf8_fmt(buf, n, "%s", "жжжжжжжжжж");
        CHECK(utf8_ok(buf) && strlen(buf) < n, "in %zu bytes: '%s' is whole characters", n, buf);
    }
    /* error messages and entities too */
    char name[400] = "";
    for (int i = 0; i < 150; i++) strcat(name, "ы");
    MtError err = {0};
    mt_error_set(&err, MT_ERR_MODEL, name, "тело «%s»: масса %s", name, name);
    CHECK(utf8_ok(err.msg) && utf8_ok(err.entity) && strstr(err.msg, "\xe2\x80\xa6") && strstr(err.entity, "\xe2\x80\xa6"),
          "a long Cyrillic error message and entity are cut on a character, with '…'");

    /* a field's text is whole or refused, never cut */
    char expr[1100] = "0";
    for (int i = 0; i < 400; i++) strcat(expr, "+1");
    char *text = malloc(2 * sizeof expr + 64); /* room for both copies: no truncation to warn about */
    snprintf(text, 2 * sizeof expr + 64, "gravity 0 {-(%s)} 0\nparameter p {%s}\n", expr, expr);
    MtModel *m = mt_model_parse(text, "t", &err);
    CHECK(m != NULL, "an 801-byte expression is read: %s", err.msg);
    if (m) {
        char big[MT_FIELD_TEXT_MAX], small[512];
        CHECK(mt_edit_get_field(m, MT_EDIT_PARAM, 0, "expr", big, sizeof big, &err) == MT_OK && !strcmp(big, expr),
              "the parameter's expression comes whole (%zu bytes)", strlen(big));
        CHECK(mt_edit_get_field(m, MT_EDIT_GRAVITY, 0, "gravity.1", big, sizeof big, &err) == MT_OK && strlen(big) == strlen(expr) + 5,
              "the bound field's {expression} too (%zu bytes)", strlen(big));
        CHECK(mt_edit_get_field(m, MT_EDIT_GRAVITY, 0, "gravity.1", small, sizeof small, &err) == MT_ERR_ARG && !small[0] &&
                  strstr(err.msg, "gravity.1"),
              "a buffer too small is refused, not filled with a cut expression: %s", err.msg);
        mt_model_free(m);
    }
    free(text);

    /* the inspector's labels of every entity of the examples, in English and in the catalogues' languages */
    glob_t g;
    CHECK(glob(MOTUS_PROJECTS_DIR "/*.motus.txt", 0, NULL, &g) == 0 && g.gl_pathc >= 10, "the examples");
    MtModel *all[64];
    int nm = 0;
    for (size_t i = 0; i < g.gl_pathc && nm < 64; i++) {
        all[nm] = mt_model_load(g.gl_pathv[i], &err);
        CHECK(all[nm] != NULL, "%s: %s", g.gl_pathv[i], err.msg);
        if (all[nm]) nm++;
    }
    globfree(&g);
    for (int i = 0; i < nm; i++) check_labels(all[i], "English");
    const char *dir = getenv("MOTUS_LOCALEDIR");
    if (dir) {
        bindtextdomain(MT_TEXT_DOMAIN, dir);
        bind_textdomain_codeset(MT_TEXT_DOMAIN, "UTF-8");
        const char *langs[] = {"ru", "zh_CN"};
        for (int l = 0; l < 2; l++) {
            setenv("LANGUAGE", langs[l], 1);
            setlocale(LC_ALL, "C");
            setlocale(LC_ALL, "C.UTF-8");
            for (int i = 0; i < nm; i++) check_labels(all[i], langs[l]);
            MtFieldInfo f[MT_FIELD_MAX];
            int n = mt_edit_fields(all[0], MT_EDIT_SOLVER, 0, f, MT_FIELD_MAX), translated = 0;
            for (int q = 0; q < n; q++) translated += (unsigned char)f[q].label[0] >= 0xC0;
            CHECK(translated > 0, "%s: the solver's labels are translated (%d of %d)", langs[l], translated, n);
        }
    } else printf("MOTUS_LOCALEDIR not set: the catalogues' labels are not checked\n");
    for (int i = 0; i < nm; i++) mt_model_free(all[i]);
    return mt_test_done();
}
