/* test_study.c — studies (motus/study.h, motus/study_run.h) and the signal
 * functions (motus/signal.h): the `study` lines read and written back, the
 * designs' cases, RMS, Welch's PSD against closed forms, a study kept in a
 * project, and a 3 × 3 spring–mass study against x(t) = 1 + x0 cos(√(k/m) t). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mt_test.h"
#include "study_model.h"
#include "motus/signal.h"
#include "motus/store.h"
#include "motus/study.h"
#include "motus/study_run.h"

static const char model_text[] = STUDY_SPRING_MODEL("2");

static MtModel *with_study(const char *study, MtError *err) { return study_model_parse(model_text, study, "study.motus.txt", err); }

static void test_round_trip(void)
{
    MtError err = {0};
    MtModel *m = with_study("study design lhs 12 seed 7\n"
                            "study variable m range 0.5 2 unit kg\n"
                            "study variable k levels 100 250 400 unit kN/m\n"
                            "study response x07 value mass.x at 0.7\n"
                            "study response peak psd_peak mass.x band 0.5 20 from 0.1 to 0.9\n"
                            "study response both expr {x07 * 2 + m}\n",
                            &err);
    CHECK(m && m->study, "a study reads: %s", err.msg);
    if (!m) return;
    char *a = mt_study_text(m->study);
    MtStudy *s2 = mt_study_new();
    CHECK(mt_study_read_text(s2, a, &err) == MT_OK, "its text reads back: %s", err.msg);
    char *b = mt_study_text(s2);
    CHECK(a && b && !strcmp(a, b), "written, read and written again it is the same:\n%s---\n%s", a, b);
    printf("%s", a);
    CHECK(strstr(a, "study variable k levels 100 250 400 unit kN/m\n") != NULL, "levels and unit kept");
    double v[MT_STUDY_VARS];
    mt_study_apply(m->study, m, (double[]){1.5, 250}, &err);
    int pk = mt_model_find_param(m, "k");
    CHECK_ABS(m->param[pk].value, 250e3, 1e-9, "a value in kN/m sets the parameter in N/m (SI value)");
    /* the Latin hypercube: reproducible, one case in each of the 12 strata of m */
    int strata[12] = {0};
    for (int c = 0; c < 12; c++) {
        mt_study_case(m->study, c, v, &err);
        int st = (int)floor((v[0] - 0.5) / 1.5 * 12);
        if (st >= 0 && st < 12) strata[st]++;
    }
    int each = 1;
    for (int i = 0; i < 12; i++) each &= strata[i] == 1;
    CHECK(each, "Latin hypercube: every stratum of m holds one case");
    double v1[MT_STUDY_VARS], v2[MT_STUDY_VARS];
    mt_study_case(m->study, 5, v1, &err);
    mt_study_case(s2, 5, v2, &err);
    CHECK(v1[0] == v2[0] && v1[1] == v2[1], "the same seed gives the same case (%.17g, %.17g)", v1[0], v2[0]);
    free(a);
    free(b);
    mt_study_free(s2);
    mt_model_free(m);
    /* a bad line is refused naming what to write */
    m = with_study("study variable m range 2 1 count 3\n", &err);
    CHECK(!m && strstr(err.msg, "study.motus.txt:") && strstr(err.msg, "range's end is below its start"), "bad range: %s", err.msg);
    mt_model_free(m);
    m = with_study("study variable mu levels 1 2\nstudy response a max mass.x\n", &err);
    CHECK(!m && strstr(err.msg, "no parameter 'mu'"), "unknown parameter: %s", err.msg);
    mt_model_free(m);
    m = with_study("study variable m levels 1 2\nstudy response a expr {b + 1}\nstudy response b max mass.x\n", &err);
    CHECK(!m && strstr(err.msg, "study response 'a'"), "an expression reads only responses above it: %s", err.msg);
    mt_model_free(m);
}

static void test_designs(void)
{
    MtError err = {0};
    MtStudy *s = mt_study_new();
    const char *text = "study design grid\nstudy variable m levels 1 2 3\nstudy variable k range 10 30 count 3\nstudy response a max x\n";
    mt_study_read_text(s, text, &err);
    double v[MT_STUDY_VARS];
    CHECK(mt_study_ncases(s, &err) == 9, "grid 3 x 3: 9 cases");
    mt_study_case(s, 5, v, &err);
    CHECK(v[0] == 2 && v[1] == 30, "grid case 5: m = 2, k = 30 (the first variable varies slowest): %g %g", v[0], v[1]);
    s->design = MT_DESIGN_OAT;
    CHECK(mt_study_ncases(s, &err) == 5, "one at a time: 1 + 2 + 2 cases");
    mt_study_case(s, 0, v, &err);
    CHECK(v[0] == 2 && v[1] == 20, "one at a time, case 0: the middle levels");
    mt_study_case(s, 4, v, &err);
    CHECK(v[0] == 2 && v[1] == 30, "one at a time, case 4: k at its last level, m in the middle");
    mt_study_free(s);
}

static void test_signal(void)
{
    enum { N = 4000 };
    static double t[N + 1], x[N + 1];
    double A = 1.7, f = 12.5, fs = 1000;
    for (int i = 0; i <= N; i++) {
        t[i] = i / fs;
        x[i] = A * sin(2 * M_PI * f * t[i]);
    }
    CHECK_ABS(mt_signal_rms(t, x, N + 1, 0, 4), A / sqrt(2), 1e-12, "RMS of a sine over 50 periods = A/sqrt(2)");
    CHECK_ABS(mt_signal_mean(t, x, N + 1, 0, 4), 0, 1e-12, "mean of a sine over whole periods");
    CHECK_ABS(mt_signal_at(t, x, N + 1, 0.0105), 0.5 * (x[10] + x[11]), 1e-15, "value between frames: linear");
    MtPsd p;
    MtError err = {0};
    double f2 = 37.3; /* off the bins */
    for (int i = 0; i <= N; i++) x[i] = A * sin(2 * M_PI * f2 * t[i]);
    CHECK(mt_signal_psd(t, x, N + 1, 0, 4, NULL, "x", &p, &err) == MT_OK, "Welch PSD: %s", err.msg);
    double v, fp;
    mt_psd_peak(&p, 1, 400, 0, &v, &fp);
    printf("Welch (Hann, 50%%): %d segments, df = %g Hz, peak at %g Hz\n", p.segments, p.df, fp);
    CHECK(p.segments == 8, "8 segments by default (%d)", p.segments);
    CHECK_ABS(fp, f2, p.df, "the PSD peak of a 37.3 Hz sine lies within one bin");
    double total = 0;
    for (int k = 0; k < p.n; k++) total += p.psd[k] * p.df;
    CHECK_REL(total, A * A / 2, 0.02, "Welch with Hann: the PSD integrates to the mean square (A^2/2)");
    mt_psd_free(&p);
    /* Parseval, exact for one rectangular segment of the (mean-free) signal */
    for (int i = 0; i <= N; i++) x[i] = sin(0.37 * i) + 0.3 * cos(1.91 * i) + 0.01 * (i % 7);
    MtWelchSpec one = {MT_WINDOW_RECT, N, 0};
    mt_signal_psd(t, x, N, 0, 4, &one, "x", &p, &err);
    double mean = 0, ms = 0;
    for (int i = 0; i < N; i++) mean += x[i] / N;
    for (int i = 0; i < N; i++) ms += (x[i] - mean) * (x[i] - mean) / N;
    total = 0;
    for (int k = 0; k < p.n; k++) total += p.psd[k] * p.df;
    CHECK_REL(total, ms, 1e-12, "Parseval: one rectangular segment's PSD sums to the mean square");
    mt_psd_free(&p);
    /* settling of x = 1 + exp(-t/tau) into a band tol about x(T): t_s = -tau ln(tol + exp(-T/tau)) */
    double tau = 0.3, tol = 0.02, T = 4;
    for (int i = 0; i <= N; i++) x[i] = 1 + exp(-t[i] / tau);
    double want = -tau * log(tol + exp(-T / tau));
    CHECK_ABS(mt_signal_settling(t, x, N + 1, 0, T, tol), want, 1e-6, "settling time of a decay (frames 1 ms apart, linear between)");
    CHECK_ABS(mt_signal_settling(t, x, N + 1, 1, T, tol), want - 1, 1e-6, "settling time counted from the window's start");
    CHECK_ABS(mt_signal_settling(t, x, N + 1, 0, T, 10), 0, 0, "a signal that never leaves the band settles at once");
}

static void test_responses(void)
{
    /* responses from samples: a sine of 5 Hz, frames every 1 ms for 4 s */
    MtError err = {0};
    MtStudy *s = mt_study_new();
    const char *text = "study variable a levels 2\n"
                       "study response f8 psd_freq x band 1 50\n"
                       "study response f psd_freq x band 1 50 resolution 0.25\n"
                       "study response ts settle y tol 0.02\n"
                       "study response r rms x from 1 to 3\n"
                       "study response q expr {r * sqrt(2) / a}\n";
    CHECK(mt_study_read_text(s, text, &err) == MT_OK, "responses read: %s", err.msg);
    char *back = mt_study_text(s);
    CHECK(back && strstr(back, "resolution 0.25") && strstr(back, "settle y tol 0.02"), "resolution and tol written back:\n%s", back);
    free(back);
    enum { N = 4000 };
    static double t[N + 1], x[N + 1], y[N + 1], z[N + 1];
    for (int i = 0; i <= N; i++) {
        t[i] = i * 1e-3;
        x[i] = 2 * sin(2 * M_PI * 5.125 * t[i]);
        z[i] = 2 * sin(2 * M_PI * 5 * t[i]); /* whole periods in 1 … 3 s */
        y[i] = 1 + exp(-t[i] / 0.3);
    }
    double *col[] = {x, x, y, z, NULL}, resp[5], a = 2;
    CHECK(mt_study_responses(s, &a, t, N + 1, col, resp, &err) == MT_OK, "responses computed: %s", err.msg);
    printf("psd_freq: %.6g Hz (8 segments), %.6g Hz (resolution 0.25 Hz)\n", resp[0], resp[1]);
    CHECK_ABS(resp[1], 5.125, 0.25, "psd_freq with resolution 0.25 Hz: within one bin of 5.125 Hz");
    CHECK(fabs(resp[1] - 5.125) < fabs(resp[0] - 5.125) || fabs(resp[0] - 5.125) < 0.25, "a finer resolution is not worse");
    CHECK_ABS(resp[2], -0.3 * log(0.02 + exp(-4 / 0.3)), 1e-6, "settle: the closed form");
    CHECK_ABS(resp[4], 1, 1e-9, "an expression of a response and a variable: rms * sqrt(2) / a = 1");
    mt_study_free(s);
}

static const char grid_study[] = "study design grid\n"
                                 "study variable m levels 0.5 1 2 unit kg\n"
                                 "study variable k range 100 400 count 3 unit N/m\n"
                                 "study response x07 value mass.x at 0.7\n"
                                 "study response xmax max mass.x\n"
                                 "study response amp expr {xmax - 1}\n";

static void test_cases(void)
{
    MtError err = {0};
    MtModel *m = with_study(grid_study, &err);
    CHECK(m != NULL, "the spring-mass study reads: %s", err.msg);
    if (!m) return;
    double worst = 0;
    for (int c = 0; c < 9; c++) {
        double v[MT_STUDY_VARS], r[MT_STUDY_RESPONSES];
        MtStatus rc = mt_study_run_case(m, c, NULL, v, r, &err);
        CHECK(rc == MT_OK, "case %d runs: %s", c, err.msg);
        double want = 1 + 0.1 * cos(sqrt(v[1] / v[0]) * 0.7);
        worst = fmax(worst, fabs(r[0] - want));
        CHECK(fabs(r[0] - want) <= 1e-8, "case %d (m %g, k %g): x(0.7) %.12g, closed form %.12g", c, v[0], v[1], r[0], want);
        CHECK_ABS(r[2], 0.1, 1e-8, "amplitude = max - 1 (an expression response)");
    }
    printf("largest |x(0.7) - closed form| over the 9 cases: %.3g\n", worst);
    /* kept in a project and read back */
    char path[] = "/tmp/motus-test-study-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    MtStore *s = mt_store_open(path, MT_STORE_CREATE, &err);
    long ver = 0;
    CHECK(s && mt_store_save_model(s, m, &ver, &err) == MT_OK, "saved: %s", err.msg);
    MtModel *back = s ? mt_store_load_model(s, NULL, &err) : NULL;
    CHECK(back && back->study && back->study->nvar == 2 && back->study->nresp == 3, "the study is in the project: %s", err.msg);
    int kept = -1;
    CHECK(s && mt_store_study_begin(s, m->study, ver, 1, &kept, &err) == MT_OK && kept == 0, "study results begun");
    MtStudyCaseResult cr = {.index = 4, .failed = 1, .values = {1, 250}, .resp = {NAN, 2, 3}};
    snprintf(cr.message, sizeof cr.message, "solver failed");
    snprintf(cr.job, sizeof cr.job, "local");
    CHECK(s && mt_store_study_put(s, m->study, &cr, &err) == MT_OK, "a case recorded: %s", err.msg);
    MtStudyCaseResult *rows = NULL;
    int n = s ? mt_store_study_cases(s, m->study, &rows, &err) : -1;
    CHECK(n == 1 && rows[0].index == 4 && rows[0].failed && isnan(rows[0].resp[0]) && rows[0].resp[2] == 3 &&
              !strcmp(rows[0].message, "solver failed"), "the case reads back (%d)", n);
    free(rows);
    CHECK(s && mt_store_study_begin(s, m->study, ver, 1, &kept, &err) == MT_OK && kept == 1, "the same study keeps its case");
    CHECK(s && mt_store_study_begin(s, m->study, ver + 1, 1, &kept, &err) == MT_OK && kept == 0, "another model version clears it");
    mt_store_close(s);
    mt_model_free(back);
    mt_model_free(m);
    unlink(path);
    char aux[64];
    snprintf(aux, sizeof aux, "%s-wal", path);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-shm", path);
    unlink(aux);
}

/* Cases on two threads at once give what they give one after the other, bit
 * for bit (each case its own model copy and system; FFTW's planner locked). */
typedef struct {
    const MtModel *m;
    int first;
    double resp[9][MT_STUDY_RESPONSES];
    int fails;
} Half;

static void *run_half(void *arg)
{
    Half *h = arg;
    MtError err = {0};
    for (int c = h->first; c < 9; c += 2) h->fails += mt_study_run_case(h->m, c, NULL, NULL, h->resp[c], &err) != MT_OK;
    return NULL;
}

static void test_threads(void)
{
    MtError err = {0};
    MtModel *m = with_study("study design grid\n"
                            "study variable m levels 0.5 1 2 unit kg\n"
                            "study variable k range 100 400 count 3 unit N/m\n"
                            "study response x07 value mass.x at 0.7\n"
                            "study response peak psd_peak mass.x band 0.5 20\n"
                            "study response r rms mass.x\n",
                            &err);
    if (!m) return;
    double seq[9][MT_STUDY_RESPONSES];
    for (int c = 0; c < 9; c++) mt_study_run_case(m, c, NULL, NULL, seq[c], &err);
    Half a = {m, 0, {{0}}, 0}, b = {m, 1, {{0}}, 0};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, run_half, &a);
    pthread_create(&tb, NULL, run_half, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    int same = a.fails == 0 && b.fails == 0;
    for (int c = 0; c < 9; c++)
        for (int r = 0; r < 3; r++) same &= memcmp(&seq[c][r], c % 2 ? &b.resp[c][r] : &a.resp[c][r], sizeof(double)) == 0;
    CHECK(same, "9 cases on two threads: the same responses, bit for bit, as one after the other");
    mt_model_free(m);
}

/* A variable that sets a flexible body's Young's modulus: each case reduces
 * the body again, so a cantilever twice as stiff sags half as much under
 * gravity (the heavily damped strip is at rest at t = 1 s; the reduced
 * stiffness scales with E, the mass does not). */
static void test_flexible(void)
{
    static const char text[] =
        "motus-model 1\n"
        "gravity 0 -9.81 0\n"
        "solver method hht step 1e-3 until 1 alpha -0.1 rtol 1e-9 atol 1e-12\n"
        "parameter E 2.1e11 Pa\n"
        "ground\n marker base\nend\n"
        "body strip\n"
        " flexible beam length 0.5 elements 10 section rect 0.02 0.01 E {E} nu 0.3 rho 7850 method cb modes 2 zeta 0.7\n"
        " marker root node 1\n marker tip node 11\nend\n"
        "joint clamp fixed strip.root ground.base\n"
        "sensor tip_y position strip.tip component y\n"
        "study design table\n"
        "study variable E levels 1 unit GPa\n"
        "study case 100\nstudy case 200\n"
        "study response sag value tip_y at 1\n";
    MtError err = {0};
    MtModel *m = mt_model_parse_text(text, "flex-study.motus.txt", &err);
    CHECK(m != NULL, "the flexible study reads: %s", err.msg);
    if (!m) return;
    double v[MT_STUDY_VARS], r1[MT_STUDY_RESPONSES], r2[MT_STUDY_RESPONSES];
    CHECK(mt_study_run_case(m, 0, NULL, v, r1, &err) == MT_OK, "E = 100 GPa runs: %s", err.msg);
    CHECK(mt_study_run_case(m, 1, NULL, v, r2, &err) == MT_OK, "E = 200 GPa runs: %s", err.msg);
    printf("tip sag: %.9g m (100 GPa), %.9g m (200 GPa)\n", r1[0], r2[0]);
    double w = 7850 * 0.02 * 0.01 * 9.81, I = 0.01 * pow(0.02, 3) / 12; /* load per length; I about z */
    CHECK_REL(-r1[0], w * pow(0.5, 4) / (8 * 100e9 * I), 0.01, "sag against w L^4 / (8 E I) (1 %: 2 modes)");
    CHECK_REL(r1[0] / r2[0], 2, 1e-6, "twice the modulus, half the sag: the body was reduced again per case");
    mt_model_free(m);
}

/* The amplitude spectrum (FFT, Hann, coherent gain): 3 mm at 20 Hz on a bin and 1.5 mm at 50 Hz read back
 * to 1e-12 at their bins, nothing elsewhere but leakage below 1e-3 of the peak two bins away. */
static void test_amplitude(void)
{
    enum { N = 2000 };
    static double t[N], x[N];
    for (int i = 0; i < N; i++) {
        t[i] = i * 1e-3;
        x[i] = 0.4 + 3e-3 * sin(2 * M_PI * 20 * t[i]) + 1.5e-3 * cos(2 * M_PI * 50 * t[i]);
    }
    MtPsd a;
    MtError err = {0};
    CHECK(mt_signal_amplitude(t, x, N, 0, 2, "x", &a, &err) == MT_OK, "amplitude spectrum: %s", err.msg);
    CHECK_REL(a.df, 0.5, 1e-12, "bin width 1/T [Hz]");
    CHECK_REL(a.psd[40], 3e-3, 1e-12, "3 mm at 20 Hz (bin 40)");
    CHECK_REL(a.psd[100], 1.5e-3, 1e-12, "1.5 mm at 50 Hz (bin 100)");
    CHECK(a.psd[0] < 1e-15 && a.psd[44] < 3e-6, "mean removed (%g), leakage two bins off the window's main lobe (%g)", a.psd[0],
          a.psd[44]);
    mt_psd_free(&a);
}

int main(void)
{
    test_amplitude();
    test_round_trip();
    test_designs();
    test_signal();
    test_responses();
    test_cases();
    test_flexible();
    test_threads();
    return mt_test_done();
}
