#!/bin/sh
# The Triton record hook's test (test_record.py), with the first Python that
# has torch: $PYTHON, python3, /usr/bin/python3 (Debian's python3-torch);
# skipped (77) without one.
# usage: test.sh HIPPORT SOURCE_DIR TMP_DIR
for py in ${PYTHON:-} python3 /usr/bin/python3; do
	if "$py" -c 'import torch' >/dev/null 2>&1; then
		exec "$py" "$2/tests/check/triton/test_record.py" "$@"
	fi
done
echo "no python3 with torch: skipped"
exit 77
