"""Validates a JSON document against a JSON schema: validate.py SCHEMA DOC."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
validator = jsonschema.validators.validator_for(schema)(schema)
errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
for e in errors[:10]:
    print("%s: %s" % ("/".join(str(p) for p in e.path), e.message))
sys.exit(1 if errors else 0)
