"""eai-eval 1.0.5's pieces (extract_action_details, calculate_logic_score, SciPy's maximum_bipartite_matching) on
given inputs, to check eai-gym's ports.

Run with the reference venv's python (``python -m tools.reference.transition_modeling_pieces`` does)::

    <venv>/bin/python -m tools.reference.transition_modeling_ref_pieces IN.json OUT.json

IN.json: ``{"replies": [text], "pairs": [[pred, gold]], "matrices": [[[0/1]]]}``; OUT.json: the results.
"""

from __future__ import annotations

import argparse
import json


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs")
    ap.add_argument("out")
    args = ap.parse_args(argv)
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching
    from virtualhome_eval.simulation.evolving_graph.eval_utils import extract_action_details
    from virtualhome_eval.simulation.evolving_graph.logic_score import calculate_logic_score

    inp = json.load(open(args.inputs))
    out: dict[str, list] = {"replies": [], "pairs": [], "matrices": []}
    for r in inp["replies"]:
        try:
            out["replies"].append(extract_action_details(content=r))
        except Exception as e:
            out["replies"].append({"error": type(e).__name__})
    for p, g in inp["pairs"]:
        s, m, u1, u2 = calculate_logic_score(p, g)
        out["pairs"].append([float(s), sorted(m), sorted(u1), sorted(u2)])
    for a in inp["matrices"]:
        a = np.array(a, dtype=int).reshape(len(a), -1) if a else np.zeros((0, 0), dtype=int)
        out["matrices"].append([int(v) for v in maximum_bipartite_matching(csr_matrix(a), perm_type="column")])
    json.dump(out, open(args.out, "w"))


if __name__ == "__main__":
    main()
