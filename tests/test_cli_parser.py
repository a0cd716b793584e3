"""``eai-gym CMD ...`` builds only CMD's parser: every command line parses, helps and fails exactly as with the
whole parser."""

from __future__ import annotations

import contextlib
import io

import pytest

from eai_gym import cli, registry

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


def test_errors_before_parsing_show_the_whole_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.build_parser("score").error("give a PLANS file or --gold (not both)")
    one = capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.build_parser().error("give a PLANS file or --gold (not both)")
    assert one == capsys.readouterr().err and "{score,evaluate,prompts" in one


@pytest.mark.parametrize("whole", [False, True], ids=["one command", "whole parser"])
def test_errors_found_after_parsing_show_the_command_usage(whole: bool, capsys: pytest.CaptureFixture[str]) -> None:
    parser = cli.build_parser(None if whole else "score")
    parser.parse_args(["score", "virtualhome", "--gold"])
    with pytest.raises(SystemExit) as e:
        parser.error("give a PLANS file or --gold (not both)")
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.startswith("usage: eai-gym score ") and "{score,evaluate" not in err
    assert err.rstrip().endswith("eai-gym score: error: give a PLANS file or --gold (not both)")


#: a command line of each command with an option no command takes
BOGUS = [[c, *args, "--no-such-option"] for c, args in (
    ("score", ["virtualhome", "--gold"]), ("evaluate", ["alfworld", "--mode", "episodes", "--model", "m", "--run-dir", "d"]),
    ("prompts", ["virtualhome", "--mode", "action_sequencing"]), ("list", []), ("show", ["alfworld", "1"]),
    ("play", ["alfworld"]), ("report", ["a.json"]), ("compat", ["status"]), ("fake-llm", []))]


def test_every_command_is_covered() -> None:
    assert {b[0] for b in BOGUS} == set(cli.COMMANDS) - {"serve"}  # serve passes its options on to the server


@pytest.mark.parametrize("argv", BOGUS, ids=[b[0] for b in BOGUS])
def test_an_unknown_option_shows_the_command_usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.startswith(f"usage: eai-gym {argv[0]} "), err
    assert f"eai-gym {argv[0]}: error: unrecognized arguments: --no-such-option" in err


@pytest.mark.parametrize("argv,message", [
    (["score", "virtualhome"], "give a PLANS file or --gold"),
    (["score", "virtualhome", "--gold", "--dialect", "0.3"], "--dialect does not apply"),
    (["score", "virtualhome", "--gold", "--resume"], "--resume needs --jsonl"),
])
def test_errors_the_command_finds_show_its_usage(argv: list[str], message: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.startswith("usage: eai-gym score ") and message in err


@pytest.mark.parametrize("world,mode", [(w.name, m.name) for w in registry.worlds() for m in w.modes if m.gold is None])
def test_gold_of_a_mode_without_gold_names_the_modes_with_gold(world: str, mode: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["score", world, "--gold", "--mode", mode])
    err = capsys.readouterr().err
    for m in registry.world(world).modes:
        assert (f"--mode {m.name}" in err.split("modes with gold:")[-1]) == (m.gold is not None), err


def test_lines_without_a_known_first_command_use_the_whole_parser() -> None:
    assert cli._command([]) is None and cli._command(["--help"]) is None and cli._command(["bogus"]) is None
