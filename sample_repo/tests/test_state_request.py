"""Sample tests of tinyomni.engine.state_request (never run by pylint-omni; they are evidence)."""

from tinyomni.engine.state_request import ClientRequest, RequestTable, StageRequestState


def test_trace_label_names_the_request() -> None:
    state = StageRequestState(ClientRequest("r1", "hello", {}))
    assert state.trace_label == "stage:r1"


def test_table_counts_live_requests() -> None:
    table = RequestTable()
    table.add(StageRequestState(ClientRequest("r2", "hi", {})))
    assert len(table) == 1
