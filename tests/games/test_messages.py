"""Every sentence the engine and the games send a player is a ``Text`` (issue 15: words for players
in their language; no numbered rule says it yet): game names, option help, refused combinations, option refusals and a sample of
each game's refusals of commands. A plain string slipping back in reaches the edge with no message
id and cannot be translated, so these tests fail on it.

Pure engine: no database. ``test_no_plain_sentence_in_a_refusal`` reads the source, so a refusal
no sample reaches is held too."""

from __future__ import annotations

import ast
import pathlib
from importlib import import_module
from typing import Any

import pytest

import games.rules
from games.engine import registry
from games.engine.decider import Context, Decider
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.words import Text

GAMES: list[Decider] = [import_module(f"games.rules.{package}").DECIDER for package in games.rules.GAMES]
IDS = [game.slug for game in GAMES]
ENGINE = pathlib.Path(games.rules.__file__).parent.parent
# Euchre's fewest, 3, is for cutthroat only (EU-19).
SEATS = {game.slug: 4 if game.slug == "euchre" else game.min_players for game in GAMES}
REFUSALS = ("IllegalAction", "InvalidOptions", "BettingRefused")


def _is_text(value: Any) -> bool:
    return isinstance(value, Text) and bool(value.msgid)


def _refusal_of_options(game: Decider, seats: int, options: dict[str, Any]) -> Any:
    with pytest.raises(InvalidOptions) as refused:
        game.configure(seats, options)
    return str(refused.value)


def _refusal_of_command(game: Decider, state: Any, command: dict[str, Any], ctx: Context) -> Any:
    with pytest.raises(IllegalAction) as refused:
        game.decide(state, command, ctx)
    return refused.value.message


def _started(game: Decider) -> tuple[Any, Context]:
    config = game.configure(SEATS[game.slug], {})
    state = game.initial_state(config)
    ctx = Context(table_id="t-messages", hand_no=1, server_seed=bytes(32), extra={"buy_ins": {}})
    for event in game.decide(state, {"type": "start"}, ctx):
        state = game.evolve(state, event)
    return state, ctx


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_words_the_games_listing_is_in_words_to_translate(game: Decider) -> None:
    """what ``GET /games/`` lists for people (name, each option's help, the refused
    combinations) is Text; option names and choices stay machine keys."""
    assert _is_text(game.name)
    for option in game.options:
        listed = option.to_json()
        assert _is_text(listed["help"]), option.name
        assert not isinstance(listed["name"], Text)
    for sentence in game.refused_combinations:
        assert _is_text(sentence), sentence


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_words_every_option_and_choice_has_a_label_for_players(game: Decider) -> None:
    """every option has a label and every choice of a ``choice`` option its words, in Text and
    not the machine name itself: the lobby shows these, never ``stick_the_dealer`` or ``no_limit``;
    the machine name and codes stay as they are."""
    for option in game.options:
        listed = option.to_json()
        assert _is_text(option.label) and option.label.strip(), option.name
        assert listed["label"] is option.label
        assert option.label not in (option.name, option.name.replace("_", " ")), option.name
        assert listed["name"] == option.name
        if option.type == "choice":
            assert set(option.choice_labels) == set(option.choices), option.name
            assert list(listed["choice_labels"]) == list(option.choices), option.name
            for code, words in option.choice_labels.items():
                assert _is_text(words) and words.strip(), (option.name, code)
                assert words not in (code, code.replace("_", " ")), (option.name, code)
        else:
            assert not option.choice_labels and "choice_labels" not in listed, option.name


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_words_option_refusals_are_words_to_translate(game: Decider) -> None:
    """an unknown option, an option out of range or of the wrong type, and a number of
    seats the game cannot seat are refused in Text (``str`` of the refusal keeps it)."""
    unknown = _refusal_of_options(game, game.min_players, {"no_such_option": 1})
    assert _is_text(unknown)
    assert unknown.values["unknown"] == ["no_such_option"]
    for option in game.options:
        wrong = {"int": "many", "bool": "yes", "choice": "no_such_choice", "str": 7}[option.type]
        assert _is_text(_refusal_of_options(game, game.min_players, {option.name: wrong})), option.name
    assert _is_text(_refusal_of_options(game, game.max_players + 1, {}))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_words_command_refusals_are_words_to_translate(game: Decider) -> None:
    """before the start, once started (an unknown action, the wrong seat) and a second
    start, the refusal a player reads is Text."""
    ctx = Context(table_id="t-messages")
    waiting = game.initial_state(game.configure(SEATS[game.slug], {}))
    assert _is_text(_refusal_of_command(game, waiting, {"type": "throw", "seat": 0}, ctx))

    state, ctx = _started(game)
    assert _is_text(_refusal_of_command(game, state, {"type": "start"}, ctx))
    assert _is_text(_refusal_of_command(game, state, {"type": "no_such_action", "seat": 0}, ctx))
    awaited = game.to_act(state)
    if awaited:
        # A seat not awaited, or one the table does not have when every seat is awaited (Guerra).
        other = next((seat for seat in range(game.min_players) if seat not in awaited), game.max_players)
        refusal = _refusal_of_command(game, state, {**game.legal_actions(state, awaited[0])[0], "seat": other}, ctx)
        assert _is_text(refusal)


def test_words_a_refusal_with_a_count_says_one_and_many() -> None:
    """a refusal that counts is an ``N`` message, with its count among its values."""
    game = registry.get("five-card-draw")
    with pytest.raises(InvalidOptions) as refused:
        game.configure(2, {"no_such_option": 1})
    assert str(refused.value).startswith("Unknown option: no_such_option.")
    assert refused.value.message.plural == "Unknown options: {unknown}. Known: {known}."
    with pytest.raises(InvalidOptions) as refused:
        game.configure(2, {"one": 1, "two": 2})
    assert str(refused.value).startswith("Unknown options: one, two.")


def _targets(statement: ast.stmt) -> list[ast.expr]:
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        return [statement.target]
    return list(statement.targets) if isinstance(statement, ast.Assign) else []


def _plain_sentences(path: pathlib.Path) -> list[str]:
    """Where ``path`` gives a refusal, an option's help, label or choice's words or a game's name as a string literal or an
    f-string rather than a ``T``/``N`` message."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            callee = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            given = list(node.args[:1]) if callee in REFUSALS else []
            given += [keyword.value for keyword in node.keywords if keyword.arg in ("help", "label")]
            given += [
                value
                for keyword in node.keywords
                if keyword.arg == "choice_labels" and isinstance(keyword.value, ast.Dict)
                for value in keyword.value.values
            ]
        elif isinstance(node, ast.ClassDef | ast.Module):
            # A Decider's ``name`` and ``refused_combinations`` (Five-Card Draw names the latter ``REFUSED``).
            given = []
            for statement in node.body:
                targets = {getattr(target, "id", "") for target in _targets(statement)}
                if targets & {"name", "refused_combinations", "REFUSED"}:
                    value = statement.value  # type: ignore[attr-defined]
                    given += list(value.elts) if isinstance(value, ast.Tuple) else [value]
        else:
            continue
        found += [
            f"{path.relative_to(ENGINE.parent)}:{value.lineno}"
            for value in given
            if isinstance(value, ast.JoinedStr) or (isinstance(value, ast.Constant) and isinstance(value.value, str))
        ]
    return found


def test_words_no_plain_sentence_in_a_refusal() -> None:
    """no refusal, option help, game name or refused combination in the engine or a game
    is written as a plain string (the samples above cannot reach every refusal)."""
    files = sorted((ENGINE / "engine").glob("*.py")) + sorted((ENGINE / "rules").rglob("*.py"))
    assert len(files) > 50
    assert [where for path in files for where in _plain_sentences(path)] == []
