"""Record Triton 3.9.0's answers for ``#ttg.amd_rotating_shared`` (no GPU needed): python make_shared_facts.py [N]

Writes ``amd_rotating_shared.json`` beside this file, read by ``tests/linear/test_shared.py`` so that CI
checks unilayout against Triton without running Triton:

- ``layouts``: N random encodings (``linear_helpers.random_rotating``, seed 2026) with a shape each, and
  Triton's printed attribute and ``toLinearLayout`` bases (through a same-shape ``ttg.memdesc_reshape``,
  which infers its ``#ttg.shared_linear`` result from ``toLinearLayout``: Gluon has no Python class for
  this encoding), or Triton's refusal;
- ``rejected``: texts Triton's parser or verifier refuses, or whose layout it aborts on.
"""

import importlib.util
import json
import pathlib
import random
import sys

HERE = pathlib.Path(__file__).parent
_spec = importlib.util.spec_from_file_location("linear_helpers", HERE.parent / "_helpers.py")
H = importlib.util.module_from_spec(_spec)
sys.modules["linear_helpers"] = H
_spec.loader.exec_module(H)

_ROT = "#ttg.amd_rotating_shared<{%s}>"
#: (text, shape, CTAs) Triton takes besides the random ones: the gfx1200 dump's, a missing vec (read as 0), and
#: fields in another order (printed in Triton's).
FIXED = [
    (_ROT % "vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]", [64, 128], 1),
    (_ROT % "perPhase = 1, maxPhase = 4, order = [1, 0]", [8, 8], 1),
    (_ROT % "order = [1, 0], maxPhase = 4, perPhase = 2, vec = 2", [64, 16], 1),
    (_ROT % "vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0], CGALayout = [[1, 0]]", [32, 64], 2),
]
#: (fields, shape, CTAs): texts Triton refuses (parser, verifier) or aborts on (its toLinearLayout).
BAD = [
    ("vec = 4, perPhase = 0, maxPhase = 4, order = [1, 0]", [32, 64], 1),
    ("vec = 4, perPhase = 1, maxPhase = 0, order = [1, 0]", [32, 64], 1),
    ("vec = -1, perPhase = 1, maxPhase = 4, order = [1, 0]", [32, 64], 1),
    ("vec = 4, perPhase = 1, maxPhase = 4, order = [1, 1]", [32, 64], 1),
    ("vec = 4, perPhase = 1, maxPhase = 4, order = [2, 0, 1]", [32, 64], 1),
    ("vec = 4, perPhase = 1, maxPhase = 4", [32, 64], 1),
    ("vec = 4, perPhase = 1, order = [1, 0]", [32, 64], 1),
    ("vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0], foo = 1", [32, 64], 1),
    ("vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]", [32, 48], 1),
    ("vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0], CGALayout = [[0, 64]]", [32, 64], 2),
    ("vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0], CGALayout = [[0, 3]]", [32, 64], 2),
]


def main(n: int = 400) -> None:
    rng = random.Random(2026)
    cases = [(str(e), s, c) for e, s, c in (H.random_rotating(rng) for _ in range(n))] + FIXED
    got = H.triton_shared_via_reshape([{"enc": e, "shape": s, "ctas": c} for e, s, c in cases])
    layouts = [{"enc": e, "shape": s, "ctas": c, **g} for (e, s, c), g in zip(cases, got)]
    rejected = []
    for fields, shape, ctas in BAD:
        enc = _ROT % fields
        t = "!ttg.memdesc<%sxf16, #s, #ttg.shared_memory, mutable>" % "x".join(map(str, shape))
        parsed = H.triton_mlir_layouts([{"type": t, "shape": shape, "warps": 4, "lanes": 32, "ctas": ctas,
                                         "aliases": ["#s = " + enc], "arg": True}])[0]
        if "error" in parsed:
            rejected.append({"enc": enc, "shape": shape, "ctas": ctas, "triton": "parser: " + parsed["error"]})
            continue
        lay = H.triton_shared_via_reshape([{"enc": enc, "shape": shape, "ctas": ctas}])[0]
        assert "error" in lay, f"Triton takes {enc} on {shape}: not a rejection"
        rejected.append({"enc": enc, "shape": shape, "ctas": ctas, "triton": "layout: " + lay["error"]})
    out = {"triton": "3.9.0", "layouts": layouts, "rejected": rejected}
    (HERE / "amd_rotating_shared.json").write_text(json.dumps(out, indent=0) + "\n")
    print(f"{len(layouts)} layouts ({sum('error' in x for x in layouts)} refused), {len(rejected)} rejections")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
