# The production image: `docker compose up --build` runs it (see docker-compose.yml).
# Two stages: the first compiles the dependencies (llama-cpp-python builds from source), the second
# gets only the virtualenv and the app, and runs as an unprivileged user without a compiler.

FROM python:3.11-slim-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends build-essential cmake \
    && rm -rf /var/lib/apt/lists/*
# A portable llama.cpp build, as in the Makefile: the native one crashes on CPUs with AMX.
ENV CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
# Runtime dependencies only, every file checked against the lock's hashes.
COPY requirements/runtime.txt /tmp/runtime.txt
RUN /opt/venv/bin/pip install --require-hashes -r /tmp/runtime.txt

FROM python:3.11-slim-bookworm AS runtime
# libgomp: the OpenMP runtime llama.cpp links against (the build stage had it through gcc).
# git: reads the local repositories attached to projects (under FAULTLINE_REPOSITORY_ROOTS).
RUN apt-get update && apt-get install -y --no-install-recommends libgomp1 git \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --create-home --home-dir /home/faultline faultline
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DJANGO_SETTINGS_MODULE=faultline.settings \
    FAULTLINE_ENV=production \
    FAULTLINE_STATE_DIR=/tmp/faultline
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
# The app's files stay owned by root: the user that runs them cannot change them.
COPY . .
# Static files under hashed names (manifest storage), collected at build time. Settings need a
# secret key and service URLs to load; nothing is connected to here, so placeholders do.
RUN SECRET_KEY=collectstatic-only-not-a-secret DATABASE_URL=postgres://build@localhost/build \
    REDIS_URL=redis://localhost:6379/0 python manage.py collectstatic --noinput
USER faultline
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "faultline", "probe", "--port", "8000"]
# No --proxy-headers: daphne's takes the left-most X-Forwarded-For, which the client writes. The
# site reads the client's address itself, trusting only FAULTLINE_TRUSTED_PROXIES (faultline/client_address.py).
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "faultline.asgi:application"]
