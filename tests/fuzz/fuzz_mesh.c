/* fuzz_mesh.c — libFuzzer target: one of the mesh readers (core/flex/
 * mt_mesh_msh.c, mt_mesh_inp.c, mt_mesh_bdf.c) on arbitrary bytes, chosen
 * at compile time by FUZZ_MESH_FORMAT (MT_MESH_MSH, MT_MESH_INP,
 * MT_MESH_BDF). The readers take text in memory; its name "<mesh>" makes
 * them refuse *INCLUDE, so a run never depends on files around it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "motus/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    MtError err = {0};
    MtFeModel *m = mt_mesh_read_text(text, size, "<mesh>", FUZZ_MESH_FORMAT, &err);
    if (m) mt_fe_model_free(m);
    free(text);
    return 0;
}
