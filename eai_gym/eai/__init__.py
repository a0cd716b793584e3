"""EAI (the Embodied Agent Interface, eai-eval 1.0.5) in eai-gym: what VirtualHome, BEHAVIOR and BEHAVIOR-1K share.

EAI evaluates an LLM in four modules; each is a scoring mode of the EAI worlds (``eai-gym score WORLD --mode M``,
``eai-gym prompts``, ``eai-gym evaluate``). What a module needs of one world stays in that world's folders
(``envs/<world>/`` for its transition model, tasks and prompts, ``scoring/<world>/`` for its scorers); what the
module itself defines is here, imported by those worlds (never the other way round: nothing here imports a world).

================================  ================================================================================
the module's ...                  here
================================  ================================================================================
registry options and layouts      :mod:`.options` (the protocols ``fixed`` / ``eai-1.0.5``, ``--seed``,
                                  ``--planner``, ``--planner-timeout``, the summaries' headline keys and units)
action sequencing                 :mod:`.action_output` (reading VirtualHome's ``{"ACTION": [name, id, ...]}``
                                  outputs), :mod:`.behavior_syntax` (BEHAVIOR's and BEHAVIOR-1K's
                                  ``{"action", "object"}`` items and ``ACTION(object)`` calls),
                                  :mod:`.action_summary` (the reference's summaries)
subgoal decomposition             :mod:`.subgoal_output` (reading the ``{"output": [...]}`` formulas),
                                  :mod:`.subgoal_summary` and :mod:`.behavior_subgoal_summary`
goal interpretation               :mod:`.goal_output` (reading node/edge/action goals), :mod:`.goal_summary`
                                  (precision, recall, F1), :mod:`.behavior_goals` (matching BEHAVIOR-family goals:
                                  BEHAVIOR's and BEHAVIOR-1K's scorers)
transition modeling               :mod:`.transition_modeling` (logic scores of the LLM's PDDL operators and the
                                  planner verdict, for any world whose mode names it), :mod:`.planner` (Fast
                                  Downward, as the reference runs it), :mod:`.builtin_planner` (a pure-Python one)
prompts                           :mod:`.behavior_prompt_data` (EAI's BEHAVIOR templates, which BEHAVIOR uses as
                                  shipped and BEHAVIOR-1K adapts); VirtualHome's prompts are VirtualHome's own
================================  ================================================================================

Every summary function here is pure: a scorer gives it the records and, where the reference counts something a
record lacks (a task's goal totals), a function of the task id. The reference protocol (``eai-1.0.5``) reproduces
eai-eval 1.0.5 exactly, its quirks included; ``fixed`` applies the documented intent (each world's page lists the
differences).
"""
