#!/usr/bin/env python3
"""Times the GPU wavelet libraries dwt-bench compares against, on the same GPU and sizes.

Peers: ptwt (`ptwt.wavedec2` / `ptwt.waverec2`) and pytorch_wavelets (`DWTForward` /
`DWTInverse`), for bior4.4 (CDF 9/7), bior2.2 (CDF 5/3) and haar, float32, 1 and 3 levels, on
1920x1080, 4096x4096 and 8192x8192; and 3-D, 3 levels, with ptwt (`wavedec3` / `waverec3`;
pytorch_wavelets has no 3-D transform): bior4.4 on 256^3 and 512^3, bior2.2 and haar on 512^3, the
volumes dwt-bench times (Cdf97, Cdf53 f32; HaarNoShift i32; LeGall53 i32 beside bior2.2, for scale). Each call is timed with CUDA events after warm-up, with
`torch.cuda.synchronize()` before the first event and after the last; the median of >= 20 calls,
rotating over enough input tensors (at least 3) that they exceed the L2 cache together. The
inverse is timed on the forward's coefficients. Effective bandwidth uses the same formula as
dwt-bench: one read and one write of the image (4 bytes a sample) over the time, although both
peers move more (padding, separate sub-band tensors).

    python3 dwt-bench/peers.py [--out FILE] [--reps N] [--modes zero,symmetric] [--only-3d]

A peer that cannot be imported or run is reported with the exception, never skipped silently.
"""

import argparse
import statistics
import sys
import traceback

import torch

SIZES = [("1920x1080", 1080, 1920), ("4096x4096", 4096, 4096), ("8192x8192", 8192, 8192)]
WAVELETS = [("bior4.4", "CDF 9/7"), ("bior2.2", "CDF 5/3"), ("haar", "Haar")]
LEVELS = [1, 3]
VOLUMES = [("256^3", 256, "bior4.4"), ("512^3", 512, "bior4.4"), ("512^3", 512, "bior2.2"), ("512^3", 512, "haar")]
ROTATION_BYTES = 256 << 20
WARMUP = 3


def time_calls(fn, inputs, reps):
    """Median and min of `reps` calls of fn(input), each between its own CUDA events."""
    for i in range(WARMUP):
        fn(inputs[i % len(inputs)])
    torch.cuda.synchronize()
    times = []
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    for i in range(reps):
        x = inputs[(WARMUP + i) % len(inputs)]
        torch.cuda.synchronize()
        start.record()
        fn(x)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times)


def peers():
    """(name, version, forward(x, wavelet, level, mode) -> coeffs, inverse(coeffs, ...) -> x)."""
    found, problems = [], []
    try:
        import ptwt
        import pywt

        def ptwt_fwd(x, wavelet, level, mode):
            return ptwt.wavedec2(x, pywt.Wavelet(wavelet), level=level, mode=mode)

        def ptwt_inv(c, wavelet, level, mode):
            return ptwt.waverec2(c, pywt.Wavelet(wavelet))

        version = getattr(ptwt, "__version__", "?")
        found.append(("ptwt", version, ptwt_fwd, ptwt_inv, lambda x: x.unsqueeze(0)))
    except Exception:  # noqa: BLE001 - reported, not hidden
        problems.append("ptwt: cannot import:\n" + traceback.format_exc())
    try:
        try:
            import pkg_resources  # noqa: F401 - pytorch_wavelets' dtcwt module imports it
        except ImportError:
            # No setuptools (or one without pkg_resources): the one function it uses, shimmed.
            import importlib.resources
            import types

            shim = types.ModuleType("pkg_resources")
            shim.resource_stream = lambda pkg, name: (
                importlib.resources.files(pkg).joinpath(name).open("rb")
            )
            sys.modules["pkg_resources"] = shim
            problems.append("pytorch_wavelets: no pkg_resources here; shimmed resource_stream (DWT unaffected)")
        import pytorch_wavelets as ptw

        cache = {}

        def modules(wavelet, level, mode):
            key = (wavelet, level, mode)
            if key not in cache:
                cache[key] = (
                    ptw.DWTForward(J=level, wave=wavelet, mode=mode).cuda(),
                    ptw.DWTInverse(wave=wavelet, mode=mode).cuda(),
                )
            return cache[key]

        def ptw_fwd(x, wavelet, level, mode):
            return modules(wavelet, level, mode)[0](x)

        def ptw_inv(c, wavelet, level, mode):
            return modules(wavelet, level, mode)[1](c)

        version = getattr(ptw, "__version__", "?")
        found.append(
            ("pytorch_wavelets", version, ptw_fwd, ptw_inv, lambda x: x.unsqueeze(0).unsqueeze(0))
        )
    except Exception:  # noqa: BLE001
        problems.append("pytorch_wavelets: cannot import:\n" + traceback.format_exc())
    return found, problems


def time_case(lines, problems, row, direction, fwd, inv, inputs, samples, reps):
    """Times one case (`fwd(x)`, or `inv` on fwd's coefficients) and appends its table row
    (`row`: the cells before the times) or, on any exception, a problem line."""
    case = " ".join(str(c) for c in row)
    try:
        if direction == "fwd":
            med, lo = time_calls(fwd, inputs, reps)
        else:
            coeffs = [fwd(x) for x in inputs]
            med, lo = time_calls(inv, coeffs, reps)
            del coeffs
        bw = 2 * 4 * samples / (med * 1e-3) / 1e9
        cells = " | ".join(str(c) for c in row)
        lines.append(f"| {cells} | {med:.3f} ms | {lo:.3f} ms | {bw:.0f} GB/s |")
        print(lines[-1], file=sys.stderr, flush=True)
    except Exception as e:  # noqa: BLE001
        problems.append(f"{case}: {type(e).__name__}: {e}")
        print(f"FAILED {case}: {e}", file=sys.stderr, flush=True)


def volumes_3d(lines, problems, modes, reps):
    """ptwt's 3-D transform, 3 levels, on the volumes of VOLUMES (rows in the same table)."""
    try:
        import ptwt
        import pywt
    except Exception:  # noqa: BLE001 - reported with the 2-D cases already
        return
    for label, n, wavelet in VOLUMES:
        samples = n**3
        count = max(3, -(-ROTATION_BYTES // (4 * samples)))
        inputs = [
            torch.rand(1, n, n, n, device="cuda", dtype=torch.float32) + 0.25 for _ in range(count)
        ]
        for mode in modes:
            for direction in ("fwd", "inv"):
                time_case(
                    lines,
                    problems,
                    ["ptwt", wavelet, label, 3, direction, mode],
                    direction,
                    lambda x: ptwt.wavedec3(x, pywt.Wavelet(wavelet), level=3, mode=mode),
                    lambda c: ptwt.waverec3(c, pywt.Wavelet(wavelet)),
                    inputs,
                    samples,
                    reps,
                )
        del inputs
        torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--reps", type=int, default=25)
    ap.add_argument("--modes", default="zero,symmetric")
    ap.add_argument("--only-3d", action="store_true", help="skip the 2-D cases")
    args = ap.parse_args()
    assert args.reps >= 20, "--reps: at least 20"
    modes = args.modes.split(",")

    dev = torch.cuda.get_device_name(0)
    lines = [
        "# peers.py",
        "",
        f"- Device: {dev}; torch {torch.__version__} (CUDA {torch.version.cuda})",
        f"- CUDA events, {WARMUP} warm-up calls, median of {args.reps}; float32; batch 1, one channel",
        "- Effective bandwidth = 2 x 4 bytes x samples / median time (as dwt-bench)",
        "",
    ]
    found, problems = peers()
    for name, version, *_ in found:
        lines.append(f"- {name} {version}")
    lines += ["", "| peer | wavelet | size | levels | direction | mode | median | min | effective BW |", "|---|---|---|---|---|---|---|---|---|"]
    torch.manual_seed(0)
    for label, h, w in [] if args.only_3d else SIZES:
        n = h * w
        count = max(3, -(-ROTATION_BYTES // (4 * n)))
        images = [torch.rand(h, w, device="cuda", dtype=torch.float32) + 0.25 for _ in range(count)]
        for name, _, fwd, inv, shape_in in found:
            inputs = [shape_in(x) for x in images]
            for wavelet, _ in WAVELETS:
                for level in LEVELS:
                    for mode in modes:
                        for direction in ("fwd", "inv"):
                            time_case(
                                lines,
                                problems,
                                [name, wavelet, label, level, direction, mode],
                                direction,
                                lambda x: fwd(x, wavelet, level, mode),
                                lambda c: inv(c, wavelet, level, mode),
                                inputs,
                                n,
                                args.reps,
                            )
        del images
        torch.cuda.empty_cache()
    volumes_3d(lines, problems, modes, args.reps)
    if problems:
        lines += ["", "## Problems", ""] + [f"- {p}" for p in problems]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
