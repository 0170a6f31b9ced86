"""Huge inputs get a one-line error and exit status 2 from the ICCMA command line, not a traceback."""

import pytest

from argumentation import cli, parsers

from .test_cli import run_solver


def assert_refused(result, *fragments: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr


def test_it_refuses_an_i23_header_declaring_two_billion_arguments(tmp_path):
    (tmp_path / "huge.i23").write_text("p af 2000000000\n1 2\n")

    result = run_solver("-p", "EE-PR", "-f", str(tmp_path / "huge.i23"), "-fo", "i23")

    assert_refused(result, "huge.i23:1", "2000000000 arguments", f"at most {parsers.MAX_ARGUMENTS}")


def test_it_refuses_an_apx_file_declaring_too_many_arguments(tmp_path, monkeypatch):
    monkeypatch.setattr(parsers, "MAX_ARGUMENTS", 3)
    text = "arg(a). arg(b). arg(c).\narg(d).\n"

    with pytest.raises(parsers.TooLargeError, match=r"x.apx:2: 4 arguments; this solver takes at most 3"):
        parsers.parse_apx(text, source="x.apx")


def test_it_refuses_a_file_over_the_size_limit_without_reading_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "MAX_INPUT_BYTES", 10)
    (tmp_path / "big.apx").write_text("arg(a).\narg(b).\n")

    status = cli.main(["-p", "EE-PR", "-f", str(tmp_path / "big.apx"), "-fo", "apx"])

    assert status == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'big.apx'}: 16 bytes; this solver reads at most 10\n"


def test_it_turns_running_out_of_memory_into_one_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "small.apx").write_text("arg(a).\n")

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli, "parse_framework", exhausted)

    status = cli.main(["-p", "EE-PR", "-f", str(tmp_path / "small.apx"), "-fo", "apx"])

    assert status == 2
    assert (
        capsys.readouterr().err
        == f"error: out of memory (this solver takes at most {parsers.MAX_ARGUMENTS} arguments)\n"
    )
