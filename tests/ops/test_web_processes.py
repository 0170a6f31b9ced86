"""`make run` serves the site from FAULTLINE_WEB_PROCESSES daphne processes that share one
listening socket held by the launcher (the end-to-end check, a web process killed while the other
answers, is in test_launcher_restarts.py)."""

import dataclasses
import socket

import pytest

from ops.launcher import LaunchConfig, LaunchError, children_for, run, web_listener
from tests.test_launcher import free_port


def test_the_web_processes_share_the_launchers_listening_socket(monkeypatch):
    monkeypatch.setenv("FAULTLINE_WEB_PROCESSES", "2")
    config = LaunchConfig.from_environment()
    with web_listener("127.0.0.1", free_port()) as listener:
        worker, *webs = children_for(config, listener)
        fd = listener.fileno()

    assert worker.name == "worker"
    assert [web.name for web in webs] == ["web-1", "web-2"]
    for web in webs:
        assert web.pass_fds == (fd,)
        assert web.command[web.command.index("--fd") + 1] == str(fd) and "-p" not in web.command


def test_the_number_of_web_processes_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("FAULTLINE_WEB_PROCESSES", raising=False)  # the default: one
    with web_listener("127.0.0.1", free_port()) as listener:
        _, *webs = children_for(LaunchConfig.from_environment(), listener)
    assert [web.name for web in webs] == ["web"]

    # Autoreload: watchfiles would not hand the socket on, so one daphne binds the port itself.
    monkeypatch.setenv("FAULTLINE_WEB_PROCESSES", "3")
    _, *webs = children_for(dataclasses.replace(LaunchConfig.from_environment(), reload=True))
    assert len(webs) == 1 and "watchfiles" in webs[0].command and "--fd" not in " ".join(webs[0].command)


def test_a_taken_port_or_no_web_process_is_a_clear_error_before_anything_starts(monkeypatch):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = dataclasses.replace(LaunchConfig.from_environment(), port=port)
        with pytest.raises(LaunchError, match=f"port {port} on 127.0.0.1 is already taken"):
            run(config)

    with pytest.raises(LaunchError, match="FAULTLINE_WEB_PROCESSES must be 1 or more"):
        run(dataclasses.replace(config, web_processes=0))
