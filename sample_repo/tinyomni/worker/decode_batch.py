"""Decode batches: one token per running request, plus the prompt tail a chunked prefill left behind."""


def build_decode_batch(scheduler, block_size, max_tokens, spec_tokens=0):
    running = [request for request in scheduler.running if not request.aborted]
    if not running:
        return None
    token_ids, positions, slots = [], [], []
    budget = max_tokens - spec_tokens * len(running)
    for request in scheduler.running:
        if request.aborted or request.num_computed >= request.num_prompt:
            continue
        from tinyomni.worker.kernels import checkpoint_kwargs  # lazy: kernels imports torch
        start = request.num_computed
        stop = min(request.num_prompt, start + budget)
        token_ids.extend(request.prompt_ids[start:stop])
        positions.extend(range(start, stop))
        for position in range(start, stop):
            block = request.block_table[position // block_size]
            slots.append(block * block_size + position % block_size)
        request.num_scheduled = stop - start
        request.kernel_options = checkpoint_kwargs()
        budget -= stop - start
        if budget <= 0:
            break
        request.chunked = request.num_computed + request.num_scheduled < request.num_prompt
    for request in running:
        if request.num_computed >= request.num_prompt:
            token_ids.append(request.output_ids[-1])
            positions.append(request.num_computed)
            draft = request.draft_ids[:spec_tokens]
            token_ids.extend(draft)
            positions.extend(range(request.num_computed + 1, request.num_computed + 1 + len(draft)))
    return {"token_ids": token_ids, "positions": positions, "slots": slots, "spec_tokens": spec_tokens}


def decode_stats(batch, step, history):
    import math
    import statistics

    count = len(batch.requests)
    tokens = sum(request.num_prompt for request in batch.requests)
    longest = max(request.num_prompt for request in batch.requests)
    mean = statistics.fmean(request.num_prompt for request in batch.requests)
    pages = math.ceil(tokens / batch.block_size)
    waste = pages * batch.block_size - tokens
    history.append((step, count, tokens))
    if len(history) > batch.history_size:
        del history[0]
    rate = sum(entry[2] for entry in history) / max(1, history[-1][0] - history[0][0])
    return {"requests": count, "tokens": tokens, "longest": longest, "mean": mean, "pages": pages, "waste": waste, "rate": rate}
