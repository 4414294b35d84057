#!/bin/sh
# A test of the Triton hooks (SCRIPT, default test_record.py), with the first
# Python that has torch: $PYTHON, python3, /usr/bin/python3 (Debian's
# python3-torch); skipped (77) without one.
# usage: test.sh HIPPORT SOURCE_DIR TMP_DIR [SCRIPT]
for py in ${PYTHON:-} python3 /usr/bin/python3; do
	if "$py" -c 'import torch' >/dev/null 2>&1; then
		exec "$py" "$2/tests/check/triton/${4:-test_record.py}" "$1" "$2" "$3"
	fi
done
echo "no python3 with torch: skipped"
exit 77
