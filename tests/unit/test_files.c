/* File planning (core/plan/files.c): the names a clone works on (filename lists with escaped
 * colons, filename_format, nrfiles, directory, opendir), each file's region (size over
 * nrfiles, filesize ranges, offset, offset_increment per clone, N% of an existing file),
 * the amount of I/O (io_size, loops) and the refusals (past 2^63 - 1 bytes, too small a
 * region, no size for a missing file). Jobs go through job_resolve() as the command line's
 * do; files live in a temporary directory under /tmp, removed at the end. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/plan/files.h"
#include "core/job/job.h"
#include "core/run/resolve.h"
#include "job_args.h"

#define KiB 1024ULL
#define MiB (1024 * KiB)

static char tmp[64];        /* the test's directory */
static char err_text[4096]; /* what the last plan printed on stderr */

static const char *in_tmp(const char *name)
{
	static char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	return path;
}

static void make_file(const char *name, off_t size)
{
	int fd = open(in_tmp(name), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	close(fd);
}

/* The size of a no_file engine's target (an RBD image) for plan_job; 0: none. */
static uint64_t plan_target;
/* ENGINE_SIZED_FILES for plan_job (RADOS objects: size / nrfiles each, offset= inside). */
static bool plan_sized;

/* Plan clone `clone` of job "j" with the options given as "key=value" (NULL-terminated),
 * stderr caught in err_text. Returns files_plan()'s result. */
static int plan_job(struct file_plan *plan, unsigned clone, bool no_file, const char *first, ...)
{
	struct job *job = calloc(1, sizeof(*job));
	struct opt_list none = { 0 };
	va_list ap;
	assert_non_null(job);
	va_start(ap, first);
	job_args_add(job, "j", first, ap);
	va_end(ap);

	FILE *err = tmpfile();
	assert_non_null(err);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	int ret = job_resolve(job, &none);
	if (ret == 0)
		ret = files_plan(&job->o, clone, no_file, plan_sized, plan_target, plan);
	else
		ret = 1000; /* not files_plan's: the options did not resolve */
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(err);
	size_t n = fread(err_text, 1, sizeof(err_text) - 1, err);
	err_text[n] = '\0';
	fclose(err);
	job_free(job);
	free(job);
	if (ret == 1000)
		fail_msg("the job's options did not resolve: %s", err_text);
	return ret;
}

/* A refusal: ret, and one line on stderr holding msg. */
static void assert_refused(int got, int want, const char *msg)
{
	assert_int_equal(got, want);
	if (!strstr(err_text, msg))
		fail_msg("stderr '%s' does not hold '%s'", err_text, msg);
	const char *nl = strchr(err_text, '\n');
	assert_non_null(nl);
	assert_int_equal(nl[1], '\0');
}

static void test_next_name(void **state)
{
	char name[PATH_MAX];
	const char *p = files_next_name("a\\:b:c::d\\e", name);
	assert_string_equal(name, "a:b");
	assert_string_equal(p, "c::d\\e");
	p = files_next_name(p, name);
	assert_string_equal(name, "c");
	p = files_next_name(p, name);
	assert_string_equal(name, ""); /* an empty element: skipped by the planner */
	p = files_next_name(p, name);
	assert_string_equal(name, "d\\e"); /* a backslash before anything else stays */
	assert_string_equal(p, "");
	p = files_next_name(p, name);
	assert_string_equal(name, "");
	assert_string_equal(p, "");
	files_next_name("/dev/sda", name);
	assert_string_equal(name, "/dev/sda");
}

static void test_format_name(void **state)
{
	char out[64];
	assert_int_equal(files_format_name("$jobname.$jobnum.$filenum", "seq", 2, 7, out, sizeof(out)), 0);
	assert_string_equal(out, "seq.2.7");
	assert_int_equal(files_format_name("d/$jobname-$filenum/$jobnum$jobnum", "x", 10, 0, out, sizeof(out)), 0);
	assert_string_equal(out, "d/x-0/1010");
	assert_int_equal(files_format_name("$jobnamed $foo $", "j", 0, 0, out, sizeof(out)), 0);
	assert_string_equal(out, "jd $foo $");
	assert_int_equal(files_format_name("plain", "j", 0, 0, out, sizeof(out)), 0);
	assert_string_equal(out, "plain");
	/* The terminating NUL must fit too. */
	assert_int_equal(files_format_name("$jobname", "abcdef", 0, 0, out, 7), 0);
	assert_string_equal(out, "abcdef");
	assert_int_equal(files_format_name("$jobname", "abcdef", 0, 0, out, 6), -ENAMETOOLONG);
	assert_int_equal(files_format_name("abc", "j", 0, 0, out, 3), -ENAMETOOLONG);
	assert_int_equal(files_format_name("f$filenum", "j", 0, 4294967295u, out, 12), 0);
	assert_string_equal(out, "f4294967295");
	assert_int_equal(files_format_name("f$filenum", "j", 0, 4294967295u, out, 11), -ENAMETOOLONG);
}

static void test_filename_list(void **state)
{
	struct file_plan p;
	char dir[PATH_MAX + 16];
	snprintf(dir, sizeof(dir), "directory=%s", tmp);
	assert_int_equal(plan_job(&p, 0, false, dir, "filename=a:b\\:c::/abs/d", "size=1m", NULL), 0);
	assert_int_equal(p.nfiles, 3);
	assert_string_equal(p.files[0].path, in_tmp("a"));
	assert_string_equal(p.files[1].path, in_tmp("b:c"));
	assert_string_equal(p.files[2].path, "/abs/d"); /* an absolute name ignores directory */
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(p.files[i].offset, 0);
		assert_int_equal(p.files[i].region, 1 * MiB / 3);
		assert_int_equal(p.files[i].file_size, 1 * MiB / 3);
	}
	/* Each region is used in whole blocks (4k). */
	assert_int_equal(p.io_limit, 3 * (1 * MiB / 3 / 4096 * 4096));
	files_plan_free(&p);
	assert_null(p.files);
	assert_int_equal(p.nfiles, 0);
}

static void test_filename_format_and_nrfiles(void **state)
{
	struct file_plan p;
	char dir[PATH_MAX + 16];
	snprintf(dir, sizeof(dir), "directory=%s", tmp);
	assert_int_equal(plan_job(&p, 2, false, dir, "nrfiles=4", "size=1m", NULL), 0);
	assert_int_equal(p.nfiles, 4);
	for (unsigned k = 0; k < 4; k++) {
		char want[32];
		snprintf(want, sizeof(want), "j.2.%u", k); /* fio's default: $jobname.$jobnum.$filenum */
		assert_string_equal(p.files[k].path, in_tmp(want));
		assert_int_equal(p.files[k].region, 256 * KiB);
		assert_int_equal(p.files[k].file_size, 256 * KiB);
	}
	assert_int_equal(p.io_limit, 1 * MiB);
	files_plan_free(&p);

	/* A format naming directories that do not exist yet: made when laying out. */
	assert_int_equal(plan_job(&p, 1, false, dir, "nr_files=2", "filename_format=$jobname/$jobnum/f$filenum",
				  "size=64k", NULL),
			 0);
	assert_int_equal(p.nfiles, 2);
	assert_string_equal(p.files[0].path, in_tmp("j/1/f0"));
	assert_string_equal(p.files[1].path, in_tmp("j/1/f1"));
	assert_int_equal(p.files[1].region, 32 * KiB);
	files_plan_free(&p);

	/* Without a directory, names are relative to the working directory. */
	assert_int_equal(plan_job(&p, 0, true, "nrfiles=2", "size=8k", NULL), 0);
	assert_string_equal(p.files[0].path, "j.0.0");
	assert_string_equal(p.files[1].path, "j.0.1");
	files_plan_free(&p);
}

static void test_filesize_range(void **state)
{
	struct file_plan p, again;
	char dir[PATH_MAX + 16];
	snprintf(dir, sizeof(dir), "directory=%s", tmp);
	assert_int_equal(plan_job(&p, 0, false, dir, "nrfiles=16", "filesize=64k-128k", NULL), 0);
	assert_int_equal(p.nfiles, 16);
	uint64_t total = 0;
	bool differ = false;
	for (unsigned k = 0; k < 16; k++) {
		const struct clone_file *f = &p.files[k];
		assert_true(f->file_size >= 64 * KiB && f->file_size <= 128 * KiB);
		assert_int_equal(f->file_size % 4096, 0);
		assert_int_equal(f->offset, 0);
		assert_int_equal(f->region, f->file_size);
		total += f->region;
		differ |= f->file_size != p.files[0].file_size;
	}
	assert_true(differ); /* 16 draws from 17 sizes are not all one */
	assert_int_equal(p.io_limit, total);
	/* The same clone draws the same sizes. */
	assert_int_equal(plan_job(&again, 0, false, dir, "nrfiles=16", "filesize=64k-128k", NULL), 0);
	for (unsigned k = 0; k < 16; k++)
		assert_int_equal(again.files[k].file_size, p.files[k].file_size);
	files_plan_free(&again);
	files_plan_free(&p);

	/* With filesize, size only sets the amount of I/O; offset comes off each file. */
	assert_int_equal(plan_job(&p, 0, false, dir, "nrfiles=2", "filesize=64k", "size=1m", "offset=16k", NULL), 0);
	assert_int_equal(p.files[0].file_size, 64 * KiB);
	assert_int_equal(p.files[0].offset, 16 * KiB);
	assert_int_equal(p.files[1].region, 48 * KiB);
	assert_int_equal(p.io_limit, 1 * MiB);
	files_plan_free(&p);
}

static void test_offset_and_increment(void **state)
{
	struct file_plan p;
	char file[PATH_MAX + 16];
	snprintf(file, sizeof(file), "filename=%s", in_tmp("inc"));
	assert_int_equal(plan_job(&p, 0, false, file, "offset=1m", "size=2m", NULL), 0);
	assert_int_equal(p.files[0].offset, 1 * MiB);
	assert_int_equal(p.files[0].region, 2 * MiB);
	assert_int_equal(p.files[0].file_size, 3 * MiB);
	assert_int_equal(p.io_limit, 2 * MiB);
	files_plan_free(&p);

	for (unsigned clone = 0; clone < 4; clone++) {
		assert_int_equal(
			plan_job(&p, clone, false, file, "offset=1m", "offset_increment=512k", "size=2m", NULL), 0);
		assert_int_equal(p.files[0].offset, 1 * MiB + clone * 512 * KiB);
		assert_int_equal(p.files[0].region, 2 * MiB);
		assert_int_equal(p.files[0].file_size, 3 * MiB + clone * 512 * KiB);
		files_plan_free(&p);
	}
}

/* N% forms take the size of the file that is there. */
static void test_percentages_of_an_existing_file(void **state)
{
	struct file_plan p;
	char file[PATH_MAX + 16];
	make_file("pct", 8 * MiB);
	snprintf(file, sizeof(file), "filename=%s", in_tmp("pct"));

	assert_int_equal(plan_job(&p, 0, false, file, "size=50%", NULL), 0);
	assert_int_equal(p.files[0].offset, 0);
	assert_int_equal(p.files[0].region, 4 * MiB);
	assert_int_equal(p.files[0].file_size, 4 * MiB);
	files_plan_free(&p);

	assert_int_equal(plan_job(&p, 0, false, file, "offset=25%", "size=50%", NULL), 0);
	assert_int_equal(p.files[0].offset, 2 * MiB);
	assert_int_equal(p.files[0].region, 4 * MiB);
	assert_int_equal(p.files[0].file_size, 6 * MiB);
	files_plan_free(&p);

	/* No size: from the offset to the end of the file. */
	assert_int_equal(plan_job(&p, 0, false, file, "offset=25%", NULL), 0);
	assert_int_equal(p.files[0].region, 6 * MiB);
	assert_int_equal(p.files[0].file_size, 8 * MiB);
	assert_int_equal(p.io_limit, 6 * MiB);
	files_plan_free(&p);

	/* 10% of 8 MiB is 838860.8 bytes; as fio, clone 3's offset (2516582 bytes) is rounded
	 * up to the block size: 615 blocks of 4k. */
	assert_int_equal(plan_job(&p, 3, false, file, "offset_increment=10%", "size=1m", NULL), 0);
	assert_int_equal(p.files[0].offset, 615 * 4096);
	assert_int_equal(p.files[0].region, 1 * MiB);
	files_plan_free(&p);

	/* With bs=64k the offset (43% of 8 MiB, 3607101 bytes) rounds up to 64k, as fio; size=10%
	 * rounds down. */
	assert_int_equal(plan_job(&p, 1, false, file, "bs=64k", "offset=33%", "offset_increment=10%", "size=10%", NULL),
			 0);
	assert_int_equal(p.files[0].offset, 56 * 64 * KiB);
	assert_int_equal(p.files[0].region, 8 * MiB / 10 / (64 * KiB) * (64 * KiB));
	/* offset_align instead of the block size */
	files_plan_free(&p);
	assert_int_equal(plan_job(&p, 0, false, file, "offset=33%", "offset_align=1000", "size=4k", NULL), 0);
	assert_int_equal(p.files[0].offset, 2769000);
	files_plan_free(&p);
}

static void test_io_size_and_loops(void **state)
{
	struct file_plan p;
	assert_int_equal(plan_job(&p, 0, true, "size=1m", "io_size=3m", "loops=2", NULL), 0);
	assert_int_equal(p.files[0].region, 1 * MiB);
	assert_int_equal(p.io_limit, 6 * MiB);
	files_plan_free(&p);

	assert_int_equal(plan_job(&p, 0, true, "size=1m", "loops=5", NULL), 0);
	assert_int_equal(p.io_limit, 5 * MiB);
	files_plan_free(&p);

	/* A size that is not whole blocks: the partial block is not transferred. */
	assert_int_equal(plan_job(&p, 0, true, "size=10000", NULL), 0);
	assert_int_equal(p.files[0].region, 10000);
	assert_int_equal(p.io_limit, 8192);
	files_plan_free(&p);

	/* io_size times loops past 64 bits: as much as there is. */
	assert_int_equal(plan_job(&p, 0, true, "size=1m", "io_size=1t", "loops=9223372036854775807", NULL), 0);
	assert_true(p.io_limit == UINT64_MAX);
	files_plan_free(&p);
}

/* off_t holds 2^63 - 1 bytes: an offset or an end past it is refused, naming the clone. */
static void test_beyond_the_largest_file(void **state)
{
	struct file_plan p;
	char file[PATH_MAX + 16];
	snprintf(file, sizeof(file), "filename=%s", in_tmp("big"));

	/* The largest block-aligned offset, and a region that ends past 2^63 - 1. */
	assert_refused(plan_job(&p, 0, false, file, "offset=9223372036854771712", "size=8k", NULL), -EFBIG,
		       "offset + size of clone 0 is beyond the largest possible file (8 EiB)");
	files_plan_free(&p);
	/* ... and one that ends exactly at it is fine. */
	assert_int_equal(plan_job(&p, 0, false, file, "offset=9223372036854771712", "size=4095", "bs=1", NULL), 0);
	assert_int_equal(p.files[0].file_size, (uint64_t)INT64_MAX);
	files_plan_free(&p);

	/* offset_increment = 2^62: clone 1 starts at 4 EiB, clone 2 would start at 2^63. */
	assert_int_equal(plan_job(&p, 1, false, file, "offset_increment=4611686018427387904", "size=1m", NULL), 0);
	assert_int_equal(p.files[0].offset, 4611686018427387904ULL);
	files_plan_free(&p);
	assert_refused(plan_job(&p, 2, false, file, "offset_increment=4611686018427387904", "size=1m", NULL), -EFBIG,
		       "offset of clone 2 is beyond the largest possible file");
	files_plan_free(&p);
	/* 2^62 * 4 overflows 64 bits: refused, not wrapped to offset 0. */
	assert_refused(plan_job(&p, 4, false, file, "offset_increment=4611686018427387904", "size=1m", NULL), -EFBIG,
		       "offset of clone 4 is beyond");
	files_plan_free(&p);
}

static void test_refusals(void **state)
{
	struct file_plan p;
	char file[PATH_MAX + 16];

	snprintf(file, sizeof(file), "filename=%s", in_tmp("missing"));
	assert_refused(plan_job(&p, 0, false, file, NULL), -EINVAL, "size: not given, and '");
	assert_true(strstr(err_text, "missing' does not exist") != NULL);
	files_plan_free(&p);
	assert_refused(plan_job(&p, 0, false, file, "size=50%", NULL), -EINVAL, "does not exist");
	files_plan_free(&p);

	make_file("empty", 0);
	snprintf(file, sizeof(file), "filename=%s", in_tmp("empty"));
	assert_refused(plan_job(&p, 0, false, file, NULL), -EINVAL, "empty' is empty");
	files_plan_free(&p);

	assert_refused(plan_job(&p, 0, true, "ioengine=null", NULL), -EINVAL, "is not a file (ioengine=null needs a size)");
	files_plan_free(&p);

	assert_refused(plan_job(&p, 0, true, "size=1k", NULL), -EINVAL,
		       "the region (1024 bytes at offset 0) is smaller than the block size");
	files_plan_free(&p);

	/* A file where a directory of the path should be. */
	make_file("plain", 4096);
	snprintf(file, sizeof(file), "filename=%s/x", in_tmp("plain"));
	assert_refused(plan_job(&p, 0, false, file, "size=1m", NULL), -ENOTDIR, "Not a directory");
	files_plan_free(&p);
}

/* A remote engine's target (an RBD image of 64 MiB): its size is the job's without size=,
 * size=N% and offset=N% are of it, and a region past its end is refused. */
static void test_remote_target(void **state)
{
	struct file_plan p;
	plan_target = 64 * MiB;
	assert_int_equal(plan_job(&p, 0, true, NULL), 0);
	assert_int_equal(p.files[0].region, 64 * MiB);
	assert_int_equal(p.io_limit, 64 * MiB);
	files_plan_free(&p);
	assert_int_equal(plan_job(&p, 0, true, "size=25%", "offset=50%", NULL), 0);
	assert_int_equal(p.files[0].offset, 32 * MiB);
	assert_int_equal(p.files[0].region, 16 * MiB);
	files_plan_free(&p);
	assert_int_equal(plan_job(&p, 0, true, "offset=16m", NULL), 0);
	assert_int_equal(p.files[0].region, 48 * MiB);
	files_plan_free(&p);
	assert_refused(plan_job(&p, 0, true, "ioengine=null", "size=128m", NULL), -EINVAL,
		       "offset + size (134217728 bytes) is beyond the end of the null target (67108864 bytes)");
	files_plan_free(&p);
	plan_target = 0;
}

/* RADOS objects (ENGINE_SIZED_FILES): each is size / nrfiles bytes and offset= (N% of the
 * object's size) starts inside it, as fio 3.33's rados engine; nothing left: refused. */
static void test_sized_objects(void **state)
{
	struct file_plan p;
	plan_sized = true;
	assert_int_equal(plan_job(&p, 0, true, "ioengine=null", "size=4m", "nrfiles=2", "bs=1m", "offset=1m", NULL), 0);
	assert_int_equal(p.files[1].file_size, 2 * MiB);
	assert_int_equal(p.files[1].offset, 1 * MiB);
	assert_int_equal(p.files[1].region, 1 * MiB);
	assert_int_equal(p.io_limit, 2 * MiB);
	files_plan_free(&p);
	assert_int_equal(plan_job(&p, 0, true, "ioengine=null", "size=4m", "nrfiles=2", "bs=256k", "offset=25%", NULL), 0);
	assert_int_equal(p.files[0].offset, 512 * 1024);
	assert_int_equal(p.io_limit, 3 * MiB);
	files_plan_free(&p);
	assert_refused(plan_job(&p, 0, true, "ioengine=null", "size=4m", "nrfiles=2", "bs=1m", "offset=2m", NULL), -EINVAL,
		       "the region (0 bytes at offset 2097152) is smaller than the block size");
	files_plan_free(&p);
	plan_sized = false;
	assert_int_equal(plan_job(&p, 0, true, "ioengine=null", "size=4m", "nrfiles=2", "bs=1m", "offset=1m", NULL), 0);
	assert_int_equal(p.files[1].file_size, 3 * MiB); /* files (null): offset + size / nrfiles */
	assert_int_equal(p.io_limit, 4 * MiB);
	files_plan_free(&p);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct clone_file *)a)->path, ((const struct clone_file *)b)->path);
}

static void test_opendir(void **state)
{
	struct file_plan p;
	char opt[PATH_MAX + 16];
	assert_int_equal(mkdir(in_tmp("tree"), 0755), 0);
	assert_int_equal(mkdir(in_tmp("tree/sub"), 0755), 0);
	make_file("tree/a", 8 * KiB);
	make_file("tree/sub/b", 16 * KiB);
	make_file("tree/zero", 0);
	snprintf(opt, sizeof(opt), "opendir=%s", in_tmp("tree"));

	/* A sequential read of a tree: whole files, empty ones left out. */
	assert_int_equal(plan_job(&p, 0, false, opt, "rw=read", NULL), 0);
	assert_int_equal(p.nfiles, 2);
	qsort(p.files, p.nfiles, sizeof(p.files[0]), name_cmp);
	assert_string_equal(p.files[0].path, in_tmp("tree/a"));
	assert_string_equal(p.files[1].path, in_tmp("tree/sub/b"));
	assert_int_equal(p.files[0].region, 8 * KiB);
	assert_int_equal(p.files[1].region, 16 * KiB);
	assert_int_equal(p.io_limit, 24 * KiB);
	files_plan_free(&p);

	/* Random reads keep every regular file; the empty one then has no size to use. */
	assert_refused(plan_job(&p, 0, false, opt, "rw=randread", NULL), -EINVAL, "zero' is empty");
	files_plan_free(&p);

	assert_int_equal(mkdir(in_tmp("nothing"), 0755), 0);
	snprintf(opt, sizeof(opt), "opendir=%s", in_tmp("nothing"));
	assert_refused(plan_job(&p, 0, false, opt, NULL), -ENOENT, "opendir: no files in '");
	files_plan_free(&p);
	snprintf(opt, sizeof(opt), "opendir=%s", in_tmp("absent"));
	assert_refused(plan_job(&p, 0, false, opt, NULL), -ENOENT, "opendir: cannot read '");
	files_plan_free(&p);
}

static int make_tmp(void **state)
{
	snprintf(tmp, sizeof(tmp), "/tmp/iobench-test_files.XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int remove_tmp(void **state)
{
	return nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_name),
		cmocka_unit_test(test_format_name),
		cmocka_unit_test(test_filename_list),
		cmocka_unit_test(test_filename_format_and_nrfiles),
		cmocka_unit_test(test_filesize_range),
		cmocka_unit_test(test_offset_and_increment),
		cmocka_unit_test(test_percentages_of_an_existing_file),
		cmocka_unit_test(test_io_size_and_loops),
		cmocka_unit_test(test_beyond_the_largest_file),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_remote_target),
		cmocka_unit_test(test_sized_objects),
		cmocka_unit_test(test_opendir),
	};
	return cmocka_run_group_tests(tests, make_tmp, remove_tmp);
}
