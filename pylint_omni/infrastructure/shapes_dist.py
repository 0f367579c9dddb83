"""`torch.distributed` collectives written by hand: a loop of point-to-point calls over the ranks, or a gathered
list concatenated into one tensor.

Only the calls of the distributed package itself match (`dist.broadcast`,
`torch.distributed.send`); a group object's own methods may add their own semantics.
A loop of sends or receives is half of a protocol: the other ranks' loop changes with
it, so those findings are medium and say so.
"""

from __future__ import annotations

from collections.abc import Callable

from astroid import nodes

from pylint_omni.infrastructure.shapes import Replaceable, call_name, earlier_statements, keyword

DISTRIBUTED_MODULES = ("dist", "torch.distributed", "distributed")
# The point-to-point call a loop makes over the ranks -> (collective, the peer argument, what the other ranks change)
LOOPED = {
    "broadcast": ("all_gather", "src", ""),
    "send": ("broadcast", "dst", "the receiving ranks' `recv` becomes the same `broadcast` call"),
    "recv": ("gather", "src", "the sending ranks' `send` becomes the same `gather` call"),
}
ALLOCATORS = frozenset({"empty_like", "zeros_like", "empty", "zeros"})
JOINS = ("cat", "concat", "stack")  # what turns the gathered list into one tensor


def _distributed(call: nodes.NodeNG, function: str) -> bool:
    return isinstance(call, nodes.Call) and isinstance(call.func, nodes.Attribute) and call.func.attrname == function \
        and call.func.expr.as_string() in DISTRIBUTED_MODULES


def _ranks_loop(node: nodes.For) -> tuple[str, list[nodes.NodeNG]] | None:
    """(rank, body) of `for rank in range(n)`, the body unwrapped from `if rank != me:`."""
    if node.orelse or not isinstance(node.target, nodes.AssignName) or not isinstance(node.iter, nodes.Call) \
            or node.iter.func.as_string() != "range":
        return None
    body = node.body
    if len(body) == 1 and isinstance(body[0], nodes.If) and not body[0].orelse and isinstance(body[0].test, nodes.Compare) \
            and body[0].test.left.as_string() == node.target.name and body[0].test.ops[0][0] == "!=":
        body = body[0].body
    return node.target.name, body


def looped_collective(node: nodes.For) -> Replaceable | None:
    """`for r in range(world_size): dist.broadcast(ts[r], src=r)` (or `send(t, dst=r)`, `recv(bufs[r], src=r)`)."""
    found = _ranks_loop(node)
    if found is None or len(found[1]) != 1 or not isinstance(found[1][0], nodes.Expr):
        return None
    rank, call = found[0], found[1][0].value
    function = call.func.attrname if isinstance(call, nodes.Call) and isinstance(call.func, nodes.Attribute) else ""
    if function not in LOOPED or not _distributed(call, function) or not call.args:
        return None
    collective, peer_name, others = LOOPED[function]
    peer = keyword(call, peer_name, 1)
    mapped = isinstance(peer, nodes.Subscript) and peer.slice.as_string() == rank  # `ranks[r]`: a group's members
    if peer is None or (peer.as_string() != rank and not mapped) \
            or any(k.arg in ("async_op", "tag") for k in call.keywords or ()):
        return None
    tensor = call.args[0]
    if function != "send" and not (isinstance(tensor, nodes.Subscript) and tensor.slice.as_string() == rank):
        return None  # one buffer per rank, or it is not a gather
    listed = tensor.value.as_string() if isinstance(tensor, nodes.Subscript) else tensor.as_string()
    group = keyword(call, "group", 2)
    scope = f", group={group.as_string()}" if group is not None else ""
    replacement = {"all_gather": f"all_gather({listed}, {listed}[my_rank]{scope})",
                   "broadcast": f"broadcast({listed}, src=my_rank{scope})",
                   "gather": f"gather(my_tensor, {listed}, dst=my_rank{scope})"}[collective]
    glue = ("one collective replaces the sequence of calls: the ranks run it concurrently, not one after another "
            "in rank order (same result; pass `async_op=True` to overlap it)")
    if mapped:
        glue += (f"; the peers are `{peer.value.as_string()}`: the collective runs over the process group those "
                 "ranks form, and `my_rank` is the global rank of this one")
    if others:
        glue = f"{others}: the protocol changes on every rank at once; {glue}"
    return Replaceable(f"{collective} loop", f"for {rank} in {node.iter.as_string()}: {call.func.as_string()}(...)",
                       f"torch.distributed.{collective}", "torch 1.0",
                       f"a `{function}` to or from every rank in turn is `torch.distributed.{replacement}`",
                       glue=glue, confidence="medium" if others else "high",
                       goes=f"lines {node.lineno}-{node.tolineno}", places=((node.lineno, node.tolineno),))


def _statement_before(statement: nodes.NodeNG, test: Callable[[nodes.NodeNG], bool]) -> nodes.NodeNG | None:
    """The nearest earlier statement of the same block that passes `test`."""
    return next((s for s in earlier_statements(statement) if test(s)), None)


def _argument(call: nodes.Call, name: str, position: int) -> str:
    found = keyword(call, name, position)
    return found.as_string() if found is not None else ""


def gathered_cat(node: nodes.Call) -> Replaceable | None:
    """`out = [torch.empty_like(x) for _ in range(n)]; dist.all_gather(out, x); torch.cat(out, dim=0)` (or
    `torch.stack(out)`)."""
    if call_name(node) not in JOINS or node.func.as_string() not in tuple(f"torch.{join}" for join in JOINS) \
            or not node.args or not isinstance(node.args[0], nodes.Name):
        return None
    listed = node.args[0].name
    statement = node.statement()
    gathered = _statement_before(statement, lambda s: isinstance(s, nodes.Expr) and _distributed(s.value, "all_gather")
                                 and _argument(s.value, "tensor_list", 0) == listed)
    allocated = _statement_before(gathered, lambda s: isinstance(s, nodes.Assign)
                                  and [t.as_string() for t in s.targets] == [listed]) if gathered is not None else None
    value = allocated.value if allocated is not None else None
    if not (isinstance(value, nodes.ListComp) and isinstance(value.elt, nodes.Call)
            and isinstance(value.elt.func, nodes.Attribute)
            and value.elt.func.attrname in ALLOCATORS and len(value.generators) == 1):
        return None
    call = gathered.value
    tensor = keyword(call, "tensor", 1)
    if any(k.arg == "async_op" for k in call.keywords or ()) or tensor is None:
        return None
    dim = keyword(node, "dim", 1)
    first = dim is None or dim.as_string() == "0"
    stacked = call_name(node) == "stack"
    if stacked and not first:
        return None  # a stack along another dim is no layout `all_gather_into_tensor` writes
    output = "shape (world size, *input shape)" if stacked else "world size times the input's first dim"
    glue = (f"allocate one output tensor of {output} (no list of buffers); "
            "the process group's backend must implement it (NCCL does, older Gloo releases do not)")
    if not first:
        glue += f"; it concatenates along dim 0: a `movedim`/reshape makes it dim {dim.as_string()}"  # type: ignore[union-attr]
    return Replaceable("gather-then-concatenate", f"all_gather({listed}, ...) then {node.as_string()}",
                       "torch.distributed.all_gather_into_tensor", "torch 1.13",
                       f"every rank's `{tensor.as_string()}` gathered into `{listed}` then "
                       f"{'stacked' if stacked else 'concatenated'}, in "
                       "rank order, is one `all_gather_into_tensor` into a preallocated tensor",
                       glue=glue, confidence="medium", goes=f"lines {allocated.lineno}-{statement.tolineno}",
                       places=((allocated.lineno, statement.tolineno),))
