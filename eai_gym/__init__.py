"""eai-gym: the symbolic transition models behind embodied-planning benchmarks as standard environments."""

__version__ = "0.1.0"
