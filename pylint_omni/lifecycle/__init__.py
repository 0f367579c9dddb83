"""`lifecycle-mechanism` (R7312): two lifecycle mechanisms of one class that mirror one state."""
