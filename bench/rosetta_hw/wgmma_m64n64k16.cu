// wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 on one warpgroup (Hopper, sm_90a), A and B from shared memory
// without swizzle (K-major core matrices of 8 rows x 16 bytes: the one after along K at LBO = 128 bytes, the next 8
// rows at SBO = 256 bytes), so the hardware reads A[m][k] and B[n][k] from known addresses. Three runs, as
// mma_m16n8k16.cu: rows (D = m + 1), cols (D = n + 1) and a product of small random integers that must be exact.
// Prints, for each of the 128 threads and each of its 32 accumulator registers, the (m, n) it holds.
#include <cstdint>
#include <cuda_fp16.h>
#include "common.h"

__device__ __forceinline__ int offset(int row, int k) {  // element offset of (row, k) in the core-matrix layout
  return ((row / 8) * 2 + k / 8) * 64 + (row % 8) * 8 + k % 8;
}

__device__ __forceinline__ uint64_t descriptor(const void* p) {
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(p);
  uint64_t d = 0;
  d |= (uint64_t)((addr & 0x3FFFF) >> 4);          // start address, 16-byte units
  d |= (uint64_t)((128u & 0x3FFFF) >> 4) << 16;    // leading byte offset: next core matrix along K
  d |= (uint64_t)((256u & 0x3FFFF) >> 4) << 32;    // stride byte offset: next 8 rows
  return d;                                        // base offset 0, layout type 0 (no swizzle)
}

__global__ void probe(const half* A, const half* B, float* out) {
  __shared__ __align__(128) half sA[64 * 16];
  __shared__ __align__(128) half sB[64 * 16];
  int t = threadIdx.x;
  for (int i = t; i < 64 * 16; i += 128) {
    sA[offset(i / 16, i % 16)] = A[i];
    sB[offset(i / 16, i % 16)] = B[i];
  }
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float d[32];
  for (int i = 0; i < 32; ++i) d[i] = 0.0f;
  uint64_t da = descriptor(sA), db = descriptor(sB);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(da), "l"(db), "r"(0));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (int i = 0; i < 32; ++i) out[t * 32 + i] = d[i];
}

static void run(const float* A, const float* B, float* D) {
  static half hA[1024], hB[1024];
  for (int i = 0; i < 1024; ++i) { hA[i] = __float2half(A[i]); hB[i] = __float2half(B[i]); }
  half *dA, *dB;
  float* dD;
  CHECK(cudaMalloc(&dA, sizeof(hA)));
  CHECK(cudaMalloc(&dB, sizeof(hB)));
  CHECK(cudaMalloc(&dD, 128 * 32 * sizeof(float)));
  CHECK(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
  probe<<<1, 128>>>(dA, dB, dD);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(D, dD, 128 * 32 * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(dA); cudaFree(dB); cudaFree(dD);
}

int main() {
  static float A[1024], B[1024], rows[4096], cols[4096], prod[4096];
  static int c[4096 * 2];
  for (int i = 0; i < 1024; ++i) { A[i] = (i % 16 == 0) ? (float)(i / 16 + 1) : 0.0f; B[i] = (i % 16 == 0) ? 1.0f : 0.0f; }
  run(A, B, rows);
  for (int i = 0; i < 1024; ++i) { A[i] = (i % 16 == 0) ? 1.0f : 0.0f; B[i] = (i % 16 == 0) ? (float)(i / 16 + 1) : 0.0f; }
  run(A, B, cols);
  unsigned seed = 2026;
  for (int i = 0; i < 1024; ++i) { seed = seed * 1103515245u + 12345u; A[i] = (float)((int)((seed >> 16) % 7) - 3); }
  for (int i = 0; i < 1024; ++i) { seed = seed * 1103515245u + 12345u; B[i] = (float)((int)((seed >> 16) % 7) - 3); }
  run(A, B, prod);
  double worst = 0;
  for (int i = 0; i < 4096; ++i) {
    int m = (int)rows[i] - 1, n = (int)cols[i] - 1;
    c[2 * i] = m;
    c[2 * i + 1] = n;
    if (m < 0 || m >= 64 || n < 0 || n >= 64) { worst = 1e9; continue; }
    double want = 0;
    for (int k = 0; k < 16; ++k) want += A[m * 16 + k] * B[n * 16 + k];
    double err = want > prod[i] ? want - prod[i] : prod[i] - want;
    worst = err > worst ? err : worst;
  }
  printf("{\n");
  print_device();
  printf("\"instruction\": \"wgmma.m64n64k16.f32.f16\", \"product_max_error\": %g, \"C_coords\": \"(m, n)\",\n", worst);
  print_table("C", c, 128, 64, true);
  printf("}\n");
  return 0;
}
