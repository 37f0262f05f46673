/* The one shape of a job's line on stderr (habit 6 of the house's style):
 *   "iobench: job 'x': what\n", and where a job file gave the option,
 *   "iobench: FILE:LINE: job 'x': what\n".
 * The line is built whole and written with one stdio call, so that the lines of threads that
 * speak at once do not mix; a line of any length comes out whole. errno is kept. */
#ifndef IOBENCH_SAY_H
#define IOBENCH_SAY_H

void job_say(const char *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* file NULL: no place, the line of job_say(). */
void job_say_at(const char *file, int line, const char *job, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
