"""``unilayout codegen``: the code of any text, its inverse, and clean errors."""

from helpers_cli import run

from unilayout import codegen, cute


def test_codegen_prints_what_codegen_emit_writes(capsys):
    status, out, _ = run(capsys, "codegen", "Sw<3,3,3> o 0 o (8,64):(64,1)", "--to", "c", "--name", "sw128")
    assert status == 0 and out.strip() == codegen.emit(cute.parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), "c", "sw128")


def test_codegen_inverse_and_affine_box(capsys):
    status, out, _ = run(capsys, "codegen", "(4,8):(8,1)", "--to", "python", "--inverse")
    env = {}
    exec(out, env)
    assert status == 0 and [env["layout_inverse"](i) for i in (0, 1, 8)] == [0, 4, 1]
    status, out, _ = run(capsys, "codegen", "(d0, d1) -> (d0 * 32 + d1 floordiv 4)", "--to", "mlir-affine",
                         "--shape", "4x128")
    assert status == 0 and out.strip() == "affine_map<(d0, d1) -> (d0 * 32 + d1 floordiv 4)>"


def test_codegen_errors_exit_2_with_the_reason(capsys):
    status, _, err = run(capsys, "codegen", "Sw<3,3,3> o 0 o (8,64):(64,1)", "--to", "mlir-affine")
    assert status == 2 and "XOR is not quasi-affine" in err
    status, _, err = run(capsys, "codegen", "(4,8):(2,8)", "--to", "c", "--inverse")
    assert status == 2 and "not a bijection" in err
    status, _, err = run(capsys, "codegen", "(4,8):(8,1)", "--to", "fortran")
    assert status == 2 and "invalid choice" in err


def test_show_offers_the_index_code(capsys):
    status, out, _ = run(capsys, "show", "Sw<3,3,3> o 0 o (8,64):(64,1)", "--code")
    assert status == 0 and "code (c):" in out
    assert out.rstrip().endswith(codegen.emit(cute.parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), "c").rstrip())
    status, out, _ = run(capsys, "show", "(d0) -> (d0 floordiv 4)", "--shape", "16", "--code", "mlir-affine")
    assert status == 0 and "affine_map<(d0) -> (d0 floordiv 4)>" in out
