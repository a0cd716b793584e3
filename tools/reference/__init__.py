"""Reference runs: scripts that run a reference benchmark (eai-eval, bddl, alfworld, PARTNR's engine, GAICo),
most of them with a reference venv's Python where eai-gym is not installed, and record its outputs in
``tests/reference/data`` for the tests; and the eai-gym side of those comparisons (the inputs they are run on,
the commands that compare a recording with eai-gym)."""
