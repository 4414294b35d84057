# Creates a fixture git repository in $1 from the example project: tracked,
# untracked and ignored files, a nested directory, a plain C++ file without
# CUDA, symbolic links (inside and leaving the repository) and a submodule.
# Sourced by the CLI tests; needs git.
make_fixture() {
	repo=$1
	example=$2
	rm -rf "$repo" "$repo-outside" "$repo-sub"
	mkdir -p "$repo" "$repo-outside" "$repo-sub"
	cp -r "$example/." "$repo/"
	(
		cd "$repo" || exit 1
		git init -q .
		git config user.name "hipport tests"
		git config user.email "tests@hipport.invalid"
		printf 'build/\n*.gen.cu\n' >.gitignore
		mkdir -p build deep/er/still
		cp src/transpose.cu build/ignored.cu
		cp src/transpose.cu kernel.gen.cu
		cp src/transpose.cu deep/er/still/nested.cu
		printf '#include <vector>\nint twice(int x) { return 2 * x; }\n' >plain.cpp
		git add -A
		git commit -q -m "fixture"
		cp src/histogram.cu untracked.cu
		printf 'cudaFree(p);\n' >"$repo-outside/away.cu"
		ln -s "$repo-outside/away.cu" leaving.cu
		ln -s src/transpose.cu inside-link.cu
	) || return 1
	(
		cd "$repo-sub" && git init -q . && git config user.name t && git config user.email t@t &&
			cp "$example/src/transpose.cu" sub.cu && git add -A && git commit -q -m sub
	) || return 1
	(
		cd "$repo" && git -c protocol.file.allow=always submodule -q add "$repo-sub" vendor/sub >/dev/null 2>&1 &&
			git commit -q -m "submodule"
	) || return 1
}
