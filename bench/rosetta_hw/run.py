"""Run the rosetta's hardware probes on a GPU and store what they measured (one prepared script).

Each ``*.cu`` here is a tiny CUDA program that writes, for every thread and
register of one instruction, the element it holds, measured on the hardware:
``ldmatrix_x4.cu`` (ldmatrix.x4), ``mma_m16n8k16.cu`` (mma.sync m16n8k16
f32.f16: A, B and the accumulator, with an exact product check) and
``wgmma_m64n64k16.cu`` (wgmma m64n64k16 f32.f16 on Hopper: the accumulator,
with an exact product check). ``load.py`` reads the output as rosetta
``Fragment`` values and compares them with every system's spelling.

    python bench/rosetta_hw/run.py --out DIR      # on a machine with an sm_90 GPU and nvcc: compile, run, compare
    python bench/rosetta_hw/run.py --check        # anywhere with nvcc: compile to PTX, assemble with ptxas, no GPU

``--out DIR`` writes ``DIR/hardware.json`` (one object per instruction and the
device) and prints the comparison; copy it to
``tests/rosetta/data/hardware.json`` to make it test data
(tests/rosetta/test_hardware.py then checks every system against it).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
PROBES = ("ldmatrix_x4", "mma_m16n8k16", "wgmma_m64n64k16")
ARCH = ["-gencode", "arch=compute_90a,code=sm_90a"]


def nvcc() -> str:
    for cand in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if cand and pathlib.Path(cand).exists():
            return cand
    sys.exit("rosetta_hw: no nvcc (set NVCC=/path/to/nvcc)")


def check(work: pathlib.Path) -> None:
    """Compile every probe to PTX and assemble it for sm_90a: the syntax check that needs no GPU."""
    cc = nvcc()
    ptxas = str(pathlib.Path(cc).with_name("ptxas"))
    for name in PROBES:
        ptx, cubin = work / f"{name}.ptx", work / f"{name}.cubin"
        subprocess.run([cc, "-arch=sm_90a", "-ptx", str(HERE / f"{name}.cu"), "-o", str(ptx)], check=True)
        subprocess.run([ptxas, "-arch=sm_90a", str(ptx), "-o", str(cubin)], check=True)
        subprocess.run([cc, *ARCH, "-O1", str(HERE / f"{name}.cu"), "-o", str(work / name)], check=True)
        print(f"{name}: PTX assembles for sm_90a, host program builds")


def run(out: pathlib.Path, work: pathlib.Path) -> dict:
    cc = nvcc()
    results = {}
    for name in PROBES:
        exe = work / name
        subprocess.run([cc, *ARCH, "-O1", str(HERE / f"{name}.cu"), "-o", str(exe)], check=True)
        proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            results[name] = {"error": proc.stderr.strip()[-2000:]}
            print(f"{name}: failed: {proc.stderr.strip()[-300:]}")
            continue
        results[name] = json.loads(proc.stdout)
        print(f"{name}: measured on {results[name]['device']}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "hardware.json").write_text(json.dumps(results, indent=1) + "\n")
    return results


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=pathlib.Path, help="write DIR/hardware.json (needs a GPU)")
    p.add_argument("--check", action="store_true", help="compile and assemble only (no GPU)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        if args.check:
            check(work)
            return 0
        if args.out is None:
            p.error("give --out DIR or --check")
        run(args.out, work)
    sys.path.insert(0, str(HERE))
    try:
        import load  # beside this script; it imports unilayout, which a bare GPU machine may lack
    except ImportError as e:
        print(f"stored {args.out / 'hardware.json'}; compare it where unilayout installs ({e}): "
              "python bench/rosetta_hw/load.py hardware.json")
        return 0
    for line in load.report(args.out / "hardware.json"):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
