"""Fuzz targets for everything the project reads from outside: YAML files, scenario
files, state and action JSON, the porter protocol in both directions.

Each target module exposes ``fuzz_one(data: bytes) -> None``, ``EXPECTED`` (the
documented error types it may raise; anything else is a bug) and ``seeds()`` (real
inputs to start from). ``test_fuzz.py`` drives them with hypothesis; ``run.py`` with
atheris (``python -m tests.fuzz.run TARGET``). See docs/reliability.md.
"""

TARGETS = ("yaml_loader", "scenario_file", "state_json", "action_json", "protocol_server",
           "conform_answers", "cli_values", "output_writer", "input_file")
