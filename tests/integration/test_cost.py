"""``engram cost --json``: raw retains, recalls and smart retains replayed on the cloud's store
against DynamoDB Local, their consumed capacity read, the other services added from one price
table; docs/deploy.md's cost table is its output."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from engram_dev.cost import report, table

DEPLOY_DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


@pytest.fixture(scope="module")
def result(dynamodb_local: Any) -> dict[str, Any]:
    return report(20, dynamodb_local.endpoint)


def test_the_cost_has_the_documented_shape_and_every_price(result: dict[str, Any]) -> None:
    assert set(result["usd_per_million"]) == {"recall", "retain_raw", "retain_smart"}
    assert all(v > 0 for v in result["usd_per_million"].values())
    assert result["idle_usd_per_month"] > 0
    assert {"units", "prices"} <= set(result) and result["prices"]["as_of"]
    # each line is a price of the table times what one call used
    retain = result["lines"]["retain_raw"]
    assert retain["api_gateway"] == result["prices"]["apigw_rest_per_million"]
    assert retain["dynamodb_writes"] == pytest.approx(
        result["units"]["retain_raw"]["wru"] * result["prices"]["dynamodb_per_million_wru"], abs=0.01
    )


def test_the_units_are_dynamodbs_own_count(result: dict[str, Any]) -> None:
    # A raw retain of a ~100-character text with a vector of the stack's 512 dimensions, nothing at
    # the transactional rate: the vector's own item (half precision, compressed: 0.9 KB, 1), the memory item (0.8 KB: no
    # vector, no field twice, its creation's history entry on it: 1), two index entries of filter
    # fields (2: a peripheral memory has none in the tier index, one whose id its text derives
    # none in the hash index), the request's usage counters (1: one write per invocation)
    retain = result["units"]["retain_raw"]
    assert retain["wru"] == 5 and "transact_write_items" not in retain["dynamodb_calls"]
    # a recall reads the candidates by id as its function does, eventually consistent: 0.5 RRU
    # each without their vectors, and the last minute's deletion log with each read (1 RRU); its
    # usage is one write, its access counts one write per memory per interval (20 recalls here)
    recall = result["units"]["recall"]
    assert recall["rru"] <= 20 and recall["dynamodb_calls"]["batch_get_item"] >= 1
    assert recall["wru"] < 3


def _without_smart(markdown: str) -> list[str]:
    """The table's rows without the smart-retain column (its dedup varies by ~1% a run)."""
    return [row.rsplit("|", 2)[0] for row in markdown.splitlines()]


def _amounts(row: str) -> list[float]:
    return [float(cell.strip(" *$")) for cell in row.split("|")[2:-2]]


def test_the_docs_cost_table_is_its_output(result: dict[str, Any]) -> None:
    text = DEPLOY_DOC.read_text()
    start = text.index("| per million | raw retain |")
    documented, printed = _without_smart(text[start:].split("\n\n")[0]), _without_smart(table(result))
    # every line but Lambda's is the same; Lambda's (and so the total) includes measured CPU
    # time, which varies from run to run: within 25 cents
    steady = [i for i, row in enumerate(printed) if not row.startswith(("| lambda", "| **total"))]
    assert [documented[i] for i in steady] == [printed[i] for i in steady]
    for i in set(range(len(printed))) - set(steady):
        assert _amounts(documented[i]) == pytest.approx(_amounts(printed[i]), abs=0.25)
    assert f"${result['idle_usd_per_month']:.2f}" in text
    # and the README's table and totals are the documented table's
    readme = (DEPLOY_DOC.parents[1] / "README.md").read_text()
    assert text[start:].split("\n\n")[0] in readme
    raw, recall = (float(cell.strip(" *$")) for cell in documented[-1].split("|")[2:4])
    assert f"**${raw:.2f} per million raw retains, ${recall:.2f} per million recalls**" in readme
    assert f"**${result['idle_usd_per_month']:.2f} a month**" in readme


def test_the_command_prints_the_json(dynamodb_local: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from engram_dev.cost import run

    assert run(argparse.Namespace(json=True, n=2, dynamodb_endpoint=dynamodb_local.endpoint)) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed["usd_per_million"]) == {"recall", "retain_raw", "retain_smart"}
