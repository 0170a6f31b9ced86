"""A management command run in the test's own process the way ``manage.py`` runs it from a shell:
the same argument parsing and the same error path (``BaseCommand.run_from_argv``: a CommandError
becomes one "CommandError: ..." line on stderr and a non-zero exit, anything else a traceback),
without the seconds a new process takes to start Django. Keep one real ``manage.py`` process per
command under test, so what the shell sees stays proven end to end.

    code, out, err = command_line(capsys, "interject", str(debate.id), "Hello")
"""

from __future__ import annotations

from django.core.management import get_commands, load_command_class


def command_line(capsys, name: str, *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``manage.py <name> <args>``; ``capsys`` is pytest's fixture."""
    capsys.readouterr()  # only what this command writes
    command = load_command_class(get_commands()[name], name)
    try:
        command.run_from_argv(["manage.py", name, *args])
        code = 0
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err
