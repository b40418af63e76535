//! The host end of the execution test: the input buffers are filled through
//! the C structs stride writes for the module (`--target c`).
//!
//! For each module, a C program is generated that includes the header,
//! takes the buffers' initial bytes (the probe's pattern), stores a
//! distinct value into every leaf the probe reads, through the generated
//! structs' members (`(*(g_Type *)b0).lights[1].value[2] = ...`, paths from
//! `probe::Leaf::c`), and writes the bytes out. The test binds those bytes,
//! and each target's shader must read back exactly the value the C program
//! stored. Nothing here computes where a value lands: the C compiler places
//! it through the struct, and the shader reads it at the contract offset.
//! Bytes outside every leaf must come back from the C program unchanged.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use stride::layout::ScalarKind;
use stride::{DiagnosticKind, Options, Output, Target};

use crate::probe::{self, Leaf, Probe};

/// The buffers as the C program left them, and what it stored.
pub struct HostFill {
    /// Contents of `probe.buffers[i]` (its `size` bytes).
    pub buffers: Vec<Vec<u8>>,
    /// For `probe.reads[k]`: the value stored in its leaf, as the probe
    /// reads it back (an f16 widened to f32 bits).
    pub values: Vec<u32>,
}

/// Why a module was not filled by the host.
pub enum NotFilled {
    /// `--target c` refuses the module (a layout C cannot declare, reported
    /// with a fix; tests/host.rs checks the fix).
    Refused(String),
    /// Something that must not happen: the header or the program does not
    /// compile, or the program wrote outside the leaves.
    Failed(String),
}

/// The value the host stores into `leaf`: keyed by the leaf's buffer and
/// contract offset (two reads of one leaf expect one value), and a normal
/// number for floats (`probe::value_bits`).
fn value(seed: u64, leaf: &Leaf) -> u32 {
    let h = probe::hash64(seed ^ 0x484f_5354 ^ ((leaf.buffer as u64 + 1) << 40) ^ leaf.offset);
    probe::value_bits(h as u32, leaf)
}

/// `value` as the probe's output word holds it.
fn as_read(leaf: &Leaf, v: u32) -> u32 {
    if leaf.scalar.width == 2 && leaf.scalar.kind == ScalarKind::Float {
        probe::f16_to_f32_bits(v as u16)
    } else {
        v
    }
}

/// The C statement storing `v` into `leaf`.
fn store(leaf: &Leaf, v: u32) -> String {
    let rhs = match (leaf.scalar.kind, leaf.scalar.width) {
        (ScalarKind::Float, 4) => format!("f32_bits({v:#010x}u)"),
        (ScalarKind::Sint, 4) => format!("(int32_t){v:#010x}u"),
        (_, 2) => format!("(uint16_t){v:#06x}u"),
        _ => format!("{v:#010x}u"),
    };
    format!("    {} = {rhs};\n", leaf.c)
}

/// Bytes allocated per buffer in the C program: a multiple of the
/// allocation's alignment, as `aligned_alloc` wants.
const C_ALIGN: u64 = 4096;

fn program(probe: &Probe, seed: u64) -> String {
    let mut p = String::from(
        "#include \"module.h\"\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n",
    );
    p.push_str("static inline float f32_bits(uint32_t b) {\n    float f;\n    memcpy(&f, &b, sizeof f);\n    return f;\n}\n\n");
    p.push_str("int main(int argc, char **argv) {\n    if (argc != 3) return 2;\n");
    p.push_str("    FILE *in = fopen(argv[1], \"rb\");\n    if (!in) return 3;\n");
    for (i, b) in probe.buffers.iter().enumerate() {
        let alloc = b.size.max(1).div_ceil(C_ALIGN) * C_ALIGN;
        let _ = writeln!(
            p,
            "    unsigned char *b{i} = aligned_alloc({C_ALIGN}, {alloc});\n    if (!b{i} || fread(b{i}, 1, {size}, in) != {size}) return 4;",
            size = b.size
        );
    }
    p.push_str("    fclose(in);\n");
    for leaf in &probe.reads {
        p.push_str(&store(leaf, value(seed, leaf)));
    }
    p.push_str("    FILE *out = fopen(argv[2], \"wb\");\n    if (!out) return 5;\n");
    for (i, b) in probe.buffers.iter().enumerate() {
        let _ = writeln!(
            p,
            "    if (fwrite(b{i}, 1, {size}, out) != {size}) return 6;\n    free(b{i});",
            size = b.size
        );
    }
    p.push_str("    return fclose(out) == 0 ? 0 : 7;\n}\n");
    p
}

fn run(cmd: &mut Command) -> Result<(), String> {
    match crate::common::output_bounded(cmd) {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!(
            "{cmd:?} failed ({}):\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => Err(format!("{cmd:?}: {e}")),
    }
}

/// A fresh directory for one module's files.
fn work_dir(index: usize) -> PathBuf {
    std::env::temp_dir()
        .join(format!("stride-exec-host-{}", std::process::id()))
        .join(index.to_string())
}

/// Fill the buffers of `probe` (for the module `source`) through the C
/// structs. `initial[i]` holds the starting bytes of buffer `i` (at least
/// its `size`). `index` names the scratch directory.
pub fn fill(
    index: usize,
    source: &str,
    probe: &Probe,
    initial: &[Vec<u8>],
    seed: u64,
) -> Result<HostFill, NotFilled> {
    let options = Options {
        target: Target::C,
        ..Default::default()
    };
    let header = match stride::translate(source, &options) {
        Ok(t) => match t.output {
            Output::Text(s) => s,
            _ => return Err(NotFilled::Failed("--target c gave no text".into())),
        },
        Err(d) => {
            let first = d.iter().find(|d| d.is_error());
            return Err(match first {
                Some(e) if e.kind == DiagnosticKind::Inexpressible => {
                    NotFilled::Refused(e.message.clone())
                }
                _ => NotFilled::Failed(format!(
                    "--target c failed: {}",
                    d.render("module.wgsl", source, false)
                )),
            });
        }
    };
    let dir = work_dir(index);
    let failed = |e: String| NotFilled::Failed(format!("{e}\n    files: {}", dir.display()));
    let io = |e: std::io::Error| NotFilled::Failed(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(&dir).map_err(io)?;
    std::fs::write(dir.join("module.h"), &header).map_err(io)?;
    std::fs::write(dir.join("fill.c"), program(probe, seed)).map_err(io)?;
    let input: Vec<u8> = probe
        .buffers
        .iter()
        .zip(initial)
        .flat_map(|(b, bytes)| bytes[..b.size as usize].iter().copied())
        .collect();
    std::fs::write(dir.join("in.bin"), &input).map_err(io)?;
    let exe = dir.join("fill");
    run(Command::new("cc")
        .args(["-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(dir.join("fill.c")))
    .map_err(failed)?;
    run(Command::new(&exe)
        .arg(dir.join("in.bin"))
        .arg(dir.join("out.bin")))
    .map_err(failed)?;
    let output = std::fs::read(dir.join("out.bin")).map_err(io)?;
    if output.len() != input.len() {
        return Err(failed(format!(
            "the C program wrote {} bytes, not {}",
            output.len(),
            input.len()
        )));
    }
    let mut buffers = Vec::new();
    let mut at = 0usize;
    for b in &probe.buffers {
        buffers.push(output[at..at + b.size as usize].to_vec());
        at += b.size as usize;
    }
    // Only leaf bytes may change.
    let mut covered: Vec<Vec<bool>> = buffers.iter().map(|b| vec![false; b.len()]).collect();
    for leaf in &probe.reads {
        for o in leaf.offset..leaf.offset + leaf.width() {
            if let Some(c) = covered[leaf.buffer].get_mut(o as usize) {
                *c = true;
            }
        }
    }
    for (i, b) in buffers.iter().enumerate() {
        let changed = b
            .iter()
            .zip(&initial[i])
            .enumerate()
            .find(|(o, (now, was))| now != was && !covered[i][*o]);
        if let Some((o, _)) = changed {
            return Err(failed(format!(
                "the C program changed byte {o} of buffer `{}`, which is outside every leaf",
                probe.buffers[i].name
            )));
        }
    }
    let values = probe
        .reads
        .iter()
        .map(|leaf| as_read(leaf, value(seed, leaf)))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(HostFill { buffers, values })
}

/// Remove the scratch directories of this process.
pub fn clean_up() {
    let root: &Path =
        &std::env::temp_dir().join(format!("stride-exec-host-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(root);
}
