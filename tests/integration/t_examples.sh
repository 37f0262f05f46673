#!/bin/sh
# Issue 3: every job file of fio's examples either passes --parse-only or is refused
# with one line naming its unsupported engine, or (in one line) for a value fio's --parse-only
# refuses too (rdmaio-client.fio's port=[port]). ${VAR}s the files use get placeholders.
. "$(dirname "$0")/../lib.sh"
EX="$TOP/../shared/fio-examples"
if [ ! -d "$EX" ]; then
	skip "fio example corpus" "$EX is not there"
	exit 0
fi
parsed=0 refused=0 offload=0 total=0
for f in "$EX"/*.fio; do
	total=$((total + 1))
	vars=$(grep -o '\${[A-Za-z_0-9]*}' "$f" | tr -d '${}' | sort -u)
	envs=""
	for v in $vars; do
		case $v in *RW*) envs="$envs $v=randread" ;; *) envs="$envs $v=1" ;; esac
	done
	# shellcheck disable=SC2086
	env $envs "$IOBENCH" --parse-only "$f" >"$T/out" 2>"$T/err"
	rc=$?
	name=$(basename "$f")
	if [ $rc -eq 0 ] && [ ! -s "$T/err" ] && [ ! -s "$T/out" ]; then
		parsed=$((parsed + 1))
	elif [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "ioengine: unknown engine '" "$T/err"; then
		refused=$((refused + 1))
	elif [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q "io_submit_mode=offload: needs a synchronous engine" "$T/err"; then
		offload=$((offload + 1)) # fio 3.33 hangs on these (docs/differences.md)
	elif [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && have fio &&
		! (cd "$T" && env $envs fio --parse-only "$f" >/dev/null 2>&1); then # shellcheck disable=SC2086
		refused=$((refused + 1)) # a placeholder value, which fio refuses as well
	else
		notok "$name: neither parsed nor refused for its engine (exit $rc)"
		sed 's/^/#   /' "$T/err" | head -3
	fi
done
echo "# fio examples: $total files, $parsed parse, $refused refused for an unsupported engine or as fio refuses them, $offload for offload with an async engine"
check "all $total example job files accounted for ($parsed parse, $refused refused for their engine, $offload for io_submit_mode=offload with libaio)" \
	[ $((parsed + refused + offload)) -eq "$total" ]
check "the offload refusals are fio's two offload examples" [ "$offload" -le 2 ]
check "at least 35 of them parse" [ "$parsed" -ge 35 ]
