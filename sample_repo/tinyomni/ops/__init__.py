"""Custom ops registered with torch; importing the package registers them."""
