"""The Docker image and compose file, checked without a Docker engine: by reading them, and by
computing what `COPY . .` takes given .dockerignore."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from dockerfile_parse import DockerfileParser

from tests.support.build_context import build_context, copy_build_context, copy_checkout

pytestmark = pytest.mark.slow  # builds the image's static files and reads the build context

ROOT = Path(__file__).resolve().parents[2]
COMPILERS = ("build-essential", "gcc", "g++", "cmake", "make ")


def stages() -> list[list[dict]]:
    """The Dockerfile's instructions, one list per build stage (comments left out)."""
    found: list[list[dict]] = []
    for instruction in DockerfileParser(path=str(ROOT / "Dockerfile")).structure:
        if instruction["instruction"] == "FROM":
            found.append([])
        if instruction["instruction"] != "COMMENT":
            found[-1].append(instruction)
    return found


def values(stage: list[dict], name: str) -> list[str]:
    return [instruction["value"] for instruction in stage if instruction["instruction"] == name]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_build_context_leaves_out_secrets_local_state_and_caches(tmp_path):
    checkout = copy_checkout(ROOT, tmp_path / "checkout")
    planted = [
        ".env",
        ".env.production",
        "faultline/.env",
        "personas/.env.local",
        ".faultline/secret_key",
        ".faultline/pgdata/base/1/1259",
        ".faultline/test/redis/dump.rdb",
        ".git/config",
        ".venv/bin/python",
        "node_modules/htmx.org/package.json",
        "faultline/__pycache__/settings.cpython-311.pyc",
        "staticfiles/staticfiles.json",
        "artifacts/trace.jsonl",
        ".pytest_cache/v/cache/nodeids",
        ".ruff_cache/CACHEDIR.TAG",
        "debates/tests.log",
    ]
    for name in planted:
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        (checkout / name).write_text("ANTHROPIC_API_KEY=sk-ant-secret\n")

    context = build_context(checkout)

    assert not set(planted) & set(context), sorted(set(planted) & set(context))
    assert not [name for name in context if name.startswith("tests/") or name.startswith("benchmarks/")]


def test_the_build_context_keeps_everything_the_site_runs_on(tmp_path):
    context = set(build_context(copy_checkout(ROOT, tmp_path / "checkout")))

    for needed in (
        "manage.py",
        "faultline/settings.py",
        "faultline/asgi.py",
        "templates/base.html",
        "static/css/faultline.css",
        "requirements/runtime.txt",
        "personas/seed/decks.json",
    ):
        assert needed in context
    app_packages = [path.name for path in ROOT.iterdir() if (path / "apps.py").exists()]
    for package in app_packages:
        assert f"{package}/__init__.py" in context


def test_this_checkout_would_send_no_secret_or_state_to_docker():
    # The working tree as it is (with its .faultline/ state, caches and maybe a .env).
    context = build_context(ROOT)

    assert not [
        name
        for name in context
        if Path(name).name.startswith(".env")
        or name.startswith(".faultline/")
        or "__pycache__" in name
        or name.startswith((".git/", ".venv/"))
    ]


def test_the_compiler_is_only_in_the_build_stage():
    build, runtime = stages()

    assert any("build-essential" in run and "cmake" in run for run in values(build, "RUN"))
    assert values(runtime, "FROM") == [values(build, "FROM")[0].split(" AS ")[0].strip() + " AS runtime"]
    for run in values(runtime, "RUN"):
        assert not any(compiler in run for compiler in COMPILERS), run
    assert values(runtime, "COPY")[0] == "--from=build /opt/venv /opt/venv"


def test_llama_cpp_is_built_portably_like_the_makefile():
    build, _ = stages()
    makefile_flags = re.search(r"CMAKE_ARGS := (.+)", (ROOT / "Makefile").read_text()).group(1).strip()

    image_flags = re.search(r'CMAKE_ARGS="([^"]+)"', " ".join(values(build, "ENV"))).group(1)

    assert "-DGGML_NATIVE=OFF" in image_flags
    assert image_flags == makefile_flags


def test_the_image_installs_only_the_hashed_runtime_lock():
    build, runtime = stages()
    installs = [run for run in values(build, "RUN") + values(runtime, "RUN") if "pip install" in run]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    test_tools = {
        re.split(r"[\[=<>]", requirement)[0].lower() for requirement in project["optional-dependencies"]["test"]
    }
    runtime_lock = (ROOT / "requirements/runtime.txt").read_text().lower()

    assert installs == ["/opt/venv/bin/pip install --require-hashes -r /tmp/runtime.txt"]
    assert values(build, "COPY") == ["requirements/runtime.txt /tmp/runtime.txt"]
    # A test tool may be in the runtime lock only because a runtime dependency needs it.
    wanted_by = {
        block.split("==")[0]: block.partition("# via")[2] for block in re.split(r"\n(?=[a-z0-9])", runtime_lock)
    }
    declared_for_tests = [tool for tool in test_tools if "pyproject.toml" in wanted_by.get(tool, "")]
    assert test_tools and not declared_for_tests, declared_for_tests


def test_the_image_runs_as_an_unprivileged_user_with_a_health_check():
    _, runtime = stages()
    users = values(runtime, "USER")
    healthcheck = values(runtime, "HEALTHCHECK")

    assert users and users[-1] not in ("root", "0")
    assert [i["instruction"] for i in runtime].index("USER") > [i["instruction"] for i in runtime].index("COPY")
    assert len(healthcheck) == 1 and '"faultline", "probe"' in healthcheck[0]
    assert "--interval=" in healthcheck[0] and "--timeout=" in healthcheck[0]


def test_the_image_collects_static_files_that_production_serves_from_a_manifest(tmp_path):
    _, runtime = stages()
    (collect,) = [run for run in values(runtime, "RUN") if "collectstatic" in run]
    image = copy_build_context(ROOT, tmp_path / "app")
    build_env = dict(re.findall(r"(\w+)=(\S+)", collect.split("python manage.py")[0]))
    env = {**os.environ, **build_env, "FAULTLINE_ENV": "production", "FAULTLINE_STATE_DIR": str(tmp_path / "state")}

    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=image,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert collected.returncode == 0, collected.stdout + collected.stderr
    url = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.templatetags.static import static; "
            "print(static('django_htmx/htmx-2.min.js'), static('css/faultline.css'))",
        ],
        cwd=image,
        env={**env, "DJANGO_SETTINGS_MODULE": "faultline.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert url.returncode == 0, url.stderr
    htmx, css = url.stdout.split()
    assert re.fullmatch(r"/static/django_htmx/htmx-2\.min\.[0-9a-f]{12}\.js", htmx)  # hashed: cacheable for good
    assert re.fullmatch(r"/static/css/faultline\.[0-9a-f]{12}\.css", css)
    assert (image / "staticfiles" / "staticfiles.json").exists()
    assert list((image / "staticfiles" / "css").glob("faultline.*.css.gz"))  # compressed copies too


def test_development_serves_static_files_from_the_finders():
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.WHITENOISE_USE_FINDERS, settings.STORAGES['staticfiles']['BACKEND'])",
        ],
        cwd=ROOT,
        env={**os.environ, "FAULTLINE_ENV": "development", "DJANGO_SETTINGS_MODULE": "faultline.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert shown.stdout.split() == ["True", "django.contrib.staticfiles.storage.StaticFilesStorage"], shown.stderr


def test_compose_runs_one_image_for_migrate_web_and_worker():
    services = compose()["services"]
    app = {name: services[name] for name in ("migrate", "web", "worker")}

    assert len({service["image"] for service in app.values()}) == 1
    assert all(service["build"] == "." for service in app.values())
    assert app["worker"]["command"].startswith("python -m faultline worker") and "daphne" in app["web"]["command"]
    assert "migrate" in app["migrate"]["command"]
    assert app["web"]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}


def test_compose_runs_in_production_mode_with_a_required_secret_key():
    services = compose()["services"]

    for name in ("migrate", "web", "worker"):
        environment = services[name]["environment"]
        assert environment["FAULTLINE_ENV"] == "production"
        assert str(environment["DEBUG"]).lower() == "false"
        assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", environment["SECRET_KEY"]), environment["SECRET_KEY"]
        assert services[name]["env_file"] == [{"path": ".env", "required": False}]
    # No placeholder key anywhere that could pass the production check.
    settings_lines = [
        line for line in (ROOT / "docker-compose.yml").read_text().splitlines() if not line.lstrip().startswith("#")
    ]
    assert not [
        line for line in settings_lines if re.match(r"\s*-?\s*SECRET_KEY\s*[:=]\s*(?!\s|\$\{SECRET_KEY:\?)", line)
    ]


@pytest.mark.parametrize("service", ["db", "redis", "migrate", "web", "worker"])
def test_every_compose_service_has_a_health_check(service):
    healthcheck = compose()["services"][service]["healthcheck"]

    assert healthcheck["test"] and healthcheck["test"][0] in ("CMD", "CMD-SHELL")
    assert "interval" in healthcheck and "retries" in healthcheck
