#!/bin/sh
# Issue 17: the http engine (WebDAV, Swift, S3 with SigV4) against a small local object server
# (tests/tools/http_server.py: stdlib, 127.0.0.1, a free port) that recomputes each SigV4
# signature itself and counts requests and bytes. Debian's fio 3.33 has no http engine, so
# the evidence is the server's own accounting: iobench's JSON io_bytes / total_ios per
# direction equal the PUT / GET / DELETE requests and bytes the server counted; verify reads
# back what was written; a wrong key is 403 (an I/O error, exit 1, the server's answer in the
# error line); HTTPS with a self-signed certificate (insecure: works; on: refused); fio's
# example job files parse and run pointed at the server; hostile inputs are one line, exit 1,
# in seconds. S3 against a real RADOS Gateway: make test-ceph (tests/ceph/t_s3.sh).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; [ -n "${KEEP:-}" ] && cp -r "$T" /tmp/t_http_keep; rm -rf "$T"' EXIT INT TERM

"$IOBENCH" --enghelp >eng.txt
check "--enghelp lists http" grep -qx '	http' eng.txt
"$IOBENCH" --enghelp=http | cut -d' ' -f1 | cut -d: -f1 | tr '\n' ' ' >opts.txt
check "--enghelp=http: fio's options, in the HOWTO's order" [ "$(cat opts.txt)" = "http_host http_user http_pass https \
http_mode http_s3_region http_s3_key http_s3_keyid http_s3_sse_customer_key http_s3_sse_customer_algorithm \
http_s3_storage_class http_swift_auth_token http_verbose " ]
check "./iobench is not linked with libcurl (it is loaded when a job asks)" sh -c "! ldd '$IOBENCH' | grep -q libcurl"

# One line on stderr containing $2, nothing on stdout, exit 1, within 20 s.
refused() { # description, text, command...
	d=$1 want=$2
	shift 2
	s=$(date +%s)
	timeout 20 "$@" >out.txt 2>err.txt
	rc=$?
	took=$(($(date +%s) - s))
	if [ $rc -eq 1 ] && [ ! -s out.txt ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -qF -- "$want" err.txt; then
		ok "$d (${took} s)"
	else
		notok "$d (exit $rc, ${took} s)"
		sed 's/^/#   /' err.txt | head -3
	fi
}
JOB="--name=j --ioengine=http --rw=write --bs=4k --size=16k"
# shellcheck disable=SC2086
refused "without libcurl: one line naming the Debian package libcurl4" \
	"iobench: job 'j': ioengine=http: libcurl.so.4 is not installed (install the Debian package libcurl4: apt-get install libcurl4)" \
	env IOBENCH_TEST_HIDE_LIBS=libcurl.so.4 "$IOBENCH" $JOB --http_host=127.0.0.1:1
# shellcheck disable=SC2086
check "--parse-only takes every http option without loading libcurl" env IOBENCH_TEST_HIDE_LIBS=libcurl.so.4 \
	"$IOBENCH" --parse-only $JOB --http_host=h:1 --http_user=u --http_pass=p --https=insecure --http_mode=s3 \
	--http_s3_region=eu-central-1 --http_s3_key=k --http_s3_keyid=i --http_s3_sse_customer_key=x \
	--http_s3_sse_customer_algorithm=AES256 --http_s3_storage_class=STANDARD_IA --http_swift_auth_token=t --http_verbose=2
refused "http_mode=ftp: refused naming the option" "http_mode" "$IOBENCH" $JOB --http_mode=ftp
refused "https=maybe: refused naming the option" "https" "$IOBENCH" $JOB --https=maybe
refused "an http option for another engine is refused" "option 'http_host' is for the http engine, not psync" \
	"$IOBENCH" --name=j --size=1m --http_host=h
if [ -x "$TOP/iobench-static" ]; then
	# shellcheck disable=SC2086
	refused "iobench-static: an http job is refused in one line naming the dynamic iobench" \
		"ioengine=http is compiled out of this static binary (libcurl.so.4 can be neither" "$TOP/iobench-static" $JOB
else
	skip "iobench-static refuses http jobs" "no ./iobench-static (make static; t_engine_libs.sh builds it as root)"
fi

if ! ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4 '; then
	skip "http jobs against a local WebDAV/S3 server" "libcurl4 is not installed (apt-get install libcurl4)"
	exit 0
fi
if ! have python3 || ! have jq; then
	skip "http jobs against a local WebDAV/S3 server" "needs python3 and jq"
	exit 0
fi

AK=AKIDIOBENCHTEST SK=secret/iobench+key
# serve NAME [args...]: a server in the background; its port in $PORT_NAME's file.
serve() {
	n=$1
	shift
	python3 "$TOP/tests/tools/http_server.py" --port-file "$n.port" --accounting "$n.json" --keyid "$AK" --key "$SK" \
		--region us-east-1,eu-central-1 --user alice --password 's3cr3t' --token tok123 --lifetime 300 "$@" 2>"$n.log" &
	PIDS="$PIDS $!"
	i=0
	while [ ! -s "$n.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$n.port" ]
}
if ! serve plain; then
	notok "the test server starts on 127.0.0.1"
	sed 's/^/#   /' plain.log | head -5
	exit 1
fi
HOST=127.0.0.1:$(cat plain.port)
S3="--ioengine=http --http_host=$HOST --http_mode=s3 --http_s3_keyid=$AK --http_s3_key=$SK"
DAV="--ioengine=http --http_host=$HOST --http_mode=webdav --http_user=alice --http_pass=s3cr3t"

# acct FILE METHOD: "ok-requests bytes" the server counted for that method so far.
acct() { jq -r --arg m "$2" '"\(.[$m].ok) \(.[$m].bytes)"' "$1"; }
# ios JSON DIR: "total_ios io_bytes" of iobench's first job in that direction.
ios() { jq -r --arg d "$2" '"\(.jobs[0][$d].total_ios) \(.jobs[0][$d].io_bytes)"' "$1"; }
# same TAG JSON DIR METHOD BEFORE: iobench's count and bytes equal the server's, since BEFORE.
same() {
	read -r n0 b0 <<EOF
$5
EOF
	read -r n1 b1 <<EOF
$(acct plain.json "$4")
EOF
	read -r in ib <<EOF
$(ios "$2" "$3")
EOF
	if [ "$in" -gt 0 ] && [ "$in" -eq $((n1 - n0)) ] && [ "$ib" -eq $((b1 - b0)) ]; then
		ok "$1: iobench's $3 total_ios/io_bytes ($in, $ib) = the server's $4 requests/bytes"
	else
		notok "$1: iobench $3 $in ios, $ib bytes; the server $4 $((n1 - n0)) requests, $((b1 - b0)) bytes"
		sed 's/^/#   /' "$2.err" 2>/dev/null | head -3
	fi
}
# run TAG DIR METHOD args...: one job, JSON, compared with the server's accounting.
run() {
	tag=$1 dir=$2 m=$3
	shift 3
	before=$(acct plain.json "$m")
	"$IOBENCH" "$@" --output-format=json >"$tag.json" 2>"$tag.json.err"
	rc=$?
	[ $rc -eq 0 ] || { notok "$tag: exit $rc"; sed 's/^/#   /' "$tag.json.err" | head -3; return; }
	same "$tag" "$tag.json" "$dir" "$m" "$before"
}
objects() { jq -r '.objects' plain.json; }

# shellcheck disable=SC2086
for mode in webdav s3; do
	[ $mode = s3 ] && A=$S3 || A=$DAV
	for bs in 4k 1m; do
		size=64k
		[ $bs = 1m ] && size=4m
		run "$mode $bs write" write PUT --name=w $A --filename=/bkt/$mode-$bs --rw=write --bs=$bs --size=$size
		check "$mode $bs: the server holds $size in $( [ $bs = 4k ] && echo 16 || echo 4) objects named FILE_OFFSET_LEN" \
			sh -c "jq -e --arg p '/bkt/$mode-${bs}_' '[.names[] | select(startswith(\$p))] | length == $( [ $bs = 4k ] && echo 16 || echo 4)' plain.json >/dev/null && jq -e '.names | index(\"/bkt/$mode-${bs}_0_$( [ $bs = 4k ] && echo 4096 || echo 1048576)\")' plain.json >/dev/null"
		run "$mode $bs randread" read GET --name=r $A --filename=/bkt/$mode-$bs --rw=randread --bs=$bs --size=$size
		run "$mode $bs trim" trim DELETE --name=t $A --filename=/bkt/$mode-$bs --rw=trim --bs=$bs --size=$size
	done
	check "$mode: every object deleted by the trims" [ "$(objects)" -eq 0 ]
	run "$mode 16k verify=crc32c, 2 jobs x 2 files" read GET --name=v $A --filename_format='/bkt/v.$jobnum.$filenum' \
		--nrfiles=2 --numjobs=2 --group_reporting --rw=randwrite --bs=16k --size=256k --verify=crc32c
	check "$mode: verify read back every block written, no error" \
		sh -c "[ \"\$(jq '.jobs[0].write.io_bytes, .jobs[0].read.io_bytes, .jobs[0].error' '$mode 16k verify=crc32c, 2 jobs x 2 files.json' | tr '\n' ' ')\" = '524288 524288 0 ' ]"
	"$IOBENCH" --name=t $A --filename_format='/bkt/v.$jobnum.$filenum' --nrfiles=2 --numjobs=2 --rw=trim --bs=16k \
		--size=256k >/dev/null 2>&1
	check "$mode: those 32 objects trimmed away" [ "$(objects)" -eq 0 ]
done
run "swift 64k write (X-Auth-Token)" write PUT --name=w --ioengine=http --http_host="$HOST" --http_mode=swift \
	--http_swift_auth_token=tok123 --filename=/v1/c/sw --rw=write --bs=64k --size=256k
run "swift 64k read" read GET --name=r --ioengine=http --http_host="$HOST" --http_mode=swift \
	--http_swift_auth_token=tok123 --filename=/v1/c/sw --rw=read --bs=64k --size=256k
"$IOBENCH" --name=t --ioengine=http --http_host="$HOST" --http_mode=swift --http_swift_auth_token=tok123 \
	--filename=/v1/c/sw --rw=trim --bs=64k --size=256k >/dev/null 2>&1
# io_submit_mode=offload: each submitter thread knows the job's files (it crashed on a NULL
# object name before)
# shellcheck disable=SC2086
run "s3 io_submit_mode=offload, iodepth=4, 2 files" write PUT --name=o $S3 --filename_format='/bkt/off.$filenum' \
	--nrfiles=2 --rw=randwrite --bs=4k --size=64k --io_submit_mode=offload --iodepth=4
"$IOBENCH" --name=t $S3 --filename_format='/bkt/off.$filenum' --nrfiles=2 --rw=trim --bs=4k --size=64k >/dev/null 2>&1

# ---- what the server refuses is an I/O error, as fio reports one ----
# errjob TAG ERRNO TEXT args...: exit 1, the JSON's error is ERRNO, the error line names TEXT.
errjob() {
	tag=$1 want=$2 text=$3
	shift 3
	timeout 20 "$IOBENCH" "$@" --output-format=json >e.json 2>e.err
	rc=$?
	if [ $rc -eq 1 ] && [ "$(jq '.jobs[0].error' e.json)" = "$want" ] && grep -qF -- "$text" e.err &&
		[ "$(grep -c 'io_u error' e.err)" -eq 1 ]; then
		ok "$tag: exit 1, error $want, '$text' in the io_u error line"
	else
		notok "$tag (exit $rc, error $(jq '.jobs[0].error' e.json 2>/dev/null))"
		sed 's/^/#   /' e.err | head -3
	fi
}
# shellcheck disable=SC2086
errjob "s3 with a wrong secret key: HTTP 403" 13 "(PUT http://$HOST/bkt/x_0_4096: HTTP 403 Forbidden SignatureDoesNotMatch)" \
	--name=k --ioengine=http --http_host="$HOST" --http_mode=s3 --http_s3_keyid=$AK --http_s3_key=wrong \
	--filename=/bkt/x --rw=write --bs=4k --size=16k
# shellcheck disable=SC2086
errjob "s3 with an unknown key id: HTTP 403" 13 "HTTP 403 Forbidden InvalidAccessKeyId" \
	--name=k --ioengine=http --http_host="$HOST" --http_mode=s3 --http_s3_keyid=nobody --http_s3_key=$SK \
	--filename=/bkt/x --rw=write --bs=4k --size=16k
# shellcheck disable=SC2086
errjob "s3 signed for another region: HTTP 400" 22 "HTTP 400 Bad Request AuthorizationHeaderMalformed" \
	$S3 --http_s3_region=ap-south-1 --name=k --filename=/bkt/x --rw=write --bs=4k --size=16k
errjob "webdav with a wrong password: HTTP 401" 13 "HTTP 401 Unauthorized" --name=k --ioengine=http \
	--http_host="$HOST" --http_user=alice --http_pass=wrong --filename=/dav/x --rw=write --bs=4k --size=16k
# shellcheck disable=SC2086
errjob "s3 reading objects never written: HTTP 404" 2 "(GET http://$HOST/bkt/none_0_4096: HTTP 404 Not Found NoSuchKey)" \
	$S3 --name=k --filename=/bkt/none --rw=read --bs=4k --size=16k
errjob "swift with a wrong token: HTTP 401" 13 "HTTP 401 Unauthorized" --name=k --ioengine=http \
	--http_host="$HOST" --http_mode=swift --http_swift_auth_token=bad --filename=/v1/c/x --rw=write --bs=4k --size=16k
check "the refused requests stored nothing" [ "$(objects)" -eq 0 ]
# shellcheck disable=SC2086
timeout 20 "$IOBENCH" $S3 --name=c --filename=/bkt/none --rw=read --bs=4k --size=16k --continue_on_error=read \
	--output-format=json >coe.json 2>coe.err
rc=$?
check "continue_on_error=read: a 404 (ENOENT, not on fio's non-fatal list) still ends the job: 1 GET, exit $rc" \
	sh -c "[ $rc -eq 1 ] && [ \"\$(jq -c '[.jobs[0].error, .jobs[0].read.total_ios]' coe.json)\" = '[2,1]' ]"
timeout 20 "$IOBENCH" $S3 --name=c --filename=/bkt/none --rw=read --bs=4k --size=16k --continue_on_error=read \
	--ignore_error=ENOENT --output-format=json >coe.json 2>coe.err
rc=$?
check "continue_on_error=read with ignore_error=ENOENT: all 4 GETs tried, one error line and the count (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(jq -c '[.jobs[0].error, .jobs[0].read.total_ios]' coe.json)\" = '[2,4]' ] && grep -q '4 I/O errors in all' coe.err && [ \$(grep -c 'io_u error' coe.err) -eq 1 ]"

# ---- hostile inputs: one line, exit 1, nothing on stdout, no hang ----
refused "an unreachable host (a closed port)" \
	"iobench: job 'j': ioengine=http: http_host: cannot connect to http://127.0.0.1:1/: Failed to connect to 127.0.0.1 port 1" \
	"$IOBENCH" $JOB --http_host=127.0.0.1:1
if ! curl -s -o /dev/null --max-time 2 http://localhost:80/ 2>/dev/null; then
	refused "no http_host: fio's default localhost, unreachable here: one line" \
		"ioengine=http: http_host: cannot connect to http://localhost/" "$IOBENCH" $JOB
else
	skip "no http_host: fio's default localhost" "something answers on localhost:80 here"
fi
refused "an empty http_host" "ioengine=http: http_host: '' is not a host name or host:port" "$IOBENCH" $JOB --http_host=
refused "http_host with a path in it" "http_host: 'h/x' is not a host name" "$IOBENCH" $JOB --http_host=h/x
refused "http_host with CR LF in it (a header smuggled into the request)" "is not a host name" "$IOBENCH" $JOB "--http_host=$(printf 'h\r\nX-Injected: 1')"
refused "http_mode=s3 without keys" "http_mode=s3: http_s3_keyid and http_s3_key not given" \
	"$IOBENCH" $JOB --http_host="$HOST" --http_mode=s3
refused "http_mode=swift without a token" "http_mode=swift: http_swift_auth_token not given" \
	"$IOBENCH" $JOB --http_host="$HOST" --http_mode=swift
refused "no size=" "ioengine=http: size: not given" "$IOBENCH" --name=j --ioengine=http --http_host="$HOST" --rw=write
refused "--readonly refuses a write job" "--readonly is set" "$IOBENCH" --readonly $JOB --http_host="$HOST"
refused "http_verbose=3" "http_verbose" "$IOBENCH" $JOB --http_host="$HOST" --http_verbose=3
"$IOBENCH" $JOB --http_host="$HOST" --http_verbose=2 --output-format=json >v.json 2>v.err
check "http_verbose=2: one line per request on stderr, JSON alone on stdout" \
	sh -c "[ \$(grep -c '^iobench: http: PUT http://$HOST/j.0.0_[0-9]*_4096: HTTP 201, 4096 bytes' v.err) -eq 4 ] && jq -e . v.json >/dev/null"

# ---- HTTPS: a self-signed certificate for 127.0.0.1 ----
if have openssl && openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	-days 1 -keyout key.pem -out cert.pem >/dev/null 2>&1 && serve tls --tls cert.pem key.pem; then
	TLS=127.0.0.1:$(cat tls.port)
	"$IOBENCH" --name=s --ioengine=http --https=insecure --http_host="$TLS" --http_mode=s3 --http_s3_keyid=$AK \
		--http_s3_key=$SK --filename=/bkt/tls --rw=write --bs=64k --size=1m --verify=md5 --output-format=json \
		>tls.out 2>tls.err
	check "https=insecure: 16 PUTs and 16 verified GETs over TLS, as the TLS server counted them" \
		sh -c "[ \"\$(jq -r '\"\(.jobs[0].write.total_ios) \(.jobs[0].read.total_ios)\"' tls.out)\" = '16 16' ] && [ \"\$(jq -r '\"\(.PUT.ok) \(.GET.ok) \(.PUT.bytes)\"' tls.json)\" = '16 16 1048576' ]"
	refused "https=on with a certificate nobody signed: refused before any I/O" \
		"ioengine=http: http_host: cannot connect to https://$TLS/: SSL certificate problem: self-signed certificate" \
		"$IOBENCH" $JOB --https=on --http_host="$TLS"
	refused "https=on against a plain HTTP server" "ioengine=http: http_host: cannot connect to https://$HOST/" \
		"$IOBENCH" $JOB --https=on --http_host="$HOST"
else
	skip "https=insecure and https=on against a TLS server" "no openssl to make a certificate"
fi

# ---- fio's example job files, pointed at the server ----
EX=""
for d in "$TOP/../shared/fio-examples" "$TOP/../../shared/fio-examples"; do [ -f "$d/http-s3.fio" ] && EX=$d; done
if [ -z "$EX" ]; then
	skip "fio's examples http-s3.fio, http-webdav.fio, http-swift.fio" "the fio-examples folder is not there"
	exit 0
fi
check "fio's examples http-s3.fio, http-webdav.fio, http-swift.fio, http-s3-crypto.fio, http-s3-storage-class.fio parse" \
	env S3_KEY=k S3_ID=i SWIFT_id=t SSE_KEY=k STORAGE_CLASS=STANDARD "$IOBENCH" --parse-only "$EX/http-s3.fio" \
	"$EX/http-webdav.fio" "$EX/http-swift.fio" "$EX/http-s3-crypto.fio" "$EX/http-s3-storage-class.fio"
# point EXAMPLE: a copy talking to the plain server (http_host and https are all that change).
point() { sed -e "s/^http_host=.*/http_host=$HOST/" -e 's/^https=on/https=off/' "$EX/$1" >"$1"; }
point http-s3.fio
before_put=$(acct plain.json PUT)
S3_KEY=$SK S3_ID=$AK "$IOBENCH" --output-format=json http-s3.fio >ex-s3.json 2>ex-s3.json.err
check "http-s3.fio: create writes one 4k object and verifies it (sha256), trim deletes it, exit 0" \
	sh -c "[ \"\$(jq -c '[.jobs[] | [.jobname, .write.io_bytes, .read.io_bytes, .trim.io_bytes, .error]]' ex-s3.json)\" = '[[\"create\",4096,4096,0,0],[\"trim\",0,0,4096,0]]' ] && jq -e '[.names[] | select(startswith(\"/larsmb-fio-test/\"))] == []' plain.json >/dev/null"
same "http-s3.fio create" ex-s3.json write PUT "$before_put"
point http-swift.fio
SWIFT_id=tok123 "$IOBENCH" --output-format=json http-swift.fio >ex-sw.json 2>ex-sw.json.err
check "http-swift.fio: randwrite 256k of 64k objects over 1M verified (sha256), one trim; exit 0" \
	sh -c "[ \"\$(jq -c '[.jobs[] | [.write.io_bytes, .read.io_bytes, .trim.io_bytes, .error]]' ex-sw.json)\" = '[[262144,262144,0,0],[0,0,65536,0]]' ]"
point http-webdav.fio
before=$(acct plain.json PUT)
"$IOBENCH" --output-format=json http-webdav.fio >ex-dav.json 2>ex-dav.json.err
check "http-webdav.fio: 16 jobs x 10M of 64k objects written, the last version of each verified, then 16 x 1M trimmed; exit 0" \
	sh -c "[ \"\$(jq -c '[.jobs[] | [.write.io_bytes, .read.io_bytes, .trim.io_bytes, .error]]' ex-dav.json)\" = '[[167772160,16777216,0,0],[0,0,16777216,0]]' ]"
same "http-webdav.fio create (16 jobs, group_reporting)" ex-dav.json write PUT "$before"
