"""Change sets: the families' verdicts folded into the changes a maintainer would make (SPEC §5).

Between the families' verdicts and the checkers that emit them: a dead method beside
the other dead methods of its class and the state only they use, the unread fields of
one config class, a lookup table nobody reads through, a module's dead helpers, a dead
reader of an option that is still shipped (a lost feature). One message per change
set, at its root; its members stay in the details.

May import: `index`, `evidence`, `options` (never a family: each hands its members over
through the plugin, `changes.model.register_source`).
"""
