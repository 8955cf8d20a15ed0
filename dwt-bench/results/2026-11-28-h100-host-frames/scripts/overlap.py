import torch, time
torch.cuda.init()
dev = torch.device('cuda')
print(torch.cuda.get_device_name())
for n in [1920*1080*2, 4096*4096*4, 8192*8192*4]:
    frames = [torch.empty(n, dtype=torch.uint8).pin_memory() for _ in range(8)]
    outs = [torch.empty(n, dtype=torch.uint8).pin_memory() for _ in range(8)]
    d = [torch.empty(n, dtype=torch.uint8, device=dev) for _ in range(2)]
    s = [torch.cuda.Stream() for _ in range(2)]
    def serial():
        for i in range(8):
            d[0].copy_(frames[i], non_blocking=True); outs[i].copy_(d[0], non_blocking=True)
        torch.cuda.synchronize()
    def piped():
        for i in range(8):
            st = s[i % 2]
            with torch.cuda.stream(st):
                d[i%2].copy_(frames[i], non_blocking=True); outs[i].copy_(d[i%2], non_blocking=True)
        torch.cuda.synchronize()
    for f in (serial, piped): f()
    for rep in range(3):
        for name, f in (("serial", serial), ("piped", piped)):
            t = time.perf_counter(); f(); dt = (time.perf_counter() - t) / 8
            print(f"{n/2**20:8.1f} MiB {name}: {dt*1e3:.3f} ms per frame ({2*n/dt/1e9:.1f} GB/s both ways)")
