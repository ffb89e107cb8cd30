"""Loading a scenario's DB from ``db_path`` under the evaluation data root.

The harness sends ``shared_state_init`` with a ``db_path`` relative to the
data root (``tau2_retail/db.json``, ``tau2_airline/db.json``); the bot
resolves it as the Go bots do (rtvi's apply_initialization), in one of the
two layouts the data root uses:

- ``<p>.json``, one file (``.json`` is stripped from the path first);
- ``<p>/``, a directory whose top-level ``*.json`` files, in sorted order,
  become the keys (their stems) of the DB.

Files are read with ``json.load``, so every record keeps the data file's key
order: that is the order a read tool's result shows the model.
"""

import json
import os


class DataRoot:
    """A data root, with each file's text cached (a DB is parsed anew for
    each scenario, from memory)."""

    def __init__(self, root: str):
        self.root = root
        self._text: dict[str, str] = {}

    def _read(self, path: str):
        text = self._text.get(path)
        if text is None:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self._text[path] = text
        return json.loads(text)

    def load(self, db_path: str) -> dict:
        """Load the DB ``db_path`` names; FileNotFoundError with the
        message the harness's bots use when there is none."""
        base = os.path.join(self.root, db_path)
        if base.endswith(".json"):
            base = base[: -len(".json")]
        try:
            if os.path.isfile(base + ".json"):
                return self._read(base + ".json")
            if os.path.isdir(base):
                names = sorted(n for n in os.listdir(base) if n.endswith(".json"))
                return {n[: -len(".json")]: self._read(os.path.join(base, n)) for n in names}
            raise FileNotFoundError(
                f"No DB artifact at {base}.json or {base}/ (tried single-file and sharded forms)."
            )
        except FileNotFoundError as e:
            raise FileNotFoundError(
                f"Scenario DB not found for db_path={db_path!r}. Check EVAL_DATA_ROOT "
                f"(currently resolves to {self.root}). Underlying error: {e}"
            ) from e
