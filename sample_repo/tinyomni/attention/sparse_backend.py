"""Sparse attention backend: one step of attention over the selected KV blocks."""


def sparse_attention(layer, query, kv_cache, metadata):
    layer.notify_kv_written(metadata.step)
    layer.record_compute_start(metadata.step)
    attn_op = layer.sparse_op(metadata.block_size)
    kwargs = {"query": query,
              "kv_cache": kv_cache,
              "scale": layer.scale}
    if metadata.has_prefill:
        kwargs["prefill_lens"] = metadata.prefill_lens
    kwargs["topk"] = metadata.topk_indices
    kwargs["compressed"] = layer.compressed_cache(kv_cache)
    output = attn_op(**kwargs)
    return layer.o_proj(output)
