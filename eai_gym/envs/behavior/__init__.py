"""The 100 EAI BEHAVIOR tasks without iGibson: the symbolic transition model and a Gymnasium env."""
