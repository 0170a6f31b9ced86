"""Every task through the command-line entry point (in process) against brute force."""

import io

from hypothesis import given
from hypothesis import strategies as st

from argumentation import Semantics
from argumentation.cli import PROBLEMS, main

from .brute_force import reference_extensions
from .iccma_answers import read_extension, read_extension_list
from .strategies import property_settings, small_frameworks


def as_apx(framework) -> str:
    lines = [f"arg({a})." for a in framework.arguments]
    lines += [f"att({a},{b})." for a, b in sorted(framework.attacks)]
    return "\n".join(lines) + "\n"


def as_i23(framework) -> tuple[str, dict[str, str]]:
    number = {a: str(i) for i, a in enumerate(framework.arguments, start=1)}
    lines = [f"p af {len(framework.arguments)}"]
    lines += [f"{number[a]} {number[b]}" for a, b in sorted(framework.attacks)]
    return "\n".join(lines) + "\n", number


@property_settings
@given(small_frameworks(max_arguments=7), st.sampled_from(PROBLEMS), st.sampled_from(["apx", "i23"]), st.data())
def test_every_task_answers_like_brute_force(tmp_path_factory, framework, task, file_format, data):
    if file_format == "apx":
        text, number = as_apx(framework), {a: a for a in framework.arguments}
    else:
        text, number = as_i23(framework)
    path = tmp_path_factory.mktemp("cli") / f"framework.{file_format}"
    path.write_text(text)
    problem, code = task.split("-")
    expected = {
        frozenset(number[a] for a in extension)
        for extension in reference_extensions(framework.arguments, framework.attacks, Semantics(code))
    }
    argv = ["-p", task, "-f", str(path), "-fo", file_format]
    query = None
    if problem in ("DC", "DS"):
        if not framework.arguments:
            return
        query = number[data.draw(st.sampled_from(framework.arguments))]
        argv += ["-a", query]
    out = io.StringIO()

    assert main(argv, out=out) == 0
    answer = out.getvalue().strip()
    if problem == "EE":
        found = read_extension_list(answer)
        assert len(found) == len(set(found))
        assert set(found) == expected
    elif problem == "SE":
        assert (answer == "NO") if not expected else (read_extension(answer) in expected)
    elif problem == "DC":
        assert answer == ("YES" if any(query in e for e in expected) else "NO")
    else:
        assert answer == ("YES" if all(query in e for e in expected) else "NO")
