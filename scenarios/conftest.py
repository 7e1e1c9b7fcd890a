"""Every scenario file under this folder is collected by pytest, one item per run."""

from mammamia_ref.tools.pytest_scenarios import collect_file


def pytest_collect_file(parent, file_path):
    return collect_file(parent, file_path)
