"""eai-gym's benchmarks: ``python -m benchmarks`` runs the suite (:mod:`benchmarks.suite`); the
``bench_*.py`` scripts measure one world each in more detail and stay runnable on their own."""
