from tinyomni.serving.kernels.fused_norm import fused_rms_norm
from tinyomni.serving.kernels.scan import chunked_scan


def reference_rms_norm(values):
    mean = sum(v * v for v in values) / len(values)
    return [v / (mean + 1e-6) ** 0.5 for v in values]


def test_fused_rms_norm():
    ref = reference_rms_norm([1.0, 2.0])
    assert all(abs(a - b) < 1e-6 for a, b in zip(fused_rms_norm([1.0, 2.0]), ref))


def test_chunked_scan():
    assert chunked_scan([1, 2, 3], 2) == [[1, 3], [3]]
