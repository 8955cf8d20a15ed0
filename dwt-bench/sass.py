"""SASS of a generated CUDA kernel, compiled here as the runtime compiles it (NVRTC, sm_90).

Usage: python3 dwt-bench/sass.py FILE.snap|FILE.cu [kernel-substring]
Needs libnvrtc.so.13 on LD_LIBRARY_PATH (as the tests) and nvdisasm on PATH
(pip download nvidia-cuda-nvdisasm; the wheel holds nvidia/cu13/bin/nvdisasm).
Prints, per kernel, the register count line nvdisasm reports and the instructions.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

src = open(sys.argv[1]).read()
if sys.argv[1].endswith(".snap"):
    src = src.split("\n---\n", 1)[1]
nvrtc = ctypes.CDLL("libnvrtc.so.13")
prog = ctypes.c_void_p()
assert nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"k.cu", 0, None, None) == 0
opts = [b"--gpu-architecture=sm_90", b"-default-device", b"--ptxas-options=-v"]
arr = (ctypes.c_char_p * len(opts))(*opts)
rc = nvrtc.nvrtcCompileProgram(prog, len(opts), arr)
size = ctypes.c_size_t()
nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
log = ctypes.create_string_buffer(size.value)
nvrtc.nvrtcGetProgramLog(prog, log)
if rc != 0:
    sys.exit(log.value.decode())
want = sys.argv[2] if len(sys.argv) > 2 else ""
lines = log.value.decode().splitlines()
for i, l in enumerate(lines):
    if "Compiling entry function" in l and want in l:
        print("// " + "\n// ".join(lines[i:i + 4]))
nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(size))
cubin = ctypes.create_string_buffer(size.value)
nvrtc.nvrtcGetCUBIN(prog, cubin)
with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
    f.write(cubin.raw)
out = subprocess.run(["nvdisasm", "-c", "-hex" if False else "-c", f.name], capture_output=True, text=True).stdout
os.unlink(f.name)
show = not want
for line in out.splitlines():
    if line.startswith("\t.text.") or ".text." in line and line.rstrip().endswith(":"):
        show = want in line
    if show:
        print(line)
