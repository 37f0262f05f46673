/* fio's profiles: --profile=tiobench and --profile=act make their jobs as fio 3.33 does, from
 * the profile's options given on the command line (core/job/options_compat.c: device-names, load,
 * test-duration, threads-per-queue, read-req-num-512-blocks, large-block-op-kbytes, prep;
 * size, block, numruns, dir, threads). The jobs are written as command-line options
 * ("key=value"), which core/app/cli.c takes as if the user had typed them after the rest: the
 * profile's global options win over the user's of the same name, as in fio.
 *
 *   tiobench: four jobs in four groups (stonewall), threads, 4 files .fio.tio.1-4 under dir:
 *     seqwrite (rw=write, end_fsync=1), randwrite (rw=randwrite, end_fsync=1), seqread,
 *     randread; size (MiB; default 4 KiB per MiB of memory, fio's figure), bs=block,
 *     loops=numruns, numjobs=threads, buffered=0, ioengine=sync, overwrite=1, runtime=600.
 *   act (Aerospike's certification tool): per device, act-read-DEV (threads-per-queue threads
 *     of randread, read-req-num-512-blocks * 512 bytes, 2000 * load reads/s in all) and
 *     act-write-DEV (randwrite of large-block-op-kbytes, as many bytes/s as 1000 reads'
 *     worth per second at 1x load); direct, sync, lfsr, group_reporting, time_based for
 *     test-duration. prep: act-prep-zeroes-DEV (1 MiB zero writes), then act-prep-salt-DEV
 *     (4 KiB random writes through libaio at depth 64). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/app/cli_int.h"
#include "core/job/expr.h"
#include "core/job/options.h"
#include "core/app/opthelp.h"
#include "core/job/parse.h"
#include "core/app/profile.h"

static const char *const profiles[] = { "tiobench", "act" };

int flag_profile(const struct flag_call *c)
{
	for (size_t i = 0; c->val && i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (!strcmp(c->val, profiles[i])) {
			c->cfg->profile = profiles[i];
			return FLAG_NEXT;
		}
	fprintf(stderr, "iobench: --profile: no profile '%.*s%s' (act, tiobench)\n", SHOWN(c->val ? c->val : ""));
	return -EINVAL;
}

/* The value the user gave an option on the command line (the last one), or NULL. */
static const char *given(const struct run_cfg *cfg, const char *name, bool *bare)
{
	const char *v = NULL;
	*bare = false;
	for (size_t i = 0; i < cfg->cmdline_globals.n; i++)
		if (!strcmp(cfg->cmdline_globals.v[i].name, name)) {
			v = cfg->cmdline_globals.v[i].value;
			*bare = !v;
		}
	return v;
}

/* An option of the profile, through its row (the checks a job makes of it), into o. */
static int take(const struct run_cfg *cfg, struct job_opts *o, const char *name)
{
	bool bare;
	const char *v = given(cfg, name, &bare);
	if (!v && !bare)
		return 0;
	char err[300];
	if (option_set(o, option_find_core(name), v, err, sizeof(err))) {
		fprintf(stderr, "iobench: --profile=%s: %s: %s\n", cfg->profile, name, err);
		return -EINVAL;
	}
	return 0;
}

struct toks {
	char **v;
	size_t n, cap;
	int err;
};

static void add(struct toks *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct toks *t, const char *fmt, ...)
{
	if (t->err)
		return;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 32;
		char **v = realloc(t->v, cap * sizeof(*v));
		if (!v) {
			t->err = -ENOMEM;
			return;
		}
		t->v = v;
		t->cap = cap;
	}
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&t->v[t->n], fmt, ap) < 0)
		t->err = -ENOMEM;
	else
		t->n++;
	va_end(ap);
}

static int tiobench(const struct run_cfg *cfg, struct job_opts *o, struct toks *t)
{
	bool bare;
	const char *size = given(cfg, "size", &bare), *dir = given(cfg, "dir", &bare);
	int64_t mib = 0, threads = 1;
	const char *th = given(cfg, "threads", &bare);
	if ((size && parse_int(size, 1, INT64_MAX / (1 << 20), &mib)) || (th && parse_int(th, 1, 65536, &threads))) {
		fprintf(stderr, "iobench: --profile=tiobench: %s: '%s' is not %s\n", size && !mib ? "size" : "threads",
			size && !mib ? size : th, size && !mib ? "a whole number of MiB" : "a thread count (1..65536)");
		return -EINVAL;
	}
	if (take(cfg, o, "block") || take(cfg, o, "numruns"))
		return -EINVAL;
	struct sys_values sv;
	sys_values_read(&sv);
	/* fio's default: 4 KiB for every MiB of memory ("4*1024*$mb_memory" bytes). */
	add(t, "size=%llu", size ? (unsigned long long)mib << 20 : 4096ULL * (unsigned long long)sv.mb_memory);
	add(t, "buffered=0");
	add(t, "bs=%u", o->compat.block);
	add(t, "loops=%u", o->compat.numruns);
	add(t, "directory=%s", dir ? dir : "./");
	add(t, "numjobs=%lld", (long long)threads);
	add(t, "runtime=600");
	add(t, "overwrite=1");
	add(t, "filename=.fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4");
	add(t, "ioengine=sync");
	add(t, "stonewall");
	add(t, "thread");
	static const char *const jobs[][2] = {
		{ "seqwrite", "write" }, { "randwrite", "randwrite" }, { "seqread", "read" }, { "randread", "randread" }
	};
	for (size_t i = 0; i < 4; i++) {
		add(t, "name=%s", jobs[i][0]);
		add(t, "rw=%s", jobs[i][1]);
		if (i < 2)
			add(t, "end_fsync=1");
	}
	return t->err;
}

static void act_device(const struct compat_opts *a, const char *dev, struct toks *t)
{
	if (a->prep) {
		add(t, "name=act-prep-zeroes-%s", dev);
		add(t, "filename=%s", dev);
		add(t, "bs=1048576");
		add(t, "zero_buffers");
		add(t, "rw=write");
		add(t, "name=act-prep-salt-%s", dev);
		add(t, "stonewall");
		add(t, "filename=%s", dev);
		add(t, "bs=4096");
		add(t, "ioengine=libaio");
		add(t, "iodepth=64");
		add(t, "rw=randwrite");
		return;
	}
	uint64_t lb = (uint64_t)a->large_block_kib * 1024;
	/* 1000 records of the read size per second per load unit, written as large blocks each
	 * holding as many whole records as fit (fio's figure: read sizes of 5-7 and 35 blocks
	 * leave part of each block empty), rounded up. */
	uint64_t per_block = lb / ((uint64_t)a->read_req_blocks * 512);
	uint64_t wr = ((uint64_t)a->load * 1000 + per_block - 1) / per_block;
	add(t, "name=act-read-%s", dev);
	add(t, "filename=%s", dev);
	add(t, "rw=randread");
	add(t, "numjobs=%u", a->threads_per_queue);
	add(t, "rate_iops=%llu", (unsigned long long)(2000ULL * a->load / a->threads_per_queue));
	add(t, "bs=%u", a->read_req_blocks * 512);
	add(t, "name=act-write-%s", dev);
	add(t, "filename=%s", dev);
	add(t, "rw=randwrite");
	add(t, "rate_iops=%llu", (unsigned long long)wr);
	add(t, "bs=%llu", (unsigned long long)lb);
}

static int act(const struct run_cfg *cfg, struct job_opts *o, struct toks *t)
{
	static const char *const names[] = { "device-names", "load", "test-duration", "threads-per-queue",
					     "read-req-num-512-blocks", "large-block-op-kbytes", "prep" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (take(cfg, o, names[i]))
			return -EINVAL;
	const struct compat_opts *a = &o->compat;
	if (!a->device_names[0]) {
		fprintf(stderr, "iobench: --profile=act: device-names is not given (the devices or files to test, "
				"joined with ':')\n");
		return -EINVAL;
	}
	if (!a->prep && (uint64_t)a->read_req_blocks * 512 > (uint64_t)a->large_block_kib * 1024) {
		fprintf(stderr, "iobench: --profile=act: read-req-num-512-blocks=%u (%u bytes) is larger than "
				"large-block-op-kbytes=%u: a write block holds no whole record\n",
			a->read_req_blocks, a->read_req_blocks * 512, a->large_block_kib);
		return -EINVAL;
	}
	add(t, "direct=1");
	add(t, "ioengine=sync");
	add(t, "random_generator=lfsr");
	add(t, "group_reporting=1");
	add(t, "thread");
	if (!a->prep) {
		uint64_t us = a->test_duration_us ? a->test_duration_us : 1;
		if (us % 1000000)
			add(t, "runtime=%lluus", (unsigned long long)us);
		else
			add(t, "runtime=%llus", (unsigned long long)(us / 1000000));
		add(t, "time_based=1");
	}
	char devs[sizeof(a->device_names)];
	snprintf(devs, sizeof(devs), "%s", a->device_names);
	char *save = NULL;
	for (char *d = strtok_r(devs, ":", &save); d; d = strtok_r(NULL, ":", &save))
		act_device(a, d, t);
	return t->err;
}

int profile_tokens(const struct run_cfg *cfg, char ***tokens, size_t *n)
{
	struct toks t = { 0 };
	struct job_opts *o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	options_defaults(o);
	int ret = !strcmp(cfg->profile, "act") ? act(cfg, o, &t) : tiobench(cfg, o, &t);
	free(o);
	if (ret) {
		profile_tokens_free(t.v, t.n);
		return ret;
	}
	*tokens = t.v;
	*n = t.n;
	return 0;
}

void profile_tokens_free(char **tokens, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(tokens[i]);
	free(tokens);
}

/* --profile=NAME --cmdhelp[=OPTION|all]: the profile's options, one a line as fio lists
 * them, or one of them in full. */
int profile_print_help(FILE *out, const char *profile, const char *name)
{
	static const char *const act_opts[][2] = {
		{ "device-names", NULL }, { "load", NULL }, { "test-duration", NULL }, { "threads-per-queue", NULL },
		{ "read-req-num-512-blocks", NULL }, { "large-block-op-kbytes", NULL }, { "prep", NULL }, { NULL, NULL },
	};
	static const char *const tio_opts[][2] = {
		{ "size", "tiobench: size in MiB (default: 4 KiB per MiB of memory)" },
		{ "block", NULL }, { "numruns", NULL },
		{ "dir", "tiobench: the directory of its files (default: ./)" },
		{ "threads", "tiobench: threads per job (default 1)" }, { NULL, NULL },
	};
	bool one = name && strcmp(name, "all");
	for (const char *const(*p)[2] = !strcmp(profile, "act") ? act_opts : tio_opts; (*p)[0]; p++) {
		if (one && !strcmp(name, (*p)[0]))
			return options_print_help(out, (*p)[0]);
		if (!one)
			fprintf(out, "%-24s: %s\n", (*p)[0], (*p)[1] ? (*p)[1] : option_find_core((*p)[0])->help);
	}
	return one ? -ENOENT : 0;
}
