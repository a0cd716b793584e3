"""The rearrange world's episode builder: the seeded generator of PARTNR-style episodes (:mod:`.generator`),
run by ``python -m tools.convert.rearrange_episodes``."""
