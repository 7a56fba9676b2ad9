/* Named tables of the model (mt_tables.c) and the text format around them:
 * table() and spline() in a force, a parameter and a spring curve against
 * hand values and a closed-form motion; statements continued over lines with
 * a thousand-point driver table and a ten-thousand-point table that read back
 * and write back unchanged; and the messages for a wrong table or a wrong
 * expression, naming the entity, the field and the column. */
#include <string.h>

#include "motus/results.h"
#include "mt_test.h"

#define G0 "ground\n marker o\n marker rail z 1 0 0\nend\n"

/* Parses text that must fail; returns the message. */
static const char *parse_error(const char *text, MtError *err)
{
    MtModel *m = mt_model_parse(text, "t.motus.txt", err);
    if (m) {
        MtSystem *s = mt_system_compile(m, err);
        if (s && mt_system_assemble(s, err)) { mt_system_free(s); s = NULL; }
        mt_model_free(m);
        if (s) {
            mt_system_free(s);
            return "";
        }
    }
    printf("  message: %s\n", err->msg);
    return err->msg;
}

int main(void)
{
    MtError err = {0};
    char *big = malloc(1 << 20);

    /* a force read from a table: F = 2t up to 1 s, then 2 N, on 1 kg: x(2) = 1/3 + 1 + 1 = 7/3
     * (rk4 with steps on the break points integrates the cubic exactly) */
    MtSystem *s = mt_test_system("solver method rk4 step 1e-3 until 2\n" G0
                                 "table ramp\n  0 0  1 2\n  2 2\nend\n"
                                 "body cart\n mass 1\n inertia 0.01 0.01 0.01\n marker s z 1 0 0\nend\n"
                                 "joint slide prismatic cart.s ground.rail\n"
                                 "force push actuator cart.s ground.rail fz {table(time, ramp)}\n");
    MtState *st = mt_test_run(s, NULL, NULL, NULL);
    CHECK_ABS(mt_joint_coordinate(st, st->q, 0), 7.0 / 3, 1e-12, "actuator force table(time, ramp): x(2 s) = 7/3 [m]");
    mt_state_free(st);
    mt_system_free(s);

    /* spline() in a parameter: the natural cubic spline through (k, k^3), k = 0..3, is 3.15 at 1.5
     * (second derivatives 0, 4.8, 16.8, 0); table() interpolates linearly: 4.5 */
    MtModel *m = mt_model_parse("table cube\n 0 0\n 1 1\n 2 8\n 3 27\nend\n"
                                "parameter P {spline(1.5, cube)}\nparameter Q {table(1.5, cube)}\n",
                                "t", &err);
    CHECK(m != NULL, "parameters reading a table: %s", err.msg);
    if (m) {
        CHECK_ABS(m->param[0].value, 3.15, 1e-14, "parameter spline(1.5, cube)");
        CHECK_ABS(m->param[1].value, 4.5, 1e-14, "parameter table(1.5, cube)");
        mt_model_free(m);
    }

    /* a spring whose curve is a spline through a linear law behaves as that spring: T = 2 pi sqrt(m/k) */
    s = mt_test_system("solver method dp54 step 1e-3 until 0.15707963267948966 rtol 1e-11 atol 1e-13\n" G0
                       "table law\n -1 -200  0 0  0.5 100  1 200\nend\n"
                       "body bob\n mass 0.5\n inertia 0.01 0.01 0.01\n position 0.05 0 0\n marker s z 1 0 0\nend\n"
                       "joint slide prismatic bob.s ground.rail\nspring sp bob.s ground.o length 0.1 curve {spline(x, law)}\n");
    st = mt_test_run(s, NULL, NULL, NULL);
    /* the bob starts 0.05 m short of the free length 0.1 m: x = 0.1 − 0.05 cos(20 t), at pi/20 s 0.15 m */
    CHECK_ABS(mt_joint_coordinate(st, st->q, 0), 0.05 + 0.05 * 2, 1e-9, "spring curve spline(x, law): half a period of 200 N/m [m]");
    mt_state_free(st);
    mt_system_free(s);

    /* a driver table of 1000 points, five points per line joined by backslashes: x(t) = sin(2 pi t)
     * sampled every 1 ms; at 0.5005 s (between points) the spline matches sin to 1e-9 */
    {
        size_t n = (size_t)snprintf(big, 1 << 20, "solver method rk4 step 1e-3 until 0.5005\n" G0
                                                  "body cart\n mass 1\n inertia 0.01 0.01 0.01\n marker s z 1 0 0\nend\n"
                                                  "joint slide prismatic cart.s ground.rail\n"
                                                  "driver d slide table");
        for (int k = 0; k < 1000; k++) {
            double tk = 1e-3 * k;
            n += (size_t)snprintf(big + n, (1 << 20) - n, " %.17g %.17g%s", tk, sin(2 * M_PI * tk), k % 5 == 4 ? " \\\n " : "");
        }
        snprintf(big + n, (1 << 20) - n, "\n");
        m = mt_model_parse(big, "t", &err);
        CHECK(m && m->ndriver == 1 && m->driver[0].ntab == 1000, "a 1000-point driver table over 200 lines: %s", err.msg);
        if (m) {
            char *txt = mt_test_model_text(m);
            MtModel *m2 = mt_model_parse(txt, "written", &err);
            char *txt2 = m2 ? mt_test_model_text(m2) : NULL;
            CHECK(m2 && !strcmp(txt, txt2) && m2->driver[0].ntab == 1000 && !memcmp(m->driver[0].tab, m2->driver[0].tab, 2000 * sizeof(double)),
                  "written and read back unchanged (%zu bytes)", strlen(txt));
            free(txt);
            free(txt2);
            mt_model_free(m2);
            s = mt_system_compile(m, &err);
            if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
            st = s ? mt_test_run(s, NULL, NULL, NULL) : NULL;
            if (st) CHECK_ABS(mt_joint_coordinate(st, st->q, 0), sin(2 * M_PI * 0.5005), 1e-9, "driver follows the spline at 0.5005 s [m]");
            mt_state_free(st);
            mt_system_free(s);
            mt_model_free(m);
        }
    }
    /* a table block of 10000 points on 10000 lines reads and writes back bit for bit */
    {
        size_t n = (size_t)snprintf(big, 1 << 20, "table long\n");
        for (int k = 0; k < 10000; k++) n += (size_t)snprintf(big + n, (1 << 20) - n, "  %.17g %.17g\n", 0.1 * k, exp(-1e-3 * k));
        snprintf(big + n, (1 << 20) - n, "end\nparameter P {table(123.45, long)}\n");
        m = mt_model_parse(big, "t", &err);
        CHECK(m && m->ntable == 1 && m->table[0].n == 10000, "a 10000-point table: %s", err.msg);
        if (m) {
            CHECK_ABS(m->param[0].value, exp(-1e-3 * 1234) + 0.5 * (exp(-1e-3 * 1235) - exp(-1e-3 * 1234)), 1e-15,
                      "table(123.45, long) interpolates between points 1234 and 1235");
            char *txt = mt_test_model_text(m);
            CHECK(!strncmp(txt, "motus-model 1\ntable long\n  0 1\n", 31), "written as a table block");
            MtModel *m2 = mt_model_parse(txt, "written", &err);
            CHECK(m2 && m2->table[0].n == 10000 && !memcmp(m2->table[0].x, m->table[0].x, 10000 * sizeof(double)) &&
                      !memcmp(m2->table[0].y, m->table[0].y, 10000 * sizeof(double)),
                  "read back bit for bit");
            free(txt);
            mt_model_free(m2);
            mt_model_free(m);
        }
    }

    /* messages name the entity, the field and the column */
    const char *msg = parse_error(G0 "body cart\n mass 1\n inertia 1 1 1\n marker s\nend\n"
                                  "force push actuator cart.s ground.o fz {2*time + table(time, rampx)}\n",
                                  &err);
    CHECK(strstr(msg, "force 'push', fz") && strstr(msg, "fz") && strstr(msg, "column 22") && strstr(msg, "unknown table 'rampx'"),
          "unknown table in a force: entity, field and column");
    msg = parse_error(G0 "body cart\n mass 1\n inertia 1 1 1\n marker s\nend\n"
                      "control c1 pid input {cart.x} setpoint {0.1 * (1 + )} kp 1\n",
                      &err);
    CHECK(strstr(msg, "control 'c1', setpoint") && strstr(msg, "column 12"), "syntax error in a control's set point: column");
    msg = parse_error(G0 "body cart\n mass 1\n inertia 1 1 1\n marker s\nend\n"
                      "event e1 when {cart.x > 0.1 && nosuch} crosses 0.5 do stop\n",
                      &err);
    CHECK(strstr(msg, "event 'e1', when") && strstr(msg, "column 17") && strstr(msg, "nosuch"),
          "unknown name in an event: column");
    msg = parse_error("table bad\n 0 1\n 2 3\n 1 4\nend\n", &err);
    CHECK(strstr(msg, "table 'bad'") && strstr(msg, "point 3"), "a table whose x goes back is refused, naming it and the point");
    msg = parse_error("title \"x\"\ntable odd\n 0 1 \\\n 2\nend\n", &err);
    CHECK(strstr(msg, "t.motus.txt:2:") && strstr(msg, "'odd'") && strstr(msg, "pairs"), "an odd number of values: the table and its line");
    msg = parse_error("title \"x\"\ndriver d \\\n nosuch \\\n table 0 0 1 1\n", &err);
    CHECK(strstr(msg, "t.motus.txt:2:") && strstr(msg, "nosuch"), "a continued statement's error names its first line");
    msg = parse_error("table t1\n 0 0 1 1\nend\ntable t1\n 0 0 1 1\nend\n", &err);
    CHECK(strstr(msg, "'t1'") && strstr(msg, "twice"), "a table defined twice");
    msg = parse_error("table t2\n 0 0 1 1\n", &err);
    CHECK(strstr(msg, "'t2'") && strstr(msg, "end"), "an unclosed table");
    free(big);
    return mt_test_done();
}
