"""Tables and listings for the docs: the EAI paper's figures beside eai-eval's and eai-gym's, goal
interpretation and transition modeling per model, the VirtualHome protocol differences, BEHAVIOR-1K's forced
goal literals."""
