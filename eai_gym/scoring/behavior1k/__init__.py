"""BEHAVIOR-1K's offline scorers: action sequencing (:mod:`.action_sequencing`), goal interpretation
(:mod:`.goal_interpretation`) and the registry's mode hooks (:mod:`.modes`)."""
