"""Pure metric functions over trajectories and plans."""

from .plan_similarity import plan_edit_distance, plan_jaccard, plan_lcs

__all__ = ["plan_edit_distance", "plan_jaccard", "plan_lcs"]
