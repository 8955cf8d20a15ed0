// The probe harnesses' common setup (written in place of their #include by
// tile_kernel.probe_harness): an n x n plane of ELEM, its input filled with the same
// pseudo-random samples each run, and four more planes for outputs and the copy.
    const int rows = n, cols = n, nx0 = (cols + 1) / 2, ny0 = (rows + 1) / 2;
    const size_t count = (size_t)rows * cols, bytes = count * sizeof(ELEM);
    ELEM *in, *a, *b, *c0, *c1;
    CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&c0, bytes)); CK(cudaMalloc(&c1, bytes));
    std::vector<ELEM> h(count);
    srand(1);
    for (size_t i = 0; i < count; ++i) h[i] = (ELEM)(rand() % 256 - 128);
    CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
