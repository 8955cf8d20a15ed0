"""Compile a CUDA source to an sm_90 cubin with the local NVRTC (13.0), as the runtime does."""
import ctypes, sys
lib = ctypes.CDLL("/opt/nvrtc/nvidia/cu13/lib/libnvrtc.so.13")
src, out = sys.argv[1], sys.argv[2]
opts = [b"--gpu-architecture=sm_90"] + [a.encode() for a in sys.argv[3:]]
prog = ctypes.c_void_p()
code = open(src, "rb").read()
assert lib.nvrtcCreateProgram(ctypes.byref(prog), code, b"k.cu", 0, None, None) == 0
arr = (ctypes.c_char_p * len(opts))(*opts)
r = lib.nvrtcCompileProgram(prog, len(opts), arr)
n = ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
log = ctypes.create_string_buffer(n.value); lib.nvrtcGetProgramLog(prog, log)
sys.stderr.write(log.value.decode())
assert r == 0, r
lib.nvrtcGetCUBINSize(prog, ctypes.byref(n))
buf = ctypes.create_string_buffer(n.value); lib.nvrtcGetCUBIN(prog, buf)
open(out, "wb").write(buf.raw)
