#!/bin/sh
# The Triton record hook with the real Triton (test_real.py), with the first
# Python that has Triton and sees a GPU: $PYTHON, python3; skipped (77)
# without one.
# usage: test-real.sh HIPPORT SOURCE_DIR TMP_DIR
for py in ${PYTHON:-} python3; do
	if "$py" -c 'import torch, triton; assert torch.cuda.is_available()' >/dev/null 2>&1; then
		exec "$py" "$2/tests/check/triton/test_real.py" "$@"
	fi
done
echo "no python3 with Triton and a GPU: skipped"
exit 77
