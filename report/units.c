/* Number formatting shared by the printers. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/report.h"

unsigned report_dir_views(const struct report_unit *u, const struct dir_result *views[DDIR_NR + 1])
{
	unsigned n = 0, unified = u->job->o.unified;
	if (unified != UNIFIED_MIXED)
		for (int d = 0; d < DDIR_NR; d++)
			views[n++] = &u->dir[d];
	if (unified != UNIFIED_NONE && u->mixed)
		views[n++] = &u->dir[DDIR_MIXED];
	return n;
}

static int digits(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

char *fmt_num(char *buf, size_t len, uint64_t num, int maxlen, bool iec, enum num_unit unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const units[] = { "", "B", "B/s", "bit/s" };
	const uint64_t divisor = iec ? 1024 : 1000;
	const char *const *prefix = iec ? bin : si;
	uint64_t modulo = UINT64_MAX;
	unsigned p = 0;

	while (p < 6 && digits(num) > maxlen) {
		modulo = num % divisor;
		num /= divisor;
		p++;
	}
	if (modulo == UINT64_MAX) {
		snprintf(buf, len, "%" PRIu64 "%s%s", num, prefix[p], units[unit]);
		return buf;
	}
	int decimals = maxlen - digits(num) - 1;
	if (decimals <= 0) {
		if (modulo >= divisor / 2)
			num++;
		snprintf(buf, len, "%" PRIu64 "%s%s", num, prefix[p], units[unit]);
		return buf;
	}
	char frac[32];
	snprintf(frac, sizeof(frac), "%.*f", decimals, (double)modulo / (double)divisor);
	if (frac[0] == '1') { /* rounded up to the next whole number */
		num++;
		memset(frac + 2, '0', (size_t)decimals);
	}
	snprintf(buf, len, "%" PRIu64 ".%s%s%s", num, frac + 2, prefix[p], units[unit]);
	return buf;
}

void fmt_time(char *buf, size_t len, time_t t)
{
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%a %b %e %H:%M:%S %Y", &tm);
}

double share_pct(uint64_t part, uint64_t whole, double min_pct)
{
	if (!whole || !part)
		return 0.0;
	double v = (double)part * 100.0 / (double)whole;
	return v < min_pct ? min_pct : v;
}

void xml_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else
			fputc(*s, out);
	}
}

int pct_unit(uint64_t min_ns, uint64_t max_ns, uint64_t *div)
{
	*div = 1;
	if (min_ns <= 2000 || max_ns <= 99999)
		return 0;
	*div = 1000;
	if (min_ns <= 2000000 || max_ns <= 99999000)
		return 1;
	*div = 1000000;
	return 2;
}
