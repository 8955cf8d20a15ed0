#!/usr/bin/env python3
"""Generate independent reference test vectors for the `lifting` CPU reference.

Writes, next to this script:
  vc2.json     - integer VC-2 / Dirac forward DWT, computed by the BBC's
                 `vc2_conformance` pseudocode (vc2_conformance.pseudocode.
                 picture_encoding.dwt), arranged in the Mallat layout.
  pywt.json    - float CDF 9/7, 5/3 and Haar via PyWavelets
                 (pywt.wavedecn, mode='periodization' + pywt.coeffs_to_array).
  filters.json - PyWavelets' filter coefficients for bior4.4 / bior2.2 / haar.

Deterministic: fixed seeds, compact JSON, shortest round-trip float repr.
Regenerate with:  python3 tests/reference/generate.py
"""

import copy
import json
import os
import warnings

import numpy as np
import pywt
import vc2_data_tables
from vc2_data_tables import LIFTING_FILTERS, WaveletFilters
from vc2_conformance.pseudocode.picture_encoding import dwt
from vc2_conformance.pseudocode.picture_decoding import idwt

HERE = os.path.dirname(os.path.abspath(__file__))

# --------------------------------------------------------------------------
# FIDELITY PATCH.
# vc2_data_tables 1.0.0 stores the odd (predict) step of the Fidelity filter
# with taps [-2, -10, -25, 81, 81, -25, 10, -2]. The second tap should be +10
# (symmetric; taps then sum to 128/256 so a constant signal gives a zero high
# band), as in Schroedinger and FFmpeg. We patch the shared table in memory;
# vc2_conformance's dwt/idwt read this very dict object (picture_encoding and
# picture_decoding both do `from vc2_data_tables import LIFTING_FILTERS`).
# --------------------------------------------------------------------------
_fid = LIFTING_FILTERS[WaveletFilters.fidelity]
_odd_stage = [
    s for s in _fid.stages
    if s.lift_type in (vc2_data_tables.LiftingFilterTypes.odd_add_even,
                       vc2_data_tables.LiftingFilterTypes.odd_subtract_even)
]
assert len(_odd_stage) == 1
_odd_taps = _odd_stage[0].taps
assert _odd_taps == [-2, -10, -25, 81, 81, -25, 10, -2], _odd_taps


def _fidelity_constant_high(c=100, n=16):
    """Max |high band| of one VC-2 Fidelity level on a constant picture."""
    st = vc2_state(int(WaveletFilters.fidelity), 1)
    coeffs = dwt(st, [[c] * n for _ in range(n)])
    return max(abs(v) for b in ("HL", "LH", "HH") for r in coeffs[1][b] for v in r)



def vc2_state(index, levels):
    # Symmetric transform: same vertical (wavelet_index) and horizontal
    # (wavelet_index_ho) filter, no horizontal-only levels.
    return {
        "wavelet_index": index,
        "wavelet_index_ho": index,
        "dwt_depth": levels,
        "dwt_depth_ho": 0,
    }


# Catalogue name -> VC-2 wavelet index.
VC2_WAVELETS = [
    ("DeslauriersDubuc97", WaveletFilters.deslauriers_dubuc_9_7),   # 0
    ("LeGall53", WaveletFilters.le_gall_5_3),                       # 1
    ("DeslauriersDubuc137", WaveletFilters.deslauriers_dubuc_13_7), # 2
    ("HaarNoShift", WaveletFilters.haar_no_shift),                  # 3
    ("HaarWithShift", WaveletFilters.haar_with_shift),              # 4
    ("Fidelity", WaveletFilters.fidelity),                          # 5
    ("Daubechies97Integer", WaveletFilters.daubechies_9_7),         # 6
]

# (height, width, levels)
VC2_SIZES = [
    (8, 8, 1), (8, 8, 2), (8, 8, 3),
    (16, 24, 1), (16, 24, 2), (16, 24, 3),
    (32, 16, 2),
    (12, 20, 2),
]


def vc2_forward(index, levels, picture):
    """Run vc2_conformance's dwt; returns its coeff_data dict."""
    st = vc2_state(int(index), levels)
    # dwt works in place on its argument (bit shift + lifting): give it a copy.
    return dwt(st, copy.deepcopy(picture))


def vc2_to_mallat(coeff_data, levels):
    """Arrange VC-2 coeff_data in pywt.coeffs_to_array's Mallat layout.

    VC-2 numbers levels 1 (coarsest) .. levels (finest); coeff_data[0]["LL"]
    is the final DC band. VC-2 band names: HL = high horizontally / low
    vertically (odd column, even row of the interleaved array), LH = low
    horizontally / high vertically, HH = high both.
    PyWavelets' wavedecn keys are per axis (axis 0 = rows/vertical, axis 1 =
    columns/horizontal): 'ad' = approx vertically, detail horizontally = HL,
    'da' = LH, 'dd' = HH. coeffs_to_array puts 'ad' top-right, 'da'
    bottom-left, 'dd' bottom-right, and the approximation top-left.
    """
    coeffs = [np.array(coeff_data[0]["LL"], dtype=np.int64)]
    for n in range(1, levels + 1):  # coarsest first, as wavedecn
        coeffs.append({
            "ad": np.array(coeff_data[n]["HL"], dtype=np.int64),
            "da": np.array(coeff_data[n]["LH"], dtype=np.int64),
            "dd": np.array(coeff_data[n]["HH"], dtype=np.int64),
        })
    arr, _slices = pywt.coeffs_to_array(coeffs)
    assert arr.dtype == np.int64
    # Independent check of the placement, by hand.
    h, w = arr.shape
    chk = np.zeros_like(arr)
    for n in range(levels, 0, -1):
        hh, ww = h >> (levels - n + 1), w >> (levels - n + 1)
        chk[:hh, ww:2 * ww] = coeff_data[n]["HL"]
        chk[hh:2 * hh, :ww] = coeff_data[n]["LH"]
        chk[hh:2 * hh, ww:2 * ww] = coeff_data[n]["HH"]
    chk[:h >> levels, :w >> levels] = coeff_data[0]["LL"]
    assert np.array_equal(arr, chk)
    return arr


def gen_vc2():
    # Fidelity patch, checked before and after.
    before = _fidelity_constant_high()
    assert before != 0, "unpatched table should leak a constant into the high band"
    _odd_taps[1] = 10  # PATCH: -10 -> +10 (see comment at top).
    assert LIFTING_FILTERS[WaveletFilters.fidelity].stages[0].taps[1] == 10
    after = _fidelity_constant_high()
    assert after == 0, after
    print(f"Fidelity patch: constant-picture max|high| {before} (tap -10) -> {after} (tap +10)")

    rng = np.random.default_rng(20240501)
    cases = []
    for name, index in VC2_WAVELETS:
        # Sanity on constant pictures.
        for c in (0, 1, -7, 100, 511, -512):
            cd = vc2_forward(index, 1, [[c] * 8 for _ in range(8)])
            shift = LIFTING_FILTERS[index].filter_bit_shift
            highs = [v for b in ("HL", "LH", "HH") for r in cd[1][b] for v in r]
            lls = {v for r in cd[0]["LL"] for v in r}
            if name == "Daubechies97Integer":
                # Integer 9/7 rounding leaves +-1 residues in the high bands;
                # its DC gain is not a power of two (LL ~ 3.03c).
                assert max(abs(v) for v in highs) <= 1, (name, c, highs)
            elif name == "Fidelity":
                # No shift, but the even (update) step adds the mean of the
                # odd neighbours: DC gain 2 per axis, so LL = 4c.
                assert all(v == 0 for v in highs), (name, c, highs)
                assert shift == 0 and lls == {4 * c}, (name, c, lls)
            else:
                # DC passes the lifting unchanged: LL = c << shift.
                assert all(v == 0 for v in highs), (name, c, highs)
                assert lls == {c << shift}, (name, c, lls)
        for (h, w, levels) in VC2_SIZES:
            assert h % (1 << levels) == 0 and w % (1 << levels) == 0
            x = rng.integers(-512, 512, size=(h, w), dtype=np.int64)
            picture = x.tolist()
            coeff_data = vc2_forward(index, levels, picture)
            # Round trip with the package's own inverse.
            back = idwt(vc2_state(int(index), levels), copy.deepcopy(coeff_data))
            assert back == picture, (name, h, w, levels)
            mallat = vc2_to_mallat(coeff_data, levels)
            assert mallat.shape == (h, w)
            cases.append({
                "wavelet": name,
                "height": h,
                "width": w,
                "levels": levels,
                "input": x.ravel().tolist(),
                "mallat": mallat.ravel().tolist(),
            })
    return cases


PYWT_WAVELETS = [("bior4.4", "Cdf97"), ("bior2.2", "Cdf53"), ("haar", "Haar")]
PYWT_SHAPES = [
    ((64,), 1), ((64,), 2), ((64,), 3),
    ((16, 32), 1), ((16, 32), 2), ((16, 32), 3),
    ((8, 16, 8), 1), ((8, 16, 8), 2),
    ((32, 32), 1),
]


def gen_pywt():
    rng = np.random.default_rng(97531)
    cases = []
    for wname, ours in PYWT_WAVELETS:
        for shape, levels in PYWT_SHAPES:
            x = rng.standard_normal(shape)
            with warnings.catch_warnings():
                # e.g. bior4.4 on length 8 at level 2: "level too high" warning;
                # periodization is still well defined.
                warnings.simplefilter("ignore", UserWarning)
                coeffs = pywt.wavedecn(x, wname, mode="periodization", level=levels)
            arr, _ = pywt.coeffs_to_array(coeffs)
            assert arr.shape == x.shape and arr.dtype == np.float64
            # Round trip through pywt's inverse.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                rec = pywt.waverecn(coeffs, wname, mode="periodization")
            assert np.allclose(rec, x, atol=1e-10)
            cases.append({
                "pywt": wname,
                "ours": ours,
                "shape": list(shape),
                "levels": levels,
                "input": x.ravel().tolist(),
                "mallat": arr.ravel().tolist(),
            })
    return cases


def gen_filters():
    out = []
    for wname, ours in PYWT_WAVELETS:
        wv = pywt.Wavelet(wname)
        out.append({
            "pywt": wname,
            "ours": ours,
            "dec_lo": list(map(float, wv.dec_lo)),
            "dec_hi": list(map(float, wv.dec_hi)),
            "rec_lo": list(map(float, wv.rec_lo)),
            "rec_hi": list(map(float, wv.rec_hi)),
        })
    return out


def write(name, obj):
    path = os.path.join(HERE, name)
    text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    with open(path, "w") as f:
        f.write(text)
        f.write("\n")
    print(f"wrote {path}: {len(obj)} entries, {len(text)} bytes")
    assert len(text) < 1_500_000


def main():
    write("vc2.json", gen_vc2())
    write("pywt.json", gen_pywt())
    write("filters.json", gen_filters())


if __name__ == "__main__":
    main()
