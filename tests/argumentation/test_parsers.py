"""Reading apx and i23 files."""

import pytest

from argumentation import ParseError, parse_apx, parse_i23


def test_it_reads_apx_with_comments_spaces_and_blank_lines():
    framework = parse_apx(
        "% header comment\narg(a).\n\n   arg( b ) .   arg(c).  % two on one line\natt(a, b).\natt ( b ,c ).\n"
    )

    assert framework.arguments == ("a", "b", "c")
    assert framework.attacks == {("a", "b"), ("b", "c")}


def test_it_reads_apx_self_attacks_and_ignores_repeats():
    framework = parse_apx("arg(a).\narg(a).\natt(a,a).\natt(a,a).\n")

    assert framework.arguments == ("a",)
    assert framework.attacks == {("a", "a")}


def test_it_reads_an_empty_apx_file_as_the_empty_framework():
    framework = parse_apx("% nothing here\n\n")

    assert framework.arguments == ()


@pytest.mark.parametrize(
    "text, line",
    [
        ("arg(a).\nargh(b).\n", 2),
        ("arg(a)\n", 1),
        ("arg(a).\natt(a).\n", 2),
        ("arg(a).\narg(b).\n\natt(a,b,a).\n", 4),
        ("arg(a b).\n", 1),
        ("arg(a).\natt(a,b).\n", 2),
        ("arg(a). junk\n", 1),
    ],
)
def test_it_reports_the_line_of_an_apx_problem(text, line):
    with pytest.raises(ParseError) as error:
        parse_apx(text, source="f.apx")

    assert error.value.line_number == line
    assert str(error.value).startswith(f"f.apx:{line}: ")


def test_it_reads_i23_with_comments_and_blank_lines():
    framework = parse_i23("# an AF\np af 4\n\n1 2\n# comment\n2 1\n4 4\n")

    assert framework.arguments == ("1", "2", "3", "4")
    assert framework.attacks == {("1", "2"), ("2", "1"), ("4", "4")}


def test_it_reads_an_i23_framework_without_attacks():
    assert parse_i23("p af 0\n").arguments == ()
    assert parse_i23("p af 3\n").arguments == ("1", "2", "3")


@pytest.mark.parametrize(
    "text, line",
    [
        ("", 1),
        ("1 2\n", 1),
        ("p af x\n", 1),
        ("p af 2\n1 2\n2\n", 3),
        ("p af 2\n1 3\n", 2),
        ("p af 2\n0 1\n", 2),
        ("p af 2\n1 -2\n", 2),
        ("p af 2\np af 2\n", 2),
    ],
)
def test_it_reports_the_line_of_an_i23_problem(text, line):
    with pytest.raises(ParseError) as error:
        parse_i23(text, source="f.i23")

    assert error.value.line_number == line
    assert str(error.value).startswith(f"f.i23:{line}: ")
