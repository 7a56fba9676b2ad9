/* test_labels.c — the interface's words for kinds of entities (core/model/mt_labels.c):
 * one for every kind, no two alike within a table, English without a
 * catalogue, and looked up in the compiled catalogues (build/locale) under
 * their context, so that "distance" as a joint type and as a sensor can be
 * translated differently. */
#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "motus/edit.h"
#include "mt_i18n.h"
#include "mt_test.h"
#include "motus/units.h"

typedef const char *(*Label)(int);
static const char *joint(int k) { return mt_joint_type_label((MtJointType)k); }
static const char *force(int k) { return mt_force_kind_label((MtForceKind)k); }
static const char *sensor(int k) { return mt_sensor_kind_label((MtSensorKind)k); }
static const char *shape(int k) { return mt_shape_kind_label((MtShapeKind)k); }
static const char *couple(int k) { return mt_couple_kind_label((MtCoupleKind)k); }

static const struct {
    const char *what;
    Label f;
    int n;
} tables[] = {{"joint type", joint, MT_JOINT_NTYPES},
              {"force element", force, MT_FORCE_NKINDS},
              {"sensor", sensor, MT_SENSOR_NKINDS},
              {"shape", shape, MT_SHAPE_NKINDS},
              {"coupling", couple, MT_COUPLE_LINEAR + 1}};

/* Every label present, none "?" and none repeated within its table. */
static void check_tables(const char *lang)
{
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (int k = 0; k < tables[t].n; k++) {
            const char *s = tables[t].f(k);
            CHECK(s && s[0] && strcmp(s, "?"), "%s: %s %d has no label", lang, tables[t].what, k);
            for (int l = 0; l < k; l++)
                CHECK(strcmp(s, tables[t].f(l)), "%s: %s %d and %d both called '%s'", lang, tables[t].what, l, k, s);
        }
}

/* Every unit's label reads back as that unit once delocalised (the inspector
 * shows labels and takes what the user types in them), and no two units of
 * one quantity share a label. */
static void check_units(const char *lang)
{
    for (int d = 0; d < MT_DIM_COUNT; d++) {
        const MtUnit *u;
        int n = mt_units_of((MtDim)d, &u);
        for (int k = 0; k < n; k++) {
            const char *l = mt_unit_label(&u[k]);
            char typed[64], back[64];
            snprintf(typed, sizeof typed, "2.5 %s", l);
            CHECK(mt_units_delocalise(typed, back, sizeof back) == 0, "%s: delocalise '%s'", lang, typed);
            double si = 0, want = mt_unit_to_si(&u[k], 2.5);
            MtError err = {0};
            CHECK(mt_units_parse(back, (MtDim)d, NULL, &si, &err) == MT_OK && fabs(si - want) <= 1e-15 * fabs(want),
                  "%s: '%s' typed as '%s' reads %g, not %g (%s)", lang, typed, back, si, want, err.msg);
            for (int j = 0; j < k; j++)
                CHECK(strcmp(l, mt_unit_label(&u[j])), "%s: %s and %s both shown as '%s'", lang, u[j].name, u[k].name, l);
            /* a translated label must name one unit only, whatever the quantity (delocalising knows no quantity) */
            for (int e = 0; strcmp(l, u[k].name) && e < d; e++) {
                const MtUnit *v;
                int m = mt_units_of((MtDim)e, &v);
                for (int j = 0; j < m; j++)
                    CHECK(strcmp(l, mt_unit_label(&v[j])), "%s: %s and %s both shown as '%s'", lang, v[j].name, u[k].name, l);
            }
        }
    }
}

static void use_language(const char *lang)
{
    setenv("LANGUAGE", lang, 1);
    /* gettext ignores LANGUAGE in the "C" locale; a change of locale drops its cached lookups */
    setlocale(LC_ALL, "C");
    setlocale(LC_ALL, "C.UTF-8");
}

int main(void)
{
    /* English: the words themselves, readable ("angular velocity", not the keyword "angvel"). */
    check_tables("English");
    CHECK(!strcmp(mt_joint_type_label(MT_JOINT_REVOLUTE), "revolute"), "revolute: '%s'", mt_joint_type_label(MT_JOINT_REVOLUTE));
    CHECK(!strcmp(mt_joint_type_label(MT_JOINT_INLINE), "point on line"), "inline: '%s'", mt_joint_type_label(MT_JOINT_INLINE));
    CHECK(!strcmp(mt_sensor_kind_label(MT_SENSOR_ANGVEL), "angular velocity"), "angvel: '%s'",
          mt_sensor_kind_label(MT_SENSOR_ANGVEL));
    CHECK(!strcmp(mt_force_kind_label(MT_FORCE_TORSION), "torsion spring"), "torsion: '%s'",
          mt_force_kind_label(MT_FORCE_TORSION));
    CHECK(!strcmp(mt_joint_type_label((MtJointType)99), "?"), "out of range");
    check_units("English");
    CHECK(!strcmp(mt_edit_choice_label("law", "rate"), "constant rate") &&
              !strcmp(mt_edit_choice_label("type", "inline"), "point on line") &&
              !strcmp(mt_edit_choice_label("method", "rk4"), "RK4, fixed step") &&
              !strcmp(mt_edit_choice_label("point_mass", "on"), "on") && !strcmp(mt_edit_choice_label("x", "y"), "y"),
          "the inspector's words for choices (a value without words is itself)");
    CHECK(!strcmp(mt_unit_label_of("Nm", MT_DIM_TORQUE), "N·m"), "Nm shown as '%s'", mt_unit_label_of("Nm", MT_DIM_TORQUE));
    CHECK(!strcmp(mt_unit_label_of("widgets", MT_DIM_ANY), "widgets"), "no unit shown as itself");

    const char *dir = getenv("MOTUS_LOCALEDIR");
    if (!dir) {
        printf("MOTUS_LOCALEDIR not set: the catalogues are not checked\n");
        return mt_test_done();
    }
    bindtextdomain(MT_TEXT_DOMAIN, dir);
    bind_textdomain_codeset(MT_TEXT_DOMAIN, "UTF-8");

    use_language("ru");
    check_tables("ru");
    const char *jd = mt_joint_type_label(MT_JOINT_DISTANCE), *sd = mt_sensor_kind_label(MT_SENSOR_DISTANCE);
    printf("ru: revolute '%s', distance joint '%s', distance sensor '%s'\n", mt_joint_type_label(MT_JOINT_REVOLUTE), jd, sd);
    CHECK(!strcmp(mt_joint_type_label(MT_JOINT_REVOLUTE), "вращательный"), "ru revolute: '%s'",
          mt_joint_type_label(MT_JOINT_REVOLUTE));
    CHECK(!strcmp(sd, "расстояние") && strcmp(jd, sd), "ru: the distance joint and sensor need their own words");
    CHECK(!strcmp(mt_force_kind_label(MT_FORCE_STRUT), "амортизационная стойка"), "ru strut: '%s'",
          mt_force_kind_label(MT_FORCE_STRUT));
    check_units("ru");
    CHECK(!strcmp(mt_edit_choice_label("law", "rate"), "постоянная скорость") &&
              !strcmp(mt_edit_choice_label("level", "vel"), "скорость") &&
              !strcmp(mt_edit_choice_label("point_mass", "off"), "выкл."),
          "ru: choices '%s', '%s'", mt_edit_choice_label("law", "rate"), mt_edit_choice_label("point_mass", "off"));
    CHECK(!strcmp(mt_unit_label_of("mm", MT_DIM_LENGTH), "мм"), "ru mm: '%s'", mt_unit_label_of("mm", MT_DIM_LENGTH));
    CHECK(!strcmp(mt_unit_label_of("g", MT_DIM_MASS), "г") && !strcmp(mt_unit_label_of("g", MT_DIM_ACCEL), "g"),
          "ru: the gram and standard gravity told apart by their quantity");
    {
        /* typed text: labels as whole words only, expressions' names and Latin symbols untouched */
        static const char *const in[][2] = {{"250 мм", "250 mm"},       {"30°", "30deg"},
                                            {" -250 МПа ", " -250 MPa"},  {"5 ммм", "5 ммм"},
                                            {"3 Н·м", "3 N·m"},           {"1500 об/мин", "1500 rpm"},
                                            {"2 mm", "2 mm"},             {"7 кг·м²", "7 kg·m²"},
                                            {"{2*с}", "{2*с}"},           {"с", "с"},
                                            {"{L} мм", "{L} мм"}};
        for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
            char out[64];
            CHECK(mt_units_delocalise(in[i][0], out, sizeof out) == 0 && !strcmp(out, in[i][1]),
                  "ru: '%s' delocalised to '%s', want '%s'", in[i][0], out, in[i][1]);
        }
        char tiny[4];
        CHECK(mt_units_delocalise("25 мм", tiny, sizeof tiny) == -1 && !tiny[0], "too small a buffer reported");
    }
    /* an ordinary message of the same catalogue still found: the context did not hide the domain */
    CHECK(strcmp(MT_("out of memory"), "out of memory"), "ru: 'out of memory' untranslated");

    use_language("zh_CN");
    check_tables("zh_CN");
    check_units("zh_CN");
    printf("zh_CN: revolute '%s', angular velocity '%s'\n", mt_joint_type_label(MT_JOINT_REVOLUTE),
           mt_sensor_kind_label(MT_SENSOR_ANGVEL));
    CHECK(!strcmp(mt_joint_type_label(MT_JOINT_REVOLUTE), "转动副"), "zh_CN revolute: '%s'",
          mt_joint_type_label(MT_JOINT_REVOLUTE));
    CHECK(!strcmp(mt_sensor_kind_label(MT_SENSOR_ANGVEL), "角速度"), "zh_CN angvel: '%s'",
          mt_sensor_kind_label(MT_SENSOR_ANGVEL));
    return mt_test_done();
}
