"""The DynamoDB vector item's codec: a vector at half precision, compressed (``z16``: the high
bytes Huffman-coded, the low bytes as they are) so that a 1,024-dimension item is under 2 KB (2
write units where ``e16`` took 3) and a 512-dimension one (the stack's default) under 1 KB for the
tenant ids people use, bit for bit the float16 form; ``e16`` when compression would not save a
unit; the forms written before still read."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from engram.adapters.dynamodb.items import (
    item_bytes,
    pack16,
    unpack16,
    vector_item,
    vector_key,
    vector_of,
    vector_owned,
    write_units,
)
from engram.adapters.local_embedder import LocalEmbedder
from engram_dev.cost.replay import QUERIES, TEXTS, TitanSized

LONGEST_TENANT = "t" * 63  # validation_words.TENANT_ID: up to 63 characters
MEMORY_ID = "mem_" + "0" * 32  # identity.memory_id


@pytest.fixture(scope="module")
def embedded() -> np.ndarray:
    """Realistic 1,024-dimension unit vectors: the bundled model's, projected as the cost replay
    projects them (a fixed random projection)."""
    texts = [f"{t} ({i})" for i in range(12) for t in TEXTS + QUERIES]
    vectors: np.ndarray = np.asarray(TitanSized(LocalEmbedder(), 1024).embed(texts), dtype=np.float32)
    return vectors


def _gaussian(n: int, dimension: int = 1024) -> np.ndarray:
    vectors = np.random.default_rng(7).standard_normal((n, dimension))
    out: np.ndarray = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    return out


def _packed_sizes(vectors: Any) -> np.ndarray:
    return np.array([len(pack16(np.asarray(v, dtype=np.float32).astype("<f2").tobytes())) for v in vectors])


def test_a_1024_dimension_vector_item_is_two_write_units_and_reads_back_its_float16_bit_for_bit(
    embedded: np.ndarray,
) -> None:
    for vector in [*embedded, *_gaussian(50)]:
        # Given the item of a realistic vector, under the longest tenant id there can be
        item = vector_item(LONGEST_TENANT, MEMORY_ID, vector)
        # Then it is compressed, under 2 KB (attribute names and values), with no id of its own
        assert set(item) == {"pk", "sk", "z16"}
        assert item_bytes(item) <= 2048 and write_units(item) == 2
        # And it reads back exactly the float16 form of what was written
        read = vector_of(item)
        assert read is not None and read.dtype == np.float32
        assert read.astype("<f2").tobytes() == vector.astype("<f2").tobytes()
        assert np.array_equal(read, vector.astype(np.float16).astype(np.float32))


def test_a_512_dimension_vector_item_is_one_write_unit_for_tenant_ids_up_to_52_characters(
    embedded: np.ndarray,
) -> None:
    # Given the replay's embeddings at Titan V2's 512 dimensions, and Gaussian unit vectors
    texts = [f"{t} ({i})" for i in range(12) for t in TEXTS + QUERIES]
    titan = np.asarray(TitanSized(LocalEmbedder(), 512).embed(texts), dtype=np.float32)
    gaussian = _gaussian(50, 512)
    for vector in [*titan, *gaussian]:
        # Then under a tenant id of 52 characters (a UUID's 36 with room to spare) the item is
        # one write unit: the key alone names the tenant and the memory, so that it fits
        item = vector_item("t" * 52, MEMORY_ID, vector)
        assert set(item) == {"pk", "sk", "z16"} and write_units(item) == 1, item_bytes(item)
        read = vector_of(item)
        assert read is not None and read.astype("<f2").tobytes() == vector.astype("<f2").tobytes()
        # And under the longest tenant id there can be, never more than two
        assert write_units(vector_item(LONGEST_TENANT, MEMORY_ID, vector)) <= 2


def test_a_vector_item_belongs_to_the_tenant_its_key_names() -> None:
    item = vector_item("acme", MEMORY_ID, _gaussian(1, 512)[0])
    assert vector_owned("acme", item) and not vector_owned("acm", item) and not vector_owned("other", item)
    # an item written before the key alone named the tenant carries it too, and must agree
    assert vector_owned("acme", {**item, "tenant_id": {"S": "acme"}})
    assert not vector_owned("acme", {**item, "tenant_id": {"S": "other"}})


def test_realistic_vectors_compress_no_better_than_random_unit_vectors(embedded: np.ndarray) -> None:
    # Given the replay's projected embeddings and i.i.d. Gaussian unit vectors (whose float16 high
    # bytes carry the most information a unit vector's can: nothing to exploit but their spread)
    projected, gaussian = _packed_sizes(embedded), _packed_sizes(_gaussian(len(embedded)))
    # Then the embeddings compress no more than 3 % better, so the 2 KB the item fits in holds
    # for what Titan returns, not only for the vectors measured
    assert projected.mean() >= 0.97 * gaussian.mean()
    assert 1700 < projected.mean() < 1800 and projected.max() < 1850
    # And the codec sees only how the high bytes are spread, not their order (one Huffman-coded
    # block, no repeats sought): the components in another order pack to the same size, so no
    # pattern of a test's vectors (the tiled ones the replay used before) makes them look smaller
    order = np.random.default_rng(5).permutation(1024)
    assert list(_packed_sizes(embedded[:, order])) == list(projected)
    local = LocalEmbedder().embed(TEXTS)
    tiled = np.stack([np.resize(v, 1024) / np.linalg.norm(np.resize(v, 1024)) for v in local])
    assert _packed_sizes(tiled).mean() >= 0.97 * gaussian.mean()


def test_a_vector_compression_would_not_save_a_unit_for_is_stored_as_it_is() -> None:
    # Given a vector whose components spread over every float16 exponent (nothing to compress),
    # and a 384-dimension one (the local model's: 1 KB either way)
    rng = np.random.default_rng(3)
    spread = (rng.uniform(-1, 1, 1024) * 2.0 ** rng.integers(-14, 15, 1024)).astype(np.float32)
    small = _gaussian(1)[0][:384] * 1.6
    for vector in (spread, small):
        # Then its item holds the float16 bytes unchanged, and reads back as them
        item = vector_item("acme", MEMORY_ID, vector)
        assert "z16" not in item and item["e16"]["B"] == vector.astype("<f2").tobytes()
        read = vector_of(item)
        assert read is not None and np.array_equal(read, vector.astype(np.float16).astype(np.float32))
    assert write_units(vector_item("acme", MEMORY_ID, spread)) == 3


def test_the_forms_written_before_still_read() -> None:
    vector = _gaussian(1)[0]
    base = {**vector_key("acme", MEMORY_ID), "tenant_id": {"S": "acme"}, "id": {"S": MEMORY_ID}}
    half = vector.astype("<f2").tobytes()
    assert np.array_equal(
        vector_of({**base, "e16": {"B": half}}), vector.astype(np.float16).astype(np.float32)
    )
    assert np.array_equal(vector_of({**base, "embedding": {"B": vector.tobytes()}}), vector)
    assert vector_of(base) is None


def test_a_z16_value_that_is_not_high_bytes_then_low_bytes_is_refused() -> None:
    packed = pack16(_gaussian(1)[0].astype("<f2").tobytes())
    assert unpack16(packed) == _gaussian(1)[0].astype("<f2").tobytes()
    for broken in (packed[:-1], packed + b"\0", packed[:100], b"\xff" * 64):
        with pytest.raises(ValueError):
            unpack16(broken)
