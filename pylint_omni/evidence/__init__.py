"""The evidence room: what every message family shares to judge and word a finding.

Consumers of a surface by kind and the downgrade rules (`consumers`), design
contracts and documentation mentions, open extension mechanisms, the structured
finding records the reporters read and their stable ids (`identity`), who owns a
finding (`owners`), the keep list and the baseline that hold findings back, the
benefit of a candidate (`benefit`), the framework conventions that keep code alive (`frameworks`), how often its code runs (`heat`), the report's
ranking and bundling policy (`ranking`), shared wording (`wording.short_message`),
and the base checker (`checker.OmniChecker`) that hands a family its index and
emits at the node.

May import: the index room, the options (`pylint_omni.options`), pylint and astroid.
Never a message family or the reporters.
"""
