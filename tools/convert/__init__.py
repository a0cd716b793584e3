"""Data builders: convert the published distributions (read as data) into eai-gym's packaged data
(``eai_gym/data``), build what eai-gym derives from it (gold plans, calibration, episodes, the task index), and
export the packaged ALFWorld games in ALFWorld's own layout. Each writes its ``PROVENANCE.md`` or records how
it was run."""
