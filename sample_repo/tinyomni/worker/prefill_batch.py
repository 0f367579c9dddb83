"""Prefill batches: the prompt tokens each scheduled request still has to compute."""


def build_prefill_batch(scheduler, block_size, max_tokens, lora_slots):
    requests = sorted(scheduler.waiting, key=lambda request: (request.priority, request.arrival_time))
    adapters = {request.lora_id for request in requests if request.lora_id is not None}
    if len(adapters) > lora_slots:
        requests = [request for request in requests if request.lora_id in sorted(adapters)[:lora_slots]]
    token_ids, positions, slots = [], [], []
    budget = max_tokens
    for request in scheduler.waiting:
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
        scheduler.waiting_tokens -= request.num_scheduled
    prompt_lens = [request.num_prompt for request in requests]
    cu_lens = [0]
    for length in prompt_lens:
        cu_lens.append(cu_lens[-1] + length)
    return {"token_ids": token_ids, "positions": positions, "slots": slots, "cu_lens": cu_lens, "adapters": adapters}


def log_prefill_batch(batch, logger, step):
    if not batch.requests or step % batch.log_every:
        return None
    import math
    import statistics

    count = len(batch.requests)
    tokens = sum(request.num_prompt for request in batch.requests)
    longest = max(request.num_prompt for request in batch.requests)
    mean = statistics.fmean(request.num_prompt for request in batch.requests)
    pages = math.ceil(tokens / batch.block_size)
    waste = pages * batch.block_size - tokens
    logger.info("prefill: %d requests, %d tokens (longest %d, mean %.1f)", count, tokens, longest, mean)
    logger.info("prefill: %d pages, %d slots unused", pages, waste)
    batch.last_logged = step
    return waste
