"""Everything about the build is in pyproject.toml except this one step: a plain `pip install .` copies the app's own
files (APP_FILES) into the wheel as attention_lab/app/, where attention_lab/paths.py finds them, so an installed
copy serves the app without a checkout. An editable install (`pip install -e .`) serves the checkout's files."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

APP_FILES = (
    "app.py",
    "serve.py",
    "pages/*.py",
    ".streamlit/config.toml",
    "static/chart.js",
    "static/chart_theme.json",
    "locales/*/LC_MESSAGES/*.po",
    "lessons/*.json",
    "bench/results/*.json",
    "deploy/haproxy.cfg",
)


class BuildWithAppFiles(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for pattern in APP_FILES:
            for source in sorted(Path().glob(pattern)):
                target = Path(self.build_lib, "attention_lab", "app", source)
                self.mkpath(str(target.parent))
                self.copy_file(str(source), str(target))


setup(cmdclass={"build_py": BuildWithAppFiles})
