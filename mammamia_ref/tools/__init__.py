"""Tools over the whole package: ``verify``, the benchmark, hypothesis strategies and the
pytest plugin for scenario files."""
