"""The multi-agent rearrange world (PARTNR-style robot + human): houses, skills, episodes, oracle, envs."""
