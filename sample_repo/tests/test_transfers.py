from tinyomni.serving.transfers import LoadTracker, SendTracker


def test_finish_sending():
    tracker = SendTracker()
    tracker.start("r0")
    tracker.finish_sending({"r0"})


def test_finish_loading():
    tracker = LoadTracker()
    tracker.begin("r0")
    tracker.finish_loading({"r0"})
