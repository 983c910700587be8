"""Every status a pytest run reports, for the report parsers' tests (tests/test_repo_results.py; not named test_*.py, so the suite does not collect it)."""
import pytest


def test_pass():
    assert True


def test_fail():
    assert 1 == 2


@pytest.mark.skip(reason="not here")
def test_skip():
    pass


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert 0 == 1


@pytest.mark.xfail(reason="fixed since")
def test_xpass():
    assert True


@pytest.mark.xfail(strict=True, reason="strict")
def test_xpass_strict():
    assert True


@pytest.fixture
def broken():
    raise RuntimeError("fixture fails")


def test_error(broken):
    pass


@pytest.mark.parametrize("text", ["a b", "x [y] z", "p::q", "m - n", "ünï"])
def test_params(text):
    assert text != "m - n"


class TestGroup:
    def test_method(self):
        pass

    @pytest.mark.parametrize("n", [1, 2])
    def test_method_params(self, n):
        assert n == 1
