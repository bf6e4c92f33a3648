"""report/svg.py: report.html's chart kit (round ticks, exact coordinates, escaped text)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from balancer.report import svg


def test_a_scale_maps_its_ends_and_everything_between_linearly() -> None:
    scale = svg.Scale(0.0, 0.5, 200.0, 10.0)  # a y axis: larger values higher up
    assert scale(0.0) == 200.0 and scale(0.5) == 10.0
    assert scale(0.25) == pytest.approx(105.0)
    assert svg.Scale(3.0, 3.0, 0.0, 100.0)(3.0) == 50.0  # one value: the middle


@pytest.mark.parametrize(
    ("lo", "hi", "bins", "integer", "expected"),
    [
        (0, 0.3, 6, False, [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]),
        (0, 1.08, 6, False, [0, 0.2, 0.4, 0.6, 0.8, 1.0]),
        (0, 0.27, 2, False, [0, 0.2]),
        (-0.5, 7.5, 12, True, [0, 1, 2, 3, 4, 5, 6, 7]),
        (6, 18, 14, True, list(range(6, 19))),
        (0, 1.2, 5, False, [0, 0.25, 0.5, 0.75, 1.0]),
        (0, 3.2, 5, True, [0, 1, 2, 3]),  # never 0.5 apart on an integer axis
    ],
)
def test_ticks_are_round_steps_inside_the_range(
    lo: float, hi: float, bins: int, integer: bool, expected: list[float]
) -> None:
    assert svg.ticks(lo, hi, bins, integer) == pytest.approx(expected)


def test_tick_values_are_exact_decimals() -> None:
    # Not 0.30000000000000004: a tick is written as the label says.
    assert svg.ticks(0, 0.3, 3) == [0, 0.1, 0.2, 0.3]
    assert svg.pct_labels([0, 0.1, 0.2, 0.3]) == ["0%", "10%", "20%", "30%"]
    assert svg.pct_labels([0, 0.025, 0.05]) == ["0.0%", "2.5%", "5.0%"]
    assert svg.pct_labels([-0.05, 0, 0.05], signed=True) == ["-5%", "0%", "+5%"]


def test_numbers_are_written_rounded_and_without_a_negative_zero() -> None:
    assert [svg.num(x) for x in (12.0, 12.04, 12.06, -0.01, 1 / 3)] == [
        "12",
        "12",
        "12.1",
        "0",
        "0.3",
    ]


def test_text_is_escaped_and_split_into_lines() -> None:
    chart = svg.Chart(40)
    chart.text(10, 20, "<script>x</script>\na$b$ & \u202eevil", anchor="middle")
    out = chart.render()
    assert "<script>" not in out and "\u202e" not in out
    root = ET.fromstring(out)
    text = root.find("text")
    assert text is not None and text.get("text-anchor") == "middle"
    assert text.text == "<script>x</script>"  # the parser reads back exactly the name
    (second,) = text.findall("tspan")
    assert second.text == "a$b$ & \\u202eevil" and second.get("x") == "10"


def test_middle_centres_a_block_of_lines_on_its_y() -> None:
    one, two = svg.Chart(40), svg.Chart(40)
    one.text(0, 20, "a", middle=True)
    two.text(0, 20, "a\nb", middle=True)
    y_one = float(ET.fromstring(one.render()).find("text").get("y"))  # type: ignore[union-attr]
    y_two = float(ET.fromstring(two.render()).find("text").get("y"))  # type: ignore[union-attr]
    assert y_one == pytest.approx(20 + 0.35 * svg.FONT, abs=0.06)
    assert y_two == pytest.approx(y_one - svg.LINE * svg.FONT / 2, abs=0.06)


def test_a_negative_extent_is_drawn_from_the_other_corner() -> None:
    chart = svg.Chart(40)
    chart.rect(100, 10, -30, 5, "#000")
    rect = ET.fromstring(chart.render()).findall("rect")[-1]
    assert (rect.get("x"), rect.get("width")) == ("70", "30")


def test_a_whisker_spans_its_ends_with_a_cap_at_each() -> None:
    chart = svg.Chart(100)
    chart.whisker(50, 80, 20, 10)
    lines = ET.fromstring(chart.render()).findall("line")
    (ci,) = [ln for ln in lines if ln.get("class") == "ci"]
    assert [ci.get(k) for k in ("x1", "y1", "x2", "y2")] == ["50", "80", "50", "20"]
    caps = [ln for ln in lines if ln.get("class") == "cap"]
    assert sorted((c.get("y1"), c.get("x1"), c.get("x2")) for c in caps) == [
        ("20", "45", "55"),
        ("80", "45", "55"),
    ]


def test_the_drawing_has_no_address_and_no_fixed_size_on_the_page() -> None:
    out = svg.Chart(123.45).render()
    assert out.startswith('<svg viewBox="0 0 720 123.5" width="720" height="123.5"')
    assert "http" not in out and "xmlns" not in out


def test_wide_characters_count_as_an_em() -> None:
    assert svg.text_width("abcde", 10) == pytest.approx(30)
    assert svg.text_width("キメラ", 10) == pytest.approx(30)
    assert svg.text_width("ab\nキメラ", 10) == pytest.approx(30)  # the widest line
