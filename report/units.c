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

size_t utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	if (!n || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* XML 1.0 holds no C0 control but tab, newline and carriage return, nor U+FFFE and U+FFFF;
 * HTML takes no C1 control. A C0 control and DEL are shown as their Unicode control
 * pictures (U+2400 + the code, U+2421), the others as U+FFFD, as is a byte that is not UTF-8. */
void xml_escape(FILE *out, const char *s)
{
	static const char *const named[] = { ['<'] = "&lt;", ['>'] = "&gt;", ['&'] = "&amp;", ['"'] = "&quot;",
					     ['\''] = "&#39;" };
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		size_t n = *p >= 0x80 ? utf8_len(p) : 1;
		if (n > 1) {
			bool c1 = p[0] == 0xc2 && p[1] <= 0x9f, nonchar = n == 3 && !memcmp(p, "\xef\xbf", 2) && p[2] >= 0xbe;
			if (c1 || nonchar)
				fputs(REPLACEMENT, out);
			else
				fwrite(p, 1, n, out);
		} else if (!n) {
			fputs(REPLACEMENT, out);
		} else if (*p < sizeof(named) / sizeof(named[0]) && named[*p]) {
			fputs(named[*p], out);
		} else if ((*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 0x7f) {
			fprintf(out, "\xe2\x90%c", *p == 0x7f ? 0xa1 : 0x80 + *p); /* U+2400 + c, U+2421 */
		} else {
			fputc(*p, out);
		}
		p += n ? n : 1;
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
