# What the tools' tests share: check WHAT WANT GOT compares two texts, and
# $fail says whether any differed.
fail=0
check() {
	if [ "$2" != "$3" ]; then
		printf 'FAIL %s\n  want: %s\n  got:  %s\n' "$1" "$2" "$3"
		fail=1
	fi
}
