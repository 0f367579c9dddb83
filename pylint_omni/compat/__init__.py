"""`dead-compat-branch` (R7311): compatibility and fallback branches for environments the project no longer supports.

What the project declares it runs on (`declarations`), what it runs on without
declaring it (`runtime`: distribution metadata), the oldest supported versions and
the imports that cannot fail (`support`, `stdlib`), the per-module scanner of
environment tests (`subjects`, `conditions`), their evaluation (`evaluate`), the
wording and the checker.

May import: the index and evidence rooms, the options, `packaging`. Never another message family.
"""
