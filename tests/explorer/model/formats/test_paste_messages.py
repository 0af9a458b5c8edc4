"""Pasted configurations refused: every message whole, with its line and its place in the scene.

``test_paste.py`` checks that each kind of mistake names its line; here each
refusal is compared word for word, because the message is what the user reads
to fix the paste.  Messages about a value the scene model refuses (a radius out
of range, a container too small) are built from the scene model's own refusal
of the same value, with the line the paste adds: the paste only has to say where.
"""

from __future__ import annotations

import json
import math

import pytest

from explorer.model.formats import scene_io
from explorer.model.formats.paste import TITLE, parse_configuration
from explorer.model.state.scene import Scene, SceneBody, SceneError

#: The last words of the unlabelled form's end-of-text message.
UNLABELLED_ORDER = "(unlabelled: A centre, A velocity, A radius, B centre, B velocity, B radius, [horizon])"
UNKNOWN_LABEL_HINT = "(expected e.g. 'a.center', 'b velocity', 'a radius', 'b mass', 'b fixed', 'horizon', 'mode')"
LABELLED_PAIR = "a.center 0 0 0\na.radius 1\nb.center 5 0 0\nb.radius 1\n"
COMPACT_B = '"b": {"pos": [5, 0, 0], "r": 1}'


def refusal(text: str) -> tuple[str, int | None, tuple]:
    """The message, line and path of the paste's refusal of ``text``."""
    with pytest.raises(SceneError) as info:
        parse_configuration(text)
    return str(info.value), info.value.line, info.value.path


def model_reason(**changes) -> str:
    """The scene model's own reason for refusing the default pair with ``changes`` (bodies given whole)."""
    fields = dict(mode="pair", horizon=1.0, restitution=1.0,
                  bodies=(SceneBody("A", (0, 0, 0), (0, 0, 0), 1.0), SceneBody("B", (5, 0, 0), (0, 0, 0), 1.0)))  # fmt: skip
    fields.update(changes)
    with pytest.raises(SceneError) as info:
        Scene(**fields)
    return info.value.reason


# -- plain text, labelled -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message, line",
    [
        ("mode\n", "line 1: expected 'pair' or 'inside' after mode", 1),
        ("\n\nmode 3 4\n", "line 3: expected 'pair' or 'inside' for mode, got '3'", 3),
        ("# the mode\nmode sideways\n", "line 2: expected 'pair' or 'inside' for mode, got 'sideways'", 2),
        ("a.center 0 0 0\nmode inside 2 3\n", "line 2: expected nothing after mode inside, got '2'", 2),
        ("a.center 0 0 0\n\nb fixed 1 2\n", "line 3: expected nothing after B fixed, got '1'", 3),
        ("a.center 0 0 0\nhorizon 1 2\n", "line 2: expected 1 number for horizon, got 2", 2),
        ("a.center 0 0 0\nrestitution\n", "line 2: expected 1 number for restitution, got 0", 2),
        ("a.center 0 0 0\na radius 1 2 x\n", "line 2: expected 1 number for A radius, got 3", 2),
        ("a.center 0 0 0\n  ,;:  \n", "line 2: expected numbers or a label, got ',;:'", 2),
        ("a.center 0 0 0 # from the log # step 3\na.radius 1 # x\n", None, None),
        ("a.center 0 0 0\nwind from the north west at 3 0 0\n",
         f"line 2: unknown label 'wind from the north west at' {UNKNOWN_LABEL_HINT}", 2),
        ("a.center 0 0 0\na b c d e f g 1\n", f"line 2: unknown label 'a b c d e f g' {UNKNOWN_LABEL_HINT}", 2),
        ("a.center 0 0 0\nb.center 1 2 3\nb.center 1 2 3\n", "line 3: B centre given twice (first on line 2)", 3),
        ("horizon 1\nmode pair\nh 2\n", "line 3: horizon given twice (first on line 1)", 3),
        ("mode pair\nmode inside\n", "line 2: mode given twice (first on line 1)", 2),
        ("a.center 0 0 0\n1 2 3\n",
         "line 2: expected a label such as 'b.center:' before the numbers "
         "(the first line is labelled, so every line must be)", 2),
        ("1 2 3\n\nb.center 1 2 3\n",
         "line 3: expected only numbers, got the label 'b.center' (the first line has no label; label every line "
         "or none)", 3),
        ("1 2 3\nbody b centre of mass 1 2 3\n",
         "line 2: expected only numbers, got the label 'body b centre of mass' (the first line has no label; "
         "label every line or none)", 2),
    ],
)  # fmt: skip
def test_labelled_lines_refused_word_for_word(text, message, line):
    if message is None:  # the control: everything after the first '#' of each line is a comment
        scene_text = text + "b.center 5 0 0\nb.radius 1\n"
        assert parse_configuration(scene_text).bodies[0].center == (0.0, 0.0, 0.0)
        return
    assert refusal(text)[:2] == (message, line)


def test_a_label_of_six_words_is_read_and_one_of_seven_is_not():
    six = "body a sphere body sphere velocity 1 2 3\n"  # six words, four of them filler
    scene = parse_configuration(LABELLED_PAIR + six)
    assert scene.bodies[0].velocity == (1.0, 2.0, 3.0)
    seven = "the body a sphere body sphere velocity 1 2 3\n"
    assert refusal(LABELLED_PAIR + seven)[:2] == (
        f"line 5: unknown label 'the body a sphere body sphere velocity' {UNKNOWN_LABEL_HINT}",
        5,
    )


@pytest.mark.parametrize(
    "text, message, line",
    [
        ("a.radius 1\nb.center 5 0 0\nb.radius 1\n",
         "line 4: end of text, expected a line for A centre (e.g. 'a.center: 0 0 0')", 4),
        ("a.center 0 0 0\nb.center 5 0 0\nb.radius 1\n\n",
         "line 5: end of text, expected a line for A radius (e.g. 'a.radius: 1')", 5),
        ("a.center 0 0 0\na.radius 1\nb.radius 1\n",
         "line 4: end of text, expected a line for B centre (e.g. 'b.center: 0 0 0')", 4),
        ("a.center 0 0 0\na.radius 1\nb.center 5 0 0\n",
         "line 4: end of text, expected a line for B radius (e.g. 'b.radius: 1')", 4),
    ],
)  # fmt: skip
def test_a_missing_centre_or_radius_is_named_with_an_example(text, message, line):
    assert refusal(text)[:2] == (message, line)


@pytest.mark.parametrize("body, other", [("A", "B"), ("B", "A")])
@pytest.mark.parametrize("fixed_first", [True, False])
def test_mass_and_fixed_for_one_body_refused_at_the_later_line(body, other, fixed_first):
    lines = [f"{body} fixed", f"{body} mass 2"] if fixed_first else [f"{body} mass 2", f"{body} fixed"]
    text = LABELLED_PAIR + f"{other} mass 3\n" + "\n".join(lines) + "\n"
    assert refusal(text)[:2] == (f"line 7: give either a mass or 'fixed' for {body}, not both", 7)


@pytest.mark.parametrize("fixed, masses", [("a fixed", (math.inf, 2.0)), ("b fixed", (1.0, math.inf))])
def test_one_body_fixed_and_the_other_given_a_mass(fixed, masses):
    text = LABELLED_PAIR + fixed + "\n" + ("b mass 2\n" if fixed == "a fixed" else "")
    assert tuple(b.mass for b in parse_configuration(text).bodies) == masses


def test_values_the_scene_refuses_are_located_on_their_line():
    mass = refusal("a.center 0 0 0\na.radius 1\na mass 0\nb.center 5 0 0\nb.radius 1\n")
    bodies = (SceneBody("A", (0, 0, 0), (0, 0, 0), 1.0, 0.0), SceneBody("B", (5, 0, 0), (0, 0, 0), 1.0))
    assert mass == (f"line 3: A mass: {model_reason(bodies=bodies)}", 3, ("bodies", 0, "mass"))
    restitution = refusal(LABELLED_PAIR + "restitution 2\n\n")
    assert restitution == (f"line 5: restitution: {model_reason(restitution=2.0)}", 5, ("restitution",))
    horizon = refusal("horizon 0\n" + LABELLED_PAIR)
    assert horizon == (f"line 1: horizon: {model_reason(horizon=0.0)}", 1, ("horizon",))


def test_plain_text_descriptions_count_the_lines_read():
    labelled = parse_configuration("# engine dump\n" + LABELLED_PAIR + "horizon 2\n")
    assert labelled.title == TITLE
    assert labelled.description == (
        "Pasted into the explorer as plain text, 5 labelled lines, for example from another engine's log."
    )
    unlabelled = parse_configuration("0 0 0\n1 0 0\n1\n5 0 0\n0 0 0\n1\n")
    assert unlabelled.description == (
        "Pasted into the explorer as plain text, 6 unlabelled lines (A centre, A velocity, A radius, B centre, "
        "B velocity, B radius), for example from another engine's log."
    )


# -- plain text, unlabelled -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message, line",
    [
        ("0 0 0\n", f"line 2: end of text, expected a line of 3 numbers for A velocity {UNLABELLED_ORDER}", 2),
        ("0 0 0\n1 0 0\n\n", f"line 4: end of text, expected a line of 1 number for A radius {UNLABELLED_ORDER}", 4),
        ("0 0 0\n1 0 0\n1\n5 0 0\n0 0 0\n",
         f"line 6: end of text, expected a line of 1 number for B radius {UNLABELLED_ORDER}", 6),
        ("0 0 0\n1 0 0\n1 2\n", "line 3: expected 1 number for A radius, got 2", 3),
        ("0 0 0\n1 0 0\n1\n5 0 0\n0 0 0\n1\n1\n9\n",
         "line 8: expected at most 7 lines of numbers (A centre, A velocity, A radius, B centre, B velocity, "
         "B radius, horizon), this is the 8th", 8),
    ],
)  # fmt: skip
def test_unlabelled_lines_refused_word_for_word(text, message, line):
    assert refusal(text)[:2] == (message, line)


# -- numbers ------------------------------------------------------------------------------------


def test_a_c_style_suffix_and_the_longest_number_read():
    assert parse_configuration(LABELLED_PAIR + "a.radius 1.5f\n".replace("a.radius", "b.mass")).bodies[1].mass == 1.5
    longest = "1." + "0" * (scene_io.MAX_NUMBER_CHARS - 2)  # as long as a number may be: read
    assert len(longest) == scene_io.MAX_NUMBER_CHARS
    assert parse_configuration(LABELLED_PAIR + f"horizon {longest}\n").horizon == 1.0
    too_long = longest + "0"  # not a number: a word of the label
    assert refusal(LABELLED_PAIR + f"horizon {too_long}\n")[0] == (
        "line 5: unknown label 'horizon 1." + "0" * 26 + f"... {UNKNOWN_LABEL_HINT}"
    )


@pytest.mark.parametrize(
    "word, shown",
    [("m" * 38, "'" + "m" * 38 + "'"), ("m" * 39, "'" + "m" * 36 + "...")],  # 40 characters with quotes: whole
)
def test_long_words_are_cut_to_forty_characters(word, shown):
    assert refusal(f"mode {word}\n")[0] == f"line 1: expected 'pair' or 'inside' for mode, got {shown}"


# -- compact JSON ----------------------------------------------------------------------------


def compact(a: str = '"pos": [0, 0, 0], "r": 1', rest: str = COMPACT_B, extra: str = "") -> str:
    """A compact JSON paste, one key of the top object a line: ``a`` on line 1, ``rest`` on line 2."""
    return '{"a": {' + a + "},\n " + rest + extra + "}"


@pytest.mark.parametrize(
    "text, message, line",
    [
        (compact(extra=',\n "h": 1,\n "dt": 2'), 'line 4: key "dt" given twice (also as "h")', 4),
        ('{"b": {"pos": [5, 0, 0], "r": 1}}', 'line 1: expected an object "a" with the centre and radius of body A', 1),
        ('{"a": {"pos": [0, 0, 0], "r": 1}}', 'line 1: expected an object "b" with the centre and radius of body B', 1),
        (compact(extra=',\n "mode": true'), 'line 3: expected "mode" to be "pair" or "inside", got true', 3),
        (compact(extra=',\n "mode": "sideways"'), 'line 3: expected "mode" to be "pair" or "inside", got \'sideways\'',
         3),
        (compact(rest='"b": [5, 0, 0]'), 'line 2: expected "b" to be an object with the centre and radius of body B',
         2),
        (compact(rest='"b": {"pos": [5, 0, 0],\n "center": [5, 0, 0], "r": 1}'),
         'line 3: B centre given twice ("pos" and "center")', 3),
        (compact(rest='"b": {"pos": [5, 0, 0], "r": 1,\n "name": "X", "name ": "Y"}'),
         'line 3: B name given twice ("name" and "name ")', 3),
        (compact(rest='"b": {"pos": [5, 0, 0]}'), 'line 2: expected "radius" in body B', 2),
        (compact(rest='"b": {"r": 1}'), 'line 2: expected "center" in body B', 2),
        (compact(rest='"b": {"pos": [5, 0, 0], "r": 1,\n "vélocité": [1, 0, 0]}'),
         'line 2: unknown key "vélocité" in B (expected "center"/"pos", "velocity"/"vel", "radius"/"r", "mass", '
         '"fixed", "name")', 2),
        (compact(rest='"b": {"pos": [5, 0, 0], "r": 1,\n "vel": [1, 0]}'),
         "line 3: expected 3 numbers for B velocity, got 2", 3),
        (compact(rest='"b": {"pos": [5, 0, 0],\n "r": "big"}'), "line 3: expected a number for B radius, got 'big'", 3),
        (compact(rest='"b": {"pos": [5, 0, 0], "r": 1,\n "m": [2]}'), "line 3: expected a number for B mass, got [2]",
         3),
        (compact(a='"pos": {"x": 1, "y": 2}, "r": 1'),
         'line 1: expected 3 numbers for A centre as [x, y, z] or {"x", "y", "z"}, got {"x": 1, "y": 2}', 1),
        (compact(a='"pos": "0 0 0",\n "r": 1'), "line 1: expected 3 numbers for A centre, got '0 0 0'", 1),
        (compact(a='"pos": [0, 0, "x"], "r": 1'), "line 1: expected a number for A centre, got 'x'", 1),
        (compact(rest='"b": {"pos": [5, 0, 0], "r": 1,\n "fixed": 1}'),
         "line 3: expected true or false for B fixed, got 1", 3),
        (compact(rest='"b": {"pos": [5, 0, 0], "r": 1, "m": 2,\n "fixed": true}'),
         'line 3: give either "mass" or "fixed": true for B, not both', 3),
        (compact(rest='"b": {"pos": [5, 0, 0], "r": 1,\n "name": 7}'), "line 3: expected text for B name, got 7", 3),
    ],
)  # fmt: skip
def test_compact_json_refused_word_for_word(text, message, line):
    assert refusal(text)[:2] == (message, line)


def test_compact_json_values_the_scene_refuses_are_located_on_their_key():
    far = refusal('{"a": {"pos": [2e12, 0, 0],\n "r": 1},\n' + COMPACT_B + "}")
    bodies = (SceneBody("A", (2e12, 0, 0), (0, 0, 0), 1.0), SceneBody("B", (5, 0, 0), (0, 0, 0), 1.0))
    assert far == (f"line 1: A centre: {model_reason(bodies=bodies)}", 1, ("bodies", 0, "center"))
    # A's radius is found after A's key, not at B's "r" further down
    small = refusal('{"a": {"pos": [0, 0, 0],\n "r": -1},\n "b": {"pos": [5, 0, 0],\n "r": 1}}')
    bodies = (SceneBody("A", (0, 0, 0), (0, 0, 0), -1.0), SceneBody("B", (5, 0, 0), (0, 0, 0), 1.0))
    assert small == (f"line 2: A radius: {model_reason(bodies=bodies)}", 2, ("bodies", 0, "radius"))
    twins = refusal(compact(a='"pos": [0, 0, 0], "r": 1, "name": "X"', rest='"b": {"pos": [5, 0, 0], "r": 1,\n'
                                                                              ' "name": "X"}'))  # fmt: skip
    bodies = (SceneBody("X", (0, 0, 0), (0, 0, 0), 1.0), SceneBody("X", (5, 0, 0), (0, 0, 0), 1.0))
    assert twins == (f"line 3: B name: {model_reason(bodies=bodies)}", 3, ("bodies", 1, "name"))
    horizon = refusal(compact(extra=',\n\n "dt": 0'))
    assert horizon == (f"line 4: horizon: {model_reason(horizon=0.0)}", 4, ("horizon",))
    restitution = refusal(compact(extra=',\n "restitution": 1.5'))
    assert restitution == (f"line 3: restitution: {model_reason(restitution=1.5)}", 3, ("restitution",))


def test_compact_json_keys_any_case_with_body_or_sphere_before_them():
    scene = parse_configuration('{"Body_A": {"Position": [0, 0, 0], "R": 1}, "sphere-b": {"POS": [5, 0, 0], "r": 2}}')
    assert [(b.name, b.center, b.radius) for b in scene.bodies] == [("A", (0.0, 0.0, 0.0), 1.0),
                                                                    ("B", (5.0, 0.0, 0.0), 2.0)]  # fmt: skip
    assert (scene.horizon, scene.restitution, scene.mode) == (1.0, 1.0, "pair")
    assert scene.title == TITLE
    assert scene.description == (
        "Pasted into the explorer as compact JSON (bodies a and b), for example from another engine's debug output."
    )


def test_a_scene_file_is_told_by_its_format_or_its_bodies():
    data = scene_io.to_dict(parse_configuration(compact()))
    data["description"] = data["title"] = ""
    without_format = {k: v for k, v in data.items() if k != "format"}
    only_format = {"format": data["format"]}
    for text in (json.dumps(without_format), json.dumps(only_format)):
        with pytest.raises(SceneError) as expected:
            scene_io.parse(text)
        assert refusal(text)[0] == str(expected.value)  # scene_io's refusal, not the compact form's
    scene = parse_configuration(json.dumps(data))
    assert (scene.title, scene.description) == (TITLE, "A complete scene file pasted into the explorer.")


@pytest.mark.parametrize(
    "rest, message",
    [
        ('"b": {"pos": [5, 0, 0], "r": 1,\n "spin": 3}',
         'line 3: unknown key "spin" in B (expected "center"/"pos", "velocity"/"vel", "radius"/"r", "mass", "fixed", '
         '"name")'),
        ('"b": {"r": 1, "position": [5, 0, 0],\n "pos": [5, 0, 0]}', 'line 3: B centre given twice ("position" and "pos")'),
        ('"b": {"r": 1,\n "pos": {"x": 5}}',
         'line 3: expected 3 numbers for B centre as [x, y, z] or {"x", "y", "z"}, got {"x": 5}'),
        ('"b": {"r": 1,\n "pos": "5 0 0"}', "line 3: expected 3 numbers for B centre, got '5 0 0'"),
        ('"b": {"r": 1,\n "pos": [5, 0, null]}', "line 3: expected a number for B centre, got null"),
    ],
)  # fmt: skip
def test_compact_json_errors_are_found_under_bs_key_not_as(rest, message):
    # A's keys come first (line 1), some with the same names: the error is located after B's key
    text = '{"a": {"pos": [0, 0, 0], "r": 1},\n ' + rest + "}"
    assert refusal(text)[:2] == (message, int(message.split(":")[0].split()[1]))


def test_json_after_blank_space_is_json_and_the_size_limit_is_inclusive():
    assert parse_configuration("\n   " + compact()).bodies[1].center == (5.0, 0.0, 0.0)
    with pytest.raises(SceneError) as info:
        parse_configuration(b"0 0 0")  # type: ignore[arg-type]
    assert str(info.value) == "expected text, got bytes"
    from explorer.model.formats.paste import MAX_PASTE_CHARS

    text = LABELLED_PAIR + "#" * (MAX_PASTE_CHARS - len(LABELLED_PAIR))
    assert len(text) == MAX_PASTE_CHARS
    assert parse_configuration(text).bodies[1].center == (5.0, 0.0, 0.0)
    with pytest.raises(SceneError) as info:
        parse_configuration(text + "#")
    assert str(info.value) == (
        f"text too large ({MAX_PASTE_CHARS + 1:,} characters; at most {MAX_PASTE_CHARS:,}): open a file instead "
        "(File → Open)"
    )


def test_an_error_whose_key_is_not_found_in_the_text_names_the_line_where_the_object_opens():
    """A key written with escapes is not found as typed: the message points at the object, not a blank line."""
    escaped = '{"\\u0041": {"center": [0, 0, 0], "radius": "x"},\n "B": {"center": [5, 0, 0], "radius": 1}\n}'
    for blank_lines in (0, 2):
        message, line, _ = refusal("\n" * blank_lines + escaped)
        assert (message, line) == (f"line {blank_lines + 1}: expected a number for A radius, got 'x'", blank_lines + 1)
