/* libFuzzer entry point for the glTF reader on binary GLB (header, JSON and
 * BIN chunks): any bytes give IK_OK or an error with a message, never a
 * crash, a hang or unbounded memory; what loads is checked by
 * fuzz_gltf_check.h and written back as GLB. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_gltf_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_gltf_input(data, size, 1); }
