"""The sizes plugin limits are given in (--plugin-memory, $BALANCER_PLUGIN_LOG_LIMIT), and
the memory limit a bot's process gets under balancer's own hard limit."""

from __future__ import annotations

import resource

import pytest

from balancer.bots import host, plugin_limits


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("1000", 1000),
        ("500K", 500 << 10),
        ("10M", 10 << 20),
        ("10mb", 10 << 20),
        (" 1.5G ", 3 << 29),
        ("2T", 2 << 40),
    ],
)
def test_a_size_is_a_number_with_an_optional_unit(text: str, size: int) -> None:
    assert host.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "M", "0", "-1M", "lots", "3X", "nan", "inf", "1e999G"])
def test_what_is_no_size_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(ValueError, match="is not a size"):
        host.parse_size(text)


@pytest.mark.parametrize(("size", "text"), [(4 << 30, "4G"), (300 << 20, "300M"), (1500, "1500")])
def test_a_size_is_written_back_as_it_would_be_given(size: int, text: str) -> None:
    assert host.size_text(size) == text and host.parse_size(text) == size


def test_the_log_limit_names_its_variable_when_it_is_no_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(host.LOG_LIMIT_ENV, raising=False)
    assert host.log_limit() == host.LOG_LIMIT == 10 << 20
    monkeypatch.setenv(host.LOG_LIMIT_ENV, "2M")
    assert host.log_limit() == 2 << 20
    monkeypatch.setenv(host.LOG_LIMIT_ENV, "much")
    with pytest.raises(ValueError, match="^BALANCER_PLUGIN_LOG_LIMIT: 'much' is not a size"):
        host.log_limit()


@pytest.mark.parametrize(
    ("hard", "asked", "gets"),
    [
        (resource.RLIM_INFINITY, 4 << 30, 4 << 30),
        (1 << 30, 4 << 30, 1 << 30),  # a lower hard limit can't be raised: that is the limit
        (8 << 30, 4 << 30, 4 << 30),
    ],
)
def test_a_bot_gets_its_memory_limit_or_the_hard_limit_below_it(
    monkeypatch: pytest.MonkeyPatch, hard: int, asked: int, gets: int
) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda which: (hard, hard))
    assert plugin_limits.within_hard_limit(asked) == gets
