# bash completion for hipport: commands, their options, finding ids.
_hipport_ids() {
	hipport explain 2>/dev/null | awk '{ print $1 }'
}

_hipport() {
	local cur prev cmd i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-C) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	local common="--target-hip= --kernel-launch= --hip-kernel-execution-syntax --roc --experimental --rules
		--color --no-color --quiet --verbose --help"
	local walk="--jobs --no-cache --max-size= -p --compile-commands"
	case $cmd in
	"")
		COMPREPLY=($(compgen -W "apply check commit diff doctor explain query review scan status sync translate --version --help -C" -- "$cur"))
		return ;;
	explain)
		COMPREPLY=($(compgen -W "$(_hipport_ids)" -- "$cur"))
		return ;;
	esac
	case $cur in
	--fix=* | --suppress=*)
		local pre=${cur%%=*}= ids=${cur#*=}
		COMPREPLY=($(compgen -P "$pre${ids%${ids##*,}}" -W "all $(_hipport_ids)" -- "${ids##*,}"))
		return ;;
	--format=*)
		COMPREPLY=($(compgen -P --format= -W "text json sarif" -- "${cur#--format=}"))
		return ;;
	--kernel-launch=*)
		COMPREPLY=($(compgen -P --kernel-launch= -W "keep hip" -- "${cur#--kernel-launch=}"))
		return ;;
	--offload-arch=*)
		COMPREPLY=($(compgen -P --offload-arch= -W "gfx906 gfx908 gfx90a gfx940 gfx942 gfx950 gfx1030 gfx1100 gfx1201" \
			-- "${cur#--offload-arch=}"))
		return ;;
	--fail-on=*)
		COMPREPLY=($(compgen -P --fail-on= -W "error warning note" -- "${cur#--fail-on=}"))
		return ;;
	-*)
		local opts=$common
		case $cmd in
		scan) opts="$opts $walk --format= --fail-on= --suppress= --no-analysis" ;;
		translate) opts="$opts --output --fix= -p --compile-commands" ;;
		diff) opts="$opts $walk --fix=" ;;
		apply) opts="$opts $walk --fix= --undo" ;;
		status) opts="$opts $walk --format=" ;;
		review) opts="$opts $walk --script --size --no-mouse" ;;
		query) opts="$opts --format=" ;;
		doctor) opts="--offload-arch= --format= --color --no-color --quiet --verbose --help" ;;
		check) opts="$opts $walk --offload-arch= --fix= --draft-spec --from-record --bundle --slurm --submit --import --record --compare --tune --stale --resources --timeout" ;;
		commit) opts="$opts $walk --offload-arch= -m --message --branch --force" ;;
		sync) opts="$opts --from --to -p --compile-commands" ;;
		esac
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return ;;
	esac
	# check's verbs, right after the command
	if [[ $cmd == check && $prev == check ]]; then
		COMPREPLY=($(compgen -W "draft bundle run import compare submit tune" -- "$cur") $(compgen -f -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _hipport hipport
