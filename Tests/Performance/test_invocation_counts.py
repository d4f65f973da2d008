"""The gate's arithmetic (invocation_counts.compare) and the thresholds file of each toolchain."""
import glob
import json
import os

import invocation_counts

HERE = os.path.dirname(os.path.abspath(__file__))
THRESHOLDS = {"instructions per warm invocation": {"Define": 100000}, "allocations per warm invocation": {"Define": 50}}


def figures(instructions, allocations):
    return {"instructions per warm invocation": {"Define": instructions},
            "allocations per warm invocation": {"Define": allocations}}


def test_a_figure_up_to_two_percent_over_passes():
    lines, over = invocation_counts.compare(figures(102000, 51), THRESHOLDS)
    assert over == []
    assert lines[0].split() == ["instructions", "per", "warm", "invocation", "Define", "102000", "threshold", "100000"]


def test_a_figure_more_than_two_percent_over_fails_naming_figure_and_threshold():
    _, over = invocation_counts.compare(figures(102001, 52), THRESHOLDS)
    assert over == [
        "instructions per warm invocation, Define: 102001, +2.0 % over the threshold 100000 (tolerance 2 %)",
        "allocations per warm invocation, Define: 52, +4.0 % over the threshold 50 (tolerance 2 %)",
    ]


def test_a_figure_without_a_threshold_fails():
    _, over = invocation_counts.compare({"instructions per warm invocation": {"Create": 1}}, THRESHOLDS)
    assert over == ["instructions per warm invocation, Create: 1, and the thresholds file has no figure for it"]


def test_a_figure_well_under_says_the_threshold_can_be_lowered():
    lines, over = invocation_counts.compare(figures(80000, 50), THRESHOLDS)
    assert over == []
    assert lines[0].endswith("(well under: the threshold can be lowered)")


def test_every_thresholds_file_names_each_trigger_for_both_counts():
    files = glob.glob(os.path.join(HERE, "thresholds", "swift-*.json"))
    assert files
    for path in files:
        with open(path) as file:
            thresholds = json.load(file)
        for key in ("instructions per warm invocation", "allocations per warm invocation"):
            assert sorted(thresholds[key]) == sorted(invocation_counts.TRIGGERS), path
            assert all(isinstance(value, int) and value > 0 for value in thresholds[key].values()), path
