#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""validate.py SCHEMA FILE: check FILE (one JSON document, or one a line
for stat) against docs/schema/SCHEMA.schema.json with Debian's
python3-jsonschema. Prints one line per error; exit 1 on any."""
import glob
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "..", "..", "docs", "schema")


def main():
    if len(sys.argv) != 3:
        print("usage: validate.py info|stat|report|diff|whatif FILE", file=sys.stderr)
        return 2
    store = {}
    for path in glob.glob(os.path.join(SCHEMAS, "*.schema.json")):
        with open(path) as f:
            doc = json.load(f)
        store[doc["$id"]] = doc
    schema = store["urn:pcptop:schema:" + sys.argv[1]]
    jsonschema.Draft202012Validator.check_schema(schema)
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
    with open(sys.argv[2]) as f:
        text = f.read()
    docs = [json.loads(line) for line in text.splitlines() if line.strip()]
    bad = 0
    for n, doc in enumerate(docs, 1):
        for err in validator.iter_errors(doc):
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            print("%s document %d at %s: %s" % (sys.argv[2], n, where,
                                                err.message[:300]))
            bad += 1
    if not docs:
        print("%s: no JSON document" % sys.argv[2])
        bad = 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
