// A code object for the module-API test, compiled device-only without the HIP
// headers (clang builtins only), as a program would ship a .co/.hsaco file.
extern "C" __attribute__((global)) void axpy(float a, const float* x, float* y, int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();
  if (i < n) y[i] = a * x[i] + y[i];
}

// The same with its scalars in a struct passed by value (metadata: one 8-byte by_value argument),
// for `cdnajit run --arg bytes:8:hex=...`.
struct AxpyParams {
  float a;
  int n;
};
extern "C" __attribute__((global)) void axpy_struct(AxpyParams p, const float* x, float* y) {
  int i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();
  if (i < p.n) y[i] = p.a * x[i] + y[i];
}

// A global variable of the module (hipModuleGetGlobal): axpy_bias adds it to every element.
extern "C" __attribute__((device)) float bias = 0.5f;
extern "C" __attribute__((global)) void axpy_bias(float a, const float* x, float* y, int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();
  if (i < n) y[i] = a * x[i] + y[i] + bias;
}
