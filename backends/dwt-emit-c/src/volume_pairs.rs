//! The pair-local volume kernel: one level of a 3-D transform in one launch for programs whose
//! every step reads only its own (even, odd) pair (Haar and the like, [`pair_local`]), on bands
//! whose three sides are even. Each work-item holds one 2x2x2 block of the band in registers:
//! the forward reads its two pairs of each of two rows of two planes, lifts along x, y and z
//! there (the CPU reference's order, with the pre-shift first) and stores its eight
//! coefficients; the inverse the other way about. In the Mallat layout one coefficient goes to
//! each octant of the level, the work-items of a warp storing 32 consecutive samples of an
//! octant row; in the interleaved layout the coefficients take their samples' places, so that
//! every level after the first lifts the data in place. Where the tile kernel and the depth pass
//! each read and write the band once per level, this reads and writes it once: the fused plan
//! lifts every level of such a volume with it (`plan::pair_volume`), in the Mallat layout the
//! low octant handed from level to level through the scratch.
//!
//! [`pair_local`]: crate::pyramid::pair_local

use dwt_ir::{Direction, Layout};

use crate::dialect::Param;
use crate::emit::Emitter;
use crate::writer::Writer;

/// Work-items per group: blocks along x of one row of blocks of one plane of blocks.
pub const VOLUME_PAIRS_THREADS: usize = 128;

/// The Mallat layout's `int` parameters after the three buffers: the level's size in blocks
/// (half the band's columns, rows and planes), where the natural samples and the low octant are
/// (base, row and plane steps), the high octants' row and plane steps, then the high octants'
/// bases.
const VOLUME_PAIRS_ADDRESSING: [&str; 11] = [
    "cols",
    "rows",
    "planes",
    "nat_base",
    "nat_row_step",
    "nat_plane_step",
    "low_base",
    "low_row_step",
    "low_plane_step",
    "high_row_step",
    "high_plane_step",
];

/// The interleaved layout's `int` parameters after the buffers: the level's size in blocks,
/// then its samples' steps (`2^level` samples of the volume apart along each axis).
const IN_PLACE_ADDRESSING: [&str; 6] = [
    "cols",
    "rows",
    "planes",
    "col_step",
    "row_step",
    "plane_step",
];

/// The high octants in parameter order, by their `[z, y, x]` parity (1: high along that axis),
/// with the parameter of each one's base.
const HIGH_OCTANTS: [([usize; 3], &str); 7] = [
    ([0, 0, 1], "h001_base"),
    ([0, 1, 0], "h010_base"),
    ([0, 1, 1], "h011_base"),
    ([1, 0, 0], "h100_base"),
    ([1, 0, 1], "h101_base"),
    ([1, 1, 0], "h110_base"),
    ([1, 1, 1], "h111_base"),
];

/// A block's register for the sample of parity `[z, y, x]`.
fn reg([z, y, x]: [usize; 3]) -> String {
    format!("v{z}{y}{x}")
}

/// Where a block's samples are: `buffer[base + (2k + z) * plane_step + (2j + y) * row_step + (2i
/// + x) * col_step]`, `col_step` 1 where `None` (the Mallat layout's natural samples).
struct Samples {
    buffer: &'static str,
    /// `None`: 0.
    base: Option<&'static str>,
    plane_step: &'static str,
    row_step: &'static str,
    col_step: Option<&'static str>,
}

/// The Mallat layout's natural samples.
const NATURAL: Samples = Samples {
    buffer: "nat",
    base: Some("nat_base"),
    plane_step: "nat_plane_step",
    row_step: "nat_row_step",
    col_step: None,
};

impl Emitter<'_> {
    /// The pair-local volume kernel `name` (see the module doc).
    pub(crate) fn volume_pairs(&self, w: &mut Writer, name: &str) {
        let d = self.d;
        let forward = self.direction == Direction::Forward;
        let mallat = self.layout == Layout::Mallat;
        let mut params = match (mallat, forward) {
            (true, _) => self.nat_low_high().to_vec(),
            // In place at every level but the first out of place: nothing is `restrict`.
            (false, true) => vec![
                Param::Global("src", self.elem),
                Param::Global("dst", self.elem),
            ],
            (false, false) => ["src", "lows", "dst"]
                .map(|b| Param::Global(b, self.elem))
                .to_vec(),
        };
        match mallat {
            true => {
                params.extend(VOLUME_PAIRS_ADDRESSING.map(Param::Int));
                params.extend(HIGH_OCTANTS.map(|(_, base)| Param::Int(base)));
            }
            false => params.extend(IN_PLACE_ADDRESSING.map(Param::Int)),
        }
        w.comment("Pair-local volume pass: one level of a pair-local program along x, y and z in one launch,");
        w.comment(format!(
            "{} layout, sides even. Work-item (i, j, k) holds the 2x2x2 block of the band's samples",
            if mallat { "Mallat" } else { "Interleaved" }
        ));
        w.comment(match mallat {
            true => "(2i.., 2j.., 2k..) in registers v{z}{y}{x} and coefficient (i, j, k) of each octant.",
            false => "(2i.., 2j.., 2k..) in registers v{z}{y}{x}, its coefficients in their places: from src to dst.",
        });
        if !mallat && !forward {
            w.comment("The low coefficient of each block, which the coarser level wrote, is read from lows.");
        }
        let sig = d.kernel_signature(name, &params, [VOLUME_PAIRS_THREADS, 1, 1], true);
        self.kernel_block(w, sig, |w| {
            w.line(format!(
                "const int i = {} * {VOLUME_PAIRS_THREADS} + {};",
                d.group_id(0),
                d.local_id(0)
            ));
            w.line(format!(
                "const int j = {}, k = {};",
                d.group_id(1),
                d.group_id(2)
            ));
            w.line("if (i >= cols) return;");
            let regs: Vec<String> = (0..8)
                .map(|b| reg([b >> 2 & 1, b >> 1 & 1, b & 1]))
                .collect();
            w.line(format!("{} {};", self.work(), regs.join(", ")));
            let in_place = |buffer| Samples {
                buffer,
                base: None,
                plane_step: "plane_step",
                row_step: "row_step",
                col_step: Some("col_step"),
            };
            if forward {
                match mallat {
                    true => self.volume_pairs_samples(w, &NATURAL, true),
                    false => self.volume_pairs_samples(w, &in_place("src"), true),
                }
                if self.pre_shifted() {
                    for r in &regs {
                        w.line(format!("{r} = pre_shift({r});"));
                    }
                }
                for axis in [2, 1, 0] {
                    self.volume_pairs_axis(w, axis);
                }
                match mallat {
                    true => self.volume_pairs_octants(w, true),
                    false => self.volume_pairs_samples(w, &in_place("dst"), false),
                }
            } else {
                match mallat {
                    true => self.volume_pairs_octants(w, false),
                    false => {
                        self.volume_pairs_samples(w, &in_place("src"), true);
                        w.line("v000 = to_work(lows[n00]);");
                    }
                }
                for axis in [0, 1, 2] {
                    self.volume_pairs_axis(w, axis);
                }
                if self.pre_shifted() {
                    for r in &regs {
                        w.line(format!("{r} = undo_pre_shift({r});"));
                    }
                }
                match mallat {
                    true => self.volume_pairs_samples(w, &NATURAL, false),
                    false => self.volume_pairs_samples(w, &in_place("dst"), false),
                }
            }
        });
    }

    /// The block's samples between `at` and the registers: a pair per row of each plane, as
    /// one vector access where the pair is adjacent and aligned (a whole volume of even sides,
    /// the Mallat layout's every level), else a sample at a time. Declares `n{z}{y}`, each row's
    /// first sample, where none are yet.
    fn volume_pairs_samples(&self, w: &mut Writer, at: &Samples, load: bool) {
        let d = self.d;
        let elem = self.elem;
        let rows = [[0, 0], [0, 1], [1, 0], [1, 1]];
        let row = |[z, y]: [usize; 2]| format!("n{z}{y}");
        let Samples {
            buffer,
            base,
            plane_step,
            row_step,
            col_step,
        } = *at;
        w.comment(format!(
            "The block's samples {} {buffer}: a pair per row of each of its planes.",
            if load { "from" } else { "to" }
        ));
        // The inverse's in-place form stores where it loaded.
        if load || col_step.is_none() {
            let x = col_step.map_or("2 * i".to_string(), |s| format!("2 * i * {s}"));
            let base = base.map_or(String::new(), |b| format!("{b} + "));
            for zy in rows {
                w.line(format!(
                    "const int {} = {base}(2 * k + {}) * {plane_step} + (2 * j + {}) * {row_step} + {x};",
                    row(zy),
                    zy[0],
                    zy[1]
                ));
            }
        }
        let next = col_step.unwrap_or("1");
        let aligned = match d.pair_aligned(elem, buffer) {
            Some(a) => format!(" && {a}"),
            None => String::new(),
        };
        let adjacent = match col_step {
            Some(s) => format!("{s} == 1 && "),
            None => String::new(),
        };
        let bases = match base {
            Some(b) => format!("{b} | {row_step} | {plane_step}"),
            None => format!("{row_step} | {plane_step}"),
        };
        w.block(
            format!("if ({adjacent}(({bases}) & 1) == 0{aligned})"),
            |w| {
                for zy in rows {
                    let [e, o] = [0, 1].map(|x| reg([zy[0], zy[1], x]));
                    match load {
                        true => w.block("", |w| {
                            w.line(format!(
                                "const {} p = {};",
                                d.pair_type(elem),
                                d.load_pair(elem, buffer, &row(zy))
                            ));
                            w.line(format!("{e} = to_work(p.x);"));
                            w.line(format!("{o} = to_work(p.y);"));
                        }),
                        false => w.line(d.store_pair(
                            elem,
                            buffer,
                            &row(zy),
                            &format!("to_elem({e})"),
                            &format!("to_elem({o})"),
                        )),
                    }
                }
            },
        );
        w.block("else", |w| {
            for zy in rows {
                for (x, offset) in [(0, String::new()), (1, format!(" + {next}"))] {
                    let r = reg([zy[0], zy[1], x]);
                    let sample = format!("{buffer}[{}{offset}]", row(zy));
                    w.line(match load {
                        true => format!("{r} = to_work({sample});"),
                        false => format!("{sample} = to_elem({r});"),
                    });
                }
            }
        });
    }

    /// The block's coefficients between the registers and the level's octants: the low one at
    /// `low`, the seven high ones in `high`.
    fn volume_pairs_octants(&self, w: &mut Writer, store: bool) {
        w.comment(format!(
            "The block's coefficients {} the octants: coefficient (i, j, k) of each.",
            if store { "to" } else { "from" }
        ));
        let mut places = vec![(
            [0, 0, 0],
            "low[low_base + k * low_plane_step + j * low_row_step + i]".to_string(),
        )];
        places.extend(HIGH_OCTANTS.map(|(p, base)| {
            (
                p,
                format!("high[{base} + k * high_plane_step + j * high_row_step + i]"),
            )
        }));
        for (p, at) in places {
            let r = reg(p);
            w.line(match store {
                true => format!("{at} = to_elem({r});"),
                false => format!("{r} = to_work({at});"),
            });
        }
    }

    /// The program on the block's four pairs along `axis` (0: z, 1: y, 2: x), each result
    /// stored as the element type where that loses bits, as the reference stores each pass.
    fn volume_pairs_axis(&self, w: &mut Writer, axis: usize) {
        w.comment(format!("Along {}: four pairs.", ["z", "y", "x"][axis]));
        for other in 0..4 {
            let [mut e, mut o] = [[0usize; 3]; 2];
            let others: Vec<usize> = (0..3).filter(|&a| a != axis).collect();
            for (bit, &a) in others.iter().enumerate() {
                e[a] = other >> (1 - bit) & 1;
                o[a] = e[a];
            }
            o[axis] = 1;
            let (re, ro) = (reg(e), reg(o));
            w.block("", |w| {
                w.line(format!("{} e = {re}, o = {ro};", self.work()));
                self.pyramid_pair(w);
                w.line(format!("{re} = {};", self.truncated("e")));
                w.line(format!("{ro} = {};", self.truncated("o")));
            });
        }
    }
}
