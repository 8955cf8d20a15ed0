import ctypes, sys, re
lib = ctypes.CDLL("/opt/nvrtc/nvidia/cu13/lib/libnvrtc.so.13")
for path in sys.argv[1:]:
    src = open(path).read().split('// ---- harness')[0]
    prog = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"k.cu", 0, None, None) == 0
    opts = [b"-arch=sm_90", b"--ptxas-options=-v"]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
    n = ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value); lib.nvrtcGetProgramLog(prog, buf)
    log = buf.value.decode()
    if rc: print(path, [l for l in log.splitlines() if 'error' in l][:5]); continue
    fn = None
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m: fn = m.group(1)
        m = re.search(r"Used (\d+) registers.*", line)
        if m and fn and 'tile' in fn: print(path, fn, m.group(0))
        if 'spill' in line and fn and 'tile' in fn and not ' 0 bytes spill stores' in line: print('   ', line.strip())
