/* test_labels.c — the interface's words for kinds of entities (core/mt_labels.c):
 * one for every kind, no two alike within a table, English without a
 * catalogue, and looked up in the compiled catalogues (build/locale) under
 * their context, so that "distance" as a joint type and as a sensor can be
 * translated differently. */
#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_test.h"

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
    /* an ordinary message of the same catalogue still found: the context did not hide the domain */
    CHECK(strcmp(MT_("out of memory"), "out of memory"), "ru: 'out of memory' untranslated");

    use_language("zh_CN");
    check_tables("zh_CN");
    printf("zh_CN: revolute '%s', angular velocity '%s'\n", mt_joint_type_label(MT_JOINT_REVOLUTE),
           mt_sensor_kind_label(MT_SENSOR_ANGVEL));
    CHECK(!strcmp(mt_joint_type_label(MT_JOINT_REVOLUTE), "转动副"), "zh_CN revolute: '%s'",
          mt_joint_type_label(MT_JOINT_REVOLUTE));
    CHECK(!strcmp(mt_sensor_kind_label(MT_SENSOR_ANGVEL), "角速度"), "zh_CN angvel: '%s'",
          mt_sensor_kind_label(MT_SENSOR_ANGVEL));
    return mt_test_done();
}
