"""ALFWorld: the alfred-domain engine in both text dialects, PDDL game loader, oracle, generator and env."""
