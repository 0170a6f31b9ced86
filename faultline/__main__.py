# `python -m faultline …` (the Makefile, README, Dockerfile, docker-compose, tests): the launcher.
from ops.launcher import main

main()
