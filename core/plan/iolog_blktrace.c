/* blktrace binary files (what `blkparse DEV -o /dev/null -d FILE` writes): replayed as fio
 * replays them, without libblktrace, and merged (merge_blktrace_file).
 *
 * A file is a run of events, each struct blk_io_trace (the kernel's <linux/blktrace_api.h>,
 * 48 bytes, in the byte order of the machine that traced) followed by pdu_len bytes. As fio
 * does, only the queue events of I/O are replayed: a discard is a trim, a flush is a sync,
 * other events with bytes are reads or writes; notifications, issues, completions, merges and
 * zero-byte I/O are not. Offsets are sectors of 512 bytes; an event is due its time after
 * the first replayed one. replay_align rounds lengths up as well as offsets down (fio's
 * blktrace replay does; its text logs keep their lengths). Each traced device is a file: the
 * block device of that number under /dev, unless replay_redirect names one file for all. */
#include "core/plan/iolog.h"
#include "core/lib/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/blktrace_api.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

_Static_assert(sizeof(struct blk_io_trace) == BLKTRACE_EVENT_LEN, "a blktrace event is 48 bytes");

#define BT_MAGIC_MASK 0xffffff00u
#define BT_DEVS_MAX 256

struct bt_reader {
	FILE *f;
	const char *name;
	unsigned char head[4];      /* the first event's first bytes, read by the caller */
	size_t nhead;
	bool swap;                  /* traced on a machine of the other byte order */
	uint32_t magic;             /* of the first event: every event has it */
	uint64_t index, pos;        /* the event being read, where it starts */
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 3, 4))) bt_fail(struct bt_reader *r, int ret, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s: event %llu at byte %llu: %s", r->name, (unsigned long long)r->index,
		 (unsigned long long)r->pos, what);
	return ret;
}

static bool magic_ok(uint32_t m)
{
	return (m & BT_MAGIC_MASK) == BLK_IO_TRACE_MAGIC;
}

bool blktrace_magic(const unsigned char head[4])
{
	uint32_t le = (uint32_t)head[0] | (uint32_t)head[1] << 8 | (uint32_t)head[2] << 16 | (uint32_t)head[3] << 24;
	return magic_ok(le) || magic_ok(__builtin_bswap32(le));
}

static void bt_swap(struct blk_io_trace *t)
{
	t->magic = __builtin_bswap32(t->magic);
	t->sequence = __builtin_bswap32(t->sequence);
	t->time = __builtin_bswap64(t->time);
	t->sector = __builtin_bswap64(t->sector);
	t->bytes = __builtin_bswap32(t->bytes);
	t->action = __builtin_bswap32(t->action);
	t->pid = __builtin_bswap32(t->pid);
	t->device = __builtin_bswap32(t->device);
	t->cpu = __builtin_bswap32(t->cpu);
	t->error = __builtin_bswap16(t->error);
	t->pdu_len = __builtin_bswap16(t->pdu_len);
}

/* The next event (and its pdu into pdu, when not NULL: up to 65535 bytes): 1, 0 at the end,
 * or -errno after the message. */
static int bt_next(struct bt_reader *r, struct blk_io_trace *t, unsigned char *pdu)
{
	unsigned char raw[BLKTRACE_EVENT_LEN];
	size_t n = r->nhead;
	memcpy(raw, r->head, r->nhead);
	r->nhead = 0;
	n += fread(raw + n, 1, sizeof(raw) - n, r->f);
	if (n == 0 && !ferror(r->f))
		return 0;
	if (n < sizeof(raw) && ferror(r->f))
		return bt_fail(r, -EIO, "cannot read: %s", strerror(errno));
	if (n < sizeof(raw))
		return bt_fail(r, -EINVAL, "truncated: %zu of the 48 bytes of an event", n);
	memcpy(t, raw, sizeof(raw));
	if (r->index == 0) {
		r->swap = !magic_ok(t->magic);
		r->magic = r->swap ? __builtin_bswap32(t->magic) : t->magic;
	}
	if (r->swap)
		bt_swap(t);
	if (t->magic != r->magic)
		return bt_fail(r, -EINVAL, "bad magic 0x%08x (0x%08x expected): not a blktrace event", t->magic, r->magic);
	unsigned char skip[4096];
	for (size_t left = t->pdu_len; left;) {
		size_t want = pdu ? left : left < sizeof(skip) ? left : sizeof(skip);
		size_t got = fread(pdu ? pdu + (t->pdu_len - left) : skip, 1, want, r->f);
		if (got != want)
			return bt_fail(r, -EINVAL, "truncated: its %u bytes of data end early", t->pdu_len);
		left -= got;
	}
	return 1;
}

static void bt_advance(struct bt_reader *r, const struct blk_io_trace *t)
{
	r->index++;
	r->pos += BLKTRACE_EVENT_LEN + t->pdu_len;
}

/* /dev's block device of number dev (depth 2: /dev/mapper/..., /dev/disk/... are links). */
static bool find_dev(const char *dir, dev_t dev, int depth, char *out, size_t outlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;
	while (d && !found && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;
		if (e->d_name[0] == '.' || snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ||
		    lstat(path, &st) < 0)
			continue;
		if (S_ISBLK(st.st_mode) && st.st_rdev == dev)
			found = snprintf(out, outlen, "%s", path) < (int)outlen;
		else if (S_ISDIR(st.st_mode) && depth > 0)
			found = find_dev(path, dev, depth - 1, out, outlen);
	}
	if (d)
		closedir(d);
	return found;
}

struct bt_devs {
	uint32_t dev[BT_DEVS_MAX];
	unsigned file[BT_DEVS_MAX];
	unsigned n;
};

static int bt_file(struct bt_reader *r, struct bt_devs *devs, const struct iolog_parse_opts *po, struct iolog *log,
		   uint32_t dev)
{
	for (unsigned i = 0; i < devs->n; i++)
		if (devs->dev[i] == dev)
			return (int)devs->file[i];
	if (devs->n == BT_DEVS_MAX)
		return bt_fail(r, -E2BIG, "more than %d devices", BT_DEVS_MAX);
	char path[PATH_MAX] = "";
	unsigned maj = dev >> 20, min = dev & 0xfffff; /* the kernel's own dev_t */
	if (!(po->redirect && po->redirect[0]) && !find_dev("/dev", makedev(maj, min), 2, path, sizeof(path)))
		return bt_fail(r, -ENODEV, "traced on device %u:%u, and /dev has no block device %u:%u here "
			       "(replay_redirect= says where to replay it)", maj, min, maj, min);
	long i = iolog_file_index(log, po, path);
	if (i < 0)
		return bt_fail(r, (int)i, "out of memory");
	devs->dev[devs->n] = dev;
	devs->file[devs->n++] = (unsigned)i;
	return (int)i;
}

/* What fio replays of an event: an action, or -1 (not replayed). */
static int bt_action(const struct blk_io_trace *t)
{
	uint32_t cat = t->action >> BLK_TC_SHIFT;
	if ((cat & BLK_TC_NOTIFY) || (t->action & 0xffff) != __BLK_TA_QUEUE)
		return -1;
	if (cat & BLK_TC_DISCARD)
		return t->bytes ? IOLOG_TRIM : -1;
	if (cat & BLK_TC_FLUSH)
		return IOLOG_SYNC;
	if (!t->bytes)
		return -1;
	return cat & BLK_TC_WRITE ? IOLOG_WRITE : IOLOG_READ;
}

int blktrace_parse(FILE *f, const unsigned char head[4], const char *name, const struct iolog_parse_opts *po,
		   struct iolog *log, char *err, size_t errlen)
{
	struct bt_reader r = { .f = f, .name = name, .nhead = 4, .err = err, .errlen = errlen };
	struct bt_devs devs = { .n = 0 };
	struct blk_io_trace t;
	uint64_t t0 = 0, last_us = 0;
	bool first = true;
	int ret;
	memcpy(r.head, head, 4);
	log->format = IOLOG_BLKTRACE;
	while ((ret = bt_next(&r, &t, NULL)) > 0) {
		int act = bt_action(&t);
		if (act >= 0) {
			if (t.sector > (uint64_t)INT64_MAX / 512)
				return bt_fail(&r, -ERANGE, "sector %llu is out of range", (unsigned long long)t.sector);
			if (t.bytes > IOLOG_MAX_LEN)
				return bt_fail(&r, -ERANGE, "%u bytes: longer than 2GiB", t.bytes);
			int file = bt_file(&r, &devs, po, log, t.device);
			if (file < 0)
				return file;
			if (first)
				t0 = t.time, first = false;
			if (t.time >= t0 && (t.time - t0) / 1000 > last_us) /* never back in time */
				last_us = (t.time - t0) / 1000;
			if (last_us > IOLOG_MAX_US)
				return bt_fail(&r, -ERANGE, "its time is out of range");
			ret = iolog_push(log, po, (unsigned)file, (enum iolog_act)act, t.sector * 512, t.bytes, last_us, true);
			if (ret)
				return bt_fail(&r, ret, ret == -ERANGE ? "offset and length go past 2^63 bytes" : "out of memory");
		}
		bt_advance(&r, &t);
	}
	return ret;
}

/* ---- merge_blktrace_file ---- */

struct bt_event {
	struct blk_io_trace t;
	unsigned char *pdu;
};
struct bt_trace {
	struct bt_event *ev;
	size_t n, cap;
};
/* One event of the merged file: its new time, and which one it is. */
struct bt_slot {
	uint64_t time;
	uint64_t order;             /* ties keep the traces' order */
	const struct bt_event *e;
};

static void traces_free(struct bt_trace *tr, unsigned n)
{
	for (unsigned i = 0; tr && i < n; i++) {
		for (size_t k = 0; k < tr[i].n; k++)
			free(tr[i].ev[k].pdu);
		free(tr[i].ev);
	}
	free(tr);
}

static int trace_load(const char *name, struct bt_trace *tr, char *err, size_t errlen)
{
	FILE *f = fopen(name, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open it: %s", name, strerror(errno));
		return -errno;
	}
	struct bt_reader r = { .f = f, .name = name, .err = err, .errlen = errlen };
	unsigned char pdu[65536];
	struct blk_io_trace t;
	int ret = fread(r.head, 1, 4, f) == 4 && blktrace_magic(r.head) ? 0 : -EINVAL;
	r.nhead = 4;
	if (ret)
		snprintf(err, errlen, "%s: not a blktrace file (merge_blktrace_file merges blktrace files only)", name);
	while (!ret && (ret = bt_next(&r, &t, pdu)) > 0) {
		if (tr->n == tr->cap) {
			size_t cap = tr->cap ? tr->cap * 2 : 256;
			struct bt_event *ev = realloc(tr->ev, cap * sizeof(*ev));
			if (!ev) {
				ret = bt_fail(&r, -ENOMEM, "out of memory");
				break;
			}
			tr->ev = ev;
			tr->cap = cap;
		}
		struct bt_event *e = &tr->ev[tr->n];
		e->t = t;
		e->pdu = NULL;
		if (t.pdu_len && !(e->pdu = malloc(t.pdu_len))) {
			ret = bt_fail(&r, -ENOMEM, "out of memory");
			break;
		}
		if (t.pdu_len)
			memcpy(e->pdu, pdu, t.pdu_len);
		tr->n++;
		bt_advance(&r, &t);
		ret = 0;
	}
	fclose(f);
	return ret;
}

static int slot_cmp(const void *a, const void *b)
{
	const struct bt_slot *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Trace i's events, scaled and repeated, as slots from *k on. */
static void trace_slots(const struct bt_trace *tr, double scalar, unsigned iters, struct bt_slot *slots, size_t *k)
{
	uint64_t t0 = tr->n ? tr->ev[0].t.time : 0, last = t0;
	for (size_t e = 0; e < tr->n; e++)
		if (tr->ev[e].t.time > last)
			last = tr->ev[e].t.time;
	uint64_t span = (uint64_t)((double)(last - t0) * scalar / 100.0);
	for (unsigned it = 0; it < iters; it++)
		for (size_t e = 0; e < tr->n; e++) {
			uint64_t rel = tr->ev[e].t.time > t0 ? tr->ev[e].t.time - t0 : 0;
			slots[*k] = (struct bt_slot){ (uint64_t)((double)rel * scalar / 100.0) + it * span, *k, &tr->ev[e] };
			(*k)++;
		}
}

static int write_slots(const char *out, const struct bt_slot *slots, size_t n, unsigned flags, char *err,
		       size_t errlen)
{
	char why[600];
	FILE *f = outfile_fopen(out, O_TRUNC, flags, why, sizeof(why));
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "merge_blktrace_file: cannot create '%s': %s", out, why);
		return -e;
	}
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		struct blk_io_trace t = slots[i].e->t;
		t.time = slots[i].time;
		t.sequence = (uint32_t)i;
		ok = fwrite(&t, sizeof(t), 1, f) == 1 && (!t.pdu_len || fwrite(slots[i].e->pdu, t.pdu_len, 1, f) == 1);
	}
	if (fclose(f) || !ok) {
		snprintf(err, errlen, "merge_blktrace_file: cannot write '%s': %s", out, strerror(errno ? errno : EIO));
		return -EIO;
	}
	return 0;
}

int blktrace_merge(const char *const *names, unsigned n, const double *scalars, unsigned nscalars,
		   const double *iters, unsigned niters, const char *out, unsigned flags, char *err, size_t errlen)
{
	struct bt_trace *tr = calloc(n ? n : 1, sizeof(*tr));
	size_t total = 0, k = 0;
	int ret = tr ? 0 : -ENOMEM;
	for (unsigned i = 0; i < n && !ret; i++) {
		unsigned it = i < niters ? (unsigned)iters[i] : 1;
		ret = trace_load(names[i], &tr[i], err, errlen);
		total += tr[i].n * it;
	}
	struct bt_slot *slots = ret ? NULL : malloc((total ? total : 1) * sizeof(*slots));
	if (!ret && !slots)
		ret = -ENOMEM;
	if (ret == -ENOMEM)
		snprintf(err, errlen, "merge_blktrace_file: out of memory");
	for (unsigned i = 0; i < n && !ret; i++)
		trace_slots(&tr[i], i < nscalars ? scalars[i] : 100.0, i < niters ? (unsigned)iters[i] : 1, slots, &k);
	if (!ret) {
		qsort(slots, total, sizeof(*slots), slot_cmp);
		ret = write_slots(out, slots, total, flags, err, errlen);
	}
	free(slots);
	traces_free(tr, n);
	return ret;
}
