"""Stage outputs on 310P cards, merged before they leave the card's process."""


def merge_stage_outputs(outputs, stage_ids, keep_partial=False):
    merged = {}
    for output in outputs:
        if output.stage_id not in stage_ids:
            continue
        entry = merged.setdefault(output.request_id, {"tokens": [], "finished": False})
        entry["tokens"].extend(output.token_ids)
        entry["finished"] = entry["finished"] or output.finished
    if not keep_partial:
        merged = {request_id: entry for request_id, entry in merged.items() if entry["finished"]}
    return merged
