"""Host-side unit tests of the container-side harness (sandbox/harness/*.py): the plain-data wire
format and the judge's namespace rules. No Docker: the same files run here as in the image."""
from __future__ import annotations

import collections
import enum
import math
import os
import sys

import pytest

from sandbox.build import HARNESS

sys.path.insert(0, str(HARNESS))
import judge
import serve
import wire

PLAIN = [None, True, False, 0, -7, 10**5000, 1.5, -0.0, float("inf"), 2 + 3j, "", "héllo\ud800", b"\x00\xff",
         [1, [2, (3,)]], (), {"a": {1: frozenset({2})}}, {1, 2}, frozenset(), {(1, 2): [None]}]


@pytest.mark.parametrize("value", PLAIN, ids=lambda v: type(v).__name__)
def test_plain_data_round_trips_with_exact_types(value):
    back = wire.decode(wire.encode(value))
    assert back == value and type(back) is type(value)


def test_nan_round_trips():
    assert math.isnan(wire.decode(wire.encode(float("nan"))))


def test_subclasses_cross_as_their_builtin_content_without_running_their_methods():
    class Cheat(int):
        def __eq__(self, other):
            return True
        __hash__ = int.__hash__

    class Color(enum.IntEnum):
        RED = 1

    P = collections.namedtuple("P", "a b")
    back = wire.decode(wire.encode([Cheat(0), Color.RED, P(1, 2), collections.Counter("aa")]))
    assert back == [0, 1, (1, 2), {"a": 2}] and [type(x) for x in back] == [int, int, tuple, collections.Counter]
    assert back[0] != 5  # the always-equal int is a plain 0 on the judge's side


@pytest.mark.parametrize("value", [object(), len, [1, object()], iter([1]), bytearray(b"x")], ids=lambda v: type(v).__name__)
def test_anything_else_is_refused(value):
    with pytest.raises(TypeError, match="cannot cross the judge boundary"):
        wire.encode(value)


def test_depth_and_count_are_bounded():
    deep: list = []
    for _ in range(wire.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(TypeError):
        wire.encode(deep)
    with pytest.raises(wire.WireError):
        wire.decode(["l", [["N"]] * (wire.MAX_VALUES + 1)])


@pytest.mark.parametrize("bad", [None, [], ["?"], ["i", 5], ["i", "zz"], ["l", "x"], ["d", [[["l", []], ["N"]]]],
                                 ["b"], ["s", ["x"]], {"x": 1}])
def test_malformed_values_from_the_program_are_wire_errors(bad):
    with pytest.raises(wire.WireError):
        wire.decode(bad)


def test_a_wire_error_is_not_an_exception_tests_can_catch():
    """A test's `except Exception:` must not take the program's crash for an expected exception."""
    assert not issubclass(wire.WireError, Exception)


def test_frames_round_trip_and_eof_is_a_wire_error():
    r, w = os.pipe()
    wire.send(w, {"ok": wire.encode([1, "x"])})
    assert wire.decode(wire.recv(r)["ok"]) == [1, "x"]
    os.write(w, b"\xff\xff\xff\xff")
    with pytest.raises(wire.WireError, match="size"):
        wire.recv(r)
    os.close(w)
    with pytest.raises(wire.WireError):
        wire.recv(r)
    os.close(r)


def test_builtin_names_come_from_the_program_only_for_the_function_under_test():
    tests = b"def check(candidate):\n    assert abs(candidate(1)) == sorted([1])[0]\ncheck(sum)\nassert helper(2)\n"
    entry, read = judge.loaded_names(tests)
    assert entry == {"sum"}  # handed to check(): a helper the tests call is never the program's
    assert {"sum", "helper", "candidate"} <= read and not {"abs", "sorted"} & read


def test_without_check_the_called_names_are_the_entry():
    entry, read = judge.loaded_names(b"assert f(1) == 2\nassert all(map(g, [1]))\nx = CONST\n")
    assert entry == {"f", "g"} and "CONST" in read and "CONST" not in entry


def test_exceptions_cross_by_builtin_type_only():
    class Mine(KeyError):
        pass

    assert serve.builtin_name(Mine("x")) == "KeyError"
    assert type(judge.exception("ValueError", "m")) is ValueError
    for name in ("SystemExit", "KeyboardInterrupt", "NotAThing", 5, "print"):
        assert type(judge.exception(name, "m")) is Exception


def test_mutated_arguments_are_updated_in_place():
    a, d, s = [3, 1], {"k": 1}, {1}
    for old, new in ((a, [1, 3]), (d, {"k": 2}), (s, {1, 2})):
        judge.update_in_place(old, new)
    assert (a, d, s) == ([1, 3], {"k": 2}, {1, 2})
    t = (1, 2)
    judge.update_in_place(t, [5])  # immutable or a different type: left alone
    assert t == (1, 2)


def test_the_program_side_answers_calls_with_plain_data():
    g = {"add": lambda a, b: a + b, "sort_in_place": lambda x: x.sort(), "boom": lambda: 1 / 0, "obj": lambda: object()}

    def call(name, *args):
        return serve.answer(g, {"call": name, "args": wire.encode(list(args)), "kwargs": wire.encode({})})

    assert wire.decode(call("add", 1, 2)["ok"]) == 3
    assert wire.decode(call("sort_in_place", [2, 1])["args"]) == [[1, 2]]
    assert call("boom") == {"exc": "ZeroDivisionError", "msg": "division by zero", "cls": ["builtins", "ZeroDivisionError"]}
    assert "cannot cross the judge boundary" in call("obj")["bad"]
    assert call("missing")["exc"] == "NameError"




def test_the_reset_gives_a_kept_root_back_its_fresh_inode_flags(monkeypatch):
    """leftovers.restore_flags on a real tmpfs directory (the host's /dev/shm, as the sandbox's /work): the
    flags a program may set as owner (FS_NODUMP_FL | FS_NOATIME_FL) go back to the value noted at the start;
    near miss, a value the reset cannot set (FS_SYNC_FL: tmpfs refuses it, EOPNOTSUPP) is reported, and a
    reported leftover makes the reset unclean: the box is replaced (docs/sandboxes.md "What a job leaves behind")."""
    import tempfile

    import leftovers
    d = tempfile.mkdtemp(dir="/dev/shm")
    try:
        monkeypatch.setattr(leftovers, "WIPE_DIRS", (d,))
        monkeypatch.setattr(leftovers, "FRESH_FLAGS", {})
        leftovers.note_fresh_flags()
        fresh = leftovers.FRESH_FLAGS[d]
        assert fresh is not None and leftovers.inode_flags(d, fresh | 0xc0) == fresh | 0xc0
        assert leftovers.clear_root_attrs(d) == [] and leftovers.inode_flags(d) == fresh
        leftovers.FRESH_FLAGS[d] = fresh | 0x8  # FS_SYNC_FL
        assert leftovers.restore_flags(d) == [f"{d}: inode flags {hex(fresh)}, fresh {hex(fresh | 0x8)}"]
    finally:
        leftovers.inode_flags(d, 0)
        os.rmdir(d)
