/* The steady-state and latency-target options (fio's "Steady state" section, and
 * latency_target with its window, percentile and latency_run). Their fields are struct
 * ss_opts (core/job/ss_opts.h); core/worker/steadystate.c and core/worker/latency_target.c carry them out. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job/options.h"
#include "core/job/options_rows.h"
#include "core/job/parse.h"

static const struct {
	const char *word;
	unsigned crit;
} ss_words[] = {
	{ "iops", SS_IOPS },
	{ "iops_slope", SS_IOPS | SS_SLOPE },
	{ "bw", SS_BW },
	{ "bw_slope", SS_BW | SS_SLOPE },
};

/* A limit: a decimal number; for bandwidth also a size with a suffix ("1m": bytes/s, as
 * fio reads it). 0, or -EINVAL. */
static int ss_limit(const char *s, bool bw, unsigned kb_base, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end != s && !*end && isfinite(v)) {
		*out = v;
		return 0;
	}
	uint64_t bytes;
	if (bw && !parse_size(s, kb_base, &bytes)) {
		*out = (double)bytes;
		return 0;
	}
	return -EINVAL;
}

/* ss=iops|iops_slope|bw|bw_slope:LIMIT[%] */
static int parse_ss(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	struct steady_opts *so = (struct steady_opts *)((char *)o + d->offset);
	const char *colon = strchr(v, ':');
	size_t wlen = colon ? (size_t)(colon - v) : strlen(v);
	unsigned crit = 0;
	for (size_t i = 0; i < sizeof(ss_words) / sizeof(ss_words[0]); i++)
		if (strlen(ss_words[i].word) == wlen && !strncmp(v, ss_words[i].word, wlen))
			crit = ss_words[i].crit;
	if (!crit) {
		snprintf(e, n, "cannot parse '%.*s%s': the criterion is one of iops, iops_slope, bw, bw_slope",
			 SHOWN(v));
		return -EINVAL;
	}
	if (!colon || !colon[1]) {
		snprintf(e, n, "'%.*s%s' has no limit: the criterion takes one (e.g. %.*s:0.5%%)", SHOWN(v),
			 (int)wlen, v);
		return -EINVAL;
	}
	char lim[64];
	size_t llen = strlen(colon + 1);
	bool pct = llen && colon[llen] == '%';
	if (llen >= sizeof(lim) || (pct && llen == 1)) {
		snprintf(e, n, "cannot parse the limit of '%.*s%s'", SHOWN(v));
		return -EINVAL;
	}
	snprintf(lim, sizeof(lim), "%.*s", (int)(llen - pct), colon + 1);
	double limit;
	if (ss_limit(lim, !pct && (crit & SS_BW), o->kb_base, &limit)) {
		snprintf(e, n, "cannot parse the limit '%s' of '%.*s%s' as a number%s%s", lim, SHOWN(v),
			 pct ? " (a percentage: N%)" : "", crit & SS_BW ? "" : " (IOPS: no size suffix)");
		return -EINVAL;
	}
	so->crit = crit;
	so->pct = pct;
	so->limit = limit;
	return 0;
}

/* latency_percentile=P, 0..100 */
static int parse_lat_pct(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	char *end;
	double p = strtod(v, &end);
	if (end == v || *end || !(p >= 0.0 && p <= 100.0)) { /* NaN too */
		snprintf(e, n, "cannot parse '%.*s%s' as a percentage from 0 to 100", SHOWN(v));
		return -EINVAL;
	}
	*(double *)((char *)o + d->offset) = p;
	return 0;
}

const struct option_def options_ss[] = {
	FUNC("steadystate", ss.steady, parse_ss, "iops_slope:0.01%", "iops|iops_slope|bw|bw_slope:LIMIT[%]", C_SS,
	     "What steady state is: every sample within LIMIT of the window's mean (iops, bw), or the "
	     "least-squares slope below LIMIT (iops_slope, bw_slope); N% is a share of the mean. Bandwidth "
	     "is in bytes/s",
	     .alias = "ss", .size = SZ(ss.steady)),
	TIME("steadystate_duration", ss.steady.dur_us, NULL, SEC, C_SS,
	     "The rolling window judged for steady state; the job ends when its samples meet the criterion "
	     "(0: no detection)",
	     .alias = "ss_dur"),
	TIME("steadystate_ramp_time", ss.steady.ramp_us, NULL, SEC, C_SS,
	     "Run this long (from the job's start) before the first steady-state sample", .alias = "ss_ramp"),
	TIME("steadystate_check_interval", ss.steady.interval_us, "1", SEC, C_SS,
	     "One steady-state sample per interval (fio 3.34's option; ss_dur must be a multiple of it)",
	     .alias = "ss_interval"),
	TIME("latency_target", ss.lat.target_us, NULL, 1, C_LAT,
	     "Find the highest queue depth (up to iodepth) whose I/Os meet this latency"),
	TIME("latency_window", ss.lat.window_us, NULL, 1, C_LAT,
	     "How long each queue depth is tried before it is judged"),
	FUNC("latency_percentile", ss.lat.pct, parse_lat_pct, "100", "percentage 0..100", C_LAT,
	     "Share of a window's I/Os that must meet latency_target (100: one slower I/O lowers the depth)",
	     .size = SZ(ss.lat.pct)),
	BOOL("latency_run", ss.lat.run, "0", C_LAT,
	     "Keep adjusting the depth for the whole run instead of ending once it is found"),
	{ NULL },
};
