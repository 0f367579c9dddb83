"""Quantized linear layers, chosen by `<method>_linear`."""
