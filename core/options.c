/* The option table and the code that applies one option to a job's resolved options. */
#include "core/options.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/parse.h"

#define OFF(f) offsetof(struct job_opts, f)
#define SZ(f) sizeof(((struct job_opts *)0)->f)

const struct option_def option_table[] = {
	{ "name", NULL, OPT_STR, OFF(name), SZ(name), NULL, 0, 0, "Name of this job" },
	{ "description", NULL, OPT_STR, OFF(description), SZ(description), NULL, 0, 0,
	  "Text job description" },
	{ "filename", NULL, OPT_STR, OFF(filename), SZ(filename), NULL, 0, 0,
	  "File to do I/O on (default: jobname.jobnum.filenum)" },
	{ "directory", NULL, OPT_STR, OFF(directory), SZ(directory), NULL, 0, 0,
	  "Directory for the job's files" },
	{ "ioengine", NULL, OPT_STR, OFF(ioengine), SZ(ioengine), "psync", 0, 0,
	  "I/O engine: psync, libaio, io_uring, null" },
	{ "rw", "readwrite", OPT_RW, OFF(rw), SZ(rw), "read", 0, 0,
	  "I/O pattern: read, write, randread, randwrite, rw, randrw" },
	{ "rwmixread", NULL, OPT_MIX_READ, OFF(rwmixread), SZ(rwmixread), "50", 0, 100,
	  "Percentage of a mixed workload that is reads" },
	{ "rwmixwrite", NULL, OPT_MIX_WRITE, OFF(rwmixread), SZ(rwmixread), NULL, 0, 100,
	  "Percentage of a mixed workload that is writes" },
	{ "bs", "blocksize", OPT_BS, OFF(bs), SZ(bs), "4k", 0, 0,
	  "Block size, or read,write,trim block sizes" },
	{ "size", NULL, OPT_SIZE, OFF(size), SZ(size), NULL, 0, 0,
	  "Total I/O size of the job (default: the file's size)" },
	{ "numjobs", NULL, OPT_UINT, OFF(numjobs), SZ(numjobs), "1", 1, 65536,
	  "Number of clones of this job" },
	{ "iodepth", NULL, OPT_UINT, OFF(iodepth), SZ(iodepth), "1", 1, 65536,
	  "Number of I/Os to keep in flight" },
	{ "kb_base", NULL, OPT_UINT, OFF(kb_base), SZ(kb_base), "1024", 1000, 1024,
	  "Base of k/m/g size suffixes: 1024 or 1000" },
	{ "runtime", "timeout", OPT_TIME, OFF(runtime_us), SZ(runtime_us), NULL, 0, 0,
	  "Stop the job after this long (seconds unless suffixed)" },
	{ "ramp_time", NULL, OPT_TIME, OFF(ramp_time_us), SZ(ramp_time_us), NULL, 0, 0,
	  "Run this long before counting statistics" },
	{ "direct", NULL, OPT_BOOL, OFF(direct), SZ(direct), "0", 0, 1,
	  "Use O_DIRECT (bypass the page cache)" },
	{ "time_based", NULL, OPT_BOOL, OFF(time_based), SZ(time_based), "0", 0, 1,
	  "Keep running until runtime expires, looping over the file" },
	{ "group_reporting", NULL, OPT_BOOL, OFF(group_reporting), SZ(group_reporting), "0", 0, 1,
	  "Report the clones of a job as one" },
	{ "stonewall", "wait_for_previous", OPT_BOOL, OFF(stonewall), SZ(stonewall), "0", 0, 1,
	  "Wait for the jobs before this one to finish; start a new group" },
	{ "new_group", NULL, OPT_BOOL, OFF(new_group), SZ(new_group), "0", 0, 1,
	  "Start a new reporting group" },
	{ "allow_mounted_write", NULL, OPT_BOOL, OFF(allow_mounted_write),
	  SZ(allow_mounted_write), "0", 0, 1, "Allow writes to a mounted block device" },
	{ "unlink", NULL, OPT_BOOL, OFF(unlink), SZ(unlink), "0", 0, 1,
	  "Remove the job's files when the job is done" },
	{ "thread", NULL, OPT_BOOL, OFF(thread), SZ(thread), "0", 0, 1,
	  "Accepted for fio compatibility: iobench always uses threads" },
};
const size_t option_count = sizeof(option_table) / sizeof(option_table[0]);

const struct option_def *option_find(const char *name)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		if (strcmp(d->name, name) == 0 || (d->alias && strcmp(d->alias, name) == 0))
			return d;
	}
	return NULL;
}

static const struct {
	const char *text;
	const char *canonical;
	unsigned bits;
} rw_modes[] = {
	{ "read", "read", RW_READ },
	{ "write", "write", RW_WRITE },
	{ "randread", "randread", RW_READ | RW_RANDOM },
	{ "randwrite", "randwrite", RW_WRITE | RW_RANDOM },
	{ "rw", "rw", RW_READ | RW_WRITE },
	{ "readwrite", "rw", RW_READ | RW_WRITE },
	{ "randrw", "randrw", RW_READ | RW_WRITE | RW_RANDOM },
};

static int set_rw(struct job_opts *o, const char *v, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(rw_modes) / sizeof(rw_modes[0]); i++) {
		if (strcmp(v, rw_modes[i].text) == 0) {
			o->rw = rw_modes[i].bits;
			snprintf(o->rw_text, sizeof(o->rw_text), "%s", rw_modes[i].canonical);
			return 0;
		}
	}
	snprintf(err, errlen, "unknown mode '%s' (read, write, randread, randwrite, rw, randrw)", v);
	return -EINVAL;
}

/* "4k" sets all three directions; "4k,64k" sets read and write (trim takes write's);
 * an empty field keeps that direction's current value. */
static int set_bs(struct job_opts *o, const char *v, char *err, size_t errlen)
{
	uint64_t bs[DDIR_NR];
	memcpy(bs, o->bs, sizeof(bs));
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", v);
	char *save = NULL, *tok = buf;
	unsigned n = 0;
	for (char *field = strtok_r(tok, ",", &save); field; field = strtok_r(NULL, ",", &save), n++) {
		if (n >= DDIR_NR)
			goto bad;
		if (!*field)
			continue;
		if (parse_size(field, o->kb_base, &bs[n]) || bs[n] == 0)
			goto bad;
	}
	if (n == 0)
		goto bad;
	if (n == 1)
		bs[DDIR_WRITE] = bs[DDIR_TRIM] = bs[DDIR_READ];
	else if (n == 2)
		bs[DDIR_TRIM] = bs[DDIR_WRITE];
	memcpy(o->bs, bs, sizeof(bs));
	return 0;
bad:
	snprintf(err, errlen, "cannot parse '%s' as a block size", v);
	return -EINVAL;
}

int option_set(struct job_opts *o, const struct option_def *def, const char *value,
	       char *err, size_t errlen)
{
	char *field = (char *)o + def->offset;
	bool b;
	int64_t i;
	int ret;

	if (!value && def->type != OPT_BOOL) {
		snprintf(err, errlen, "needs a value");
		return -EINVAL;
	}
	switch (def->type) {
	case OPT_STR:
		if (strlen(value) >= def->size) {
			snprintf(err, errlen, "value is too long (%zu bytes at most)", def->size - 1);
			return -ENAMETOOLONG;
		}
		memcpy(field, value, strlen(value) + 1);
		return 0;
	case OPT_BOOL:
		if (parse_bool(value, &b)) {
			snprintf(err, errlen, "cannot parse '%s' as a boolean (0 or 1)", value);
			return -EINVAL;
		}
		*(bool *)field = b;
		return 0;
	case OPT_UINT:
	case OPT_MIX_READ:
	case OPT_MIX_WRITE:
		ret = parse_int(value, def->min, def->max, &i);
		if (ret == -ERANGE) {
			snprintf(err, errlen, "'%s' is out of range (%lld to %lld)", value,
				 (long long)def->min, (long long)def->max);
			return ret;
		}
		if (ret) {
			snprintf(err, errlen, "cannot parse '%s' as an integer", value);
			return ret;
		}
		if (def->type == OPT_UINT && def->offset == OFF(kb_base) && i != 1000 && i != 1024) {
			snprintf(err, errlen, "must be 1000 or 1024, not '%s'", value);
			return -ERANGE;
		}
		*(unsigned *)field = (unsigned)(def->type == OPT_MIX_WRITE ? 100 - i : i);
		return 0;
	case OPT_SIZE:
		ret = parse_size(value, o->kb_base, (uint64_t *)field);
		if (ret)
			snprintf(err, errlen, ret == -ERANGE ? "'%s' does not fit in 64 bits"
							     : "cannot parse '%s' as a size", value);
		return ret;
	case OPT_TIME:
		ret = parse_time_us(value, 1000000, (uint64_t *)field);
		if (ret)
			snprintf(err, errlen, ret == -ERANGE ? "'%s' is too long a time"
							     : "cannot parse '%s' as a time", value);
		return ret;
	case OPT_BS:
		return set_bs(o, value, err, errlen);
	case OPT_RW:
		return set_rw(o, value, err, errlen);
	}
	snprintf(err, errlen, "internal error: unknown option type");
	return -EINVAL;
}

void options_defaults(struct job_opts *o)
{
	char err[256];
	memset(o, 0, sizeof(*o));
	o->kb_base = 1024;
	for (size_t i = 0; i < option_count; i++)
		if (option_table[i].def)
			option_set(o, &option_table[i], option_table[i].def, err, sizeof(err));
}
