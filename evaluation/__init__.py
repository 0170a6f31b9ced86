"""Measuring Faultline against what is true: the truth corpus (corpus/) and, later, the harness that
plays it through the app."""
