# The http engine's S3 mode against the RADOS Gateway (sourced by tests/ceph/t_ceph.sh, inside
# its namespaces, once radosgw answers on 127.0.0.1:8000 and the S3 user $AK / $SK exists;
# uses its ok/notok/check, $O, $C and $IOBENCH). Debian's fio 3.33 has no http engine, so
# the evidence is the gateway's own accounting and another S3 client:
# - PUT jobs of 4 KiB objects (4 jobs x 256) and 4 MiB objects (16): iobench's total_ios and
#   io_bytes equal the gateway's counters (perf dump: rgw put / put_b), `radosgw-admin
#   bucket stats` (num_objects, size) and the bucket's listing (s3cmd ls: names FILE_OFFSET_LEN,
#   sizes);
# - s3cmd reads objects back: the 4 MiB ones equal the buffer_pattern iobench wrote (sha256),
#   and every object's MD5 is the ETag the gateway computed when it received it;
# - GET jobs (randread) of the same objects: total_ios / io_bytes = the gateway's get / get_b;
#   verify=crc32c over S3 (written, read back, checked) (the gateway's get_b is one byte short
#   per object: counted in);
# - trims DELETE every object (bucket stats back to 0 objects);
# - a wrong secret: HTTP 403 SignatureDoesNotMatch, an I/O error, exit 1; fio's http-s3.fio
#   pointed at the gateway;
# - each put/get job's object rate and latencies (mean, p50, p90, p99) against the gateway's
#   own: the count and time window of the requests in its access log, each request's latency
#   logged there, and its put/get_initial_lat counter (sum / count) (tests/ceph/rgw_lat.py
#   says what is compared, and within what); both printed side by side as a table.
RGW=127.0.0.1:8000
ASOK="$C/run/ceph-client.rgw.gw.asok"
S3J="--ioengine=http --http_mode=s3 --http_host=$RGW --http_s3_keyid=$AK --http_s3_key=$SK"
cat >"$O/s3cfg" <<EOF
[default]
access_key = $AK
secret_key = $SK
host_base = $RGW
host_bucket = $RGW
use_https = False
signature_v2 = False
EOF
s3c() { s3cmd -c "$O/s3cfg" --no-progress "$@"; }
bstat() { radosgw-admin bucket stats --bucket=iob 2>/dev/null | jq -c '[.usage["rgw.main"].num_objects // 0, .usage["rgw.main"].size // 0]'; }

if s3c mb s3://iob >"$O/s3-mb.log" 2>&1; then
	ok "s3cmd makes bucket iob on the gateway"
else
	notok "s3cmd makes bucket iob on the gateway"
	sed 's/^/#   /' "$O/s3-mb.log" | head -3
fi
: >"$O/s3-figures"
RGWLOG="$C/log/ceph-client.rgw.gw.log"
# s3job TAG METHOD DIR COUNTER args...: one iobench job; its total_ios / io_bytes against the
# gateway's COUNTER and COUNTER_b deltas; its object rate and latencies against the gateway's
# (tests/ceph/rgw_lat.py: its access log's per-request latencies and COUNTER_initial_lat).
s3job() {
	tag=$1 m=$2 dir=$3 c=$4
	shift 4
	ceph --admin-daemon "$ASOK" perf dump >"$O/$tag.perf0" 2>/dev/null
	off=$(stat -c %s "$RGWLOG")
	"$IOBENCH" $S3J "$@" --group_reporting --output-format=json >"$O/$tag.json" 2>"$O/$tag.err"
	rc=$?
	ceph --admin-daemon "$ASOK" perf dump >"$O/$tag.perf1" 2>/dev/null
	n0=$(jq -r ".rgw.$c // \"none\"" "$O/$tag.perf0") b0=$(jq -r ".rgw.${c}_b" "$O/$tag.perf0")
	n1=$(jq -r ".rgw.$c" "$O/$tag.perf1") b1=$(jq -r ".rgw.${c}_b" "$O/$tag.perf1")
	ios=$(jq ".jobs[0].$dir.total_ios" "$O/$tag.json" 2>/dev/null) bytes=$(jq ".jobs[0].$dir.io_bytes" "$O/$tag.json" 2>/dev/null)
	# Ceph 16's get_b counts each GET's bytes as the offset of its last byte (one short per
	# object: 4193280 for 1024 GETs of 4096 bytes, seen here); put_b counts them all.
	short=0
	[ "$c" = get ] && short=${ios:-0}
	if [ $rc -eq 0 ] && [ "$n0" != none ] && [ "$ios" -gt 0 ] && [ "$ios" -eq $((n1 - n0)) ] &&
		[ "$bytes" -eq $((b1 - b0 + short)) ]; then
		ok "s3 $tag: iobench's $ios ${dir}s, $bytes bytes = the gateway's $c counters ($c $((n1 - n0)), ${c}_b $((b1 - b0))$([ $short = 0 ] || echo " + 1 per object"))"
	else
		notok "s3 $tag: exit $rc; iobench $ios ios, $bytes bytes; gateway $c $n0 -> $n1, ${c}_b $b0 -> $b1"
		sed 's/^/#   /' "$O/$tag.err" | head -3
	fi
	if line=$(python3 "$TOP/tests/ceph/rgw_lat.py" "$RGWLOG" "$off" "$m" "$O/$tag.json" "$dir" "$O/$tag.perf0" \
		"$O/$tag.perf1" "$c" 2>"$O/$tag.lat"); then
		ok "s3 $tag: object rate and latencies match the gateway's: $line"
	else
		notok "s3 $tag: object rate and latencies against the gateway's: $line"
	fi
	printf '%s\t%s\t%s\n' "$tag" "$(head -1 "$O/$tag.lat")" "$(jq '.jobs[0].'"$dir"'.bw / 1024' "$O/$tag.json" 2>/dev/null)" \
		>>"$O/s3-figures"
}
s3job put-4k PUT write put --name=p4 --filename_format='/iob/o4k.$jobnum' --numjobs=4 --rw=write --bs=4k --size=1m
s3job put-4m PUT write put --name=p4m --filename=/iob/o4m --rw=write --bs=4m --size=64m --buffer_pattern=0x1badcafe
check "s3: bucket stats count 1040 objects, 4 MiB + 64 MiB ($(bstat))" [ "$(bstat)" = "[1040,71303168]" ]
s3c ls s3://iob >"$O/s3-ls.txt" 2>&1
check "s3: the listing (s3cmd ls) holds 1024 objects o4k.J_OFF_4096 of 4096 bytes and 16 o4m_OFF_4194304 of 4 MiB" \
	sh -c "[ \$(grep -cE ' 4096 +s3://iob/o4k\.[0-3]_[0-9]+_4096\$' '$O/s3-ls.txt') -eq 1024 ] &&
		[ \$(grep -cE ' 4194304 +s3://iob/o4m_[0-9]+_4194304\$' '$O/s3-ls.txt') -eq 16 ]"
# The pattern iobench wrote, 4 MiB of it, made here independently.
python3 -c "import sys; sys.stdout.buffer.write(bytes.fromhex('1badcafe') * (1 << 20))" >"$O/pattern4m"
s3c get --force s3://iob/o4m_8388608_4194304 "$O/got4m" >/dev/null 2>&1
s3c get --force s3://iob/o4k.2_512000_4096 "$O/got4k" >/dev/null 2>&1
check "s3: s3cmd reads a 4 MiB object back: its sha256 is that of the buffer_pattern iobench wrote" \
	[ "$(sha256sum <"$O/got4m" | cut -d' ' -f1)" = "$(sha256sum <"$O/pattern4m" | cut -d' ' -f1)" ]
s3c ls --list-md5 s3://iob/o4k.2_512000_4096 >"$O/s3-md5.txt" 2>&1
check "s3: a 4 KiB object read back by s3cmd has the MD5 the gateway computed on upload (ETag)" \
	sh -c "[ \$(stat -c %s '$O/got4k') -eq 4096 ] && grep -q \"\$(md5sum <'$O/got4k' | cut -d' ' -f1)\" '$O/s3-md5.txt'"
s3job get-4k GET read get --name=p4 --filename_format='/iob/o4k.$jobnum' --numjobs=4 --rw=randread --bs=4k --size=1m
s3job get-4m GET read get --name=p4m --filename=/iob/o4m --rw=randread --bs=4m --size=64m
"$IOBENCH" $S3J --name=v --filename=/iob/v --rw=randwrite --bs=64k --size=4m --verify=crc32c --output-format=json \
	>"$O/s3-v.json" 2>"$O/s3-v.err"
check "s3: verify=crc32c: 64 objects of 64k written, read back and checked" \
	[ "$(jq -c '[.jobs[0].write.io_bytes, .jobs[0].read.io_bytes, .jobs[0].error]' "$O/s3-v.json")" = "[4194304,4194304,0]" ]
"$IOBENCH" $S3J --name=t --filename_format='/iob/o4k.$jobnum' --numjobs=4 --rw=trim --bs=4k --size=1m \
	--name=t4m $S3J --filename=/iob/o4m --rw=trim --bs=4m --size=64m \
	--name=tv $S3J --filename=/iob/v --rw=trim --bs=64k --size=4m --output-format=json >"$O/s3-t.json" 2>"$O/s3-t.err"
check "s3: trims DELETE all 1104 objects: iobench counts them, the bucket is empty ($(bstat))" \
	sh -c "[ \"\$(jq '[.jobs[].trim.total_ios] | add' '$O/s3-t.json')\" -eq 1104 ] && [ '$(bstat)' = '[0,0]' ] && [ -z \"\$(s3c ls s3://iob 2>/dev/null)\" ]"
"$IOBENCH" --ioengine=http --http_mode=s3 --http_host=$RGW --http_s3_keyid="$AK" --http_s3_key=wrong --name=k \
	--filename=/iob/k --rw=write --bs=4k --size=16k --output-format=json >"$O/s3-k.json" 2>"$O/s3-k.err"
rc=$?
check "s3: a wrong secret: the gateway's 403 SignatureDoesNotMatch is an I/O error (EACCES), exit $rc" \
	sh -c "[ $rc -eq 1 ] && [ \$(jq '.jobs[0].error' '$O/s3-k.json') -eq 13 ] && grep -q 'HTTP 403 Forbidden SignatureDoesNotMatch' '$O/s3-k.err'"
EX=""
for d in "$TOP/../shared/fio-examples" "$TOP/../../shared/fio-examples"; do [ -f "$d/http-s3.fio" ] && EX=$d; done
if [ -n "$EX" ] && s3c mb s3://larsmb-fio-test >/dev/null 2>&1; then
	sed -e "s/^http_host=.*/http_host=$RGW/" -e 's/^https=on/https=off/' "$EX/http-s3.fio" >"$O/http-s3.fio"
	S3_KEY=$SK S3_ID=$AK "$IOBENCH" --output-format=json "$O/http-s3.fio" >"$O/s3-ex.json" 2>"$O/s3-ex.err"
	check "s3: fio's http-s3.fio on the gateway: one 4k object written, verified (sha256), deleted" \
		sh -c "[ \"\$(jq -c '[.jobs[] | [.write.io_bytes, .read.io_bytes, .trim.io_bytes, .error]]' '$O/s3-ex.json')\" = '[[4096,4096,0,0],[0,0,4096,0]]' ] && [ -z \"\$(s3c ls s3://larsmb-fio-test 2>/dev/null)\" ]"
	s3c rb s3://larsmb-fio-test >/dev/null 2>&1
else
	ok "s3: fio's http-s3.fio on the gateway # SKIP no fio-examples folder, or no bucket"
fi
s3c rb s3://iob >/dev/null 2>&1
check "s3: bucket iob removed" sh -c "! radosgw-admin bucket stats --bucket=iob >/dev/null 2>&1"
echo
echo "| S3 on radosgw (1 OSD), iobench http engine | objects/s iobench / gateway | mean ms iobench / gateway | p50 ms | p90 ms | p99 ms | max ms | MiB/s |"
echo "|---|---|---|---|---|---|---|---|"
while IFS="$(printf '\t')" read -r t ri rg mi mg p50i p50g p90i p90g p99i p99g mxi mxg bw; do
	printf '| %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %.1f |\n' "$t" "$ri" "$rg" "$mi" "$mg" \
		"$p50i" "$p50g" "$p90i" "$p90g" "$p99i" "$p99g" "$mxi" "$mxg" "${bw:-0}"
done <"$O/s3-figures"
echo
