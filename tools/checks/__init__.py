"""Output checks for a refactoring: record what ``eai-gym`` writes on every world, mode and recorded reference
input, then compare two recordings (0 files may differ); and a sweep of hostile plan files through every scorer."""
