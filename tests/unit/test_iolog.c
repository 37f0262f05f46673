/* The I/O log reader: fio's text logs (versions 2 and 3) and blktrace files become the
 * entries a replay issues, with replay_redirect/scale/align/skip applied; every bad input is
 * one message naming the file and the line (or the event); merge_blktrace_file's merge. */
#include <errno.h>
#include <linux/blktrace_api.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/run/iolog_plan.h"
#include "core/worker/iolog_replay.h"

static const struct iolog_parse_opts plain = { NULL, NULL, 0, 0, 0 };

/* Parse text (len bytes) into log: the return value; err holds the message. */
static int parse_mem(const void *text, size_t len, const struct iolog_parse_opts *po, struct iolog *log, char *err)
{
	FILE *f = fmemopen((void *)text, len, "rb");
	assert_non_null(f);
	memset(log, 0, sizeof(*log));
	err[0] = '\0';
	int ret = iolog_read(f, "t.log", po, log, err, 512);
	fclose(f);
	return ret;
}

static int parse_str(const char *text, const struct iolog_parse_opts *po, struct iolog *log, char *err)
{
	return parse_mem(text, strlen(text), po, log, err);
}

static void test_v2(void **state)
{
	struct iolog log;
	char err[512];
	const char *text = "fio version 2 iolog\n"
			   "/d/a add\n/d/b add\n/d/a open\n/d/b open\n"
			   "/d/a write 0 4096\n"
			   "/d/a wait 50 0\n"        /* under 100 us: discarded */
			   "/d/b read 8192 512\n"
			   "/d/a wait 1500 0\n"
			   "/d/a sync 123 0\n"
			   "/d/b datasync 0 0\r\n"   /* a carriage return is no part of the line */
			   "\n"
			   "/d/b trim 4096 4096\n"
			   "/d/a close\n/d/b close\n";
	assert_int_equal(parse_str(text, &plain, &log, err), 0);
	assert_int_equal(log.format, IOLOG_V2);
	assert_int_equal(log.nfiles, 2);
	assert_string_equal(log.files[0].path, "/d/a");
	assert_string_equal(log.files[1].path, "/d/b");
	assert_int_equal(log.n, 5);
	assert_int_equal(log.ent[0].act, IOLOG_WRITE);
	assert_int_equal(log.ent[0].off, 0);
	assert_int_equal(log.ent[0].len, 4096);
	assert_int_equal(log.ent[0].t_us, 0);
	assert_int_equal(log.ent[1].act, IOLOG_READ);
	assert_int_equal(log.ent[1].file, 1);
	assert_int_equal(log.ent[1].t_us, 0);
	assert_int_equal(log.ent[2].act, IOLOG_SYNC);
	assert_int_equal(log.ent[2].t_us, 1500);
	assert_int_equal(log.ent[2].off, 0); /* a sync's offset means nothing */
	assert_int_equal(log.ent[3].act, IOLOG_DATASYNC);
	assert_int_equal(log.ent[4].act, IOLOG_TRIM);
	assert_int_equal(log.bytes[DDIR_WRITE], 4096);
	assert_int_equal(log.ios[DDIR_READ], 1);
	assert_int_equal(log.ios[DDIR_TRIM], 1);
	assert_int_equal(log.syncs, 2);
	assert_int_equal(log.max_len, 4096);
	assert_int_equal(log.files[0].extent, 4096);
	assert_int_equal(log.files[1].extent, 8704);
	assert_true(log.files[0].writes && !log.files[0].reads);
	assert_true(log.files[1].reads && log.files[1].writes); /* a trim writes */
	iolog_free(&log);
}

static void test_v3_appended(void **state)
{
	struct iolog log;
	char err[512];
	/* two runs appended to one file, as write_iolog does (fio 3.33 replays both) */
	const char *text = "fio version 3 iolog\n21 f add\n142 f open\n147 f read 0 4096\n349 f read 4096 4096\n"
			   "400 f close\nfio version 3 iolog\n30 f add\n40 f open\n50 f write 0 8192\n60 f close\n";
	assert_int_equal(parse_str(text, &plain, &log, err), 0);
	assert_int_equal(log.format, IOLOG_V3);
	assert_int_equal(log.nfiles, 1);
	assert_int_equal(log.n, 3);
	assert_int_equal(log.ent[0].t_us, 147);
	assert_int_equal(log.ent[1].t_us, 349);
	assert_int_equal(log.ent[2].t_us, 50);
	assert_int_equal(log.ent[2].act, IOLOG_WRITE);
	assert_int_equal(log.bytes[DDIR_READ], 8192);
	iolog_free(&log);
}

static void test_options(void **state)
{
	struct iolog log;
	char err[512];
	const char *text = "fio version 2 iolog\na add\nb add\na open\nb open\n"
			   "a write 1000000 4096\nb read 65537 512\nb write 12345 100\na sync 0 0\n";
	struct iolog_parse_opts po = { "/t/red", NULL, 4096, 3, 0 };
	assert_int_equal(parse_str(text, &po, &log, err), 0);
	assert_int_equal(log.nfiles, 1); /* replay_redirect: every file is that one */
	assert_string_equal(log.files[0].path, "/t/red");
	assert_int_equal(log.ent[0].off, 331776); /* 1000000 / 3, aligned down to 4096 (as fio) */
	assert_int_equal(log.ent[1].off, 20480);
	assert_int_equal(log.ent[1].len, 512);    /* a text log's lengths stay */
	assert_int_equal(log.ent[2].off, 4096);
	iolog_free(&log);
	/* redirected, each file of the log is still opened and closed on its own */
	assert_int_equal(parse_str("fio version 2 iolog\na add\nb add\na open\nb open\na write 0 1\na close\n"
				   "b write 1 1\nb close\n", &po, &log, err), 0);
	assert_int_equal(log.n, 2);
	iolog_free(&log);

	struct iolog_parse_opts dir = { NULL, "/base", 0, 0, 1u << IOLOG_WRITE | 1u << IOLOG_SYNC };
	assert_int_equal(parse_str(text, &dir, &log, err), 0);
	assert_string_equal(log.files[0].path, "/base/a");
	assert_int_equal(log.n, 1); /* replay_skip=write,sync */
	assert_int_equal(log.ent[0].act, IOLOG_READ);
	assert_int_equal(log.ent[0].off, 65537);
	iolog_free(&log);
}

/* A bad log: the return value and the message. */
static void bad(const char *text, int ret, const char *msg)
{
	struct iolog log;
	char err[512];
	assert_int_equal(parse_str(text, &plain, &log, err), ret);
	assert_string_equal(err, msg);
	iolog_free(&log);
}

#define H2 "fio version 2 iolog\nf add\nf open\n"
static void test_errors(void **state)
{
	bad("fio version 9 iolog\nf add\n", -EINVAL, "t.log:1: 'fio version 9 iolog': iobench reads iolog versions 2 and 3");
	bad("0, 0, 4096\n", -EINVAL, "t.log:1: a version 1 log: fio and iobench read versions 2 and 3 only");
	bad("hello world\n", -EINVAL, "t.log:1: not an I/O log: the first line is not 'fio version 2 iolog' or "
				      "'fio version 3 iolog', and it is not a blktrace file");
	bad("", -EINVAL, "t.log: empty: not an I/O log");
	bad(H2 "f frob 0 4096\n", -EINVAL, "t.log:4: unknown action 'frob' (read, write, trim, sync, datasync, wait)");
	bad(H2 "f write -4096 4096\n", -EINVAL, "t.log:4: negative offset '-4096'");
	bad(H2 "f write 0x10 4096\n", -EINVAL, "t.log:4: offset '0x10' is not a decimal number");
	bad(H2 "f write 99999999999999999999 1\n", -ERANGE,
	    "t.log:4: offset '99999999999999999999' is out of range (at most 9223372036854775807)");
	bad(H2 "f write 9223372036854775807 4096\n", -ERANGE,
	    "t.log:4: offset 9223372036854775807 plus length 4096 goes past 2^63 bytes");
	bad(H2 "f read 0 4294967296\n", -ERANGE, "t.log:4: length '4294967296' is out of range (at most 2147483648)");
	bad(H2 "f read 0 0\n", -EINVAL, "t.log:4: a read of length 0");
	bad(H2 "f read 4096\n", -EINVAL, "t.log:4: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH' (3 fields)");
	bad(H2 "f read 0 1 2 3 4 5 6 7\n", -EINVAL,
	    "t.log:4: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH' (7 fields)");
	bad(H2 "f read\n", -EINVAL, "t.log:4: 'read' needs an offset and a length ('FILE read OFFSET LENGTH')");
	bad(H2 "f remove\n", -EINVAL, "t.log:4: unknown file action 'remove' (add, open, close)");
	bad("fio version 2 iolog\ng open\n", -EINVAL, "t.log:2: 'g' is opened before it was added (no 'add' line for it)");
	bad(H2 "g read 0 1\n", -EINVAL, "t.log:4: 'g' was not added (no 'g add' line before it)");
	bad(H2 "f close\nf read 0 1\n", -EINVAL, "t.log:5: 'f' is not open (no 'f open' line before it)");
	bad(H2 "fio version 3 iolog\n", -EINVAL, "t.log:4: a header of another version in a version 2 log");
	bad("fio version 3 iolog\n0 f add\n0 f open\n5 f wait 100 0\n", -EINVAL,
	    "t.log:4: 'wait' is not allowed in a version 3 log (its timestamps say when)");
	bad("fio version 3 iolog\n0 f add\nx f open\n", -EINVAL, "t.log:3: timestamp 'x' is not a decimal number");
	bad("fio version 3 iolog\n0 f add\n0 f open\n5 f read 0\n", -EINVAL,
	    "t.log:4: expected 'TIME FILE ACTION' or 'TIME FILE ACTION OFFSET LENGTH' (4 fields)");

	struct iolog log;
	char err[512];
	static const char nul[] = "fio version 2 iolog\nf add\nf op\0en\n";
	assert_int_equal(parse_mem(nul, sizeof(nul) - 1, &plain, &log, err), -EINVAL);
	assert_string_equal(err, "t.log:3: binary data (a NUL byte): not a text I/O log");
	iolog_free(&log);
	static const char bin[] = "\x01\x02\x00\x05garbage\xff";
	assert_int_equal(parse_mem(bin, sizeof(bin) - 1, &plain, &log, err), -EINVAL);
	assert_string_equal(err, "t.log:1: not an I/O log: binary data that is not a blktrace file");
	iolog_free(&log);
	size_t big = PATH_MAX + 1024;
	char *longline = malloc(big + sizeof(H2));
	assert_non_null(longline);
	strcpy(longline, H2);
	memset(longline + strlen(H2), 'x', big);
	longline[strlen(H2) + big] = '\0';
	assert_int_equal(parse_str(longline, &plain, &log, err), -E2BIG);
	assert_string_equal(err, "t.log:4: line longer than 4351 bytes");
	free(longline);
	iolog_free(&log);
}

/* ---- blktrace ---- */

static size_t bt_event(unsigned char *out, bool swap, uint64_t time, uint64_t sector, uint32_t bytes, uint32_t action,
		       uint32_t dev, uint16_t pdu_len)
{
	struct blk_io_trace t = { BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION, 0, time, sector, bytes, action, 1, dev, 0, 0,
				  pdu_len };
	if (swap) {
		t.magic = __builtin_bswap32(t.magic);
		t.time = __builtin_bswap64(t.time);
		t.sector = __builtin_bswap64(t.sector);
		t.bytes = __builtin_bswap32(t.bytes);
		t.action = __builtin_bswap32(t.action);
		t.device = __builtin_bswap32(t.device);
		t.pdu_len = __builtin_bswap16(t.pdu_len);
	}
	memcpy(out, &t, sizeof(t));
	memset(out + sizeof(t), 'p', pdu_len);
	return sizeof(t) + pdu_len;
}

#define Q(cat) (BLK_TC_ACT(BLK_TC_QUEUE | (cat)) | __BLK_TA_QUEUE)
static size_t bt_sample(unsigned char *buf, bool swap)
{
	size_t n = 0;
	uint32_t dev = 8u << 20;
	n += bt_event(buf + n, swap, 500, 0, 0, BLK_TN_PROCESS, dev, 5);                       /* a notification */
	n += bt_event(buf + n, swap, 1000, 0, 4096, Q(BLK_TC_WRITE), dev, 0);                  /* write 4k at 0 */
	n += bt_event(buf + n, swap, 2000, 0, 4096, BLK_TA_ISSUE | BLK_TC_ACT(BLK_TC_WRITE), dev, 0); /* not replayed */
	n += bt_event(buf + n, swap, 3000, 0, 4096, BLK_TA_COMPLETE | BLK_TC_ACT(BLK_TC_WRITE), dev, 0);
	n += bt_event(buf + n, swap, 100001000, 16, 8192, Q(BLK_TC_READ), dev, 0);             /* 100 ms later */
	n += bt_event(buf + n, swap, 200001000, 32, 4096, Q(BLK_TC_DISCARD | BLK_TC_WRITE), dev, 0);
	n += bt_event(buf + n, swap, 300001000, 0, 0, Q(BLK_TC_FLUSH | BLK_TC_WRITE), dev, 0);
	n += bt_event(buf + n, swap, 400001000, 64, 0, Q(BLK_TC_WRITE), dev, 0);               /* no bytes */
	n += bt_event(buf + n, swap, 500001000, 3, 1000, Q(BLK_TC_WRITE | BLK_TC_SYNC), dev | 1, 0); /* another device */
	return n;
}

static void test_blktrace(void **state)
{
	unsigned char buf[16 * 64];
	struct iolog log;
	char err[512];
	for (int swap = 0; swap < 2; swap++) { /* traced on either byte order */
		size_t n = bt_sample(buf, swap);
		struct iolog_parse_opts po = { "/t/red", NULL, 0, 0, 0 };
		assert_int_equal(parse_mem(buf, n, &po, &log, err), 0);
		assert_int_equal(log.format, IOLOG_BLKTRACE);
		assert_int_equal(log.nfiles, 1);
		assert_int_equal(log.n, 5);
		assert_int_equal(log.ent[0].act, IOLOG_WRITE);
		assert_int_equal(log.ent[0].t_us, 0);
		assert_int_equal(log.ent[1].act, IOLOG_READ);
		assert_int_equal(log.ent[1].off, 8192);
		assert_int_equal(log.ent[1].len, 8192);
		assert_int_equal(log.ent[1].t_us, 100000);
		assert_int_equal(log.ent[2].act, IOLOG_TRIM);
		assert_int_equal(log.ent[2].off, 16384);
		assert_int_equal(log.ent[3].act, IOLOG_SYNC);
		assert_int_equal(log.ent[3].t_us, 300000);
		assert_int_equal(log.ent[4].act, IOLOG_WRITE);
		assert_int_equal(log.ent[4].off, 1536);
		assert_int_equal(log.ent[4].len, 1000);
		iolog_free(&log);
	}
	size_t n = bt_sample(buf, false);
	struct iolog_parse_opts al = { "/t/red", NULL, 4096, 0, 1u << IOLOG_TRIM };
	assert_int_equal(parse_mem(buf, n, &al, &log, err), 0);
	assert_int_equal(log.n, 4);
	assert_int_equal(log.ent[3].off, 0);     /* aligned down */
	assert_int_equal(log.ent[3].len, 4096);  /* and its length up, as fio's blktrace replay */
	iolog_free(&log);
	/* without replay_redirect the devices are looked for in /dev: 8:0 and 8:1 are not here
	 * (in a test machine's sandbox), or are; either way no crash and a clear message */
	int ret = parse_mem(buf, n, &plain, &log, err);
	if (ret)
		assert_non_null(strstr(err, "/dev has no block device 8:0 here"));
	iolog_free(&log);
	/* cut in the middle of an event */
	assert_int_equal(parse_mem(buf, 48 + 5 + 20, &al, &log, err), -EINVAL);
	assert_string_equal(err, "t.log: event 1 at byte 53: truncated: 20 of the 48 bytes of an event");
	iolog_free(&log);
	/* an event's data cut short; a bad magic further on */
	assert_int_equal(parse_mem(buf, 30 + 18, &al, &log, err), -EINVAL);
	assert_string_equal(err, "t.log: event 0 at byte 0: truncated: its 5 bytes of data end early");
	iolog_free(&log);
	buf[53] ^= 0xff;
	assert_int_equal(parse_mem(buf, n, &al, &log, err), -EINVAL);
	assert_non_null(strstr(err, "t.log: event 1 at byte 53: bad magic"));
	iolog_free(&log);
}

static void write_file(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	fclose(f);
}

static void test_merge(void **state)
{
	char dir[] = "/tmp/test_iolog.XXXXXX", a[64], b[64], out[64], err[512];
	unsigned char buf[4 * 64];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.bin", dir);
	snprintf(b, sizeof(b), "%s/b.bin", dir);
	snprintf(out, sizeof(out), "%s/m.bin", dir);
	size_t n = bt_event(buf, false, 1000, 0, 4096, Q(BLK_TC_WRITE), 8u << 20, 0);
	n += bt_event(buf + n, false, 3000, 8, 4096, Q(BLK_TC_WRITE), 8u << 20, 3);
	write_file(a, buf, n);
	n = bt_event(buf, false, 5000, 100, 512, Q(BLK_TC_READ), 8u << 20, 0);
	n += bt_event(buf + n, false, 6500, 200, 512, Q(BLK_TC_READ), 8u << 20, 0);
	write_file(b, buf, n);
	/* a at half its times, twice (ns 0, 1000, then 1000, 2000); b as it is (0, 1500) */
	const char *names[] = { a, b };
	const double scal[] = { 50 }, iters[] = { 2, 1 };
	assert_int_equal(blktrace_merge(names, 2, scal, 1, iters, 2, out, 0, err, sizeof(err)), 0);
	FILE *f = fopen(out, "rb");
	assert_non_null(f);
	struct iolog log = { 0 };
	struct iolog_parse_opts po = { "/t/red", NULL, 0, 0, 0 };
	assert_int_equal(iolog_read(f, "m.bin", &po, &log, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(log.n, 6);
	/* in time order (ties: a before b, a's first pass before its second) */
	const uint64_t off[] = { 0, 51200, 4096, 0, 102400, 4096 };
	const uint64_t t[] = { 0, 0, 1, 1, 1, 2 }; /* us: 0, 0, 1000 ns, 1000, 1500, 2000 */
	for (int i = 0; i < 6; i++) {
		assert_int_equal(log.ent[i].off, off[i]);
		assert_int_equal(log.ent[i].t_us, t[i]);
	}
	iolog_free(&log);
	/* a trace that is not one */
	write_file(b, "fio version 2 iolog\n", 20);
	assert_int_equal(blktrace_merge(names, 2, NULL, 0, NULL, 0, out, 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "b.bin: not a blktrace file"));
	unlink(a);
	unlink(b);
	unlink(out);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2),         cmocka_unit_test(test_v3_appended), cmocka_unit_test(test_options),
		cmocka_unit_test(test_errors),     cmocka_unit_test(test_blktrace),    cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
