/* The lesson mode's reading of a course problem (core/model/mt_lesson.c):
 * every model of projects/course/ reads as a lesson with a title, both
 * statements, both answers and all its checks; a model without the comment
 * layout is no lesson; answers typed with units are judged against the
 * printed answer (1 %, or half a unit of its last digit): right in another
 * unit of the quantity, wrong outside the tolerance, refused without a unit,
 * with a unit of another quantity, or without a number. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/lesson.h"
#include "mt_test.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (b) b[n] = 0;
    fclose(f);
    return b;
}

static int count_checks(const char *text)
{
    int n = 0;
    for (const char *p = strstr(text, "# check: "); p; p = strstr(p + 1, "# check: ")) n++;
    return n;
}

int main(void)
{
    DIR *d = opendir(MOTUS_PROJECTS_DIR "/course");
    CHECK(d != NULL, "projects/course readable");
    int n = 0, good = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strstr(e->d_name, ".motus.txt")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/course/%s", MOTUS_PROJECTS_DIR, e->d_name);
        char *text = slurp(path);
        MtLesson l;
        int ok = text && mt_lesson_read(text, &l) == 1;
        n++;
        if (ok && l.problem[0] && l.en[0] && l.ru[0] && l.answer[0] && l.answer_ru[0] && l.ncheck == count_checks(text))
            good++;
        else
            printf("not a whole lesson: %s\n", e->d_name);
        if (ok) mt_lesson_free(&l);
        free(text);
    }
    if (d) closedir(d);
    printf("%d of %d course problems read as whole lessons\n", good, n);
    CHECK(n >= 30 && good == n, "every course problem reads (%d of %d)", good, n);

    MtLesson l;
    CHECK(mt_lesson_read("# A pendulum\nbody b\n mass 1\nend\n# problem: not at the head\n", &l) == 0,
          "a model without the layout is no lesson");
    const char *k = "# problem: K04 four-bar\n# en: Find v_B.\n# ru: Найти v_B.\n# answer: v_B = 0.566 m/s\n"
                    "# ответ: v_B = 0,566 м/с\n# check: kinematics v_B at 0 answer 0.566 m/s closed 2*sqrt(0.08)\n"
                    "# check: kinematics icr_x at 0 answer 0 m closed 0\n# check: modes 1 at 0 answer 0.921 Hz\n"
                    "# check: run ratio at end answer 2.5 1\nground\nend\n";
    CHECK(mt_lesson_read(k, &l) == 1 && l.ncheck == 4 && !strcmp(l.ru, "Найти v_B.") && l.check[0].value == 0.566 &&
              !strcmp(l.check[0].unit, "m/s") && l.check[0].half_digit == 0.0005,
          "a lesson read: %d checks", l.ncheck);
    static const struct {
        int check;
        const char *typed;
        MtLessonVerdict want;
    } cases[] = {{0, "0.566 m/s", MT_LESSON_RIGHT},   {0, "566 mm/s", MT_LESSON_RIGHT},
                 {0, "0,57 m/s", MT_LESSON_RIGHT},    {0, "2.04 km/h", MT_LESSON_RIGHT},
                 {0, "0.6 m/s", MT_LESSON_WRONG},     {0, "0.566", MT_LESSON_NO_UNIT},
                 {0, "0.566 N", MT_LESSON_OTHER_UNIT}, {0, "fast", MT_LESSON_UNREADABLE},
                 {1, "0 m", MT_LESSON_RIGHT},         {1, "0.8 mm", MT_LESSON_RIGHT},
                 {1, "2 mm", MT_LESSON_WRONG},        {2, "0.92 Hz", MT_LESSON_RIGHT},
                 {2, "55.3 rpm", MT_LESSON_OTHER_UNIT}, {3, "2.5", MT_LESSON_RIGHT},
                 {3, "2.5 m", MT_LESSON_OTHER_UNIT}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double si = 0;
        MtLessonVerdict v = mt_lesson_judge(&l.check[cases[i].check], cases[i].typed, &si);
        CHECK(v == cases[i].want, "'%s' judged %d (want %d), read %g SI", cases[i].typed, v, cases[i].want, si);
    }
    mt_lesson_free(&l);
    return mt_test_done();
}
