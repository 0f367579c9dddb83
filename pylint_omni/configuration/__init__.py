"""`unread-config-option` (R7308): configuration options that reach no production reader.

The per-module scanner of options and of how objects are read (`scan`), the one
reader query (`readers.readers_of`, where the reference graph plugs in), the
evidence rules (`judge`), the shipped config files' keys (`yaml_keys`), the wording
and the checker.

May import: the index and evidence rooms, the options. Never another message family.
"""
