#!/bin/sh
# Issue 24, point 1: secrets are never printed. The credential options (http_pass, http_s3_key,
# http_s3_sse_customer_key, http_swift_auth_token) are given through each input path (the
# command line as --opt=KEY and as --opt KEY, a job file, an include file, ${VAR} from the
# environment), three http jobs (WebDAV, Swift, S3) against the local object server
# (tests/tools/http_server.py, which requires each request's credentials, so a job that ends
# without error got the real values); the run goes through every output format (normal, json,
# json+, terse, csv, the HTML page, --output files), --plot, a --sweep's documents, logs,
# --debug=all, --showcmd, --parse-only and http_verbose=2 (libcurl's log of the headers); a fio
# JSON holding the secrets goes through --merge and --compare; inputs that are refused
# (--sweep over a secret, "http_pass KEY", a value too long, arithmetic that fails) are
# refused without the value. Every byte of stdout, stderr and every file written is searched
# for each secret (and the base64 forms that travel in headers): none may be found. JSON keeps
# fio's shape: the key, with "<redacted>" for its value.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 1
PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT INT TERM

PASS=pw-Qx7Lr2Tz9Vm S3KEY=sk-Vb7Nm3Kd0wEy4 SSE=sse-Jh4Ws8Pa1Cf6Ug0Zo5Rt3Yb7Ik2X TOK=tok-Hj5Pq8Wc3Ld6
B64_BASIC=$(printf 'alice:%s' "$PASS" | base64 -w0)
B64_SSE=$(printf '%s' "$SSE" | base64 -w0)
mkdir in out srv
if ! have jq; then
	skip "secrets are never printed" "needs jq"
	exit 0
fi

jqe() { jq -e "$@" >/dev/null; }
# leaks DIR: the files under DIR that hold a secret (or its base64 form), one per line.
leaks() {
	grep -rlF -e "$PASS" -e "$S3KEY" -e "$SSE" -e "$TOK" -e "$B64_BASIC" -e "$B64_SSE" "$1"
}
# none_leaked DESCRIPTION DIR: ok when no file under DIR holds a secret.
none_leaked() {
	found=$(leaks "$2")
	if [ -z "$found" ]; then
		ok "$1: no secret in stdout, stderr or any of the $(find "$2" -type f | wc -l) files written"
	else
		notok "$1: a secret is printed"
		for f in $found; do
			grep -nF -e "$PASS" -e "$S3KEY" -e "$SSE" -e "$TOK" -e "$B64_BASIC" -e "$B64_SSE" "$f" | head -2 |
				cut -c1-160 | sed "s|^|#   ${f#"$2"/}: |"
		done
	fi
}

# ---- the help: each credential option says it is a secret ----
for o in http_pass http_s3_key http_s3_sse_customer_key http_swift_auth_token; do
	"$IOBENCH" --cmdhelp=$o >"out/cmdhelp-$o.txt" 2>&1
	check "--cmdhelp=$o: a secret, never printed" grep -q 'secret: a credential, never printed' \
		"out/cmdhelp-$o.txt"
done

# ---- the job definitions, one per input path ----
# The four secrets in each job (and http_pass in the globals); each job's mode uses its own.
MODES="dav:webdav swift:swift s3:s3"
cli_jobs() { # the command line: --opt=KEY, or with "sep" --opt KEY
	echo "--http_pass=$PASS" # a global
	for m in $MODES; do
		if [ "$1" = sep ]; then
			printf '%s\n' "--name=${m%%:*}" "--http_mode=${m#*:}" --http_pass "$PASS" --http_s3_key "$S3KEY" \
				--http_s3_sse_customer_key "$SSE" --http_swift_auth_token "$TOK"
		else
			printf '%s\n' "--name=${m%%:*}" "--http_mode=${m#*:}" "--http_pass=$PASS" "--http_s3_key=$S3KEY" \
				"--http_s3_sse_customer_key=$SSE" "--http_swift_auth_token=$TOK"
		fi
	done
}
# jobfile FILE LINES: [global] with LINES' http_pass line, then a section per mode holding LINES.
jobfile() {
	{
		printf '[global]\nhttp_pass=%s\n' "$(printf '%s' "$2" | sed -n 's/^http_pass=//p')"
		for m in $MODES; do
			printf '[%s]\nhttp_mode=%s\n%s\n' "${m%%:*}" "${m#*:}" "$2"
		done
	} >"$1"
}
LINES=$(printf 'http_pass=%s\nhttp_s3_key=%s\nhttp_s3_sse_customer_key=%s\nhttp_swift_auth_token=%s' \
	"$PASS" "$S3KEY" "$SSE" "$TOK")
jobfile in/job.fio "$LINES"
printf '%s\n' "$LINES" >in/secrets.inc
jobfile in/inc.fio "include secrets.inc"
sed -i "1,2s|^http_pass=.*|include secrets.inc|" in/inc.fio # [global]'s too
# shellcheck disable=SC2016
jobfile in/env.fio 'http_pass=${IOB_PASS}
http_s3_key=${IOB_S3}
http_s3_sse_customer_key=${IOB_SSE}
http_swift_auth_token=${IOB_TOK}'
export IOB_PASS="$PASS" IOB_S3="$S3KEY" IOB_SSE="$SSE" IOB_TOK="$TOK"
check "the env job file holds no secret itself (they come from \${VAR})" sh -c "! grep -qF '$PASS' in/env.fio"

# jobs PATH: the arguments that define the jobs for an input path, one per line.
jobs() {
	case $1 in
	cli) cli_jobs ;;
	sep) cli_jobs sep ;;
	jobfile) echo "$T/in/job.fio" ;;
	include) echo "$T/in/inc.fio" ;;
	env) echo "$T/in/env.fio" ;;
	esac
}
PATHS="cli sep jobfile include env"

# ---- parsing alone: --showcmd, --debug=parse, --parse-only (no server needed) ----
for p in $PATHS; do
	mkdir -p "out/parse-$p"
	jobs "$p" >"$T/args"
	(
		cd "out/parse-$p" || exit 1
		# shellcheck disable=SC2046
		set -- $(cat "$T/args")
		G="--ioengine=http --http_host=127.0.0.1:1 --rw=write --bs=4k --size=16k --http_user=alice --http_s3_keyid=AKID"
		# shellcheck disable=SC2086
		"$IOBENCH" $G --showcmd "$@" >showcmd.out 2>showcmd.err
		# shellcheck disable=SC2086
		"$IOBENCH" $G --parse-only --debug=all "$@" >parse.out 2>parse.err
	)
	check "$p: --showcmd names every secret option, each <redacted>" \
		[ "$(grep -o -e '--http_[a-z_3]*=<redacted>' "out/parse-$p/showcmd.out" | sort -u | wc -l)" -eq 4 ]
	n=$(grep -c 'handle_option=http_[a-z_3]*, ptr=<redacted>$' "out/parse-$p/parse.err")
	check "$p: --debug=parse lists every secret option given ($n), each <redacted>" [ "$n" -ge 13 ]
	none_leaked "$p: --showcmd, --parse-only --debug=all" "out/parse-$p"
done

# ---- merge and compare of a fio JSON result that holds the secrets ----
# fio prints them in "global options" and each job's "job options" (a document of fio's shape;
# Debian's fio 3.33 has no http engine to write one itself).
"$IOBENCH" --name=a --ioengine=null --size=1m --output-format=json+ >"$T/null.json" 2>/dev/null
jq --arg p "$PASS" --arg k "$S3KEY" --arg s "$SSE" --arg t "$TOK" \
	'.["global options"] = {"http_pass": $p, "ioengine": "http"} | .jobs[0]["job options"] +=
	{"http_pass": $p, "http_s3_key": $k, "http_s3_sse_customer_key": $s, "http_swift_auth_token": $t}' \
	"$T/null.json" >in/fio.json
check "the fio-shaped input holds the four secrets" [ "$(leaks in | grep -c fio.json)" -eq 1 ]
mkdir out/merge
"$IOBENCH" --merge in/fio.json in/fio.json >out/merge/merge.out 2>out/merge/merge.err
check "--merge: exit 0, each job's http_s3_key <redacted>" \
	jqe '[.client_stats[] | select(.jobname != "All clients") | .["job options"].http_s3_key] ==
	["<redacted>", "<redacted>"]' out/merge/merge.out
for f in normal json; do
	"$IOBENCH" --compare in/fio.json in/fio.json --output-format=$f >out/merge/compare-$f.out \
		2>out/merge/compare-$f.err
	check "--compare ($f): exit 0" [ $? -eq 0 ]
done
none_leaked "--merge, --compare" out/merge

# ---- refused inputs: one line, the value not in it ----
mkdir out/refused
# refused TAG TEXT args...: exit 1, TEXT in the one line on stderr.
refused() {
	tag=$1 want=$2
	shift 2
	(cd out/refused && "$IOBENCH" "$@" >"$tag.out" 2>"$tag.err")
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"out/refused/$tag.err")" -eq 1 ] && grep -qF -- "$want" "out/refused/$tag.err"; then
		ok "refused ($tag): exit 1, one line: $(cut -c1-100 "out/refused/$tag.err")"
	else
		notok "refused ($tag): exit $rc"
		sed 's/^/#   /' "out/refused/$tag.err" | head -3
	fi
}
J="--name=j --ioengine=http --size=16k"
# shellcheck disable=SC2086
refused sweep "--sweep: http_s3_key is a secret" $J --sweep=http_s3_key="$S3KEY,$SSE"
# shellcheck disable=SC2086
refused colon "unrecognized option '--http_pass:<redacted>'" $J "--http_pass:$PASS"
LONG=$(printf '%0300d' 0)$PASS
# shellcheck disable=SC2086
refused too-long "http_pass: value is too long" $J "--http_pass=$LONG"
# shellcheck disable=SC2016,SC2086
refused arith "cannot evaluate '<redacted>'" $J --parse-only "--http_s3_key=(\$ncpus+$S3KEY"
printf '[j]\nioengine=http\nsize=16k\nhttp_swift_auth_token %s\n' "$TOK" >in/space.fio
refused space "unknown option 'http_swift_auth_token <redacted>'" "$T/in/space.fio"
printf 'http_pass=%s\n[j]\nioengine=http\n' "$PASS" >in/outside.fio
refused outside "option 'http_pass' outside of any [section]" "$T/in/outside.fio"
# shellcheck disable=SC2016
printf '[j]\nioengine=http\nsize=16k\nhttp_s3_key=($ncpus*%s)\n' "$S3KEY" >in/arith.fio
refused arith-file "cannot evaluate '<redacted>'" --parse-only "$T/in/arith.fio"
none_leaked "refused inputs" out/refused

# ---- runs against the object server ----
if ! ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4 ' || ! have python3; then
	skip "http jobs with secrets against a local server" "needs libcurl4 and python3"
	exit 0
fi
python3 "$TOP/tests/tools/http_server.py" --port-file srv/port --accounting srv/acct.json --keyid AKID --key "$S3KEY" \
	--user alice --password "$PASS" --token "$TOK" --require-auth --lifetime 300 2>srv/log &
PIDS="$PIDS $!"
i=0
while [ ! -s srv/port ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if [ ! -s srv/port ]; then
	notok "the test server starts on 127.0.0.1"
	exit 1
fi
G="--ioengine=http --http_host=127.0.0.1:$(cat srv/port) --rw=write --bs=4k --size=16k --http_user=alice --http_s3_keyid=AKID"

for p in $PATHS; do
	R="$T/out/run-$p"
	mkdir -p "$R"
	jobs "$p" >"$T/args"
	(
		cd "$R" || exit 1
		# shellcheck disable=SC2046
		set -- $(cat "$T/args")
		fails=""
		# run NAME args...: one run; stdout in NAME.out, stderr in NAME.err; its exit noted
		run() {
			n=$1
			shift
			# shellcheck disable=SC2086
			timeout 60 "$IOBENCH" $G "$@" >"$n.out" 2>"$n.err" || fails="$fails $n"
		}
		for f in normal json json+ terse csv; do
			run "fmt-$f" --output-format=$f "$@"
		done
		run all-formats --output-format=normal,json+,terse,csv "$@"
		run html --output=page.html "$@"
		run output --output-format=json --output=report.json "$@"
		run plot --output-format=json --plot=clat.svg "$@"
		run sweep --sweep=bs=4k,8k --output-format=json,csv --plot=sweep.svg "$@"
		run sweep-html --sweep=bs=4k,8k --output=sweep.html "$@"
		run logs --write_iolog=io.log --write_bw_log=bw --write_lat_log=lat --write_iops_log=iops \
			--output-format=json "$@"
		run debug --debug=all --output-format=json "$@"
		run verbose --http_verbose=2 --output-format=json "$@"
		echo "$fails" >fails
	)
	check "$p: every run exits 0 (the server took every credential)" [ -z "$(tr -d ' \n' <"$R/fails")" ]
	check "$p: the JSON's every job ran without error (the real values reached the engine)" \
		jqe '[.jobs[].error] == [0, 0, 0]' "$R/fmt-json.out"
	check "$p: \"job options\" of each job keep the four secret keys, each \"<redacted>\"" \
		jqe '[.jobs[]["job options"] | .http_pass, .http_s3_key, .http_s3_sse_customer_key,
		.http_swift_auth_token] | length == 12 and all(. == "<redacted>")' "$R/fmt-json.out"
	check "$p: \"global options\" keep http_pass, \"<redacted>\"" \
		jqe '.["global options"].http_pass == "<redacted>"' "$R/fmt-json.out"
	check "$p: json+ as well" jqe '.jobs[0]["job options"].http_s3_key == "<redacted>"' "$R/fmt-json+.out"
	check "$p: the logs and charts were written" sh -c "[ -s '$R/io.log' ] && [ -s '$R/clat.svg' ] && [ -s '$R/sweep.svg' ]"
	check "$p: http_verbose=2 shows the request headers, credentials <redacted>" \
		sh -c "grep -q '^> X-Auth-Token: <redacted>\$' '$R/verbose.err' &&
			grep -q '^> Authorization: Basic <redacted>\$' '$R/verbose.err' &&
			grep -q '^> Authorization: AWS4-HMAC-SHA256 <redacted>\$' '$R/verbose.err' &&
			grep -q '^> x-amz-server-side-encryption-customer-key: <redacted>\$' '$R/verbose.err'"
	if [ "$p" = cli ] || [ "$p" = sep ]; then
		check "$p: the HTML page's command line shows each secret option <redacted>" \
			[ "$(grep -o 'http_[a-z_3]*[= ]&lt;redacted&gt;' "$R/page.html" | wc -l)" -eq 13 ]
	fi
	none_leaked "$p: every format, --plot, --sweep, logs, --debug=all, http_verbose=2" "$R"
done
none_leaked "all the outputs of this test" out
