"""dbhash.get_dict_hash against the conformance vectors the Python original produced."""

import json
import os
import unittest

import dbhash

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "internal", "conformance", "testdata")


class HashVectors(unittest.TestCase):
    def test_every_vector(self):
        n = 0
        for name in ("hash_vectors.jsonl", "hash_vectors_exotic.jsonl"):
            with open(os.path.join(VECTORS, name), encoding="utf-8") as f:
                for line in f:
                    v = json.loads(line)
                    with self.subTest(v["name"]):
                        self.assertEqual(dbhash.get_dict_hash(json.loads(v["input_json"])), v["hash"])
                    n += 1
        self.assertGreaterEqual(n, 354)

    def test_changed_value_changes_the_hash(self):
        self.assertNotEqual(dbhash.get_dict_hash({"x": 1}), dbhash.get_dict_hash({"x": 2}))
        self.assertEqual(dbhash.get_dict_hash({"x": 1}), dbhash.get_dict_hash({"x": 1.0, "session": {"id": 1}}))


if __name__ == "__main__":
    unittest.main()
