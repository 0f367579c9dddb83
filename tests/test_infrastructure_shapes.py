"""replaceable-infrastructure: the statement shapes (stdlib, files, collectives, ReLU), a trap beside each, and the
grade (a small shape the module writes once is medium), through real pylint runs on small projects."""

from __future__ import annotations

from pathlib import Path

from test_infrastructure import lint, write


def found_in(root: Path, cache_dir: Path, source: str) -> dict[int, tuple[str, str]]:
    write(root, {"pkg/__init__.py": "", "pkg/mod.py": source})
    return {line: (confidence, text) for _, line, confidence, text in lint(root, cache_dir)}


def test_ignored_exception_is_suppress_and_a_handler_doing_more_is_not(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import os


        def remove(path):
            try:
                os.remove(path)
            except FileNotFoundError:
                pass


        def remove_logged(path, log):
            try:
                os.remove(path)
            except FileNotFoundError:
                log.info("gone")


        def remove_two(path, other):
            try:
                os.remove(path)
                os.remove(other)
            except FileNotFoundError:
                pass


        def remove_bare(path):
            try:
                os.remove(path)
            except:
                pass


        def remove_else(path, done):
            try:
                os.remove(path)
            except OSError:
                pass
            else:
                done()
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {5: "INFERENCE"}
    assert "contextlib.suppress" in found[5][1] and "Python 3.4" in found[5][1] and "lines 5-8" in found[5][1]
    assert "an idiom that saves two lines" in found[5][1]


def test_flatten_shapes_and_their_traps(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        def flat(rows):
            return [cell for row in rows for cell in row]


        def flat_loop(rows):
            out = []
            for row in rows:
                for cell in row:
                    out.append(cell)
            return out


        def flat_extend(rows):
            out = []
            for row in rows:
                out.extend(row)
            return out


        def flat_sum(rows):
            return sum(rows, [])


        def filtered(rows):
            return [cell for row in rows for cell in row if cell]


        def mapped(rows):
            return [cell.strip() for row in rows for cell in row]


        def pairs(xs, ys):
            return [x for x in xs for y in ys]


        def logged(rows, log):
            out = []
            for row in rows:
                for cell in row:
                    out.append(cell)
                    log(cell)
            return out


        def prefilled(rows):
            out = [0]
            for row in rows:
                out.extend(row)
            return out
    """)
    # the loops repeat in the module; `sum(rows, [])` stays medium; the comprehension is the idiom (no case)
    assert {line: confidence for line, (confidence, _) in found.items()} == {7: "HIGH", 15: "HIGH", 21: "INFERENCE"}
    assert "itertools.chain.from_iterable" in found[7][1] and "Python 2.6" in found[7][1]
    assert "lines 6-9" in found[7][1] and "`out = list(itertools.chain.from_iterable(rows))`" in found[15][1]
    assert "quadratic" in found[21][1]


def test_field_dict_is_asdict_exact_only_for_scalar_fields(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        from dataclasses import dataclass, fields


        @dataclass
        class Plain:
            a: int = 0
            b: str = ""

            def to_dict(self):
                return {f.name: getattr(self, f.name) for f in fields(self)}


        @dataclass
        class Nested:
            rows: list
            inner: Plain

            def to_dict(self):
                out = {}
                for f in fields(self):
                    out[f.name] = getattr(self, f.name)
                return out

            def as_pairs(self):
                return dict((f.name, getattr(self, f.name)) for f in fields(self))

            def public(self):
                return {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}

            def listed(self):
                return {f.name: list(getattr(self, f.name)) for f in fields(self)}
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {
        10: "INFERENCE", 22: "INFERENCE", 25: "INFERENCE"}  # only Plain's copy is exact, and one line
    assert "dataclasses.asdict" in found[10][1] and "Python 3.7" in found[10][1] and "plain scalar" in found[10][1]
    assert "deep-copies" in found[22][1] and "lines 19-22" in found[22][1]


def test_threads_started_then_joined_are_a_pool_saying_errors_change(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import threading


        def fetch_all(urls, fetch):
            threads = []
            for url in urls:
                t = threading.Thread(target=fetch, args=(url,))
                t.start()
                threads.append(t)
            for t in threads:
                t.join()


        def daemons(urls, fetch):
            threads = []
            for url in urls:
                t = threading.Thread(target=fetch, args=(url,), daemon=True)
                t.start()
                threads.append(t)
            for t in threads:
                t.join()


        def never_joined(urls, fetch):
            threads = []
            for url in urls:
                t = threading.Thread(target=fetch, args=(url,))
                t.start()
                threads.append(t)
            return threads
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {6: "INFERENCE"}
    assert "concurrent.futures.ThreadPoolExecutor" in found[6][1] and "Python 3.2" in found[6][1]
    assert "error handling changes" in found[6][1] and "lines 5-9 and the join loop (lines 10-11)" in found[6][1]


def test_tree_removal_and_copy_by_walk(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import os
        import shutil


        def wipe(top):
            for root, dirs, files in os.walk(top, topdown=False):
                for name in files:
                    os.remove(os.path.join(root, name))
                for name in dirs:
                    os.rmdir(os.path.join(root, name))
            os.rmdir(top)


        def empty(top):
            for root, dirs, files in os.walk(top, topdown=False):
                for name in files:
                    os.unlink(os.path.join(root, name))
                for name in dirs:
                    os.rmdir(os.path.join(root, name))


        def wipe_logs(top):
            for root, dirs, files in os.walk(top, topdown=False):
                for name in files:
                    if name.endswith(".log"):
                        os.remove(os.path.join(root, name))
                for name in dirs:
                    os.rmdir(os.path.join(root, name))


        def mirror(src, dst):
            for root, dirs, files in os.walk(src):
                target = os.path.join(dst, os.path.relpath(root, src))
                os.makedirs(target, exist_ok=True)
                for name in files:
                    shutil.copy(os.path.join(root, name), os.path.join(target, name))


        def mirror_python(src, dst):
            for root, dirs, files in os.walk(src):
                target = os.path.join(dst, os.path.relpath(root, src))
                os.makedirs(target, exist_ok=True)
                for name in files:
                    if name.endswith(".py"):
                        shutil.copy(os.path.join(root, name), os.path.join(target, name))
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {6: "HIGH", 15: "INFERENCE", 32: "INFERENCE"}
    assert "shutil.rmtree" in found[6][1] and "lines 6-11" in found[6][1] and "symbolic link" in found[6][1]
    assert "removes `top` itself too" in found[15][1]
    assert "shutil.copytree" in found[32][1] and "Python 3.8" in found[32][1] and "copy_function=shutil.copy" in found[32][1]


def test_collectives_written_as_loops_or_a_gathered_list(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import torch
        import torch.distributed as dist


        def share(tensors, world_size):
            for r in range(world_size):
                dist.broadcast(tensors[r], src=r)


        def scatter_same(t, world_size, rank):
            for r in range(world_size):
                if r != rank:
                    dist.send(t, dst=r)


        def gather_all(x, world_size):
            parts = [torch.empty_like(x) for _ in range(world_size)]
            dist.all_gather(parts, x)
            return torch.cat(parts, dim=0)


        def gather_to_one(x, world_size, dst):
            parts = [torch.empty_like(x) for _ in range(world_size)]
            dist.gather(x, parts, dst=dst)
            return torch.cat(parts, dim=0)


        def share_one(t, world_size):
            for r in range(world_size):
                dist.broadcast(t, src=r)


        def share_async(tensors, world_size):
            for r in range(world_size):
                dist.broadcast(tensors[r], src=r, async_op=True)
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {6: "INFERENCE", 11: "INFERENCE", 19: "INFERENCE"}
    assert "torch.distributed.all_gather(tensors, tensors[my_rank])" in found[6][1] and "concurrently" in found[6][1]
    assert "torch.distributed.broadcast" in found[11][1] and "receiving ranks' `recv`" in found[11][1]
    assert "all_gather_into_tensor" in found[19][1] and "torch 1.13" in found[19][1] and "lines 17-19" in found[19][1]


def test_relu_by_mask_is_medium_and_clamps_are_left_alone(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import torch


        def act(x):
            return x * (x > 0)


        def positions(p, w):
            return (p - w).clamp(min=0)


        def leaky(x, y):
            return x * (y > 0)
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {5: "INFERENCE"}
    assert "torch.nn.functional.relu" in found[5][1] and "-inf" in found[5][1]


def test_a_small_shape_is_high_only_where_the_module_repeats_it(tmp_path: Path, cache_dir: Path) -> None:
    rms = ("    def forward(self, x):\n        e = torch.exp(x - x.max(dim=-1, keepdim=True).values)\n"
           "        return e / e.sum(dim=-1, keepdim=True)\n")
    silu = "    def act(self, x):\n        return x * torch.sigmoid(x)\n"
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/once.py": f"import torch\n\n\nclass A:\n{rms}",
        "pkg/twice.py": f"import torch\n\n\nclass A:\n{rms}{silu}\n\nclass B:\n{rms}{silu}",
    })
    found = {(path, line): (confidence, text) for path, line, confidence, text in lint(tmp_path, cache_dir)}
    assert {key: confidence for key, (confidence, _) in found.items()} == {
        ("pkg/once.py", 7): "INFERENCE", ("pkg/twice.py", 7): "HIGH", ("pkg/twice.py", 9): "INFERENCE",
        ("pkg/twice.py", 15): "HIGH", ("pkg/twice.py", 17): "INFERENCE"}  # SiLU: one line, repeated or not
    assert "medium: 2 hand-written lines go and the module has no other softmax" in found[("pkg/once.py", 7)][1]
    assert "medium: a one-line shape" in found[("pkg/twice.py", 9)][1]


def test_head_repeat_and_normalisation(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import torch


        def repeat_kv(hidden_states, n_rep):
            b, h, s, d = hidden_states.shape
            hidden_states = hidden_states[:, :, None, :, :].expand(b, h, n_rep, s, d)
            return hidden_states.reshape(b, h * n_rep, s, d)


        def repeat_last(x, n):
            b, h, s, d = x.shape
            return x[:, :, :, None, :].expand(b, h, s, n, d).reshape(b, h, s * n, d)


        def unit(v):
            return v / v.norm(dim=-1, keepdim=True)


        def unit_safe(v, eps):
            return v / v.norm(p=2, dim=-1, keepdim=True).clamp(min=eps)


        def unit_l1(v):
            return v / v.norm(p=1, dim=-1, keepdim=True)


        def unit_other(v, w):
            return v / w.norm(dim=-1, keepdim=True)
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {7: "INFERENCE", 16: "INFERENCE", 20: "INFERENCE"}
    assert "torch.repeat_interleave(hidden_states, n_rep, dim=1)" in found[7][1] and "lines 6-7" in found[7][1]
    assert "zero vector" in found[16][1] and "normalize(v, dim=-1, eps=eps)` exactly" in found[20][1]


def test_lazy_property_with_the_early_return_guard(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        class Tokenizer:
            def __init__(self, model):
                self.model = model
                self._size = None
                self._vocab = None

            @property
            def size(self):
                if self._size is not None:
                    return self._size
                self._size = len(self.model)
                return self._size

            @property
            def vocab(self):
                if self._vocab is not None:
                    return self._vocab
                self._vocab = self.model.vocab()
                self.model.reset()
                return self._vocab
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {8: "INFERENCE"}  # 3 lines, once
    assert "functools.cached_property" in found[8][1] and "the guard (line 9) and the return (line 12)" in found[8][1]


def test_threads_listed_then_started_then_joined(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import threading


        def fetch_all(urls, fetch):
            threads = [threading.Thread(target=fetch, args=(u,)) for u in urls]
            for t in threads:
                t.start()
            for t in threads:
                t.join()


        def started_only(urls, fetch):
            threads = [threading.Thread(target=fetch, args=(u,)) for u in urls]
            for t in threads:
                t.start()
            return threads
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {6: "INFERENCE"}
    assert "lines 5-7 and the join loop (lines 8-9)" in found[6][1] and "pool.map(fetch, ...)" in found[6][1]


def test_gathered_list_by_keyword_or_stacked(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import torch


        def gather_kw(x, world_size, group):
            parts = [torch.zeros_like(x) for _ in range(world_size)]
            torch.distributed.all_gather(tensor_list=parts, tensor=x, group=group)
            return torch.stack(parts)


        def gather_last(x, world_size):
            parts = [torch.empty_like(x) for _ in range(world_size)]
            torch.distributed.all_gather(parts, x)
            return torch.cat(parts, dim=-1)


        def stack_inner(x, world_size):
            parts = [torch.empty_like(x) for _ in range(world_size)]
            torch.distributed.all_gather(parts, x)
            return torch.stack(parts, dim=1)
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {7: "INFERENCE", 13: "INFERENCE"}
    assert "shape (world size, *input shape)" in found[7][1] and "then stacked" in found[7][1]
    assert "a `movedim`/reshape makes it dim -1" in found[13][1]


def test_lazy_property_behind_hasattr(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        class Model:
            @property
            def table(self):
                if not hasattr(self, "_table"):
                    self._table = {}
                return self._table

            @property
            def rows(self):
                if not hasattr(self, "_rows"):
                    self._rows = []
                return self._rows

            def reload(self):
                self._rows = []


        class Proxy:
            def __getattr__(self, name):
                return None

            @property
            def table(self):
                if not hasattr(self, "_table"):
                    self._table = {}
                return self._table
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {3: "INFERENCE"}  # two lines go
    assert "a `hasattr` guard keeps a computed None too" in found[3][1] and "the guard (line 4)" in found[3][1]


def test_memo_dict_read_with_get(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        _TABLES = {}
        _ROWS = {}


        def table(size, dtype):
            key = (size, dtype)
            value = _TABLES.get(key)
            if value is None:
                value = [size] * 3
                _TABLES[key] = value
            return value


        def rows(size, dtype):
            value = _ROWS.get(size)
            if value is None:
                value = [size, dtype]
                _ROWS[size] = value
            return value
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {5: "INFERENCE"}  # `rows` keys on part
    assert "functools.cache" in found[5][1] and "`.get` reads it as a miss" in found[5][1]
    assert "the lookup (line 7) and the store (line 10)" in found[5][1]


def test_a_collective_loop_over_a_groups_ranks(tmp_path: Path, cache_dir: Path) -> None:
    found = found_in(tmp_path, cache_dir, """
        import torch.distributed as dist


        class Group:
            def share(self, tensors):
                for r in range(self.world_size):
                    dist.broadcast(tensors[r], src=self.ranks[r], group=self.device_group)

            def share_shifted(self, tensors):
                for r in range(self.world_size):
                    dist.broadcast(tensors[r], src=self.ranks[r + 1], group=self.device_group)
    """)
    assert {line: confidence for line, (confidence, _) in found.items()} == {6: "INFERENCE"}  # two lines, once
    assert "all_gather(tensors, tensors[my_rank], group=self.device_group)" in found[6][1]
    assert "the peers are `self.ranks`" in found[6][1]
