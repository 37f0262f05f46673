#!/bin/sh
# Issue 16: every option of fio 3.33's HOWTO is known to iobench (--cmdhelp=OPT finds it, in
# the core's tables, an engine's or a profile's), and every engine the HOWTO names for an
# engine option is one iobench knows (--enghelp=ENGINE), carried out or refused in one line.
. "$(dirname "$0")/../lib.sh"
HOWTO=/usr/share/doc/fio/HOWTO.rst.gz
if [ ! -r "$HOWTO" ]; then
	skip "fio's HOWTO" "$HOWTO is not there (Debian's fio package)"
	exit 0
fi
# Options known to be on their way (listed as a skip, not counted as missing): none now.
PENDING=""
# ".. option:: name=type, alias=type : [engine] [engine]": every name, one a line.
zcat "$HOWTO" | sed -n 's/^\.\. option:: //p' | grep -v '^-' | sed 's/ : .*//' |
	awk -F', ' '{ for (i = 1; i <= NF; i++) { n = $i; sub(/[=[ ].*/, "", n); sub(/,$/, "", n); print n } }' |
	sort -u >"$T/names"
total=$(wc -l <"$T/names")
: >"$T/missing"
: >"$T/pending"
while read -r opt; do
	"$IOBENCH" --cmdhelp="$opt" >/dev/null 2>&1 && continue
	case " $(echo $PENDING) " in
	*" $opt "*) echo "$opt" >>"$T/pending" ;;
	*) echo "$opt" >>"$T/missing" ;;
	esac
done <"$T/names"
echo "# $total option names in the HOWTO; missing: $(tr '\n' ' ' <"$T/missing")"
check "all $total option names of fio 3.33's HOWTO are known (--cmdhelp finds each)" [ ! -s "$T/missing" ]
[ -s "$T/pending" ] && skip "$(wc -l <"$T/pending") option of another branch" \
	"the log options': $(tr '\n' ' ' <"$T/pending")"
check "at least 300 option names were read from the HOWTO" [ "$total" -ge 300 ]
# log_compression_cpus, the last of them: a CPU list as cpus_allowed's, in "job options" as fio
# prints it; a bad list refused in one line.
if have fio && have jq; then
	J="--name=x --ioengine=null --size=1m --log_compression_cpus=0 --output-format=json"
	# shellcheck disable=SC2086
	check "log_compression_cpus=0: the job options fio prints" [ "$(fio $J 2>/dev/null | jq -c '.jobs[0]["job options"]')" = \
		"$("$IOBENCH" $J 2>/dev/null | jq -c '.jobs[0]["job options"]')" ]
fi
"$IOBENCH" --name=x --ioengine=null --size=1m --log_compression_cpus=abc >"$T/lc.out" 2>"$T/lc.err"
check "log_compression_cpus=abc: refused in one line naming the option, exit 1" \
	sh -c "[ $? -eq 1 ] && [ \$(wc -l <'$T/lc.err') -eq 1 ] && grep -q 'log_compression_cpus' '$T/lc.err' && [ ! -s '$T/lc.out' ]"

# The engines the HOWTO's engine options are for ("[libaio]", "[rbd,rados]", "[librpma_*]").
zcat "$HOWTO" | sed -n 's/^\.\. option:: .* : //p' | grep -o '\[[^]]*\]' | tr -d '[]' | tr ',' '\n' |
	sed 's/^ *//' | grep -v '^$' | sort -u >"$T/engines"
: >"$T/eng_missing"
while read -r eng; do
	case $eng in
	librpma_\*_server) set -- librpma_apm_server librpma_gpspm_server ;;
	librpma_\*) set -- librpma_apm_client librpma_apm_server librpma_gpspm_client librpma_gpspm_server ;;
	*) set -- "$eng" ;;
	esac
	for e in "$@"; do
		"$IOBENCH" --enghelp="$e" >/dev/null 2>&1 || echo "$e" >>"$T/eng_missing"
	done
done <"$T/engines"
check "every engine the HOWTO's engine options name is known ($(wc -l <"$T/engines") names; missing: $(tr '\n' ' ' <"$T/eng_missing"))" \
	[ ! -s "$T/eng_missing" ]
# Each engine option lives with its engine, as fio's --enghelp=ENGINE lists it.
enghelp_has() { # engine option
	"$IOBENCH" --enghelp="$1" 2>/dev/null | grep -q "^$2 *:"
}
for pair in sg:readfua sg:writefua sg:sg_write_mode sg:stream_id sg:hipri pvsync2:hipri_percentage \
	pvsync2:nowait libaio:nowait io_uring:nowait io_uring:force_async io_uring:cmd_type io_uring_cmd:cmd_type \
	io_uring_cmd:force_async rdma:verb rdma:bindname rdma:port rdma:hostname libhdfs:namenode libhdfs:port \
	libhdfs:hdfsdirectory libhdfs:chunk_size libhdfs:single_instance libhdfs:hdfs_use_direct dfs:pool dfs:cont \
	dfs:chunk_size dfs:object_class dfs:svcl mtd:skip_bad nfs:nfs_url libcufile:gpu_dev_ids libcufile:cuda_io \
	xnvme:xnvme_async xnvme:xnvme_sync xnvme:xnvme_admin xnvme:xnvme_dev_nsid xnvme:xnvme_iovec xnvme:hipri \
	xnvme:sqthread_poll librpma_apm_client:serverip librpma_apm_client:direct_write_to_pmem \
	librpma_gpspm_server:busy_wait_polling; do
	check "--enghelp=${pair%%:*} lists ${pair#*:}" enghelp_has "${pair%%:*}" "${pair#*:}"
done
