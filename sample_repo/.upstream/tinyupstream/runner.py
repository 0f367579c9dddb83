"""Upstream model runner: one scheduler step on the device."""


class UpstreamModelRunner:
    def execute_model(self, scheduler_output):
        self._update_states(scheduler_output)
        if not scheduler_output.total_num_scheduled_tokens:
            return None
        num_reqs = self.input_batch.num_reqs
        tokens = [scheduler_output.num_scheduled_tokens[i] for i in self.input_batch.req_ids]
        max_tokens = max(tokens)
        self.attn_metadata = self._prepare_inputs(scheduler_output, tokens)
        self.positions.copy_(self.input_batch.positions[:num_reqs])
        self.seq_lens.copy_(self.input_batch.seq_lens[:num_reqs])
        if self.uses_mrope:
            self.mrope_positions.copy_(self.input_batch.mrope_positions[:num_reqs])
        padded = self.cudagraph_dispatcher.pad(num_reqs, max_tokens)
        hidden_states = self.model(self.input_ids[:padded], self.positions[:padded])
        logits = self.model.compute_logits(hidden_states[:num_reqs])
        return self.sampler(logits, self.sampling_metadata)
