// Shared by the rosetta hardware probes: checked CUDA calls and JSON printing of integer tables.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(2);                                                                            \
    }                                                                                     \
  } while (0)

// Print "name": [[...], ...] (rows x cols ints) as one JSON member, followed by a comma unless last.
static void print_table(const char* name, const int* v, int rows, int cols, bool last) {
  printf("\"%s\": [", name);
  for (int r = 0; r < rows; ++r) {
    printf("%s[", r ? ", " : "");
    for (int c = 0; c < cols; ++c) printf("%s%d", c ? ", " : "", v[r * cols + c]);
    printf("]");
  }
  printf("]%s\n", last ? "" : ",");
}

static void print_device() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  printf("\"device\": \"%s\", \"sm\": %d,\n", p.name, p.major * 10 + p.minor);
}
