// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 on one warp, its operands anchored in shared memory.
// A (16 x 16, row-major) and B (stored 8 x 16: N x K, K-major) are loaded with ldmatrix (x4 for A, x2 for B) as every
// CUTLASS/Triton kernel does; the accumulator is what the hardware computes. Four runs:
//   ids:     A[m][k] = 16 m + k, B[n][k] = 16 n + k: the register halves of A and B hold those ids;
//   rows:    A[m][k] = (k == 0) (m + 1), B[n][k] = (k == 0): D[m][n] = m + 1 tells each accumulator's row;
//   cols:    A[m][k] = (k == 0), B[n][k] = (k == 0) (n + 1): D[m][n] = n + 1 tells its column;
//   product: small random integers; D must equal A B exactly (the operands are the matrices the MMA multiplies).
#include <cstdint>
#include <cuda_fp16.h>
#include "common.h"

__global__ void probe(const half* A, const half* B, float* d_out, int* a_out, int* b_out) {
  __shared__ __align__(16) half sA[16 * 16];
  __shared__ __align__(16) half sB[8 * 16];
  int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) sA[i] = A[i];
  for (int i = lane; i < 128; i += 32) sB[i] = B[i];
  __syncwarp();
  int mat = lane / 8, row = lane % 8;  // A's matrices: (rows 0-7, k 0-7), (rows 8-15, k 0-7), (0-7, 8-15), (8-15, 8-15)
  uint32_t pa = (uint32_t)__cvta_generic_to_shared(sA + ((mat % 2) * 8 + row) * 16 + (mat / 2) * 8);
  uint32_t a[4], b[2];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
  int l = lane % 16;  // B's matrices: (n 0-7, k 0-7), (n 0-7, k 8-15); lanes 0-15 give the addresses
  uint32_t pb = (uint32_t)__cvta_generic_to_shared(sB + (l % 8) * 16 + (l / 8) * 8);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
  float d[4];
  float z = 0.0f;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(z), "f"(z), "f"(z), "f"(z));
  for (int i = 0; i < 4; ++i) d_out[lane * 4 + i] = d[i];
  for (int i = 0; i < 4; ++i) {
    a_out[lane * 8 + 2 * i] = (int)__half2float(__ushort_as_half((unsigned short)(a[i] & 0xffff)));
    a_out[lane * 8 + 2 * i + 1] = (int)__half2float(__ushort_as_half((unsigned short)(a[i] >> 16)));
  }
  for (int i = 0; i < 2; ++i) {
    b_out[lane * 4 + 2 * i] = (int)__half2float(__ushort_as_half((unsigned short)(b[i] & 0xffff)));
    b_out[lane * 4 + 2 * i + 1] = (int)__half2float(__ushort_as_half((unsigned short)(b[i] >> 16)));
  }
}

struct Run {
  float d[32 * 4];
  int a[32 * 8], b[32 * 4];
};

static void run(const float* A, const float* B, Run* r) {
  half hA[256], hB[128];
  for (int i = 0; i < 256; ++i) hA[i] = __float2half(A[i]);
  for (int i = 0; i < 128; ++i) hB[i] = __float2half(B[i]);
  half *dA, *dB;
  float* dd;
  int *da, *db;
  CHECK(cudaMalloc(&dA, sizeof(hA)));
  CHECK(cudaMalloc(&dB, sizeof(hB)));
  CHECK(cudaMalloc(&dd, sizeof(r->d)));
  CHECK(cudaMalloc(&da, sizeof(r->a)));
  CHECK(cudaMalloc(&db, sizeof(r->b)));
  CHECK(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
  probe<<<1, 32>>>(dA, dB, dd, da, db);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r->d, dd, sizeof(r->d), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r->a, da, sizeof(r->a), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r->b, db, sizeof(r->b), cudaMemcpyDeviceToHost));
  cudaFree(dA); cudaFree(dB); cudaFree(dd); cudaFree(da); cudaFree(db);
}

int main() {
  static float A[256], B[128];
  static Run ids, rows, cols, prod;
  for (int i = 0; i < 256; ++i) A[i] = (float)i;
  for (int i = 0; i < 128; ++i) B[i] = (float)i;
  run(A, B, &ids);
  for (int i = 0; i < 256; ++i) A[i] = (i % 16 == 0) ? (float)(i / 16 + 1) : 0.0f;
  for (int i = 0; i < 128; ++i) B[i] = (i % 16 == 0) ? 1.0f : 0.0f;
  run(A, B, &rows);
  for (int i = 0; i < 256; ++i) A[i] = (i % 16 == 0) ? 1.0f : 0.0f;
  for (int i = 0; i < 128; ++i) B[i] = (i % 16 == 0) ? (float)(i / 16 + 1) : 0.0f;
  run(A, B, &cols);
  unsigned seed = 2026;
  for (int i = 0; i < 256; ++i) { seed = seed * 1103515245u + 12345u; A[i] = (float)((int)((seed >> 16) % 7) - 3); }
  for (int i = 0; i < 128; ++i) { seed = seed * 1103515245u + 12345u; B[i] = (float)((int)((seed >> 16) % 7) - 3); }
  run(A, B, &prod);
  // the product D (16 x 8) placed by the measured rows and columns must be A B
  double worst = 0;
  int c[32 * 4 * 2];
  for (int i = 0; i < 128; ++i) {
    int m = (int)rows.d[i] - 1, n = (int)cols.d[i] - 1;
    c[2 * i] = m;
    c[2 * i + 1] = n;
    double want = 0;
    for (int k = 0; k < 16 && m >= 0 && m < 16 && n >= 0 && n < 8; ++k) want += A[m * 16 + k] * B[n * 16 + k];
    double err = (m < 0 || m >= 16 || n < 0 || n >= 8) ? 1e9 : (want - prod.d[i] < 0 ? prod.d[i] - want : want - prod.d[i]);
    worst = err > worst ? err : worst;
  }
  printf("{\n");
  print_device();
  printf("\"instruction\": \"mma.sync.m16n8k16.f32.f16\", \"product_max_error\": %g,\n", worst);
  printf("\"A_ids\": \"16 m + k\", \"B_ids\": \"16 n + k\", \"C_coords\": \"(m, n)\",\n");
  print_table("A", ids.a, 32, 8, false);
  print_table("B", ids.b, 32, 4, false);
  print_table("C", c, 32, 8, true);
  printf("}\n");
  return 0;
}
