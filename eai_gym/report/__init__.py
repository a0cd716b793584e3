"""Self-contained HTML reports comparing scoring runs (``eai-gym report``)."""

from .html import build_report
from .runs import Run, RunFileError, load_run

__all__ = ["Run", "RunFileError", "build_report", "load_run"]
