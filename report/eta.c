/* The ETA line on stderr, as fio draws it:
 * Jobs: 1 (f=1): [R(1)][50.0%][r=368MiB/s][r=92 IOPS][eta 00m:01s]
 * with the running jobs' rate limits after the count when they have any:
 * Jobs: 1 (f=1), 0-500 IOPS: [R(1)]...  or  Jobs: 2 (f=2), 0B/s-2048KiB/s: [R(2)]...
 * overwritten in place on a terminal, and on a line of its own every --eta-newline. */
#include <inttypes.h>
#include <string.h>

#include "report/report.h"

/* "RRr_" -> "R(2),r(1),_(1)" */
static void runs_of(const char *states, char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; states[i] && o + 16 < len;) {
		size_t j = i;
		while (states[j] == states[i])
			j++;
		o += (size_t)snprintf(out + o, len - o, "%s%c(%zu)", o ? "," : "", states[i], j - i);
		i = j;
	}
}

int report_eta(FILE *out, const struct run_progress *p, int prev_len, bool cr, bool newline)
{
	static const char dir_letter[DDIR_NR] = { 'r', 'w', 't' };
	char runs[600], bw[128] = "", iops[128] = "";
	runs_of(p->states, runs, sizeof(runs));
	bool any = false;
	for (int d = 0; d < DDIR_NR; d++)
		any |= p->bw[d] || p->iops[d];
	for (int d = 0; d < DDIR_NR; d++) {
		/* the directions moving, as fio ([w=...,t=...] for trimwrite); r=0 when none is */
		if (!p->bw[d] && !p->iops[d] && (any || d != DDIR_READ))
			continue;
		char num[32];
		fmt_num(num, sizeof(num), p->bw[d], 4, true, UNIT_BYTE_PER_SEC);
		snprintf(bw + strlen(bw), sizeof(bw) - strlen(bw), "%s%c=%s", bw[0] ? "," : "", dir_letter[d], num);
		fmt_num(num, sizeof(num), p->iops[d], 4, false, UNIT_NONE);
		snprintf(iops + strlen(iops), sizeof(iops) - strlen(iops), "%s%c=%s", iops[0] ? "," : "",
			 dir_letter[d], num);
	}
	char rate[96] = "", lo[32], hi[32];
	if (p->rate_kind == 1)
		snprintf(rate, sizeof(rate), ", %s-%s", fmt_num(lo, sizeof(lo), p->rate_lo, 4, true, UNIT_BYTE_PER_SEC),
			 fmt_num(hi, sizeof(hi), p->rate_hi, 4, true, UNIT_BYTE_PER_SEC));
	else if (p->rate_kind == 2)
		snprintf(rate, sizeof(rate), ", %" PRIu64 "-%" PRIu64 " IOPS", p->rate_lo, p->rate_hi);
	int len = fprintf(out, "%sJobs: %u (f=%u)%s: [%s][%.1f%%][%s][%s IOPS][eta %02" PRIu64 "m:%02" PRIu64 "s]",
			  cr ? "\r" : "", p->running, p->running, rate, runs, p->pct_done, bw, iops, p->eta_s / 60,
			  p->eta_s % 60);
	len -= cr ? 1 : 0;
	/* A shorter line than the one it overwrites: spaces over the rest (no terminal codes,
	 * so a log file reads the same). */
	if (cr && len < prev_len)
		fprintf(out, "%*s", prev_len - len, "");
	if (newline)
		fputc('\n', out);
	fflush(out);
	return len;
}
