import ctypes, sys, re, subprocess, os, glob, collections
lib = ctypes.CDLL("/opt/nvrtc/nvidia/cu13/lib/libnvrtc.so.13")
def compile_(code):
    prog = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(prog), code, b"k.cu", 0, None, None) == 0
    opts=[b"--gpu-architecture=sm_90", b"--ptxas-options=-v"]
    arr = (ctypes.c_char_p * 2)(*opts)
    r = lib.nvrtcCompileProgram(prog, 2, arr)
    n = ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value); lib.nvrtcGetProgramLog(prog, log)
    assert r == 0, log.value.decode()
    lib.nvrtcGetCUBINSize(prog, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value); lib.nvrtcGetCUBIN(prog, buf)
    return log.value.decode(), buf.raw
def analyse(path):
    src=open(path).read().split('\n---\n',1)[1].encode()
    log,cubin=compile_(src)
    open('/tmp/sass/cmp/x.cubin','wb').write(cubin)
    sass=subprocess.run(['/tmp/nvtools/x/nvidia/cu13/bin/cuobjdump','-sass','/tmp/sass/cmp/x.cubin'],capture_output=True,text=True).stdout
    regs={}
    cur=None
    for l in log.splitlines():
        m=re.search(r"Compiling entry function '(\w+)'",l)
        if m: cur=m.group(1)
        m=re.search(r'(\d+) bytes spill stores',l)
        if m and cur: regs.setdefault(cur,{})['spill']=int(m.group(1))
        m=re.search(r'Used (\d+) registers',l)
        if m and cur: regs.setdefault(cur,{})['regs']=int(m.group(1))
    funcs={}
    for part in sass.split('Function : ')[1:]:
        name=part.split()[0]
        c=collections.Counter()
        for l in part.splitlines():
            m=re.search(r'/\*[0-9a-f]{4,}\*/\s+(.*?);',l)
            if not m: continue
            t=m.group(1).split()
            if t[0].startswith('@'): t=t[1:]
            c[t[0]]+=1
        funcs[name]=c
    return regs,funcs
for new in sorted(glob.glob(sys.argv[1]+'/*.snap.new')):
    old=new[:-4]
    if 'cuda' not in os.path.basename(old): continue
    ro,fo=analyse(old); rn,fn=analyse(new)
    for f in fn:
        if 'tile' not in f: continue
        co,cn=fo[f],fn[f]
        sh=lambda c: sum(v for k,v in c.items() if k.startswith(('LDS','STS')))
        print(f"{os.path.basename(new)[11:-9]:45s} {f[-10:]:>10s} regs {ro[f].get('regs')}->{rn[f].get('regs')} spill {rn[f].get('spill')} instr {sum(co.values())}->{sum(cn.values())} lds/sts {sh(co)}->{sh(cn)} LDS.128 {cn['LDS.128']} STS.128 {cn['STS.128']}")
