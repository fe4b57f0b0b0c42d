"""The tt modules that moved keep their old paths: each old module gives the very objects of the new one."""

import importlib

import pytest

from unilayout import tt

# old module path -> {name: new module path}
MOVED = {
    "unilayout.tt.metal": {n: "unilayout.tt.metal.metal" for n in (
        "MetalLayout", "MEMORY_SPACES", "OOB_VALS", "TILE_DTYPES", "is_scalar_type")}
    | {"xs": "unilayout.tt._mlir"},
    "unilayout.tt.v2": {"MetalLayoutV2": "unilayout.tt.metal.v2", "MEMORY_LAYOUTS": "unilayout.tt.metal.v2",
                        "from_v2": "unilayout.tt.metal.v1_v2"}
    | {n: "unilayout.tt.metal.alignment" for n in (
        "DEFAULT_TILE", "default_intervals", "normalize_and_flatten", "v2_physical_shape", "grid_aware_alignments",
        "ttcore_alignments", "optimal_grid")},
    "unilayout.tt.shard": {n: "unilayout.tt.metal.shard" for n in (
        "shard", "unshard", "padding_mask", "padding_summary", "PaddingSummary", "index_map", "fill_value",
        "to_tiles")},
    "unilayout.tt.collapse": {n: "unilayout.tt.metal.collapse" for n in (
        "normalize_intervals", "collapse_groups", "collapse_map")},
    "unilayout.tt.ttnn": {n: "unilayout.tt.ttnn_view" for n in (
        "CoreRange", "ShardSpec", "TTNNLayout", "to_ttnn", "core_ranges")},
    "unilayout.tt.ttnn_attrs": {"TTNNTensorLayout": "unilayout.tt.ttnn.layout",
                                "MemoryConfig": "unilayout.tt.ttnn.memory_config",
                                "BUFFER_TYPES": "unilayout.tt.ttnn.placement",
                                "TTNN_MEMORY_LAYOUTS": "unilayout.tt.ttnn.placement",
                                "config_facts": "unilayout.tt.ttnn.facts"},
    "unilayout.tt.ttnn_nd": {"TTNNNDTensorLayout": "unilayout.tt.ttnn.nd"},
    "unilayout.tt.ttnn_text": {n: "unilayout.tt.ttnn.text" for n in (
        "read_ttnn_tensor", "read_ttnn_attribute", "read_memory_config", "read_nd_shard_spec")},
    "unilayout.tt.ndshard": {n: "unilayout.tt.ttnn.ndshard" for n in (
        "NdShardSpec", "ROUND_ROBIN_1D", "GRID_2D", "corerange_to_cores", "height_sharded", "width_sharded",
        "block_sharded", "sharded_across_dims")}
    | {"create_sharded_memory_config": "unilayout.tt.ttnn.memory_config"},
    "unilayout.tt.text": {"parse": "unilayout.tt.text", "parse_tensor": "unilayout.tt.text",
                          "parse_module": "unilayout.tt.text", "parse_device": "unilayout.tt.device_text"},
}

# What ``unilayout.tt`` exported before the split (it must export exactly these).
TT_ALL = {
    "Address", "CoreRange", "Device", "MEMORY_SPACES", "MetalLayout", "MetalLayoutV2", "NdShardSpec", "MemoryConfig",
    "OOB_VALS", "PaddingSummary", "Placement", "SUPPORTED_TILE_SHAPES", "ShardSpec", "SystemDesc", "TILE_DTYPES",
    "TTNNLayout", "TTNNTensorLayout", "TTNNNDTensorLayout", "address", "block_sharded", "create_sharded_memory_config",
    "collapse_groups", "collapse_map", "default_intervals", "grid_aware_alignments", "height_sharded",
    "normalize_and_flatten", "normalize_intervals", "optimal_grid", "page_bytes", "parse", "parse_device",
    "parse_module", "parse_tensor", "pipeline", "sharded_across_dims", "tile_bytes", "width_sharded",
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_gives_the_moved_objects(old):
    module = importlib.import_module(old)
    for name, new in MOVED[old].items():
        assert getattr(module, name) is getattr(importlib.import_module(new), name), (old, name, new)
    public = set(getattr(module, "__all__", ()))
    assert public <= set(MOVED[old]), public - set(MOVED[old])


def test_the_package_exports_what_it_did():
    assert set(tt.__all__) == TT_ALL and len(tt.__all__) == len(TT_ALL)
    for name in TT_ALL:
        assert getattr(tt, name) is not None


def test_the_v1_delegates_answer_as_the_v1_v2_functions():
    from unilayout.tt.metal.v1_v2 import from_v1, from_v2

    ml = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32))
    assert ml.to_v2() == from_v1(ml) and ml.to_v2("interleaved") == from_v1(ml, "interleaved")
    assert tt.MetalLayout.from_v2((9, 43, 7), (8, 8), tile=(32, 32)) == from_v2((9, 43, 7), (8, 8), tile=(32, 32))
