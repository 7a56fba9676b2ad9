/* fuzz_model.c — libFuzzer target: the text model reader (core/mt_parse.c,
 * mt_params.c, mt_expr.c) on arbitrary bytes. Flexible bodies are not
 * reduced (no mesh files are read); the model is written back in canonical
 * form to exercise the writer on whatever the reader accepted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    MtError err = {0};
    MtModel *m = mt_model_parse_ex(text, "fuzz.motus.txt", 0, &err);
    if (m) {
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            mt_model_write(m, f, &err);
            fclose(f);
        }
        mt_model_free(m);
    }
    free(text);
    return 0;
}
