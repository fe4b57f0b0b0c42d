// ldmatrix.sync.aligned.m8n8.x4.shared.b16 on one warp: which 16-bit element of the four 8x8 shared matrices each
// thread's register halves receive. Shared memory holds element id = matrix * 64 + row * 8 + col (as u16); lane l
// gives the address of row l % 8 of matrix l / 8 (PTX: threads 8j..8j+7 address matrix j). Prints, for thread t and
// value v = 2 * register + half (low half first), the id it holds.
#include <cstdint>
#include "common.h"

__global__ void probe(int* out) {
  __shared__ __align__(16) uint16_t s[4 * 64];
  int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) s[i] = (uint16_t)i;
  __syncwarp();
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(s + (lane / 8) * 64 + (lane % 8) * 8);
  uint32_t r[4];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  for (int i = 0; i < 4; ++i) {
    out[lane * 8 + 2 * i] = (int)(r[i] & 0xffff);
    out[lane * 8 + 2 * i + 1] = (int)(r[i] >> 16);
  }
}

int main() {
  int *d, h[32 * 8];
  CHECK(cudaMalloc(&d, sizeof(h)));
  probe<<<1, 32>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  printf("{\n");
  print_device();
  printf("\"instruction\": \"ldmatrix.x4\", \"element_bits\": 16,\n");
  print_table("D", h, 32, 8, true);
  printf("}\n");
  return 0;
}
