/* fuzz_shape.c — libFuzzer target: the STL/OBJ shape reader
 * (mt_shape_mesh_parse in core/mt_shapes.c) on arbitrary bytes, as an STL or
 * an OBJ by the name FUZZ_SHAPE_NAME ("fuzz.stl" or "fuzz.obj"). */
#include <stdint.h>
#include <stdlib.h>

#include "motus/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    double *xyz = NULL;
    MtError err = {0};
    long n = mt_shape_mesh_parse((const char *)data, size, FUZZ_SHAPE_NAME, &xyz, &err);
    if (n > 0 && !xyz) abort(); /* the contract: triangles come with their coordinates */
    free(xyz);
    return 0;
}
