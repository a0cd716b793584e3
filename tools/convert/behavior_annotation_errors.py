"""The BEHAVIOR gold plans that no initial state makes succeed: annotation errors, with the evidence.

Each entry names the task, says which step is wrong and which BDDL goal condition or precondition it
breaks, and gives a *correction*: ``[step, action, object]`` replaces a step, ``[step, None, None]``
drops it. ``tools/convert/behavior_calibration.py`` checks every entry when it writes ``calibration.json``: the
annotated plan fails whatever the unstated initial values (its search finds no set of values), and the
corrected plan executes and reaches the goal in the ``fixed`` protocol from the calibrated state. The
reasons quote eai-eval 1.0.5's two transition models: the evolving graph that scores a plan
(``behavior_eval/evolving_graph/evolving_graph.py``) and the iGibson action environment
(``behavior_eval/transition_model/action_env.py``).
"""

from __future__ import annotations

_NEXTTO_NOTE = ("Only PLACE_NEXTTO / PLACE_NEXTTO_ONTOP make two objects next to each other in the evolving "
                "graph, and a grasp removes the grasped object's relations.")

ANNOTATION_ERRORS: dict[str, dict] = {
    "cleaning_oven_0_Benevolence_1_int_0_2021-09-11_12-20-40": {
        "reason": "step 10 TOGGLE_OFF(sink_19) with scrub_brush_0 and rag_0 in the hands: toggling needs a free "
                  "hand in the evolving graph and in iGibson's action env; and a sink turned off there could not "
                  "soak rag_1 at step 16, which (forall (?rag.n.01 - rag.n.01) (soaked ?rag.n.01)) needs.",
        "correction": [[10, None, None]],
    },
    "cleaning_stove_0_Wainscott_0_int_0_2021-09-11_12-51-07": {
        "reason": "step 7 SOAK(dishtowel_0): the dishtowel was placed next to sink_82 (step 4), not in it, and "
                  "soaking needs the sink as a container (both models); step 13 LEFT_PLACE_NEXTTO(sink_82): the "
                  "left hand never holds anything. The goal needs neither step.",
        "correction": [[7, None, None], [13, None, None]],
    },
    "making_tea_0_Wainscott_0_int_0_2021-10-26_12-49-48": {
        "reason": "step 9 UNFREEZE(carving_knife_0): a knife has no Frozen state (its iGibson category "
                  "carving_knife is not freezable), an affordance error in both models; step 12 "
                  "CLOSE(fridge_97) with lemon_0 and carving_knife_0 in the hands: closing needs a free hand "
                  "(both models). The goal needs neither step.",
        "correction": [[9, None, None], [12, None, None]],
    },
    "preserving_food_0_Rs_int_0_2021-08-25_15-53-33": {
        "reason": "step 11 RIGHT_REALEASE(carving_knife_66): not an action (a typo of RIGHT_RELEASE), a "
                  "hallucination.",
        "correction": [[11, "RIGHT_RELEASE", "carving_knife_66"]],
    },
    "packing_child_s_bag_0_Beechwood_1_int_0_2021-10-26_10-33-11": {
        "reason": "(nextto ?backpack.n.01_1 ?bed.n.01_1): step 11 grasps backpack_100 and step 12 puts it on the "
                  "floor (RIGHT_PLACE_ONTOP(room_floor_bedroom_0)); no step puts it next to bed_43. " + _NEXTTO_NOTE,
        "correction": [[12, "RIGHT_PLACE_NEXTTO_ONTOP", "bed_43,room_floor_bedroom_0"]],
    },
    "serving_a_meal_0_Merom_1_int_0_2021-10-26_00-34-17": {
        "reason": "(forpairs (?salad.n.01 - salad.n.01) (?plate.n.04 - plate.n.04) (nextto ?salad.n.01 "
                  "?plate.n.04)): salad_0 and salad_1 are put on the table (steps 28, 31), never next to plate_0 "
                  "or plate_1 (the bread and cakes are, steps 37-42). " + _NEXTTO_NOTE,
        "correction": [[28, "RIGHT_PLACE_NEXTTO_ONTOP", "plate_0,breakfast_table_20"],
                       [31, "LEFT_PLACE_NEXTTO_ONTOP", "plate_1,breakfast_table_20"]],
    },
    "sorting_groceries_0_Wainscott_0_int_0_2021-10-26_13-36-01": {
        "reason": "(forall (?carrot.n.03 - carrot.n.03) (and (inside ?carrot.n.03 ?electric_refrigerator.n.01_1) "
                  "(or (nextto ?carrot.n.03 ?carrot.n.03_1) ...))): the carrots are each put inside fridge_97 "
                  "(steps 15, 16, 19), never next to one another, while the plan does put apple_1 next to "
                  "apple_0 (step 24) for the same kind of condition. " + _NEXTTO_NOTE,
        "correction": [[16, "RIGHT_PLACE_NEXTTO", "carrot_0"], [19, "LEFT_PLACE_NEXTTO", "carrot_0"]],
    },
    "storing_the_groceries_0_Beechwood_0_int_0_2021-10-26_13-13-47": {
        "reason": "(nextto ?cereal.n.03_1 ?cereal.n.03_2), and the same for the lettuces, broccoli, raspberries "
                  "and pork: both objects of each pair are put inside the cabinet or fridge (steps 3-4, 8-9, "
                  "12-13, 16-17, 20-21), never next to each other. " + _NEXTTO_NOTE,
        "correction": [[4, "LEFT_PLACE_NEXTTO", "cereal_0"], [9, "LEFT_PLACE_NEXTTO", "lettuce_1"],
                       [13, "LEFT_PLACE_NEXTTO", "pork_1"], [17, "LEFT_PLACE_NEXTTO", "broccoli_1"],
                       [21, "LEFT_PLACE_NEXTTO", "raspberry_0"]],
    },
    "thawing_frozen_food_0_Pomaria_1_int_0_2021-10-26_13-10-33": {
        "reason": "(nextto ?date.n.08_1 ?fish.n.02_1): container_date_0 is put next to sink_37 (step 15), "
                  "never next to fish_0. " + _NEXTTO_NOTE,
        "correction": [[15, "RIGHT_PLACE_NEXTTO", "fish_0"]],
    },
}

