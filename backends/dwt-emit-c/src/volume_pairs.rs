//! The pair-local volume kernel: one level of a 3-D transform in one launch for programs whose
//! every step reads only its own (even, odd) pair (Haar and the like, [`pair_local`]), in the
//! Mallat layout, on bands whose three sides are even. Each work-item holds one 2x2x2 block of
//! the band in registers: the forward reads its two natural pairs of each of two rows of two
//! planes, lifts along x, y and z there (the CPU reference's order, with the pre-shift first)
//! and stores its eight coefficients, one to each octant of the level, where the work-items of
//! a warp store 32 consecutive samples of an octant row; the inverse the other way about.
//! Where the tile kernel and the depth pass each read and write the band once per level, this
//! reads and writes it once: the fused plan lifts every level of such a volume with it
//! (`plan::pair_volume`), the low octant handed from level to level through the scratch.
//!
//! [`pair_local`]: crate::pyramid::pair_local

use dwt_ir::Direction;

use crate::dialect::Param;
use crate::emit::Emitter;
use crate::writer::Writer;

/// Work-items per group: blocks along x of one row of blocks of one plane of blocks.
pub const VOLUME_PAIRS_THREADS: usize = 128;

/// The `int` parameters after the three buffers: the level's size in blocks (half the band's
/// columns, rows and planes), where the natural samples and the low octant are (base, row and
/// plane steps), the high octants' row and plane steps, then the high octants' bases.
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

impl Emitter<'_> {
    /// The pair-local volume kernel `name` (see the module doc).
    pub(crate) fn volume_pairs(&self, w: &mut Writer, name: &str) {
        let d = self.d;
        let forward = self.direction == Direction::Forward;
        let mut params = self.nat_low_high().to_vec();
        params.extend(VOLUME_PAIRS_ADDRESSING.map(Param::Int));
        params.extend(HIGH_OCTANTS.map(|(_, base)| Param::Int(base)));
        w.comment("Pair-local volume pass: one level of a pair-local program along x, y and z in one launch,");
        w.comment("Mallat layout, sides even. Work-item (i, j, k) holds the 2x2x2 block of natural samples");
        w.comment(
            "(2i.., 2j.., 2k..) in registers v{z}{y}{x} and coefficient (i, j, k) of each octant.",
        );
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
            if forward {
                self.volume_pairs_natural(w, true);
                if self.pre_shifted() {
                    for r in &regs {
                        w.line(format!("{r} = pre_shift({r});"));
                    }
                }
                for axis in [2, 1, 0] {
                    self.volume_pairs_axis(w, axis);
                }
                self.volume_pairs_octants(w, true);
            } else {
                self.volume_pairs_octants(w, false);
                for axis in [0, 1, 2] {
                    self.volume_pairs_axis(w, axis);
                }
                if self.pre_shifted() {
                    for r in &regs {
                        w.line(format!("{r} = undo_pre_shift({r});"));
                    }
                }
                self.volume_pairs_natural(w, false);
            }
        });
    }

    /// The block's natural samples between `nat` and the registers: a pair per row of each
    /// plane, as one vector access where `nat` and its steps allow (they do for a whole
    /// volume of even sides), else a sample at a time.
    fn volume_pairs_natural(&self, w: &mut Writer, load: bool) {
        let d = self.d;
        let elem = self.elem;
        let rows = [[0, 0], [0, 1], [1, 0], [1, 1]];
        let at = |[z, y]: [usize; 2]| format!("n{z}{y}");
        w.comment(format!(
            "The block's natural samples {}: a pair per row of each of its planes.",
            if load { "in" } else { "out" }
        ));
        for zy in rows {
            w.line(format!(
                "const int {} = nat_base + (2 * k + {}) * nat_plane_step + (2 * j + {}) * nat_row_step + 2 * i;",
                at(zy),
                zy[0],
                zy[1]
            ));
        }
        let aligned = match d.pair_aligned(elem, "nat") {
            Some(a) => format!(" && {a}"),
            None => String::new(),
        };
        w.block(
            format!("if (((nat_base | nat_row_step | nat_plane_step) & 1) == 0{aligned})"),
            |w| {
                for zy in rows {
                    let [e, o] = [0, 1].map(|x| reg([zy[0], zy[1], x]));
                    match load {
                        true => w.block("", |w| {
                            w.line(format!(
                                "const {} p = {};",
                                d.pair_type(elem),
                                d.load_pair(elem, "nat", &at(zy))
                            ));
                            w.line(format!("{e} = to_work(p.x);"));
                            w.line(format!("{o} = to_work(p.y);"));
                        }),
                        false => w.line(d.store_pair(
                            elem,
                            "nat",
                            &at(zy),
                            &format!("to_elem({e})"),
                            &format!("to_elem({o})"),
                        )),
                    }
                }
            },
        );
        w.block("else", |w| {
            for zy in rows {
                for x in 0..2 {
                    let r = reg([zy[0], zy[1], x]);
                    let sample = format!("nat[{} + {x}]", at(zy));
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
