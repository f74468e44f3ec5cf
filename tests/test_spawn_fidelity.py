"""``python -m agent.spawn_fidelity``: the shares of objects shut in containers, ours against
AI2-THOR's, from the right counts."""

from __future__ import annotations

from agent.spawn_fidelity import compare, contained


def test_a_row_counts_only_the_containers_the_searcher_opens():
    assert contained({"Cabinet": 2, "Fridge": 1, "CounterTop": 3, "SinkBasin": 4}) == (3, 10)


def test_the_comparison_reports_both_shares_and_the_largest_differences_first():
    result = compare(seeds=1, top=3)
    assert 0.0 < result["alfred_in_containers"] < 1.0 and 0.0 < result["random_start_in_containers"] < 1.0
    gaps = [abs(r["random_start"] - r["alfred"]) for r in result["largest_differences"]]
    assert len(gaps) == 3 and gaps == sorted(gaps, reverse=True)
    assert result["placements"]["alfred"] > 100_000  # every pickupable object of 5,399 start states
