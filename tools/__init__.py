"""eai-gym's offline tools (not shipped in the wheel): run as ``python -m tools.<group>.<name>`` from the
repository root.

- :mod:`tools.convert`: build the packaged data (``eai_gym/data``) from the published distributions, and export
  it in a reference's format;
- :mod:`tools.reference`: run the references (often in a reference venv) and record their outputs
  (``tests/reference/data``) for the tests, or check eai-gym against them;
- :mod:`tools.tables`: the tables and listings in the docs;
- :mod:`tools.checks`: record and compare what eai-gym writes, to show that a change alters no output;
- :mod:`tools.common`: what several tools share (folders, gzip-JSON, the one helper that puts code from outside
  the checkout on the path).

See ``tools/README.md``.
"""
