"""``eai-gym CMD ...`` builds only CMD's parser: every command line parses, helps and fails exactly as with the
whole parser."""

from __future__ import annotations

import contextlib
import io

import pytest

from eai_gym import cli

LINES = [
    ["score", "virtualhome", "plans.json", "--protocol", "eai-1.0.5", "-o", "out.json"],
    ["score", "virtualhome", "--gold", "--mode", "subgoal_decomposition", "--workers", "2"],
    ["score", "behavior", "a.json", "--seed", "3", "--jsonl", "r.jsonl", "--resume"],
    ["score", "virtualhome", "x.json", "--bogus"], ["score", "nosuch", "x.json"], ["score", "--help"], ["score"],
    ["prompts", "virtualhome", "--mode", "action_sequencing", "--limit", "2"], ["prompts", "virtualhome"],
    ["list"], ["list", "virtualhome", "--json"], ["list", "nosuch"], ["show", "virtualhome"],
    ["show", "alfworld", "3", "--json"], ["play", "rearrange", "--seed", "1"], ["report", "a.json"],
    ["evaluate", "--help"], ["serve", "alfworld", "--port", "1"], ["serve", "nosuch"], ["list", "--help"],
]


def _outcome(parser, argv: list[str]) -> tuple:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            ns = vars(parser.parse_args(argv))
            ns.pop("explore")
            return "parsed", ns
        except SystemExit as e:
            return "exit", e.code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", LINES, ids=[" ".join(a) for a in LINES])
def test_one_command_parser_equals_the_whole_parser(argv: list[str]) -> None:
    assert cli._command(argv) == argv[0]
    assert _outcome(cli.build_parser(argv[0]), argv) == _outcome(cli.build_parser(), argv)


def test_errors_found_after_parsing_show_the_whole_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.build_parser("score").error("give a PLANS file or --gold (not both)")
    one = capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.build_parser().error("give a PLANS file or --gold (not both)")
    assert one == capsys.readouterr().err and "{score,evaluate,prompts" in one


def test_lines_without_a_known_first_command_use_the_whole_parser() -> None:
    assert cli._command([]) is None and cli._command(["--help"]) is None and cli._command(["bogus"]) is None
