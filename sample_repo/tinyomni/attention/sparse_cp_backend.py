"""Sparse attention backend under context parallelism: the KV blocks come from every rank."""


def sparse_cp_attention(layer, query, kv_cache, metadata, cp_group):
    layer.notify_kv_written(metadata.step)
    layer.record_compute_start(metadata.step)
    attn_op = layer.sparse_op(metadata.block_size)
    kwargs = {"query": query,
              "kv_cache": kv_cache,
              "scale": layer.scale}
    if metadata.has_prefill:
        kwargs["prefill_lens"] = metadata.prefill_lens
    kwargs.update(cp_group.extra_attention_kwargs(metadata))
    kwargs["topk"] = cp_group.gather(metadata.topk_indices)
    return cp_group.all_reduce(layer.o_proj(attn_op(**kwargs)))
